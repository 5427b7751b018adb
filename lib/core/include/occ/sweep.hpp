// occ/sweep.hpp — occupancy against one input at a time, and the block-size × registers grid.
// The GUI's graphs and heatmap, the advisor and `occ occupancy --sweep` draw on these.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "occ/occupancy.hpp"

namespace occ {

struct SweepPoint {
    std::int64_t x = 0;  // the swept input's value (threads, registers or bytes)
    int blocks_per_sm = 0;
    int warps_per_sm = 0;
    double occupancy = 0.0;
    unsigned limiters = 0;  // Limiter bits
};

// Threads per block from 1 to max_threads_per_block (every value, or every `step`-th plus the ends).
std::vector<SweepPoint> sweep_block_size(const Device& dev, const KernelResources& k, const LaunchConfig& l, int step = 1);
// Registers per thread from 0 to max_regs_per_thread.
std::vector<SweepPoint> sweep_registers(const Device& dev, const KernelResources& k, const LaunchConfig& l);
// Dynamic shared memory per block from 0 to what one block may use (with the kernel's opt-in
// setting), every `step` bytes (default: the allocation unit).
std::vector<SweepPoint> sweep_shared_memory(const Device& dev, const KernelResources& k, const LaunchConfig& l, std::int64_t step = 0);

// Block size × registers: blocks per SM for threads 1..kGridThreads and regs 0..kGridRegs-1.
// Index = (threads - 1) * kGridRegs + regs. Values above the device's limits are 0.
inline constexpr int kGridThreads = 1024;
inline constexpr int kGridRegs = 256;
inline constexpr std::size_t kGridSize = static_cast<std::size_t>(kGridThreads) * kGridRegs;  // 262,144
// Fills `out` (size kGridSize). No allocation; the other inputs (shared memory, carveout...) are held fixed.
void occupancy_grid(const ArchRules& a, const KernelResources& k, const LaunchConfig& l, std::span<std::uint8_t> out);

}  // namespace occ
