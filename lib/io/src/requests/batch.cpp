// batch.cpp — the --batch answer to one line: occupancy written as text directly, the rest via handle_text
// (--fields' selection: batch_fields.cpp).
//
// [SECTION] Writer   JSON text with nlohmann's exact bytes (dump(-1), no ASCII escaping, invalid UTF-8 replaced)
// [SECTION] Answer   write_occupancy_answer: to_json(OccupancyAnswer) without the tree
// [SECTION] Reader   a flat request object of plain values, else the full reader
#include "occ/io/batch.hpp"

#include <charconv>
#include <cmath>
#include <cstring>

#include "occ/gpu_cache.hpp"
#include "occ/io/schema.hpp"
#include "occ/io/size.hpp"
#include "occupancy_emit.hpp"

namespace occ::io {

namespace {

// [SECTION] Writer

void put(std::string& out, std::string_view s) { out.append(s.data(), s.size()); }

void put_int(std::string& out, std::int64_t v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

// nlohmann's float text (the same function its serializer calls); non-finite numbers are null.
void put_double(std::string& out, double v) {
    if (!std::isfinite(v)) {
        put(out, "null");
        return;
    }
    char buf[64];
    char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, static_cast<std::size_t>(end - buf));
}

void put_bool(std::string& out, bool b) { put(out, b ? "true" : "false"); }

// True when some byte of `s` needs JSON escaping or UTF-8 checks (control, quote, backslash,
// non-ASCII), eight bytes at a time: a word has a byte below n when (w - n*ones) & ~w & highs.
bool needs_escape(std::string_view s) {
    constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    const auto below = [](std::uint64_t w, std::uint64_t n) { return (w - n * ones) & ~w & highs; };
    std::size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, s.data() + i, 8);
        if ((w & highs) | below(w, 0x20) | below(w ^ (0x22 * ones), 1) | below(w ^ (0x5c * ones), 1)) return true;
    }
    for (; i < s.size(); ++i) {
        const auto u = static_cast<unsigned char>(s[i]);
        if (u < 0x20 || u >= 0x80 || u == '"' || u == '\\') return true;
    }
    return false;
}

// A JSON string: printable ASCII without quotes or backslashes is copied; anything else is
// written by nlohmann itself (escapes, UTF-8 checks and replacement), so the bytes agree.
void put_string(std::string& out, std::string_view s) {
    if (!needs_escape(s)) {
        out += '"';
        put(out, s);
        out += '"';
    } else {
        put(out, json(std::string(s)).dump(-1, ' ', false, json::error_handler_t::replace));
    }
}

void put_json(std::string& out, const json& j) { put(out, j.dump(-1, ' ', false, json::error_handler_t::replace)); }

// The members of a JSON object's text without its braces ("" for {}).
std::string_view members(std::string_view object_text) {
    return object_text.size() >= 2 ? object_text.substr(1, object_text.size() - 2) : std::string_view{};
}

}  // namespace

// [SECTION] Answer

namespace {

// occupancy_emit.hpp's writer that appends JSON text (the keys there are plain identifiers). With a
// FieldSelection it writes only the selected members: a member the selection does not reach is
// skipped with everything inside it (skip_ counts the open containers being skipped), one it names
// is written whole (whole_ counts the open containers inside it), and an object on the way to a
// named member is opened and its members asked in turn (prefix_ is its dotted path).
class TextWriter {
public:
    TextWriter(std::string& out, std::string_view device_json, const FieldSelection* sel = nullptr)
        : out_(out), device_json_(device_json), sel_(sel) {}
    template <typename T>
    void field(std::string_view k, const T& v) {
        if (want(k) == FieldSelection::Match::none) return;
        key(k);
        put_value(v);
    }
    void limit(std::string_view k, int v) {
        if (want(k) == FieldSelection::Match::none) return;
        key(k);
        if (v == kUnlimited) put(out_, "null");
        else put_int(out_, v);
    }
    void value(std::string_view k, const json& v) {
        const FieldSelection::Match m = want(k);
        if (m == FieldSelection::Match::none) return;
        key(k);
        if (m == FieldSelection::Match::part && v.is_object()) put_json(out_, part_of(k, v));
        else put_json(out_, v);
    }
    void begin_object(std::string_view k) { open(k, '{', true); }
    void begin_array(std::string_view k) { open(k, '[', false); }
    template <typename T>
    void item(const T& v) {
        if (skip_ > 0) return;
        comma();
        put_value(v);
    }
    void end_object() { close('}'); }
    void end_array() { close(']'); }
    void result_device(const Device& d) {
        const FieldSelection::Match m = want("device");
        if (m == FieldSelection::Match::none) return;
        if (m == FieldSelection::Match::part) return value("device", device_to_json(d));
        key("device");
        if (device_json_.empty()) put_json(out_, device_to_json(d));
        else put(out_, device_json_);
    }
    void echo_device(const Device& d) {
        if (d.segment != Segment::custom) return field("gpu", std::string_view(d.name));
        const json echo = device_echo(d);
        if (sel_) {  // member by member, the same bytes as the object's members
            for (auto it = echo.begin(); it != echo.end(); ++it) value(it.key(), it.value());
            return;
        }
        const std::string m(members(echo.dump(-1, ' ', false, json::error_handler_t::replace)));
        if (m.empty()) return;
        comma();
        put(out_, m);
    }

private:
    // Whether member k of the innermost open object is written.
    FieldSelection::Match want(std::string_view k) const {
        if (skip_ > 0) return FieldSelection::Match::none;
        if (!sel_ || whole_ > 0) return FieldSelection::Match::whole;
        return sel_->match(prefix_, k);
    }
    // The selected members of an object value at member k.
    json part_of(std::string_view k, const json& v) const {
        std::string at = prefix_;
        at.append(k);
        at += '.';
        return sel_->select_in(v, at);
    }
    void comma() {
        if (!first_) out_ += ',';
        first_ = false;
    }
    // `,"k":` in one append (the keys are the answer's own short names).
    void key(std::string_view k) {
        char buf[64];
        char* p = buf;
        if (!first_) *p++ = ',';
        first_ = false;
        if (k.size() > sizeof buf - 4) {
            out_.append(buf, static_cast<std::size_t>(p - buf));
            put_string(out_, k);
            out_ += ':';
            return;
        }
        *p++ = '"';
        std::memcpy(p, k.data(), k.size());
        p += k.size();
        *p++ = '"';
        *p++ = ':';
        out_.append(buf, static_cast<std::size_t>(p - buf));
    }
    void open(std::string_view k, char bracket, bool object) {
        const FieldSelection::Match m = want(k);
        if (m == FieldSelection::Match::none) {
            ++skip_;
            return;
        }
        if (sel_ && whole_ == 0 && m == FieldSelection::Match::part && object) {
            prefixes_.push_back(prefix_.size());
            prefix_.append(k);
            prefix_ += '.';
        } else if (sel_) {
            ++whole_;
        }
        key(k);
        out_ += bracket;
        first_ = true;
    }
    void close(char bracket) {
        if (skip_ > 0) {
            --skip_;
            return;
        }
        if (whole_ > 0) --whole_;
        else if (!prefixes_.empty()) {
            prefix_.resize(prefixes_.back());
            prefixes_.pop_back();
        }
        out_ += bracket;
        first_ = false;  // the object or array just closed is a member of its parent
    }
    template <typename T>
    void put_value(const T& v) {
        if constexpr (std::is_same_v<T, std::nullptr_t>) put(out_, "null");
        else if constexpr (std::is_same_v<T, bool>) put_bool(out_, v);
        else if constexpr (std::is_floating_point_v<T>) put_double(out_, v);
        else if constexpr (std::is_integral_v<T>) put_int(out_, v);
        else put_string(out_, v);
    }
    std::string& out_;
    std::string_view device_json_;
    const FieldSelection* sel_;
    bool first_ = true;  // no member written yet in the innermost open object or array
    int skip_ = 0, whole_ = 0;
    std::string prefix_;
    std::vector<std::size_t> prefixes_;
};

// The answer's keys, without the braces.
void write_answer_keys(const OccupancyAnswer& a, std::string& out, std::string_view device_json) {
    TextWriter w(out, device_json);
    emit_occupancy_answer(w, a);
}

}  // namespace

void write_occupancy_answer(const OccupancyAnswer& a, std::string& out, std::string_view device_json) {
    out += '{';
    write_answer_keys(a, out, device_json);
    out += '}';
}

}  // namespace occ::io

// [SECTION] Reader

namespace occ::io {
namespace {

// The keys the small reader takes: the device's name, threads, the launch's bound fields
// (launch_bindings(), kinds.cpp), sweep and an id that is an integer or a plain string. Any other
// key (cc, device, block, ...) sends the line to the full reader.
enum Key : unsigned { kGpu, kThreads, kSweep, kId, kFirstBound };
constexpr unsigned kMaxKeys = 32;  // FlatObject::present is a bit per key

struct Keys {
    const FieldSpec* spec[kMaxKeys] = {};
    std::int64_t def[kMaxKeys] = {};  // each one's default_value(), worked out once
    unsigned count = 0;
    Keys() {
        for (const FieldSpec* s : {&fields::gpu, &fields::threads, &fields::sweep, &fields::id}) spec[count++] = s;
        for (const FieldBinding<OccupancyRequest>& b : launch_bindings()) spec[count++] = b.spec;
        for (unsigned i = 0; i < count; ++i) def[i] = spec[i]->type == FieldType::text ? 0 : default_value(*spec[i]);
    }
};
const Keys& keys() {
    static const Keys k;
    return k;
}

struct Value {
    enum Type : std::uint8_t { integer, string, boolean } type = integer;
    std::int64_t i = 0;
    std::string_view s;
};

// A flat JSON object {"key": value, ...} whose values are integers (no fraction, no exponent, at
// most 15 digits), strings of printable ASCII without escapes, true or false. False for anything
// else: the full reader then answers the line (including every error it reports).
class FlatObject {
public:
    Value values[kMaxKeys];
    unsigned present = 0;

    bool read(std::string_view text) {
        p_ = text.data();
        e_ = p_ + text.size();
        ws();
        if (!eat('{')) return false;
        ws();
        if (eat('}')) return end();
        for (;;) {
            std::string_view k;
            if (!eat('"') || !string(k)) return false;
            const Keys& ks = keys();
            unsigned id = ks.count;
            for (unsigned i = 0; i < ks.count; ++i)
                if (ks.spec[i]->key == k) {
                    id = i;
                    break;
                }
            if (id == ks.count || (present & (1u << id))) return false;  // unknown or repeated key
            present |= 1u << id;
            ws();
            if (!eat(':')) return false;
            ws();
            if (!value(values[id])) return false;
            ws();
            if (eat(',')) {
                ws();
                continue;
            }
            if (eat('}')) return end();
            return false;
        }
    }

private:
    const char* p_ = nullptr;
    const char* e_ = nullptr;

    void ws() {
        while (p_ < e_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
    }
    bool eat(char c) {
        if (p_ < e_ && *p_ == c) {
            ++p_;
            return true;
        }
        return false;
    }
    bool end() {
        ws();
        return p_ == e_;
    }
    bool literal(std::string_view w) {
        if (static_cast<std::size_t>(e_ - p_) < w.size() || std::memcmp(p_, w.data(), w.size()) != 0) return false;
        p_ += w.size();
        return true;
    }
    // After the opening quote.
    bool string(std::string_view& out) {
        const char* b = p_;
        while (p_ < e_ && *p_ != '"') {
            const auto u = static_cast<unsigned char>(*p_);
            if (u < 0x20 || u >= 0x80 || u == '\\') return false;
            ++p_;
        }
        if (p_ == e_) return false;
        out = std::string_view(b, static_cast<std::size_t>(p_ - b));
        ++p_;
        return true;
    }
    static bool digit(char c) { return c >= '0' && c <= '9'; }
    bool value(Value& v) {
        if (p_ == e_) return false;
        if (*p_ == '"') {
            ++p_;
            v.type = Value::string;
            return string(v.s);
        }
        if (*p_ == 't' || *p_ == 'f') {
            v.type = Value::boolean;
            v.i = *p_ == 't';
            return literal(*p_ == 't' ? "true" : "false");
        }
        v.type = Value::integer;
        const bool neg = eat('-');
        if (p_ == e_ || !digit(*p_)) return false;
        if (*p_ == '0' && p_ + 1 < e_ && digit(p_[1])) return false;  // JSON has no leading zeros
        std::int64_t x = 0;
        int n = 0;
        while (p_ < e_ && digit(*p_)) {
            if (++n > 15) return false;
            x = x * 10 + (*p_++ - '0');
        }
        if (p_ < e_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E')) return false;
        v.i = neg ? -x : x;
        return true;
    }
};

// The field's plain value (occ/io/binding.hpp) when FieldReader would take it without a message:
// an integer in range (for sizes also a size string such as "48K"), true or false, or one of the
// choices in lower case; its default when absent. False otherwise: the full reader answers then.
bool plain_field(const FlatObject& o, unsigned id, std::int64_t& out) {
    const Keys& ks = keys();
    if (!(o.present & (1u << id))) {
        out = ks.def[id];
        return true;
    }
    const FieldSpec& s = *ks.spec[id];
    const Value& v = o.values[id];
    switch (s.type) {
        case FieldType::boolean:
            if (v.type != Value::boolean) return false;
            out = v.i;
            return true;
        case FieldType::choice: out = v.type == Value::string ? choice_index(s, v.s) : -1; return out >= 0;
        case FieldType::integer:
        case FieldType::size: {
            std::int64_t x = v.i;
            if (v.type == Value::string && s.type == FieldType::size) {
                const Result<std::int64_t> parsed = parse_size(v.s, s.key);
                if (!parsed) return false;
                x = *parsed;
            } else if (v.type != Value::integer) {
                return false;
            }
            if (x < s.lo || x > s.hi || (s.valid && !s.valid(x))) return false;
            out = x;
            return true;
        }
        default: return false;
    }
}

}  // namespace

const std::string& BatchAnswerer::device_text(const Device* d) {
    for (const DeviceText& t : devices_)
        if (t.device == d) return t.json;
    devices_.push_back({d, device_to_json(*d).dump(-1, ' ', false, json::error_handler_t::replace)});
    return devices_.back().json;
}

bool BatchAnswerer::answer_occupancy_fast(std::string_view line, std::string& out) {
    FlatObject o;
    if (!o.read(line)) return false;
    // The device: a GPU name (read_device's fallback when absent).
    std::string_view name = kDefaultGpu;
    if (o.present & (1u << kGpu)) {
        if (o.values[kGpu].type != Value::string) return false;
        name = o.values[kGpu].s;
    }
    const Device* device = find_gpu_cached(name);
    if (!device) return false;
    std::int64_t threads, sweep;
    if (!plain_field(o, kThreads, threads) || !plain_field(o, kSweep, sweep) || sweep != keys().def[kSweep]) return false;
    const bool has_id = (o.present & (1u << kId)) != 0;
    if (has_id && o.values[kId].type == Value::boolean) return false;
    // read_occupancy_request, field by field.
    OccupancyAnswer& a = answer_;
    OccupancyRequest& r = a.input;
    r.kernel = KernelResources{};
    r.launch = LaunchConfig{};
    r.warpgroup_regs.clear();
    unsigned id = kFirstBound;
    for (const FieldBinding<OccupancyRequest>& b : launch_bindings()) {
        std::int64_t v;
        if (!plain_field(o, id++, v)) return false;
        b.set(r, v);
    }
    if (answer_device_ != device) {
        r.device = *device;
        answer_device_ = device;
    }
    r.launch.threads = static_cast<int>(threads);
    r.block[0] = r.launch.threads;
    r.block[1] = r.block[2] = 1;
    a.result = compute_occupancy(r.device, r.kernel, r.launch);
    out += '{';
    TextWriter w(out, device_text(device), fields_);
    emit_occupancy_answer(w, a);
    if (has_id) {  // to_json's last key
        const Value& id = o.values[kId];
        if (id.type == Value::integer) w.field("id", id.i);
        else w.field("id", id.s);
    }
    out += '}';
    ++fast_lines_;
    return true;
}

bool BatchAnswerer::answer(std::string_view kind, std::string_view line, std::string& out) {
    if (kind == "occupancy") {
        const std::size_t start = out.size();
        if (answer_occupancy_fast(line, out)) return !answer_.result.ok();
        out.resize(start);
    }
    const json res = handle_text(kind, line);
    const auto it = res.find("error");
    put_json(out, fields_ ? fields_->select(res) : res);
    return it != res.end() && !it->is_null();
}

}  // namespace occ::io
