// expr.cpp — index expressions (see occ/expr.hpp).
//
// [SECTION] Types and values: the usual arithmetic conversions, literals
// [SECTION] Parser: lexer, precedence climbing, the access, the declaration, the named values
// [SECTION] Evaluator: one thread, CUDA C++ integer semantics
// [SECTION] expr_warp_access
//
// No packaged expression library gives C++'s four integer types with their conversions, so this is
// a small recursive-descent parser. The rules below cite ISO C++17 (N4659), nvcc's default dialect.
#include "occ/expr.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdio>

#include "occ/names.hpp"

namespace occ {

using Node = IndexExpr::Node;

namespace {

// [SECTION] Types and values

enum Op : std::uint8_t { lit, builtin, cref, cast, neg, uplus, bnot, lnot, add, sub, mul, div_, mod, shl, shr, band, bor, bxor,
                         lt, gt, le, ge, eq, ne, land, lor, cond };
constexpr const char* kOpText[] = {"", "", "", "", "-", "+", "~", "!", "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^",
                                   "<", ">", "<=", ">=", "==", "!=", "&&", "||", "?:"};
constexpr const char* kSrc[] = {"expr", "array", "consts"};
constexpr const char* kBuiltins[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
constexpr int kMaxDepth = 200;
constexpr std::size_t kMaxText = 4096;

// Messages quote what was typed; a 4096-character name is cut so a message stays readable.
std::string cut(std::string s, std::size_t n) { return s.size() > n ? s.substr(0, n - 3) + "..." : s; }

bool is_signed(ExprType t) { return t == ExprType::i32 || t == ExprType::i64; }
int width(ExprType t) { return t == ExprType::i32 || t == ExprType::u32 ? 32 : 64; }

// [conv.integral]/2-3: to unsigned modulo 2^N; to signed out of range is implementation-defined,
// and every CUDA compiler (like C++20) takes it modulo 2^N too.
ExprValue convert(ExprValue x, ExprType t) {
    const auto low = static_cast<std::uint32_t>(x.v);
    return {t == ExprType::i32 ? static_cast<std::int32_t>(low) : t == ExprType::u32 ? static_cast<std::int64_t>(low) : x.v, t};
}

// [expr]/11, the usual arithmetic conversions (all our types are already promoted; long = long long
// on 64-bit Linux).
ExprType common(ExprType a, ExprType b) {
    if (a == b) return a;
    if (is_signed(a) == is_signed(b)) return width(a) >= width(b) ? a : b;
    const ExprType s = is_signed(a) ? a : b, u = is_signed(a) ? b : a;
    if (width(u) >= width(s)) return u;
    return s;   // long long holds every unsigned int
}

std::string show(ExprValue x) { return x.type == ExprType::u64 ? std::to_string(static_cast<std::uint64_t>(x.v)) : std::to_string(x.v); }

bool fits(std::int64_t v, ExprType t) { return t != ExprType::i32 || (v >= INT32_MIN && v <= INT32_MAX); }

struct TypeName {
    const char* name;
    int bytes;   // element size (declarations)
    int cast;    // -1: not a cast target; else an ExprType
};
// Element sizes: CUDA C++ Programming Guide, "Built-in Vector Types" (alignment table) and cuda_fp16 / cuda_bf16.
constexpr TypeName kTypes[] = {
    {"char", 1, -1}, {"signed char", 1, -1}, {"unsigned char", 1, -1}, {"int8_t", 1, -1}, {"uint8_t", 1, -1}, {"bool", 1, -1},
    {"char2", 2, -1}, {"uchar2", 2, -1}, {"short", 2, -1}, {"unsigned short", 2, -1}, {"int16_t", 2, -1}, {"uint16_t", 2, -1},
    {"half", 2, -1}, {"__half", 2, -1}, {"__nv_bfloat16", 2, -1}, {"nv_bfloat16", 2, -1}, {"bfloat16", 2, -1},
    {"int", 4, 0}, {"signed", 4, 0}, {"signed int", 4, 0}, {"int32_t", 4, 0}, {"unsigned", 4, 1}, {"unsigned int", 4, 1},
    {"uint32_t", 4, 1}, {"float", 4, -1}, {"char4", 4, -1}, {"uchar4", 4, -1}, {"short2", 4, -1}, {"ushort2", 4, -1},
    {"half2", 4, -1}, {"__half2", 4, -1}, {"__nv_bfloat162", 4, -1},
    {"long", 8, 2}, {"long int", 8, 2}, {"long long", 8, 2}, {"long long int", 8, 2}, {"int64_t", 8, 2}, {"ptrdiff_t", 8, 2},
    {"intptr_t", 8, 2}, {"unsigned long", 8, 3}, {"unsigned long int", 8, 3}, {"unsigned long long", 8, 3},
    {"unsigned long long int", 8, 3}, {"uint64_t", 8, 3}, {"size_t", 8, 3}, {"uintptr_t", 8, 3}, {"double", 8, -1},
    {"float2", 8, -1}, {"int2", 8, -1}, {"uint2", 8, -1}, {"short4", 8, -1}, {"ushort4", 8, -1}, {"longlong1", 8, -1},
    {"float4", 16, -1}, {"int4", 16, -1}, {"uint4", 16, -1}, {"double2", 16, -1}, {"longlong2", 16, -1},
    {"ulonglong2", 16, -1}, {"float3", 12, -1}, {"int3", 12, -1}, {"double4", 32, -1},
};
const TypeName* find_type(std::string_view words) {
    for (const TypeName& t : kTypes)
        if (words == t.name) return &t;
    return nullptr;
}
bool type_word(std::string_view w) {
    for (const TypeName& t : kTypes)
        if (std::string_view(t.name).substr(0, std::string_view(t.name).find(' ')) == w) return true;
    return w == "int" || w == "long";
}
constexpr std::string_view kQualifiers[] = {"__shared__", "extern", "static", "const", "volatile", "__device__", "__constant__",
                                            "__restrict__", "__restrict", "__grid_constant__"};

}  // namespace

const char* expr_type_name(ExprType t) {
    static constexpr const char* kNames[] = {"int", "unsigned int", "long long", "unsigned long long"};
    return kNames[static_cast<int>(t)];
}

// [SECTION] Parser

struct ExprParser {
    IndexExpr& e;
    std::string_view s;
    std::uint8_t src = 0;
    std::size_t pos = 0, start = 0;
    enum Tok { end, num, ident, punct } tk = end;
    std::string_view text;
    int depth = 0;

    ExprParser(IndexExpr& ex, std::string_view text_, std::uint8_t src_) : e(ex), s(text_), src(src_) {}

    int col() const { return static_cast<int>(start) + 1; }
    bool failed() const { return !e.error_.empty(); }
    // "did you mean" hints follow the column.
    int fail(int c, const std::string& what, const std::string& hint = {}) {
        if (e.error_.empty())
            e.error_ = std::string(kSrc[src]) + ": " + cut(what, 300) + " at column " + std::to_string(c) + (hint.empty() ? "" : "; did you mean " + cut(hint, 60) + "?");
        return -1;
    }
    int fail(const std::string& what) { return fail(col(), what); }
    std::string shown() const { return tk == end ? "the end" : "'" + std::string(text) + "'"; }

    void next() {
        while (pos < s.size() && (s[pos] == ' ' || s[pos] == '\t' || s[pos] == '\n' || s[pos] == '\r')) ++pos;
        start = pos;
        if (pos >= s.size()) { tk = end; text = {}; return; }
        const char c = s[pos];
        auto word = [&](auto pred) { while (pos < s.size() && pred(s[pos])) ++pos; };
        if (c >= '0' && c <= '9') {
            tk = num;
            word([](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '\''; });
        } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            tk = ident;
            word([](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; });
        } else {
            tk = punct;
            static constexpr std::string_view two[] = {"<<", ">>", "<=", ">=", "==", "!=", "&&", "||"};
            pos += 1;
            for (auto t : two)
                if (s.substr(start, 2) == t) pos = start + 2;
            if (pos == start + 1 && std::string_view("+-*/%&|^~!<>?:()[].,;=").find(c) == std::string_view::npos) {
                text = s.substr(start, 1);
                fail("unexpected character '" + std::string(text) + "'");
                tk = end;
                return;
            }
        }
        text = s.substr(start, pos - start);
    }
    bool is(std::string_view p) const { return tk == punct && text == p; }
    bool expect(std::string_view p) {
        if (!is(p)) return fail("expected '" + std::string(p) + "', got " + shown()) == 0;
        next();
        return true;
    }
    char peek_char() const {
        std::size_t i = pos;
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        return i < s.size() ? s[i] : '\0';
    }

    int make(Op op, int c, int a = -1, int b = -1, ExprValue v = {}) {
        if (failed()) return -1;
        Node n{op, src, c, a, b, -1, v};
        auto ty = [&](int i) { return e.nodes_[static_cast<std::size_t>(i)].lit.type; };
        if (op >= add && op <= bxor && op != shl && op != shr) n.lit.type = common(ty(a), ty(b));
        else if (op == shl || op == shr || op == neg || op == uplus || op == bnot) n.lit.type = ty(a);
        else if (op >= lt) n.lit.type = ExprType::i32;
        e.nodes_.push_back(n);
        return static_cast<int>(e.nodes_.size()) - 1;
    }

    // [lex.icon]: the type of an integer literal is the first of its list that holds the value.
    int literal() {
        const int c = col();
        std::string t(text);
        t.erase(std::remove(t.begin(), t.end(), '\''), t.end());
        int base = 10;
        std::size_t i = 0;
        if (t.size() > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) base = 16, i = 2;
        else if (t.size() > 1 && t[0] == '0' && (t[1] == 'b' || t[1] == 'B')) base = 2, i = 2;
        else if (t.size() > 1 && t[0] == '0') base = 8, i = 1;
        std::uint64_t v = 0;
        std::size_t digits = 0;
        for (; i < t.size(); ++i, ++digits) {
            const char ch = static_cast<char>(std::tolower(static_cast<unsigned char>(t[i])));
            const int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' && base == 16 ? ch - 'a' + 10 : 99;
            if (d >= base) break;
            if (v > (~0ull - static_cast<std::uint64_t>(d)) / static_cast<std::uint64_t>(base))
                return fail(c, "the literal " + std::string(text) + " is too large for unsigned long long");
            v = v * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
        }
        std::string suffix = t.substr(i);
        for (char& ch : suffix) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        const bool u = std::count(suffix.begin(), suffix.end(), 'u') == 1;
        const auto l = std::count(suffix.begin(), suffix.end(), 'l');
        if ((digits == 0 && base != 8) || suffix.size() != static_cast<std::size_t>(u + l) || l > 2 || t.find('.') != std::string::npos)
            return fail(c, "'" + std::string(text) + "' is not an integer literal (occ models integer index arithmetic)");
        for (ExprType ty : {ExprType::i32, ExprType::u32, ExprType::i64, ExprType::u64}) {
            if (u && is_signed(ty)) continue;
            if (!u && base == 10 && !is_signed(ty)) continue;
            if (l && width(ty) == 32) continue;
            const std::uint64_t max = ty == ExprType::i32 ? INT32_MAX : ty == ExprType::u32 ? UINT32_MAX : ty == ExprType::i64 ? INT64_MAX : ~0ull;
            if (v <= max) {
                next();
                return make(lit, c, -1, -1, {static_cast<std::int64_t>(v), ty});
            }
        }
        return fail(c, "the literal " + std::string(text) + " does not fit in long long (add a u suffix)");
    }

    // A type name of a cast: "unsigned int", "size_t", ...; -1 when the words are not one.
    int cast_type(std::string& words) {
        while (tk == ident && type_word(text)) {
            if (!words.empty()) words += ' ';
            words += text;
            next();
        }
        const TypeName* t = find_type(words);
        return t ? t->cast : -1;
    }

    int primary() {
        const int c = col();
        if (tk == num) return literal();
        if (is("(")) {
            const std::size_t save_pos = pos;
            next();
            if (tk == ident && type_word(text)) {
                std::string words;
                const int t = cast_type(words);
                if (t < 0) return fail(c, "cannot cast to '" + words + "': use int, unsigned, long long, unsigned long long, size_t, ...");
                if (!expect(")")) return -1;
                const int a = unary();
                return make(cast, c, a, -1, {0, static_cast<ExprType>(t)});
            }
            pos = save_pos;
            next();
            const int a = conditional();
            if (!expect(")")) return -1;
            return a;
        }
        if (tk != ident) return fail(tk == end ? "the expression ends where a value is expected" : "expected a value, got " + shown());
        const std::string name(text);
        next();
        if (name == "static_cast") {
            std::string words;
            if (!expect("<")) return -1;
            const int t = cast_type(words);
            if (t < 0) return fail(c, "static_cast to '" + words + "': use int, unsigned, long long, unsigned long long, size_t, ...");
            if (!expect(">") || !expect("(")) return -1;
            const int a = conditional();
            if (!expect(")")) return -1;
            return make(cast, c, a, -1, {0, static_cast<ExprType>(t)});
        }
        if (name == "warpSize") return make(lit, c, -1, -1, {32, ExprType::i32});   // CUDA C++ Programming Guide, "warpSize": 32
        for (int b = 0; b < 4; ++b) {
            if (name != kBuiltins[b]) continue;
            if (!is(".")) return fail(c, name + " needs a member: " + name + ".x, .y or .z");
            next();
            if (tk != ident || text.size() != 1 || text[0] < 'x' || text[0] > 'z')
                return fail(name + " has members x, y and z, got " + shown());
            const int member = text[0] - 'x';
            next();
            return make(builtin, c, b * 3 + member, -1, {0, ExprType::u32});
        }
        for (std::size_t k = 0; k < e.consts_.size(); ++k)
            if (e.consts_[k].name == name) {
                const int r = e.consts_[k].root;
                return make(cref, c, static_cast<int>(k), -1, {0, e.nodes_[static_cast<std::size_t>(r)].lit.type});
            }
        if (!e.name_.empty() && name == e.name_)
            return fail(c, "the array " + name + " can only be accessed as the whole expression: " + name + "[...]");
        Closest near(name);
        for (const char* b : kBuiltins) near.offer(b);
        near.offer("warpSize");
        for (const auto& k : e.consts_) near.offer(k.name);
        return fail(c, "unknown name '" + name + "'", near.best());
    }

    int unary() {
        if (++depth > kMaxDepth) return fail("the expression is nested too deeply");
        const int c = col();
        int r;
        if (tk == punct && (is("-") || is("+") || is("~") || is("!"))) {
            const Op op = is("-") ? neg : is("+") ? uplus : is("~") ? bnot : lnot;
            next();
            const int a = unary();
            r = make(op, c, a);
        } else {
            r = primary();
            if (!failed() && is("[")) r = fail("only the array can be subscripted, and only as the whole expression");
        }
        --depth;
        return r;
    }

    // [expr.mul] .. [expr.log.or]: C++ precedence, left-associative.
    static int precedence(std::string_view p, Op& op) {
        static constexpr struct { std::string_view t; Op op; int prec; } k[] = {
            {"||", lor, 1}, {"&&", land, 2}, {"|", bor, 3}, {"^", bxor, 4}, {"&", band, 5}, {"==", eq, 6}, {"!=", ne, 6},
            {"<", lt, 7}, {">", gt, 7}, {"<=", le, 7}, {">=", ge, 7}, {"<<", shl, 8}, {">>", shr, 8}, {"+", add, 9},
            {"-", sub, 9}, {"*", mul, 10}, {"/", div_, 10}, {"%", mod, 10}};
        for (const auto& x : k)
            if (x.t == p) return op = x.op, x.prec;
        return 0;
    }
    int binary(int min_prec) {
        int lhs = unary();
        while (!failed() && tk == punct) {
            Op op = lit;
            const int prec = precedence(text, op);
            if (prec == 0 || prec < min_prec) break;
            const int c = col();
            next();
            const int rhs = binary(prec + 1);
            lhs = make(op, c, lhs, rhs);
        }
        return lhs;
    }
    int conditional() {
        if (++depth > kMaxDepth) return fail("the expression is nested too deeply");
        const int cnd = binary(1);
        int r = cnd;
        if (!failed() && is("?")) {
            const int c = col();
            next();
            const int a = conditional();
            if (!expect(":")) return -1;
            const int b = conditional();
            r = make(cond, c, cnd, a);
            if (r >= 0) {
                e.nodes_[static_cast<std::size_t>(r)].c = b;
                e.nodes_[static_cast<std::size_t>(r)].lit.type = common(e.nodes_[static_cast<std::size_t>(a)].lit.type, e.nodes_[static_cast<std::size_t>(b)].lit.type);
            }
        }
        --depth;
        return r;
    }
    bool at_end() {
        if (tk != end && !failed()) fail("unexpected " + shown() + " after the end of the expression");
        return !failed();
    }
};

// [SECTION] Evaluator

struct ExprEval {
    const IndexExpr& e;
    const ExprThread* t;   // nullptr: a constant (array dimensions)
    std::vector<ExprValue> cvals;
    std::string err;

    bool fail(const Node& n, const std::string& what) {
        if (err.empty()) err = std::string(kSrc[n.src]) + ": " + cut(what, 300) + " at column " + std::to_string(n.col);
        return false;
    }
    bool overflow(const Node& n, ExprValue x, ExprValue y, ExprType ty) {
        return fail(n, show(x) + " " + kOpText[n.op] + " " + show(y) + " overflows " + expr_type_name(ty));
    }

    bool eval(int i, ExprValue& out) {
        const Node& n = e.nodes_[static_cast<std::size_t>(i)];
        ExprValue x, y;
        switch (n.op) {
            case lit: out = n.lit; return true;
            case builtin: {
                if (!t) return fail(n, std::string(kBuiltins[n.a / 3]) + "." + static_cast<char>('x' + n.a % 3) + " is not a constant");
                const auto& v = n.a < 3 ? t->thread_idx : n.a < 6 ? t->block_idx : n.a < 9 ? t->block_dim : t->grid_dim;
                out = {v[static_cast<std::size_t>(n.a % 3)], ExprType::u32};
                return true;
            }
            case cref:
                if (static_cast<std::size_t>(n.a) < cvals.size()) return out = cvals[static_cast<std::size_t>(n.a)], true;
                return eval(e.consts_[static_cast<std::size_t>(n.a)].root, out);
            case cast: if (!eval(n.a, x)) return false; out = convert(x, n.lit.type); return true;
            case uplus: return eval(n.a, out);
            case neg:
                if (!eval(n.a, x)) return false;
                if (is_signed(x.type) && x.v == (x.type == ExprType::i32 ? INT32_MIN : INT64_MIN))
                    return fail(n, "-(" + show(x) + ") overflows " + expr_type_name(x.type));
                out = convert({static_cast<std::int64_t>(0ull - static_cast<std::uint64_t>(x.v)), x.type}, x.type);
                return true;
            case bnot: if (!eval(n.a, x)) return false; out = convert({~x.v, x.type}, x.type); return true;
            case lnot: if (!eval(n.a, x)) return false; out = {x.v == 0, ExprType::i32}; return true;
            case land:
            case lor: {
                if (!eval(n.a, x)) return false;
                if ((x.v != 0) == (n.op == lor)) return out = {n.op == lor, ExprType::i32}, true;
                if (!eval(n.b, y)) return false;
                out = {y.v != 0, ExprType::i32};
                return true;
            }
            case cond:
                if (!eval(n.a, x) || !eval(x.v != 0 ? n.b : n.c, y)) return false;
                out = convert(y, n.lit.type);
                return true;
            default: break;
        }
        if (!eval(n.a, x) || !eval(n.b, y)) return false;
        return binary(n, x, y, out);
    }

    bool binary(const Node& n, ExprValue x, ExprValue y, ExprValue& out) {
        if (n.op == shl || n.op == shr) {
            // [expr.shift]: the type is the (promoted) left operand's; a count < 0 or >= its width is
            // undefined, so is a left shift of a negative value or one that leaves the unsigned range.
            const int w = width(x.type);
            if ((is_signed(y.type) && y.v < 0) || static_cast<std::uint64_t>(y.v) >= static_cast<std::uint64_t>(w))
                return fail(n, "shift count " + show(y) + " is outside 0.." + std::to_string(w - 1) + " for " + expr_type_name(x.type));
            const auto k = static_cast<int>(y.v);
            const auto bits = static_cast<std::uint64_t>(x.v) & (w == 32 ? 0xffffffffull : ~0ull);
            if (n.op == shr) {
                out = {is_signed(x.type) ? x.v >> k : static_cast<std::int64_t>(bits >> k), x.type};
                return true;
            }
            if (is_signed(x.type) && x.v < 0) return fail(n, "left shift of the negative value " + show(x) + " (undefined in C++17)");
            if (is_signed(x.type) && k > 0 && (bits >> (w - k)) != 0) return overflow(n, x, y, x.type);
            out = convert({static_cast<std::int64_t>(bits << k), x.type}, x.type);
            return true;
        }
        if (n.op >= lt && n.op <= ne) {
            const ExprType ty = common(x.type, y.type);
            const ExprValue a = convert(x, ty), b = convert(y, ty);
            const bool s = is_signed(ty);
            const auto ua = static_cast<std::uint64_t>(a.v), ub = static_cast<std::uint64_t>(b.v);
            const bool less = s ? a.v < b.v : ua < ub, equal = a.v == b.v;
            const bool r = n.op == lt ? less : n.op == gt ? !less && !equal : n.op == le ? less || equal : n.op == ge ? !less : n.op == eq ? equal : !equal;
            out = {r, ExprType::i32};
            return true;
        }
        const ExprType ty = n.lit.type;
        const ExprValue a = convert(x, ty), b = convert(y, ty);
        const auto ua = static_cast<std::uint64_t>(a.v), ub = static_cast<std::uint64_t>(b.v);
        std::int64_t r = 0;
        if ((n.op == div_ || n.op == mod) && b.v == 0) return fail(n, std::string(n.op == div_ ? "division" : "remainder") + " by zero");
        if (!is_signed(ty)) {
            std::uint64_t u = 0;
            u = n.op == add ? ua + ub : n.op == sub ? ua - ub : n.op == mul ? ua * ub : n.op == div_ ? ua / ub : n.op == mod ? ua % ub
              : n.op == band ? ua & ub : n.op == bor ? ua | ub : ua ^ ub;
            out = convert({static_cast<std::int64_t>(u), ty}, ty);
            return true;
        }
        bool ovf = false;
        switch (n.op) {
            case add: ovf = __builtin_add_overflow(a.v, b.v, &r); break;
            case sub: ovf = __builtin_sub_overflow(a.v, b.v, &r); break;
            case mul: ovf = __builtin_mul_overflow(a.v, b.v, &r); break;
            case div_:
            case mod:
                // [expr.mul]/4: the quotient is truncated toward zero; (a/b)*b + a%b == a.
                if (b.v == -1 && a.v == (ty == ExprType::i32 ? INT32_MIN : INT64_MIN)) return overflow(n, x, y, ty);
                r = n.op == div_ ? a.v / b.v : a.v % b.v;
                break;
            case band: r = a.v & b.v; break;
            case bor: r = a.v | b.v; break;
            default: r = a.v ^ b.v; break;
        }
        if (ovf || !fits(r, ty)) return overflow(n, x, y, ty);
        out = {r, ty};
        return true;
    }

    bool consts() {
        for (const auto& k : e.consts_) {
            ExprValue v;
            if (!eval(k.root, v)) return false;
            cvals.push_back(v);
        }
        return true;
    }
};

IndexExpr IndexExpr::parse(std::string_view expr, std::string_view array, std::string_view consts, int elem_bytes) {
    IndexExpr e;
    e.elem_bytes_ = elem_bytes;
    for (auto [text, field] : {std::pair{expr, "expr"}, std::pair{array, "array"}, std::pair{consts, "consts"}})
        if (text.size() > kMaxText) return e.error_ = std::string(field) + ": at most 4096 characters, got " + std::to_string(text.size()), e;
    // Named values first: the declaration and the access may use them.
    ExprParser pc(e, consts, 2);
    for (pc.next(); pc.tk != ExprParser::end && !pc.failed();) {
        if (pc.tk != ExprParser::ident) return pc.fail("expected a name, got " + pc.shown()), e;
        const std::string name(pc.text);
        bool taken = name == "warpSize" || name == "static_cast" || find_type(name);
        for (const char* b : kBuiltins) taken |= name == b;
        for (const auto& k : e.consts_) taken |= name == k.name;
        if (taken) return pc.fail("the name '" + name + "' is taken (a built-in, a type or an earlier name)"), e;
        pc.next();
        if (!pc.expect("=")) return e;
        const int root = pc.conditional();
        if (pc.failed()) return e;
        e.consts_.push_back({name, root});
        if (pc.is(",") || pc.is(";")) pc.next();
        else if (pc.tk != ExprParser::end) return pc.fail("expected ',' between names, got " + pc.shown()), e;
    }
    if (pc.failed()) return e;

    // The declaration: qualifiers, type words, an optional '*', the name, then [dim]...
    if (!array.empty()) {
        ExprParser pa(e, array, 1);
        std::string words, last;
        int last_col = 1;
        bool pointer = false;
        for (pa.next(); pa.tk == ExprParser::ident || pa.is("*"); pa.next()) {
            if (pa.is("*")) {
                if (pointer || last.empty()) return pa.fail("expected a type before '*'"), e;
                words += (words.empty() ? "" : " ") + last;
                last.clear();
                pointer = true;
                continue;
            }
            if (std::find(std::begin(kQualifiers), std::end(kQualifiers), pa.text) != std::end(kQualifiers)) continue;
            if (!last.empty() && pointer) return pa.fail("unexpected " + pa.shown() + " after the name " + last), e;
            if (!last.empty()) words += (words.empty() ? "" : " ") + last;
            last = std::string(pa.text);
            last_col = pa.col();
        }
        if (pa.failed()) return e;
        if (words.empty()) return pa.fail(last_col, "write the type and the name, e.g. float tile[32][33]"), e;
        const TypeName* ty = find_type(words);
        if (!ty) {
            Closest near(words);
            for (const TypeName& t : kTypes) near.offer(t.name);
            return pa.fail(1, "unknown element type '" + words + "'", near.best()), e;
        }
        if (!valid_access_bytes(ty->bytes))
            return pa.fail(1, words + " is " + std::to_string(ty->bytes) + " bytes; a lane moves 1, 2, 4, 8 or 16 bytes"), e;
        if (last.empty()) return pa.fail("expected the array's name after the type"), e;
        e.type_ = words;
        e.elem_bytes_ = ty->bytes;
        e.name_ = last;
        while (pa.is("[")) {
            pa.next();
            if (pa.is("]") && e.dims_.empty()) {
                e.dims_.push_back(0);
                pa.next();
                continue;
            }
            const int c = pa.col();
            const int root = pa.conditional();
            if (pa.failed() || !pa.expect("]")) return e;
            ExprEval ev{e, nullptr, {}, {}};
            ExprValue v;
            if (!ev.eval(root, v)) return e.error_ = ev.err, e;
            if (v.type == ExprType::u64 || v.v < 1 || v.v > (std::int64_t{1} << 40))
                return pa.fail(c, "a dimension must be 1..2^40, got " + show(v)), e;
            e.dims_.push_back(v.v);
        }
        if (pa.is(";")) pa.next();
        if (!pa.at_end()) return e;
        if (pointer && !e.dims_.empty()) return pa.fail(1, "a pointer to arrays is not modelled: declare the array, e.g. float tile[32][33]"), e;
        if (pointer) e.dims_.push_back(0);
        if (e.dims_.empty()) return pa.fail(1, e.name_ + " is neither an array nor a pointer: add its dimensions, e.g. " + words + " " + e.name_ + "[1024]"), e;
        std::int64_t total = 1;
        for (auto d : e.dims_)
            if (d > 0 && __builtin_mul_overflow(total, d, &total)) return pa.fail(1, "the array is larger than 2^63 elements"), e;
        if (total > (std::int64_t{1} << 48) / e.elem_bytes_) return pa.fail(1, "the array is larger than 2^48 bytes"), e;
    }

    // The access: name[...]... as the whole expression, or a plain element index.
    ExprParser px(e, expr, 0);
    px.next();
    if (px.tk == ExprParser::end) return px.fail("give an index expression, e.g. A[blockIdx.x * blockDim.x + threadIdx.x]"), e;
    bool access = px.tk == ExprParser::ident && px.peek_char() == '[';
    for (const auto& k : e.consts_) access &= px.text != k.name;
    if (access) {
        const std::string name(px.text);
        const int name_col = px.col();
        if (!e.name_.empty() && name != e.name_) {
            Closest near(name);
            near.offer(e.name_);
            return px.fail(px.col(), "unknown array '" + name + "' (the declaration names " + e.name_ + ")", near.best()), e;
        }
        px.next();
        while (px.is("[")) {
            px.next();
            const int c = px.col();
            const int root = px.conditional();
            if (px.failed() || !px.expect("]")) return e;
            e.subs_.push_back(px.make(uplus, c, root));
        }
        if (!px.at_end()) return e;
        if (e.name_.empty()) {
            e.name_ = name;
            e.dims_ = {0};
        }
        if (e.subs_.size() != e.dims_.size())
            return px.fail(name_col, name + " has " + std::to_string(e.dims_.size()) + " dimension" + (e.dims_.size() == 1 ? "" : "s") +
                                         (array.empty() ? " (declare it with the array field, e.g. float " + name + "[32][33])" : "") +
                                         ", the access gives " + std::to_string(e.subs_.size()) + " subscript" + (e.subs_.size() == 1 ? "" : "s")),
                   e;
    } else {
        e.root_ = px.conditional();
        if (!px.at_end()) return e;
        if (e.name_.empty()) e.dims_ = {0};
    }
    return e;
}

std::string IndexExpr::value(const ExprThread& t, ExprValue& out) const {
    if (!ok()) return error_;
    ExprEval ev{*this, &t, {}, {}};
    if (!ev.consts()) return ev.err;
    if (root_ >= 0) return ev.eval(root_, out) ? "" : ev.err;
    std::int64_t flat = 0;
    std::string err = element_index(t, flat);
    out = {flat, ExprType::i64};
    return err;
}

std::string IndexExpr::element_index(const ExprThread& t, std::int64_t& flat) const {
    if (!ok()) return error_;
    ExprEval ev{*this, &t, {}, {}};
    if (!ev.consts()) return ev.err;
    auto decl = [&] {
        std::string d = name_;
        for (auto x : dims_) d += "[" + (x ? std::to_string(x) : std::string()) + "]";
        return d;
    };
    auto index = [&](int root, std::int64_t bound, std::int64_t& out, const char* what) {
        ExprValue v;
        if (!ev.eval(root, v)) return false;
        const Node& n = nodes_[static_cast<std::size_t>(root)];
        if ((v.type == ExprType::u64 && v.v < 0) || (bound > 0 && (v.v < 0 || v.v >= bound)))
            return ev.fail(n, "index " + show(v) + " is out of bounds for " + what + " of " + decl() +
                                  (bound > 0 ? " (0.." + std::to_string(bound - 1) + ")" : " (above 2^63)"));
        out = v.v;
        return true;
    };
    if (root_ >= 0) {
        std::int64_t total = 1;
        for (auto d : dims_) total = d == 0 ? 0 : total * d;
        return index(root_, total, flat, "the elements") ? "" : ev.err;
    }
    flat = 0;
    for (std::size_t k = 0; k < subs_.size(); ++k) {
        std::int64_t i = 0;
        const std::string what = "dimension " + std::to_string(k + 1);
        if (!index(subs_[k], dims_[k], i, what.c_str())) return ev.err;
        if (__builtin_mul_overflow(flat, k == 0 ? 1 : dims_[k], &flat) || __builtin_add_overflow(flat, i, &flat))
            return (ev.fail(nodes_[static_cast<std::size_t>(subs_[k])], "the element index overflows long long"), ev.err);
    }
    return "";
}

// [SECTION] expr_warp_access

std::string check_expr_launch(const ExprLaunch& l) {
    auto dims = [](const std::array<int, 3>& d) { return std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]); };
    const auto& b = l.block;
    if (b[0] < 1 || b[0] > 1024 || b[1] < 1 || b[1] > 1024 || b[2] < 1 || b[2] > 64 || b[0] * b[1] * b[2] > 1024)
        return "block: each dimension 1..1024 (z 1..64), at most 1024 threads, got " + dims(b);
    const auto& g = l.grid_dim;
    if (g[0] < 1 || g[1] < 1 || g[1] > 65535 || g[2] < 1 || g[2] > 65535)
        return "grid_dim: x 1..2^31-1, y and z 1..65535, got " + dims(g);
    for (int i = 0; i < 3; ++i)
        if (l.block_idx[static_cast<std::size_t>(i)] < 0 || l.block_idx[static_cast<std::size_t>(i)] >= g[static_cast<std::size_t>(i)])
            return "block_idx: each 0..grid_dim-1 (grid_dim " + dims(g) + "), got " + dims(l.block_idx);
    if (l.base >= (std::uint64_t{1} << 48)) return "base: must be a byte address 0..2^48-1, got " + std::to_string(l.base);
    if (l.offset < -(std::int64_t{1} << 40) || l.offset > (std::int64_t{1} << 40)) return "offset: must be -2^40..2^40, got " + std::to_string(l.offset);
    const int warps = (b[0] * b[1] * b[2] + kWarpLanes - 1) / kWarpLanes;
    if (l.warp < 0 || l.warp >= warps)
        return "warp: must be 0.." + std::to_string(warps - 1) + " (the block has " + std::to_string(warps) + " warp" + (warps == 1 ? "" : "s") +
               "), got " + std::to_string(l.warp);
    return "";
}

std::string expr_warp_access(const IndexExpr& e, const ExprLaunch& l, WarpAccess& out) {
    if (!e.ok()) return e.error();
    if (std::string err = check_expr_launch(l); !err.empty()) return err;
    out = WarpAccess{};
    out.active = 0;
    out.access_bytes = e.elem_bytes();
    out.op = l.op;
    ExprThread t;
    for (std::size_t i = 0; i < 3; ++i) {
        t.block_dim[i] = static_cast<std::uint32_t>(l.block[i]);
        t.block_idx[i] = static_cast<std::uint32_t>(l.block_idx[i]);
        t.grid_dim[i] = static_cast<std::uint32_t>(l.grid_dim[i]);
    }
    const int threads = l.block[0] * l.block[1] * l.block[2];
    constexpr std::int64_t kMax = std::int64_t{1} << 48;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
        const int th = l.warp * kWarpLanes + lane;
        if (th >= threads || !((l.active_lanes >> lane) & 1u)) continue;
        t.thread_idx = {static_cast<std::uint32_t>(th % l.block[0]), static_cast<std::uint32_t>(th / l.block[0] % l.block[1]),
                        static_cast<std::uint32_t>(th / (l.block[0] * l.block[1]))};
        char who[64];
        std::snprintf(who, sizeof who, " (lane %d, threadIdx (%u,%u,%u))", lane, t.thread_idx[0], t.thread_idx[1], t.thread_idx[2]);
        std::int64_t flat = 0, addr = 0;
        if (std::string err = e.element_index(t, flat); !err.empty()) return err + who;
        if (__builtin_mul_overflow(flat, static_cast<std::int64_t>(e.elem_bytes()), &addr) ||
            __builtin_add_overflow(addr, static_cast<std::int64_t>(l.base) + l.offset, &addr) || addr < 0 || addr >= kMax)
            return "expr: element " + std::to_string(flat) + " lies outside byte addresses 0..2^48-1 (base + offset + index x " +
                   std::to_string(e.elem_bytes()) + ")" + who;
        if (addr % e.elem_bytes() != 0)
            return "offset: address " + std::to_string(addr) + " is not a multiple of the element size " + std::to_string(e.elem_bytes()) +
                   " (CUDA accesses are naturally aligned)" + who;
        out.addr[static_cast<std::size_t>(lane)] = static_cast<std::uint64_t>(addr);
        out.active |= 1u << lane;
    }
    return "";
}

}  // namespace occ
