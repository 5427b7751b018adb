// ncu_header.cpp — the patterns of Nsight Compute's kernel headers and launch cells (ncu_header.hpp),
// read by hand with the semantics of the ECMAScript regular expressions in the comments (leftmost
// match, lazy / greedy as written; `.` never matches '\r' or '\n'). std::regex read them before;
// it brought libc++'s locale machinery into the web page (39 KB gzipped, docs/PERFORMANCE.md).
#include "ncu_header.hpp"

#include <algorithm>
#include <cctype>

#include "occ/text.hpp"

namespace occ::io::ncu_detail {

std::string trim(std::string_view s) { return std::string(occ::trim(s)); }

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_newline(char c) { return c == '\r' || c == '\n'; }

struct Scan {
    std::string_view s;
    std::size_t i = 0;
    std::size_t spaces() {
        const std::size_t b = i;
        while (i < s.size() && is_space(s[i])) ++i;
        return i - b;
    }
    bool lit(std::string_view t) {
        if (s.substr(i, t.size()) != t) return false;
        i += t.size();
        return true;
    }
    std::string_view digits(std::size_t max = std::string_view::npos) {
        const std::size_t b = i;
        while (i < s.size() && is_digit(s[i]) && i - b < max) ++i;
        return s.substr(b, i - b);
    }
    std::string_view letters(std::size_t max) {
        const std::size_t b = i;
        while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i])) && i - b < max) ++i;
        return s.substr(b, i - b);
    }
};

std::int64_t to_int(std::string_view digits) {  // at most 18 digits
    std::int64_t v = 0;
    for (char c : digits) v = v * 10 + (c - '0');
    return v;
}

// A header's name (.+?) ends at the first end position where `rest` matches; \s* before it is
// greedy, so a name starts at the first non-space unless only a whitespace name matches (then the
// match is there but the name trims to nothing). Returns the name's end, npos when nothing matches,
// or 0 for that whitespace-only match. `rest(e, tail)` matches at e and sets the tail capture.
template <typename Rest>
std::size_t lazy_name(std::string_view line, Rest rest, std::string_view& tail) {
    std::size_t k0 = 0;
    while (k0 < line.size() && is_space(line[k0])) ++k0;
    const std::size_t last_nl = [&] {
        for (std::size_t i = line.size(); i-- > 0;)
            if (is_newline(line[i])) return i;
        return std::string_view::npos;
    }();
    auto matches = [&](std::size_t e) {
        std::string_view t;
        if (!rest(e, t)) return false;
        const std::size_t tail_at = static_cast<std::size_t>(t.data() - line.data());
        if (last_nl != std::string_view::npos && last_nl >= tail_at) return false;  // (.*)$
        tail = t;
        return true;
    };
    for (std::size_t e = k0 + 1; e <= line.size() && !is_newline(line[e - 1]); ++e)
        if (matches(e)) return e;
    // \s* gives back: a one-space name, followed by `rest` where the spaces end (every rest here
    // starts with \s* or needs the name to end right before the first non-space).
    for (std::size_t e = k0; e > 0; --e)
        if (!is_newline(line[e - 1])) return matches(e) ? 0 : std::string_view::npos;
    return std::string_view::npos;
}

}  // namespace

// "(256, 1, 1)" -> {256, 1, 1}:  \(\s*(\d{1,10})\s*,\s*(\d{1,10})\s*,\s*(\d{1,10})\s*\)
std::optional<std::array<std::int64_t, 3>> dims(std::string_view s) {
    for (std::size_t p = s.find('('); p != std::string_view::npos; p = s.find('(', p + 1)) {
        Scan c{s, p + 1};
        std::array<std::int64_t, 3> d{};
        bool ok = true;
        for (int k = 0; k < 3 && ok; ++k) {
            c.spaces();
            const std::string_view n = c.digits(10);
            c.spaces();
            ok = !n.empty() && c.lit(k < 2 ? "," : ")");
            d[static_cast<std::size_t>(k)] = to_int(n);
        }
        if (ok) return d;
    }
    return std::nullopt;
}

// "8.6" -> 8, 6:  (\d{1,2})\.(\d)  (a match is stored even when it is not a compute capability)
bool read_cc(std::string_view s, int& major, int& minor) {
    for (std::size_t p = 0; p < s.size(); ++p) {
        if (!is_digit(s[p])) continue;
        const std::size_t n = p + 1 < s.size() && is_digit(s[p + 1]) ? 2 : 1;
        if (p + n + 1 >= s.size() || s[p + n] != '.' || !is_digit(s[p + n + 1])) continue;
        major = static_cast<int>(to_int(s.substr(p, n)));
        minor = s[p + n + 1] - '0';
        return major > 0 && major < 100 && minor < 10;
    }
    return false;
}

// A kernel header: "  name (4096, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 8.6", or the
// older "  name, 2021-Mar-04 10:11:12, Context 1, Stream 7".
bool kernel_header(const std::string& line_in, NcuKernel& k) {
    const std::string_view line = line_in;
    const bool shape = line.find(")x(") != std::string::npos || line.find(") x (") != std::string::npos;
    const bool context = line.find("Context") != std::string::npos && line.find("Stream") != std::string::npos;
    if (!shape && !context) return false;
    auto name_of = [&](std::size_t end) {
        std::size_t b = 0;
        while (b < line.size() && is_space(line[b])) ++b;
        return end == 0 ? std::string() : trim(line.substr(b, end - b));
    };
    std::string_view tail;
    // ^\s*(.+?)\s*\((\d+),\s*(\d+),\s*(\d+)\)\s*x\s*\((\d+),\s*(\d+),\s*(\d+)\)(.*)$
    std::array<std::string_view, 6> n;
    auto launch = [&](std::size_t e, std::string_view& t) {
        Scan c{line, e};
        c.spaces();
        for (int d = 0; d < 6; ++d) {
            if (d == 3) {
                c.spaces();
                if (!c.lit("x")) return false;
                c.spaces();
            }
            if (d % 3 == 0 && !c.lit("(")) return false;
            if (d % 3 != 0) c.spaces();
            n[static_cast<std::size_t>(d)] = c.digits();
            if (n[static_cast<std::size_t>(d)].empty() || !c.lit(d % 3 == 2 ? ")" : ",")) return false;
        }
        t = line.substr(c.i);
        return true;
    };
    // ^\s*(.+?)(,\s*\d{4}-[A-Za-z]{3}-\d{2}\s+[\d:]+)?,\s*Context\s+\d+,\s*Stream\s+\d+(.*)$
    auto older = [&](std::size_t e, std::string_view& t) {
        auto common = [&](Scan c) {
            if (!c.lit(",")) return false;
            c.spaces();
            if (!c.lit("Context") || c.spaces() == 0 || c.digits().empty() || !c.lit(",")) return false;
            c.spaces();
            if (!c.lit("Stream") || c.spaces() == 0 || c.digits().empty()) return false;
            t = line.substr(c.i);
            return true;
        };
        Scan c{line, e};
        if (c.lit(",")) {
            c.spaces();
            bool date = c.digits(4).size() == 4 && c.lit("-") && c.letters(3).size() == 3 && c.lit("-") && c.digits(2).size() == 2 &&
                        c.spaces() > 0;
            if (date) {
                const std::size_t b = c.i;
                while (c.i < line.size() && (is_digit(line[c.i]) || line[c.i] == ':')) ++c.i;
                date = c.i > b;
            }
            if (date && common(c)) return true;
        }
        return common(Scan{line, e});
    };
    std::size_t end = shape ? lazy_name(line, launch, tail) : std::string_view::npos;
    if (end != std::string_view::npos) {
        // Launch dimensions are 32-bit in CUDA: a longer number is not a launch we can read.
        auto dim = [&](int i) {
            return n[static_cast<std::size_t>(i)].size() > 10 ? std::int64_t{-1} : to_int(n[static_cast<std::size_t>(i)]);
        };
        k.name = name_of(end);
        const std::array<std::int64_t, 3> g{dim(0), dim(1), dim(2)}, b{dim(3), dim(4), dim(5)};
        if (std::min({g[0], g[1], g[2], b[0], b[1], b[2]}) >= 0) {
            k.grid = g;
            k.block = b;
        } else {
            k.diagnostics.push_back("the launch shape in the kernel header has numbers too large to be a launch");
        }
    } else if (context && (end = lazy_name(line, older, tail)) != std::string_view::npos) {
        k.name = name_of(end);
        k.dated_header = true;
    } else {
        return false;
    }
    // CC\s+(\d+)\.(\d+)  (the first one)
    for (std::size_t p = tail.find("CC"); p != std::string_view::npos; p = tail.find("CC", p + 1)) {
        Scan c{tail, p + 2};
        if (c.spaces() == 0) continue;
        const std::string_view major = c.digits();
        if (major.empty() || !c.lit(".")) continue;
        const std::string_view minor = c.digits();
        if (minor.empty()) continue;
        if (major.size() <= 2 && minor.size() <= 1) {
            k.cc_major = static_cast<int>(to_int(major));
            k.cc_minor = static_cast<int>(to_int(minor));
        }
        break;
    }
    // Invocations\s+(\d+)  (ncu --print-summary per-kernel: "..., CC 8.9, Invocations 12")
    if (const std::size_t p = tail.find("Invocations"); p != std::string_view::npos) {
        Scan c{tail, p + 11};
        const std::string_view n = c.spaces() > 0 ? c.digits() : std::string_view();
        if (!n.empty() && n.size() <= 9) k.invocations = static_cast<int>(to_int(n));
    }
    // Device\s+([^,]+)  (the first one)
    for (std::size_t p = tail.find("Device"); p != std::string_view::npos; p = tail.find("Device", p + 6)) {
        Scan c{tail, p + 6};
        const std::size_t ws = c.spaces();
        if (ws == 0) continue;
        if (c.i < tail.size() && tail[c.i] != ',') {
            k.device = "Device " + trim(tail.substr(c.i, tail.find(',', c.i) - c.i));
            break;
        }
        if (ws >= 2) {  // the last space is the [^,]+
            k.device = "Device ";
            break;
        }
    }
    return !k.name.empty();
}

}  // namespace occ::io::ncu_detail
