// occ/register_pool.hpp — warp-specialised register plans (setmaxnreg) checked against the block's pool.
//
// The rules (PTX ISA, "Miscellaneous Instructions: setmaxnreg", PTX ISA 8.0+):
//   - setmaxnreg.dec / .inc set a warp's per-thread register maximum to imm-reg-count, "in the range
//     24 to 256 (both inclusive) and ... a multiple of 8";
//   - "The same setmaxnreg instruction must be executed by all warps in a warpgroup" (4 warps, 128
//     threads): a plan gives one count per warpgroup;
//   - "A pool of available registers is maintained per-CTA": .dec releases registers to it, and
//     "setmaxnreg.inc ... blocks the execution until enough registers are available in the CTA's
//     register pool". The pool is what the block was launched with (the launch register count x
//     threads, as allocated); a plan that asks for more than that never gets it: a hang;
//   - only on architecture- or family-specific targets: sm_90a, sm_100a/f, sm_103a/f, sm_110a/f,
//     sm_120a/f, sm_121a/f (CCCL's PTX tables), and ptxas honours it only when it knows the entry
//     register count (__launch_bounds__ with a minimum block count, or -maxrregcount): otherwise it
//     prints "(C7508) Potential Performance Loss: 'setmaxnreg' ignored; unable to determine register
//     count at entry." and every warp keeps the launch count.
// Occupancy does not change: the launch count sets it (cuda_occupancy.h's count is unchanged).
#pragma once
#include <span>
#include <string>
#include <vector>

#include "occ/device.hpp"
#include "occ/occupancy.hpp"

namespace occ {

inline constexpr int kSetmaxnregMin = 24, kSetmaxnregMax = 256, kSetmaxnregStep = 8;
inline constexpr int kWarpgroupThreads = 128;

// Whether the architecture has setmaxnreg (compute capability 9.0, 10.x, 11.0, 12.x: through its
// "a" or "f" target).
constexpr bool has_setmaxnreg(const ArchRules& a) { return a.cc_major >= 9; }

struct WarpgroupPlan {
    int regs = 0;        // per-thread count after setmaxnreg
    const char* action;  // "dec", "inc" or "keep" (against the launch count)
};

struct RegisterPoolAnswer {
    std::string error;  // why the plan cannot be checked (bad plan, no setmaxnreg on this part); "" otherwise
    int warpgroups = 0;
    int launch_regs = 0;        // per thread, as allocated (rounded up to 8: 256 per warp)
    int pool = 0;               // registers the block holds: launch_regs x threads
    int planned = 0;            // sum over warpgroups of 128 x count
    int left = 0;               // pool - planned (negative: the plan does not fit)
    bool fits = false;          // every inc can be met once every dec has run
    int max_consumer_regs = 0;  // with warpgroup 0 as producer: the largest equal count the others can take (0 = none)
    std::vector<WarpgroupPlan> plan;
    std::string summary;  // one sentence: fits / hang risk, and what to change
};

// plan: one count per warpgroup, in warpgroup order (threads / 128 of them).
RegisterPoolAnswer register_pool(const ArchRules& a, const KernelResources& k, const LaunchConfig& l, std::span<const int> plan);

}  // namespace occ
