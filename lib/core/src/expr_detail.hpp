// expr_detail.hpp — what the index-expression parser (expr.cpp) and its evaluator (expr_eval.cpp)
// share: the node operators, CUDA C++'s integer conversions and the evaluator's interface.
#pragma once
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "occ/expr.hpp"

namespace occ {
namespace expr_detail {

enum Op : std::uint8_t {
    lit,
    builtin,
    cref,
    cast,
    neg,
    uplus,
    bnot,
    lnot,
    add,
    sub,
    mul,
    div_,
    mod,
    shl,
    shr,
    band,
    bor,
    bxor,
    lt,
    gt,
    le,
    ge,
    eq,
    ne,
    land,
    lor,
    cond
};
inline constexpr const char* kOpText[] = {"",   "",  "",  "",  "-", "+", "~",  "!",  "+",  "-",  "*",  "/",  "%", "<<",
                                          ">>", "&", "|", "^", "<", ">", "<=", ">=", "==", "!=", "&&", "||", "?:"};
inline constexpr const char* kSrc[] = {"expr", "array", "consts"};
inline constexpr const char* kBuiltins[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
inline constexpr int kMaxDepth = 200;
inline constexpr std::size_t kMaxText = 4096;

// Messages quote what was typed; a 4096-character name is cut so a message stays readable.
inline std::string cut(std::string s, std::size_t n) { return s.size() > n ? s.substr(0, n - 3) + "..." : s; }

inline bool is_signed(ExprType t) { return t == ExprType::i32 || t == ExprType::i64; }
inline int width(ExprType t) { return t == ExprType::i32 || t == ExprType::u32 ? 32 : 64; }

// [conv.integral]/2-3: to unsigned modulo 2^N; to signed out of range is implementation-defined,
// and every CUDA compiler (like C++20) takes it modulo 2^N too.
inline ExprValue convert(ExprValue x, ExprType t) {
    const auto low = static_cast<std::uint32_t>(x.v);
    return {t == ExprType::i32 ? static_cast<std::int32_t>(low) : t == ExprType::u32 ? static_cast<std::int64_t>(low) : x.v, t};
}

// [expr]/11, the usual arithmetic conversions (all our types are already promoted; long = long long
// on 64-bit Linux).
inline ExprType common(ExprType a, ExprType b) {
    if (a == b) return a;
    if (is_signed(a) == is_signed(b)) return width(a) >= width(b) ? a : b;
    const ExprType s = is_signed(a) ? a : b, u = is_signed(a) ? b : a;
    if (width(u) >= width(s)) return u;
    return s;  // long long holds every unsigned int
}

inline std::string show(ExprValue x) {
    return x.type == ExprType::u64 ? std::to_string(static_cast<std::uint64_t>(x.v)) : std::to_string(x.v);
}

inline bool fits(std::int64_t v, ExprType t) { return t != ExprType::i32 || (v >= INT32_MIN && v <= INT32_MAX); }

}  // namespace expr_detail

// One evaluation of an expression's nodes (expr_eval.cpp); friend of IndexExpr.
struct ExprEval {
    using Node = IndexExpr::Node;
    const IndexExpr& e;
    const ExprThread* t;  // nullptr: a constant (array dimensions)
    std::vector<ExprValue> cvals;
    std::string err;

    bool fail(const Node& n, const std::string& what);
    bool overflow(const Node& n, ExprValue x, ExprValue y, ExprType ty);
    bool eval(int i, ExprValue& out);                                      // node i
    bool binary(const Node& n, ExprValue x, ExprValue y, ExprValue& out);  // after the usual conversions
    bool consts();                                                         // the named values, in order
};

}  // namespace occ
