// fields.cpp — FieldReader.
#include "occ/io/fields.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

#include "occ/io/binding.hpp"
#include "occ/io/size.hpp"
#include "occ/io/utf8.hpp"
#include "occ/names.hpp"
#include "occ/text.hpp"

namespace occ::io {

std::string shown(const json& v) {
    const std::string s = v.dump(-1, ' ', false, json::error_handler_t::replace);
    return s.size() > 40 ? utf8_prefix(s, 37) + "..." : s;
}

[[gnu::noinline]] Caught run_catching(void (*fn)(void*), void* ctx, std::string* what, bool all) {
    try {
        fn(ctx);
        return Caught::nothing;
    } catch (const RequestError& e) {
        *what = e.what();
        return Caught::request_error;
    } catch (const std::exception& e) {
        if (!all) throw;
        *what = e.what();
    } catch (...) {
        if (!all) throw;
        *what = "unknown exception";
    }
    return Caught::exception;
}

FieldReader::FieldReader(const json& obj, std::string context, const KindSpec* kind) : obj_(obj), ctx_(std::move(context)), kind_(kind) {
    if (!obj_.is_object()) throw RequestError(ctx_ + " must be a JSON object, got " + shown(obj_));
    constexpr std::string_view suffix = " request";
    if (!kind_ && ctx_.size() > suffix.size() && std::string_view(ctx_).substr(ctx_.size() - suffix.size()) == suffix)
        kind_ = find_kind(std::string_view(ctx_).substr(0, ctx_.size() - suffix.size()));
}

bool FieldReader::has(std::string_view key) const {
    auto it = obj_.find(std::string(key));
    return it != obj_.end() && !it->is_null();
}

const json* FieldReader::raw(std::string_view key) {
    seen_.insert(std::string(key));
    auto it = obj_.find(std::string(key));
    if (it == obj_.end() || it->is_null()) return nullptr;
    return &*it;
}

void FieldReader::fail(std::string_view key, const std::string& why) const { throw RequestError(std::string(key) + ": " + why); }

std::int64_t FieldReader::integer(std::string_view key, std::int64_t lo, std::int64_t hi, std::int64_t def, std::string_view expect) {
    const json* v = raw(key);
    if (!v) return def;
    auto range = [&] {
        return expect.empty() ? "must be an integer " + std::to_string(lo) + ".." + std::to_string(hi) : "must be " + std::string(expect);
    };
    std::int64_t x = 0;
    if (v->is_number_integer()) {
        if (v->is_number_unsigned() && v->get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            fail(key, range() + ", got " + shown(*v));
        x = v->get<std::int64_t>();
    } else if (v->is_number_float()) {
        const double d = v->get<double>();
        if (!std::isfinite(d) || d != std::floor(d) || d < -9.0e18 || d > 9.0e18) fail(key, range() + ", got " + shown(*v));
        x = static_cast<std::int64_t>(d);
    } else if (v->is_string()) {
        const std::string s = v->get<std::string>();
        // std::stoll's reading (leading spaces, a sign, decimal digits) without its exceptions.
        char* end = nullptr;
        errno = 0;
        const long long parsed = std::strtoll(s.c_str(), &end, 10);
        if (end == s.c_str() || errno == ERANGE || end != s.c_str() + s.size()) fail(key, range() + ", got " + shown(*v));
        x = parsed;
    } else {
        fail(key, range() + ", got " + shown(*v));
    }
    if (x < lo || x > hi) fail(key, range() + ", got " + std::to_string(x));
    return x;
}

std::int64_t FieldReader::integer_required(std::string_view key, std::int64_t lo, std::int64_t hi) {
    if (!has(key)) fail(key, "is required (an integer " + std::to_string(lo) + ".." + std::to_string(hi) + ")");
    return integer(key, lo, hi, 0);
}

double FieldReader::number(std::string_view key, double lo, double hi, double def) {
    const json* v = raw(key);
    if (!v) return def;
    auto range = [&] {
        char buf[128];
        std::snprintf(buf, sizeof buf, "must be a number %g..%g", lo, hi);
        return std::string(buf);
    };
    double x = 0;
    if (v->is_number()) x = v->get<double>();
    else if (v->is_string()) {
        const std::string s = v->get<std::string>();
        char* end = nullptr;  // std::stod's reading without its exceptions
        errno = 0;
        x = std::strtod(s.c_str(), &end);
        if (end == s.c_str() || errno == ERANGE || end != s.c_str() + s.size()) fail(key, range() + ", got " + shown(*v));
    } else fail(key, range() + ", got " + shown(*v));
    if (!std::isfinite(x) || x < lo || x > hi) fail(key, range() + ", got " + shown(*v));
    return x;
}

double FieldReader::number_required(std::string_view key, double lo, double hi) {
    if (!has(key)) {
        char buf[128];
        std::snprintf(buf, sizeof buf, "is required (a number %g..%g)", lo, hi);
        fail(key, buf);
    }
    return number(key, lo, hi, 0);
}

std::int64_t FieldReader::size(std::string_view key, std::int64_t lo, std::int64_t hi, std::int64_t def, std::string_view expect) {
    const json* v = raw(key);
    if (!v) return def;
    auto range = [&] {
        return expect.empty() ? "must be a size " + std::to_string(lo) + ".." + std::to_string(hi) + " bytes (e.g. 49152 or \"48K\")"
                              : "must be " + std::string(expect);
    };
    std::int64_t x = 0;
    if (v->is_string()) {
        auto r = parse_size(v->get<std::string>(), key);
        if (!r) throw RequestError(r.error);
        x = *r;
    } else if (v->is_number_integer() && !(v->is_number_unsigned() && v->get<std::uint64_t>() > (1ull << 62))) {
        x = v->get<std::int64_t>();
    } else if (v->is_number_float() && std::isfinite(v->get<double>()) && v->get<double>() == std::floor(v->get<double>()) &&
               std::fabs(v->get<double>()) < 4.0e18) {
        x = static_cast<std::int64_t>(v->get<double>());
    } else {
        fail(key, range() + ", got " + shown(*v));
    }
    if (x < lo || x > hi) fail(key, range() + ", got " + std::to_string(x));
    return x;
}

bool FieldReader::boolean(std::string_view key, bool def) {
    const json* v = raw(key);
    if (!v) return def;
    if (v->is_boolean()) return v->get<bool>();
    if (v->is_number_integer() && (v->get<std::int64_t>() == 0 || v->get<std::int64_t>() == 1)) return v->get<std::int64_t>() == 1;
    if (v->is_string()) {
        const std::string s = lower(v->get<std::string>());
        if (s == "true" || s == "yes" || s == "1" || s == "on") return true;
        if (s == "false" || s == "no" || s == "0" || s == "off") return false;
    }
    fail(key, "must be true or false, got " + shown(*v));
}

std::string FieldReader::string(std::string_view key, std::string_view def) {
    const json* v = raw(key);
    if (!v) return std::string(def);
    if (!v->is_string()) fail(key, "must be a string, got " + shown(*v));
    return v->get<std::string>();
}

std::string FieldReader::choice(std::string_view key, std::initializer_list<std::string_view> choices, std::string_view def) {
    const json* v = raw(key);
    if (!v) return std::string(def);
    std::string all;
    for (auto c : choices) join_into(all, ", ", c);
    if (!v->is_string()) fail(key, "must be one of " + all + ", got " + shown(*v));
    const std::string s = lower(v->get<std::string>());
    for (auto c : choices)
        if (s == c) return std::string(c);
    fail(key, "must be one of " + all + ", got " + shown(*v));
}

void FieldReader::finish() const {
    for (auto it = obj_.begin(); it != obj_.end(); ++it) {
        if (seen_.count(it.key())) continue;
        // null = not given (docs/INPUTS.md), also for a field this request does not read (block
        // when threads is given, a custom op's flops in a matmul).
        if (it->is_null() && kind_ && find_field(*kind_, it.key())) continue;
        std::string key = it.key().substr(0, 40);
        std::string msg = key + ": unknown field in " + ctx_;
        if (const std::string hint = field_hint(it.key()); !hint.empty()) msg += "; " + hint;
        throw RequestError(msg);
    }
}

// Other tools' names for occ's fields, as users bring them: Triton's num_warps, cudaLaunchKernel's
// sharedMemBytes and blockDim, cudaFuncAttributes' numRegs, Nsight's "Block Size".
struct FieldAlias {
    std::string_view word;  // folded (occ::fold_name)
    const FieldSpec* field;
    std::string_view note;  // how the value converts, "" when it is the same
};
constexpr FieldAlias kFieldAliases[] = {
    {"numwarps", &fields::threads, "threads per block = num_warps x 32"},
    {"warps", &fields::threads, "threads per block = warps x 32"},
    {"blocksize", &fields::threads, ""},
    {"blockdim", &fields::block, ""},
    {"numthreads", &fields::threads, ""},
    {"threadsperblock", &fields::threads, ""},
    {"smem", &fields::smem_dynamic, "or smem_static for __shared__ arrays"},
    {"sharedmem", &fields::smem_dynamic, "or smem_static for __shared__ arrays"},
    {"sharedmemory", &fields::smem_dynamic, "or smem_static for __shared__ arrays"},
    {"sharedmembytes", &fields::smem_dynamic, ""},
    {"dynamicsmem", &fields::smem_dynamic, ""},
    {"staticsmem", &fields::smem_static, ""},
    {"registers", &fields::regs, ""},
    {"numregs", &fields::regs, ""},
    {"regsperthread", &fields::regs, ""},
    {"registersperthread", &fields::regs, ""},
    {"vgprs", &fields::regs, "an AMD kernel's VGPRs"},
    {"gpuname", &fields::gpu, ""},
    {"computecapability", &fields::cc, ""},
};

std::string FieldReader::field_hint(std::string_view word) const {
    // A field the kind describes or the reader asked for, within a few edits.
    Closest closest(word, /*swaps=*/false);
    for (const auto& s : seen_) closest.offer(s);
    // The kind's fields, unless the word is one of them that this request's shape does not take (a
    // stride in an address list): its name is right, its place is not.
    if (kind_ && !find_field(*kind_, word))
        for (const FieldSpec* f : kind_->fields) closest.offer(f->key);
    if (std::string best = closest.best(); !best.empty()) return "did you mean \"" + best + "\"?";
    const std::string folded = fold_name(word);
    for (const FieldAlias& a : kFieldAliases) {
        if (folded != a.word) continue;
        if (kind_ && !find_field(*kind_, a.field->key) && !seen_.count(a.field->key)) break;
        std::string hint = "did you mean \"" + std::string(a.field->key) + "\"";
        if (!a.note.empty()) hint += " (" + std::string(a.note) + ")";
        return hint + "?";
    }
    return {};
}

std::string FieldReader::choice(const FieldSpec& s, std::string_view def) {
    const json* v = raw(s.key);
    if (!v) return std::string(def);
    std::string all;
    for (std::size_t b = 0; b <= s.choices.size();) {
        std::size_t e = s.choices.find(',', b);
        if (e == std::string_view::npos) e = s.choices.size();
        join_into(all, ", ", std::string(s.choices.substr(b, e - b)));
        b = e + 1;
    }
    if (v->is_string()) {
        const std::string x = lower(v->get<std::string>());
        for (std::size_t b = 0; b <= s.choices.size();) {
            std::size_t e = s.choices.find(',', b);
            if (e == std::string_view::npos) e = s.choices.size();
            if (s.choices.substr(b, e - b) == x) return x;
            b = e + 1;
        }
    }
    fail(s.key, "must be one of " + all + ", got " + shown(*v));
}

}  // namespace occ::io

// [SECTION] Plain values of bound fields (occ/io/binding.hpp)
namespace occ::io {

std::int64_t read_value(FieldReader& f, const FieldSpec& s) {
    switch (s.type) {
        case FieldType::integer: {
            const std::int64_t v = f.integer(s);
            if (s.valid && !s.valid(v)) f.fail(s.key, "must be " + std::string(s.expect) + ", got " + std::to_string(v));
            return v;
        }
        case FieldType::size: return f.size(s);
        case FieldType::boolean: return f.boolean(s);
        case FieldType::choice: return choice_index(s, f.choice(s));
        default: f.fail(s.key, "internal: not a plain field");
    }
}

Result<std::int64_t> read_typed(const FieldSpec& s, std::string_view text) {
    const json request{{std::string(s.key), std::string(text)}};
    return read_with<std::int64_t>(request, "request", [&](FieldReader& f) { return read_value(f, s); });
}

namespace {
// One entry of a list field: inside the spec's range and valid by its predicate.
bool list_entry_ok(const FieldSpec& s, std::int64_t x) { return x >= s.lo && x <= s.hi && (!s.valid || s.valid(x)); }
}  // namespace

std::optional<std::vector<int>> parse_int_list(std::string_view text, const FieldSpec& s, std::size_t max_items) {
    std::vector<int> out;
    if (text.find_first_not_of(' ') == std::string_view::npos) return out;
    for (;;) {
        const std::size_t comma = text.find(',');
        std::string_view part = text.substr(0, comma);
        while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
        while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
        std::int64_t x = 0;
        if (out.size() == max_items || !parse_integer(part, x) || !list_entry_ok(s, x)) return std::nullopt;
        out.push_back(static_cast<int>(x));
        if (comma == std::string_view::npos) break;
        text.remove_prefix(comma + 1);
    }
    return out;
}

std::vector<int> read_int_list(FieldReader& f, const FieldSpec& s, std::size_t max_items) {
    std::vector<int> out;
    const json* v = f.raw(s);
    if (!v) return out;
    if (!v->is_array() || v->empty() || v->size() > max_items)
        f.fail(s.key, "must be an array of 1.." + std::to_string(max_items) + " integers (" + std::string(s.doc_range) + "), got " +
                          v->dump().substr(0, 40));
    for (const json& e : *v) {
        std::int64_t x = 0;
        const bool integer = e.is_number_integer() || (e.is_string() && parse_integer(e.get<std::string>(), x));
        if (e.is_number_integer()) x = e.get<std::int64_t>();
        if (!integer || !list_entry_ok(s, x))
            f.fail(s.key,
                   "each entry must be " +
                       (s.expect.empty() ? "an integer " + std::to_string(s.lo) + ".." + std::to_string(s.hi) : std::string(s.expect)) +
                       ", got " + e.dump().substr(0, 20));
        out.push_back(static_cast<int>(x));
    }
    return out;
}

}  // namespace occ::io
