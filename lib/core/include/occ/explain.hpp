// occ/explain.hpp — one-line reasons behind each number, shared by the CLI table and GUI tooltips.
#pragma once
#include <string>

#include "occ/occupancy.hpp"

namespace occ {

// Each of these reads the limiter's entry in kLimiters (occ/occupancy.hpp).
// e.g. registers: "64 regs x 32 lanes = 2048 per warp (unit 256); 16384 per sub-partition / 2048 = 8 warps x 4 = 32 warps / 8 per block = 4"
std::string explain_limit(Limiter which, const Device& dev, const KernelResources& k, const LaunchConfig& l, const OccupancyResult& r);
// The rule in general terms (for tooltips), independent of the inputs.
const char* limit_rule(Limiter which);
// The labels of the limiters in a mask, in kLimiters' order: "registers and shared memory" with
// separator " and "; "" for none.
std::string limiter_labels(unsigned mask, const char* separator);
// "limited by registers and shared memory" / "launch fails: ..." summary line.
std::string summarize(const OccupancyResult& r);

}  // namespace occ
