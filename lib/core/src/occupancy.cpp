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

enum class Fail : std::uint8_t {
    none,
    threads_range,       // threads < 1 (invalid input)
    threads_too_many,    // threads > max per block (launch fails)
    regs_range,          // regs < 0 or > max per thread
    regs_per_block,      // block's register total over the per-block limit
    smem_negative,
    smem_over_block,     // static + dynamic + reserved over what one block may use
    smem_over_kernel_max,// dynamic above the kernel's max_dynamic_smem attribute
    max_dyn_range,       // max_dynamic_smem above what the device allows
    carveout_range,
    barriers_range,
    no_carveout_fits,    // custom device: no carveout step holds one block
    virtual_range,       // virtual_resources < 0 (invalid input)
    virtual_too_many,    // more virtual resources per block than the SM has (launch fails)
};

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
        const std::int64_t want = pct < 0 ? max : (static_cast<std::int64_t>(pct) * max) / 100;
        for (std::int64_t step : a.carveouts())
            if (step >= want) return step;
        return -1;
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
    if (a.smem_config == SmemConfig::carveout) {
        for (std::int64_t step : a.carveouts())
            if (step >= alloc) return step;
        return -1;
    }
    return a.smem_per_sm;
}

namespace {

// [SECTION] Core
void compute_limits(const ArchRules& a, const KernelResources& k, const LaunchConfig& l, Limits& o) {
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
    const int warps_per_block = div_up(std::min(l.threads, 1 << 20), ws);
    o.warps_per_block = warps_per_block;

    // Partitioned global caching ([PG] 5.2/6.x "global memory caching" notes; Nsight Compute
    // occupancy notes): supported on 5.2, 5.3, 6.1, 6.2; a block then lives in one half of the SM.
    PartitionedGC gc = a.partitioned_gc_supported ? k.partitioned_gc : PartitionedGC::off;

    // --- registers ------------------------------------------------------------------------------
    // Registers are allocated per warp in units of 256 ([NCU] "Occupancy": register allocation
    // granularity), and each of the SM's sub-partitions has its own slice of the register file, so
    // warps that fit = floor(regs_per_sm / subpartitions / regs_per_warp) × subpartitions.
    auto regs_limit = [&](int subparts, PartitionedGC& g) {
        const int per_warp = round_up(k.regs_per_thread * ws, a.reg_alloc_unit);
        o.regs_per_warp_alloc = per_warp;
        o.regs_per_block_alloc = per_warp * warps_per_block;
        // The hardware's per-block check assumes warps are spread over all sub-partitions at
        // once, so it rounds the warp count up to a multiple of them (cuda_occupancy.h agrees).
        o.regs_per_block_assumed = per_warp * round_up(warps_per_block, subparts);
        if (o.regs_per_block_assumed > a.regs_per_block || o.regs_per_block_alloc > a.regs_per_block) return 0;
        if (per_warp == 0) return kUnlimited;
        const int warps_per_sub = (a.regs_per_sm / subparts) / per_warp;
        int blocks = 0;
        if (g != PartitionedGC::off) blocks = (warps_per_sub * (subparts / 2) / warps_per_block) * 2;
        // When a block cannot fit in half an SM the driver turns partitioned caching off,
        // unless it was forced (strict).
        if (blocks == 0 && g != PartitionedGC::strict) {
            g = PartitionedGC::off;
            blocks = warps_per_sub * subparts / warps_per_block;
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
    if (o.regs == 0 && (o.regs_per_block_assumed > a.regs_per_block || o.regs_per_block_alloc > a.regs_per_block))
        o.fail = Fail::regs_per_block;

    // --- warps ----------------------------------------------------------------------------------
    // [PG] "Maximum number of resident warps per SM"; a block occupies ceil(threads/32) warp slots.
    if (l.threads > a.max_threads_per_block) {
        o.warps = 0;
        o.fail = Fail::threads_too_many;
    } else {
        const int max_warps = a.max_threads_per_sm / ws;
        o.warps = gc != PartitionedGC::off ? (max_warps / 2 / warps_per_block) * 2 : max_warps / warps_per_block;
    }
    o.pgc = gc != PartitionedGC::off;

    // --- blocks ---------------------------------------------------------------------------------
    // [PG] "Maximum number of resident blocks per SM".
    o.blocks = a.max_blocks_per_sm;

    // --- shared memory --------------------------------------------------------------------------
    // Per block: static + dynamic + the driver's reserve (1 KB from 8.0, [ATG] §1.4.2.3), rounded up
    // to the allocation unit (256 B before 8.0, 128 B from 8.0).
    const std::int64_t base = smem_static + a.smem_reserved_per_block;
    o.smem_alloc = round_up64(base + smem_dynamic, a.smem_alloc_unit);
    // What one block may use: block_smem_limit (occupancy.hpp).
    const BlockSmemLimit lim = block_smem_limit(a, smem_static, k.optin || k.max_dynamic_smem >= 0,
                                                k.max_dynamic_smem >= 0 ? std::min(k.max_dynamic_smem, kSizeCap) : -1);
    if (lim.optin && lim.max_dynamic > lim.device_max_dynamic && o.fail == Fail::none) o.fail = Fail::max_dyn_range;
    o.max_dyn = lim.max_dynamic;
    o.smem_limit = lim.bytes;
    const bool dyn_exceeded = lim.optin && smem_dynamic > lim.max_dynamic;
    o.smem_sm = preferred_smem(a, l.carveout, l.cache_config);
    if (dyn_exceeded || o.smem_alloc > o.smem_limit) {
        o.smem = 0;
        if (o.fail == Fail::none) o.fail = dyn_exceeded ? Fail::smem_over_kernel_max : Fail::smem_over_block;
    } else {
        o.smem_sm = configured_smem_per_sm(a, l.carveout, l.cache_config, o.smem_alloc);
        if (o.smem_sm < 0) {
            o.smem = 0;
            if (o.fail == Fail::none) o.fail = Fail::no_carveout_fits;
        } else {
            o.smem = o.smem_alloc > 0 ? static_cast<int>(std::min<std::int64_t>(o.smem_sm / o.smem_alloc, kUnlimited)) : kUnlimited;
        }
    }

    // --- barriers (9.0+) --------------------------------------------------------------------------
    // Each block slot comes with 1 or 2 hardware named-barrier sets depending on the part; a
    // kernel using b named barriers fits (slots × per-slot) / b times (cuda_occupancy.h; CUDA 12
    // Hopper Tuning Guide, "Named barriers").
    if (a.barriers_limit_blocks && k.barriers > 0) o.barriers = o.blocks * a.barriers_per_block_slot / k.barriers;

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

std::string fmt_cc(const ArchRules& a) { return std::to_string(a.cc_major) + "." + std::to_string(a.cc_minor); }

std::string message_for(const Limits& o, const ArchRules& a, const KernelResources& k, const LaunchConfig& l) {
    char buf[512];
    switch (o.fail) {
        case Fail::none: return {};
        case Fail::threads_range:
            std::snprintf(buf, sizeof buf, "threads must be 1..%d (threads per block), got %d", a.max_threads_per_block, l.threads);
            break;
        case Fail::threads_too_many:
            std::snprintf(buf, sizeof buf, "threads must be 1..%d on compute capability %s, got %d: the launch would fail",
                          a.max_threads_per_block, fmt_cc(a).c_str(), l.threads);
            break;
        case Fail::regs_range:
            std::snprintf(buf, sizeof buf, "regs must be 0..%d (registers per thread), got %d", a.max_regs_per_thread, k.regs_per_thread);
            break;
        case Fail::regs_per_block:
            std::snprintf(buf, sizeof buf,
                          "regs: %d registers x %d threads needs %d registers per block (%d per warp after rounding to %d, "
                          "%d warps counted as %d across %d sub-partitions); the limit is %d per block: "
                          "use fewer registers (__launch_bounds__ / -maxrregcount) or a smaller block",
                          k.regs_per_thread, l.threads, o.regs_per_block_assumed, o.regs_per_warp_alloc, a.reg_alloc_unit,
                          o.warps_per_block, round_up(o.warps_per_block, a.subpartitions), a.subpartitions, a.regs_per_block);
            break;
        case Fail::smem_negative:
            std::snprintf(buf, sizeof buf, "%s must be >= 0 bytes, got %lld", k.smem_static < 0 ? "smem_static" : "smem_dynamic",
                          static_cast<long long>(k.smem_static < 0 ? k.smem_static : l.smem_dynamic));
            break;
        case Fail::smem_over_block: {
            const SmemLimitRule rule(a);
            const bool could_optin = !k.optin && k.max_dynamic_smem < 0 && rule.optin_supported() && o.smem_alloc <= rule.optin_bytes();
            std::snprintf(buf, sizeof buf,
                          "shared memory per block is %s (static %s + dynamic %s + reserved %s, rounded to %d B), over the %s a block may use%s",
                          format_bytes(o.smem_alloc).c_str(), format_bytes(k.smem_static).c_str(), format_bytes(l.smem_dynamic).c_str(),
                          format_bytes(a.smem_reserved_per_block).c_str(), a.smem_alloc_unit, format_bytes(o.smem_limit).c_str(),
                          could_optin ? ": opt in (--optin, cudaFuncAttributeMaxDynamicSharedMemorySize) to raise it" : "");
            break;
        }
        case Fail::smem_over_kernel_max:
            std::snprintf(buf, sizeof buf, "smem_dynamic %s is above the kernel's max_dynamic_smem %s (cudaFuncAttributeMaxDynamicSharedMemorySize)",
                          format_bytes(l.smem_dynamic).c_str(), format_bytes(o.max_dyn).c_str());
            break;
        case Fail::max_dyn_range:
            std::snprintf(buf, sizeof buf, "max_dynamic_smem must be 0..%lld bytes (opt-in maximum %s minus static %s), got %lld",
                          static_cast<long long>(block_smem_limit(a, k.smem_static, true, -1).device_max_dynamic),
                          format_bytes(a.smem_per_block_optin).c_str(), format_bytes(k.smem_static).c_str(),
                          static_cast<long long>(k.max_dynamic_smem));
            break;
        case Fail::carveout_range:
            std::snprintf(buf, sizeof buf, "carveout must be -1 (default) or 0..100 percent, got %d", l.carveout);
            break;
        case Fail::barriers_range:
            std::snprintf(buf, sizeof buf, "barriers must be 0..16 (named barriers per block), got %d", k.barriers);
            break;
        case Fail::no_carveout_fits:
            std::snprintf(buf, sizeof buf, "no shared-memory carveout of this device holds one block of %s", format_bytes(o.smem_alloc).c_str());
            break;
        case Fail::virtual_range:
            std::snprintf(buf, sizeof buf, "virtual_resources must be >= 0 (virtual resources per block, 0 = none), got %d",
                          k.virtual_resources);
            break;
        case Fail::virtual_too_many:
            std::snprintf(buf, sizeof buf,
                          "virtual_resources: %d per block is more than the %d an SM has on compute capability %s: no block fits",
                          k.virtual_resources, a.virtual_resources_per_sm, fmt_cc(a).c_str());
            break;
    }
    return buf;
}

}  // namespace

// [SECTION] Public API

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
    r.max_warps_per_sm = a.max_warps_per_sm();
    r.error = message_for(o, a, k, l);
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
    if (o.warps == r.blocks_per_sm) r.limiters |= kLimitWarps;
    if (o.regs == r.blocks_per_sm) r.limiters |= kLimitRegisters;
    if (o.smem == r.blocks_per_sm) r.limiters |= kLimitSharedMemory;
    if (o.blocks == r.blocks_per_sm) r.limiters |= kLimitBlocks;
    if (o.barriers == r.blocks_per_sm) r.limiters |= kLimitBarriers;
    if (o.virt == r.blocks_per_sm) r.limiters |= kLimitVirtualResources;
    r.warps_per_block = o.warps_per_block;
    r.warps_per_sm = r.blocks_per_sm * o.warps_per_block;
    r.threads_per_sm = r.blocks_per_sm * l.threads;
    r.occupancy = r.max_warps_per_sm > 0 ? static_cast<double>(r.warps_per_sm) / r.max_warps_per_sm : 0.0;
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
