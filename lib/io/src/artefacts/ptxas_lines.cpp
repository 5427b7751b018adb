// ptxas_lines.cpp — reading one line of a compiler log: the tool's tag wherever it sits, quoted
// names, and the items of the resource lines (ptxas_lines.hpp). Nothing here knows about records.
#include "ptxas_lines.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>

namespace occ::io::ptxas_detail {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
int clamp_int(std::int64_t v) { return static_cast<int>(std::min<std::int64_t>(v, INT_MAX)); }

// Splits "a, b, c" and calls fn(item) for each trimmed item (empty ones included).
template <typename Fn>
void for_each_item(std::string_view s, Fn&& fn) {
    while (true) {
        const auto c = s.find(',');
        fn(trim(s.substr(0, c)));
        if (c == std::string_view::npos) break;
        s.remove_prefix(c + 1);
    }
}

bool one_of(std::string_view s, std::initializer_list<std::string_view> words) {
    return std::find(words.begin(), words.end(), s) != words.end();
}

// Opening and closing quotes: ASCII, backtick, and the UTF-8 typographic ones.
constexpr std::array<std::string_view, 6> kOpen = {"'", "`", "\xE2\x80\x98", "\xE2\x80\x99", "\xE2\x80\x9C", "\""};
constexpr std::array<std::string_view, 5> kClose = {"'", "\xE2\x80\x99", "\xE2\x80\x98", "\xE2\x80\x9D", "\""};

// The earliest of `marks` in s at or after `from`: position and length.
template <std::size_t N>
std::pair<std::size_t, std::size_t> earliest(std::string_view s, std::size_t from, const std::array<std::string_view, N>& marks) {
    std::size_t best = std::string_view::npos, len = 0;
    for (std::string_view m : marks) {
        const auto p = s.find(m, from);
        if (p < best) {
            best = p;
            len = m.size();
        }
    }
    return {best, len};
}

}  // namespace

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

void number_occurrences(std::vector<PtxasKernel>& ks) {
    std::map<std::pair<std::string, std::string>, int> total, seen;
    for (const PtxasKernel& k : ks) ++total[{k.mangled, k.arch}];
    for (PtxasKernel& k : ks) {
        k.occurrence = ++seen[{k.mangled, k.arch}];
        k.occurrences = total[{k.mangled, k.arch}];
    }
}

std::optional<double> whole_number(std::string_view s) {
    s = trim(s);
    if (s.empty() || s.size() > 64) return std::nullopt;
    const std::string copy(s);
    char* end = nullptr;
    const double v = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

std::optional<std::int64_t> leading_number(std::string_view s, std::size_t* used, bool allow_sum) {
    std::size_t i = 0;
    std::int64_t total = 0;
    for (int part = 0; part < 2; ++part) {
        const std::size_t start = i;
        std::int64_t v = 0;
        while (i < s.size() && is_digit(s[i])) {
            v = v > (INT64_MAX - 9) / 10 ? INT64_MAX : v * 10 + (s[i] - '0');
            ++i;
        }
        if (i == start) {
            if (part == 0) return std::nullopt;
            --i;  // "N+" without M: the '+' is not part of the number
            break;
        }
        total = total > INT64_MAX - v ? INT64_MAX : total + v;
        if (!allow_sum || i >= s.size() || s[i] != '+') break;
        ++i;
    }
    if (used) *used = i;
    return total;
}

Tag find_tag(std::string_view line) {
    struct Known {
        std::string_view text;
        TagKind kind;
        bool nvlink;
    };
    static constexpr Known kKnown[] = {
        {"ptxas info", TagKind::info, false},   {"ptxas warning", TagKind::warning, false}, {"ptxas error", TagKind::error, false},
        {"ptxas fatal", TagKind::error, false}, {"nvlink info", TagKind::link_info, true},  {"nvlink warning", TagKind::warning, true},
        {"nvlink error", TagKind::error, true}, {"nvlink fatal", TagKind::error, true},
    };
    Tag t;
    std::size_t tag_len = 0;
    // A tag is followed by its colon ("ptxas info    :", "ptxas fatal   :"): prose that mentions
    // "ptxas info" is not one.
    auto tag_at = [&](std::string_view text, std::size_t from) {
        for (auto p = line.find(text, from); p != std::string_view::npos; p = line.find(text, p + 1)) {
            std::size_t i = p + text.size();
            while (i < line.size() && is_space(line[i])) ++i;
            if (i < line.size() && line[i] == ':') return p;
        }
        return std::string_view::npos;
    };
    for (const Known& k : kKnown) {
        const auto p = tag_at(k.text, 0);
        if (p != std::string_view::npos && (t.kind == TagKind::none || p < t.pos)) {
            t = Tag{k.kind, p, {}, k.nvlink};
            tag_len = k.text.size();
        }
    }
    const std::string_view trimmed = trim(line);
    const std::size_t lead = trimmed.empty() ? 0 : static_cast<std::size_t>(trimmed.data() - line.data());
    if (t.kind == TagKind::none) {
        // A progress bar that printed without a newline takes the 'p' of the next "ptxas info".
        if (starts_with(trimmed, "txas info") && tag_at("txas info", lead) == lead) {
            t = Tag{TagKind::info, lead, {}, false};
            tag_len = 9;
        } else if (starts_with(trimmed, "info") && trimmed.size() > 5 && is_space(trimmed[4])) {
            // The JIT linker's info log: "info    : Function properties for 'k':".
            std::size_t i = 4;
            while (i < trimmed.size() && is_space(trimmed[i])) ++i;
            if (i < trimmed.size() && trimmed[i] == ':') {
                t = Tag{TagKind::link_info, lead, {}, false};
                tag_len = 4;
            }
        }
    }
    if (t.kind == TagKind::none) return t;
    std::string_view after = line.substr(t.pos + tag_len);
    std::size_t i = 0;
    while (i < after.size() && is_space(after[i])) ++i;
    if (i < after.size() && after[i] == ':') after.remove_prefix(i + 1);
    t.rest = trim(after);
    return t;
}

std::optional<std::string_view> quoted(std::string_view s, std::size_t from, std::size_t* end) {
    const auto [a, alen] = earliest(s, from, kOpen);
    if (a == std::string_view::npos) return std::nullopt;
    const auto [b, blen] = earliest(s, a + alen, kClose);
    if (b == std::string_view::npos) return std::nullopt;
    if (end) *end = b + blen;
    return s.substr(a + alen, b - a - alen);
}

std::string_view named_function(std::string_view message) {
    if (auto q = quoted(message); q && !q->empty()) return *q;
    for (std::string_view key : {std::string_view("entry "), std::string_view("function ")}) {
        const auto p = message.find(key);
        if (p == std::string_view::npos) continue;
        std::string_view w = message.substr(p + key.size());
        w = w.substr(0, std::min(w.find(' '), w.size()));
        while (!w.empty() && (w.back() == ',' || w.back() == '.' || w.back() == ':')) w.remove_suffix(1);
        if (!w.empty() && w != "function") return w;
    }
    return {};
}

void merge(Resources& into, const Resources& from) {
    for_each_figure([&](auto figure, auto) {
        if (from.*figure) into.*figure = from.*figure;
    });
    if (from.gmem) into.gmem = from.gmem;
    into.cmem.insert(into.cmem.end(), from.cmem.begin(), from.cmem.end());
    into.unread.insert(into.unread.end(), from.unread.begin(), from.unread.end());
}

bool read_used_item(std::string_view item, Resources& r) {
    item = trim(item);
    if (starts_with(item, "Used ") || starts_with(item, "used ")) item = trim(item.substr(5));
    std::size_t n = 0;
    const auto v = leading_number(item, &n, /*allow_sum=*/true);
    if (!v) return false;
    const std::string_view what = trim(item.substr(n));
    if (one_of(what, {"registers", "register"})) r.registers = clamp_int(*v);
    else if (one_of(what, {"barriers", "barrier"})) r.barriers = clamp_int(*v);
    else if (what == "bytes smem") r.smem = *v;
    else if (what == "bytes lmem") r.local = *v;
    else if (one_of(what, {"bytes cumulative stack size", "bytes cumulative stack"})) r.cumulative_stack = *v;
    else if (one_of(what, {"stack", "bytes stack"})) r.stack = *v;  // the JIT linker's "0 stack"
    else if (one_of(what, {"textures", "texture"})) r.textures = clamp_int(*v);
    else if (starts_with(what, "bytes cmem")) {
        std::string_view bank = what.substr(10);
        int b = 0;
        if (!bank.empty()) {
            if (bank.front() != '[' || bank.back() != ']') return false;
            const auto bn = leading_number(bank.substr(1));
            if (!bn) return false;
            b = clamp_int(*bn);
        }
        r.cmem.emplace_back(b, *v);
    } else {
        return false;
    }
    return true;
}

std::optional<std::string> read_used_items(std::string_view text, Resources& r) {
    std::vector<std::string_view> items;
    for_each_item(text, [&](std::string_view item) { items.push_back(item); });
    for (std::size_t i = 0; i < items.size(); ++i) {
        const bool last = i + 1 == items.size();
        if (items[i].empty()) {
            if (last && items.size() > 1) return std::string();  // a trailing comma: the line goes on
            continue;
        }
        if (read_used_item(items[i], r)) continue;
        if (last) return std::string(items[i]);
        r.unread.emplace_back(items[i]);
    }
    return std::nullopt;
}

bool read_stack_line(std::string_view line, StackLine& s) {
    const auto p = line.find("bytes stack frame");
    if (p == std::string_view::npos) return false;
    std::size_t e = p;
    while (e > 0 && is_space(line[e - 1])) --e;
    std::size_t b = e;
    while (b > 0 && is_digit(line[b - 1])) --b;
    if (b == e) return false;
    s.stack_frame = leading_number(line.substr(b, e - b));
    std::string_view rest = trim(line.substr(p + 17));
    if (rest.empty()) return true;
    if (rest.front() != ',') {
        s.unread.emplace_back(rest);
        return true;
    }
    rest.remove_prefix(1);
    for_each_item(rest, [&](std::string_view item) {
        std::size_t n = 0;
        const auto v = leading_number(item, &n);
        const std::string_view what = v ? trim(item.substr(n)) : std::string_view();
        if (v && what == "bytes spill stores") s.spill_stores = *v;
        else if (v && what == "bytes spill loads") s.spill_loads = *v;
        else if (!item.empty()) s.unread.emplace_back(item);
    });
    return true;
}

bool read_cuobjdump_usage(std::string_view line, Resources& r) {
    line = trim(line);
    if (!starts_with(line, "REG:")) return false;
    while (!line.empty()) {
        std::size_t sp = 0;
        while (sp < line.size() && !is_space(line[sp])) ++sp;
        const std::string_view item = line.substr(0, sp);
        line = trim(line.substr(sp));
        const auto c = item.find(':');
        const auto v = c == std::string_view::npos ? std::nullopt : leading_number(item.substr(c + 1));
        const std::string_view key = item.substr(0, c);
        bool ok = v.has_value() && c + 1 < item.size();
        if (ok) {
            std::size_t n = 0;
            leading_number(item.substr(c + 1), &n);
            ok = c + 1 + n == item.size();
        }
        if (!ok) {
            r.unread.emplace_back(item);
            continue;
        }
        if (key == "REG") r.registers = clamp_int(*v);
        else if (key == "STACK") r.stack = *v;
        else if (key == "SHARED") r.smem = *v;
        else if (key == "LOCAL") r.local = *v;
        else if (key == "TEXTURE") r.textures = clamp_int(*v);
        else if (key == "SURFACE" || key == "SAMPLER") {
        } else if (starts_with(key, "CONSTANT[") && key.back() == ']') {
            const auto bank = leading_number(key.substr(9));
            if (bank) r.cmem.emplace_back(clamp_int(*bank), *v);
            else r.unread.emplace_back(item);
        } else {
            r.unread.emplace_back(item);
        }
    }
    return true;
}

std::optional<std::pair<std::string_view, std::string_view>> cuobjdump_header(std::string_view line) {
    line = trim(line);
    const auto eq = line.find(" = ");
    if (eq == std::string_view::npos || eq == 0) return std::nullopt;
    const std::string_view key = line.substr(0, eq);
    if (!one_of(key, {"arch", "code version", "producer", "host", "compile_size", "identifier", "ptxasOptions"})) return std::nullopt;
    return std::make_pair(key, trim(line.substr(eq + 3)));
}

}  // namespace occ::io::ptxas_detail
