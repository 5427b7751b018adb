// format.cpp — number formatting shared by every face.
#include "occ/format.hpp"

#include <cmath>
#include <cstdio>

namespace occ {

std::string format_number(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    std::string s(buf);
    if (s.find('.') != std::string::npos) {
        while (!s.empty() && s.back() == '0') s.pop_back();
        if (!s.empty() && s.back() == '.') s.pop_back();
    }
    if (s == "-0") s = "0";
    return s;
}

std::string format_bytes(std::int64_t b) {
    const std::int64_t KiB = 1024, MiB = KiB * 1024, GiB = MiB * 1024;
    const std::int64_t mag = b < 0 ? -b : b;
    if (mag >= GiB && mag % (GiB / 1024) == 0) return format_number(static_cast<double>(b) / GiB, 3) + " GiB";
    if (mag >= MiB && mag % (MiB / 1024) == 0) return format_number(static_cast<double>(b) / MiB, 3) + " MiB";
    if (mag >= KiB && mag % 8 == 0) return format_number(static_cast<double>(b) / KiB, 3) + " KiB";
    return format_count(b) + " B";
}

std::string format_percent(double f) {
    const double pct = f * 100.0;
    const double rounded = std::round(pct * 10.0) / 10.0;
    return format_number(rounded, 1) + "%";
}

std::string format_count(std::int64_t n) {
    const bool neg = n < 0;
    std::uint64_t u = neg ? 0 - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);
    std::string digits = std::to_string(u), out;
    int c = 0;
    for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
        if (c && c % 3 == 0) out.insert(out.begin(), ',');
        out.insert(out.begin(), *it);
        ++c;
    }
    return neg ? "-" + out : out;
}

}  // namespace occ
