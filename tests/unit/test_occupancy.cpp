// Known answers and properties of the occupancy model (occ/occupancy.hpp).
// Sources: ../shared/MODEL.md seed example; CUDA C++ Programming Guide "Technical Specifications per
// Compute Capability"; Ampere/Hopper Tuning Guides (1 KB reserve, carveouts); Nsight Compute
// Profiling Guide "Occupancy" (per-warp register allocation, 256-register unit).
#include <doctest/doctest.h>

#include <random>

#include "occ/device.hpp"
#include "occ/io/api.hpp"
#include "occ/occupancy.hpp"
#include "occ/prepared.hpp"

#include "launch_helpers.hpp"

using namespace occ;
using occ::test::gpu;

namespace {
OccupancyResult run(const Device& d, int threads, int regs, std::int64_t dyn = 0, bool optin = false, std::int64_t stat = 0,
                    int carveout = -1, int barriers = 1) {
    KernelResources k;
    k.regs_per_thread = regs;
    k.smem_static = stat;
    k.optin = optin;
    k.barriers = barriers;
    LaunchConfig l;
    l.threads = threads;
    l.smem_dynamic = dyn;
    l.carveout = carveout;
    return compute_occupancy(d, k, l);
}
}  // namespace

TEST_CASE("MODEL.md seed: A100, 256 threads x 64 registers -> 4 blocks, 32 of 64 warps = 50%") {
    const auto r = run(gpu("A100-SXM4-80GB"), 256, 64);
    CHECK(r.ok());
    CHECK(r.blocks_per_sm == 4);
    CHECK(r.warps_per_sm == 32);
    CHECK(r.max_warps_per_sm == 64);
    CHECK(r.occupancy == doctest::Approx(0.5));
    CHECK(r.limiters == kLimitRegisters);
    CHECK(r.limit_registers == 4);
    CHECK(r.limit_warps == 8);
    CHECK(r.limit_blocks == 32);
    CHECK(r.regs_per_warp_allocated == 2048);
    CHECK(r.regs_per_block_allocated == 16384);
}

TEST_CASE("MODEL.md seed: A100 with 48 KB dynamic shared memory per block -> 3 blocks (1 KB reserve, 164 KB carveout)") {
    const auto r = run(gpu("A100"), 256, 64, 48 * 1024, true);
    CHECK(r.ok());
    CHECK(r.smem_per_block_allocated == 49 * 1024);
    CHECK(r.smem_per_sm_configured == 164 * 1024);
    CHECK(r.limit_shared_memory == 3);
    CHECK(r.blocks_per_sm == 3);
    CHECK(r.limiters == kLimitSharedMemory);
    CHECK(r.occupancy == doctest::Approx(0.375));
    // 48 KB dynamic is allowed without opt-in: the limit is 48 KB + the 1 KB reserve.
    const auto no_optin = run(gpu("A100"), 256, 64, 48 * 1024, false);
    CHECK(no_optin.ok());
    CHECK(no_optin.blocks_per_sm == 3);
}

TEST_CASE("registers are allocated per warp in units of 256") {
    // 33 regs x 32 lanes = 1056 -> 1280.
    const auto r = run(gpu("A100"), 128, 33);
    CHECK(r.regs_per_warp_allocated == 1280);
    // V100, 255 regs: 8160 -> 8192 per warp; 16384 per sub-partition holds 2 warps x 4 = 8 warps = 1 block of 256.
    const auto v = run(gpu("V100"), 256, 255);
    CHECK(v.regs_per_warp_allocated == 8192);
    CHECK(v.blocks_per_sm == 1);
    CHECK(v.occupancy == doctest::Approx(8.0 / 64.0));
}

TEST_CASE("register file is split across the 4 sub-partitions") {
    // A100, 64-thread blocks (2 warps), 40 regs: 1280/warp; 16384/1280 = 12 warps per sub-partition
    // x 4 = 48 warps -> 24 blocks. A calculator that divides the whole file (65536/1280 = 51 warps)
    // would say 25.
    const auto r = run(gpu("A100"), 64, 40);
    CHECK(r.limit_registers == 24);
    CHECK(r.blocks_per_sm == 24);
}

TEST_CASE("per-block register checks, including the sub-partition rounding of the warp count") {
    // 1024 threads x 64 regs = 65536 registers = exactly the per-block limit.
    const auto ok = run(gpu("A100"), 1024, 64);
    CHECK(ok.ok());
    CHECK(ok.blocks_per_sm == 1);
    CHECK(ok.occupancy == doctest::Approx(0.5));
    // 1024 x 65 regs: 2304 per warp x 32 warps = 73728 > 65536.
    const auto over = run(gpu("A100"), 1024, 65);
    CHECK(over.blocks_per_sm == 0);
    CHECK(over.limit_registers == 0);
    CHECK(over.error_message().find("regs:") == 0);
    // 288 threads = 9 warps x 224 regs (7168 per warp): 64512 registers fit the limit, but the
    // hardware check counts 12 warps (9 rounded up to 4 sub-partitions) = 86016 > 65536.
    const auto hw = run(gpu("A100"), 288, 224);
    CHECK(hw.regs_per_block_allocated == 64512);
    CHECK(hw.blocks_per_sm == 0);
    CHECK_FALSE(hw.ok());
}

TEST_CASE("Turing: 1024 threads and 16 blocks per SM; carveout 32 or 64 KB") {
    const auto r = run(gpu("T4"), 256, 32);
    CHECK(r.max_warps_per_sm == 32);
    CHECK(r.limit_warps == 4);
    CHECK(r.blocks_per_sm == 4);
    CHECK(r.occupancy == doctest::Approx(1.0));
    const auto small = run(gpu("T4"), 32, 16);
    CHECK(small.limit_blocks == 16);
    CHECK(small.blocks_per_sm == 16);
    CHECK(small.occupancy == doctest::Approx(0.5));
    // Carveout 0 % still gives 32 KB: Turing has no smaller configuration.
    const auto c0 = run(gpu("T4"), 128, 32, 1024, false, 0, 0);
    CHECK(c0.smem_per_sm_configured == 32 * 1024);
}

TEST_CASE("carveout preference maps up to the next supported size, and grows when a block needs more") {
    // A100, carveout 50%: 50% of 164 KB = 82 KB -> 100 KB.
    const auto half = run(gpu("A100"), 128, 32, 0, false, 0, 50);
    CHECK(half.smem_per_sm_configured == 100 * 1024);
    // Carveout 0 with a 10 KB + 1 KB block: the driver picks 16 KB, the smallest size that fits it.
    const auto grow = run(gpu("A100"), 128, 32, 10 * 1024, false, 0, 0);
    CHECK(grow.smem_per_block_allocated == 11 * 1024);
    CHECK(grow.smem_per_sm_configured == 16 * 1024);
    CHECK(grow.limit_shared_memory == 1);
    // Default carveout = the maximum (164 KB on A100, 228 KB on H100, 100 KB on RTX 4090).
    CHECK(run(gpu("H100"), 128, 32).smem_per_sm_configured == 228 * 1024);
    CHECK(run(gpu("RTX-4090"), 128, 32).smem_per_sm_configured == 100 * 1024);
}

TEST_CASE("opt-in maximum: H100 227 KB per block, rounded in 128-byte units") {
    const auto r = run(gpu("H100"), 256, 32, 227 * 1024, true);
    CHECK(r.ok());
    CHECK(r.smem_per_block_allocated == 228 * 1024);
    CHECK(r.blocks_per_sm == 1);
    const auto over = run(gpu("H100"), 256, 32, 227 * 1024 + 1, true);
    CHECK(over.blocks_per_sm == 0);
    CHECK(over.error_message().find("max_dynamic_smem") != std::string::npos);
    // Without opt-in, 64 KB is over the 48 KB (+1 KB) limit; the message says how to fix it.
    const auto no = run(gpu("H100"), 256, 32, 64 * 1024, false);
    CHECK(no.blocks_per_sm == 0);
    CHECK(no.error_message().find("opt in") != std::string::npos);
    // Allocation unit: 100 B dynamic + 1 KB reserve = 1124 -> 1152 (128 B unit, 8.0+); 256 B before 8.0.
    CHECK(run(gpu("H100"), 64, 32, 100).smem_per_block_allocated == 1152);
    CHECK(run(gpu("V100"), 64, 32, 100).smem_per_block_allocated == 256);
}

TEST_CASE("one rule for what a block may use of shared memory") {
    // A100 ([ATG]): 48 KB without opt-in, 163 KB with it, + the 1 KB reserve in both.
    const ArchRules& a100 = *find_arch(8, 0);
    CHECK(block_smem_limit(a100, 0, false, -1).bytes == 49 * 1024);
    CHECK(block_smem_limit(a100, 0, true, -1).bytes == 164 * 1024);
    CHECK(SmemLimitRule(a100).optin_bytes() == 164 * 1024);
    CHECK(SmemLimitRule(a100).plain_bytes() == 49 * 1024);
    CHECK(block_smem_limit(a100, 4096, true, -1).device_max_dynamic == 163 * 1024 - 4096);
    CHECK(block_smem_limit(a100, 0, true, 1000).max_dynamic == 1000);
    // A small max_dynamic_smem keeps the 48 KB limit (the opt-in raises it only when needed).
    CHECK(block_smem_limit(a100, 0, true, 1000).bytes == 49 * 1024);
    // Volta: opt-in, no reserve in the limit.
    CHECK(block_smem_limit(*find_arch(7, 0), 0, true, -1).bytes == 96 * 1024);
    // Before Volta there is nothing to opt in to.
    const BlockSmemLimit p100 = block_smem_limit(*find_arch(6, 0), 0, true, -1);
    CHECK_FALSE(p100.optin);
    CHECK(p100.bytes == 48 * 1024);
    CHECK(p100.device_max_dynamic == 48 * 1024);
    // The model reports the same limit.
    const auto r = run(gpu("A100-SXM4-80GB"), 256, 32, 100 * 1024, true);
    CHECK(r.smem_per_block_limit == 164 * 1024);
}

TEST_CASE("named barriers limit blocks from 9.0 on") {
    // H100: 32 block slots x 2 barrier sets / 4 barriers = 16 blocks.
    const auto h = run(gpu("H100"), 32, 16, 0, false, 0, -1, 4);
    CHECK(h.limit_barriers == 16);
    CHECK(h.blocks_per_sm == 16);
    CHECK(h.limiters == kLimitBarriers);
    // RTX 5090 (12.0): 24 slots x 1 / 4 = 6.
    CHECK(run(gpu("RTX-5090"), 32, 16, 0, false, 0, -1, 4).limit_barriers == 6);
    // Before 9.0 the barrier limit is not modelled.
    CHECK(run(gpu("A100"), 32, 16, 0, false, 0, -1, 4).limit_barriers == kUnlimited);
}

TEST_CASE("partitioned global caching halves the SM on 5.2/6.1") {
    Device d = gpu("GTX-980");
    KernelResources k;
    k.regs_per_thread = 32;
    k.partitioned_gc = PartitionedGC::on;
    LaunchConfig l;
    l.threads = 640;  // 20 warps: 64 warps/SM -> 3 blocks, but only 1 per 32-warp half = 2
    const auto on = compute_occupancy(d, k, l);
    CHECK(on.partitioned_gc_active);
    CHECK(on.limit_warps == 2);
    k.partitioned_gc = PartitionedGC::off;
    CHECK(compute_occupancy(d, k, l).limit_warps == 3);
    // Not supported on 6.0 (P100): ignored.
    k.partitioned_gc = PartitionedGC::on;
    CHECK_FALSE(compute_occupancy(gpu("P100"), k, l).partitioned_gc_active);
}

TEST_CASE("invalid inputs give 0 blocks and a reason naming the field and range") {
    const Device a100 = gpu("A100");
    auto t0 = run(a100, 0, 32);
    CHECK(t0.blocks_per_sm == 0);
    CHECK(t0.error_message() == "threads must be 1..1024 (threads per block), got 0");
    auto t2 = run(a100, 2000, 32);
    CHECK(t2.blocks_per_sm == 0);
    CHECK(t2.error_message().find("threads must be 1..1024") == 0);
    auto r = run(a100, 256, 256);
    CHECK(r.blocks_per_sm == 0);
    CHECK(r.error_message() == "regs must be 0..255 (registers per thread), got 256");
    auto neg = run(a100, 256, 32, -1);
    CHECK(neg.error_message() == "smem_dynamic must be >= 0 bytes, got -1");
    auto c = run(a100, 256, 32, 0, false, 0, 101);
    CHECK(c.error_message() == "carveout must be -1 (default) or 0..100 percent, got 101");
    auto b = run(a100, 256, 32, 0, false, 0, -1, 17);
    CHECK(b.error_message() == "barriers must be 0..16 (named barriers per block), got 17");
    // Huge sizes do not overflow.
    auto huge = run(a100, 256, 32, std::int64_t{1} << 50);
    CHECK(huge.blocks_per_sm == 0);
    CHECK_FALSE(huge.ok());
}

TEST_CASE("properties: more registers or shared memory never raise occupancy; warps never exceed the SM") {
    std::mt19937 rng(7);
    for (const ArchRules& a : all_archs()) {
        const Device d = *device_for_cc(a.cc_major, a.cc_minor);
        for (int i = 0; i < 400; ++i) {
            const int threads = std::uniform_int_distribution<int>(1, 1024)(rng);
            const int regs = std::uniform_int_distribution<int>(0, 254)(rng);
            const std::int64_t dyn = std::uniform_int_distribution<std::int64_t>(0, a.smem_per_block_optin)(rng);
            const auto base = run(d, threads, regs, dyn, true);
            const auto more_regs = run(d, threads, regs + 1, dyn, true);
            const auto more_smem = run(d, threads, regs, dyn + 128, true);
            CHECK(more_regs.blocks_per_sm <= base.blocks_per_sm);
            CHECK(more_smem.blocks_per_sm <= base.blocks_per_sm);
            CHECK(base.warps_per_sm <= a.max_warps_per_sm());
            CHECK(base.blocks_per_sm <= a.max_blocks_per_sm);
            CHECK(base.occupancy <= 1.0);
            CHECK(blocks_per_sm_fast(a, KernelResources{regs, 0, 1, true, -1, PartitionedGC::off},
                                     LaunchConfig{threads, dyn, -1, CacheConfig::none, 0}) == base.blocks_per_sm);
        }
    }
}

// cuda_occupancy.h (CUDA 13): 128 virtual resources per SM on 10.x-12.x; a kernel declaring v per
// block fits floor(128 / v) blocks (tests/diff checks every count against the header).
TEST_CASE("virtual resources limit blocks from 10.0 on, only when the kernel declares a count") {
    auto virt = [](const Device& d, int threads, int v) {
        KernelResources k;
        k.regs_per_thread = 16;
        k.virtual_resources = v;
        LaunchConfig l;
        l.threads = threads;
        return compute_occupancy(d, k, l);
    };
    const Device b200 = gpu("B200");
    const OccupancyResult none = virt(b200, 32, 0);
    CHECK(none.limit_virtual_resources == kUnlimited);
    CHECK(none.blocks_per_sm == 32);               // block slots
    const OccupancyResult v8 = virt(b200, 32, 8);  // 128 / 8 = 16
    CHECK(v8.ok());
    CHECK(v8.limit_virtual_resources == 16);
    CHECK(v8.blocks_per_sm == 16);
    CHECK(v8.limiters == kLimitVirtualResources);
    CHECK(virt(b200, 32, 5).blocks_per_sm == 25);                                  // floor(128 / 5)
    CHECK(virt(b200, 32, 4).limiters == (kLimitBlocks | kLimitVirtualResources));  // 32 = 32
    CHECK(virt(b200, 1024, 8).blocks_per_sm == 2);                                 // warps limit first
    CHECK(virt(gpu("RTX-5090"), 32, 64).blocks_per_sm == 2);
    // Before 10.0 the header has no such limit.
    const OccupancyResult h = virt(gpu("H100"), 32, 8);
    CHECK(h.ok());
    CHECK(h.limit_virtual_resources == kUnlimited);
    CHECK(h.blocks_per_sm == 32);
    // More than the SM has: no block fits; a negative count is an input error.
    const OccupancyResult many = virt(b200, 32, 129);
    CHECK(many.blocks_per_sm == 0);
    CHECK(many.limit_virtual_resources == 0);
    CHECK(many.error_message() ==
          "virtual_resources: 129 per block is more than the 128 an SM has on compute capability 10.0: no block fits");
    const OccupancyResult neg = virt(b200, 32, -1);
    CHECK(neg.error_message() == "virtual_resources must be >= 0 (virtual resources per block, 0 = none), got -1");
    KernelResources k;
    k.virtual_resources = -1;
    CHECK(blocks_per_sm_fast(b200.arch, k, LaunchConfig{}) == -1);
    // The table path agrees.
    const PreparedDevice p(b200.arch);
    for (int v : {0, 1, 3, 8, 64, 128, 129, 1000}) {
        CAPTURE(v);
        CHECK(p.blocks_per_sm(64, 16, 0, 0, false, 1, v) == virt(b200, 64, v).blocks_per_sm);
    }
    CHECK(p.blocks_per_sm(64, 16, 0, 0, false, 1, -1) == -1);
    CHECK(PreparedDevice(gpu("A100").arch).blocks_per_sm(64, 16, 0, 0, false, 1, 1000) == virt(gpu("A100"), 64, 1000).blocks_per_sm);
}

TEST_CASE("virtual_resources in requests: read, echoed and reported only when given") {
    using occ::io::json;
    const json plain = occ::io::handle("occupancy", json{{"gpu", "B200"}, {"threads", 32}});
    CHECK_FALSE(plain["input"].contains("virtual_resources"));
    CHECK_FALSE(plain["limits"].contains("virtual_resources"));
    const json r = occ::io::handle("occupancy", json{{"gpu", "B200"}, {"threads", 32}, {"virtual_resources", 8}});
    REQUIRE(r["error"].is_null());
    CHECK(r["input"]["virtual_resources"] == 8);
    CHECK(r["limits"]["virtual_resources"] == 16);
    CHECK(r["blocks_per_sm"] == 16);
    CHECK(r["limiters"] == json::array({"virtual_resources"}));
    const json h = occ::io::handle("occupancy", json{{"gpu", "H100"}, {"virtual_resources", 8}});
    CHECK(h["limits"]["virtual_resources"].is_null());
    CHECK(occ::io::handle("occupancy", json{{"virtual_resources", "many"}})["error"] ==
          "virtual_resources: must be an integer >= 0 (virtual resources per block, 0 = none), got \"many\"");
    // The kinds that share the launch fields take it too.
    CHECK(occ::io::handle("waves", json{{"gpu", "B200"}, {"threads", 32}, {"virtual_resources", 8}, {"grid", 1000}})["error"].is_null());
    const json c = occ::io::handle("clusters", json{{"gpu", "B200"}, {"threads", 32}, {"virtual_resources", 64}, {"cluster_size", 2}});
    REQUIRE(c["error"].is_null());
    CHECK(c["blocks_per_sm"] == 2);
}
