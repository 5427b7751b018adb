// Thread block clusters (occ/cluster.hpp). The GPC layouts are documented assumptions (Hopper
// whitepaper: full GH100 = 8 GPCs x 9 TPCs x 2 SMs; H100 SXM5 enables 132 SMs); the hardware check
// to settle them is cudaOccupancyMaxActiveClusters in cuda_validation (docs/ADVANCED.md).
#include <doctest/doctest.h>

#include <numeric>

#include "occ/cluster.hpp"
#include "occ/device.hpp"
#include "occ/io/api.hpp"

#include "launch_helpers.hpp"

using namespace occ;
using occ::test::gpu;
using occ::test::regs;
using occ::test::threads;

TEST_CASE("GPC layouts add up and follow the stated assumption") {
    const GpcLayout h100 = gpc_layout(gpu("H100"));
    CHECK(h100.gpc_count() == 8);
    CHECK(h100.sms_per_gpc == std::vector<int>{18, 18, 16, 16, 16, 16, 16, 16});
    CHECK(h100.assumed);
    CHECK(h100.source.find("[HWP]") != std::string::npos);
    const GpcLayout pcie = gpc_layout(gpu("H100-PCIe"));
    CHECK(std::accumulate(pcie.sms_per_gpc.begin(), pcie.sms_per_gpc.end(), 0) == 114);
    for (const GpuEntry& g : all_gpus()) {
        if (g.cc_major < 9) continue;
        CAPTURE(g.name);
        const GpcLayout l = gpc_layout(*find_gpu(g.name));
        CHECK(std::accumulate(l.sms_per_gpc.begin(), l.sms_per_gpc.end(), 0) == g.sm_count);
        // A full GPC: the entry's own figure (Blackwell Ultra: 20 SMs), else the Hopper whitepaper's 18.
        const int full = g.gpc.gpcs > 0 ? g.gpc.max_sms_per_gpc : 18;
        for (int s : l.sms_per_gpc) CHECK(s <= full);
        if (!g.gpc.sms.empty()) CHECK(l.gpc_count() == g.gpc.gpcs);
    }
    const GpcLayout even = even_gpc_layout(148);  // B200: 9 GPCs of up to 18 SMs
    CHECK(even.gpc_count() == 9);
    CHECK(std::accumulate(even.sms_per_gpc.begin(), even.sms_per_gpc.end(), 0) == 148);
}

TEST_CASE("max active clusters on H100 SXM5 (assumed 2 x 18 + 6 x 16 SMs)") {
    const Device h = gpu("H100");
    // 1024 threads x 64 regs: 1 block per SM.
    const ClusterResult c16 = compute_clusters(h, regs(64), threads(1024), 16, /*non_portable=*/true);
    REQUIRE(c16.ok());
    CHECK(c16.blocks_per_sm == 1);
    CHECK(c16.max_active_clusters == 8);  // one per GPC
    CHECK(c16.active_blocks == 128);
    CHECK(c16.idle_block_slots == 4);  // 2 SMs idle in each 18-SM GPC
    CHECK(c16.cluster_occupancy == doctest::Approx(128.0 / 132));
    const ClusterResult c8 = compute_clusters(h, regs(64), threads(1024), 8);
    CHECK(c8.max_active_clusters == 16);
    const ClusterResult c6 = compute_clusters(h, regs(64), threads(1024), 6);
    CHECK(c6.max_active_clusters == 2 * 3 + 6 * 2);  // 18 / 6 = 3, 16 / 6 = 2
    CHECK(c6.active_blocks == 108);
    // 256 threads x 32 regs: 8 blocks per SM; clusters of 2 use every slot: 132 x 8 / 2.
    const ClusterResult c2 = compute_clusters(h, regs(32), threads(256), 2);
    CHECK(c2.max_active_clusters == 528);
    CHECK(c2.cluster_occupancy == doctest::Approx(1.0));
    CHECK(c2.device_occupancy == doctest::Approx(1.0));
}

TEST_CASE("cluster rules: 9.0+, portable 8, non-portable 16") {
    CHECK(compute_clusters(gpu("A100"), regs(32), threads(256), 2).error.find("9.0") != std::string::npos);
    CHECK_FALSE(compute_clusters(gpu("H100"), regs(32), threads(256), 9).ok());
    CHECK(compute_clusters(gpu("H100"), regs(32), threads(256), 9, true).ok());
    CHECK_FALSE(compute_clusters(gpu("H100"), regs(32), threads(256), 17, true).ok());
    CHECK_FALSE(compute_clusters(gpu("H100"), regs(32), threads(256), 0).ok());
    // A layout that does not add up to the SM count is refused.
    GpcLayout bad;
    bad.sms_per_gpc = {16, 16};
    CHECK_FALSE(compute_clusters(gpu("H100"), regs(32), threads(256), 2, false, bad).ok());
}

TEST_CASE("clusters request, with a GPC layout override") {
    using occ::io::json;
    const json r = occ::io::handle("clusters",
                                   json{{"gpu", "H100"}, {"threads", 1024}, {"regs", 64}, {"cluster_size", 16}, {"non_portable", true}});
    REQUIRE(r["error"].is_null());
    CHECK(r["max_active_clusters"] == 8);
    CHECK(r["gpc"]["count"] == 8);
    CHECK(r["gpc"]["assumed"] == true);
    // If the real part had 7 GPCs of 18 SMs + one of 6, clusters of 16 would drop to 7.
    const json o = occ::io::handle("clusters", json{{"gpu", "H100"},
                                                    {"threads", 1024},
                                                    {"regs", 64},
                                                    {"cluster_size", 16},
                                                    {"non_portable", true},
                                                    {"gpc_sms", {18, 18, 18, 18, 18, 18, 18, 6}}});
    CHECK(o["max_active_clusters"] == 7);
    CHECK(o["gpc"]["assumed"] == false);
    CHECK(occ::io::handle("clusters", json{{"gpu", "H100"}, {"cluster_size", 12}})["error"].get<std::string>().find("non_portable") !=
          std::string::npos);
    CHECK(occ::io::handle("clusters", json{{"gpu", "H100"}})["error"].get<std::string>().find("cluster_size") == 0);
    CHECK(occ::io::handle("clusters", json{{"gpu", "H100"}, {"cluster_size", 2}, {"gpc_sms", {1, 2}}})["error"].get<std::string>().find(
              "gpc_sms") == 0);
}

// Public cudaOccupancyMaxActiveClusters results at one block per SM (sources in gpu_db.cpp).
TEST_CASE("measured cluster counts: B200 and B300 ([BWCL]), RTX 5090 (reported)") {
    const std::pair<int, int> bw[] = {{2, 74}, {3, 45}, {4, 33},  {5, 26}, {6, 22}, {7, 15},
                                      {8, 15}, {9, 15}, {10, 11}, {12, 7}, {14, 7}, {16, 7}};
    for (const char* name : {"B200", "B300"}) {
        CAPTURE(name);
        const Device d = gpu(name);
        const GpcLayout l = gpc_layout(d);
        CHECK_FALSE(l.assumed);  // derived from the measured counts
        CHECK(l.sms_per_gpc == std::vector<int>{20, 20, 20, 18, 18, 18, 18, 10, 2, 2, 2});
        for (const auto& [cluster_size, clusters] : bw) {
            const int size = cluster_size;  // a plain local: clang 14 cannot capture a structured binding
            CAPTURE(size);
            const ClusterResult c = compute_clusters(d, regs(64), threads(1024), size, /*non_portable=*/size > 8);
            REQUIRE(c.blocks_per_sm == 1);
            CHECK(c.max_active_clusters == clusters);
        }
    }
    // RTX 5090 (170 SMs, 11 GPCs assumed even): 170, 85, 41 and 19 clusters of 1, 2, 4 and 8.
    const Device r = gpu("RTX-5090");
    const std::pair<int, int> rtx[] = {{1, 170}, {2, 85}, {4, 41}, {8, 19}};
    for (const auto& [cluster_size, clusters] : rtx) {
        const int size = cluster_size;
        CAPTURE(size);
        const ClusterResult c = compute_clusters(r, regs(64), threads(1024), size);
        REQUIRE(c.blocks_per_sm == 1);
        CHECK(c.max_active_clusters == clusters);
    }
    // GB300 (152 SMs) keeps the generic assumption: it gives the public 36 clusters of 4 (and 18 of 8
    // where 14 were measured: docs/ADVANCED.md).
    const ClusterResult gb = compute_clusters(gpu("GB300"), regs(64), threads(1024), 4);
    CHECK(gpc_layout(gpu("GB300")).assumed);
    CHECK(gb.max_active_clusters == 36);
    // Another SM count than the catalogue's (a custom override) falls back to an even split.
    Device b = gpu("B300");
    b.sm_count = 140;
    const GpcLayout other = gpc_layout(b);
    CHECK(std::accumulate(other.sms_per_gpc.begin(), other.sms_per_gpc.end(), 0) == 140);
    CHECK(other.assumed);
}
