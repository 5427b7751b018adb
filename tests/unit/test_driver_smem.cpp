// test_driver_smem.cpp — the driver's carveout (occ::driver_smem_config) and the predicted achieved
// occupancy (occ::compute_waves) on real Nsight Compute reports. Each case is one kernel of
// tests/fixtures/ncu_public/reports.jsonl, cited by its source there; the fit and its
// leave-one-source-out accuracy: scripts/fit_carveout.py, docs/MODEL.md.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "occ/occupancy.hpp"
#include "occ/waves.hpp"

namespace {

struct Launch {
    occ::Device dev;
    occ::KernelResources k;
    occ::LaunchConfig l;
};

Launch launch(int major, int minor, int sms, int threads, int regs, std::int64_t smem_static, std::int64_t smem_dynamic) {
    auto d = occ::device_for_cc(major, minor);
    REQUIRE(d.has_value());
    Launch x{*d, {}, {}};
    x.dev.sm_count = sms;
    x.l.threads = threads;
    x.k.regs_per_thread = regs;
    x.k.smem_static = smem_static;
    x.l.smem_dynamic = smem_dynamic;
    x.k.optin = true;
    return x;
}

occ::DriverSmemConfig driver(const Launch& x) {
    const occ::OccupancyResult r = occ::compute_occupancy(x.dev, x.k, x.l);
    REQUIRE(r.ok());
    return occ::driver_smem_config(x.dev.arch, x.k, r);
}

double achieved(const Launch& x, std::int64_t grid) {
    const occ::OccupancyResult r = occ::compute_occupancy(x.dev, x.k, x.l);
    const occ::WaveResult w = occ::compute_waves(r, x.dev.sm_count, grid, x.k.regs_per_thread);
    REQUIRE(w.ok());
    return w.achieved_occupancy * 100;
}

}  // namespace

TEST_CASE("driver carveout: one answer where the reports decide") {
    // vector_add on an RTX 4090-class part (cc 8.9, 128 SMs), 256 threads, 16 registers, no shared
    // memory: ncu "Shared Memory Configuration Size 16.38 Kbyte", "Block Limit Shared Mem 16"
    // (search-index file id 62228786205). Six blocks need 6 KiB; twice that rounds up to 16 KiB.
    const occ::DriverSmemConfig d = driver(launch(8, 9, 128, 256, 16, 0, 0));
    CHECK(d.bytes == 16384);
    CHECK(d.block_limit == 16);
    CHECK(d.candidates == std::vector<std::int64_t>{16384});
    CHECK_FALSE(d.may_be_larger);
    CHECK(d.reports > 0);

    // cuBLASLt GEMM on the RTX 4090 (cc 8.9): 256 threads, 202 registers, 48 KiB dynamic: 65.54
    // Kbyte, limit 1 (id 12647977015). One block of 49 KiB: 64 KiB, not the 100 KiB twice would need.
    const occ::DriverSmemConfig g = driver(launch(8, 9, 128, 256, 202, 0, 49152));
    CHECK(g.bytes == 65536);
    CHECK(g.block_limit == 1);

    // A800 (cc 8.0, 108 SMs), matmul-playground kernel1: 256 threads, 106 registers, 48 KiB
    // dynamic: 102.40 Kbyte, limit 2 (id 60293138452).
    const occ::DriverSmemConfig a = driver(launch(8, 0, 108, 256, 106, 0, 49152));
    CHECK(a.bytes == 102400);
    CHECK(a.block_limit == 2);
}

TEST_CASE("driver carveout: cc 8.0 scales with the blocks, below and at 32 KiB") {
    // register_kernel on an A100-class part (cc 8.0), 256 threads, no shared memory (id 58483282836):
    // 16 registers -> 8 blocks, "Block Limit Shared Mem 32" (32 KiB / 1 KiB); 206 registers -> 1
    // block, "Block Limit Shared Mem 8" (8 KiB). The old 32 KiB floor got the second wrong.
    const occ::DriverSmemConfig many = driver(launch(8, 0, 108, 256, 16, 0, 0));
    CHECK(many.bytes == 32768);
    CHECK(many.block_limit == 32);
    const occ::DriverSmemConfig one = driver(launch(8, 0, 108, 256, 206, 0, 0));
    CHECK(one.bytes == 8192);
    CHECK(one.block_limit == 8);
}

TEST_CASE("driver carveout: candidates where the reports disagree") {
    // cc 8.6 kernels with static shared memory: tiledMM with 6 KiB static, 512 threads, 38 registers
    // got 32.77 Kbyte and limit 4 (id 23317307296); matmul_kernel_v3 (8 KiB static, id 8850111014)
    // and row_sum_bad (4 KiB static, jumperkables/cuda-benchmarking) got 64 KiB with the same rule's
    // inputs. occ answers 64 KiB and lists 32 KiB beside it.
    const occ::DriverSmemConfig d = driver(launch(8, 6, 82, 512, 38, 6144, 0));
    CHECK(d.bytes == 65536);
    CHECK(d.candidates == std::vector<std::int64_t>{32768, 65536});
    CHECK(d.candidate_block_limits == std::vector<int>{4, 9});
    CHECK(d.may_be_larger == false);
    // The same kernel with its tile in dynamic memory (tiledMM_naive_dyn, same report): 32 KiB, one answer.
    const occ::DriverSmemConfig dyn = driver(launch(8, 6, 82, 512, 40, 0, 6144));
    CHECK(dyn.bytes == 32768);
    CHECK(dyn.candidates == std::vector<std::int64_t>{32768});
}

TEST_CASE("driver carveout: a compute capability without reports answers with candidates") {
    // cc 8.7 has one report (Jetson Orin, 16.38 Kbyte, id 4732774882); cc 10.3 has none: its
    // answer is the plain minimum with what parts of the same carveout sizes configure.
    const occ::DriverSmemConfig d = driver(launch(10, 3, 148, 256, 16, 0, 0));
    CHECK(d.bytes == 8192);  // 8 blocks of 1 KiB
    CHECK(d.candidates.size() > 1);
    CHECK(d.candidates.front() == 8192);
    CHECK(d.reports == 0);
}

TEST_CASE("achieved occupancy: a grid smaller than the GPU fills one block per SM") {
    // grouped_fused_down_kernel, cc 8.9, 66 SMs, 128 threads, 50 registers, 8464 B static, grid 56:
    // ncu "Achieved Occupancy 8.34 %" (4 warps of 48), theoretical 75 % (id 53797075859).
    CHECK(std::fabs(achieved(launch(8, 9, 66, 128, 50, 8464, 0), 56) - 8.34) < 0.5);
    // produce_grouped_fused_kernel, same run: grid 112 on 66 SMs, 16656 B static: 14.13 %.
    CHECK(std::fabs(achieved(launch(8, 9, 66, 128, 48, 16656, 0), 112) - 14.13) < 0.5);
}

TEST_CASE("achieved occupancy: many waves, a light kernel reaches less than a heavy one") {
    // vector_add, cc 8.6, 82 SMs, 256 threads, 16 registers, grid 65536: 77.36 % (id 23142443354).
    const double light = achieved(launch(8, 6, 82, 256, 16, 0, 0), 65536);
    CHECK(std::fabs(light - 77.36) < 10);
    {
        // The light kernel's range reaches down to what it measured.
        const Launch x = launch(8, 6, 82, 256, 16, 0, 0);
        const occ::WaveResult w = occ::compute_waves(occ::compute_occupancy(x.dev, x.k, x.l), 82, 65536, 16);
        CHECK(w.achieved_occupancy_low * 100 <= 77.36);
        CHECK(w.achieved_occupancy_high * 100 >= 77.36);
    }
    // tiledMM, same GPU, 512 threads, 38 registers, 6 KiB static, grid 23500: 99.58 % (id 23317307296).
    const double heavy = achieved(launch(8, 6, 82, 512, 38, 6144, 0), 23500);
    CHECK(std::fabs(heavy - 99.58) < 5);
    CHECK(light < heavy);
}

TEST_CASE("achieved occupancy: unknown without a grid, never above the theoretical occupancy") {
    const Launch x = launch(8, 0, 108, 256, 32, 0, 0);
    const occ::OccupancyResult r = occ::compute_occupancy(x.dev, x.k, x.l);
    const occ::WaveResult none = occ::compute_waves(r, 108, 0, 32);
    CHECK(none.achieved_occupancy < 0);
    CHECK(none.achieved_occupancy_low < 0);
    CHECK(none.achieved_occupancy_high < 0);
    CHECK(none.achieved_unknown == "the grid size is not given");
    for (std::int64_t g : {1, 107, 108, 109, 863, 864, 865, 100000}) {
        const occ::WaveResult w = occ::compute_waves(r, 108, g, 32);
        CHECK(w.achieved_occupancy > 0);
        CHECK(w.achieved_occupancy <= r.occupancy + 1e-12);
        // The range holds the value and stays at most the theoretical occupancy.
        CHECK(w.achieved_occupancy_low > 0);
        CHECK(w.achieved_occupancy_low <= w.achieved_occupancy);
        CHECK(w.achieved_occupancy <= w.achieved_occupancy_high);
        CHECK(w.achieved_occupancy_high <= r.occupancy + 1e-12);
    }
}
