// explain.cpp — human-readable derivations of each limit.
#include "occ/explain.hpp"

#include <cstdio>

#include "occ/format.hpp"
#include "occ/text.hpp"

namespace occ {

// [SECTION] Each limit worked through for one launch (the hooks kLimiters names)
namespace limit_explainers {

std::string warps(const Device& dev, const KernelResources&, const LaunchConfig& l, const OccupancyResult& r) {
    const ArchRules& a = dev.arch;
    if (l.threads > a.max_threads_per_block) return "block is larger than " + std::to_string(a.max_threads_per_block) + " threads";
    char buf[200];
    std::snprintf(buf, sizeof buf, "%d warps/SM / %d warps per block%s", a.max_warps_per_sm(), r.warps_per_block,
                  r.partitioned_gc_active ? " (per half SM: partitioned caching)" : "");
    return buf;
}

std::string registers(const Device& dev, const KernelResources& k, const LaunchConfig&, const OccupancyResult& r) {
    const ArchRules& a = dev.arch;
    if (r.regs_per_warp_allocated == 0) return "0 registers: no register limit";
    if (r.limit_registers == 0) return "block needs more than " + format_count(a.regs_per_block) + " registers";
    const int per_sub = a.regs_per_sm / a.subpartitions;
    const int warps_sub = per_sub / r.regs_per_warp_allocated;
    char buf[200];
    std::snprintf(buf, sizeof buf, "%d regs x 32 -> %s/warp; %d warps/sub-partition x %d = %d warps / %d", k.regs_per_thread,
                  format_count(r.regs_per_warp_allocated).c_str(), warps_sub, a.subpartitions, warps_sub * a.subpartitions,
                  r.warps_per_block);
    return buf;
}

std::string shared_memory(const Device&, const KernelResources&, const LaunchConfig&, const OccupancyResult& r) {
    if (r.smem_per_block_allocated == 0) return "no shared memory used";
    if (r.limit_shared_memory == 0)
        return "block needs " + format_bytes(r.smem_per_block_allocated) + ", over its " + format_bytes(r.smem_per_block_limit) + " limit";
    return format_bytes(r.smem_per_sm_configured) + " carveout / " + format_bytes(r.smem_per_block_allocated) + " per block";
}

std::string blocks(const Device& dev, const KernelResources&, const LaunchConfig&, const OccupancyResult&) {
    const ArchRules& a = dev.arch;
    return std::to_string(a.max_blocks_per_sm) + " block slots per SM on cc " + std::to_string(a.cc_major) + "." +
           std::to_string(a.cc_minor);
}

std::string barriers(const Device& dev, const KernelResources& k, const LaunchConfig&, const OccupancyResult& r) {
    const ArchRules& a = dev.arch;
    if (r.limit_barriers == kUnlimited) return a.barriers_limit_blocks ? "no named barriers used" : "not modelled before 9.0";
    char buf[200];
    std::snprintf(buf, sizeof buf, "%d block slots x %d barrier sets / %d barriers per block", a.max_blocks_per_sm,
                  a.barriers_per_block_slot, k.barriers);
    return buf;
}

// cuda_occupancy.h (CUDA 13): blockLimitVirtual = virtual resources per SM / virtualResourceCount.
std::string virtual_resources(const Device& dev, const KernelResources& k, const LaunchConfig&, const OccupancyResult& r) {
    const ArchRules& a = dev.arch;
    if (k.virtual_resources <= 0) return "none declared";
    if (a.virtual_resources_per_sm <= 0) return "no virtual-resource limit before 10.0";
    if (r.limit_virtual_resources == 0)
        return "block needs " + std::to_string(k.virtual_resources) + ", more than the SM's " + std::to_string(a.virtual_resources_per_sm);
    return std::to_string(a.virtual_resources_per_sm) + " virtual resources/SM / " + std::to_string(k.virtual_resources) + " per block";
}

std::string tmem(const Device& dev, const KernelResources& k, const LaunchConfig&, const OccupancyResult& r) {
    const ArchRules& a = dev.arch;
    if (k.tmem_columns <= 0) return "no Tensor Memory allocated";
    if (a.tmem_columns_per_sm <= 0)
        return "cc " + std::to_string(a.cc_major) + "." + std::to_string(a.cc_minor) + " has no Tensor Memory (10.0, 10.3 and 11.0 do)";
    std::string s = std::to_string(a.tmem_columns_per_sm) + " columns/SM / " + std::to_string(k.tmem_columns) + " per block";
    if (r.limit_tmem < r.blocks_per_sm)
        s += "; " + std::to_string(r.blocks_per_sm - r.limit_tmem) + " of " + std::to_string(r.blocks_per_sm) +
             " resident blocks wait in tcgen05.alloc";
    return s;
}

}  // namespace limit_explainers

// [SECTION] Sentences over the list

const char* limit_rule(Limiter which) { return limiter_info(which).rule; }

std::string explain_limit(Limiter which, const Device& dev, const KernelResources& k, const LaunchConfig& l, const OccupancyResult& r) {
    return limiter_info(which).explain(dev, k, l, r);
}

std::string limiter_labels(unsigned mask, const char* separator) { return limiter_words(kLimiters, mask, separator); }

std::string summarize(const OccupancyResult& r) {
    if (!r.ok() && r.blocks_per_sm == 0) return "launch fails: " + r.error_message();
    const std::string names = limiter_labels(r.limiters, " and ");
    std::string s = names.empty() ? std::string("no limit") : "limited by " + names;
    const int e = effective_blocks_per_sm(r);
    if (e < r.blocks_per_sm)
        s += "; " + std::to_string(e) + " of the " + std::to_string(r.blocks_per_sm) + " resident blocks work at once (" +
             limiter_labels(effective_limiters(r) & ~r.limiters, " and ") + ")";
    return s;
}

}  // namespace occ
