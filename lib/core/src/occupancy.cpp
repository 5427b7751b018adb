// occupancy.cpp — the occupancy model.
//
// [SECTION] Rules         one function per resource, each citing its source
// [SECTION] Core          compute_limits(): every limit, no strings, no allocation (used by sweeps)
// [SECTION] Public API    compute_occupancy(): the same numbers plus the readable reasons
#include "occ/occupancy.hpp"

#include <algorithm>
#include <cstdio>

#include "occ/format.hpp"

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
inline int div_p2(int x, int y) { return pow2(y) ? x >> __builtin_ctz(static_cast<unsigned>(y)) : x / y; }   // x >= 0
inline int round_up_p2(int x, int y) { return pow2(y) ? (x + y - 1) & -y : round_up(x, y); }                 // x >= 0
inline std::int64_t round_up64_p2(std::int64_t x, std::int64_t y) { return pow2(static_cast<int>(y)) ? (x + y - 1) & -y : round_up64(x, y); }
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

struct Limits {
    int warps = 0, regs = 0, smem = 0, blocks = 0, barriers = kUnlimited, virt = kUnlimited;
    int warps_per_block = 0;
    int regs_per_warp_alloc = 0;
    int regs_per_block_alloc = 0;
    int regs_per_block_assumed = 0;
    std::int64_t smem_alloc = 0;
    std::int64_t smem_limit = 0;
    std::int64_t smem_sm = 0;
    std::int64_t max_dyn = 0;
    bool pgc = false;
    Fail fail = Fail::none;
};

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
[[gnu::always_inline]] inline void compute_limits(const ArchRules& a, const KernelResources& k, const LaunchConfig& l, Limits& o) {
    // --- input ranges ---------------------------------------------------------------------------
    if (l.threads < 1) { o.fail = Fail::threads_range; return; }
    if (k.regs_per_thread < 0 || k.regs_per_thread > a.max_regs_per_thread) { o.fail = Fail::regs_range; return; }
    if (k.smem_static < 0 || l.smem_dynamic < 0) { o.fail = Fail::smem_negative; return; }
    if (l.carveout < -1 || l.carveout > 100) { o.fail = Fail::carveout_range; return; }
    // 16 named barriers per block (PTX ISA, "bar/barrier": barrier ids 0..15).
    if (k.barriers < 0 || k.barriers > 16) { o.fail = Fail::barriers_range; return; }
    if (k.virtual_resources < 0) { o.fail = Fail::virtual_range; return; }
    // Cap sizes at 1 GiB so every product below stays far inside 64-bit range.
    constexpr std::int64_t kSizeCap = std::int64_t{1} << 30;
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
        o.regs_per_warp_alloc = per_warp;
        o.regs_per_block_alloc = per_warp * warps_per_block;
        // The hardware's per-block check assumes warps are spread over all sub-partitions at
        // once, so it rounds the warp count up to a multiple of them (cuda_occupancy.h agrees).
        o.regs_per_block_assumed = per_warp * round_up_p2(warps_per_block, subparts);
        const bool over = o.regs_per_block_assumed > a.regs_per_block || o.regs_per_block_alloc > a.regs_per_block;
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
    o.regs = regs_limit(a.subpartitions, gc);
    // GP100 (6.0) has 2 sub-partitions, GP10x 4. A kernel that cannot run on GP10x is not run on
    // GP100 either, for forward compatibility within Pascal (cuda_occupancy.h, "GP10x" check).
    if (a.compat_subpartitions > 0 && o.regs > 0) {
        PartitionedGC g2 = gc;
        const Limits keep = o;
        const int gp10x = regs_limit(a.compat_subpartitions, g2);
        o = keep;
        if (gp10x == 0) o.regs = 0;
    }
    const bool regs_over = o.regs_per_block_assumed > a.regs_per_block || o.regs_per_block_alloc > a.regs_per_block;
    o.fail = o.regs == 0 && regs_over ? Fail::regs_per_block : Fail::none;

    // --- warps ----------------------------------------------------------------------------------
    // [PG] "Maximum number of resident warps per SM"; a block occupies ceil(threads/32) warp slots.
    if (l.threads > a.max_threads_per_block) {
        o.warps = 0;
        o.fail = Fail::threads_too_many;
    } else {
        const int max_warps = ws == 32 ? a.max_threads_per_sm >> 5 : a.max_threads_per_sm / ws;
        o.warps = gc != PartitionedGC::off ? div_small(max_warps / 2, warps_per_block) * 2 : div_small(max_warps, warps_per_block);
    }
    o.pgc = gc != PartitionedGC::off;

    // --- blocks ---------------------------------------------------------------------------------
    // [PG] "Maximum number of resident blocks per SM".
    o.blocks = a.max_blocks_per_sm;

    // --- shared memory --------------------------------------------------------------------------
    // Per block: static + dynamic + the driver's reserve (1 KB from 8.0, [ATG] §1.4.2.3), rounded up
    // to the allocation unit (256 B before 8.0, 128 B from 8.0).
    const std::int64_t base = smem_static + a.smem_reserved_per_block;
    o.smem_alloc = round_up64_p2(base + smem_dynamic, a.smem_alloc_unit);
    // What one block may use: block_smem_limit (occupancy.hpp).
    const BlockSmemLimit lim = block_smem_limit(a, smem_static, k.optin || k.max_dynamic_smem >= 0,
                                                k.max_dynamic_smem >= 0 ? std::min(k.max_dynamic_smem, kSizeCap) : -1);
    if (lim.optin && lim.max_dynamic > lim.device_max_dynamic && o.fail == Fail::none) o.fail = Fail::max_dyn_range;
    o.max_dyn = lim.max_dynamic;
    o.smem_limit = lim.bytes;
    const bool dyn_exceeded = lim.optin && smem_dynamic > lim.max_dynamic;
    const std::int64_t preferred = preferred_smem(a, l.carveout, l.cache_config);
    const bool over = dyn_exceeded || o.smem_alloc > o.smem_limit;
    // configured_smem_per_sm(), its preference already known (the preference, unless it cannot hold one block).
    std::int64_t configured = preferred;
    if (!over && preferred < o.smem_alloc) configured = configured_smem_per_sm(a, l.carveout, l.cache_config, o.smem_alloc);
    o.smem_sm = configured;
    // configured / allocation, then chosen as above. Both are below 2^32 whenever the result is
    // used (the allocation fits the per-block limit), so a 32-bit division does.
    const auto num = static_cast<std::uint32_t>(std::clamp<std::int64_t>(configured, 0, 0xffffffffll));
    const auto den = static_cast<std::uint32_t>(std::clamp<std::int64_t>(o.smem_alloc, 1, 0xffffffffll));
    const int blocks_smem = static_cast<int>(std::min<std::uint32_t>(num / den, kUnlimited));
    o.smem = over || configured < 0 ? 0 : o.smem_alloc <= 0 ? kUnlimited : blocks_smem;
    const Fail smem_fail = over ? (dyn_exceeded ? Fail::smem_over_kernel_max : Fail::smem_over_block)
                                : configured < 0 ? Fail::no_carveout_fits : Fail::none;
    if (o.fail == Fail::none) o.fail = smem_fail;

    // --- barriers (9.0+) --------------------------------------------------------------------------
    // Each block slot comes with 1 or 2 hardware named-barrier sets depending on the part; a
    // kernel using b named barriers fits (slots × per-slot) / b times (cuda_occupancy.h; CUDA 12
    // Hopper Tuning Guide, "Named barriers").
    if (a.barriers_limit_blocks && k.barriers > 0) o.barriers = div_small(o.blocks * a.barriers_per_block_slot, k.barriers);

    // --- virtual resources (10.x+) ----------------------------------------------------------------
    // cuda_occupancy.h (CUDA 13): an SM has a fixed count of virtual resources (ArchRules::
    // virtual_resources_per_sm, 128 on 10.x-12.x); a kernel declaring v > 0 of them per block fits
    // floor(count / v) blocks. Kernels that declare none, and earlier parts, are not limited.
    if (a.virtual_resources_per_sm > 0 && k.virtual_resources > 0) {
        o.virt = a.virtual_resources_per_sm / k.virtual_resources;
        if (o.virt == 0 && o.fail == Fail::none) o.fail = Fail::virtual_too_many;
    }
}

int final_blocks(const Limits& o) {
    return std::min({o.warps, o.regs, o.smem, o.blocks, o.barriers, o.virt});
}

bool is_input_error(Fail f) {
    return f == Fail::threads_range || f == Fail::regs_range || f == Fail::smem_negative || f == Fail::carveout_range ||
           f == Fail::barriers_range || f == Fail::virtual_range;
}

// The numbers the refusal's message quotes, by code (the layout error_message() reads).
void record_error(const Limits& o, const ArchRules& a, const KernelResources& k, const LaunchConfig& l, OccupancyResult& r) {
    r.error_code = o.fail;
    std::int64_t v[OccupancyResult::kErrorArgs] = {};
    switch (o.fail) {
        case Fail::none: break;
        case Fail::threads_range: v[0] = a.max_threads_per_block; v[1] = l.threads; break;
        case Fail::threads_too_many: v[0] = a.max_threads_per_block; v[1] = a.cc_major; v[2] = a.cc_minor; v[3] = l.threads; break;
        case Fail::regs_range: v[0] = a.max_regs_per_thread; v[1] = k.regs_per_thread; break;
        case Fail::regs_per_block:
            v[0] = k.regs_per_thread; v[1] = l.threads; v[2] = o.regs_per_block_assumed; v[3] = o.regs_per_warp_alloc;
            v[4] = a.reg_alloc_unit; v[5] = o.warps_per_block; v[6] = round_up(o.warps_per_block, a.subpartitions);
            v[7] = a.subpartitions; v[8] = a.regs_per_block;
            break;
        case Fail::smem_negative: v[0] = k.smem_static < 0; v[1] = k.smem_static < 0 ? k.smem_static : l.smem_dynamic; break;
        case Fail::smem_over_block: {
            const SmemLimitRule rule(a);
            v[0] = o.smem_alloc; v[1] = k.smem_static; v[2] = l.smem_dynamic; v[3] = a.smem_reserved_per_block;
            v[4] = a.smem_alloc_unit; v[5] = o.smem_limit;
            v[6] = !k.optin && k.max_dynamic_smem < 0 && rule.optin_supported() && o.smem_alloc <= rule.optin_bytes();
            break;
        }
        case Fail::smem_over_kernel_max: v[0] = l.smem_dynamic; v[1] = o.max_dyn; break;
        case Fail::max_dyn_range:
            v[0] = block_smem_limit(a, k.smem_static, true, -1).device_max_dynamic; v[1] = a.smem_per_block_optin;
            v[2] = k.smem_static; v[3] = k.max_dynamic_smem;
            break;
        case Fail::carveout_range: v[0] = l.carveout; break;
        case Fail::barriers_range: v[0] = k.barriers; break;
        case Fail::no_carveout_fits: v[0] = o.smem_alloc; break;
        case Fail::virtual_range: v[0] = k.virtual_resources; break;
        case Fail::virtual_too_many: v[0] = k.virtual_resources; v[1] = a.virtual_resources_per_sm; v[2] = a.cc_major; v[3] = a.cc_minor; break;
    }
    for (int i = 0; i < OccupancyResult::kErrorArgs; ++i) r.set_error_arg(i, v[i]);
}

}  // namespace

// [SECTION] Public API

std::string OccupancyResult::error_message() const {
    if (ok()) return {};
    char buf[512];
    std::int64_t v[kErrorArgs];
    for (int i = 0; i < kErrorArgs; ++i) v[i] = error_arg(i);
    const auto ll = [](std::int64_t x) { return static_cast<long long>(x); };
    const auto bytes = [](std::int64_t x) { return format_bytes(x); };
    switch (error_code) {
        case Fail::none: return {};
        case Fail::threads_range:
            std::snprintf(buf, sizeof buf, "threads must be 1..%lld (threads per block), got %lld", ll(v[0]), ll(v[1]));
            break;
        case Fail::threads_too_many:
            std::snprintf(buf, sizeof buf, "threads must be 1..%lld on compute capability %lld.%lld, got %lld: the launch would fail",
                          ll(v[0]), ll(v[1]), ll(v[2]), ll(v[3]));
            break;
        case Fail::regs_range:
            std::snprintf(buf, sizeof buf, "regs must be 0..%lld (registers per thread), got %lld", ll(v[0]), ll(v[1]));
            break;
        case Fail::regs_per_block:
            std::snprintf(buf, sizeof buf,
                          "regs: %lld registers x %lld threads needs %lld registers per block (%lld per warp after rounding to %lld, "
                          "%lld warps counted as %lld across %lld sub-partitions); the limit is %lld per block: "
                          "use fewer registers (__launch_bounds__ / -maxrregcount) or a smaller block",
                          ll(v[0]), ll(v[1]), ll(v[2]), ll(v[3]), ll(v[4]), ll(v[5]), ll(v[6]), ll(v[7]), ll(v[8]));
            break;
        case Fail::smem_negative:
            std::snprintf(buf, sizeof buf, "%s must be >= 0 bytes, got %lld", v[0] ? "smem_static" : "smem_dynamic", ll(v[1]));
            break;
        case Fail::smem_over_block:
            std::snprintf(buf, sizeof buf,
                          "shared memory per block is %s (static %s + dynamic %s + reserved %s, rounded to %lld B), over the %s a block may use%s",
                          bytes(v[0]).c_str(), bytes(v[1]).c_str(), bytes(v[2]).c_str(), bytes(v[3]).c_str(), ll(v[4]), bytes(v[5]).c_str(),
                          v[6] ? ": opt in (--optin, cudaFuncAttributeMaxDynamicSharedMemorySize) to raise it" : "");
            break;
        case Fail::smem_over_kernel_max:
            std::snprintf(buf, sizeof buf, "smem_dynamic %s is above the kernel's max_dynamic_smem %s (cudaFuncAttributeMaxDynamicSharedMemorySize)",
                          bytes(v[0]).c_str(), bytes(v[1]).c_str());
            break;
        case Fail::max_dyn_range:
            std::snprintf(buf, sizeof buf, "max_dynamic_smem must be 0..%lld bytes (opt-in maximum %s minus static %s), got %lld", ll(v[0]),
                          bytes(v[1]).c_str(), bytes(v[2]).c_str(), ll(v[3]));
            break;
        case Fail::carveout_range:
            std::snprintf(buf, sizeof buf, "carveout must be -1 (default) or 0..100 percent, got %lld", ll(v[0]));
            break;
        case Fail::barriers_range:
            std::snprintf(buf, sizeof buf, "barriers must be 0..16 (named barriers per block), got %lld", ll(v[0]));
            break;
        case Fail::no_carveout_fits:
            std::snprintf(buf, sizeof buf, "no shared-memory carveout of this device holds one block of %s", bytes(v[0]).c_str());
            break;
        case Fail::virtual_range:
            std::snprintf(buf, sizeof buf, "virtual_resources must be >= 0 (virtual resources per block, 0 = none), got %lld", ll(v[0]));
            break;
        case Fail::virtual_too_many:
            std::snprintf(buf, sizeof buf,
                          "virtual_resources: %lld per block is more than the %lld an SM has on compute capability %lld.%lld: no block fits",
                          ll(v[0]), ll(v[1]), ll(v[2]), ll(v[3]));
            break;
    }
    return buf;
}

int blocks_per_sm_fast(const ArchRules& a, const KernelResources& k, const LaunchConfig& l) {
    Limits o;
    compute_limits(a, k, l, o);
    if (is_input_error(o.fail)) return -1;
    return final_blocks(o);
}

OccupancyResult compute_occupancy(const Device& dev, const KernelResources& k, const LaunchConfig& l) {
    const ArchRules& a = dev.arch;
    Limits o;
    compute_limits(a, k, l, o);
    OccupancyResult r;
    r.max_warps_per_sm = a.warp_size == 32 ? a.max_threads_per_sm >> 5 : a.max_warps_per_sm();
    if (o.fail != Fail::none) record_error(o, a, k, l, r);
    if (is_input_error(o.fail)) {
        r.limit_warps = r.limit_registers = r.limit_shared_memory = r.limit_blocks = 0;
        r.limit_barriers = kUnlimited;
        return r;
    }
    r.limit_warps = o.warps;
    r.limit_registers = o.regs;
    r.limit_shared_memory = o.smem;
    r.limit_blocks = o.blocks;
    r.limit_barriers = o.barriers;
    r.limit_virtual_resources = o.virt;
    r.blocks_per_sm = final_blocks(o);
    const int b = r.blocks_per_sm;
    r.limiters = (o.warps == b ? kLimitWarps : 0u) | (o.regs == b ? kLimitRegisters : 0u) | (o.smem == b ? kLimitSharedMemory : 0u) |
                 (o.blocks == b ? kLimitBlocks : 0u) | (o.barriers == b ? kLimitBarriers : 0u) | (o.virt == b ? kLimitVirtualResources : 0u);
    r.warps_per_block = o.warps_per_block;
    r.warps_per_sm = r.blocks_per_sm * o.warps_per_block;
    r.threads_per_sm = r.blocks_per_sm * l.threads;
    // A multiply by the exact reciprocal where the warp count is a power of two (the same double).
    r.occupancy = pow2(r.max_warps_per_sm) ? r.warps_per_sm * (1.0 / r.max_warps_per_sm)
                : r.max_warps_per_sm > 0   ? static_cast<double>(r.warps_per_sm) / r.max_warps_per_sm
                                           : 0.0;
    r.regs_per_warp_allocated = o.regs_per_warp_alloc;
    r.regs_per_block_allocated = o.regs_per_block_alloc;
    r.smem_per_block_allocated = o.smem_alloc;
    r.smem_per_sm_configured = o.smem_sm;
    r.smem_per_block_limit = o.smem_limit;
    r.partitioned_gc_active = o.pgc;
    return r;
}

const char* limiter_name(Limiter l) {
    switch (l) {
        case kLimitWarps: return "warps";
        case kLimitRegisters: return "registers";
        case kLimitSharedMemory: return "shared_memory";
        case kLimitBlocks: return "blocks";
        case kLimitBarriers: return "barriers";
    }
    return "?";
}

}  // namespace occ
