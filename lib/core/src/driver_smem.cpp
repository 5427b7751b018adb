// driver_smem.cpp — the shared memory the driver configures for a launch (occ/occupancy.hpp).
#include <algorithm>

#include "occ/occupancy.hpp"

namespace occ {
namespace {

// The smallest carveout >= need and >= floor; the largest when none is.
std::int64_t smallest(const ArchRules& a, std::int64_t need, std::int64_t floor = 0) {
    const auto steps = a.carveouts();
    for (std::int64_t s : steps)
        if (s >= need && s >= floor) return s;
    return steps.empty() ? a.smem_per_sm : steps.back();
}

constexpr std::int64_t k64K = 64 * 1024;

}  // namespace

DriverSmemConfig driver_smem_config(const ArchRules& a, const KernelResources& k, const OccupancyResult& r) {
    DriverSmemConfig d;
    if (!r.ok()) return d;
    if (a.smem_config != SmemConfig::carveout) {
        d.bytes = r.smem_per_sm_configured;
        d.block_limit = r.limit_shared_memory == kUnlimited ? a.max_blocks_per_sm : r.limit_shared_memory;
        return d;
    }
    // The blocks every other limit allows, each with its allocation (the driver's reserve included).
    const std::int64_t blocks = std::min({r.limit_blocks, r.limit_warps, r.limit_registers});
    const std::int64_t per_block = r.smem_per_block_allocated;
    const std::int64_t need = blocks * per_block;
    const std::int64_t base = smallest(a, need);
    d.bytes = smallest(a, need, a.driver_smem_floor);
    if (a.driver_smem_headroom) d.bytes = std::max(d.bytes, std::min(smallest(a, 2 * need), std::max(base, k64K)));
    d.block_limit = per_block > 0 ? static_cast<int>(d.bytes / per_block) : a.max_blocks_per_sm;
    // Kernels with static __shared__ arrays on parts without a floor or headroom rule were seen with
    // up to 64 KB configured (cc 8.6 reports in tests/fixtures/ncu).
    d.may_be_larger = k.smem_static > 0 && a.driver_smem_floor == 0 && !a.driver_smem_headroom && d.bytes < k64K;
    return d;
}

}  // namespace occ
