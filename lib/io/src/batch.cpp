// batch.cpp — the --batch answer to one line: occupancy written as text directly, the rest via handle_text.
//
// [SECTION] Writer   JSON text with nlohmann's exact bytes (dump(-1), no ASCII escaping, invalid UTF-8 replaced)
// [SECTION] Answer   write_occupancy_answer: to_json(OccupancyAnswer) without the tree
// [SECTION] Reader   a flat request object of plain values, else the full reader
#include "occ/io/batch.hpp"

#include <charconv>
#include <cmath>

#include "occ/gpu_cache.hpp"
#include "occ/io/schema.hpp"
#include "occ/io/size.hpp"

namespace occ::io {

// api_occupancy.cpp: the sweep's step function, and the echo's spellings of two choices.
json sweep_to_json(const std::vector<SweepPoint>& pts, const std::string& input);
const char* cache_name(CacheConfig c);
const char* pgc_name(PartitionedGC p);

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
    if (!std::isfinite(v)) { put(out, "null"); return; }
    char buf[64];
    char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, static_cast<std::size_t>(end - buf));
}

void put_bool(std::string& out, bool b) { put(out, b ? "true" : "false"); }

// A JSON string: printable ASCII without quotes or backslashes is copied; anything else is
// written by nlohmann itself (escapes, UTF-8 checks and replacement), so the bytes agree.
void put_string(std::string& out, std::string_view s) {
    bool plain = true;
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u >= 0x80 || c == '"' || c == '\\') { plain = false; break; }
    }
    if (plain) {
        out += '"';
        put(out, s);
        out += '"';
    } else {
        put(out, json(std::string(s)).dump(-1, ' ', false, json::error_handler_t::replace));
    }
}

void put_json(std::string& out, const json& j) { put(out, j.dump(-1, ' ', false, json::error_handler_t::replace)); }

// "key": (the keys here are plain identifiers)
void key(std::string& out, std::string_view k, bool first = false) {
    if (!first) out += ',';
    out += '"';
    put(out, k);
    put(out, "\":");
}

void put_limit(std::string& out, int v) {
    if (v == kUnlimited) put(out, "null");
    else put_int(out, v);
}


// The members of a JSON object's text without its braces ("" for {}).
std::string_view members(std::string_view object_text) {
    return object_text.size() >= 2 ? object_text.substr(1, object_text.size() - 2) : std::string_view{};
}

}  // namespace

// [SECTION] Answer

// Mirrors occupancy_to_json + occupancy_request_to_json + to_json(OccupancyAnswer) (api_occupancy.cpp),
// key by key; tests/unit/test_batch.cpp holds the two to the same bytes.
void write_occupancy_answer(const OccupancyAnswer& a, std::string& out, std::string_view device_json) {
    const OccupancyResult& r = a.result;
    const OccupancyRequest& in = a.input;
    const Device& d = in.device;
    out += '{';
    key(out, "blocks_per_sm", true); put_int(out, r.blocks_per_sm);
    key(out, "warps_per_sm"); put_int(out, r.warps_per_sm);
    key(out, "threads_per_sm"); put_int(out, r.threads_per_sm);
    key(out, "occupancy"); put_double(out, r.occupancy);
    key(out, "warps_per_block"); put_int(out, r.warps_per_block);
    key(out, "max_warps_per_sm"); put_int(out, r.max_warps_per_sm);
    key(out, "limits");
    out += '{';
    key(out, "warps", true); put_limit(out, r.limit_warps);
    key(out, "registers"); put_limit(out, r.limit_registers);
    key(out, "shared_memory"); put_limit(out, r.limit_shared_memory);
    key(out, "blocks"); put_limit(out, r.limit_blocks);
    key(out, "barriers"); put_limit(out, r.limit_barriers);
    if (in.kernel.virtual_resources > 0) { key(out, "virtual_resources"); put_limit(out, r.limit_virtual_resources); }
    out += '}';
    key(out, "limiters");
    out += '[';
    bool first = true;
    for (Limiter l : kAllLimiters) {
        if (!(r.limiters & l)) continue;
        if (!first) out += ',';
        first = false;
        out += '"';
        put(out, limiter_name(l));
        out += '"';
    }
    if (r.limiters & kLimitVirtualResources) put(out, first ? "\"virtual_resources\"" : ",\"virtual_resources\"");
    out += ']';
    key(out, "regs_per_warp_allocated"); put_int(out, r.regs_per_warp_allocated);
    key(out, "regs_per_block_allocated"); put_int(out, r.regs_per_block_allocated);
    key(out, "smem_per_block_allocated"); put_int(out, r.smem_per_block_allocated);
    key(out, "smem_per_block_limit"); put_int(out, r.smem_per_block_limit);
    key(out, "smem_per_sm_configured"); put_int(out, r.smem_per_sm_configured);
    key(out, "driver_smem");
    const DriverSmemConfig c = driver_smem_config(d.arch, in.kernel, r);
    if (c.bytes < 0) {
        put(out, "null");
    } else {
        put(out, "{\"configured\":"); put_int(out, c.bytes);
        put(out, ",\"block_limit\":"); put_int(out, c.block_limit);
        put(out, ",\"may_be_larger\":"); put_bool(out, c.may_be_larger);
        out += '}';
    }
    key(out, "partitioned_gc_active"); put_bool(out, r.partitioned_gc_active);
    key(out, "error");
    if (r.ok()) put(out, "null");
    else put_string(out, r.error_message());
    key(out, "device");
    if (device_json.empty()) put_json(out, device_to_json(d));
    else put(out, device_json);

    // "input": occupancy_request_to_json
    key(out, "input");
    out += '{';
    if (d.segment != Segment::custom) {
        key(out, "gpu", true);
        put_string(out, d.name);
    } else {
        put(out, members(device_echo(d).dump(-1, ' ', false, json::error_handler_t::replace)));
    }
    if (in.block[1] > 1 || in.block[2] > 1) {
        key(out, "block");
        out += '[';
        put_int(out, in.block[0]); out += ','; put_int(out, in.block[1]); out += ','; put_int(out, in.block[2]);
        out += ']';
    } else {
        key(out, "threads"); put_int(out, in.launch.threads);
    }
    key(out, "regs"); put_int(out, in.kernel.regs_per_thread);
    key(out, "smem_static"); put_int(out, in.kernel.smem_static);
    key(out, "smem_dynamic"); put_int(out, in.launch.smem_dynamic);
    key(out, "carveout"); put_int(out, in.launch.carveout);
    key(out, "cache_config"); out += '"'; put(out, cache_name(in.launch.cache_config)); out += '"';
    key(out, "optin"); put_bool(out, in.kernel.optin);
    if (in.kernel.max_dynamic_smem >= 0) { key(out, "max_dynamic_smem"); put_int(out, in.kernel.max_dynamic_smem); }
    key(out, "barriers"); put_int(out, in.kernel.barriers);
    key(out, "partitioned_gc"); out += '"'; put(out, pgc_name(in.kernel.partitioned_gc)); out += '"';
    if (in.launch.grid_blocks > 0) { key(out, "grid"); put_int(out, in.launch.grid_blocks); }
    if (in.kernel.virtual_resources != fields::virtual_resources.int_default) {
        key(out, "virtual_resources");
        put_int(out, in.kernel.virtual_resources);
    }
    out += '}';
    if (!a.sweep_input.empty()) { key(out, "sweep"); put_json(out, sweep_to_json(a.sweep, a.sweep_input)); }
    if (a.id) { key(out, "id"); put_json(out, *a.id); }
    out += '}';
}

}  // namespace occ::io

// [SECTION] Reader

namespace occ::io {
namespace {

// The keys the small reader takes: the occupancy request's plain fields (schema.cpp) and an id
// that is an integer or a plain string. Any other key (cc, device, block, ...) sends the line to
// the full reader.
enum Key : unsigned {
    kGpu, kThreads, kRegs, kSmemStatic, kSmemDynamic, kCarveout, kCacheConfig, kOptin, kMaxDynamicSmem, kBarriers,
    kPartitionedGc, kGrid, kVirtualResources, kSweep, kId, kKeyCount
};
const FieldSpec* const kSpecs[kKeyCount] = {
    &fields::gpu, &fields::threads, &fields::regs, &fields::smem_static, &fields::smem_dynamic, &fields::carveout,
    &fields::cache_config, &fields::optin, &fields::max_dynamic_smem, &fields::barriers, &fields::partitioned_gc,
    &fields::grid, &fields::virtual_resources, &fields::sweep, &fields::id,
};

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
    Value values[kKeyCount];
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
            unsigned id = kKeyCount;
            for (unsigned i = 0; i < kKeyCount; ++i)
                if (kSpecs[i]->key == k) { id = i; break; }
            if (id == kKeyCount || (present & (1u << id))) return false;   // unknown or repeated key
            present |= 1u << id;
            ws();
            if (!eat(':')) return false;
            ws();
            if (!value(values[id])) return false;
            ws();
            if (eat(',')) { ws(); continue; }
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
        if (p_ < e_ && *p_ == c) { ++p_; return true; }
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
        if (*p_ == '0' && p_ + 1 < e_ && digit(p_[1])) return false;   // JSON has no leading zeros
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

// The field's value when it is a plain integer (or, for sizes, a size string such as "48K")
// inside the field's range: what FieldReader::integer and ::size accept without a message; else false.
bool int_field(const FlatObject& o, unsigned id, std::int64_t& out) {
    const FieldSpec& s = *kSpecs[id];
    if (!(o.present & (1u << id))) { out = s.int_default; return true; }
    const Value& v = o.values[id];
    std::int64_t x = v.i;
    if (v.type == Value::string && s.type == FieldType::size) {
        const Result<std::int64_t> parsed = parse_size(v.s, s.key);
        if (!parsed) return false;
        x = *parsed;
    } else if (v.type != Value::integer) {
        return false;
    }
    if (x < s.lo || x > s.hi) return false;
    out = x;
    return true;
}

// One of the field's choices, given in lower case (FieldReader::choice), else false.
bool choice_field(const FlatObject& o, unsigned id, std::string_view& out) {
    const FieldSpec& s = *kSpecs[id];
    if (!(o.present & (1u << id))) { out = s.def; return true; }
    const Value& v = o.values[id];
    if (v.type != Value::string) return false;
    for (std::size_t b = 0; b <= s.choices.size();) {
        std::size_t e = s.choices.find(',', b);
        if (e == std::string_view::npos) e = s.choices.size();
        if (s.choices.substr(b, e - b) == v.s) { out = s.choices.substr(b, e - b); return true; }
        b = e + 1;
    }
    return false;
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
    std::string_view name = "A100-SXM4-80GB";
    if (o.present & (1u << kGpu)) {
        if (o.values[kGpu].type != Value::string) return false;
        name = o.values[kGpu].s;
    }
    const Device* device = find_gpu_cached(name);
    if (!device) return false;
    std::int64_t threads, regs, smem_static, smem_dynamic, carveout, max_dyn, barriers, grid, virt;
    std::string_view cache, pgc, sweep;
    if (!int_field(o, kThreads, threads) || !int_field(o, kRegs, regs) || !int_field(o, kSmemStatic, smem_static) ||
        !int_field(o, kSmemDynamic, smem_dynamic) || !int_field(o, kCarveout, carveout) || !int_field(o, kMaxDynamicSmem, max_dyn) ||
        !int_field(o, kBarriers, barriers) || !int_field(o, kGrid, grid) || !int_field(o, kVirtualResources, virt) ||
        !choice_field(o, kCacheConfig, cache) || !choice_field(o, kPartitionedGc, pgc) || !choice_field(o, kSweep, sweep))
        return false;
    if (sweep != "none") return false;
    const bool has_id = (o.present & (1u << kId)) != 0;
    if (has_id && o.values[kId].type == Value::boolean) return false;
    bool optin = fields::optin.def == "true";
    if (o.present & (1u << kOptin)) {
        if (o.values[kOptin].type != Value::boolean) return false;
        optin = o.values[kOptin].i != 0;
    }
    // read_occupancy_request, field by field.
    OccupancyAnswer& a = answer_;
    if (answer_device_ != device) {
        a.input.device = *device;
        answer_device_ = device;
    }
    OccupancyRequest& r = a.input;
    r.kernel = KernelResources{};
    r.launch = LaunchConfig{};
    r.launch.threads = static_cast<int>(threads);
    r.block[0] = r.launch.threads;
    r.block[1] = r.block[2] = 1;
    r.kernel.regs_per_thread = static_cast<int>(regs);
    r.kernel.smem_static = smem_static;
    r.launch.smem_dynamic = smem_dynamic;
    r.launch.carveout = static_cast<int>(carveout);
    r.launch.cache_config = cache == "shared" ? CacheConfig::prefer_shared : cache == "l1" ? CacheConfig::prefer_l1
                          : cache == "equal" ? CacheConfig::prefer_equal : CacheConfig::none;
    r.kernel.optin = optin;
    r.kernel.max_dynamic_smem = max_dyn;
    r.kernel.barriers = static_cast<int>(barriers);
    r.kernel.partitioned_gc = pgc == "on" ? PartitionedGC::on : pgc == "strict" ? PartitionedGC::strict : PartitionedGC::off;
    r.launch.grid_blocks = grid;
    r.kernel.virtual_resources = static_cast<int>(virt);
    a.result = compute_occupancy(r.device, r.kernel, r.launch);
    write_occupancy_answer(a, out, device_text(device));
    if (has_id) {   // to_json's last key
        const Value& id = o.values[kId];
        out.back() = ',';
        key(out, "id", true);
        if (id.type == Value::integer) put_int(out, id.i);
        else put_string(out, id.s);
        out += '}';
    }
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
    put_json(out, res);
    return it != res.end() && !it->is_null();
}

}  // namespace occ::io
