// state.cpp — turns inputs into everything the views draw, by calling occ::core only.
#include <algorithm>
#include <chrono>

#include "app_state.hpp"

namespace occ::ui {
namespace {

void to_series(const std::vector<SweepPoint>& pts, double x_scale, std::vector<float>& xs, std::vector<float>& ys,
               std::vector<unsigned>& lim) {
    xs.resize(pts.size());
    ys.resize(pts.size());
    lim.resize(pts.size());
    for (std::size_t i = 0; i < pts.size(); ++i) {
        xs[i] = static_cast<float>(static_cast<double>(pts[i].x) * x_scale);
        ys[i] = static_cast<float>(pts[i].occupancy * 100.0);
        lim[i] = pts[i].limiters;
    }
}

// Reads the hints off the sweeps: where does blocks_per_sm change around the current value?
Hints read_hints(const AppState& s, const Derived& d) {
    Hints h;
    const OccupancyResult& r = d.result;
    double best = 0;
    for (const SweepPoint& p : d.by_threads)
        if (p.x % 32 == 0) best = std::max(best, p.occupancy);
    h.best_occupancy = best;
    for (const SweepPoint& p : d.by_threads)
        if (p.x % 32 == 0 && best > 0 && p.occupancy == best) h.best_threads.push_back(static_cast<int>(p.x));
    if (!r.ok() || r.blocks_per_sm == 0) return h;
    h.valid = true;
    const int b = r.blocks_per_sm;
    h.regs_now = s.req.kernel.regs_per_thread;

    // Registers: the sweep has one point per register count.
    auto at_or_after = std::find_if(d.by_regs.begin(), d.by_regs.end(), [&](const SweepPoint& p) { return p.x >= h.regs_now; });
    h.regs_max_same = h.regs_now;
    h.regs_unbounded = true;
    for (auto it = at_or_after; it != d.by_regs.end(); ++it) {
        if (it->blocks_per_sm < b) {
            h.regs_unbounded = false;
            break;
        }
        h.regs_max_same = static_cast<int>(it->x);
    }
    for (auto it = std::make_reverse_iterator(at_or_after); it != d.by_regs.rend(); ++it) {
        if (it->blocks_per_sm > b) {
            h.regs_to_gain = static_cast<int>(it->x);
            h.regs_gain_blocks = it->blocks_per_sm;
            h.regs_gain_occupancy = it->occupancy;
            break;
        }
    }

    // Shared memory: the sweep steps by the allocation unit over the dynamic size.
    const std::int64_t smem_now = s.req.launch.smem_dynamic;
    h.smem_max_same = smem_now;
    h.smem_unbounded = true;
    for (const SweepPoint& p : d.by_smem) {
        if (p.x < smem_now) continue;
        if (p.blocks_per_sm < b) {
            h.smem_unbounded = false;
            break;
        }
        h.smem_max_same = p.x;
    }
    return h;
}

}  // namespace

void reset_inputs(AppState& s) {
    s.req = io::OccupancyRequest{};
    s.req.device = *find_gpu("A100-SXM4-80GB");
    s.req.launch.threads = 256;
    s.req.kernel.regs_per_thread = 32;
    s.req.block[0] = 256;
    s.req.block[1] = s.req.block[2] = 1;
    s.device_kind = DeviceKind::named;
    s.block_3d = false;
    mark_changed(s);
}

void mark_changed(AppState& s) {
    ++s.input_generation;
    s.scenario_changed = true;
}

void sync_block(AppState& s) {
    if (s.block_3d) {
        for (int& v : s.req.block) v = std::max(1, v);
        s.req.launch.threads = s.req.block[0] * s.req.block[1] * s.req.block[2];
    } else {
        s.req.block[0] = s.req.launch.threads;
        s.req.block[1] = s.req.block[2] = 1;
    }
}

void refresh(AppState& s) {
    if (s.derived_generation == s.input_generation) return;
    const auto t0 = std::chrono::steady_clock::now();
    Derived& d = s.derived;
    const Device& dev = s.req.device;
    const KernelResources& k = s.req.kernel;
    const LaunchConfig& l = s.req.launch;

    d.result = compute_occupancy(dev, k, l);
    d.by_threads = sweep_block_size(dev, k, l);
    d.by_regs = sweep_registers(dev, k, l);
    d.by_smem = sweep_shared_memory(dev, k, l);
    to_series(d.by_threads, 1.0, d.threads_x, d.threads_y, d.threads_lim);
    to_series(d.by_regs, 1.0, d.regs_x, d.regs_y, d.regs_lim);
    to_series(d.by_smem, 1.0 / 1024.0, d.smem_x, d.smem_y, d.smem_lim);   // plotted in KiB

    d.grid_full.resize(kGridSize);
    occupancy_grid(dev.arch, k, l, d.grid_full);
    const int warp = dev.arch.warp_size;
    d.heat_cols = kGridThreads / warp;
    d.heat_rows = kGridRegs;
    d.heat_occupancy.assign(static_cast<std::size_t>(d.heat_cols * d.heat_rows), 0.0f);
    const double max_warps = dev.arch.max_warps_per_sm();
    for (int c = 0; c < d.heat_cols; ++c) {
        const int threads = (c + 1) * warp;
        for (int r = 0; r < d.heat_rows; ++r) {
            const int blocks = d.grid_full[static_cast<std::size_t>((threads - 1) * kGridRegs + r)];
            // occupancy = resident warps / max warps, the definition OccupancyResult uses; a block
            // of (c + 1) * 32 threads is c + 1 warps.
            d.heat_occupancy[static_cast<std::size_t>(c * d.heat_rows + r)] = static_cast<float>(100.0 * blocks * (c + 1) / max_warps);
        }
    }
    d.hints = read_hints(s, d);
    s.derived_generation = s.input_generation;
    d.recompute_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace occ::ui
