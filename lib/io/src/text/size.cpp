// size.cpp — size-string parser.
#include "occ/io/size.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

namespace occ::io {

Result<std::int64_t> parse_size(std::string_view text, std::string_view field) {
    auto fail = [&](const std::string& why) {
        std::string shown(text.substr(0, 40));
        return Result<std::int64_t>::fail(std::string(field) + ": " + why + " (got \"" + shown +
                                          "\"); use bytes or K/M suffixes, e.g. 49152, 48K, 48KiB");
    };
    std::string_view s = text;
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    if (s.empty()) return fail("empty size");
    if (s.front() == '-') return fail("size must be >= 0");
    if (s.front() == '+') s.remove_prefix(1);
    constexpr std::int64_t kMax = std::int64_t{1} << 40;
    // Hex: 0x...
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        std::int64_t v = 0;
        for (char c : s.substr(2)) {
            int d;
            if (c >= '0' && c <= '9') d = c - '0';
            else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
            else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
            else return fail("not a hexadecimal number");
            v = v * 16 + d;
            if (v > kMax) return fail("too large (max 1 TiB)");
        }
        return Result<std::int64_t>::ok(v);
    }
    std::size_t i = 0;
    std::int64_t whole = 0;
    bool digits = false;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
        whole = whole * 10 + (s[i] - '0');
        digits = true;
        if (whole > kMax) return fail("too large (max 1 TiB)");
        ++i;
    }
    std::int64_t frac_num = 0, frac_den = 1;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
            if (frac_den < 1000000000) {
                frac_num = frac_num * 10 + (s[i] - '0');
                frac_den *= 10;
            }
            digits = true;
            ++i;
        }
    }
    if (!digits) return fail("not a number");
    std::string unit;
    for (; i < s.size(); ++i) {
        if (std::isspace(static_cast<unsigned char>(s[i]))) continue;
        unit.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(s[i]))));
    }
    std::int64_t mult = 1;
    if (unit.empty() || unit == "b") mult = 1;
    else if (unit == "k" || unit == "kb" || unit == "kib") mult = 1024;
    else if (unit == "m" || unit == "mb" || unit == "mib") mult = 1024 * 1024;
    else if (unit == "g" || unit == "gb" || unit == "gib") mult = std::int64_t{1} << 30;
    else return fail("unknown unit \"" + unit.substr(0, 8) + "\"");
    if (whole > kMax / mult) return fail("too large (max 1 TiB)");
    const std::int64_t frac_bytes_num = frac_num * mult;
    if (frac_bytes_num % frac_den != 0) return fail("not a whole number of bytes");
    const std::int64_t v = whole * mult + frac_bytes_num / frac_den;
    if (v > kMax) return fail("too large (max 1 TiB)");
    return Result<std::int64_t>::ok(v);
}

bool parse_unsigned(std::string_view t, std::uint64_t& out) {
    int base = 10;
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
        base = 16;
        t.remove_prefix(2);
    } else if (t.size() > 1 && t[0] == '0') {
        base = 8;
    }
    if (t.empty() || !std::isalnum(static_cast<unsigned char>(t[0]))) return false;  // no second sign or prefix
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), out, base);
    return ec == std::errc() && end == t.data() + t.size();
}

bool parse_integer(std::string_view t, std::int64_t& out) {
    const bool negative = !t.empty() && t[0] == '-';
    if (!t.empty() && (t[0] == '-' || t[0] == '+')) t.remove_prefix(1);
    std::uint64_t u = 0;
    if (!parse_unsigned(t, u)) return false;
    const std::uint64_t limit = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
    if (u > limit) return false;
    out = negative ? static_cast<std::int64_t>(0 - u) : static_cast<std::int64_t>(u);
    return true;
}

}  // namespace occ::io
