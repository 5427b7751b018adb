// waves.cpp — waves and tail effect (see occ/waves.hpp).
#include "occ/waves.hpp"

#include <algorithm>

namespace occ {

WaveResult compute_waves(int blocks_per_sm, int sm_count, std::int64_t grid_blocks) {
    WaveResult w;
    w.blocks_per_sm = blocks_per_sm;
    w.sm_count = sm_count;
    w.grid_blocks = grid_blocks;
    if (sm_count < 1) {
        w.error = "sm_count must be at least 1, got " + std::to_string(sm_count);
        return w;
    }
    if (grid_blocks < 0) {
        w.error = "grid must be >= 0 blocks, got " + std::to_string(grid_blocks);
        return w;
    }
    if (blocks_per_sm <= 0) {
        w.error = "no block fits on an SM, so the grid never runs";
        return w;
    }
    w.blocks_per_wave = static_cast<std::int64_t>(blocks_per_sm) * sm_count;
    const std::int64_t grid = grid_blocks > 0 ? grid_blocks : w.blocks_per_wave;
    w.waves = static_cast<double>(grid) / static_cast<double>(w.blocks_per_wave);
    w.full_waves = grid / w.blocks_per_wave;
    w.tail_blocks = grid % w.blocks_per_wave;
    w.total_waves = w.full_waves + (w.tail_blocks > 0 ? 1 : 0);
    w.last_wave_fill = w.tail_blocks > 0 ? static_cast<double>(w.tail_blocks) / static_cast<double>(w.blocks_per_wave) : 1.0;
    w.efficiency = static_cast<double>(grid) / static_cast<double>(w.total_waves * w.blocks_per_wave);
    w.suggested_grid_down = w.full_waves * w.blocks_per_wave;
    w.suggested_grid_up = w.total_waves * w.blocks_per_wave;
    return w;
}

namespace {

// The achieved-occupancy model, fitted by scripts/fit_carveout.py on the public Nsight Compute
// reports in tests/fixtures/ncu_public/reports.jsonl and tests/fixtures/ncu/heldout_reports.json
// (tests/cli/test_fit_carveout.py checks these equal the script's fit). Two views of the same grid: blocks in lock-step waves, where a
// partial last wave keeps min(SMs, tail) SMs busy for a whole block's time, and blocks spread
// evenly back to back (min(blocks per SM, max(1, grid / SMs)) per busy SM); ncu averages warps over
// the cycles each SM was active. Their mean, times the median achieved / model of the reports:
// kernels with few registers (short blocks, so the gaps between blocks weigh more) reach less.
// The range: per group, a low quantile and the largest of the reports' achieved / mean.
constexpr double kTailWeight = 0.5;
constexpr int kLightRegisters = 20;
constexpr double kEfficiencyLight = 0.8555;
constexpr double kEfficiencyOther = 0.9795;
constexpr double kRangeLightLow = 0.6015;
constexpr double kRangeLightHigh = 1.0456;
constexpr double kRangeOtherLow = 0.7915;
constexpr double kRangeOtherHigh = 1.09;

}  // namespace

WaveResult compute_waves(const OccupancyResult& r, int sm_count, std::int64_t grid_blocks, int regs_per_thread) {
    WaveResult w = compute_waves(r.blocks_per_sm, sm_count, grid_blocks);
    if (!r.ok() && w.error.empty()) w.error = r.error_message();
    if (!w.ok()) {
        w.achieved_unknown = w.error;
        return w;
    }
    if (grid_blocks <= 0) {
        w.achieved_unknown = "the grid size is not given";
        return w;
    }
    const double sms = sm_count, blocks = r.blocks_per_sm, warps = r.warps_per_block, max_warps = r.max_warps_per_sm;
    const double cap = blocks * warps / max_warps;
    const double busy = sms * static_cast<double>(w.full_waves) + std::min(sms, static_cast<double>(w.tail_blocks));
    const double grid = static_cast<double>(grid_blocks);
    const double lockstep = std::min(grid * warps / busy, blocks * warps) / max_warps;
    const double spread = std::min(blocks, std::max(1.0, grid / sms)) * warps / max_warps;
    const bool light = regs_per_thread <= kLightRegisters;
    const double mean = kTailWeight * lockstep + (1.0 - kTailWeight) * spread;
    w.achieved_occupancy = std::min(mean * (light ? kEfficiencyLight : kEfficiencyOther), cap);
    w.achieved_occupancy_low = std::min(mean * (light ? kRangeLightLow : kRangeOtherLow), cap);
    w.achieved_occupancy_high = std::min(mean * (light ? kRangeLightHigh : kRangeOtherHigh), cap);
    return w;
}

}  // namespace occ
