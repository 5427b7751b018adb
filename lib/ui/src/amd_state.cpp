// amd_state.cpp — an AMD scenario (AppState::amd): the answer and its rows (occ::io's, the same the
// CLI prints), the headline, the heatmap over workgroup size x VGPRs and switching between vendors.
#include <algorithm>

#include "amd_ui.hpp"
#include "views.hpp"

namespace occ::ui {

void compute_amd_result(AppState& s) {
    Derived& d = s.derived;
    d.amd = io::AmdAnswer{};
    d.amd.input = s.amd_req;
    if (s.amd_req.arch) d.amd.result = amd::compute_amd_occupancy(*s.amd_req.arch, s.amd_req.kernel, s.amd_req.launch);
    d.view = io::occupancy_view(d.amd);
}

// Occupancy in % for workgroups of 1..(1024 / wave) waves (columns) x VGPRs 0..max_vgprs (rows),
// with the workgroups and limiters of each cell, by the same model as the result.
void refresh_amd_heatmap(AppState& s) {
    Heatmap& h = s.derived.heatmap;
    h = Heatmap{};
    const amd::AmdArch* a = s.amd_req.arch;
    if (!a) return;
    const int wave = s.derived.amd.result.wave_size > 0 ? s.derived.amd.result.wave_size : a->default_wave_size;
    h.cols = a->max_threads_per_workgroup / wave;
    h.rows = a->max_vgprs + 1;
    h.col_threads = wave;
    h.max_regs = a->max_vgprs;
    h.limited_by = [](unsigned bits) { return amd::amd_limiter_list(bits, " and "); };
    h.title = "Workgroup size x VGPRs";
    h.x_label = "threads per workgroup";
    h.y_label = "VGPRs per lane";
    h.regs = "VGPRs";
    h.count_unit = s.derived.amd.result.wgp_mode ? "workgroups per WGP" : "workgroups per CU";
    h.none_fits = "no workgroup fits";
    h.threads = [](const AppState& st) { return st.amd_req.launch.threads; };
    h.regs_of = [](const AppState& st) { return st.amd_req.kernel.vgprs; };
    h.use = [](AppState& st, int threads, int vgprs) {
        st.amd_req.launch.threads = threads;
        st.amd_req.block = {threads, 1, 1};
        st.amd_req.kernel.vgprs = vgprs;
    };
    const auto cells = static_cast<std::size_t>(h.cols * h.rows);
    h.occupancy.assign(cells, 0.0f);
    h.count.assign(cells, 0);
    h.limiters.assign(cells, 0);
    amd::AmdKernel k = s.amd_req.kernel;
    amd::AmdLaunch l = s.amd_req.launch;
    for (int c = 0; c < h.cols; ++c) {
        l.threads = (c + 1) * wave;
        for (int r = 0; r < h.rows; ++r) {
            k.vgprs = r;
            const amd::AmdOccupancyResult res = amd::compute_amd_occupancy(*a, k, l);
            if (!res.ok()) continue;
            const auto cell = static_cast<std::size_t>(c * h.rows + r);
            h.occupancy[cell] = static_cast<float>(100.0 * res.occupancy);
            h.count[cell] = static_cast<std::uint8_t>(std::min(res.workgroups_per_cu, 255));
            h.limiters[cell] = static_cast<std::uint8_t>(res.limiters);
        }
    }
}

void use_amd_target(AppState& s, const io::AmdRequest& target, DeviceKind kind) {
    io::AmdRequest& r = s.amd_req;
    if (!s.amd) {
        // From an NVIDIA scenario: the workgroup and LDS carry over; registers start from the
        // kernel's count (a VGPR is one 32-bit register per lane, like a CUDA register per thread).
        r = io::AmdRequest{};
        r.launch.threads = s.req.launch.threads;
        r.kernel.vgprs = s.req.kernel.regs_per_thread;
        r.kernel.lds_bytes = s.req.kernel.smem_static;
        r.launch.lds_dynamic = s.req.launch.smem_dynamic;
    }
    r.gpu = target.gpu;
    r.arch = target.arch;
    if (!r.arch) return;
    const amd::AmdArch& a = *r.arch;
    // What the new target does not take goes back to its default; the rest is kept within its limits.
    if ((r.launch.wave_size == 32 && !a.wave32) || (r.launch.wave_size == 64 && !a.wave64)) r.launch.wave_size = 0;
    if (!a.has_wgp_mode) r.launch.cu_mode = false;
    if (a.agprs == amd::AgprFile::none) r.kernel.agprs = 0;
    r.launch.threads = std::clamp(r.launch.threads, 1, a.max_threads_per_workgroup);
    r.kernel.vgprs = std::clamp(r.kernel.vgprs, 0, a.max_vgprs);
    r.kernel.agprs = std::clamp(r.kernel.agprs, 0, a.max_vgprs);
    r.kernel.sgprs = std::clamp(r.kernel.sgprs, 0, a.max_sgprs);
    r.kernel.lds_bytes = std::clamp<std::int64_t>(r.kernel.lds_bytes, 0, a.lds_per_workgroup);
    r.launch.lds_dynamic = std::clamp<std::int64_t>(r.launch.lds_dynamic, 0, a.lds_per_workgroup - r.kernel.lds_bytes);
    if (r.block[0] * r.block[1] * r.block[2] != r.launch.threads) r.block = {r.launch.threads, 1, 1};
    s.amd = true;
    s.device_kind = kind;
    mark_changed(s);
}

ImU32 amd_limiter_color(unsigned bits, float alpha) { return limiter_mask_color(amd::kAmdLimiters, bits, alpha); }

std::string amd_unit(const AppState& s) { return s.derived.amd.result.wgp_mode ? "WGP" : "CU"; }

}  // namespace occ::ui
