// ptxas.cpp — compiler resource-usage parsing and the "ptxas" request kind.
//
// [SECTION] Demangler   a small Itanium C++ ABI subset (Itanium C++ ABI, "External Names")
// [SECTION] Line parser ptxas -v and cuobjdump --dump-resource-usage
// [SECTION] Request     occupancy for every kernel
#include "occ/io/ptxas.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <optional>

#include "occ/device.hpp"
#include "occ/io/api.hpp"
#include "occ/io/fields.hpp"
#include "occ/io/utf8.hpp"
#include "occ/occupancy.hpp"

namespace occ::io {
namespace {

// [SECTION] Demangler
// Grammar covered (Itanium C++ ABI §5.1): <encoding> ::= <name> <bare-function-type>;
// <name> ::= <nested-name> | <unscoped-name> [<template-args>]; types: builtins, P, R, O, K, V,
// class names, nested names, S_/S<n>_ and St substitutions, T_/T<n>_ template parameters,
// template arguments with types and L<builtin><number>E literals. Anything else: give up.
class Demangler {
public:
    explicit Demangler(std::string_view s) : s_(s) {}

    std::optional<std::string> run() {
        if (!eat("_Z")) return std::nullopt;
        bool templated = false;
        auto name = parse_name(&templated);
        if (!name) return std::nullopt;
        std::string ret;
        if (templated) {   // template functions encode their return type first
            auto r = parse_type();
            if (!r) return std::nullopt;
            ret = *r + " ";
        }
        std::vector<std::string> params;
        while (pos_ < s_.size()) {
            if (s_[pos_] == '.') break;   // clone suffixes (.constprop.0) end the encoding
            auto t = parse_type();
            if (!t) return std::nullopt;
            params.push_back(*t);
        }
        std::string out = ret + *name + "(";
        if (!(params.size() == 1 && params[0] == "void"))
            for (std::size_t i = 0; i < params.size(); ++i) out += (i ? ", " : "") + params[i];
        return out + ")";
    }

private:
    std::string_view s_;
    std::size_t pos_ = 0;
    int depth_ = 0;
    std::vector<std::string> subs_;
    std::vector<std::string> tparams_;

    bool eat(std::string_view p) {
        if (pos_ > s_.size() || s_.substr(pos_, p.size()) != p) return false;
        pos_ += p.size();
        return true;
    }
    char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }

    std::optional<std::int64_t> number() {
        std::int64_t v = 0;
        std::size_t start = pos_;
        while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
            if (v > 100000000) return std::nullopt;
            v = v * 10 + (s_[pos_++] - '0');
        }
        if (pos_ == start) return std::nullopt;
        return v;
    }

    std::optional<std::string> source_name() {
        auto n = number();
        if (!n || *n <= 0 || pos_ + static_cast<std::size_t>(*n) > s_.size()) return std::nullopt;
        std::string id(s_.substr(pos_, static_cast<std::size_t>(*n)));
        pos_ += static_cast<std::size_t>(*n);
        if (id.rfind("_GLOBAL__N", 0) == 0) id = "(anonymous namespace)";
        return id;
    }

    // S_ = 0, S0_ = 1, S1_ = 2 ... (base-36 sequence ids).
    std::optional<std::string> substitution() {
        if (eat("St")) return std::string("std");
        if (!eat("S")) return std::nullopt;
        std::size_t idx = 0;
        if (!eat("_")) {
            std::size_t v = 0;
            bool any = false;
            while (pos_ < s_.size() && s_[pos_] != '_') {
                const char c = s_[pos_++];
                if (std::isdigit(static_cast<unsigned char>(c))) v = v * 36 + static_cast<std::size_t>(c - '0');
                else if (c >= 'A' && c <= 'Z') v = v * 36 + static_cast<std::size_t>(c - 'A' + 10);
                else return std::nullopt;
                any = true;
                if (v > 10000) return std::nullopt;
            }
            if (!any || !eat("_")) return std::nullopt;
            idx = v + 1;
        }
        if (idx >= subs_.size()) return std::nullopt;
        return subs_[idx];
    }

    std::optional<std::string> template_param() {
        if (!eat("T")) return std::nullopt;
        std::size_t idx = 0;
        if (!eat("_")) {
            auto n = number();
            if (!n || !eat("_")) return std::nullopt;
            idx = static_cast<std::size_t>(*n) + 1;
        }
        if (idx >= tparams_.size()) return std::nullopt;
        return tparams_[idx];
    }

    // I <arg>+ E  ->  "<a, b>"; records the args as the template parameters T_, T0_, ...
    std::optional<std::string> template_args(bool record) {
        if (!eat("I")) return std::nullopt;
        std::vector<std::string> args;
        while (!eat("E")) {
            if (pos_ >= s_.size()) return std::nullopt;
            if (eat("L")) {
                const char t = peek();
                if (t == '\0') return std::nullopt;   // "IL" at the end of the name
                ++pos_;
                const bool neg = eat("n");
                auto v = number();
                if (!v || !eat("E")) return std::nullopt;
                std::string lit = (neg ? "-" : "") + std::to_string(*v);
                switch (t) {
                    case 'i': break;
                    case 'j': lit += "u"; break;
                    case 'l': lit += "l"; break;
                    case 'm': lit += "ul"; break;
                    case 'x': lit += "ll"; break;
                    case 'y': lit += "ull"; break;
                    case 'b': lit = *v ? "true" : "false"; break;
                    default: return std::nullopt;
                }
                args.push_back(lit);
            } else {
                auto t = parse_type();
                if (!t) return std::nullopt;
                args.push_back(*t);
            }
        }
        if (record) tparams_ = args;
        std::string out = "<";
        for (std::size_t i = 0; i < args.size(); ++i) out += (i ? ", " : "") + args[i];
        if (!out.empty() && out.back() == '>') out += " ";
        return out + ">";
    }

    // <name>; *templated = the function itself has template arguments.
    std::optional<std::string> parse_name(bool* templated) {
        if (eat("N")) {
            while (peek() == 'K' || peek() == 'V' || peek() == 'r') ++pos_;   // cv-qualified member functions
            std::string prefix;
            bool last_templated = false;
            while (!eat("E")) {
                if (pos_ >= s_.size()) return std::nullopt;
                std::optional<std::string> part;
                if (peek() == 'S') {
                    part = substitution();
                    if (!part) return std::nullopt;
                    prefix = *part;   // a substitution stands for the whole prefix so far
                    last_templated = false;
                    continue;
                }
                if (peek() == 'I') {
                    auto args = template_args(true);
                    if (!args) return std::nullopt;
                    prefix += *args;
                    last_templated = true;
                    if (peek() != 'E') subs_.push_back(prefix);
                    continue;
                }
                if (!std::isdigit(static_cast<unsigned char>(peek()))) return std::nullopt;   // ctors, operators: give up
                part = source_name();
                if (!part) return std::nullopt;
                prefix += (prefix.empty() ? "" : "::") + *part;
                last_templated = false;
                if (peek() != 'E') subs_.push_back(prefix);
            }
            *templated = last_templated;
            return prefix;
        }
        std::string base;
        if (eat("St")) {
            auto n = source_name();
            if (!n) return std::nullopt;
            base = "std::" + *n;
        } else {
            auto n = source_name();
            if (!n) return std::nullopt;
            base = *n;
        }
        if (peek() == 'I') {
            subs_.push_back(base);   // the template name is a substitution candidate
            auto args = template_args(true);
            if (!args) return std::nullopt;
            *templated = true;
            return base + *args;
        }
        *templated = false;
        return base;
    }

    std::optional<std::string> builtin(char c) {
        switch (c) {
            case 'v': return "void";
            case 'b': return "bool";
            case 'c': return "char";
            case 'a': return "signed char";
            case 'h': return "unsigned char";
            case 's': return "short";
            case 't': return "unsigned short";
            case 'i': return "int";
            case 'j': return "unsigned int";
            case 'l': return "long";
            case 'm': return "unsigned long";
            case 'x': return "long long";
            case 'y': return "unsigned long long";
            case 'n': return "__int128";
            case 'o': return "unsigned __int128";
            case 'f': return "float";
            case 'd': return "double";
            case 'e': return "long double";
            case 'w': return "wchar_t";
            case 'z': return "...";
            default: return std::nullopt;
        }
    }

    std::optional<std::string> parse_type() {
        if (++depth_ > 64) return std::nullopt;
        struct Guard { int& d; ~Guard() { --d; } } guard{depth_};
        const char c = peek();
        if (c == '\0') return std::nullopt;
        if (auto b = builtin(c)) {
            ++pos_;
            return b;
        }
        if (eat("Dh")) return std::string("__half");   // not a standard code for CUDA's half; c++filt prints "half"
        auto qualified = [&](const char* suffix) -> std::optional<std::string> {
            auto inner = parse_type();
            if (!inner) return std::nullopt;
            std::string t = *inner + suffix;
            subs_.push_back(t);
            return t;
        };
        switch (c) {
            case 'P': ++pos_; return qualified("*");
            case 'R': ++pos_; return qualified("&");
            case 'O': ++pos_; return qualified("&&");
            case 'K': ++pos_; return qualified(" const");
            case 'V': ++pos_; return qualified(" volatile");
            case 'T': {
                auto t = template_param();
                if (!t) return std::nullopt;
                subs_.push_back(*t);
                return t;
            }
            case 'S': {
                const bool is_std = s_.substr(pos_, 2) == "St";
                auto t = substitution();
                if (!t) return std::nullopt;
                if (is_std) {   // St <source-name>: std::name
                    auto n = source_name();
                    if (!n) return std::nullopt;
                    std::string full = "std::" + *n;
                    subs_.push_back(full);
                    if (peek() == 'I') {
                        auto args = template_args(false);
                        if (!args) return std::nullopt;
                        full += *args;
                        subs_.push_back(full);
                    }
                    return full;
                }
                if (peek() == 'I') {
                    auto args = template_args(false);
                    if (!args) return std::nullopt;
                    std::string full = *t + *args;
                    subs_.push_back(full);
                    return full;
                }
                return t;
            }
            case 'N': {
                ++pos_;
                std::string prefix;
                while (!eat("E")) {
                    if (pos_ >= s_.size()) return std::nullopt;
                    if (peek() == 'S') {
                        auto sub = substitution();
                        if (!sub) return std::nullopt;
                        prefix = *sub;
                        continue;
                    }
                    if (peek() == 'I') {
                        auto args = template_args(false);
                        if (!args) return std::nullopt;
                        prefix += *args;
                        subs_.push_back(prefix);
                        continue;
                    }
                    auto n = source_name();
                    if (!n) return std::nullopt;
                    prefix += (prefix.empty() ? "" : "::") + *n;
                    subs_.push_back(prefix);
                }
                return prefix;
            }
            default: break;
        }
        if (std::isdigit(static_cast<unsigned char>(c))) {
            auto n = source_name();
            if (!n) return std::nullopt;
            std::string t = *n;
            subs_.push_back(t);
            if (peek() == 'I') {
                auto args = template_args(false);
                if (!args) return std::nullopt;
                t += *args;
                subs_.push_back(t);
            }
            return t;
        }
        return std::nullopt;   // function types, arrays, member pointers, ...: not "simple"
    }
};

// [SECTION] Line parser

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

std::string demangle(std::string_view mangled) {
    if (mangled.size() > 4096) return {};
    auto r = Demangler(mangled).run();
    return r ? *r : std::string();
}

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

// [SECTION] Request

namespace {

json cmem_json(const PtxasKernel& k) {
    json j = json::object();
    for (const auto& [bank, bytes] : k.cmem) j[std::to_string(bank)] = bytes;
    return j;
}

json kernel_json(const PtxasKernel& k) {
    return json{
        {"name", k.name},
        {"mangled", k.mangled},
        {"arch", k.arch},
        {"entry", k.entry},
        {"registers", k.registers < 0 ? json(nullptr) : json(k.registers)},
        {"smem_static", k.smem_static},
        {"barriers", k.barriers},
        {"stack_frame", k.stack_frame},
        {"spill_stores", k.spill_stores},
        {"spill_loads", k.spill_loads},
        {"cumulative_stack", k.cumulative_stack},
        {"local", k.local},
        {"cmem", cmem_json(k)},
        {"format", k.format},
        {"line", k.line},
    };
}

// A cubin for sm_XY runs on devices of compute capability X.Z with Z >= Y (CUDA C++ Programming
// Guide, "Binary Compatibility").
bool runs_on(const PtxasKernel& k, const ArchRules& a) { return k.cc_major == a.cc_major && k.cc_minor <= a.cc_minor; }

}  // namespace

json api_ptxas(const json& request) {
    FieldReader f(request, "ptxas request");
    const json* id = f.raw("id");
    const json* log_field = f.raw("log");
    if (!log_field || !log_field->is_string())
        f.fail("log", "required: the text printed by nvcc -Xptxas -v or cuobjdump --dump-resource-usage");
    for (const char* from_log : {"regs", "smem_static", "barriers"})
        if (f.has(from_log)) f.fail(from_log, "comes from the log for each kernel; leave it out");
    const bool has_device = f.has("gpu") || f.has("cc") || f.has("device");
    const OccupancyRequest base = read_occupancy_request(f);
    f.finish();

    const std::string& text = log_field->get_ref<const std::string&>();
    const PtxasLog log = parse_ptxas_log(text);

    // With a device: for each kernel keep the highest compatible arch (what the runtime loads).
    std::vector<const PtxasKernel*> chosen;
    json skipped = json::array();
    for (const PtxasKernel& k : log.kernels) {
        if (!k.entry) continue;
        if (has_device && !runs_on(k, base.device.arch)) {
            skipped.push_back(json{{"name", k.name}, {"arch", k.arch},
                                   {"reason", "compiled for " + (k.arch.empty() ? std::string("an unknown arch") : k.arch) + ", which does not run on cc " +
                                                  std::to_string(base.device.arch.cc_major) + "." + std::to_string(base.device.arch.cc_minor)}});
            continue;
        }
        auto same = std::find_if(chosen.begin(), chosen.end(), [&](const PtxasKernel* c) {
            return c->mangled == k.mangled && (has_device || c->arch == k.arch);
        });
        if (same == chosen.end()) chosen.push_back(&k);
        else if (has_device && (k.cc_minor > (*same)->cc_minor)) {
            skipped.push_back(json{{"name", (*same)->name}, {"arch", (*same)->arch}, {"reason", "a newer compatible build (" + k.arch + ") is used"}});
            *same = &k;
        } else if (has_device) {
            skipped.push_back(json{{"name", k.name}, {"arch", k.arch}, {"reason", "a newer compatible build (" + (*same)->arch + ") is used"}});
        }
    }

    json rows = json::array();
    int with_spills = 0, failed = 0;
    for (const PtxasKernel* kp : chosen) {
        const PtxasKernel& k = *kp;
        json row = kernel_json(k);
        Device dev = base.device;
        if (!has_device) {
            auto d = device_for_cc(k.cc_major, k.cc_minor);
            if (!d) {
                row["occupancy"] = nullptr;
                row["error"] = k.arch.empty() ? std::string("the log does not say which architecture this kernel was compiled for; give gpu or cc")
                                              : "compute capability of " + k.arch + " is not modelled (known: " + supported_cc_list() + ")";
                ++failed;
                rows.push_back(row);
                continue;
            }
            dev = *d;
        }
        KernelResources kr = base.kernel;
        kr.regs_per_thread = k.registers < 0 ? 0 : std::min(k.registers, dev.arch.max_regs_per_thread);
        kr.smem_static = k.smem_static;
        kr.barriers = std::clamp(k.barriers, 0, 16);
        const OccupancyResult r = compute_occupancy(dev, kr, base.launch);
        json limiters = json::array();
        for (Limiter l : kAllLimiters)
            if (r.limiters & l) limiters.push_back(limiter_name(l));
        row["device"] = dev.name;
        row["occupancy"] = json{
            {"blocks_per_sm", r.blocks_per_sm},
            {"warps_per_sm", r.warps_per_sm},
            {"occupancy", r.occupancy},
            {"limiters", limiters},
            {"smem_per_block_allocated", r.smem_per_block_allocated},
            {"regs_per_block_allocated", r.regs_per_block_allocated},
        };
        row["error"] = r.ok() ? json(nullptr) : json(r.error);
        if (!r.ok()) ++failed;
        if (k.spill_stores > 0 || k.spill_loads > 0) {
            ++with_spills;
            row["note"] = "spills " + std::to_string(k.spill_stores) + " B stores / " + std::to_string(k.spill_loads) +
                          " B loads to local memory per thread";
        }
        rows.push_back(row);
    }
    json functions = json::array();
    for (const PtxasKernel& k : log.kernels)
        if (!k.entry) functions.push_back(kernel_json(k));

    json input = occupancy_request_to_json(base);
    for (const char* k : {"regs", "smem_static", "barriers"}) input.erase(k);
    if (!has_device) {
        input.erase("gpu");
        input.erase("cc");
    }
    json out{
        {"kernels", rows},
        {"functions", functions},
        {"skipped", skipped},
        {"summary",
         {{"kernels", rows.size()},
          {"device_functions", functions.size()},
          {"with_spills", with_spills},
          {"failed", failed},
          {"gmem", log.gmem},
          {"lines", log.lines},
          {"recognised_lines", log.recognised_lines},
          {"skipped_lines", log.skipped_lines}}},
        {"diagnostics", log.diagnostics},
        {"device", has_device ? json(base.device.name) : json(nullptr)},
        {"input", input},
    };
    if (rows.empty())
        out["error"] = log.kernels.empty() ? "no kernels found in the log: expected the output of nvcc -Xptxas -v or cuobjdump --dump-resource-usage"
                                           : "no kernel in the log runs on " + base.device.name;
    else out["error"] = nullptr;
    if (id) out["id"] = *id;
    return out;
}

}  // namespace occ::io
