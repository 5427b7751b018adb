// waves.cpp — waves and tail effect (see occ/waves.hpp).
#include "occ/waves.hpp"

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

}  // namespace occ
