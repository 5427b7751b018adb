// ptxas_log.cpp — reads what `nvcc -Xptxas -v` and `cuobjdump --dump-resource-usage` print into
// PtxasKernel records (occ/io/ptxas.hpp). Names are demangled by ptxas_demangle.cpp; the "ptxas"
// request kind is in ptxas_request.cpp.
#include "occ/io/ptxas.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <optional>

#include "occ/device.hpp"
#include "occ/io/utf8.hpp"

namespace occ::io {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Parses a non-negative decimal number at the start of s; saturates instead of overflowing.
std::optional<std::int64_t> leading_number(std::string_view s, std::size_t* used = nullptr) {
    std::size_t i = 0;
    std::int64_t v = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
        v = v > (INT64_MAX - 9) / 10 ? INT64_MAX : v * 10 + (s[i] - '0');
        ++i;
    }
    if (i == 0) return std::nullopt;
    if (used) *used = i;
    return v;
}

int clamp_int(std::int64_t v) { return static_cast<int>(std::min<std::int64_t>(v, INT_MAX)); }

// "sm_80", "sm_90a", "sm_100f" -> 8.0 / 9.0 / 10.0.
void set_arch(PtxasKernel& k, std::string_view arch) {
    k.arch = std::string(arch);
    int ma = 0, mi = 0;
    if (parse_cc(arch, ma, mi)) {
        k.cc_major = ma;
        k.cc_minor = mi;
    }
}

// Splits "a, b, c" and calls fn(item) for each trimmed item.
template <typename Fn>
void for_each_item(std::string_view s, char sep, Fn&& fn) {
    while (!s.empty()) {
        const auto c = s.find(sep);
        fn(trim(s.substr(0, c)));
        if (c == std::string_view::npos) break;
        s.remove_prefix(c + 1);
    }
}

// "N bytes stack frame, N bytes spill stores, N bytes spill loads"
bool parse_stack_line(std::string_view line, PtxasKernel& k) {
    if (line.find("bytes stack frame") == std::string_view::npos) return false;
    for_each_item(line, ',', [&](std::string_view item) {
        auto v = leading_number(item);
        if (!v) return;
        if (item.find("stack frame") != std::string_view::npos) k.stack_frame = *v;
        else if (item.find("spill stores") != std::string_view::npos) k.spill_stores = *v;
        else if (item.find("spill loads") != std::string_view::npos) k.spill_loads = *v;
    });
    return true;
}

// "Used 26 registers, used 1 barriers, 4224 bytes smem, 376 bytes cmem[0], 16 bytes cumulative stack size"
void parse_used_line(std::string_view rest, PtxasKernel& k) {
    for_each_item(rest, ',', [&](std::string_view item) {
        if (starts_with(item, "Used ") || starts_with(item, "used ")) item.remove_prefix(5);
        std::size_t n = 0;
        auto v = leading_number(item, &n);
        if (!v) return;
        const std::string_view what = trim(item.substr(n));
        if (starts_with(what, "registers") || starts_with(what, "register")) k.registers = clamp_int(*v);
        else if (starts_with(what, "barriers") || starts_with(what, "barrier")) k.barriers = clamp_int(*v);
        else if (what == "bytes smem") k.smem_static = *v;
        else if (starts_with(what, "bytes cmem[")) {
            auto bank = leading_number(what.substr(11));
            k.cmem.emplace_back(bank ? clamp_int(*bank) : 0, *v);
        } else if (starts_with(what, "bytes cumulative stack")) k.cumulative_stack = *v;
        else if (what == "bytes lmem") k.local = *v;
    });
}

// The quoted text after `after` ("... function 'X' for 'sm_80'").
std::optional<std::string_view> quoted(std::string_view s, std::size_t from = 0) {
    const auto a = s.find('\'', from);
    if (a == std::string_view::npos) return std::nullopt;
    const auto b = s.find('\'', a + 1);
    if (b == std::string_view::npos) return std::nullopt;
    return s.substr(a + 1, b - a - 1);
}

}  // namespace

PtxasLog parse_ptxas_log(std::string_view text) {
    PtxasLog log;
    std::string arch;                 // current arch (ptxas: from "Compiling entry"; cuobjdump: "arch = ")
    long long current = -1;           // index of the record the next detail line belongs to
    bool cuobjdump_expect_usage = false;
    auto find_or_add = [&](std::string_view mangled, bool entry, int line_no, const char* format) -> std::size_t {
        // The same kernel compiled for the same arch earlier in this log: reuse it only when it is
        // the most recent record (ptxas prints properties right after "Compiling entry").
        if (current >= 0) {
            PtxasKernel& c = log.kernels[static_cast<std::size_t>(current)];
            if (c.mangled == mangled && c.arch == arch && c.format == format) return static_cast<std::size_t>(current);
        }
        PtxasKernel k;
        k.mangled = std::string(mangled);
        const std::string d = demangle(mangled);
        k.name = d.empty() ? k.mangled : d;
        k.entry = entry;
        k.format = format;
        k.line = line_no;
        set_arch(k, arch);
        log.kernels.push_back(std::move(k));
        return log.kernels.size() - 1;
    };

    std::size_t pos = 0;
    int line_no = 0;
    while (pos < text.size()) {
        auto nl = text.find('\n', pos);
        if (nl == std::string_view::npos) nl = text.size();
        std::string_view raw = text.substr(pos, nl - pos);
        pos = nl + 1;
        ++line_no;
        ++log.lines;
        const std::string_view line = trim(raw);
        if (line.empty()) continue;
        bool known = false;

        // ---- ptxas -v (the tag may follow a prefix such as MSBuild's "1>") ----
        const auto tag = line.find("ptxas info");
        const auto warn = line.find("ptxas warning");
        const auto err = line.find("ptxas error");
        const auto fatal = line.find("ptxas fatal");
        if (warn != std::string_view::npos || err != std::string_view::npos || fatal != std::string_view::npos) {
            if (log.diagnostics.size() < 50) log.diagnostics.emplace_back(utf8_prefix(line, 400));
            ++log.recognised_lines;
            continue;
        }
        if (tag != std::string_view::npos) {
            const auto colon = line.find(':', tag);
            const std::string_view rest = colon == std::string_view::npos ? std::string_view() : trim(line.substr(colon + 1));
            if (starts_with(rest, "Compiling entry function") || starts_with(rest, "Compiling function")) {
                const bool entry = starts_with(rest, "Compiling entry");
                auto name = quoted(rest);
                if (name && !name->empty()) {
                    auto for_pos = rest.find(" for ", rest.find('\'', rest.find('\'') + 1));
                    if (for_pos != std::string_view::npos) {
                        if (auto a = quoted(rest, for_pos)) arch = std::string(*a);
                    }
                    current = -1;
                    current = static_cast<long long>(find_or_add(*name, entry, line_no, "ptxas"));
                    known = true;
                }
            } else if (starts_with(rest, "Function properties for")) {
                std::string_view name = trim(rest.substr(23));
                if (!name.empty() && name.front() == '\'' && name.size() > 1 && name.back() == '\'') name = name.substr(1, name.size() - 2);
                if (!name.empty()) {
                    current = static_cast<long long>(find_or_add(name, /*entry=*/false, line_no, "ptxas"));
                    // An entry announced by "Compiling entry function" keeps entry = true.
                    known = true;
                }
            } else if (starts_with(rest, "Used ")) {
                if (current >= 0) parse_used_line(rest, log.kernels[static_cast<std::size_t>(current)]);
                known = true;
            } else if (rest.find("bytes gmem") != std::string_view::npos) {
                if (auto v = leading_number(rest)) log.gmem = *v;
                known = true;
            } else {
                known = true;   // other ptxas info lines (compile time, register-limit overrides): fine to ignore
            }
        } else if (line.find("bytes stack frame") != std::string_view::npos) {
            if (current >= 0) known = parse_stack_line(line, log.kernels[static_cast<std::size_t>(current)]);
        }
        // ---- cuobjdump --dump-resource-usage ----
        else if (starts_with(line, "arch = ")) {
            arch = std::string(trim(line.substr(7)));
            current = -1;
            known = true;
        } else if (starts_with(line, "Function ") && line.back() == ':') {
            const std::string_view name = trim(line.substr(9, line.size() - 10));
            if (!name.empty()) {
                current = -1;
                current = static_cast<long long>(find_or_add(name, /*entry=*/true, line_no, "cuobjdump"));
                cuobjdump_expect_usage = true;
                known = true;
            }
        } else if (cuobjdump_expect_usage && current >= 0 && starts_with(line, "REG:")) {
            PtxasKernel& k = log.kernels[static_cast<std::size_t>(current)];
            for_each_item(line, ' ', [&](std::string_view item) {
                const auto c = item.find(':');
                if (c == std::string_view::npos) return;
                const std::string_view key = item.substr(0, c);
                auto v = leading_number(item.substr(c + 1));
                if (!v) return;
                if (key == "REG") k.registers = clamp_int(*v);
                else if (key == "SHARED") k.smem_static = *v;
                else if (key == "STACK") k.stack_frame = *v;
                else if (key == "LOCAL") k.local = *v;
                else if (starts_with(key, "CONSTANT[")) {
                    auto bank = leading_number(key.substr(9));
                    k.cmem.emplace_back(bank ? clamp_int(*bank) : 0, *v);
                }
            });
            cuobjdump_expect_usage = false;
            known = true;
        } else if (starts_with(line, "Resource usage:") || starts_with(line, "Common:") || starts_with(line, "GLOBAL:") ||
                   starts_with(line, "Fatbin ") || starts_with(line, "=====") || starts_with(line, "code version") ||
                   starts_with(line, "host = ") || starts_with(line, "compile_size")) {
            known = true;
        }
        if (known) ++log.recognised_lines;
        else ++log.skipped_lines;
    }
    // A "Function properties" record for a kernel that was announced as an entry stays an entry;
    // records never announced by "Compiling entry function" are device functions.
    // Names and arches are quoted in JSON answers: keep them valid UTF-8 even when the log is not
    // (or the demangler split a multi-byte character).
    for (PtxasKernel& k : log.kernels) {
        k.name = make_valid_utf8(k.name);
        k.mangled = make_valid_utf8(k.mangled);
        k.arch = make_valid_utf8(k.arch);
    }
    return log;
}

}  // namespace occ::io
