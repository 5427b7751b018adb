// occ/io/fields.hpp — reads request fields with range checks and readable errors.
// Every request kind (occupancy, coalesce, banks, roofline, ...) reads its JSON through this, so
// every face reports bad input the same way: the field's name, the allowed range, what was given.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "occ/io/schema.hpp"
#include "occ/result.hpp"

namespace occ::io {

using json = nlohmann::ordered_json;

// Thrown by FieldReader; api handlers turn it into {"error": message}.
struct RequestError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class FieldReader {
public:
    // `kind`: the request kind whose fields the object may hold; by default the kind the context
    // names ("occupancy request" -> occupancy). A null value of one of its fields counts as absent.
    explicit FieldReader(const json& obj, std::string context = "request", const KindSpec* kind = nullptr);

    bool has(std::string_view key) const;
    // Integers: accept JSON numbers that are whole, and numeric strings.
    // `expect` replaces "an integer lo..hi" in the error message when the accepted range is wider than
    // what makes sense to a user (the model then checks the real range with its own message).
    std::int64_t integer(std::string_view key, std::int64_t lo, std::int64_t hi, std::int64_t def, std::string_view expect = {});
    std::int64_t integer_required(std::string_view key, std::int64_t lo, std::int64_t hi);
    double number(std::string_view key, double lo, double hi, double def);
    double number_required(std::string_view key, double lo, double hi);
    // Sizes: numbers of bytes or strings like "48K".
    std::int64_t size(std::string_view key, std::int64_t lo, std::int64_t hi, std::int64_t def, std::string_view expect = {});
    bool boolean(std::string_view key, bool def);
    std::string string(std::string_view key, std::string_view def);
    // One of `choices` (case-insensitive).
    std::string choice(std::string_view key, std::initializer_list<std::string_view> choices, std::string_view def);
    const json* raw(std::string_view key);  // marks the key as read; nullptr when absent or null

    // The same, with range, default and wording from the field's description (occ/io/schema.hpp).
    std::int64_t integer(const FieldSpec& s) { return integer(s.key, s.lo, s.hi, s.int_default, s.expect); }
    std::int64_t integer(const FieldSpec& s, std::int64_t def) { return integer(s.key, s.lo, s.hi, def, s.expect); }
    std::int64_t integer_required(const FieldSpec& s) { return integer_required(s.key, s.lo, s.hi); }
    double number(const FieldSpec& s) { return number(s.key, s.dlo, s.dhi, s.num_default); }
    double number(const FieldSpec& s, double def) { return number(s.key, s.dlo, s.dhi, def); }
    double number_required(const FieldSpec& s) { return number_required(s.key, s.dlo, s.dhi); }
    std::int64_t size(const FieldSpec& s) { return size(s.key, s.lo, s.hi, s.int_default, s.expect); }
    std::int64_t size(const FieldSpec& s, std::int64_t def) { return size(s.key, s.lo, s.hi, def, s.expect); }
    bool boolean(const FieldSpec& s) { return boolean(s.key, s.def == "true"); }
    std::string string(const FieldSpec& s) { return string(s.key, s.def); }
    // One of s.choices; `def` when absent (the description's default by default).
    std::string choice(const FieldSpec& s) { return choice(s, s.def); }
    std::string choice(const FieldSpec& s, std::string_view def);
    bool has(const FieldSpec& s) const { return has(s.key); }
    const json* raw(const FieldSpec& s) { return raw(s.key); }

    // Throws if the object has keys nobody read (with a "did you mean" hint); a null value of a
    // field the kind describes is absent, read or not.
    void finish() const;

    [[noreturn]] void fail(std::string_view key, const std::string& why) const;

private:
    // "did you mean ..." for a key nobody read: the nearest field of the kind, or the field another
    // tool's name stands for (num_warps, smem, sharedMemBytes); "" when none is near.
    std::string field_hint(std::string_view word) const;
    const json& obj_;
    std::string ctx_;
    const KindSpec* kind_ = nullptr;
    mutable std::set<std::string, std::less<>> seen_;
};

// What run_catching caught.
enum class Caught { nothing, request_error, exception };

// Runs fn(ctx) and catches what it throws: a RequestError always (its message goes to *what), and
// with `all` every other exception too (what(), or "unknown exception"); without `all` the others
// pass through. Every catch site in occ::io and the web page goes through here: the web build
// catches exceptions only in the functions web/CMakeLists.txt names (this one), which keeps the
// page small (a throw elsewhere unwinds without running destructors: a refused request leaks its
// temporaries there, a few hundred bytes).
Caught run_catching(void (*fn)(void*), void* ctx, std::string* what, bool all);

template <typename F>
Caught catching(std::string* what, bool all, F&& f) {
    using Fn = std::remove_reference_t<F>;
    return run_catching([](void* p) { (*static_cast<Fn*>(p))(); }, &f, what, all);
}

// The shape of every typed answer: read `request` as `context` (its "id" echoed), let `fill` read
// the rest and compute, and turn a RequestError into the Result's error (errors leave lib/io as
// values only).
template <typename Answer, typename Fill>
Result<Answer> answer_with(const json& request, const char* context, Fill fill) {
    Answer a;
    std::string error;
    const Caught c = catching(&error, false, [&] {
        FieldReader f(request, context);
        if (const json* id = f.raw(fields::id)) a.id = *id;
        fill(f, a);
    });
    if (c != Caught::nothing) return Result<Answer>::fail(std::move(error));
    return Result<Answer>::ok(std::move(a));
}

// A part of a request read by `read(f)` as a Result (a RequestError becomes its error); no
// unknown-field check: the caller reads the rest.
template <typename T, typename Read>
Result<T> read_with(const json& request, std::string_view context, Read read) {
    std::optional<T> out;
    std::string error;
    const Caught c = catching(&error, false, [&] {
        FieldReader f(request, std::string(context));
        out.emplace(read(f));
    });
    if (c != Caught::nothing) return Result<T>::fail(std::move(error));
    return Result<T>::ok(std::move(*out));
}

// An answer's JSON, or a RequestError for handle() to turn into {"error": ...}.
template <typename Answer>
json json_or_throw(const Result<Answer>& a) {
    if (!a) throw RequestError(a.error);
    return to_json(*a);
}

// A value as error messages quote it: its JSON text, cut to 40 characters.
std::string shown(const json& v);

}  // namespace occ::io
