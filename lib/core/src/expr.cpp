// expr.cpp — reading index expressions (see occ/expr.hpp); evaluating them is expr_eval.cpp.
//
// [SECTION] Type names: declarations and casts
// [SECTION] Parser: lexer, precedence climbing, the access, the declaration, the named values
//
// No packaged expression library gives C++'s four integer types with their conversions, so this is
// a small recursive-descent parser. The rules below cite ISO C++17 (N4659), nvcc's default dialect.
#include <algorithm>
#include <cctype>
#include <cstdio>

#include "expr_detail.hpp"
#include "occ/names.hpp"
#include "occ/text.hpp"

namespace occ {

using namespace expr_detail;
using Node = IndexExpr::Node;

namespace {

// [SECTION] Type names

struct TypeName {
    const char* name;
    int bytes;      // element size (declarations)
    int cast;       // -1: not a cast target; else an ExprType
    int align = 0;  // alignment when less than the size (a lane then cannot move it in one access)
};
// Element sizes: CUDA C++ Programming Guide, "Built-in Vector Types" (alignment table) and cuda_fp16 / cuda_bf16.
// The 32-byte four-vectors (CUDA 13 vector_types.h): double4, longlong4 and the other 64-bit four-vectors
// are 16-byte aligned (deprecated; the same as *_16a) and compile to two 16-byte accesses; the *_32a
// variants are 32-byte aligned, one 256-bit ld/st.global on compute capability 10.0 and newer.
constexpr TypeName kTypes[] = {
    {"char", 1, -1},
    {"signed char", 1, -1},
    {"unsigned char", 1, -1},
    {"int8_t", 1, -1},
    {"uint8_t", 1, -1},
    {"bool", 1, -1},
    {"char2", 2, -1},
    {"uchar2", 2, -1},
    {"short", 2, -1},
    {"unsigned short", 2, -1},
    {"int16_t", 2, -1},
    {"uint16_t", 2, -1},
    {"half", 2, -1},
    {"__half", 2, -1},
    {"__nv_bfloat16", 2, -1},
    {"nv_bfloat16", 2, -1},
    {"bfloat16", 2, -1},
    {"int", 4, 0},
    {"signed", 4, 0},
    {"signed int", 4, 0},
    {"int32_t", 4, 0},
    {"unsigned", 4, 1},
    {"unsigned int", 4, 1},
    {"uint32_t", 4, 1},
    {"float", 4, -1},
    {"char4", 4, -1},
    {"uchar4", 4, -1},
    {"short2", 4, -1},
    {"ushort2", 4, -1},
    {"half2", 4, -1},
    {"__half2", 4, -1},
    {"__nv_bfloat162", 4, -1},
    {"long", 8, 2},
    {"long int", 8, 2},
    {"long long", 8, 2},
    {"long long int", 8, 2},
    {"int64_t", 8, 2},
    {"ptrdiff_t", 8, 2},
    {"intptr_t", 8, 2},
    {"unsigned long", 8, 3},
    {"unsigned long int", 8, 3},
    {"unsigned long long", 8, 3},
    {"unsigned long long int", 8, 3},
    {"uint64_t", 8, 3},
    {"size_t", 8, 3},
    {"uintptr_t", 8, 3},
    {"double", 8, -1},
    {"float2", 8, -1},
    {"int2", 8, -1},
    {"uint2", 8, -1},
    {"short4", 8, -1},
    {"ushort4", 8, -1},
    {"longlong1", 8, -1},
    {"float4", 16, -1},
    {"int4", 16, -1},
    {"uint4", 16, -1},
    {"double2", 16, -1},
    {"longlong2", 16, -1},
    {"ulonglong2", 16, -1},
    {"float3", 12, -1},
    {"int3", 12, -1},
    {"double4", 32, -1, 16},
    {"longlong4", 32, -1, 16},
    {"ulonglong4", 32, -1, 16},
    {"long4", 32, -1, 16},
    {"ulong4", 32, -1, 16},
    {"double4_16a", 32, -1, 16},
    {"longlong4_16a", 32, -1, 16},
    {"ulonglong4_16a", 32, -1, 16},
    {"long4_16a", 32, -1, 16},
    {"ulong4_16a", 32, -1, 16},
    {"double4_32a", 32, -1},
    {"longlong4_32a", 32, -1},
    {"ulonglong4_32a", 32, -1},
    {"long4_32a", 32, -1},
    {"ulong4_32a", 32, -1},
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
constexpr std::string_view kQualifiers[] = {"__shared__", "extern",       "static",       "const",      "volatile",
                                            "__device__", "__constant__", "__restrict__", "__restrict", "__grid_constant__"};

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
            e.error_ = std::string(kSrc[src]) + ": " + cut(what, 300) + " at column " + std::to_string(c) +
                       (hint.empty() ? "" : "; did you mean " + cut(hint, 60) + "?");
        return -1;
    }
    int fail(const std::string& what) { return fail(col(), what); }
    std::string shown() const { return tk == end ? "the end" : "'" + std::string(text) + "'"; }

    void next() {
        while (pos < s.size() && (s[pos] == ' ' || s[pos] == '\t' || s[pos] == '\n' || s[pos] == '\r')) ++pos;
        start = pos;
        if (pos >= s.size()) {
            tk = end;
            text = {};
            return;
        }
        const char c = s[pos];
        auto word = [&](auto pred) {
            while (pos < s.size() && pred(s[pos])) ++pos;
        };
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
            const std::uint64_t max = ty == ExprType::i32   ? INT32_MAX
                                      : ty == ExprType::u32 ? UINT32_MAX
                                      : ty == ExprType::i64 ? INT64_MAX
                                                            : ~0ull;
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
        if (name == "warpSize") return make(lit, c, -1, -1, {32, ExprType::i32});  // CUDA C++ Programming Guide, "warpSize": 32
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
        static constexpr struct {
            std::string_view t;
            Op op;
            int prec;
        } k[] = {{"||", lor, 1}, {"&&", land, 2}, {"|", bor, 3}, {"^", bxor, 4}, {"&", band, 5},  {"==", eq, 6},
                 {"!=", ne, 6},  {"<", lt, 7},    {">", gt, 7},  {"<=", le, 7},  {">=", ge, 7},   {"<<", shl, 8},
                 {">>", shr, 8}, {"+", add, 9},   {"-", sub, 9}, {"*", mul, 10}, {"/", div_, 10}, {"%", mod, 10}};
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
                e.nodes_[static_cast<std::size_t>(r)].lit.type = common(e.nodes_[static_cast<std::size_t>(a)].lit.type,
                                                                        e.nodes_[static_cast<std::size_t>(b)].lit.type);
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

IndexExpr IndexExpr::parse(std::string_view expr, std::string_view array, std::string_view consts, int elem_bytes) {
    IndexExpr e;
    e.elem_bytes_ = elem_bytes;
    for (auto [text, field] : {std::pair{expr, "expr"}, std::pair{array, "array"}, std::pair{consts, "consts"}})
        if (text.size() > kMaxText)
            return e.error_ = std::string(field) + ": at most 4096 characters, got " + std::to_string(text.size()), e;
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
                join_into(words, " ", last);
                last.clear();
                pointer = true;
                continue;
            }
            if (std::find(std::begin(kQualifiers), std::end(kQualifiers), pa.text) != std::end(kQualifiers)) continue;
            if (!last.empty() && pointer) return pa.fail("unexpected " + pa.shown() + " after the name " + last), e;
            if (!last.empty()) join_into(words, " ", last);
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
        if (ty->align != 0)
            return pa.fail(1, words + " is " + std::to_string(ty->bytes) + " bytes but " + std::to_string(ty->align) +
                                  "-byte aligned, so a lane moves it as two 16-byte accesses; declare " +
                                  std::string(words.substr(0, words.find('_'))) +
                                  "_32a (one 32-byte access, cc 10.0+ global memory) or index its 16-byte halves"),
                   e;
        if (!valid_global_access_bytes(ty->bytes))
            return pa.fail(1, words + " is " + std::to_string(ty->bytes) +
                                  " bytes; a lane moves 1, 2, 4, 8 or 16 bytes, or 32 (a *_32a type, cc 10.0+ global memory)"),
                   e;
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
        if (pointer && !e.dims_.empty())
            return pa.fail(1, "a pointer to arrays is not modelled: declare the array, e.g. float tile[32][33]"), e;
        if (pointer) e.dims_.push_back(0);
        if (e.dims_.empty())
            return pa.fail(1, e.name_ + " is neither an array nor a pointer: add its dimensions, e.g. " + words + " " + e.name_ + "[1024]"),
                   e;
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
                                         ", the access gives " + std::to_string(e.subs_.size()) + " subscript" +
                                         (e.subs_.size() == 1 ? "" : "s")),
                   e;
    } else {
        e.root_ = px.conditional();
        if (!px.at_end()) return e;
        if (e.name_.empty()) e.dims_ = {0};
    }
    return e;
}

}  // namespace occ
