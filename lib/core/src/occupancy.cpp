// occupancy.cpp — the occupancy model.
//
// [SECTION] Rules         one function per resource, each citing its source
// [SECTION] Core          compute_limits(): every limit, no strings, no allocation (used by sweeps)
// [SECTION] Tables        the same rules worked out once per architecture: the query path for rules seen again
// [SECTION] Public API    compute_occupancy(): the same numbers plus the refusal's code (worded in occupancy_errors.cpp)
#include "occ/occupancy.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <utility>
#include <vector>

#include "lane_rank.hpp"  // OCC_HOT_CLONES
#include "occupancy_tables.hpp"

namespace occ {
namespace {

inline int div_up(int x, int y) { return (x + y - 1) / y; }
inline int round_up(int x, int y) { return div_up(x, y) * y; }
inline std::int64_t round_up64(std::int64_t x, std::int64_t y) { return (x + y - 1) / y * y; }

// The query path divides by the device's constants (warp size, allocation units, sub-partitions:
// powers of two on every part) and by small counts (warps per block, allocation units per warp,
// barriers: 1..64). A shift or a multiply does either exactly; the plain division stays for the
// rest (custom devices, out-of-range inputs). Branches on device constants are always predicted.
inline bool pow2(int y) { return y > 0 && (y & (y - 1)) == 0; }
inline int div_p2(int x, int y) { return pow2(y) ? x >> __builtin_ctz(static_cast<unsigned>(y)) : x / y; }  // x >= 0
inline int round_up_p2(int x, int y) { return pow2(y) ? (x + y - 1) & -y : round_up(x, y); }                // x >= 0
inline std::int64_t round_up64_p2(std::int64_t x, std::int64_t y) {
    return pow2(static_cast<int>(y)) ? (x + y - 1) & -y : round_up64(x, y);
}
// floor(n / d) for d in 1..64 and 0 <= n < 2^16 as (n * ceil(2^32 / d)) >> 32, exact for 16-bit n and d
// (Lemire, Kaser, Kurz, "Faster remainder by direct computation", 2019, Theorem 1; tests/unit checks every pair).
struct Reciprocals {
    std::uint64_t c[65] = {};
    constexpr Reciprocals() {
        for (std::uint64_t d = 1; d <= 64; ++d) c[d] = ((std::uint64_t{1} << 32) + d - 1) / d;
    }
};
inline constexpr Reciprocals kReciprocals{};
inline int div_small(int n, int d) {
    if (static_cast<unsigned>(d - 1) < 64u && static_cast<unsigned>(n) < 65536u)
        return static_cast<int>((static_cast<std::uint64_t>(n) * kReciprocals.c[d]) >> 32);
    return n / d;
}

using Fail = OccupancyError;

// What the core works out beside the result's own fields (the refusal's numbers read them).
struct Extra {
    int regs_per_block_assumed = 0;
    int rounded_warps = 0;  // the table path's warps per block rounded to sub-partitions
    std::int64_t max_dyn = 0;
    Fail fail = Fail::none;
};

// Sizes are capped at 1 GiB so every product below stays far inside 64-bit range.
constexpr std::int64_t kSizeCap = std::int64_t{1} << 30;

// [SECTION] Rules

// Shared memory per SM the preference asks for.
// Volta+: cudaFuncAttributePreferredSharedMemoryCarveout is a percentage of the maximum; the driver
// rounds it up to the next supported carveout ([VTG]/[ATG]/[HTG] §"Unified Shared Memory/L1").
// When the carveout is left at its default, cudaFuncSetCacheConfig maps onto it: prefer-L1 = 0 %,
// prefer-shared = 100 %, equal = 50 % (CUDA Runtime API, cudaFuncSetCacheConfig notes).
// Kepler: 16/32/48 KB L1 out of 64 KB ([PG] "Compute Capability 3.x: Shared Memory").
// Maxwell/Pascal: dedicated shared memory, no preference ([PG] 5.x/6.x).
// The smallest carveout step >= want, or -1. The steps ascend (tests/unit/test_occupancy.cpp checks
// every architecture), so the scan starts at the top: the default (the largest) is found at once.
std::int64_t step_at_least(const ArchRules& a, std::int64_t want) {
    std::int64_t found = -1;
    for (int i = a.carveout_step_count - 1; i >= 0 && a.carveout_steps[static_cast<std::size_t>(i)] >= want; --i)
        found = a.carveout_steps[static_cast<std::size_t>(i)];
    return found;
}

std::int64_t preferred_smem(const ArchRules& a, int carveout, CacheConfig cache) {
    const std::int64_t max = a.smem_per_sm;
    if (a.smem_config == SmemConfig::carveout) {
        int pct = carveout;
        if (pct < 0) {
            switch (cache) {
                case CacheConfig::prefer_l1: pct = 0; break;
                case CacheConfig::prefer_shared: pct = 100; break;
                case CacheConfig::prefer_equal: pct = 50; break;
                case CacheConfig::none: pct = -1; break;
            }
        }
        return step_at_least(a, pct < 0 ? max : (static_cast<std::int64_t>(pct) * max) / 100);
    }
    if (a.smem_config == SmemConfig::l1_split) {
        const std::int64_t low = max + 16 * 1024 - 48 * 1024;  // 48 KB L1
        switch (cache) {
            case CacheConfig::prefer_l1: return low;
            case CacheConfig::prefer_equal: return (max + low) / 2;
            default: return max;
        }
    }
    return max;
}

}  // namespace

std::int64_t configured_smem_per_sm(const ArchRules& a, int carveout, CacheConfig cache, std::int64_t alloc) {
    const std::int64_t pref = preferred_smem(a, carveout, cache);
    if (pref >= alloc) return pref;
    // The preference is only a hint: when one block needs more, Volta+ picks the smallest
    // carveout that holds it ([ATG] §1.4.2.3); older parts always have the full amount.
    if (a.smem_config == SmemConfig::carveout) return step_at_least(a, alloc);
    return a.smem_per_sm;
}

namespace {

// [SECTION] Core
// Every limit into o (the result's own fields), the rest into x. Writes nothing on an input error.
[[gnu::always_inline]] inline void compute_limits(const ArchRules& a, const KernelResources& k, const LaunchConfig& l, OccupancyResult& o,
                                                  Extra& x) {
    // --- input ranges ---------------------------------------------------------------------------
    if (l.threads < 1) {
        x.fail = Fail::threads_range;
        return;
    }
    if (k.regs_per_thread < 0 || k.regs_per_thread > a.max_regs_per_thread) {
        x.fail = Fail::regs_range;
        return;
    }
    if (k.smem_static < 0 || l.smem_dynamic < 0) {
        x.fail = Fail::smem_negative;
        return;
    }
    if (l.carveout < -1 || l.carveout > 100) {
        x.fail = Fail::carveout_range;
        return;
    }
    // 16 named barriers per block (PTX ISA, "bar/barrier": barrier ids 0..15).
    if (k.barriers < 0 || k.barriers > kMaxNamedBarriers) {
        x.fail = Fail::barriers_range;
        return;
    }
    if (k.virtual_resources < 0) {
        x.fail = Fail::virtual_range;
        return;
    }
    const std::int64_t smem_static = std::min(k.smem_static, kSizeCap);
    const std::int64_t smem_dynamic = std::min(l.smem_dynamic, kSizeCap);

    const int ws = a.warp_size;
    const int warps_per_block = ws == 32 ? (std::min(l.threads, 1 << 20) + 31) >> 5 : div_up(std::min(l.threads, 1 << 20), ws);
    o.warps_per_block = warps_per_block;

    // Partitioned global caching ([PG] 5.2/6.x "global memory caching" notes; Nsight Compute
    // occupancy notes): supported on 5.2, 5.3, 6.1, 6.2; a block then lives in one half of the SM.
    PartitionedGC gc = a.partitioned_gc_supported ? k.partitioned_gc : PartitionedGC::off;

    // --- registers ------------------------------------------------------------------------------
    // Registers are allocated per warp in units of 256 ([NCU] "Occupancy": register allocation
    // granularity), and each of the SM's sub-partitions has its own slice of the register file, so
    // warps that fit = floor(regs_per_sm / subpartitions / regs_per_warp) × subpartitions.
    auto regs_limit = [&](int subparts, PartitionedGC& g) {
        const int unit = a.reg_alloc_unit;
        const int per_warp = round_up_p2(k.regs_per_thread * ws, unit);
        o.regs_per_warp_allocated = per_warp;
        o.regs_per_block_allocated = per_warp * warps_per_block;
        // The hardware's per-block check assumes warps are spread over all sub-partitions at
        // once, so it rounds the warp count up to a multiple of them (cuda_occupancy.h agrees).
        x.regs_per_block_assumed = per_warp * round_up_p2(warps_per_block, subparts);
        const bool over = x.regs_per_block_assumed > a.regs_per_block || o.regs_per_block_allocated > a.regs_per_block;
        // (regs_per_sm / subparts) / per_warp; per_warp is a whole number of allocation units, and
        // floor(floor(x / u) / m) = floor(x / (u m)). Worked out whatever the checks say (no branch
        // on the query's values), then chosen: 0 over the per-block limit, unlimited with no registers.
        const int per_sub = div_p2(a.regs_per_sm, subparts);
        const int divisor = per_warp > 0 ? per_warp : unit;
        const int warps_per_sub = pow2(unit) ? div_small(div_p2(per_sub, unit), div_p2(divisor, unit)) : per_sub / divisor;
        if (g == PartitionedGC::off) {
            const int blocks = div_small(warps_per_sub * subparts, warps_per_block);
            return over ? 0 : per_warp == 0 ? kUnlimited : blocks;
        }
        if (over) return 0;
        if (per_warp == 0) return kUnlimited;
        int blocks = div_small(warps_per_sub * (subparts / 2), warps_per_block) * 2;
        // When a block cannot fit in half an SM the driver turns partitioned caching off,
        // unless it was forced (strict).
        if (blocks == 0 && g != PartitionedGC::strict) {
            g = PartitionedGC::off;
            blocks = div_small(warps_per_sub * subparts, warps_per_block);
        }
        return blocks;
    };
    o.limit_registers = regs_limit(a.subpartitions, gc);
    // GP100 (6.0) has 2 sub-partitions, GP10x 4. A kernel that cannot run on GP10x is not run on
    // GP100 either, for forward compatibility within Pascal (cuda_occupancy.h, "GP10x" check).
    if (a.compat_subpartitions > 0 && o.limit_registers > 0) {
        PartitionedGC g2 = gc;
        const int keep_warp = o.regs_per_warp_allocated, keep_block = o.regs_per_block_allocated, keep_assumed = x.regs_per_block_assumed;
        const int gp10x = regs_limit(a.compat_subpartitions, g2);
        o.regs_per_warp_allocated = keep_warp;
        o.regs_per_block_allocated = keep_block;
        x.regs_per_block_assumed = keep_assumed;
        if (gp10x == 0) o.limit_registers = 0;
    }
    const bool regs_over = x.regs_per_block_assumed > a.regs_per_block || o.regs_per_block_allocated > a.regs_per_block;
    x.fail = o.limit_registers == 0 && regs_over ? Fail::regs_per_block : Fail::none;

    // --- warps ----------------------------------------------------------------------------------
    // [PG] "Maximum number of resident warps per SM"; a block occupies ceil(threads/32) warp slots.
    if (l.threads > a.max_threads_per_block) {
        o.limit_warps = 0;
        x.fail = Fail::threads_too_many;
    } else if (k.max_threads > 0 && l.threads > k.max_threads) {
        // cudaFuncAttributes::maxThreadsPerBlock: a larger block is refused at launch.
        o.limit_warps = 0;
        x.fail = Fail::threads_over_kernel_max;
    } else {
        const int max_warps = ws == 32 ? a.max_threads_per_sm >> 5 : a.max_threads_per_sm / ws;
        o.limit_warps = gc != PartitionedGC::off ? div_small(max_warps / 2, warps_per_block) * 2 : div_small(max_warps, warps_per_block);
    }
    o.partitioned_gc_active = gc != PartitionedGC::off;

    // --- blocks ---------------------------------------------------------------------------------
    // [PG] "Maximum number of resident blocks per SM".
    o.limit_blocks = a.max_blocks_per_sm;

    // --- shared memory --------------------------------------------------------------------------
    // Per block: static + dynamic + the driver's reserve (1 KB from 8.0, [ATG] §1.4.2.3), rounded up
    // to the allocation unit (256 B before 8.0, 128 B from 8.0).
    const std::int64_t base = smem_static + a.smem_reserved_per_block;
    o.smem_per_block_allocated = round_up64_p2(base + smem_dynamic, a.smem_alloc_unit);
    // What one block may use: block_smem_limit (occupancy.hpp).
    const BlockSmemLimit lim = block_smem_limit(a, smem_static, k.optin || k.max_dynamic_smem >= 0,
                                                k.max_dynamic_smem >= 0 ? std::min(k.max_dynamic_smem, kSizeCap) : -1);
    if (lim.optin && lim.max_dynamic > lim.device_max_dynamic && x.fail == Fail::none) x.fail = Fail::max_dyn_range;
    x.max_dyn = lim.max_dynamic;
    o.smem_per_block_limit = lim.bytes;
    const bool dyn_exceeded = lim.optin && smem_dynamic > lim.max_dynamic;
    const std::int64_t preferred = preferred_smem(a, l.carveout, l.cache_config);
    const bool over = dyn_exceeded || o.smem_per_block_allocated > o.smem_per_block_limit;
    // configured_smem_per_sm(), its preference already known (the preference, unless it cannot hold one block).
    std::int64_t configured = preferred;
    if (!over && preferred < o.smem_per_block_allocated)
        configured = configured_smem_per_sm(a, l.carveout, l.cache_config, o.smem_per_block_allocated);
    o.smem_per_sm_configured = configured;
    // configured / allocation, then chosen as above. Both are below 2^32 whenever the result is
    // used (the allocation fits the per-block limit), so a 32-bit division does.
    const auto num = static_cast<std::uint32_t>(std::clamp<std::int64_t>(configured, 0, 0xffffffffll));
    const auto den = static_cast<std::uint32_t>(std::clamp<std::int64_t>(o.smem_per_block_allocated, 1, 0xffffffffll));
    const int blocks_smem = static_cast<int>(std::min<std::uint32_t>(num / den, kUnlimited));
    o.limit_shared_memory = over || configured < 0 ? 0 : o.smem_per_block_allocated <= 0 ? kUnlimited : blocks_smem;
    const Fail smem_fail = over             ? (dyn_exceeded ? Fail::smem_over_kernel_max : Fail::smem_over_block)
                           : configured < 0 ? Fail::no_carveout_fits
                                            : Fail::none;
    if (x.fail == Fail::none) x.fail = smem_fail;

    // --- barriers (9.0+) --------------------------------------------------------------------------
    // Each block slot comes with 1 or 2 hardware named-barrier sets depending on the part; a
    // kernel using b named barriers fits (slots × per-slot) / b times (cuda_occupancy.h; CUDA 12
    // Hopper Tuning Guide, "Named barriers").
    if (a.barriers_limit_blocks && k.barriers > 0) o.limit_barriers = div_small(o.limit_blocks * a.barriers_per_block_slot, k.barriers);

    // --- virtual resources (10.x+) ----------------------------------------------------------------
    // cuda_occupancy.h (CUDA 13): an SM has a fixed count of virtual resources (ArchRules::
    // virtual_resources_per_sm, 128 on 10.x-12.x); a kernel declaring v > 0 of them per block fits
    // floor(count / v) blocks. Kernels that declare none, and earlier parts, are not limited.
    if (a.virtual_resources_per_sm > 0 && k.virtual_resources > 0) {
        o.limit_virtual_resources = a.virtual_resources_per_sm / k.virtual_resources;
        if (o.limit_virtual_resources == 0 && x.fail == Fail::none) x.fail = Fail::virtual_too_many;
    }

    // --- Tensor Memory (10.0, 10.3, 11.0), effective only ------------------------------------------
    // PTX ISA "Tensor Memory": 512 columns per SM, allocated by tcgen05.alloc in powers of two from 32;
    // an allocation that cannot be met blocks until columns are freed. So floor(512 / columns) blocks
    // work at once; the rest are resident and wait. Outside final_blocks(): the block count stays
    // cuda_occupancy.h's.
    if (a.tmem_columns_per_sm > 0 && k.tmem_columns > 0) o.limit_tmem = a.tmem_columns_per_sm / k.tmem_columns;
}

// [SECTION] Tables (occupancy_tables.hpp: what they hold and how a query finds them)
using detail::Tables;
using detail::tables_for;

// Whether the tables answer this query: the default carveout and cache preference, no partitioned
// caching, kernel maxima and virtual resources left unset, every input in range.
[[gnu::always_inline]] inline bool table_common(const Tables& t, const ArchRules& a, const KernelResources& k, const LaunchConfig& l) {
    return (static_cast<unsigned>(l.threads - 1) < static_cast<unsigned>(t.max_threads)) &
           (static_cast<unsigned>(k.regs_per_thread) <= static_cast<unsigned>(t.max_regs)) &
           (static_cast<std::uint64_t>(k.smem_static) <= static_cast<std::uint64_t>(kSizeCap)) &
           (static_cast<std::uint64_t>(l.smem_dynamic) <= static_cast<std::uint64_t>(kSizeCap)) &
           (static_cast<unsigned>(k.barriers) <= static_cast<unsigned>(kMaxNamedBarriers)) & (l.carveout == -1) &
           (l.cache_config == CacheConfig::none) & (k.max_dynamic_smem < 0) & (k.virtual_resources == 0) & (k.max_threads == 0) &
           (k.tmem_columns == 0) & ((k.partitioned_gc == PartitionedGC::off) | !a.partitioned_gc_supported);
}
// compute_limits() from the tables, for a query table_common() takes. No branch on the query's
// values: every figure is worked out, then chosen by a mask (refusals are common and random in a
// sweep; a mispredicted branch costs more than the work).
[[gnu::always_inline]] inline void table_limits(const Tables& t, const ArchRules& a, const KernelResources& k, const LaunchConfig& l,
                                                OccupancyResult& o, Extra& x) {
    const int threads = l.threads, regs = k.regs_per_thread;
    const std::int64_t smem_static = k.smem_static, smem_dynamic = l.smem_dynamic;
    // Shared memory as compute_limits() has it; a block within its limit fits the preference
    // (build_tables checks), so the carveout is the preference and the quotient is looked up.
    const std::int64_t alloc = (smem_static + t.reserved + smem_dynamic + t.unit - 1) & -t.unit;
    const BlockSmemLimit lim = t.smem_rule(smem_static, k.optin, -1);
    const unsigned dyn_exceeded = static_cast<unsigned>(lim.optin) & static_cast<unsigned>(smem_dynamic > lim.max_dynamic);
    const unsigned smem_over = dyn_exceeded | static_cast<unsigned>(alloc > lim.bytes);
    const std::int64_t units = std::min<std::int64_t>(alloc >> t.unit_shift, static_cast<std::int64_t>(t.smem.size()) - 1);
    // Registers as compute_limits() has them, with the per-register quotient looked up; the
    // quotient by the warp count is the reciprocal multiply (operands below 2^16 and 33).
    const int w = (threads + 31) >> 5;
    const int per_warp = t.per_warp[static_cast<std::size_t>(regs)];
    const int block_regs = per_warp * w, assumed = per_warp * t.rounded_warps[static_cast<std::size_t>(w)];
    const unsigned regs_over = static_cast<unsigned>(assumed > a.regs_per_block) | static_cast<unsigned>(block_regs > a.regs_per_block);
    const int regs_blocks = static_cast<int>(
        (static_cast<std::uint64_t>(t.warps_total[static_cast<std::size_t>(regs)]) * kReciprocals.c[w]) >> 32);
    const int unlimited_if_none = -static_cast<int>(per_warp == 0) & kUnlimited;  // no registers: no limit
    o.warps_per_block = w;
    o.regs_per_warp_allocated = per_warp;
    o.regs_per_block_allocated = block_regs;
    x.regs_per_block_assumed = assumed;
    x.rounded_warps = t.rounded_warps[static_cast<std::size_t>(w)];
    o.limit_registers = (regs_blocks | unlimited_if_none) & (static_cast<int>(regs_over) - 1);
    o.limit_warps = t.warps[static_cast<std::size_t>(w)];
    o.partitioned_gc_active = false;
    o.limit_blocks = a.max_blocks_per_sm;
    o.smem_per_block_allocated = alloc;
    o.smem_per_block_limit = lim.bytes;
    o.smem_per_sm_configured = t.preferred;
    o.limit_shared_memory = t.smem[static_cast<std::size_t>(units)] & (static_cast<int>(smem_over) - 1);
    o.limit_barriers = t.barriers[static_cast<std::size_t>(k.barriers)];
    x.max_dyn = lim.max_dynamic;
    // The first refusal in compute_limits()' order: registers, then shared memory.
    static constexpr Fail kFail[8] = {Fail::none,           Fail::none,           Fail::smem_over_block, Fail::smem_over_kernel_max,
                                      Fail::regs_per_block, Fail::regs_per_block, Fail::regs_per_block,  Fail::regs_per_block};
    x.fail = kFail[regs_over * 4 + smem_over * 2 + dyn_exceeded];
}

// Every limit, from the tables where the rules have them; those tables, or nullptr.
[[gnu::always_inline]] inline const Tables* limits(const ArchRules& a, const KernelResources& k, const LaunchConfig& l, OccupancyResult& o,
                                                   Extra& x, bool tables = true) {
    const Tables* t = tables ? tables_for(a) : nullptr;
    if (t && table_common(*t, a, k, l)) {
        table_limits(*t, a, k, l, o, x);
        return t;
    }
    compute_limits(a, k, l, o, x);
    return nullptr;
}

int final_blocks(const OccupancyResult& o) {
    return std::min({o.limit_warps, o.limit_registers, o.limit_shared_memory, o.limit_blocks, o.limit_barriers, o.limit_virtual_resources});
}

bool is_input_error(Fail f) {
    return f == Fail::threads_range || f == Fail::regs_range || f == Fail::smem_negative || f == Fail::carveout_range ||
           f == Fail::barriers_range || f == Fail::virtual_range;
}

// The numbers each refusal's message quotes (the layout error_message() reads).
using Args = std::array<std::int64_t, OccupancyResult::kErrorArgs>;
// rounded_warps: the warp count rounded up to whole sub-partitions.
[[gnu::always_inline]] inline Args regs_per_block_args(const Extra& x, const ArchRules& a, const KernelResources& k, const LaunchConfig& l,
                                                       const OccupancyResult& r, int rounded_warps) {
    return {k.regs_per_thread, l.threads,     x.regs_per_block_assumed, r.regs_per_warp_allocated, a.reg_alloc_unit,
            r.warps_per_block, rounded_warps, a.subpartitions,          a.regs_per_block};
}
[[gnu::always_inline]] inline Args smem_over_block_args(const SmemLimitRule& rule, const ArchRules& a, const KernelResources& k,
                                                        const LaunchConfig& l, const OccupancyResult& r) {
    const bool optin_would_fit = !k.optin && k.max_dynamic_smem < 0 && rule.optin_supported() &&
                                 r.smem_per_block_allocated <= rule.optin_bytes();
    return {r.smem_per_block_allocated,
            k.smem_static,
            l.smem_dynamic,
            a.smem_reserved_per_block,
            a.smem_alloc_unit,
            r.smem_per_block_limit,
            optin_would_fit,
            0,
            0};
}

void record_error(const Extra& x, const ArchRules& a, const KernelResources& k, const LaunchConfig& l, OccupancyResult& r) {
    r.error_code = x.fail;
    Args v{};
    switch (x.fail) {
        case Fail::none: break;
        case Fail::threads_range:
            v[0] = a.max_threads_per_block;
            v[1] = l.threads;
            break;
        case Fail::threads_too_many:
            v[0] = a.max_threads_per_block;
            v[1] = a.cc_major;
            v[2] = a.cc_minor;
            v[3] = l.threads;
            break;
        case Fail::threads_over_kernel_max:
            v[0] = k.max_threads;
            v[1] = l.threads;
            break;
        case Fail::regs_range:
            v[0] = a.max_regs_per_thread;
            v[1] = k.regs_per_thread;
            break;
        case Fail::regs_per_block: v = regs_per_block_args(x, a, k, l, r, round_up(r.warps_per_block, a.subpartitions)); break;
        case Fail::smem_negative:
            v[0] = k.smem_static < 0;
            v[1] = k.smem_static < 0 ? k.smem_static : l.smem_dynamic;
            break;
        case Fail::smem_over_block: v = smem_over_block_args(SmemLimitRule(a), a, k, l, r); break;
        case Fail::smem_over_kernel_max:
            v[0] = l.smem_dynamic;
            v[1] = x.max_dyn;
            break;
        case Fail::max_dyn_range:
            v[0] = block_smem_limit(a, k.smem_static, true, -1).device_max_dynamic;
            v[1] = a.smem_per_block_optin;
            v[2] = k.smem_static;
            v[3] = k.max_dynamic_smem;
            break;
        case Fail::carveout_range: v[0] = l.carveout; break;
        case Fail::barriers_range: v[0] = k.barriers; break;
        case Fail::no_carveout_fits: v[0] = r.smem_per_block_allocated; break;
        case Fail::virtual_range: v[0] = k.virtual_resources; break;
        case Fail::virtual_too_many:
            v[0] = k.virtual_resources;
            v[1] = a.virtual_resources_per_sm;
            v[2] = a.cc_major;
            v[3] = a.cc_minor;
            break;
    }
    for (int i = 0; i < OccupancyResult::kErrorArgs; ++i) r.set_error_arg(i, v[static_cast<std::size_t>(i)]);
}

// record_error() for the refusals the table path gives (registers or shared memory per block),
// without a branch on which: every candidate is worked out and the code's is kept.
[[gnu::always_inline]] inline void record_table_error(const Tables& t, const Extra& x, const ArchRules& a, const KernelResources& k,
                                                      const LaunchConfig& l, OccupancyResult& r) {
    r.error_code = x.fail;
    const Args regs = regs_per_block_args(x, a, k, l, r, x.rounded_warps), smem = smem_over_block_args(t.smem_rule, a, k, l, r);
    const Args kernel_max = {l.smem_dynamic, x.max_dyn, 0, 0, 0, 0, 0, 0, 0};
    // Masks rather than conditions (a compiler turns those back into branches), and constant
    // indices throughout, so the candidates stay in registers.
    const std::int64_t use_regs = -static_cast<std::int64_t>(x.fail == Fail::regs_per_block);
    const std::int64_t use_kernel_max = -static_cast<std::int64_t>(x.fail == Fail::smem_over_kernel_max);
    [&]<std::size_t... I>(std::index_sequence<I...>) {
        (r.set_error_arg(static_cast<int>(I),
                         (regs[I] & use_regs) | (((kernel_max[I] & use_kernel_max) | (smem[I] & ~use_kernel_max)) & ~use_regs)),
         ...);
    }
    (std::make_index_sequence<OccupancyResult::kErrorArgs>{});
}

// What every answer works out from its limits.
[[gnu::always_inline]] inline void finish(OccupancyResult& r, int threads) {
    r.blocks_per_sm = final_blocks(r);
    const int b = r.blocks_per_sm;
    r.limiters = (r.limit_warps == b ? kLimitWarps : 0u) | (r.limit_registers == b ? kLimitRegisters : 0u) |
                 (r.limit_shared_memory == b ? kLimitSharedMemory : 0u) | (r.limit_blocks == b ? kLimitBlocks : 0u) |
                 (r.limit_barriers == b ? kLimitBarriers : 0u) | (r.limit_virtual_resources == b ? kLimitVirtualResources : 0u);
    r.warps_per_sm = b * r.warps_per_block;
    r.threads_per_sm = b * threads;
    // A multiply by the exact reciprocal where the warp count is a power of two (the same double).
    r.occupancy = pow2(r.max_warps_per_sm) ? r.warps_per_sm * (1.0 / r.max_warps_per_sm)
                  : r.max_warps_per_sm > 0 ? static_cast<double>(r.warps_per_sm) / r.max_warps_per_sm
                                           : 0.0;
}

// The answer from the tables (for a query table_common() takes): one straight path that sets every field.
[[gnu::always_inline]] inline OccupancyResult tabled_occupancy(const Tables& t, const ArchRules& a, const KernelResources& k,
                                                               const LaunchConfig& l) {
    OccupancyResult r;
    Extra x;
    table_limits(t, a, k, l, r, x);
    r.max_warps_per_sm = t.max_warps;
    record_table_error(t, x, a, k, l, r);
    finish(r, l.threads);
    return r;
}

// The answer with every rule read from ArchRules.
[[gnu::noinline]] OccupancyResult general_occupancy(const Device& dev, const KernelResources& k, const LaunchConfig& l) {
    const ArchRules& a = dev.arch;
    OccupancyResult r;
    Extra x;
    compute_limits(a, k, l, r, x);
    r.max_warps_per_sm = a.warp_size == 32 ? a.max_threads_per_sm >> 5 : a.max_warps_per_sm();
    if (x.fail != Fail::none) record_error(x, a, k, l, r);
    if (is_input_error(x.fail)) return r;  // every limit 0 (barriers and virtual resources: kUnlimited)
    finish(r, l.threads);
    return r;
}

}  // namespace

const Tables* detail::build_tables(const ArchRules& a) {
    auto* t = new Tables(a);
    std::memcpy(t->key, &a, kKeyBytes);
    t->preferred = preferred_smem(a, -1, CacheConfig::none);
    t->usable = a.warp_size == 32 && a.compat_subpartitions == 0 && pow2(a.smem_alloc_unit) && a.max_threads_per_block >= 1 &&
                a.max_threads_per_block <= 1024 && a.max_regs_per_thread >= 0 && a.max_regs_per_thread <= 255 && t->preferred >= 0 &&
                (t->preferred >> __builtin_ctz(static_cast<unsigned>(a.smem_alloc_unit))) < 65536 &&
                // a block within its limit fits the preference: the carveout is the preference
                std::max(t->smem_rule.plain_bytes(), t->smem_rule.optin_bytes()) <= t->preferred;
    if (!t->usable) return t;
    t->max_threads = a.max_threads_per_block;
    t->max_regs = a.max_regs_per_thread;
    t->max_warps = a.max_threads_per_sm >> 5;
    t->unit = a.smem_alloc_unit;
    t->unit_shift = __builtin_ctz(static_cast<unsigned>(a.smem_alloc_unit));
    t->reserved = a.smem_reserved_per_block;
    // Every figure below is compute_limits()'s own answer to a query that isolates it.
    KernelResources k;
    k.optin = true;
    LaunchConfig l;
    const auto ask = [&](int threads, int regs, int barriers, std::int64_t dynamic) {
        OccupancyResult o;
        Extra x;
        l.threads = threads;
        l.smem_dynamic = dynamic;
        k.regs_per_thread = regs;
        k.barriers = barriers;
        compute_limits(a, k, l, o, x);
        return std::pair{o, x};
    };
    for (int w = 1; w <= (a.max_threads_per_block + 31) / 32; ++w) {
        t->warps[static_cast<std::size_t>(w)] = ask(std::min(32 * w, a.max_threads_per_block), 0, 0, 0).first.limit_warps;
        t->rounded_warps[static_cast<std::size_t>(w)] = round_up_p2(w, a.subpartitions);
    }
    for (int b = 0; b <= 16; ++b) t->barriers[static_cast<std::size_t>(b)] = ask(32, 0, b, 0).first.limit_barriers;
    // One warp per block: the register limit is the warps the register file holds (a quotient by
    // 1); over the per-block limit with one warp, over it with any count.
    for (int r = 0; r <= a.max_regs_per_thread; ++r) {
        const auto [o, x] = ask(32, r, 0, 0);
        const int total = x.fail == Fail::regs_per_block || o.regs_per_warp_allocated == 0 ? 0 : o.limit_registers;
        if (o.regs_per_warp_allocated > 0xffff || total > 0xffff) t->usable = false;
        t->per_warp[static_cast<std::size_t>(r)] = static_cast<std::uint16_t>(o.regs_per_warp_allocated);
        t->warps_total[static_cast<std::size_t>(r)] = static_cast<std::uint16_t>(total);
    }
    // Allocation units u with u * unit <= the preference: the carveout is the preference, and the
    // limit its quotient (u = 0: unlimited). Units below the reserve never occur.
    const std::int64_t units = t->preferred >> t->unit_shift;
    t->smem.assign(static_cast<std::size_t>(units) + 1, 0);
    t->smem[0] = kUnlimited;
    for (std::int64_t u = 1; u <= units; ++u) {
        const auto [o, x] = ask(32, 0, 0, std::max<std::int64_t>(0, u * t->unit - t->reserved));
        if (o.smem_per_block_allocated == u * t->unit && x.fail == Fail::none) t->smem[static_cast<std::size_t>(u)] = o.limit_shared_memory;
    }
    return t;
}

// [SECTION] Public API

OCC_HOT_CLONES int blocks_per_sm_fast(const ArchRules& a, const KernelResources& k, const LaunchConfig& l) {
    OccupancyResult o;
    Extra x;
    // The table path takes inputs in range only (table_common), so it has no input error to report.
    if (limits(a, k, l, o, x)) return final_blocks(o);
    if (is_input_error(x.fail)) return -1;
    return final_blocks(o);
}

OCC_HOT_CLONES OccupancyResult compute_occupancy(const Device& dev, const KernelResources& k, const LaunchConfig& l) {
    const Tables* t = tables_for(dev.arch);
    if (t && table_common(*t, dev.arch, k, l)) return tabled_occupancy(*t, dev.arch, k, l);
    return general_occupancy(dev, k, l);
}

namespace detail {
OccupancyResult compute_occupancy_untabled(const Device& dev, const KernelResources& k, const LaunchConfig& l) {
    return general_occupancy(dev, k, l);
}
}  // namespace detail

}  // namespace occ
