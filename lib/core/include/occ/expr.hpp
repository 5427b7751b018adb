// occ/expr.hpp — an access typed the way the kernel writes it: `tile[threadIdx.y][threadIdx.x ^ threadIdx.y]`.
//
// [SECTION] IndexExpr: parse an access once (the expression, the array's declaration, named values)
// [SECTION] ExprLaunch + expr_warp_access: evaluate it for every lane of one warp -> WarpAccess
//
// Integer semantics are those of CUDA C++ (ISO C++17, nvcc's default dialect, on a 64-bit target):
//   types int, unsigned int, long long, unsigned long long; threadIdx/blockIdx/blockDim/gridDim
//   members are unsigned int, warpSize and small literals are int; the usual arithmetic conversions
//   pick the type of each operation (so `threadIdx.x - 1` wraps to 4294967295 for thread 0, as it
//   does on the GPU); unsigned arithmetic wraps, signed overflow is an error (undefined in C++);
//   / and % truncate toward zero; a shift by a negative count or >= the width, and a left shift of
//   a negative value, are errors (undefined in C++17); >> of a negative value is arithmetic.
// Operators: + - * / % << >> & | ^ ~ ! unary - +, < > <= >= == != && || ?:, parentheses, casts
// `(int)e`, `(unsigned)e`, `(long long)e`, `(size_t)e`, ... and `static_cast<T>(e)`.
// Every error names its field (expr, array, consts) and the 1-based column it points at.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "occ/coalescing.hpp"

namespace occ {

enum class ExprType : std::uint8_t { i32, u32, i64, u64 };
const char* expr_type_name(ExprType t);  // "int", "unsigned int", "long long", "unsigned long long"

// A value of one of the four types: signed types sign-extended, unsigned ones zero-extended
// (an unsigned long long above 2^63 is stored as its two's-complement bits).
struct ExprValue {
    std::int64_t v = 0;
    ExprType type = ExprType::i32;
};

// The built-in variables of one thread.
struct ExprThread {
    std::array<std::uint32_t, 3> thread_idx{}, block_idx{}, block_dim{1, 1, 1}, grid_dim{1, 1, 1};
};

// [SECTION] IndexExpr
// expr:   "tile[threadIdx.y][threadIdx.x ^ threadIdx.y]" (an access of the declared array, one
//         subscript per dimension) or a plain element index "blockIdx.x * blockDim.x + threadIdx.x".
// array:  the declaration, as in the kernel: "float tile[32][33]", "__shared__ double s[N][LD]",
//         "extern __shared__ float4 buf[]", "const float* A". "" = a 1-D array of `elem_bytes`
//         elements with any name and no bound.
// consts: named values "N=1024, LD=N+1" (',' or ';' between them); each may use the built-ins and
//         the names before it, so "tx=threadIdx.x % 16" works too. Types follow the expression.
class IndexExpr {
public:
    static IndexExpr parse(std::string_view expr, std::string_view array = {}, std::string_view consts = {}, int elem_bytes = 4);

    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }  // "expr: unknown name 'threadIdy' at column 7; did you mean threadIdx?"
    int elem_bytes() const { return elem_bytes_; }
    const std::string& type_name() const { return type_; }  // "float" ("" without a declaration)
    const std::string& array_name() const { return name_; }
    const std::vector<std::int64_t>& dims() const { return dims_; }  // dims_[0] == 0: no bound (pointer, [])
    bool subscripted() const { return !subs_.empty(); }

    // The value of the expression for one thread (a subscripted access: its flat element index).
    // Returns "" or the error (field, column, what).
    std::string value(const ExprThread& t, ExprValue& out) const;
    std::string element_index(const ExprThread& t, std::int64_t& flat) const;

    // The parse tree, in one array (children by index; the meaning of op, a, b, c is expr.cpp's).
    struct Node {
        std::uint8_t op = 0;
        std::uint8_t src = 0;  // 0 expr, 1 array, 2 consts: which text `col` points into
        int col = 0;
        int a = -1, b = -1, c = -1;
        ExprValue lit;
    };
    struct Const {
        std::string name;
        int root = -1;
    };

private:
    std::string error_;
    int elem_bytes_ = 4;
    std::string type_, name_;
    std::vector<std::int64_t> dims_;
    std::vector<Node> nodes_;
    std::vector<Const> consts_;
    std::vector<int> subs_;  // subscript roots, outermost first
    int root_ = -1;          // the expression without subscripts
    friend struct ExprParser;
    friend struct ExprEval;
};

// [SECTION] expr_warp_access
// Which warp of which block, and where the array lives.
struct ExprLaunch {
    std::array<int, 3> block{32, 1, 1};        // blockDim, 1..1024 each, z 1..64, x*y*z <= 1024
    std::array<int, 3> block_idx{0, 0, 0};     // blockIdx, < grid_dim
    std::array<int, 3> grid_dim{1, 1, 1};      // gridDim, 1..2^31-1 (x), 1..65535 (y, z)
    int warp = 0;                              // warp of the block, 0-based
    std::uint32_t active_lanes = 0xffffffffu;  // lanes past the block's end are inactive as well
    std::uint64_t base = 0;                    // byte address of element 0
    std::int64_t offset = 0;                   // bytes added to every address
    AccessOp op = AccessOp::load;
};

// "" when usable; else "field: allowed range, got X" naming block, block_idx, grid_dim or warp.
std::string check_expr_launch(const ExprLaunch& l);

// The warp's access: lane i is thread 32*warp + i of the block (threadIdx.x fastest), its address
// base + offset + element index * elem_bytes, access_bytes = elem_bytes. Returns "" or the first
// active lane's error, e.g. "expr: index 33 is out of bounds ... at column 20 (lane 1, threadIdx (1,0,0))".
std::string expr_warp_access(const IndexExpr& e, const ExprLaunch& l, WarpAccess& out);

}  // namespace occ
