// test_expr.cpp — occ/expr.hpp: C++ precedence, every operator with CUDA C++'s integer types
// (values from ISO C++17 [expr.mul], [expr.shift], [lex.icon], [expr]/11 worked by hand), error
// columns, declarations, and a property test: the expression input and the pattern pickers
// (affine, 2-D tile with pad, col ^ row swizzle, gather with a range) give the same warps.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <random>
#include <string>

#include "occ/banks.hpp"
#include "occ/coalescing.hpp"
#include "occ/expr.hpp"

using namespace occ;

namespace {

ExprThread thread(std::uint32_t x, std::uint32_t y = 0, std::uint32_t z = 0) {
    ExprThread t;
    t.thread_idx = {x, y, z};
    t.block_dim = {32, 32, 1};
    return t;
}

ExprValue val(std::string_view e, const ExprThread& t = thread(0), std::string_view consts = {}) {
    const IndexExpr x = IndexExpr::parse(e, {}, consts);
    REQUIRE_MESSAGE(x.ok(), x.error());
    ExprValue v;
    const std::string err = x.value(t, v);
    REQUIRE_MESSAGE(err.empty(), err);
    return v;
}
std::int64_t num(std::string_view e, const ExprThread& t = thread(0)) { return val(e, t).v; }

std::string err(std::string_view e, std::string_view array = {}, std::string_view consts = {}, const ExprThread& t = thread(0)) {
    const IndexExpr x = IndexExpr::parse(e, array, consts);
    if (!x.ok()) return x.error();
    ExprValue v;
    return x.value(t, v);
}

}  // namespace

TEST_CASE("expr: C++ precedence and associativity") {
    CHECK(num("1 + 2 * 3") == 7);
    CHECK(num("(1 + 2) * 3") == 9);
    CHECK(num("10 - 4 - 3") == 3);
    CHECK(num("64 / 4 / 2") == 8);
    CHECK(num("1 << 2 + 1") == 8);      // + binds tighter than <<
    CHECK(num("6 & 3 ^ 1 | 8") == 11);  // & before ^ before |: ((6&3)^1)|8
    CHECK(num("1 | 2 ^ 3 & 6") == 1);   // 1 | (2 ^ (3 & 6)) = 1 | 0
    CHECK(num("1 + 2 == 3") == 1);
    CHECK(num("2 < 3 == 1") == 1);
    CHECK(num("0 || 1 && 0") == 0);
    CHECK(num("1 ? 2 : 0 ? 3 : 4") == 2);
    CHECK(num("0 ? 2 : 0 ? 3 : 4") == 4);
    CHECK(num("-2 * -3") == 6);
    CHECK(num("~0") == -1);
    CHECK(num("!5 + !0") == 1);
    CHECK(num("- - 3") == 3);
    CHECK(num("5 % 3 * 2") == 4);
    CHECK(num("16 >> 2 >> 1") == 2);
    CHECK(num("1 + 2 < 4 && 3 >= 3") == 1);
}

TEST_CASE("expr: / and % truncate toward zero; (a/b)*b + a%b == a") {
    CHECK(num("-7 / 2") == -3);
    CHECK(num("-7 % 2") == -1);
    CHECK(num("7 / -2") == -3);
    CHECK(num("7 % -2") == 1);
    CHECK(num("-7 / -2") == 3);
    CHECK(num("-7 % -2") == -1);
    CHECK(num("7u / 2") == 3);
    // int -1 becomes unsigned 4294967295 before the division ([expr]/11).
    CHECK(num("-1 / 2u") == 2147483647);
    CHECK(err("1 / 0") == "expr: division by zero at column 3");
    CHECK(err("5 % (threadIdx.x)") == "expr: remainder by zero at column 3");
    CHECK(err("(-2147483647 - 1) / -1") == "expr: -2147483648 / -1 overflows int at column 19");
}

TEST_CASE("expr: shifts follow C++17") {
    CHECK(num("-16 >> 2") == -4);                 // arithmetic for a negative int
    CHECK(num("0x80000000 >> 4") == 0x08000000);  // unsigned int: logical
    CHECK(num("1 << 31") == INT32_MIN);           // 2^31 fits unsigned int, so it is defined: INT_MIN
    CHECK(val("1u << 31").type == ExprType::u32);
    CHECK(num("1ll << 40") == (std::int64_t{1} << 40));
    CHECK(num("static_cast<long long>(threadIdx.x + 1) << 33") == (std::int64_t{1} << 33));
    CHECK(val("1 << 2u").type == ExprType::i32);  // the left operand's type
    CHECK(err("2 << 31") == "expr: 2 << 31 overflows int at column 3");
    CHECK(err("1 << 32") == "expr: shift count 32 is outside 0..31 for int at column 3");
    CHECK(err("1 >> -1") == "expr: shift count -1 is outside 0..31 for int at column 3");
    CHECK(err("-1 << 1") == "expr: left shift of the negative value -1 (undefined in C++17) at column 4");
    CHECK(num("1u << 31 << 1") == 0);  // unsigned wraps
}

TEST_CASE("expr: built-ins are unsigned int, so index arithmetic wraps as on the GPU") {
    const ExprValue v = val("threadIdx.x - 1", thread(0));
    CHECK(v.type == ExprType::u32);
    CHECK(v.v == 4294967295);
    CHECK(num("(int)threadIdx.x - 1", thread(0)) == -1);
    CHECK(num("threadIdx.x * -2", thread(1)) == 4294967294);
    CHECK(num("-1 < 0u") == 0);  // -1 converts to 4294967295
    CHECK(num("-1 < 0") == 1);
    CHECK(num("-1ll < 0u") == 1);  // long long holds every unsigned int
    CHECK(num("-1 < 0ull") == 0);
    CHECK(num("4294967295u + 1") == 0);
    CHECK(num("-(1u)") == 4294967295);
    CHECK(num("~0u") == 4294967295);
    CHECK(num("blockDim.x * blockDim.y + threadIdx.z + warpSize", thread(0, 0, 2)) == 32 * 32 + 2 + 32);
    ExprThread t = thread(5, 6, 7);
    t.block_idx = {8, 9, 10};
    t.grid_dim = {11, 12, 13};
    CHECK(num("threadIdx.x + threadIdx.y * 10 + threadIdx.z * 100", t) == 765);
    CHECK(num("blockIdx.x + blockIdx.y * 100 + blockIdx.z * 10000 + gridDim.x + gridDim.y + gridDim.z", t) == 100908 + 36);
    CHECK(err("2147483647 + 1") == "expr: 2147483647 + 1 overflows int at column 12");
    CHECK(err("3000000000ll * 4000000000ll") == "expr: 3000000000 * 4000000000 overflows long long at column 14");
    CHECK(err("-(-2147483647 - 1)") == "expr: -(-2147483648) overflows int at column 1");
}

TEST_CASE("expr: literal types ([lex.icon]) and casts") {
    CHECK(val("2147483647").type == ExprType::i32);
    CHECK(val("2147483648").type == ExprType::i64);  // decimal: int, long, long long
    CHECK(val("0x80000000").type == ExprType::u32);  // hex: int, unsigned int, ...
    CHECK(val("0xffffffffffffffff").type == ExprType::u64);
    CHECK(val("5ul").type == ExprType::u64);
    CHECK(val("5LL").type == ExprType::i64);
    CHECK(num("0b101 + 017 + 1'000") == 5 + 15 + 1000);
    CHECK(err("18446744073709551615") == "expr: the literal 18446744073709551615 does not fit in long long (add a u suffix) at column 1");
    CHECK(static_cast<std::uint64_t>(num("18446744073709551615u")) == ~0ull);
    CHECK(err("2 * 1.5") == "expr: '1.5' is not an integer literal (occ models integer index arithmetic) at column 5");
    CHECK(err("(unsigned char)0") ==
          "expr: cannot cast to 'unsigned char': use int, unsigned, long long, unsigned long long, size_t, ... at column 1");
}

TEST_CASE("expr: errors point at the column") {
    CHECK(err("A[2 * threadIdy.x]") == "expr: unknown name 'threadIdy' at column 7; did you mean threadIdx?");
    CHECK(err("threadIdx.w") == "expr: threadIdx has members x, y and z, got 'w' at column 11");
    CHECK(err("threadIdx + 1") == "expr: threadIdx needs a member: threadIdx.x, .y or .z at column 1");
    CHECK(err("1 +") == "expr: the expression ends where a value is expected at column 4");
    CHECK(err("(1 + 2") == "expr: expected ')', got the end at column 7");
    CHECK(err("A[1]]") == "expr: unexpected ']' after the end of the expression at column 5");
    CHECK(err("1 $ 2") == "expr: unexpected character '$' at column 3");
    CHECK(err("") == "expr: give an index expression, e.g. A[blockIdx.x * blockDim.x + threadIdx.x] at column 1");
    CHECK(err("(float)threadIdx.x") ==
          "expr: cannot cast to 'float': use int, unsigned, long long, unsigned long long, size_t, ... at column 1");
    CHECK(err("tile[threadIdx.y][threadIdx.x + 1]", "float tile[32][32]", {}, thread(31)) ==
          "expr: index 32 is out of bounds for dimension 2 of tile[32][32] (0..31) at column 19");
    CHECK(err("tile[threadIdx.y]", "float tile[32][32]") == "expr: tile has 2 dimensions, the access gives 1 subscript at column 1");
    CHECK(err("tle[0][0]", "float tile[32][32]") ==
          "expr: unknown array 'tle' (the declaration names tile) at column 1; did you mean tile?");
    CHECK(err("s[0][1]") ==
          "expr: s has 1 dimension (declare it with the array field, e.g. float s[32][33]), the access gives 2 subscripts at column 1");
    CHECK(err("A[N]", {}, "N = 4 / (2 - 2)") == "consts: division by zero at column 7");
    CHECK(err("A[M]", {}, "N = 4") == "expr: unknown name 'M' at column 3; did you mean N?");
    CHECK(err("A[0]", {}, "N = 4 M = 5") == "consts: expected ',' between names, got 'M' at column 7");
    CHECK(err("A[0]", {}, "threadIdx = 4") == "consts: the name 'threadIdx' is taken (a built-in, a type or an earlier name) at column 1");
    std::string deep(300, '(');
    CHECK(err(deep + "1") == "expr: the expression is nested too deeply at column 101");
}

TEST_CASE("expr: declarations") {
    IndexExpr e = IndexExpr::parse("tile[threadIdx.y][threadIdx.x]", "float tile[32][33]");
    REQUIRE(e.ok());
    CHECK(e.elem_bytes() == 4);
    CHECK(e.type_name() == "float");
    CHECK(e.dims() == std::vector<std::int64_t>{32, 33});
    std::int64_t flat = 0;
    CHECK(e.element_index(thread(3, 2), flat).empty());
    CHECK(flat == 2 * 33 + 3);

    e = IndexExpr::parse("s[1][2]", "__shared__ double s[N][LD];", "N = 8, LD = N + 1");
    REQUIRE(e.ok());
    CHECK(e.elem_bytes() == 8);
    CHECK(e.dims() == std::vector<std::int64_t>{8, 9});
    e = IndexExpr::parse("buf[threadIdx.x]", "extern __shared__ float4 buf[]");
    REQUIRE(e.ok());
    CHECK(e.elem_bytes() == 16);
    CHECK(e.dims() == std::vector<std::int64_t>{0});
    e = IndexExpr::parse("A[threadIdx.x]", "const float* __restrict__ A");
    REQUIRE(e.ok());
    CHECK(e.elem_bytes() == 4);
    CHECK(IndexExpr::parse("h[0]", "unsigned short h[64]").elem_bytes() == 2);
    CHECK(IndexExpr::parse("h[0]", "__half h[64]").elem_bytes() == 2);
    CHECK(IndexExpr::parse("v[0]", "float3 v[4]").error() ==
          "array: float3 is 12 bytes; a lane moves 1, 2, 4, 8 or 16 bytes, or 32 (a *_32a type, cc 10.0+ global memory) at column 1");
    CHECK(IndexExpr::parse("A[0]", "flot A[4]").error() == "array: unknown element type 'flot' at column 1; did you mean float?");
    CHECK(IndexExpr::parse("A[0]", "float A").error() ==
          "array: A is neither an array nor a pointer: add its dimensions, e.g. float A[1024] at column 1");
    CHECK(IndexExpr::parse("A[0]", "float A[threadIdx.x]").error() == "array: threadIdx.x is not a constant at column 9");
    CHECK(IndexExpr::parse("A[0]", "float A[0]").error() == "array: a dimension must be 1..2^40, got 0 at column 9");
    // A plain element index into a declared array is bounded by its size.
    flat = 0;
    CHECK(IndexExpr::parse("threadIdx.x + 1024", "float A[32][32]").element_index(thread(1), flat) ==
          "expr: index 1025 is out of bounds for the elements of A[32][32] (0..1023) at column 13");
}

TEST_CASE("expr: one warp's addresses") {
    const IndexExpr e = IndexExpr::parse("A[(blockIdx.x * blockDim.x + threadIdx.x) * 2]", "float A[1 << 20]");
    REQUIRE(e.ok());
    ExprLaunch l;
    l.block = {64, 1, 1};
    l.grid_dim = {4, 1, 1};
    l.block_idx = {3, 0, 0};
    l.warp = 1;
    l.base = 4096;
    WarpAccess w;
    REQUIRE(expr_warp_access(e, l, w).empty());
    CHECK(w.active == 0xffffffffu);
    CHECK(w.access_bytes == 4);
    for (int lane = 0; lane < 32; ++lane) CHECK(w.addr[static_cast<std::size_t>(lane)] == 4096u + (3u * 64 + 32 + lane) * 2 * 4);

    // Lanes past the block's end and masked lanes are inactive and never evaluated.
    l.block = {40, 1, 1};
    l.active_lanes = 0xfffffffeu;
    REQUIRE(expr_warp_access(IndexExpr::parse("A[100 / (int)threadIdx.x]"), {.block = {40, 1, 1}, .active_lanes = 0xfffffffeu}, w).empty());
    CHECK(w.active == 0xfffffffeu);
    l.warp = 1;
    REQUIRE(expr_warp_access(e, l, w).empty());
    CHECK(w.active == 0xfeu);
    CHECK(expr_warp_access(IndexExpr::parse("A[100 / (int)threadIdx.x]"), {}, w) ==
          "expr: division by zero at column 7 (lane 0, threadIdx (0,0,0))");
    CHECK(expr_warp_access(IndexExpr::parse("A[(int)threadIdx.x - 1]"), {}, w) ==
          "expr: element -1 lies outside byte addresses 0..2^48-1 (base + offset + index x 4) (lane 0, threadIdx (0,0,0))");
    CHECK(expr_warp_access(IndexExpr::parse("A[threadIdx.x]"), {.offset = 2}, w) ==
          "offset: address 2 is not a multiple of the element size 4 (CUDA accesses are naturally aligned) (lane 0, threadIdx (0,0,0))");
    CHECK(check_expr_launch({.block = {32, 1, 1}, .block_idx = {1, 0, 0}}) == "block_idx: each 0..grid_dim-1 (grid_dim 1,1,1), got 1,0,0");
    CHECK(check_expr_launch({.block = {32, 2, 1}, .warp = 2}) == "warp: must be 0..1 (the block has 2 warps), got 2");
    CHECK(check_expr_launch({.base = std::uint64_t{1} << 48}) == "base: must be a byte address 0..2^48-1, got 281474976710656");
    CHECK(check_expr_launch({.offset = -(std::int64_t{1} << 41)}) == "offset: must be -2^40..2^40, got -2199023255552");
    CHECK(check_expr_launch({.block = {64, 32, 1}}) == "block: each dimension 1..1024 (z 1..64), at most 1024 threads, got 64,32,1");
}

// [SECTION] Property: the expression input and the pattern pickers agree on every pattern they share.
namespace {

void same_warps(const AccessPattern& p, const IndexExpr& e, const ArchRules& arch) {
    REQUIRE_MESSAGE(e.ok(), e.error());
    REQUIRE(check_pattern(p).empty());
    ExprLaunch l;
    l.block = {p.block[0], p.block[1], p.block[2]};
    l.base = p.base;
    l.offset = p.offset;
    l.active_lanes = p.active_lanes;
    const GlobalBlockResult g = analyze_global_block(p, arch);
    const BankBlockResult b = analyze_banks_block(p, arch);
    for (int wi = 0; wi < p.warps(); ++wi) {
        l.warp = wi;
        WarpAccess w;
        const std::string error = expr_warp_access(e, l, w);
        REQUIRE_MESSAGE(error.empty(), error);
        const WarpAccess ref = make_warp_access(p, wi);
        CHECK(w.active == ref.active);
        for (int lane = 0; lane < 32; ++lane)
            if (ref.lane_active(lane)) CHECK(w.addr[static_cast<std::size_t>(lane)] == ref.addr[static_cast<std::size_t>(lane)]);
        const GlobalAccessResult gx = analyze_global(w);
        const BankResult bx = analyze_banks(w, arch);
        const auto& gr = g.warps[static_cast<std::size_t>(wi)];
        const auto& br = b.warps[static_cast<std::size_t>(wi)];
        CHECK(gx.sectors == gr.sectors);
        CHECK(gx.lines == gr.lines);
        CHECK(gx.bytes_requested == gr.bytes_requested);
        CHECK(bx.wavefronts == br.wavefronts);
        CHECK(bx.conflicts == br.conflicts);
        CHECK(bx.max_way == br.max_way);
    }
}

std::string hex(std::uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llxull", static_cast<unsigned long long>(v));
    return buf;
}

}  // namespace

TEST_CASE("expr: agrees with the affine, 2-D, swizzle and gather pickers (random parameters)") {
    const ArchRules& arch = *find_arch(8, 0);
    std::mt19937_64 rng(20261201);
    auto pick = [&](int lo, int hi) { return static_cast<int>(std::uniform_int_distribution<int>(lo, hi)(rng)); };
    const int widths[] = {1, 2, 4, 8, 16};
    const char* types[] = {"char", "short", "float", "double", "float4"};
    const std::string t = "((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x)";
    for (int iter = 0; iter < 400; ++iter) {
        AccessPattern p;
        const int wi = pick(0, 4);
        p.access_bytes = widths[wi];
        p.block[0] = pick(1, 64);
        p.block[1] = pick(1, std::min(16, 1024 / p.block[0]));
        p.block[2] = pick(1, std::min(4, 1024 / (p.block[0] * p.block[1])));
        p.active_lanes = pick(0, 3) == 0 ? static_cast<std::uint32_t>(rng()) : 0xffffffffu;
        p.base = static_cast<std::uint64_t>(pick(1 << 20, 1 << 21)) * 256;
        p.offset = pick(-4, 4) * p.access_bytes;
        const std::string decl = std::string(types[wi]) + "* A";
        const int kind = iter % 4;
        CAPTURE(iter);
        if (kind == 0) {  // affine: A[t * S], a signed stride
            p.kind = PatternKind::affine;
            p.stride = pick(-40, 40);
            const std::string consts = "S = " + std::to_string(p.stride);
            same_warps(p, IndexExpr::parse("A[(int)" + t + " * S]", decl, consts), arch);
        } else if (kind == 1 || kind == 2) {  // 2-D tile, row or column order, pad, swizzle
            p.kind = PatternKind::index_2d;
            p.order = pick(0, 1) ? IndexOrder::row : IndexOrder::column;
            const bool row = p.order == IndexOrder::row;
            const int extent = row ? p.block[0] : p.block[1] * p.block[2];
            const int rows = row ? p.block[1] * p.block[2] : p.block[0];
            p.pad = pick(0, 3);
            p.swizzle = kind == 2;
            // A power-of-two pitch keeps col ^ row inside the row, so tile[rows][LD] can be declared.
            p.pitch = p.swizzle ? std::int64_t{1} << pick(0, 6) : pick(0, 2) ? 0 : pick(extent, 80);
            if (p.swizzle) p.pitch = std::max<std::int64_t>(p.pitch, std::bit_ceil(static_cast<unsigned>(extent)));
            const std::int64_t ld = p.row_pitch();
            const std::int64_t pw = std::int64_t{1} << (63 - std::countl_zero(static_cast<std::uint64_t>(ld)));
            const std::string r = row ? "threadIdx.z * blockDim.y + threadIdx.y" : "threadIdx.x";
            const std::string c = row ? "threadIdx.x" : "threadIdx.z * blockDim.y + threadIdx.y";
            const std::string consts = "LD = " + std::to_string(ld) + ", r = " + r + ", c = " + c;
            const std::string col = p.swizzle ? "c ^ (r & " + std::to_string(pw - 1) + ")" : "c";
            const bool fits = !p.swizzle || pw >= ld - p.pad;  // swizzled columns stay below LD
            const std::string d = std::string(types[wi]) + " tile[" + std::to_string(rows) + "][LD]";
            if (fits) same_warps(p, IndexExpr::parse("tile[r][" + col + "]", d, consts), arch);
            same_warps(p, IndexExpr::parse("tile[r * LD + (" + col + ")]", std::string(types[wi]) + "* tile", consts), arch);
        } else {  // gather with a range: splitmix64 written out in unsigned long long
            p.kind = PatternKind::gather;
            p.seed = rng();
            p.range = pick(1, 1 << 20);
            const std::string consts = "t = " + t + ", s = " + hex(p.seed) + " ^ ((unsigned long long)t * 0xd1b54a32d192ed03ull)" +
                                       ", z0 = s + 0x9e3779b97f4a7c15ull, z1 = (z0 ^ (z0 >> 30)) * 0xbf58476d1ce4e5b9ull" +
                                       ", z2 = (z1 ^ (z1 >> 27)) * 0x94d049bb133111ebull";
            same_warps(p, IndexExpr::parse("A[(z2 ^ (z2 >> 31)) % " + std::to_string(p.range) + "]", decl, consts), arch);
        }
    }
}
