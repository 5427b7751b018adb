// Sweeps and the block-size x registers grid (occ/sweep.hpp) agree with the single-query model.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "occ/sweep.hpp"

using namespace occ;

TEST_CASE("block-size sweep covers 1..1024 and matches compute_occupancy") {
    const Device d = *find_gpu("A100");
    KernelResources k;
    k.regs_per_thread = 64;
    LaunchConfig l;
    const auto s = sweep_block_size(d, k, l);
    REQUIRE(s.size() == 1024);
    CHECK(s.front().x == 1);
    CHECK(s.back().x == 1024);
    CHECK(s[255].blocks_per_sm == 4);  // 256 threads, the seed example
    CHECK(s[255].occupancy == doctest::Approx(0.5));
    CHECK(s[1023].blocks_per_sm == 1);
    const auto coarse = sweep_block_size(d, k, l, 32);
    CHECK(coarse.front().x == 1);
    CHECK(coarse[1].x == 32);
    CHECK(coarse.back().x == 1024);
}

TEST_CASE("register sweep 0..255 is non-increasing") {
    const Device d = *find_gpu("H100");
    const auto s = sweep_registers(d, KernelResources{}, LaunchConfig{});
    REQUIRE(s.size() == 256);
    for (std::size_t i = 1; i < s.size(); ++i) CHECK(s[i].blocks_per_sm <= s[i - 1].blocks_per_sm);
    CHECK(s[0].blocks_per_sm == 8);  // 256-thread blocks: warp-limited at 64/8
}

TEST_CASE("shared-memory sweep ends at what one block may use") {
    const Device d = *find_gpu("A100");
    KernelResources k;
    k.optin = true;
    const auto s = sweep_shared_memory(d, k, LaunchConfig{});
    CHECK(s.back().x == 163 * 1024);
    CHECK(s.back().blocks_per_sm == 1);
    KernelResources no;
    CHECK(sweep_shared_memory(d, no, LaunchConfig{}).back().x == 48 * 1024);
}

TEST_CASE("the 262,144-point grid equals the single-query model everywhere") {
    std::vector<std::uint8_t> grid(kGridSize);
    std::mt19937 rng(3);
    for (const char* name : {"A100", "RTX-4090", "T4", "GTX-980", "H100"}) {
        const Device d = *find_gpu(name);
        KernelResources k;
        k.smem_static = 4096;
        LaunchConfig l;
        l.smem_dynamic = 8192;
        occupancy_grid(d.arch, k, l, grid);
        for (int i = 0; i < 3000; ++i) {
            const int t = std::uniform_int_distribution<int>(1, 1024)(rng);
            const int r = std::uniform_int_distribution<int>(0, 255)(rng);
            KernelResources kk = k;
            kk.regs_per_thread = r;
            LaunchConfig ll = l;
            ll.threads = t;
            const int expect = std::max(0, compute_occupancy(d, kk, ll).blocks_per_sm);
            CHECK(grid[static_cast<std::size_t>(t - 1) * kGridRegs + r] == expect);
        }
    }
}
