// Differential test: occ::core against the CUDA toolkit's own occupancy calculator.
//
// cuda_occupancy.h is NVIDIA-proprietary. It is #included from the installed toolkit as a test
// oracle only; none of its code is copied into occ. For every compute capability occ models, this
// compares EVERY block size 1..1024 × EVERY register count 0..255, each with shared memory,
// carveout, cache preference, opt-in, barriers, partitioned caching and the virtual-resource count
// sampled from a seeded generator, plus dense sweeps of shared memory, carveout and every
// virtual-resource count 0..200. Every per-resource limit, the allocations and the final block
// count must agree exactly.
#include <cuda_occupancy.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "occ/device.hpp"
#include "occ/occupancy.hpp"
#include "occ/prepared.hpp"
#include "oracle_prop.hpp"

#include <map>
#include <memory>
#include <tuple>

namespace {

struct Counters {
    long long compared = 0;
    long long prepared_compared = 0;
    long long fast_compared = 0;  // also through blocks_per_sm_fast and the untabled general path
    long long mismatches = 0;
    long long stale_flag_cases = 0;  // oracle keeps a limiter flag that barriers made stale
};

struct Sample {
    int threads, regs;
    long long smem_static, smem_dynamic;
    int carveout;
    occ::CacheConfig cache;
    bool optin;
    long long max_dyn;  // -1 = derived from optin
    int barriers;
    occ::PartitionedGC pgc;
    int virt = 0;  // virtualResourceCount (0 = none)
};

int oracle_int(int v) { return v == INT_MAX ? occ::kUnlimited : v; }

// PreparedDevice tables for one architecture, one per (carveout, cache preference, partitioned caching).
struct PreparedCache {
    std::map<std::tuple<int, int, int>, std::unique_ptr<occ::PreparedDevice>> tables;
    const occ::PreparedDevice& get(const occ::ArchRules& a, int carveout, occ::CacheConfig cache, occ::PartitionedGC pgc) {
        auto& slot = tables[{carveout, int(cache), int(pgc)}];
        if (!slot) slot = std::make_unique<occ::PreparedDevice>(a, carveout, cache, pgc);
        return *slot;
    }
};

void compare(const occ::Device& dev, const cudaOccDeviceProp& prop, const Sample& s, Counters& c, PreparedCache& pc) {
    const occ::ArchRules& a = dev.arch;
    occ::KernelResources k;
    k.regs_per_thread = s.regs;
    k.smem_static = s.smem_static;
    k.barriers = s.barriers;
    k.optin = s.optin;
    k.max_dynamic_smem = s.max_dyn;
    k.partitioned_gc = s.pgc;
    k.virtual_resources = s.virt;
    occ::LaunchConfig l;
    l.threads = s.threads;
    l.smem_dynamic = s.smem_dynamic;
    l.carveout = s.carveout;
    l.cache_config = s.cache;
    const occ::OccupancyResult r = occ::compute_occupancy(dev, k, l);

    cudaOccFuncAttributes attr;
    attr.maxThreadsPerBlock = 1024;
    attr.numRegs = s.regs;
    attr.sharedSizeBytes = static_cast<size_t>(s.smem_static);
    attr.partitionedGCConfig = s.pgc == occ::PartitionedGC::off  ? PARTITIONED_GC_OFF
                               : s.pgc == occ::PartitionedGC::on ? PARTITIONED_GC_ON
                                                                 : PARTITIONED_GC_ON_STRICT;
    // occ's opt-in switch = the kernel called cudaFuncSetAttribute(MaxDynamicSharedMemorySize); the
    // oracle expresses that as FUNC_SHMEM_LIMIT_OPTIN plus the attribute's value. Opt-in exists from 7.0.
    const bool optin_cfg = a.cc_major >= 7 && (s.optin || s.max_dyn >= 0);
    attr.shmemLimitConfig = optin_cfg ? FUNC_SHMEM_LIMIT_OPTIN : FUNC_SHMEM_LIMIT_DEFAULT;
    long long dev_max = a.smem_per_block_optin - s.smem_static;
    if (dev_max < 0) dev_max = 0;
    attr.maxDynamicSharedSizeBytes = static_cast<size_t>(s.max_dyn >= 0 ? s.max_dyn : dev_max);
    attr.numBlockBarriers = s.barriers;
    attr.virtualResourceCount = s.virt;
    cudaOccDeviceState state;
    state.carveoutConfig = s.carveout;
    state.cacheConfig = s.cache == occ::CacheConfig::prefer_shared  ? CACHE_PREFER_SHARED
                        : s.cache == occ::CacheConfig::prefer_l1    ? CACHE_PREFER_L1
                        : s.cache == occ::CacheConfig::prefer_equal ? CACHE_PREFER_EQUAL
                                                                    : CACHE_PREFER_NONE;
    cudaOccResult o{};
    const cudaOccError st = cudaOccMaxActiveBlocksPerMultiprocessor(&o, &prop, &attr, &state, s.threads,
                                                                    static_cast<size_t>(s.smem_dynamic));
    ++c.compared;

    bool ok = st == CUDA_OCC_SUCCESS;
    if (ok) {
        ok = o.activeBlocksPerMultiprocessor == r.blocks_per_sm && oracle_int(o.blockLimitWarps) == r.limit_warps &&
             oracle_int(o.blockLimitRegs) == r.limit_registers && oracle_int(o.blockLimitSharedMem) == r.limit_shared_memory &&
             oracle_int(o.blockLimitBlocks) == r.limit_blocks && oracle_int(o.blockLimitBarriers) == r.limit_barriers &&
             oracle_int(o.blockLimitVirtual) == r.limit_virtual_resources && o.allocatedRegistersPerBlock == r.regs_per_block_allocated &&
             static_cast<long long>(o.allocatedSharedMemPerBlock) == r.smem_per_block_allocated &&
             (o.partitionedGCConfig != PARTITIONED_GC_OFF) == r.partitioned_gc_active;
        // Limiting factors. The oracle flags warps/regs/smem/blocks/virtual resources against the
        // block count BEFORE the barrier limit is applied; occ flags every resource equal to the final count.
        // They agree exactly unless barriers lowered the count (counted, and checked separately).
        unsigned mine = r.limiters;
        const int pre_barrier = std::min(
            {r.limit_warps, r.limit_registers, r.limit_shared_memory, r.limit_blocks, r.limit_virtual_resources});
        if (r.limit_barriers < pre_barrier) {
            ++c.stale_flag_cases;
            ok = ok && (o.limitingFactors & OCC_LIMIT_BARRIERS) && (mine == occ::kLimitBarriers);
        } else {
            ok = ok && (o.limitingFactors & 0x3f) == mine;
        }
    }
    // Every other way to the block count: the bare count (blocks_per_sm_fast, through the tables where
    // they apply), and the whole answer on the general path alone (no tables).
    if (st == CUDA_OCC_SUCCESS) {
        const int fast = occ::blocks_per_sm_fast(a, k, l);
        const occ::OccupancyResult g = occ::detail::compute_occupancy_untabled(dev, k, l);
        ++c.fast_compared;
        if (fast != o.activeBlocksPerMultiprocessor || g.blocks_per_sm != o.activeBlocksPerMultiprocessor || g.limiters != r.limiters ||
            g.limit_registers != r.limit_registers || g.limit_shared_memory != r.limit_shared_memory || g.error_code != r.error_code) {
            ok = false;
            std::printf("FAST/GENERAL MISMATCH: blocks_per_sm_fast=%d untabled=%d oracle=%d\n", fast, g.blocks_per_sm,
                        o.activeBlocksPerMultiprocessor);
        }
    }
    // The prepared (table) path must give the same block count.
    if (s.max_dyn < 0) {
        ++c.prepared_compared;
        const int p = pc.get(a, s.carveout, s.cache, s.pgc)
                          .blocks_per_sm(s.threads, s.regs, s.smem_static, s.smem_dynamic, s.optin, s.barriers, s.virt);
        if (st == CUDA_OCC_SUCCESS && p != o.activeBlocksPerMultiprocessor) {
            ok = false;
            std::printf("PREPARED MISMATCH: prepared=%d oracle=%d\n", p, o.activeBlocksPerMultiprocessor);
        }
    }
    if (!ok) {
        if (++c.mismatches <= 20) {
            std::printf(
                "MISMATCH cc %d.%d threads=%d regs=%d static=%lld dyn=%lld carveout=%d cache=%d optin=%d max_dyn=%lld barriers=%d pgc=%d "
                "virt=%d\n",
                a.cc_major, a.cc_minor, s.threads, s.regs, s.smem_static, s.smem_dynamic, s.carveout, int(s.cache), int(s.optin), s.max_dyn,
                s.barriers, int(s.pgc), s.virt);
            std::printf(
                "  oracle: status=%d blocks=%d warps=%d regs=%d smem=%d blk=%d bar=%d virt=%d regalloc=%d smemalloc=%zu flags=%x gc=%d\n",
                int(st), o.activeBlocksPerMultiprocessor, o.blockLimitWarps, o.blockLimitRegs, o.blockLimitSharedMem, o.blockLimitBlocks,
                o.blockLimitBarriers, o.blockLimitVirtual, o.allocatedRegistersPerBlock, o.allocatedSharedMemPerBlock, o.limitingFactors,
                int(o.partitionedGCConfig));
            std::printf(
                "  occ:    error=\"%s\" blocks=%d warps=%d regs=%d smem=%d blk=%d bar=%d virt=%d regalloc=%d smemalloc=%lld flags=%x "
                "gc=%d\n",
                r.error_message().c_str(), r.blocks_per_sm, r.limit_warps, r.limit_registers, r.limit_shared_memory, r.limit_blocks,
                r.limit_barriers, r.limit_virtual_resources, r.regs_per_block_allocated, static_cast<long long>(r.smem_per_block_allocated),
                r.limiters, int(r.partitioned_gc_active));
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    // OCC_DIFF_VARIANTS: samples per (block size, registers) point; default 2.
    int variants = 2;
    if (const char* v = std::getenv("OCC_DIFF_VARIANTS")) variants = std::max(1, std::atoi(v));
    // --docs FILE...: the count these files state ("13,717,232 configurations") must be this run's,
    // so README and docs/MODEL.md say what the test does.
    std::vector<std::string> docs;
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) != "--docs") docs.emplace_back(argv[i]);
    const auto t0 = std::chrono::steady_clock::now();
    Counters c;
    std::mt19937_64 rng(20261130);
    auto pick = [&](long long lo, long long hi) { return std::uniform_int_distribution<long long>(lo, hi)(rng); };

    for (const occ::ArchRules& a : occ::all_archs()) {
        const occ::Device dev = *occ::device_for_cc(a.cc_major, a.cc_minor);
        const cudaOccDeviceProp prop = oracle_prop(a);
        const long long before = c.compared;
        PreparedCache pc;
        auto random_sample = [&](int threads, int regs) {
            Sample s{};
            s.threads = threads;
            s.regs = regs;
            // Shared memory: often none, often small, sometimes near or over each limit.
            const long long top = a.smem_per_block_optin + 4096;
            switch (pick(0, 5)) {
                case 0:
                    s.smem_static = 0;
                    s.smem_dynamic = 0;
                    break;
                case 1:
                    s.smem_static = pick(0, 4096);
                    s.smem_dynamic = pick(0, 16384);
                    break;
                case 2:
                    s.smem_static = pick(0, 49152);
                    s.smem_dynamic = 0;
                    break;
                case 3:
                    s.smem_static = 0;
                    s.smem_dynamic = pick(0, top);
                    break;
                case 4:
                    s.smem_static = pick(0, 12288);
                    s.smem_dynamic = pick(0, top);
                    break;
                default:
                    s.smem_static = pick(0, 64) * 128;
                    s.smem_dynamic = pick(0, top / 1024) * 1024;
                    break;
            }
            s.carveout = pick(0, 2) == 0 ? -1 : static_cast<int>(pick(0, 100));
            s.cache = static_cast<occ::CacheConfig>(pick(0, 3));
            s.optin = pick(0, 1) == 1;
            s.max_dyn = pick(0, 5) == 0 ? pick(0, std::max<long long>(0, a.smem_per_block_optin - s.smem_static)) : -1;
            s.barriers = static_cast<int>(pick(0, 3) == 0 ? pick(0, 16) : 1);
            s.pgc = static_cast<occ::PartitionedGC>(pick(0, 2));
            // Virtual resources: mostly none, sometimes any count up to past the SM's (128 on 10.x+).
            s.virt = pick(0, 3) == 0 ? static_cast<int>(pick(0, 160)) : 0;
            return s;
        };
        // 1. Exhaustive block size × registers, each with sampled other inputs.
        for (int t = 1; t <= 1024; ++t)
            for (int r = 0; r <= 255; ++r)
                for (int v = 0; v < variants; ++v) compare(dev, prop, random_sample(t, r), c, pc);
        // 2. Dense shared-memory sweep (every 64 B up to opt-in + 2 KB) × carveouts at a few shapes.
        for (int shape = 0; shape < 4; ++shape) {
            const int threads = shape == 0 ? 32 : shape == 1 ? 128 : shape == 2 ? 256 : 1024;
            for (long long dyn = 0; dyn <= a.smem_per_block_optin + 2048; dyn += 64)
                for (int carve : {-1, 0, 10, 25, 50, 60, 75, 100}) {
                    Sample s{threads, 32, 0, dyn, carve, occ::CacheConfig::none, dyn > 49152, -1, 1, occ::PartitionedGC::off};
                    compare(dev, prop, s, c, pc);
                    s.smem_static = 1000;
                    s.cache = occ::CacheConfig::prefer_l1;
                    compare(dev, prop, s, c, pc);
                }
        }
        // 3. Every carveout × cache preference × a spread of per-block sizes.
        for (int carve = -1; carve <= 100; ++carve)
            for (int cache = 0; cache < 4; ++cache)
                for (long long dyn = 0; dyn <= a.smem_per_block_optin; dyn += 4096) {
                    Sample s{128, 40, 512, dyn, carve, static_cast<occ::CacheConfig>(cache), true, -1, 2, occ::PartitionedGC::off};
                    compare(dev, prop, s, c, pc);
                }
        // 4. Every virtual-resource count 0..200 at a few shapes, with and without a competing limit.
        for (int v = 0; v <= 200; ++v)
            for (int threads : {32, 64, 256, 1024})
                for (int regs : {0, 32, 128}) {
                    Sample s{threads, regs, 0, 0, -1, occ::CacheConfig::none, false, -1, 1, occ::PartitionedGC::off, v};
                    compare(dev, prop, s, c, pc);
                    s.barriers = 4;
                    s.smem_dynamic = 8192;
                    compare(dev, prop, s, c, pc);
                }
        std::printf("cc %2d.%d  %10lld configurations compared\n", a.cc_major, a.cc_minor, c.compared - before);
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("\n%lld configurations compared against cuda_occupancy.h (header supports up to cc %d.%d) in %.1f s\n", c.compared,
                __CUDA_OCC_MAJOR__, __CUDA_OCC_MINOR__, secs);
    std::printf("%lld cases where barriers lowered the count (oracle keeps stale limiter flags; occ flags the barrier only)\n",
                c.stale_flag_cases);
    std::printf("%lld of them also through occ::PreparedDevice (the table path)\n", c.prepared_compared);
    std::printf("%lld of them also through occ::blocks_per_sm_fast and the general path without tables\n", c.fast_compared);
    std::printf("%lld mismatches\n", c.mismatches);
    int stale_docs = 0;
    if (variants == 2 && !docs.empty()) {
        std::string count = std::to_string(c.compared);  // with thousands separators, as the docs print it
        for (int at = static_cast<int>(count.size()) - 3; at > 0; at -= 3) count.insert(static_cast<std::size_t>(at), ",");
        for (const std::string& path : docs) {
            std::ifstream f(path);
            std::stringstream ss;
            ss << f.rdbuf();
            if (ss.str().find(count + " configurations") == std::string::npos) {
                std::printf("DOCS: %s does not state this run's count (\"%s configurations\")\n", path.c_str(), count.c_str());
                ++stale_docs;
            }
        }
    }
    const bool ok = c.mismatches == 0 && stale_docs == 0;
    std::printf("%d passed, %d failed\n", ok ? 1 : 0, ok ? 0 : 1);
    return ok ? 0 : 1;
}
