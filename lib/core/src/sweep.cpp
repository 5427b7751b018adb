// sweep.cpp — sweeps and the grid, built on the single occupancy model.
#include "occ/sweep.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace occ {
namespace {

SweepPoint point(std::int64_t x, const OccupancyResult& r) {
    return SweepPoint{x, r.blocks_per_sm, r.warps_per_sm, r.occupancy, r.limiters};
}

}  // namespace

std::vector<SweepPoint> sweep_block_size(const Device& dev, const KernelResources& k, const LaunchConfig& l, int step) {
    step = std::max(1, step);
    std::vector<SweepPoint> out;
    const int max = dev.arch.max_threads_per_block;
    out.reserve(static_cast<std::size_t>(max / step + 2));
    LaunchConfig q = l;
    for (int t = 1; t <= max; t += (t == 1 && step > 1 ? step - 1 : step)) {
        q.threads = t;
        out.push_back(point(t, compute_occupancy(dev, k, q)));
    }
    if (out.empty() || out.back().x != max) {
        q.threads = max;
        out.push_back(point(max, compute_occupancy(dev, k, q)));
    }
    return out;
}

std::vector<SweepPoint> sweep_registers(const Device& dev, const KernelResources& k, const LaunchConfig& l) {
    std::vector<SweepPoint> out;
    out.reserve(static_cast<std::size_t>(dev.arch.max_regs_per_thread + 1));
    KernelResources q = k;
    for (int r = 0; r <= dev.arch.max_regs_per_thread; ++r) {
        q.regs_per_thread = r;
        out.push_back(point(r, compute_occupancy(dev, q, l)));
    }
    return out;
}

std::vector<SweepPoint> sweep_shared_memory(const Device& dev, const KernelResources& k, const LaunchConfig& l, std::int64_t step) {
    const ArchRules& a = dev.arch;
    if (step <= 0) step = a.smem_alloc_unit;
    std::int64_t max = block_smem_limit(a, std::max<std::int64_t>(0, k.smem_static), k.optin || k.max_dynamic_smem >= 0, -1)
                           .device_max_dynamic;
    if (k.max_dynamic_smem >= 0) max = std::min(max, k.max_dynamic_smem);
    max = std::max<std::int64_t>(0, max);
    std::vector<SweepPoint> out;
    out.reserve(static_cast<std::size_t>(max / step + 2));
    LaunchConfig q = l;
    for (std::int64_t s = 0; s <= max; s += step) {
        q.smem_dynamic = s;
        out.push_back(point(s, compute_occupancy(dev, k, q)));
    }
    if (out.back().x != max) {
        q.smem_dynamic = max;
        out.push_back(point(max, compute_occupancy(dev, k, q)));
    }
    return out;
}

void occupancy_grid(const ArchRules& a, const KernelResources& k, const LaunchConfig& l, std::span<std::uint8_t> out) {
    if (out.size() < kGridSize) return;
    // Every rule sees the block size only through its warp count ceil(threads / 32) and the
    // max-threads check, so 32 warp counts × 256 register counts determine all 262,144 cells.
    constexpr int kMaxWarps = kGridThreads / 32;
    std::array<std::uint8_t, kMaxWarps * kGridRegs> by_warps{};
    KernelResources kq = k;
    LaunchConfig lq = l;
    for (int r = 0; r < kGridRegs; ++r) {
        kq.regs_per_thread = r;
        for (int w = 1; w <= kMaxWarps; ++w) {
            lq.threads = w * a.warp_size;
            const int b = blocks_per_sm_fast(a, kq, lq);
            by_warps[static_cast<std::size_t>((w - 1) * kGridRegs + r)] = static_cast<std::uint8_t>(std::clamp(b, 0, 255));
        }
    }
    for (int t = 1; t <= kGridThreads; ++t) {
        std::uint8_t* row = out.data() + static_cast<std::size_t>(t - 1) * kGridRegs;
        if (t > a.max_threads_per_block) {
            std::memset(row, 0, kGridRegs);
            continue;
        }
        const int w = (t + a.warp_size - 1) / a.warp_size;
        std::memcpy(row, by_warps.data() + static_cast<std::size_t>(w - 1) * kGridRegs, kGridRegs);
    }
}

}  // namespace occ
