// test_smem_shapes.cpp — occ/smem_shapes.hpp: CuTe swizzles, TMA modes, ldmatrix/stmatrix, vector
// tiles, cp.async and the swizzle solver. Known answers cite their source next to each case.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "occ/smem_shapes.hpp"

using namespace occ;

namespace {

TileAccess access(const char* name, int access_bytes, int elem_bytes) {
    TileAccess a;
    REQUIRE(parse_tile_access(name, access_bytes, elem_bytes, a));
    return a;
}

TileLayout tile(int rows, int cols, int elem_bytes) {
    TileLayout t;
    t.rows = rows;
    t.cols = cols;
    t.elem_bytes = elem_bytes;
    return t;
}

TileBankTotals count(const TileLayout& t, const TileAccess& a) {
    REQUIRE(check_tile_layout(t) == "");
    REQUIRE(check_tile_access(t, a) == "");
    return tile_banks(t, a);
}

}  // namespace

TEST_CASE("CuTe Swizzle<B,M,S>: the examples of cute/swizzle.hpp") {
    // CUTLASS include/cute/swizzle.hpp: make_swizzle<0b1000, 0b0100>() -> Swizzle<1,2,1>: bit 3 (YYY) is XORed into bit 2 (ZZZ).
    CHECK(swizzle_apply({1, 2, 1}, 0b1000) == 0b1100);
    CHECK(swizzle_apply({1, 2, 1}, 0b1100) == 0b1000);
    CHECK(swizzle_apply({1, 2, 1}, 0b0100) == 0b0100);  // ZZZ alone is kept
    // make_swizzle<0b11000000, 0b00000110>() -> Swizzle<2,1,5>.
    CHECK(swizzle_apply({2, 1, 5}, 0b11000000) == 0b11000110);
    CHECK(swizzle_apply({2, 1, 5}, 0b01000010) == 0b01000000);
    // The functor comment: 0bxx..YYxxxxxxxxxZZxxx -> AA = ZZ xor YY; YY at bits 12-13, ZZ at 3-4 is Swizzle<2,3,9>.
    CHECK(swizzle_apply({2, 3, 9}, (0b10 << 12) | (0b11 << 3)) == ((0b10 << 12) | (0b01 << 3)));
    // Swizzle<0,M,S> is the identity; an involution otherwise.
    CHECK(swizzle_apply({0, 4, 0}, 12345) == 12345);
    for (int i = 0; i < 4096; ++i) CHECK(swizzle_apply({3, 3, 3}, swizzle_apply({3, 3, 3}, i)) == i);
    // Swizzle<3,3,3> on an 8 x 64 half tile (offset 64 r + c): the 8-element chunk c / 8 becomes (c / 8) ^ r.
    for (int r = 0; r < 8; ++r)
        for (int k = 0; k < 8; ++k) CHECK(swizzle_apply({3, 3, 3}, 64 * r + 8 * k) == 64 * r + 8 * (k ^ r));

    CuteSwizzle s;
    CHECK(parse_cute_swizzle("Swizzle<3,3,3>", s));
    CHECK(s == CuteSwizzle{3, 3, 3});
    CHECK(parse_cute_swizzle(" cute::Swizzle< 2, 4, 3 > ", s));
    CHECK(s == CuteSwizzle{2, 4, 3});
    CHECK(parse_cute_swizzle("1,2,-3", s));
    CHECK(s == CuteSwizzle{1, 2, -3});
    CHECK_FALSE(parse_cute_swizzle("Swizzle<3,3>", s));
    CHECK_FALSE(parse_cute_swizzle("Swizzle<3,3,3", s));
    CHECK_FALSE(parse_cute_swizzle("3,3,3,3", s));
    CHECK(check_swizzle({3, 3, 2}).find("|S| >= B") != std::string::npos);  // swizzle.hpp: abs(SShift) >= BBits
    CHECK(cute_swizzle_type({3, 3, 3}) == "cute::Swizzle<3,3,3>");
    CHECK(swizzle_index_expression({3, 3, 3}) == "i ^ ((i >> 3) & 0x38)");
    CHECK(swizzle_index_expression({0, 0, 0}) == "i");
}

TEST_CASE("TMA swizzle modes are Swizzle<B,4,3> on bytes") {
    // CUTLASS copy_traits_sm90_tma_swizzle.hpp, get_tma_swizzle_bits: M = 4 with B = 1, 2, 3 -> SWIZZLE_32B, 64B, 128B (S = 3).
    CHECK(tma_swizzle_bytes(TmaSwizzle::b128) == CuteSwizzle{3, 4, 3});
    CHECK(tma_swizzle_bytes(TmaSwizzle::b64) == CuteSwizzle{2, 4, 3});
    CHECK(tma_swizzle_bytes(TmaSwizzle::b32) == CuteSwizzle{1, 4, 3});
    // On half elements the 128-byte mode is the familiar Swizzle<3,3,3>; on floats Swizzle<3,2,3>.
    CHECK(tma_swizzle_elements(TmaSwizzle::b128, 2) == CuteSwizzle{3, 3, 3});
    CHECK(tma_swizzle_elements(TmaSwizzle::b128, 4) == CuteSwizzle{3, 2, 3});
    CHECK(tma_swizzle_elements(TmaSwizzle::b64, 2) == CuteSwizzle{2, 3, 3});
    CHECK(tma_mode_of({3, 3, 3}, 2) == TmaSwizzle::b128);
    CHECK(tma_mode_of({3, 3, 3}, 4) == TmaSwizzle::none);
    CHECK(tma_mode_of({1, 0, 3}, 16) == TmaSwizzle::b32);
    // 128B mode: 16-byte chunk c of 128-byte row r lands at chunk c ^ (r mod 8); the pattern repeats every 1024 bytes.
    TileLayout t = tile(16, 64, 2);
    t.tma = TmaSwizzle::b128;
    REQUIRE(check_tile_layout(t) == "");
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 8; ++c) CHECK(tile_byte_address(t, r, 8 * c) == static_cast<std::uint64_t>(128 * r + 16 * (c ^ (r % 8))));
    // 64B mode on 64-byte rows: rows 2r and 2r + 1 share one 128-byte line; chunk c of row r goes to c ^ ((r / 2) mod 4).
    TileLayout t64 = tile(16, 32, 2);
    t64.tma = TmaSwizzle::b64;
    REQUIRE(check_tile_layout(t64) == "");
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 4; ++c)
            CHECK(tile_byte_address(t64, r, 8 * c) == static_cast<std::uint64_t>(64 * r + 16 * (c ^ ((r / 2) % 4))));
    // cuTensorMapEncodeTiled: the inner box dimension is at most the swizzle span.
    TileLayout wide = tile(8, 128, 2);
    wide.tma = TmaSwizzle::b128;
    CHECK(check_tile_layout(wide).find("at most 128 bytes") != std::string::npos);
    wide.cols = 64;
    wide.pad = 8;
    CHECK(check_tile_layout(wide).rfind("pad:", 0) == 0);
}

TEST_CASE("ldmatrix / stmatrix: one wavefront per 8x8 matrix, 8-way on 128-byte rows") {
    // PTX ISA, ldmatrix: threads 0-7 give the row addresses of matrix 0, 8-15 matrix 1, 16-23 matrix 2,
    // 24-31 matrix 3 (.x1 uses threads 0-7, .x2 0-15); each row is 8 x 16 bits = 16 bytes. Nsight Compute
    // counts one wavefront per matrix when its 8 rows reach all 32 banks (NVIDIA forum thread 278716).
    const TileLayout plain = tile(64, 64, 2);  // half tile[64][64]: rows are 128 bytes, so 8 rows share 4 banks
    const TileAccess x4 = access("ldmatrix.x4", 2, 2);
    CHECK(tile_access_warps(plain, x4) == 16);  // 16 x 16 halfs per instruction
    TileBankTotals r = count(plain, x4);
    CHECK(r.wavefronts == 16 * 32);
    CHECK(r.ideal_wavefronts == 16 * 4);
    CHECK(r.conflicts == 16 * 28);
    CHECK(r.max_way == 8);
    const BankResult one = analyze_banks(tile_warp_access(plain, x4, 0));
    for (int ph = 0; ph < 4; ++ph) CHECK(one.phase_wavefronts[static_cast<std::size_t>(ph)] == 8);
    // .trans changes only which register receives which element: the same addresses, the same count.
    const TileBankTotals rt = count(plain, access("ldmatrix.x4.trans", 2, 2));
    CHECK(rt.wavefronts == r.wavefronts);
    CHECK(rt.conflicts == r.conflicts);
    // .x1 and .x2: only the first 8 or 16 lanes take part; one phase per matrix.
    const WarpAccess w1 = tile_warp_access(plain, access("ldmatrix.x1", 2, 2), 0);
    CHECK(w1.active == 0xffu);
    CHECK(analyze_banks(w1).wavefronts == 8);
    CHECK(analyze_banks(w1).ideal_wavefronts == 1);
    const WarpAccess w2 = tile_warp_access(plain, access("ldmatrix.x2", 2, 2), 0);
    CHECK(w2.active == 0xffffu);
    CHECK(analyze_banks(w2).ideal_wavefronts == 2);
    CHECK(w2.addr[8] == 8 * 128);  // lane 8 = row 8 (matrix 1)
    const WarpAccess w4 = tile_warp_access(plain, x4, 0);
    CHECK(w4.addr[16] == 16);  // lane 16 = row 0, bytes 16..31 (matrix 2)
    CHECK(w4.addr[31] == 7 * 128 + 8 * 128 + 16);
    // Swizzle<3,3,3> (= TMA 128B on halfs) spreads the 8 rows over 8 chunks: no conflict.
    TileLayout sw = plain;
    sw.swizzle = {3, 3, 3};
    r = count(sw, x4);
    CHECK(r.wavefronts == 16 * 4);
    CHECK(r.conflicts == 0);
    TileLayout tma = plain;
    tma.tma = TmaSwizzle::b128;
    CHECK(count(tma, x4).conflicts == 0);
    // Padding each row by 8 halfs (16 bytes) also does: row r starts 4r banks further.
    TileLayout padded = plain;
    padded.pad = 8;
    CHECK(count(padded, x4).conflicts == 0);
    // stmatrix writes the same rows.
    CHECK(count(plain, access("stmatrix.x4", 2, 2)).conflicts == 16 * 28);
    CHECK(tile_warp_access(plain, access("stmatrix.x2", 2, 2), 0).op == AccessOp::store);
    // A swizzle that splits a 16-byte row is refused.
    TileLayout split = plain;
    split.swizzle = {3, 1, 3};
    CHECK(check_tile_access(split, x4).find("M must be at least 3") != std::string::npos);
}

TEST_CASE("8- and 16-byte vector tiles and column reads") {
    // Programming Guide / Nsight Compute: 8-byte accesses run as 2 phases of 16 lanes, 16-byte as 4 of 8.
    const TileLayout f = tile(32, 64, 4);
    TileBankTotals v8 = count(f, access("row", 8, 4));
    CHECK(v8.warps == 32);       // 32 rows x 256 bytes / (32 lanes x 8 bytes)
    CHECK(v8.wavefronts == 64);  // 2 per warp
    CHECK(v8.conflicts == 0);
    const TileLayout h = tile(64, 64, 2);
    TileBankTotals v16 = count(h, access("row", 16, 2));
    CHECK(v16.warps == 16);
    CHECK(v16.wavefronts == 64);
    CHECK(v16.conflicts == 0);
    // float tile[32][32] read down a column: 32-way; col ^ row and Swizzle<5,0,5> both remove it.
    TileLayout c = tile(32, 32, 4);
    const TileAccess col = access("column", 4, 4);
    TileBankTotals rc = count(c, col);
    CHECK(rc.warps == 32);
    CHECK(rc.conflicts == 32 * 31);
    CHECK(rc.max_way == 32);
    c.xor_rows = true;
    CHECK(count(c, col).conflicts == 0);
    c.xor_rows = false;
    c.swizzle = {5, 0, 5};
    CHECK(count(c, col).conflicts == 0);
    c.swizzle = {};
    c.pad = 1;
    CHECK(count(c, col).conflicts == 0);
    // A pad that breaks a vector's alignment is refused with the field named.
    TileLayout bad = h;
    bad.pad = 1;
    CHECK(check_tile_access(bad, access("row", 16, 2)).rfind("pad:", 0) == 0);
}

TEST_CASE("cp.async: global side in sectors, shared side in wavefronts") {
    // PTX ISA cp.async: cp-size 4, 8 or 16 bytes. A 64 x 64 half tile copied with 16-byte cp.async: each
    // warp moves 512 contiguous bytes of 4 global rows = 16 sectors, the ideal; the shared stores run as
    // 4 phases of 8 lanes, each filling one 128-byte row: no conflict.
    const TileLayout t = tile(64, 64, 2);
    const TileAccess cp = access("cp_async", 16, 2);
    CHECK(cp.kind == TileAccessKind::cp_async);
    const TileBankTotals s = count(t, cp);
    CHECK(s.warps == 16);
    CHECK(s.wavefronts == 64);
    CHECK(s.conflicts == 0);
    CHECK(tile_warp_access(t, cp, 0).op == AccessOp::store);
    std::int64_t sectors = 0;
    for (int w = 0; w < s.warps; ++w) {
        const GlobalAccessResult g = analyze_global(tile_global_access(t, cp, w, 64, 0));
        sectors += g.sectors;
        CHECK(g.excess_sectors == 0);
    }
    CHECK(sectors == 64 * 128 / 32);
    // From a wider matrix (ld = 4096 halfs) each warp reads 4 rows of 128 bytes: still 16 sectors, 4 lines.
    const GlobalAccessResult g = analyze_global(tile_global_access(t, cp, 0, 4096, 0));
    CHECK(g.sectors == 16);
    CHECK(g.lines == 4);
    // 4-byte cp.async of halfs is allowed; 2 bytes is not a cp-size.
    CHECK(check_tile_access(t, access("cp_async", 4, 2)) == "");
    CHECK(check_tile_access(t, access("cp_async", 2, 2)).find("4, 8 or 16") != std::string::npos);
}

TEST_CASE("swizzle solver: known answers") {
    // ldmatrix.x4 on 128-byte half rows, written with 16-byte vectors: Swizzle<3,3,3>, the TMA 128B mode.
    const std::vector<TileAccess> mma{access("row", 16, 2), access("ldmatrix.x4", 16, 2)};
    SwizzleSolution s = solve_swizzle(64, 64, 2, mma);
    REQUIRE(s.ok());
    CHECK(s.zero);
    CHECK(s.swizzle == CuteSwizzle{3, 3, 3});
    CHECK(s.type == "cute::Swizzle<3,3,3>");
    CHECK(s.expression == "i ^ ((i >> 3) & 0x38)");
    CHECK(s.tma == TmaSwizzle::b128);
    CHECK(s.conflicts_plain == 16 * 28);
    CHECK(s.per_access_plain == std::vector<std::int64_t>{0, 16 * 28});
    // 64-byte rows (32 halfs): rows 2r and 2r + 1 already use different banks, so 2 bits taken from
    // the row pairs do: Swizzle<2,3,3>, the TMA 64B mode.
    s = solve_swizzle(64, 32, 2, mma);
    CHECK(s.zero);
    CHECK(s.swizzle == CuteSwizzle{2, 3, 3});
    CHECK(s.tma == TmaSwizzle::b64);
    // float tile[32][32]: row writes and column reads -> Swizzle<5,0,5> (col ^ row).
    const std::vector<TileAccess> transpose{access("row", 4, 4), access("column", 4, 4)};
    s = solve_swizzle(32, 32, 4, transpose);
    CHECK(s.zero);
    CHECK(s.swizzle == CuteSwizzle{5, 0, 5});
    // Already conflict-free: the identity.
    const std::vector<TileAccess> rows_only{access("row", 4, 4)};
    s = solve_swizzle(32, 32, 4, rows_only);
    CHECK(s.zero);
    CHECK(s.swizzle.bits == 0);
    CHECK(s.candidates == 1);
    // ldmatrix needs 16-byte rows kept together (M >= 3 on halfs), so a swizzle can move a row's halfs
    // only in 8 chunks of 4 banks; a column read of 32 halfs from 32 rows needs 32 different banks. No
    // swizzle does both: the solver says so and keeps the least-conflict choice.
    const std::vector<TileAccess> both{access("ldmatrix.x4", 16, 2), access("column", 2, 2)};
    s = solve_swizzle(64, 64, 2, both);
    REQUIRE(s.ok());
    CHECK_FALSE(s.zero);
    CHECK(s.conflicts > 0);
    CHECK(s.conflicts < s.conflicts_plain);
    CHECK(s.per_access[0] == 0);  // the least-conflict choice still fixes ldmatrix
    // Bad input names the field.
    CHECK(solve_swizzle(64, 64, 2, std::vector<TileAccess>{}).error.rfind("access:", 0) == 0);
    CHECK(solve_swizzle(0, 64, 2, mma).error.rfind("tile:", 0) == 0);
}

TEST_CASE("swizzle solver: every answer re-counted by the model, 8-128 columns, 2/4/8-byte elements") {
    int zero = 0, none = 0;
    for (int e : {2, 4, 8})
        for (int cols : {8, 16, 32, 64, 128})
            for (int set = 0; set < 3; ++set) {
                const int rows = 32;
                std::vector<TileAccess> acc;
                if (set == 0) acc = {access("row", e, e), access("column", e, e)};
                if (set == 1) acc = {access("row", 16, e), access("ldmatrix.x4", 16, e)};
                if (set == 2) acc = {access("row", 16, e), access("ldmatrix.x2.trans", 16, e), access("column", e, e)};
                TileLayout probe = tile(rows, cols, e);
                bool fits = true;
                for (const TileAccess& a : acc) fits = fits && check_tile_access(probe, a).empty();
                if (!fits) continue;  // e.g. 8 columns of halfs: a 16-byte row is the whole row, too narrow for ldmatrix.x4
                CAPTURE(e);
                CAPTURE(cols);
                CAPTURE(set);
                const SwizzleSolution s = solve_swizzle(rows, cols, e, acc);
                REQUIRE(s.ok());
                TileLayout t = probe;
                t.swizzle = s.swizzle;
                REQUIRE(check_tile_layout(t) == "");
                std::int64_t sum = 0;
                for (std::size_t i = 0; i < acc.size(); ++i) {
                    REQUIRE(check_tile_access(t, acc[i]) == "");
                    const std::int64_t c = tile_banks(t, acc[i]).conflicts;
                    CHECK(c == s.per_access[i]);
                    sum += c;
                }
                CHECK(sum == s.conflicts);
                CHECK(s.conflicts <= s.conflicts_plain);
                if (s.zero) {
                    ++zero;
                    CHECK(sum == 0);
                } else {
                    ++none;
                }
            }
    CHECK(zero >= 20);
    MESSAGE("solver: " << zero << " tiles solved with zero conflicts, " << none << " with the least-conflict choice");
}
