// explain.cpp — human-readable derivations of each limit.
#include "occ/explain.hpp"

#include <cstdio>

#include "occ/format.hpp"

namespace occ {
namespace {
std::string lim(int v) { return v == kUnlimited ? std::string("no limit") : std::to_string(v); }
}  // namespace

const char* limit_rule(Limiter which) {
    switch (which) {
        case kLimitWarps: return "Warp slots: an SM holds a fixed number of resident warps; a block takes ceil(threads / 32) of them.";
        case kLimitRegisters:
            return "Registers: allocated per warp (regs x 32, rounded up to 256); each of the SM's sub-partitions has its own "
                   "quarter of the register file, so warps that fit = floor(regs_per_sm / sub-partitions / regs_per_warp) x "
                   "sub-partitions.";
        case kLimitSharedMemory:
            return "Shared memory: static + dynamic + the driver's 1 KB reserve (8.0+), rounded to 128 B (256 B before 8.0), "
                   "out of the carveout the driver configures for the SM.";
        case kLimitBlocks: return "Block slots: an SM holds at most 16, 24 or 32 resident blocks depending on the architecture.";
        case kLimitBarriers:
            return "Named barriers (9.0+): each block slot carries 1 or 2 sets of hardware barriers; a kernel using more barriers fits "
                   "fewer blocks.";
    }
    return "";
}

std::string explain_limit(Limiter which, const Device& dev, const KernelResources& k, const LaunchConfig& l, const OccupancyResult& r) {
    const ArchRules& a = dev.arch;
    char buf[400];
    switch (which) {
        case kLimitWarps:
            if (l.threads > a.max_threads_per_block) return "block is larger than " + std::to_string(a.max_threads_per_block) + " threads";
            std::snprintf(buf, sizeof buf, "%d warps/SM / %d warps per block%s", a.max_warps_per_sm(), r.warps_per_block,
                          r.partitioned_gc_active ? " (per half SM: partitioned caching)" : "");
            return buf;
        case kLimitRegisters: {
            if (r.regs_per_warp_allocated == 0) return "0 registers: no register limit";
            if (r.limit_registers == 0) return "block needs more than " + format_count(a.regs_per_block) + " registers";
            const int per_sub = a.regs_per_sm / a.subpartitions;
            const int warps_sub = per_sub / r.regs_per_warp_allocated;
            std::snprintf(buf, sizeof buf, "%d regs x 32 -> %s/warp; %d warps/sub-partition x %d = %d warps / %d", k.regs_per_thread,
                          format_count(r.regs_per_warp_allocated).c_str(), warps_sub, a.subpartitions, warps_sub * a.subpartitions,
                          r.warps_per_block);
            return buf;
        }
        case kLimitSharedMemory:
            if (r.smem_per_block_allocated == 0) return "no shared memory used";
            if (r.limit_shared_memory == 0)
                return "block needs " + format_bytes(r.smem_per_block_allocated) + ", over its " + format_bytes(r.smem_per_block_limit) +
                       " limit";
            std::snprintf(buf, sizeof buf, "%s carveout / %s per block", format_bytes(r.smem_per_sm_configured).c_str(),
                          format_bytes(r.smem_per_block_allocated).c_str());
            return buf;
        case kLimitBlocks:
            return std::to_string(a.max_blocks_per_sm) + " block slots per SM on cc " + std::to_string(a.cc_major) + "." +
                   std::to_string(a.cc_minor);
        case kLimitBarriers:
            if (r.limit_barriers == kUnlimited) return a.barriers_limit_blocks ? "no named barriers used" : "not modelled before 9.0";
            std::snprintf(buf, sizeof buf, "%d block slots x %d barrier sets / %d barriers per block", a.max_blocks_per_sm,
                          a.barriers_per_block_slot, k.barriers);
            return buf;
    }
    (void)lim;
    return "";
}

std::string summarize(const OccupancyResult& r) {
    if (!r.ok() && r.blocks_per_sm == 0) return "launch fails: " + r.error_message();
    std::string s = "limited by ";
    int n = 0;
    for (Limiter l : kAllLimiters) {
        if (!(r.limiters & l)) continue;
        std::string name = limiter_name(l);
        for (char& c : name)
            if (c == '_') c = ' ';
        s += (n++ ? " and " : "") + name;
    }
    // Not a Limiter (occupancy.hpp): only kernels that declare a virtual-resource count have it.
    if (r.limiters & kLimitVirtualResources) s += (n++ ? " and " : "") + std::string("virtual resources");
    return n ? s : std::string("no limit");
}

}  // namespace occ
