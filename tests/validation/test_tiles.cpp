// The tile case table (cuda_validation/report/src/tiles.cpp): well-formed, and the expected counter
// values occ puts in it. Known answers, by hand from the rules they test:
//   ldmatrix: each lane of 8k..8k+7 gives one 16-byte row of matrix k, a 16-byte access runs in four
//     phases of 8 lanes (PTX ISA "ldmatrix"; CUDA C++ Programming Guide, shared memory, 128-bit accesses);
//   32 banks of 4 bytes (Programming Guide, "Shared Memory" for cc 5.x+);
//   Swizzle<3,3,3>(i) = i ^ ((i >> 3) & 0x38) (CuTe include/cute/swizzle.hpp);
//   global sectors are 32-byte aligned (Programming Guide, "Device Memory Accesses"), cp-size 4/8/16 (PTX ISA cp.async).
#include <doctest/doctest.h>

#include <set>

#include "occ/validation/cases.hpp"
#include "occ/validation/tiles.hpp"
#include "occ/validation/tools.hpp"

using namespace occ::validation;

namespace {
const TileCase& find(const std::vector<TileCase>& v, const std::string& id) {
    for (const TileCase& c : v)
        if (c.id == id) return c;
    FAIL("no tile case " << id);
    return v.front();
}
}  // namespace

TEST_CASE("tile cases: well-formed, unique ids, quick is a subset of full") {
    const auto full = tile_cases(false), quick = tile_cases(true);
    CHECK(quick.size() >= 10);
    CHECK(full.size() > quick.size());
    std::set<std::string> ids;
    for (const TileCase& c : full) {
        CHECK_MESSAGE(validate_tile_case(c).empty(), validate_tile_case(c));
        CHECK(ids.insert(c.id).second);
    }
    for (const TileCase& c : quick) CHECK(ids.count(c.id) == 1);
}

TEST_CASE("tile cases: ldmatrix.x4 on 64x64 halfs, row-major is 8-way, Swizzle<3,3,3> / pad 8 / TMA 128B are conflict-free") {
    const auto v = tile_cases(true);
    // Row-major: 128-byte rows, so the 8 row addresses of each matrix sit in the same 4 banks: 8 wavefronts per
    // phase, 4 phases -> 32 wavefronts, ideal 4, conflicts 28.
    for (const char* id : {"tile/ldmatrix.x4/64x64h/rowmajor/w0", "tile/ldmatrix.x4.trans/64x64h/rowmajor/w0"}) {
        const TilePrediction p = predict_tile(find(v, id));
        CHECK(p.instructions == 1);
        CHECK(p.max_way == 8);
        CHECK(p.wavefronts == 32);
        CHECK(p.ideal_wavefronts == 4);
        CHECK(p.conflicts == 28);
    }
    for (const char* id : {"tile/ldmatrix.x4/64x64h/swizzle333/w0", "tile/ldmatrix.x4/64x64h/pad8/w0", "tile/ldmatrix.x4/64x64h/tma128B/w0",
                           "tile/ldmatrix.x4.trans/64x64h/swizzle333/w0"}) {
        const TilePrediction p = predict_tile(find(v, id));
        CHECK_MESSAGE(p.conflicts == 0, id);
        CHECK(p.wavefronts == 4);
    }
    // The kernel gets the lanes' row addresses: matrix 0 = rows 0..7 at column 0 (pitch 128 B), matrix 2 the next 16 bytes.
    const TileCase& rm = find(v, "tile/ldmatrix.x4/64x64h/rowmajor/w0");
    CHECK(rm.kernel() == "occv_ldmatrix_x4");
    CHECK(rm.mask == 0xFFFFFFFFu);
    CHECK(rm.smem[1] == 128);
    CHECK(rm.smem[8] == 8 * 128);
    CHECK(rm.smem[16] == 16);
    // Swizzle<3,3,3> on element offsets: row 1 (offset 64 halfs) -> 64 ^ 8 = 72 halfs = 144 bytes.
    CHECK(find(v, "tile/ldmatrix.x4/64x64h/swizzle333/w0").smem[1] == 144);
    // .x2 uses lanes 0..15 only.
    const TileCase& x2 = find(v, "tile/ldmatrix.x2/64x64h/rowmajor/w0");
    CHECK(x2.mask == 0xFFFFu);
    CHECK(predict_tile(x2).wavefronts == 16);
}

TEST_CASE("tile cases: cp.async global sectors and shared wavefronts") {
    const auto v = tile_cases(true);
    // 16 B per lane over 4 rows of 128 bytes, contiguous in global: 512 bytes = 16 sectors in one request;
    // the shared side is a 16-byte store of 4 conflict-free phases.
    const TileCase& c16 = find(v, "tile/cp_async16/64x64h/rowmajor/w0");
    CHECK(c16.kernel() == "occv_cp_async_16");
    CHECK(c16.kind == Kind::coalescing);
    TilePrediction p = predict_tile(c16);
    CHECK(p.requests == 1);
    CHECK(p.sectors == 16);
    CHECK(p.wavefronts == 4);
    CHECK(p.conflicts == 0);
    // Global rows of 72 halfs (144 B): rows start at 0, 144, 288, 432 -> 4 + 5 + 4 + 5 sectors.
    p = predict_tile(find(v, "tile/cp_async16/64x64h/rowmajor/gpitch72/w0"));
    CHECK(p.sectors == 18);
    CHECK(find(v, "tile/cp_async16/64x64h/rowmajor/gpitch72/w0").gmem[8] == 144);
    // 8 B: 256 contiguous bytes = 8 sectors, two phases of 16 lanes; 4 B: 128 bytes = 4 sectors, one wavefront.
    p = predict_tile(find(v, "tile/cp_async8/64x64h/rowmajor/w0"));
    CHECK(p.sectors == 8);
    CHECK(p.wavefronts == 2);
    p = predict_tile(find(v, "tile/cp_async4/64x64h/rowmajor/w0"));
    CHECK(p.sectors == 4);
    CHECK(p.wavefronts == 1);
}

TEST_CASE("tile cases: report entries compare occ's values with the counters") {
    const auto v = tile_cases(true);
    const TileCase& rm = find(v, "tile/ldmatrix.x4/64x64h/rowmajor/w0");
    // Not measured: occ's values only, unverified.
    Case r = tile_result(rm, nullptr, 90);
    CHECK(r.kind == Kind::banks);
    CHECK(evaluate(r) == Status::unverified);
    REQUIRE(r.checks.size() == 3);
    CHECK(r.checks[2].name == "bank_conflicts");
    CHECK(r.checks[2].predicted == 28);
    CHECK(r.inputs["kernel"] == "occv_ldmatrix_x4");
    // SYNTHETIC counters (not a measurement): equal -> match, one off -> mismatch.
    NcuLaunch l;
    l.metrics = {{"smsp__sass_inst_executed_op_ldsm.sum", 1},
                 {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum", 32},
                 {"smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum", 28}};
    CHECK(evaluate(tile_result(rm, &l, 90)) == Status::match);
    l.metrics["smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum"] = 27;
    CHECK(evaluate(tile_result(rm, &l, 90)) == Status::mismatch);
    const Case g = tile_result(find(v, "tile/cp_async16/64x64h/rowmajor/w0"), nullptr, 90);
    CHECK(g.kind == Kind::coalescing);
    CHECK(g.checks.size() == 5);
    CHECK(g.checks[2].name == "sectors");
    CHECK(g.checks[2].predicted == 16);
    // The JSON round trip keeps them.
    CHECK(case_from_json(to_json(r)).checks[2].predicted == 28);
    // One configuration: LDSM 3 + LDGSTS 3 counters; from sm_90 on + 2 LDGSTS global + 2 STSM (no STSM instruction counter).
    CHECK(cupti_tile_metrics(80).size() == 6);
    CHECK(cupti_tile_metrics(90).size() == 10);
    // Before sm_90 a cp.async case has no global counters: its sectors check keeps occ's value only.
    NcuLaunch g80;
    g80.metrics = {{"l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum", 16}};
    CHECK_FALSE(tile_result(find(v, "tile/cp_async16/64x64h/rowmajor/w0"), &g80, 86).checks[2].measured.has_value());
    CHECK(tile_result(find(v, "tile/cp_async16/64x64h/rowmajor/w0"), &g80, 90).checks[2].measured == 16);
    const auto full = tile_cases(false);
    const Case st = tile_result(find(full, "tile/stmatrix.x4/64x64h/rowmajor/w0"), &l, 90);
    CHECK(st.checks[0].name == "instructions");
    CHECK_FALSE(st.checks[0].measured.has_value());
    CHECK(find(full, "tile/stmatrix.x4/64x64h/rowmajor/w0").min_cc() == 90);
}

TEST_CASE("tile cases in a report: counted under their kind, shown in the table and the Markdown summary") {
    const auto v = tile_cases(true);
    Report r;
    r.synthetic = true;  // hand-made, not a measurement
    r.gpu.name = "NVIDIA H200";
    r.gpu.cc_major = 9;
    NcuLaunch l;  // SYNTHETIC counters: one bank conflict short of occ's 28
    l.metrics = {{"smsp__sass_inst_executed_op_ldsm.sum", 1},
                 {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum", 32},
                 {"smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum", 27}};
    r.cases.push_back(tile_result(find(v, "tile/ldmatrix.x4/64x64h/rowmajor/w0"), &l, 90));
    r.cases.push_back(tile_result(find(v, "tile/cp_async16/64x64h/rowmajor/w0"), nullptr, 90));
    CHECK(r.tally(Kind::banks).mismatched == 1);
    CHECK(r.tally(Kind::coalescing).unverified == 1);
    CHECK(format_table(r).find("tile/ldmatrix.x4/64x64h/rowmajor/w0") != std::string::npos);
    CHECK(format_markdown(r).find("tile/ldmatrix.x4/64x64h/rowmajor/w0") != std::string::npos);
    const Report back = report_from_json(to_json(r));
    REQUIRE(back.cases.size() == 2);
    CHECK(back.cases[0].inputs["access"] == "ldmatrix.x4");
    CHECK(back.cases[1].inputs["gmem_offsets"].size() == 32);
}

// The measured shared-memory rules the hardware check settles (docs/MEMORY.md; sources in
// tests/unit/test_bank_measured.cpp): cp.async's source 16 bytes off a sector adds one wavefront
// (17 sectors -> 5), 32 bytes off none; Blackwell's 128B_ATOM_32B / 128B_ATOM_64B make ldmatrix.x4
// 2- and 4-way (8 and 16 wavefronts); a rotation by 8 halfs is conflict-free (4).
TEST_CASE("tile cases: cp.async's global source, the 128B_ATOM TMA modes and a rotation") {
    const auto v = tile_cases(true);
    const TilePrediction off = predict_tile(find(v, "tile/cp_async16/16x64b4/rowmajor/gpitch64/gbase16/w0"));
    CHECK(off.sectors == 17);
    CHECK(off.wavefronts == 5);
    CHECK(off.conflicts == 1);
    CHECK(off.source_extra == 1);
    CHECK(predict_tile(find(v, "tile/cp_async16/16x64b4/rowmajor/gpitch64/gbase32/w0")).wavefronts == 4);
    const TilePrediction strided = predict_tile(find(v, "tile/cp_async4/64x4b4/rowmajor/gpitch64/w0"));
    CHECK(strided.sectors == 8);
    CHECK(strided.wavefronts == 2);
    CHECK(predict_tile(find(v, "tile/ldmatrix.x4/64x64h/tma128B_ATOM_32B/w0")).wavefronts == 8);
    CHECK(predict_tile(find(v, "tile/ldmatrix.x4/64x64h/tma128B_ATOM_64B/w0")).wavefronts == 16);
    CHECK(predict_tile(find(v, "tile/ldmatrix.x4/64x64h/rotate8/w0")).wavefronts == 4);
}

// The paired-load merge in the memory cases' predictions: with the GPU's rules an 8- or 16-byte load
// of lane pairs on one element halves (NVIDIA forum 77228: "from 4 to 2"); stores and the phase model
// alone keep 2 and 4.
TEST_CASE("memory cases: pairs of lanes on one element, with and without the architecture's rules") {
    MemCase pairs;
    pairs.kind = Kind::banks;
    pairs.id = "t";
    pairs.elem_size = 16;
    for (int l = 0; l < 32; ++l) pairs.offsets.push_back(std::int64_t{l / 2} * 16);
    const occ::ArchRules* h100 = occ::find_arch(9, 0);
    CHECK(predict_shared(pairs, h100).wavefronts == 2);
    CHECK(predict_shared(pairs).wavefronts == 4);
    pairs.store = true;
    CHECK(predict_shared(pairs, h100).wavefronts == 4);
    std::set<std::string> ids;
    for (const MemCase& c : bank_cases(true)) ids.insert(c.id);
    for (const char* id : {"smem/ld8/pairs_xor1", "smem/ld16/pairs_xor1", "smem/st16/pairs_xor1"}) CHECK(ids.count(id) == 1);
    ids.clear();
    for (const MemCase& c : bank_cases(false)) ids.insert(c.id);
    for (const char* id : {"smem/ld8/quads", "smem/ld16/pairs_xor2", "smem/ld16/quad_period4"}) CHECK(ids.count(id) == 1);
}
