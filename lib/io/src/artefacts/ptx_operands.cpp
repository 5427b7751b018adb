// ptx_operands.cpp — one PTX instruction statement into ptx::Instruction: the guard, the opcode
// split at its dots, and each operand (PTX ISA, "Instruction Statements" and "Operand Types").
//
// [SECTION] Characters and numbers · [SECTION] Operands · [SECTION] Instructions
#include <cctype>
#include <limits>
#include <vector>

#include "ptx_read_detail.hpp"

namespace occ::io::ptx_detail {

// [SECTION] Characters and numbers
std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' || c == '.'; }
bool ident_char(char c) { return ident_start(c) || std::isdigit(static_cast<unsigned char>(c)); }

namespace {

int digit_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return 99;
}

// Unsigned digits in a base; false on an empty string, a bad digit or more than 64 bits.
bool parse_digits(std::string_view s, int base, std::uint64_t& out) {
    if (s.empty()) return false;
    std::uint64_t v = 0;
    for (char c : s) {
        const int d = digit_value(c);
        if (d >= base) return false;
        if (v > (std::numeric_limits<std::uint64_t>::max() - static_cast<std::uint64_t>(d)) / static_cast<std::uint64_t>(base))
            return false;
        v = v * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
    }
    out = v;
    return true;
}

// A float literal: 0fXXXXXXXX (f32 bits), 0dXXXXXXXXXXXXXXXX (f64 bits), or a decimal with a point
// or an exponent (kept as text only: the interpreter does not compute with floats).
bool parse_float(std::string_view s, std::int64_t& bits) {
    if (!s.empty() && s[0] == '-') s.remove_prefix(1);
    if (s.size() == 10 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) {
        std::uint64_t v = 0;
        if (!parse_digits(s.substr(2), 16, v)) return false;
        bits = static_cast<std::int64_t>(v);
        return true;
    }
    if (s.size() == 18 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
        std::uint64_t v = 0;
        if (!parse_digits(s.substr(2), 16, v)) return false;
        bits = static_cast<std::int64_t>(v);
        return true;
    }
    bool digit = false, mark = false;
    for (char c : s) {
        if (std::isdigit(static_cast<unsigned char>(c))) digit = true;
        else if (c == '.' || c == 'e' || c == 'E') mark = true;
        else if (c != '+' && c != '-') return false;
    }
    bits = 0;
    return digit && mark;
}

}  // namespace

bool parse_int(std::string_view s, std::int64_t& out) {
    bool neg = false;
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        s.remove_prefix(1);
    }
    if (!s.empty() && (s.back() == 'U' || s.back() == 'u')) s.remove_suffix(1);
    std::uint64_t v = 0;
    bool ok = false;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ok = parse_digits(s.substr(2), 16, v);
    else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) ok = parse_digits(s.substr(2), 2, v);
    else if (s.size() > 1 && s[0] == '0') ok = parse_digits(s.substr(1), 8, v);
    else ok = parse_digits(s, 10, v);
    if (!ok) return false;
    // Two's complement: a hex literal may spell any 64-bit pattern, a negative one wraps.
    out = static_cast<std::int64_t>(neg ? (~v + 1) : v);
    return true;
}

namespace {

// [SECTION] Operands
// Splits at commas outside (), [] and {}; false when the brackets do not balance.
bool split_commas(std::string_view s, std::vector<std::string_view>& parts) {
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '(' || c == '[' || c == '{') ++depth;
        else if (c == ')' || c == ']' || c == '}') {
            if (--depth < 0) return false;
        } else if (c == ',' && depth == 0) {
            parts.push_back(trim(s.substr(start, i - start)));
            start = i + 1;
        }
    }
    if (depth != 0) return false;
    parts.push_back(trim(s.substr(start)));
    return true;
}

bool is_name(std::string_view s) {
    if (s.empty() || !ident_start(s[0])) return false;
    for (char c : s)
        if (!ident_char(c) && c != ':') return false;
    return true;
}

std::string parse_operand(std::string_view s, const PtxLimits& lim, int nesting, ptx::Operand& op);

// The inside of [...]: base, base+imm, base+-imm, base-imm, imm; a ',' adds TMA coordinates.
std::string parse_address(std::string_view inner, const PtxLimits& lim, ptx::Operand& op) {
    op.kind = ptx::OperandKind::address;
    std::vector<std::string_view> parts;
    if (!split_commas(inner, parts)) return "unbalanced brackets in an address";
    if (parts.size() > 1) op.has_tensor = true;  // [tensorMap, {c0, ...}] or [addr, cache-policy]
    std::string text;
    for (char c : parts[0])
        if (!std::isspace(static_cast<unsigned char>(c))) text.push_back(c);
    if (text.empty()) return "empty address";
    std::string_view t = text;
    std::size_t split = std::string_view::npos;
    for (std::size_t i = 1; i < t.size(); ++i)
        if ((t[i] == '+' || t[i] == '-') && t[i - 1] != '+' && t[i - 1] != '-') {
            split = i;
            break;
        }
    std::string_view base = split == std::string_view::npos ? t : t.substr(0, split);
    std::string_view off = split == std::string_view::npos ? std::string_view{} : t.substr(split);
    std::int64_t v = 0;
    if (parse_int(base, v)) {
        op.value = v;
        if (!off.empty()) return "an address may add an offset to a register or a name only";
        return {};
    }
    if (!is_name(base)) return "address base '" + std::string(base) + "' is not a register or a name";
    op.name = std::string(base);
    op.base_is_reg = base[0] == '%';
    if (!off.empty()) {
        if (off[0] == '+') off.remove_prefix(1);
        if (!parse_int(off, v)) return "address offset '" + std::string(off) + "' is not an integer";
        op.value = v;
    }
    (void)lim;
    return {};
}

std::string parse_operand(std::string_view s, const PtxLimits& lim, int nesting, ptx::Operand& op) {
    s = trim(s);
    if (s.empty()) return "empty operand";
    if (s.front() == '[') {
        if (s.back() != ']') return "unterminated '['";
        return parse_address(s.substr(1, s.size() - 2), lim, op);
    }
    if (s.front() == '{' || s.front() == '(') {
        // {a, b} is a vector; (a, b) is call's return or argument list, kept the same way.
        const char close = s.front() == '{' ? '}' : ')';
        if (s.back() != close) return std::string("unterminated '") + s.front() + "'";
        if (nesting > 0) return "nested brackets in a vector";
        op.kind = ptx::OperandKind::vector;
        std::vector<std::string_view> parts;
        if (!split_commas(s.substr(1, s.size() - 2), parts)) return "unbalanced brackets in a vector";
        if (parts.size() == 1 && parts[0].empty()) return {};  // "()" or "{}"
        if (parts.size() > lim.max_vector) return "vector of more than " + std::to_string(lim.max_vector) + " elements";
        for (auto p : parts) {
            ptx::Operand e;
            if (auto err = parse_operand(p, lim, nesting + 1, e); !err.empty()) return err;
            op.elems.push_back(std::move(e));
        }
        return {};
    }
    if (s.front() == '!') {
        op.negated = true;
        s.remove_prefix(1);
        s = trim(s);
        if (s.empty() || s.front() != '%') return "'!' must negate a predicate register";
    }
    if (s.front() == '%') {
        // setp's two destinations: "%p1|%p2" (PTX ISA "setp"); the second is kept as an element.
        const auto bar = s.find('|');
        std::string_view name = bar == std::string_view::npos ? s : trim(s.substr(0, bar));
        if (!is_name(name)) return "bad register '" + std::string(name) + "'";
        op.name = std::string(name);
        op.kind = ptx::is_special_register(name) ? ptx::OperandKind::special : ptx::OperandKind::reg;
        if (bar != std::string_view::npos) {
            ptx::Operand second;
            second.name = std::string(trim(s.substr(bar + 1)));
            if (!is_name(second.name)) return "bad register after '|'";
            op.elems.push_back(std::move(second));
        }
        return {};
    }
    std::int64_t v = 0;
    if (parse_int(s, v)) {
        op.kind = ptx::OperandKind::imm;
        op.value = v;
        return {};
    }
    if (std::isdigit(static_cast<unsigned char>(s.front())) || s.front() == '-' || s.front() == '+') {
        if (!parse_float(s, v)) return "bad number '" + std::string(s.substr(0, 40)) + "'";
        op.kind = ptx::OperandKind::imm;
        op.float_imm = true;
        op.value = v;
        return {};
    }
    // name or name+offset (mov.u64 %rd1, arr+8)
    const auto plus = s.find('+');
    std::string_view name = trim(s.substr(0, plus));
    if (!is_name(name)) return "bad operand '" + std::string(s.substr(0, 40)) + "'";
    op.kind = ptx::OperandKind::symbol;
    op.name = std::string(name);
    if (plus != std::string_view::npos && !parse_int(trim(s.substr(plus + 1)), op.value))
        return "bad offset in '" + std::string(s.substr(0, 40)) + "'";
    return {};
}

}  // namespace

// [SECTION] Instructions
std::string parse_instruction(std::string_view text, const PtxLimits& limits, ptx::Instruction& out) {
    std::string_view s = trim(text);
    if (!s.empty() && s.front() == '@') {
        s.remove_prefix(1);
        if (!s.empty() && s.front() == '!') {
            out.guard_negated = true;
            s.remove_prefix(1);
        }
        std::size_t e = 0;
        while (e < s.size() && ident_char(s[e])) ++e;
        if (e == 0 || s[0] != '%') return "a guard '@' must name a predicate register";
        out.guard = std::string(s.substr(0, e));
        s = trim(s.substr(e));
    }
    std::size_t e = 0;
    while (e < s.size() && (ident_char(s[e]) || s[e] == ':')) ++e;
    if (e == 0) return "expected an instruction, got '" + std::string(s.substr(0, 40)) + "'";
    out.opcode = std::string(s.substr(0, e));
    if (!std::isalpha(static_cast<unsigned char>(out.opcode[0]))) return "expected an instruction, got '" + out.opcode.substr(0, 40) + "'";
    // Split at the dots; "::" belongs to its modifier (shared::cta, mbarrier::complete_tx::bytes).
    std::string_view op = out.opcode;
    std::size_t start = 0;
    bool first = true;
    for (std::size_t i = 0; i <= op.size(); ++i) {
        if (i == op.size() || op[i] == '.') {
            const std::string part(op.substr(start, i - start));
            if (first) out.base = part;
            else if (!part.empty()) out.mods.push_back(part);
            first = false;
            start = i + 1;
        }
    }
    const std::string_view rest = trim(s.substr(e));
    if (rest.empty()) return {};
    std::vector<std::string_view> parts;
    if (!split_commas(rest, parts)) return "unbalanced brackets in the operands of " + out.opcode;
    if (parts.size() > limits.max_operands) return "more than " + std::to_string(limits.max_operands) + " operands";
    for (auto p : parts) {
        ptx::Operand o;
        if (auto err = parse_operand(p, limits, 0, o); !err.empty()) return out.opcode + ": " + err;
        out.operands.push_back(std::move(o));
    }
    return {};
}

}  // namespace occ::io::ptx_detail
