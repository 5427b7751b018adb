// occ/waves.hpp — how a grid fills the GPU: blocks per wave, number of waves, the tail.
//
// A "wave" is one round of blocks that the whole GPU holds at once: blocks per SM (from the
// occupancy model) × SM count. Nsight Compute reports grid / (blocks per SM × SMs) as
// "Waves Per SM" in its Launch Statistics section (Nsight Compute Profiling Guide, "Launch
// Statistics": launch__waves_per_multiprocessor). A fractional part means a partial last wave
// (the "tail"): some SMs sit idle while it runs.
#pragma once
#include <cstdint>
#include <string>

#include "occ/occupancy.hpp"

namespace occ {

struct WaveResult {
    int blocks_per_sm = 0;
    int sm_count = 0;
    std::int64_t grid_blocks = 0;
    std::int64_t blocks_per_wave = 0;  // blocks_per_sm × sm_count
    double waves = 0.0;                // grid / blocks_per_wave, as Nsight Compute's "Waves Per SM"
    std::int64_t full_waves = 0;       // whole waves
    std::int64_t total_waves = 0;      // waves actually run (full + 1 when there is a tail)
    std::int64_t tail_blocks = 0;      // blocks in the partial last wave (0 when the grid divides evenly)
    double last_wave_fill = 0.0;       // how full the last wave is, 0..1 (1 when no tail)
    double efficiency = 0.0;           // grid / (total_waves × blocks_per_wave): busy block slots over the run
    // Grid sizes that end on a whole wave: the nearest multiples of blocks_per_wave at or below and
    // at or above the grid (the one below is 0 when the grid is smaller than a wave). For a
    // grid-stride loop, blocks_per_wave itself is the natural grid (one full wave).
    std::int64_t suggested_grid_down = 0;
    std::int64_t suggested_grid_up = 0;
    // Predicted achieved occupancy (what Nsight Compute reports as "Achieved Occupancy"), a
    // fraction of the SM's warps: the waves and the tail of this grid, scaled by an efficiency
    // fitted on public reports (the model and its leave-one-source-out error: docs/MODEL.md,
    // "Achieved occupancy"). -1 with achieved_unknown saying why when it cannot be predicted.
    double achieved_occupancy = -1;
    // The range the reports fall in around it (same fit; it held 93.9 % of launches from sources
    // the fit never saw, docs/MODEL.md): uneven or short blocks reach the low end. -1 with
    // achieved_occupancy.
    double achieved_occupancy_low = -1;
    double achieved_occupancy_high = -1;
    std::string achieved_unknown;
    std::string error;
    bool ok() const { return error.empty(); }
};

// Waves for `grid_blocks` blocks given `blocks_per_sm` resident per SM on `sm_count` SMs.
// grid_blocks = 0 means "not given": the result then describes one full wave.
WaveResult compute_waves(int blocks_per_sm, int sm_count, std::int64_t grid_blocks);

// Same, taking blocks per SM from a full occupancy result, with the predicted achieved occupancy
// (registers per thread: the model's one kernel input).
WaveResult compute_waves(const OccupancyResult& r, int sm_count, std::int64_t grid_blocks, int regs_per_thread);

}  // namespace occ
