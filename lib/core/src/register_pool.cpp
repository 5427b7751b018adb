// register_pool.cpp — setmaxnreg plans against the block's register pool (occ/register_pool.hpp has the rules).
#include "occ/register_pool.hpp"

#include <algorithm>

namespace occ {

RegisterPoolAnswer register_pool(const ArchRules& a, const KernelResources& k, const LaunchConfig& l, std::span<const int> plan) {
    RegisterPoolAnswer r;
    const std::string cc = std::to_string(a.cc_major) + "." + std::to_string(a.cc_minor);
    if (!has_setmaxnreg(a)) {
        r.error = "setmaxnreg needs compute capability 9.0 or newer (an sm_90a, sm_100a/f, sm_120a/f ... build); cc " + cc + " has none";
        return r;
    }
    if (l.threads <= 0 || l.threads % kWarpgroupThreads != 0) {
        r.error = "warpgroup_regs: a block of " + std::to_string(l.threads) +
                  " threads is not whole warpgroups (128 threads each): setmaxnreg is executed by all 4 warps of a warpgroup";
        return r;
    }
    r.warpgroups = l.threads / kWarpgroupThreads;
    if (static_cast<int>(plan.size()) != r.warpgroups) {
        r.error = "warpgroup_regs lists " + std::to_string(plan.size()) + " warpgroup(s), but a block of " + std::to_string(l.threads) +
                  " threads has " + std::to_string(r.warpgroups) + ": give one count per warpgroup, in order";
        return r;
    }
    for (std::size_t i = 0; i < plan.size(); ++i)
        if (plan[i] < kSetmaxnregMin || plan[i] > kSetmaxnregMax || plan[i] % kSetmaxnregStep != 0) {
            r.error = "warpgroup_regs[" + std::to_string(i) + "] must be 24..256 in steps of 8 (PTX ISA setmaxnreg), got " +
                      std::to_string(plan[i]);
            return r;
        }
    // The launch count as allocated: a warp's registers are rounded up to reg_alloc_unit (256 = 8 per thread).
    const int per_thread_unit = std::max(1, a.reg_alloc_unit / a.warp_size);
    r.launch_regs = (k.regs_per_thread + per_thread_unit - 1) / per_thread_unit * per_thread_unit;
    r.pool = r.launch_regs * l.threads;
    for (const int regs : plan) {
        r.planned += regs * kWarpgroupThreads;
        r.plan.push_back({regs, regs < r.launch_regs ? "dec" : regs > r.launch_regs ? "inc" : "keep"});
    }
    r.left = r.pool - r.planned;
    r.fits = r.left >= 0;
    if (r.warpgroups >= 2) {
        const int per_consumer = (r.pool / kWarpgroupThreads - plan[0]) / (r.warpgroups - 1);
        r.max_consumer_regs = std::clamp(per_consumer / kSetmaxnregStep * kSetmaxnregStep, 0, kSetmaxnregMax);
        if (r.max_consumer_regs < kSetmaxnregMin) r.max_consumer_regs = 0;
    }
    const int held = r.pool / kWarpgroupThreads, asked = r.planned / kWarpgroupThreads;
    const std::string launch = std::to_string(held) + " the block was launched with (" + std::to_string(r.warpgroups) + " warpgroups x " +
                               std::to_string(r.launch_regs) + ")";
    if (r.fits) {
        r.summary = "fits: the counts sum to " + std::to_string(asked) + " of the " + launch + ", " + std::to_string(held - asked) +
                    " left";
    } else {
        r.summary = "hang risk: the counts sum to " + std::to_string(asked) + ", over the " + launch +
                    "; setmaxnreg.inc waits for registers that are never freed";
        if (r.max_consumer_regs > 0)
            r.summary += ". With warpgroup 0 at " + std::to_string(plan[0]) + ", the others can take at most " +
                         std::to_string(r.max_consumer_regs);
    }
    return r;
}

}  // namespace occ
