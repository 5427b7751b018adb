// utf8.cpp — UTF-8 validation and repair for text quoted back to users.
#include "occ/io/utf8.hpp"

namespace occ::io {
namespace {

// Length of the well-formed sequence starting at s[i], or 0 when the byte there starts none
// (Unicode 15, table 3-7).
std::size_t seq_len(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    if (c < 0x80) return 1;
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c == 0xE0) {
        n = 3;
        lo = 0xA0;
    } else if (c >= 0xE1 && c <= 0xEC) n = 3;
    else if (c == 0xED) {
        n = 3;
        hi = 0x9F;
    } else if (c >= 0xEE && c <= 0xEF) n = 3;
    else if (c == 0xF0) {
        n = 4;
        lo = 0x90;
    } else if (c >= 0xF1 && c <= 0xF3) n = 4;
    else if (c == 0xF4) {
        n = 4;
        hi = 0x8F;
    } else return 0;
    if (i + n > s.size()) return 0;
    if (b(i + 1) < lo || b(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
    return n;
}

}  // namespace

bool valid_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = seq_len(s, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

std::string make_valid_utf8(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = seq_len(s, i);
        if (n == 0) {
            out += "\xEF\xBF\xBD";
            ++i;
        } else {
            out.append(s.substr(i, n));
            i += n;
        }
    }
    return out;
}

std::string utf8_prefix(std::string_view s, std::size_t max_bytes) {
    if (s.size() <= max_bytes) return make_valid_utf8(s);
    std::size_t end = max_bytes;
    // Step back over continuation bytes so a multi-byte character is not cut in half.
    while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80 && max_bytes - end < 3) --end;
    return make_valid_utf8(s.substr(0, end));
}

}  // namespace occ::io
