// occ/io/fields.hpp — reads request fields with range checks and readable errors.
// Every request kind (occupancy, coalesce, banks, roofline, ...) reads its JSON through this, so
// every face reports bad input the same way: the field's name, the allowed range, what was given.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace occ::io {

using json = nlohmann::ordered_json;

// Thrown by FieldReader; api handlers turn it into {"error": message}.
struct RequestError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class FieldReader {
public:
    explicit FieldReader(const json& obj, std::string context = "request");

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
    const json* raw(std::string_view key);   // marks the key as read; nullptr when absent or null

    // Throws if the object has keys nobody read (with a "did you mean" hint).
    void finish() const;

    [[noreturn]] void fail(std::string_view key, const std::string& why) const;

private:
    const json& obj_;
    std::string ctx_;
    mutable std::set<std::string, std::less<>> seen_;
};

// Closest string by edit distance, or "" if none is close.
std::string closest(std::string_view word, std::initializer_list<std::string_view> candidates);

}  // namespace occ::io
