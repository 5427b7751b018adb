// test_bank_measured.cpp — the shared-memory rules that follow measurements rather than the
// Programming Guide's phases: the paired-load merge (banks.hpp), cp.async's global source, the
// Blackwell TMA swizzle modes and rotation swizzles (smem_shapes.hpp). Each case cites its source.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>

#include "occ/banks.hpp"
#include "occ/device.hpp"
#include "occ/smem_shapes.hpp"

using namespace occ;

namespace {

// One warp of `bytes`-wide shared loads at the byte addresses byte(lane).
template <class F>
WarpAccess warp_at(int bytes, F byte, AccessOp op = AccessOp::load) {
    WarpAccess w;
    w.access_bytes = bytes;
    w.op = op;
    for (int lane = 0; lane < kWarpLanes; ++lane) w.addr[static_cast<std::size_t>(lane)] = static_cast<std::uint64_t>(byte(lane));
    return w;
}

const ArchRules& cc(int major, int minor) { return *find_arch(major, minor); }

TileLayout tile(int rows, int cols, int elem_bytes) {
    TileLayout t;
    t.rows = rows;
    t.cols = cols;
    t.elem_bytes = elem_bytes;
    return t;
}

TileAccess access(const char* name, int access_bytes, int elem_bytes) {
    TileAccess a;
    REQUIRE(parse_tile_access(name, access_bytes, elem_bytes, a));
    return a;
}

}  // namespace

// NVIDIA developer forum, "Unexpected shared memory bank conflict" (question and NVIDIA's answer,
// https://forums.developer.nvidia.com/t/unexpected-shared-memory-bank-conflict/77228): LDS.128 at byte
// offset tid % 4 * 16 took 4 requests per instruction, not the 2 the asker expected; lanes Tn and Tn^1
// (or Tn and Tn^2) sharing addresses take 2 instead of 4.
TEST_CASE("paired loads: the forum's LDS.128 numbers, 4 requests unpaired and 2 paired") {
    for (const ArchRules* a : {&cc(7, 0), &cc(7, 5), &cc(8, 0), &cc(9, 0), &cc(10, 0), &cc(12, 0)}) {
        CAPTURE(a->cc_major);
        const WarpAccess asked = warp_at(16, [](int t) { return t % 4 * 16; });  // T0 == T4, no pair
        CHECK(shared_load_pairs(asked) == 0);
        CHECK(analyze_banks(asked, *a).wavefronts == 4);
        const WarpAccess xor1 = warp_at(16, [](int t) { return t / 2 * 16; });  // T0 == T1, T2 == T3, ...
        CHECK(shared_load_pairs(xor1) == 1);
        const BankResult r1 = analyze_banks(xor1, *a);
        CHECK(r1.wavefronts == 2);
        CHECK(r1.ideal_wavefronts == 2);
        CHECK(r1.conflicts == 0);
        CHECK(r1.phases == 2);
        CHECK(r1.load_pairs == 1);
        const WarpAccess xor2 = warp_at(16, [](int t) { return (t / 4 * 2 + t % 2) * 16; });  // T0 == T2, T1 == T3, ...
        CHECK(shared_load_pairs(xor2) == 2);
        CHECK(analyze_banks(xor2, *a).wavefronts == 2);
    }
    // The phase model alone (no architecture) keeps the 4.
    CHECK(analyze_banks(warp_at(16, [](int t) { return t / 2 * 16; })).wavefronts == 4);
}

// Reported counter measurements: every lane on one address, lane pairs t and t^1, and the four lanes of a
// quad took half the wavefronts of the 2- and 4-phase minimum, for 8- and 16-byte loads; stores
// never merged. Half, not a quarter, for the quad: the forum's "2x" packing is the most there is.
TEST_CASE("paired loads: same address, pairs and quads halve 8- and 16-byte loads; stores and 4-byte loads stay") {
    const ArchRules& h100 = cc(9, 0);
    for (int bytes : {8, 16}) {
        CAPTURE(bytes);
        const int phases = bank_phases(bytes);
        // one address; pairs t, t^1 and quads of lanes on consecutive elements
        for (int group : {32, 2, 4}) {
            CAPTURE(group);
            const auto byte = [&](int t) { return group == 32 ? 256 : t / group * bytes; };
            CHECK(analyze_banks(warp_at(bytes, byte), h100).wavefronts == phases / 2);
            CHECK(analyze_banks(warp_at(bytes, byte), h100).conflicts == 0);
            CHECK(analyze_banks(warp_at(bytes, byte, AccessOp::store), h100).wavefronts == phases);
        }
    }
    CHECK(analyze_banks(warp_at(4, [](int) { return 0; }), h100).wavefronts == 1);
    // 5.x and 6.x have no public evidence of the merge: the phase model stands.
    CHECK_FALSE(cc(5, 2).smem_paired_load_merge);
    CHECK(analyze_banks(warp_at(16, [](int) { return 0; }), cc(6, 1)).wavefronts == 4);
    // A pair that disagrees anywhere is no pair: lane 31 reads elsewhere.
    CHECK(analyze_banks(warp_at(16, [](int t) { return t == 31 ? 512 : t / 2 * 16; }), h100).wavefronts == 4);
    // An inactive partner does not break a pair (the forum: "for all active threads").
    WarpAccess half = warp_at(16, [](int t) { return t / 2 * 16; });
    half.active = 0x7fffffffu;
    CHECK(analyze_banks(half, h100).wavefronts == 2);
    // ... but some pair must have both lanes active: every other lane on its own address is no pairing,
    // one lane alone neither; every other lane on one address pairs t and t^2 (the forum: "these
    // encompass the case where all active threads have the same address").
    WarpAccess even = warp_at(16, [](int t) { return t * 16; });
    even.active = 0x55555555u;
    CHECK(shared_load_pairs(even) == 0);
    CHECK(analyze_banks(even, h100).wavefronts == 4);
    WarpAccess one = warp_at(8, [](int) { return 0; });
    one.active = 1u;
    CHECK(shared_load_pairs(one) == 0);
    WarpAccess even_same = warp_at(16, [](int) { return 64; });
    even_same.active = 0x55555555u;
    CHECK(shared_load_pairs(even_same) == 2);
    CHECK(analyze_banks(even_same, h100).wavefronts == 2);
}

// The merged phase still counts bank conflicts: 16 lanes of 16 bytes in one phase ask for 8 distinct
// 16-byte chunks; 8 chunks 128 bytes apart share 4 banks: 8-way in each of the 2 phases.
TEST_CASE("paired loads: a merged phase still conflicts") {
    const BankResult r = analyze_banks(warp_at(16, [](int t) { return t / 2 * 128; }), cc(8, 0));
    CHECK(r.load_pairs == 1);
    CHECK(r.phases == 2);
    CHECK(r.max_way == 8);
    CHECK(r.wavefronts == 16);
}

// Yinghan-Li/YHs_Sample, cuda/gemm/ampere_sgemm.cu (cc 8.0): the "z thread map to avoid LDS.128 shared
// memory broadcast limitation": A fragments at (lane / 16 * 2 + lane % 2) * 4 floats (lanes t and t^2
// pair), B fragments at (lane / 2 % 8) * 4 floats (t and t^1 pair): 2 wavefronts per LDS.128 each.
TEST_CASE("paired loads: the Ampere SGEMM's z thread map is paired for both operands") {
    const WarpAccess a = warp_at(16, [](int t) { return (t / 16 * 2 + t % 2) * 16; });
    const WarpAccess b = warp_at(16, [](int t) { return (t / 2 % 8) * 16; });
    CHECK(shared_load_pairs(a) == 2);
    CHECK(shared_load_pairs(b) == 1);
    CHECK(analyze_banks(a, cc(8, 0)).wavefronts == 2);
    CHECK(analyze_banks(b, cc(8, 0)).wavefronts == 2);
}

// NVIDIA developer forum, "Clarification: bank conflicts metric vs wavefronts for shared memory LDS.128"
// (https://forums.developer.nvidia.com/t/clarification-bank-conflicts-metric-vs-wavefronts-for-shared-memory-lds-128/359822):
// 8,844,480 LDS.128 instructions made 35,377,920 wavefronts (4 each) with 0 bank conflicts, and
// 283,023,360 (32 each) with 247,645,440 conflicts = wavefronts - 4 x instructions.
TEST_CASE("LDS.128 counters: 4 wavefronts an instruction, conflicts beyond that") {
    const std::int64_t instructions = 8'844'480;
    const BankResult good = analyze_banks(warp_at(16, [](int t) { return t * 16; }), cc(8, 6));
    CHECK(good.wavefronts * instructions == 35'377'920);
    CHECK(good.conflicts == 0);
    const BankResult bad = analyze_banks(warp_at(16, [](int t) { return t * 128; }), cc(8, 6));  // one 4-bank group
    CHECK(bad.wavefronts * instructions == 283'023'360);
    CHECK(bad.conflicts * instructions == 247'645'440);
}

// Reported cp.async counter measurements: a global source off a 32-byte boundary cost one more shared
// wavefront; a strided source inflated the shared counters; copies to one destination did not merge.
TEST_CASE("cp.async: the global source's sectors bound the shared wavefronts") {
    CHECK(cp_async_source_wavefronts(16) == 4);
    CHECK(cp_async_source_wavefronts(17) == 5);
    // 16 rows of 64 floats, 16-byte cp.async: 8 instructions of 512 bytes, 4 wavefronts each.
    const TileLayout t = tile(16, 64, 4);
    const TileAccess cp = access("cp_async", 16, 4);
    TileSource aligned{64, 0};
    const TileBankTotals a = tile_banks(t, cp, nullptr, &aligned);
    CHECK(a.wavefronts == 32);
    CHECK(a.source_extra == 0);
    TileSource sector_aligned{64, 32};  // 32-byte aligned, not 128: no extra
    CHECK(tile_banks(t, cp, nullptr, &sector_aligned).source_extra == 0);
    TileSource off{64, 16};  // 16 bytes off a sector: 17 sectors, one extra wavefront per instruction
    const TileBankTotals o = tile_banks(t, cp, nullptr, &off);
    CHECK(o.source_wavefronts == 40);
    CHECK(o.source_extra == 8);
    CHECK(o.wavefronts == 40);
    CHECK(o.conflicts == 8);
    // A strided source: rows of 4 floats (16 bytes) 256 bytes apart, 4-byte copies: 8 rows a warp in 8
    // sectors -> 2 wavefronts where the shared side alone needs 1.
    const TileLayout narrow = tile(64, 4, 4);
    TileSource strided{64, 0};
    const TileBankTotals s = tile_banks(narrow, access("cp_async", 4, 4), nullptr, &strided);
    CHECK(s.warps == 8);
    CHECK(s.wavefronts == 16);
    CHECK(s.source_extra == 8);
    TileSource dense{0, 0};
    CHECK(tile_banks(narrow, access("cp_async", 4, 4), nullptr, &dense).source_extra == 0);
    // One destination for every lane is a store: never merged (4 phases of 8 lanes).
    CHECK(analyze_banks(warp_at(
                            16, [](int) { return 0; }, AccessOp::store),
                        cc(8, 0))
              .wavefronts == 4);
}

// cuda.h, CUtensorMapSwizzle: "Swizzle 32B chunks within 128B span" (128B_ATOM_32B), "... additionally
// swap lower 8B with upper 8B within each 16B for every alternate row" (FLIP_8B), "Swizzle 64B chunks
// within 128B span" (128B_ATOM_64B); CUTLASS copy_traits_sm90_tma_swizzle.hpp get_tma_swizzle_base:
// Swizzle<2,5,2> is SWIZZLE_BASE_32B (mma_sm100_desc.hpp: "128B_BASE32B : Swizzle<2,5,2>").
TEST_CASE("TMA 128B_ATOM modes: byte layouts, names and the banks they give ldmatrix") {
    CHECK(tma_swizzle_bytes(TmaSwizzle::b128_atom32) == CuteSwizzle{2, 5, 2});
    CHECK(tma_swizzle_bytes(TmaSwizzle::b128_atom64) == CuteSwizzle{1, 6, 1});
    CHECK(tma_swizzle_apply(TmaSwizzle::b128_atom32, 128) == 128 + 32);                        // row 1: 32-byte chunk 0 -> 1
    CHECK(tma_swizzle_apply(TmaSwizzle::b128_atom32, 3 * 128 + 32) == 3 * 128 + 64);           // row 3: chunk 1 -> 2
    CHECK(tma_swizzle_apply(TmaSwizzle::b128_atom32_flip8, 128) == 128 + 32 + 8);              // odd row: halves swapped
    CHECK(tma_swizzle_apply(TmaSwizzle::b128_atom32_flip8, 2 * 128 + 8) == 2 * 128 + 64 + 8);  // even row: not
    CHECK(tma_swizzle_apply(TmaSwizzle::b128_atom64, 128) == 128 + 64);
    CHECK(tma_swizzle_repeat(TmaSwizzle::b128) == 1024);
    CHECK(tma_swizzle_repeat(TmaSwizzle::b128_atom32) == 512);
    CHECK(tma_swizzle_repeat(TmaSwizzle::b128_atom64) == 256);
    TmaSwizzle m = TmaSwizzle::none;
    CHECK(parse_tma_swizzle("CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B", m));
    CHECK(m == TmaSwizzle::b128_atom32_flip8);
    CHECK(parse_tma_swizzle("128b_atom_64b", m));
    CHECK(m == TmaSwizzle::b128_atom64);
    CHECK_FALSE(parse_tma_swizzle("256B", m));
    CHECK(tma_mode_of({2, 4, 2}, 2) == TmaSwizzle::b128_atom32);  // Swizzle<2,5,2> on 2-byte elements

    // ldmatrix.x4 on a 64 x 64 half tile (16 instructions, ideal 64): a phase reads one 16-byte chunk of
    // 8 rows. 128B: 8 rows -> 8 chunk places, conflict-free; ATOM_32B: 4 places, 2-way; ATOM_64B: 2, 4-way.
    TileLayout t = tile(64, 64, 2);
    const TileAccess x4 = access("ldmatrix.x4", 16, 2);
    t.tma = TmaSwizzle::b128;
    CHECK(tile_banks(t, x4).wavefronts == 64);
    t.tma = TmaSwizzle::b128_atom32;
    CHECK(check_tile_layout(t).empty());
    CHECK(tile_banks(t, x4).wavefronts == 128);
    t.tma = TmaSwizzle::b128_atom64;
    CHECK(tile_banks(t, x4).wavefronts == 256);
    // FLIP_8B splits 16-byte reads; 8-byte rows are fine.
    t.tma = TmaSwizzle::b128_atom32_flip8;
    CHECK(check_tile_access(t, x4).find("8-byte halves") != std::string::npos);
    CHECK(check_tile_access(t, access("row", 8, 2)).empty());
    // cuda.h: "CU_TENSOR_MAP_SWIZZLE_128B* require the bounding box inner dimension to be <= 128".
    TileLayout wide = tile(8, 128, 2);
    wide.tma = TmaSwizzle::b128_atom64;
    CHECK(check_tile_layout(wide).find("at most 128 bytes") != std::string::npos);
}

// A rotation swizzle: chunk c of row r moves to (c + r) mod chunks. Rotating single floats is the
// padding of the transpose tile without the extra column (NVIDIA developer blog, "An Efficient Matrix
// Transpose in CUDA C/C++": tile[32][32] read by column is 32-way); rotating 16-byte chunks gives
// ldmatrix 8 different 4-bank groups, like Swizzle<3,3,3>.
TEST_CASE("rotation swizzle: transpose columns and ldmatrix rows without conflicts") {
    TileLayout t = tile(32, 32, 4);
    const TileAccess col = access("column", 4, 4);
    CHECK(tile_banks(t, col).conflicts == 31 * 32);
    t.rotate = 1;
    CHECK(tile_byte_address(t, 1, 31) == 32 * 4 + 0);  // row 1: column 31 wraps to 0
    CHECK(tile_banks(t, col).conflicts == 0);
    TileLayout h = tile(64, 64, 2);
    h.rotate = 8;
    CHECK(tile_banks(h, access("ldmatrix.x4", 16, 2)).conflicts == 0);
    h.rotate = 4;  // 8-byte chunks split a 16-byte ldmatrix row
    CHECK(check_tile_access(h, access("ldmatrix.x4", 16, 2)).find("rotate") == 0);
    h.rotate = 7;
    CHECK(check_tile_layout(h).find("rotate") == 0);
}
