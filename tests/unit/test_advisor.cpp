// Launch advisor and waves (occ/advisor.hpp, occ/waves.hpp). Known answers are worked by hand from
// the rules in MODEL.md (register file split over 4 sub-partitions, 1 KB reserve and 164 KB carveout
// on A100) so each number below can be checked on paper; the seed example is MODEL.md's.
#include <doctest/doctest.h>

#include "occ/advisor.hpp"
#include "occ/device.hpp"
#include "occ/io/api.hpp"
#include "occ/waves.hpp"

#include "launch_helpers.hpp"

using namespace occ;
using occ::test::gpu;
using occ::test::regs;
using occ::test::threads;

TEST_CASE("register headroom: A100, 256 threads x 64 regs (MODEL.md seed: 4 blocks, 50%)") {
    const ResourceAdvice a = advise_registers(gpu("A100"), regs(64), threads(256));
    REQUIRE(a.ok());
    CHECK(a.blocks_per_sm == 4);
    CHECK(a.before.occupancy == doctest::Approx(0.5));
    // 64 regs = 2048 per warp = exactly 8 warps per sub-partition: one more register loses a block.
    CHECK(a.max_same_blocks == 64);
    CHECK(a.headroom == 0);
    // 48 regs -> 1536 per warp -> 16384 / 1536 = 10 warps per sub-partition -> 40 warps = 5 blocks.
    // 56 regs -> 1792 -> 9 warps -> 36 warps = 4 blocks, so 48 is the most that gains one.
    CHECK(a.to_gain_block == 48);
    CHECK(a.cut_to_gain == 16);
    CHECK(a.after_cut.blocks_per_sm == 5);
    CHECK(a.after_cut.occupancy == doctest::Approx(0.625));
}

TEST_CASE("register headroom when registers are not the limiter") {
    // 32 regs, 256 threads: 8 blocks = 64 warps, limited by warps and registers together.
    const ResourceAdvice a = advise_registers(gpu("A100"), regs(40), threads(256));
    REQUIRE(a.ok());
    // 40 regs -> 1280/warp -> 12 warps per sub-partition -> 48 warps = 6 blocks; up to 40 keeps 6
    // (42 -> 1536 -> 10 warps -> 5 blocks).
    CHECK(a.blocks_per_sm == 6);
    CHECK(a.max_same_blocks == 40);
    CHECK(a.to_gain_block == 32);  // 32 regs -> 1024/warp -> 16 warps -> 64 warps = 8 blocks
    CHECK(a.after_cut.blocks_per_sm == 8);

    const ResourceAdvice b = advise_registers(gpu("A100"), regs(16), threads(1024));
    REQUIRE(b.ok());
    CHECK(b.blocks_per_sm == 2);     // 64 warps / 32
    CHECK(b.max_same_blocks == 32);  // 32 regs still fit 2 blocks of 32 warps
    CHECK(b.headroom == 16);
    CHECK(b.to_gain_block == -1);  // warps limit: no register count helps
    CHECK(b.note.find("warps") != std::string::npos);
}

TEST_CASE("best block size: ties go to the largest block, like cudaOccupancyMaxPotentialBlockSize") {
    // 64 regs: every warp multiple reaches 32 warps (1024 threads) at best; 1024 wins the tie.
    const BlockSizeAdvice a = advise_block_size(gpu("A100"), regs(64), threads(256), SmemGrowth{});
    REQUIRE(a.ok());
    CHECK(a.threads == 1024);
    CHECK(a.blocks_per_sm == 1);
    CHECK(a.active_threads_per_sm == 1024);
    CHECK(a.after.occupancy == doctest::Approx(0.5));
    CHECK(a.min_grid_blocks == 108);
    CHECK(a.candidates == 32);

    // A block-size limit that is not a warp multiple is tried as is first (then 288, 256, ...).
    const BlockSizeAdvice b = advise_block_size(gpu("A100"), regs(32), threads(128), SmemGrowth{}, 300);
    REQUIRE(b.ok());
    // 300 threads = 10 warps: 6 blocks (warps) = 1800 threads; 288 = 9 warps: 7 blocks = 2016;
    // 256: 8 blocks = 2048 (100%), and nothing smaller beats 2048.
    CHECK(b.threads == 256);
    CHECK(b.active_threads_per_sm == 2048);
}

TEST_CASE("best block size with shared memory that grows with the block") {
    // 128 B per thread on A100 without opt-in: a block may use 48 KB (+1 KB reserve), so at most
    // 384 threads. Active threads per SM (167936 B carveout, blocks = 167936 / (128 t + 1024)):
    //   384 -> 3 x 384 = 1152, 352 -> 3 -> 1056, 320 -> 4 -> 1280, 288 -> 4 -> 1152, 256 -> 4 -> 1024,
    //   224 -> 5 -> 1120, 192 -> 6 -> 1152, 128 -> 9 -> 1152, 64 -> 18 -> 1152, 32 -> 32 (slots) -> 1024.
    const BlockSizeAdvice a = advise_block_size(gpu("A100"), regs(32), threads(256), SmemGrowth{0, 128});
    REQUIRE(a.ok());
    CHECK(a.threads == 320);
    CHECK(a.smem_dynamic == 40960);
    CHECK(a.blocks_per_sm == 4);
    CHECK(a.after.occupancy == doctest::Approx(0.625));
    CHECK(a.before.blocks_per_sm == 4);
    CHECK(a.before.occupancy == doctest::Approx(0.5));

    // Nothing fits: more than the opt-in maximum per thread even at 32 threads.
    const BlockSizeAdvice z = advise_block_size(gpu("A100"), regs(32), threads(256), SmemGrowth{200 * 1024, 0});
    CHECK_FALSE(z.ok());
}

TEST_CASE("dynamic shared memory available per block at a target (cudaOccupancyAvailableDynamicSMemPerBlock)") {
    // A100, 256 threads, 32 regs: 4 blocks need <= 167936 / 4 = 41984 B each, minus the 1 KB reserve.
    const DynamicSmemAdvice a = available_dynamic_smem(gpu("A100"), regs(32), threads(256), 4);
    REQUIRE(a.ok());
    CHECK(a.available == 40960);
    CHECK(a.at_available.blocks_per_sm == 4);
    // 2 blocks: 82944 B would fit the SM, but without opt-in a block may use 48 KB.
    CHECK(available_dynamic_smem(gpu("A100"), regs(32), threads(256), 2).available == 49152);
    KernelResources optin = regs(32);
    optin.optin = true;
    CHECK(available_dynamic_smem(gpu("A100"), optin, threads(256), 2).available == 82944);
    // Static shared memory that is not a multiple of the 128 B unit: the answer is exact to the byte.
    KernelResources st = regs(32);
    st.smem_static = 100;
    const DynamicSmemAdvice c = available_dynamic_smem(gpu("A100"), st, threads(256), 4);
    CHECK(c.available == 40860);
    LaunchConfig over = threads(256, c.available + 1);
    CHECK(compute_occupancy(gpu("A100"), st, over).blocks_per_sm == 3);
    // Unreachable: 64 regs allow 4 blocks of 256 at most.
    const DynamicSmemAdvice d = available_dynamic_smem(gpu("A100"), regs(64), threads(256), 5);
    CHECK_FALSE(d.ok());
    CHECK(d.error.find("registers") != std::string::npos);
}

TEST_CASE("shared-memory headroom and the cut that gains a block") {
    // A100, 256 threads, 32 regs, 48 KB dynamic + opt-in: (49152 + 1024) = 50176 -> 3 blocks.
    KernelResources k = regs(32);
    k.optin = true;
    const ResourceAdvice a = advise_shared_memory(gpu("A100"), k, threads(256, 48 * 1024));
    REQUIRE(a.ok());
    CHECK(a.blocks_per_sm == 3);
    // 3 blocks hold up to 167936 / 3 = 55978 -> 55936 (128 B unit) - 1024 = 54912 B dynamic.
    CHECK(a.max_same_blocks == 54912);
    CHECK(a.headroom == 54912 - 49152);
    // 4 blocks: 41984 - 1024 = 40960.
    CHECK(a.to_gain_block == 40960);
    CHECK(a.cut_to_gain == 8192);
    CHECK(a.after_cut.blocks_per_sm == 4);
}

TEST_CASE("one advice shape for both resources, and each suggestion worded once") {
    const ResourceAdvice r = advise_registers(gpu("A100"), regs(64), threads(256));
    CHECK(r.resource == Resource::registers);
    CHECK(r.now == 64);
    CHECK(cut_suggestion(r) ==
          "registers 64 -> 48 per thread (cut 16, e.g. __launch_bounds__ or -maxrregcount): 4 -> 5 blocks/SM, occupancy 50% -> 62.5%");
    CHECK(headroom_suggestion(r).empty());  // 64 is already the most that keeps 4 blocks
    const ResourceAdvice h = advise_registers(gpu("A100"), regs(16), threads(1024));
    CHECK(headroom_suggestion(h) == "register headroom: up to 32 registers per thread (+16) keep 2 blocks/SM (100%)");
    CHECK(cut_suggestion(h).empty());

    KernelResources k = regs(32);
    k.optin = true;
    const ResourceAdvice s = advise_shared_memory(gpu("A100"), k, threads(256, 48 * 1024));
    CHECK(s.resource == Resource::shared_memory);
    CHECK(s.now == 48 * 1024);
    CHECK(cut_suggestion(s) == "dynamic shared memory 48 KiB -> 40 KiB per block (cut 8 KiB): 3 -> 4 blocks/SM, occupancy 37.5% -> 50%");
    CHECK(headroom_suggestion(s) == "shared-memory headroom: up to 53.625 KiB dynamic per block (+5.625 KiB) keeps 3 blocks/SM");

    const WaveResult w = compute_waves(4, 108, 1000);
    CHECK(waves_suggestion(w) == "grid 1000 blocks = 2.31 waves of 432; last wave 31.5% full: 864 or 1296 blocks end on a whole wave");
    CHECK(waves_suggestion(compute_waves(4, 108, 864)).empty());
    OccupancyResult ok;
    CHECK(no_change_suggestion(ok) == "no change improves occupancy: already at the best this kernel allows");
}

TEST_CASE("waves: blocks per wave, waves, tail (Nsight Compute's Waves Per SM)") {
    // A100: 4 blocks/SM x 108 SMs = 432 per wave; 1000 blocks = 2.31 waves, a 136-block tail.
    const WaveResult w = compute_waves(4, 108, 1000);
    REQUIRE(w.ok());
    CHECK(w.blocks_per_wave == 432);
    CHECK(w.waves == doctest::Approx(1000.0 / 432));
    CHECK(w.full_waves == 2);
    CHECK(w.total_waves == 3);
    CHECK(w.tail_blocks == 136);
    CHECK(w.last_wave_fill == doctest::Approx(136.0 / 432));
    CHECK(w.efficiency == doctest::Approx(1000.0 / 1296));
    CHECK(w.suggested_grid_down == 864);
    CHECK(w.suggested_grid_up == 1296);
    const WaveResult exact = compute_waves(4, 108, 864);
    CHECK(exact.tail_blocks == 0);
    CHECK(exact.last_wave_fill == 1.0);
    CHECK(exact.efficiency == 1.0);
    const WaveResult none = compute_waves(4, 108, 0);  // not given: one full wave
    CHECK(none.waves == 1.0);
    CHECK_FALSE(compute_waves(0, 108, 10).ok());
    CHECK_FALSE(compute_waves(4, 0, 10).ok());
}

TEST_CASE("advise request: every section, with before/after numbers and suggestions") {
    using occ::io::json;
    const json r = occ::io::handle("advise", json{{"gpu", "A100"}, {"threads", 256}, {"regs", 64}, {"grid", 1000}, {"target_blocks", 2}});
    REQUIRE(r["error"].is_null());
    CHECK(r["occupancy"]["blocks_per_sm"] == 4);
    CHECK(r["registers"]["regs_to_gain_block"] == 48);
    CHECK(r["registers"]["after_cut"]["occupancy"].get<double>() == doctest::Approx(0.625));
    CHECK(r["block_size"]["threads"] == 1024);
    CHECK(r["dynamic_smem_at_target"]["available"] == 49152);
    CHECK(r["waves"]["blocks_per_wave"] == 432);
    CHECK(r["waves"]["tail_blocks"] == 136);
    CHECK(r["clusters"].is_null());
    CHECK(r["suggestions"].size() >= 2);
    const json e = occ::io::handle("advise", json{{"gpu", "A100"}, {"smem_per_thread", -1}});
    CHECK(e["error"].get<std::string>().find("smem_per_thread") == 0);
    // Growing shared memory applies to the launch as it is now, too: 256 x 128 B = 32 KiB -> 4 blocks.
    const json g = occ::io::handle("advise", json{{"gpu", "A100"}, {"regs", 32}, {"smem_per_thread", 128}});
    CHECK(g["occupancy"]["blocks_per_sm"] == 4);
    CHECK(g["shared_memory"]["dynamic_to_gain_block"] == 32512);  // (32512 + 1024) x 5 <= 167936
    CHECK(g["block_size"]["threads"] == 320);
    const json both = occ::io::handle("advise", json{{"gpu", "A100"}, {"smem_dynamic", 1024}, {"smem_per_thread", 128}});
    CHECK(both["error"].get<std::string>().find("smem_dynamic") == 0);
    const json w = occ::io::handle("waves", json{{"gpu", "A100"}, {"threads", 256}, {"regs", 64}, {"grid", 1000}});
    CHECK(w["waves"].get<double>() == doctest::Approx(1000.0 / 432));
}

TEST_CASE("answer_advise: the typed answer behind occ advise and its JSON") {
    using occ::io::json;
    // A100, 256 threads x 64 registers: 8 warps x 2,048 registers = 16,384 per block, 4 blocks in
    // the 65,536-register file, 32 of 64 warps (MODEL.md's rules, by hand).
    const json req{{"gpu", "A100"}, {"threads", 256}, {"regs", 64}, {"grid", 1000}, {"id", 7}};
    const Result<io::AdviseAnswer> a = io::answer_advise(req);
    REQUIRE(a);
    CHECK(a->now.blocks_per_sm == 4);
    CHECK(a->now.occupancy == doctest::Approx(0.5));
    CHECK(a->registers.ok());
    CHECK(a->registers.now == 64);
    CHECK(a->waves.blocks_per_wave == 4 * 108);
    CHECK_FALSE(a->clusters);
    CHECK_FALSE(a->suggestions.empty());
    CHECK(a->id == json(7));
    CHECK(io::to_json(*a) == io::handle("advise", req));  // the JSON edge is the typed answer's
    // Shared memory that grows with the block: the launch now uses fixed + per_thread x threads.
    const Result<io::AdviseAnswer> g = io::answer_advise(
        json{{"gpu", "A100"}, {"threads", 128}, {"smem_fixed", 1024}, {"smem_per_thread", 64}});
    REQUIRE(g);
    CHECK(g->input.launch.smem_dynamic == 1024 + 64 * 128);
    const Result<io::AdviseAnswer> c = io::answer_advise(json{{"gpu", "H100"}, {"threads", 128}, {"cluster_size", 4}});
    REQUIRE(c);
    REQUIRE(c->clusters);
    CHECK(c->clusters->cluster_size == 4);
    const Result<io::AdviseAnswer> bad = io::answer_advise(json{{"gpu", "A100"}, {"smem_dynamic", 1024}, {"smem_per_thread", 128}});
    CHECK_FALSE(bad);
    CHECK(bad.error.find("smem_dynamic: give smem_dynamic (a constant) or smem_fixed + smem_per_thread") == 0);
}
