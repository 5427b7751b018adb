// utf8.cpp — UTF-8 validation and repair for text quoted back to users.
#include "occ/io/utf8.hpp"

namespace occ::io {
namespace {

// Unicode 15, table 3-7 (well-formed byte sequences): a lead byte in first_lo..first_hi starts a
// sequence of `length` bytes whose second byte is in second_lo..second_hi (the rest 0x80..0xBF).
struct LeadByte {
    unsigned char first_lo, first_hi;
    std::size_t length;
    unsigned char second_lo, second_hi;
};
constexpr LeadByte kLeadBytes[] = {
    {0xC2, 0xDF, 2, 0x80, 0xBF}, {0xE0, 0xE0, 3, 0xA0, 0xBF}, {0xE1, 0xEC, 3, 0x80, 0xBF}, {0xED, 0xED, 3, 0x80, 0x9F},
    {0xEE, 0xEF, 3, 0x80, 0xBF}, {0xF0, 0xF0, 4, 0x90, 0xBF}, {0xF1, 0xF3, 4, 0x80, 0xBF}, {0xF4, 0xF4, 4, 0x80, 0x8F},
};

// Length of the well-formed sequence starting at s[i], or 0 when the byte there starts none.
std::size_t seq_len(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    if (c < 0x80) return 1;
    for (const LeadByte& l : kLeadBytes) {
        if (c < l.first_lo || c > l.first_hi) continue;
        const std::size_t n = l.length;
        if (i + n > s.size()) return 0;
        if (b(i + 1) < l.second_lo || b(i + 1) > l.second_hi) return 0;
        for (std::size_t k = 2; k < n; ++k)
            if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
        return n;
    }
    return 0;
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
