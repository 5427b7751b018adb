// compute_occupancy()'s two paths held to each other: the per-architecture tables it builds for
// rules it has seen several times (occupancy.cpp, [SECTION] Tables) and the rules read from
// ArchRules on every call (occ::detail::compute_occupancy_untabled). Every field, the refusal's code,
// the numbers its message quotes and (on a sample) the message itself must be the same, on every
// architecture, for the queries the tables answer and for the ones they hand back.
#include <doctest/doctest.h>

#include <random>

#include "occ/device.hpp"
#include "occ/gpu_cache.hpp"
#include "occ/occupancy.hpp"

using namespace occ;

namespace {

struct Query {
    KernelResources k;
    LaunchConfig l;
};

// The same answer, field by field; false names the first difference in a doctest message.
bool same(const OccupancyResult& a, const OccupancyResult& b, bool with_message) {
    bool eq = a.limit_warps == b.limit_warps && a.limit_registers == b.limit_registers && a.limit_shared_memory == b.limit_shared_memory &&
              a.limit_blocks == b.limit_blocks && a.limit_barriers == b.limit_barriers &&
              a.limit_virtual_resources == b.limit_virtual_resources && a.limiters == b.limiters && a.blocks_per_sm == b.blocks_per_sm &&
              a.warps_per_block == b.warps_per_block && a.warps_per_sm == b.warps_per_sm && a.threads_per_sm == b.threads_per_sm &&
              a.max_warps_per_sm == b.max_warps_per_sm && a.occupancy == b.occupancy &&
              a.regs_per_warp_allocated == b.regs_per_warp_allocated && a.regs_per_block_allocated == b.regs_per_block_allocated &&
              a.smem_per_block_allocated == b.smem_per_block_allocated && a.smem_per_sm_configured == b.smem_per_sm_configured &&
              a.smem_per_block_limit == b.smem_per_block_limit && a.partitioned_gc_active == b.partitioned_gc_active &&
              a.error_code == b.error_code;
    // The quoted numbers are stored only with a refusal (raw bytes otherwise).
    if (eq && !a.ok())
        for (int i = 0; i < OccupancyResult::kErrorArgs; ++i) eq = eq && a.error_arg(i) == b.error_arg(i);
    if (eq && with_message) eq = a.error_message() == b.error_message();
    return eq;
}

Query random_query(std::mt19937_64& rng, const ArchRules& a, bool common) {
    auto pick = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
    Query q;
    q.l.threads = static_cast<int>(pick(1, a.max_threads_per_block));
    q.k.regs_per_thread = static_cast<int>(pick(0, a.max_regs_per_thread));
    const std::int64_t top = a.smem_per_block_optin + 4096;
    switch (pick(0, 4)) {
        case 0: break;
        case 1:
            q.k.smem_static = pick(0, 4096);
            q.l.smem_dynamic = pick(0, 16384);
            break;
        case 2: q.k.smem_static = pick(0, 49152); break;
        case 3: q.l.smem_dynamic = pick(0, top); break;
        default:
            q.k.smem_static = pick(0, 12288);
            q.l.smem_dynamic = pick(0, top);
            break;
    }
    q.k.optin = pick(0, 1) == 1;
    q.k.barriers = static_cast<int>(pick(0, 16));
    if (common) return q;
    // Anything else the model takes, in range and out of it.
    switch (pick(0, 9)) {
        case 0: q.l.carveout = static_cast<int>(pick(-1, 100)); break;
        case 1: q.l.cache_config = static_cast<CacheConfig>(pick(0, 3)); break;
        case 2: q.k.partitioned_gc = static_cast<PartitionedGC>(pick(0, 2)); break;
        case 3: q.k.max_dynamic_smem = pick(-1, a.smem_per_block_optin + 1024); break;
        case 4: q.k.virtual_resources = static_cast<int>(pick(0, 200)); break;
        case 5: q.l.threads = static_cast<int>(pick(-2, 2048)); break;
        case 6: q.k.regs_per_thread = static_cast<int>(pick(-2, 300)); break;
        case 7: q.k.barriers = static_cast<int>(pick(-1, 20)); break;
        case 8: q.k.smem_static = pick(-2, std::int64_t{1} << 31); break;
        default: q.l.smem_dynamic = pick(-2, std::int64_t{1} << 31); break;
    }
    return q;
}

// Asks until the rules have tables (they are built after a few calls with the same rules).
void warm(const Device& dev) {
    for (int i = 0; i < 64; ++i) (void)compute_occupancy(dev, KernelResources{}, LaunchConfig{});
}

void check_paths(const Device& dev, std::mt19937_64& rng, int samples) {
    int differences = 0;
    for (int i = 0; i < samples; ++i) {
        const Query q = random_query(rng, dev.arch, i % 4 != 0);
        const OccupancyResult tabled = compute_occupancy(dev, q.k, q.l);
        const OccupancyResult untabled = detail::compute_occupancy_untabled(dev, q.k, q.l);
        const int fast = blocks_per_sm_fast(dev.arch, q.k, q.l);
        using E = OccupancyError;
        const E code = untabled.error_code;
        const bool input_error = code == E::threads_range || code == E::regs_range || code == E::smem_negative ||
                                 code == E::carveout_range || code == E::barriers_range || code == E::virtual_range;
        const bool eq = same(tabled, untabled, i % 64 == 0) && fast == (input_error ? -1 : untabled.blocks_per_sm);
        if (!eq && ++differences <= 5)
            FAIL_CHECK("cc " << dev.arch.cc_major << "." << dev.arch.cc_minor << ": threads " << q.l.threads << " regs "
                             << q.k.regs_per_thread << " static " << q.k.smem_static << " dynamic " << q.l.smem_dynamic << " optin "
                             << q.k.optin << " barriers " << q.k.barriers << " carveout " << q.l.carveout << ": blocks "
                             << tabled.blocks_per_sm << " vs " << untabled.blocks_per_sm << ", code " << static_cast<int>(tabled.error_code)
                             << " vs " << static_cast<int>(untabled.error_code));
    }
    CHECK(differences == 0);
}

}  // namespace

TEST_CASE("the table path gives compute_occupancy's answer on every architecture, field by field") {
    std::mt19937_64 rng(20261201);
    for (const ArchRules& a : all_archs()) {
        CAPTURE(a.cc_major);
        CAPTURE(a.cc_minor);
        const Device dev = *device_for_cc(a.cc_major, a.cc_minor);
        const bool room = !detail::occupancy_tables_full();  // other test cases may have used the slots
        warm(dev);
        // Every part in the database gets tables except GP100 (its GP10x register check stays on
        // the general path).
        if (room) CHECK(detail::occupancy_tables_ready(dev.arch) == (a.compat_subpartitions == 0));
        check_paths(dev, rng, 40000);
        // Every block size and register count, no shared memory and 40 KiB (with the opt-in).
        int differences = 0;
        for (int threads = 1; threads <= a.max_threads_per_block; ++threads)
            for (int regs = 0; regs <= a.max_regs_per_thread; regs += threads % 7 + 1) {
                Query q;
                q.l.threads = threads;
                q.k.regs_per_thread = regs;
                q.l.smem_dynamic = threads % 2 ? 0 : 40960;
                q.k.optin = threads % 4 == 0;
                differences += !same(compute_occupancy(dev, q.k, q.l), detail::compute_occupancy_untabled(dev, q.k, q.l), false);
            }
        CHECK(differences == 0);
    }
}

TEST_CASE("the table path: custom rules, including ones whose tables stay unused, answer as the general path") {
    std::mt19937_64 rng(7);
    Device dev = *find_gpu("A100-SXM4-80GB");
    SUBCASE("smaller carveout than the opt-in limit (a block within its limit may need a larger carveout)") {
        dev.arch.carveout_steps[static_cast<std::size_t>(dev.arch.carveout_step_count - 1)] = 100 * 1024;
        dev.arch.smem_per_sm = 100 * 1024;
    }
    SUBCASE("a register allocation unit and shared-memory unit that are not powers of two") {
        dev.arch.reg_alloc_unit = 384;
        dev.arch.smem_alloc_unit = 384;
    }
    SUBCASE("a per-block register limit below the register file") { dev.arch.regs_per_block = 32768; }
    SUBCASE("no opt-in, no reserve, 64 warps of 32 threads and 48 blocks") {
        dev.arch.smem_optin = false;
        dev.arch.smem_reserved_per_block = 0;
        dev.arch.max_blocks_per_sm = 48;
    }
    warm(dev);
    check_paths(dev, rng, 40000);
    // Changing the rules in place changes the answer at once (the tables are keyed by content).
    const OccupancyResult before = compute_occupancy(dev, KernelResources{}, LaunchConfig{});
    dev.arch.max_threads_per_sm /= 2;
    const OccupancyResult after = compute_occupancy(dev, KernelResources{}, LaunchConfig{});
    CHECK(after.max_warps_per_sm == before.max_warps_per_sm / 2);
    CHECK(same(after, detail::compute_occupancy_untabled(dev, KernelResources{}, LaunchConfig{}), true));
}

TEST_CASE("the table path: devices from find_gpu_cached are found by address and answer as the general path") {
    std::mt19937_64 rng(11);
    for (const char* name : {"A100-SXM4-80GB", "H100-SXM5-80GB", "RTX 4090", "V100-SXM2-32GB", "GTX 1080"}) {
        CAPTURE(name);
        const Device* dev = find_gpu_cached(name);
        REQUIRE(dev != nullptr);
        CHECK(detail::occupancy_tables_ready(dev->arch));  // at once: no warm-up
        check_paths(*dev, rng, 20000);
    }
}
