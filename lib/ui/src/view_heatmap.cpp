// view_heatmap.cpp — occupancy over block size x registers per thread (occ::occupancy_grid), with
// the current inputs marked. Hover reads the cell from AppState::derived (blocks, occupancy and
// limiters, computed in the refresh step; the limiters when the pointer first rests here); a click
// sets both inputs.
#include <algorithm>
#include <cmath>

#include "amd_ui.hpp"
#include "occ/explain.hpp"
#include "occ/format.hpp"
#include "plot.hpp"
#include "views.hpp"

namespace occ::ui {

// An AMD target: workgroup size (one column per wave) x VGPRs per lane, by the same model as the result.
void draw_amd_heatmap(AppState& s) {
    const Derived& d = s.derived;
    const amd::AmdArch* a = s.amd_req.arch;
    ImGui::TextUnformatted("Workgroup size x VGPRs");
    const char* how = "(occupancy; hover to read, click to use)";
    same_line_if_fits(ImGui::CalcTextSize(how).x);
    ImGui::TextDisabled("%s", how);
    ImGui::SameLine(0, em(1));
    const plot::LegendItem colour_bar[] = {{"100%", 0, plot::Key::colormap, "0%"}};
    plot::legend(colour_bar);
    if (!a || d.heat_cols == 0) return;
    const int wave = d.heat_col_threads;
    plot::begin("heatmap", ImVec2(-1, -1), plot::Axis{0, static_cast<double>(d.heat_cols * wave), "threads per workgroup"},
                plot::Axis{0, static_cast<double>(d.heat_rows), "VGPRs per lane"});
    plot::heatmap(d.heat_occupancy, d.heat_cols, d.heat_rows, 0.0f, 100.0f);
    const double cx = std::ceil(s.amd_req.launch.threads / static_cast<double>(wave)) * wave - wave * 0.5;
    plot::marker(cx, s.amd_req.kernel.vgprs + 0.5, accent_color(), 5.0f);
    double hx = 0, hy = 0;
    if (plot::hovered(&hx, &hy)) {
        const int col = std::clamp(static_cast<int>(hx / wave), 0, d.heat_cols - 1);
        const int vgprs = std::clamp(static_cast<int>(hy), 0, d.heat_rows - 1);
        const int threads = (col + 1) * wave;
        plot::rect(col * wave, vgprs, (col + 1) * wave, vgprs + 1, 0, ImGui::GetColorU32(ImGuiCol_Text));
        const std::size_t cell = static_cast<std::size_t>(col * d.heat_rows + vgprs);
        ImGui::BeginTooltip();
        ImGui::Text("%d threads x %d VGPRs", threads, vgprs);
        if (d.heat_limiters[cell] == 0) {
            ImGui::TextDisabled("no workgroup fits");
        } else {
            ImGui::Text("%s occupancy", format_percent(d.heat_occupancy[cell] / 100.0).c_str());
            ImGui::TextDisabled("limited by %s", amd::amd_limiter_list(d.heat_limiters[cell], ", ").c_str());
        }
        ImGui::EndTooltip();
        if (plot::clicked(nullptr, nullptr)) {
            s.amd_req.launch.threads = threads;
            s.amd_req.block = {threads, 1, 1};
            s.amd_req.kernel.vgprs = vgprs;
            mark_changed(s);
        }
    }
    plot::end();
}

void draw_heatmap(AppState& s) {
    if (s.amd) return draw_amd_heatmap(s);
    const Derived& d = s.derived;
    const ArchRules& a = s.req.device.arch;
    ImGui::TextUnformatted("Block size x registers");
    const char* how = "(occupancy; hover to read, click to use)";
    same_line_if_fits(ImGui::CalcTextSize(how).x);
    ImGui::TextDisabled("%s", how);
    ImGui::SameLine(0, em(1));
    const plot::LegendItem colour_bar[] = {{"100%", 0, plot::Key::colormap, "0%"}};
    plot::legend(colour_bar);
    const double max_regs = a.max_regs_per_thread + 1;
    plot::begin("heatmap", ImVec2(-1, -1), plot::Axis{0, static_cast<double>(d.heat_cols * a.warp_size), "threads per block"},
                plot::Axis{0, static_cast<double>(d.heat_rows), "registers per thread"});
    plot::heatmap(d.heat_occupancy, d.heat_cols, d.heat_rows, 0.0f, 100.0f);
    if (max_regs < d.heat_rows) plot::rect(0, max_regs, d.heat_cols * a.warp_size, d.heat_rows, IM_COL32(0, 0, 0, 120));
    // The current point sits in the middle of its cell.
    const double cx = std::ceil(s.req.launch.threads / static_cast<double>(a.warp_size)) * a.warp_size - a.warp_size * 0.5;
    plot::marker(cx, s.req.kernel.regs_per_thread + 0.5, accent_color(), 5.0f);
    double hx = 0, hy = 0;
    if (plot::hovered(&hx, &hy)) {
        const int col = std::clamp(static_cast<int>(hx / a.warp_size), 0, d.heat_cols - 1);
        const int regs = std::clamp(static_cast<int>(hy), 0, d.heat_rows - 1);
        const int threads = (col + 1) * a.warp_size;
        plot::rect(col * a.warp_size, regs, (col + 1) * a.warp_size, regs + 1, 0, ImGui::GetColorU32(ImGuiCol_Text));
        const std::size_t cell = static_cast<std::size_t>(col * d.heat_rows + regs);
        const int blocks = d.grid_full[static_cast<std::size_t>((threads - 1) * kGridRegs + regs)];
        ImGui::BeginTooltip();
        ImGui::Text("%d threads x %d registers", threads, regs);
        if (regs > a.max_regs_per_thread) {
            ImGui::TextDisabled("more registers than a thread may use (%d)", a.max_regs_per_thread);
        } else if (blocks == 0) {
            ImGui::TextDisabled("no block fits");
        } else {
            ImGui::Text("%s occupancy · %d blocks per SM", format_percent(d.heat_occupancy[cell] / 100.0).c_str(), blocks);
            if (ready(s, Part::heatmap_limiters, /*now=*/true)) {
                OccupancyResult limited;  // only the limiter bits: summarize() words them
                limited.limiters = d.heat_limiters[cell];
                ImGui::TextDisabled("%s", summarize(limited).c_str());
            }
        }
        ImGui::EndTooltip();
        if (plot::clicked(nullptr, nullptr)) {
            s.block_3d = false;
            s.req.launch.threads = threads;
            s.req.kernel.regs_per_thread = std::min(regs, a.max_regs_per_thread);
            sync_block(s);
            mark_changed(s);
        }
    }
    plot::end();
}

}  // namespace occ::ui
