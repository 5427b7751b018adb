// app_state.hpp — everything the app knows: the inputs (one occupancy request, the same struct the
// CLI and JSON API use), view flags, and the results derived from the inputs by occ::core.
//
// [SECTION] Inputs and flags: what a scenario stores
// [SECTION] Derived: what occ::core computed from the inputs (recomputed only when they change)
// [SECTION] AppState + the few functions that change it outside widgets
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "occ/banks.hpp"
#include "occ/coalescing.hpp"
#include "occ/io/api.hpp"
#include "occ/occupancy.hpp"
#include "occ/sweep.hpp"
#include "occ/waves.hpp"

namespace occ::ui {

// [SECTION] Inputs and flags
enum class DeviceKind : int { named = 0, cc = 1, custom = 2 };
enum class Tab : int { occupancy = 0, memory = 1 };

struct ViewFlags {
    bool sm = true;        // the SM picture
    bool plots = true;     // occupancy vs block size / registers / shared memory
    bool heatmap = true;   // block size x registers
    bool hints = true;
};

// The memory view's access: one pattern drawn both as a global access (sectors) and as a shared
// access (banks). Default: a warp reading a column of a 32 x 32 float tile, the classic transpose
// case (uncoalesced in global memory, a 32-way bank conflict in shared memory).
struct MemoryInputs {
    AccessPattern pattern = [] {
        AccessPattern p;
        p.kind = PatternKind::index_2d;
        p.block[0] = 32;
        p.block[1] = 32;
        p.order = IndexOrder::column;
        return p;
    }();
    int warp = 0;   // which warp of the block the pictures show
};

struct MemoryDerived {
    std::string error;                 // the pattern is refused (check_pattern)
    std::string global_unsupported;    // the device is below the global model's range
    std::string banks_unsupported;
    GlobalBlockResult global;
    BankBlockResult banks;
    WarpAccess warp_access;            // the shown warp's lanes
};

// [SECTION] Derived
// What to change next (from occ::core's advisor; see state.cpp).
struct Hints {
    bool valid = false;            // false when no block fits
    int regs_now = 0;
    int regs_max_same = -1;        // the most regs/thread that keep blocks_per_sm
    bool regs_unbounded = false;   // registers never cost a block up to the maximum
    int regs_to_gain = -1;         // the most regs/thread that fit one more block; -1 = none
    int regs_gain_blocks = 0;      // blocks/SM at regs_to_gain
    double regs_gain_occupancy = 0;
    std::string regs_note;         // why no register cut helps
    std::int64_t smem_max_same = -1;   // the most dynamic smem that keeps blocks_per_sm
    std::int64_t smem_to_gain = -1;    // the most dynamic smem that fits one more block; -1 = none
    int smem_gain_blocks = 0;
    int best_block = 0;            // cudaOccupancyMaxPotentialBlockSize's choice (largest on ties)
    double best_occupancy = 0;
    std::vector<int> best_threads; // every multiple of 32 reaching best_occupancy (from the sweep)
};

struct Derived {
    OccupancyResult result;
    std::vector<SweepPoint> by_threads, by_regs, by_smem;
    // The same sweeps as plot series (x in the input's unit, y = occupancy in %).
    std::vector<float> threads_x, threads_y, regs_x, regs_y, smem_x, smem_y;
    std::vector<unsigned> threads_lim, regs_lim, smem_lim;   // limiter bits per point (line colour)
    // Heatmap: blocks per SM for block sizes 32, 64, ... 1024 (columns) x registers 0..255 (rows),
    // sampled from occ::occupancy_grid (which is constant within a warp's worth of threads).
    std::vector<std::uint8_t> grid_full;   // kGridSize, as occupancy_grid fills it
    std::vector<float> heat_occupancy;     // columns x rows, occupancy in %
    int heat_cols = 0, heat_rows = 0;
    Hints hints;
    WaveResult waves;
    MemoryDerived memory;                      // grid over the GPU (meaningful when a grid is given)
    double recompute_ms = 0;               // how long the last recompute took (shown in the status bar)
};

// [SECTION] AppState
struct AppState {
    // Inputs: exactly what occ::io reads and writes, so a scenario is a CLI --json request.
    io::OccupancyRequest req;
    DeviceKind device_kind = DeviceKind::named;
    bool block_3d = false;

    // Picker scratch (not part of the scenario).
    char gpu_search[64] = {};

    MemoryInputs memory;
    ViewFlags views;
    Tab tab = Tab::occupancy;
    Tab shown_tab = Tab::occupancy;   // the tab the tab bar shows (a scenario may ask for another)
    bool dark = true;
    float content_scale = 1.0f;
    std::vector<unsigned char> font_ttf;   // optional UI font (the platform may hand one in)
    bool fonts_built = false;
    bool focused_once = false;             // the app window got keyboard focus at start

    std::string notice;          // shown at the top until dismissed
    bool scenario_changed = false;

    std::uint64_t input_generation = 1;    // bumped by every input change
    std::uint64_t derived_generation = 0;  // generation `derived` was computed for
    Derived derived;
};

// The defaults a fresh app shows: A100, 256 threads, 32 registers.
void reset_inputs(AppState& s);
// Call after any input change (widgets do it; tests and scenario loading too).
void mark_changed(AppState& s);
// Recomputes `derived` if the inputs changed since the last call. Cheap when nothing changed.
void refresh(AppState& s);
// Keeps launch.threads and block[] consistent after either changed.
void sync_block(AppState& s);

}  // namespace occ::ui
