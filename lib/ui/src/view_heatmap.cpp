// view_heatmap.cpp — occupancy over block (workgroup) size x registers (VGPRs), with the current
// inputs marked, for either vendor: the cells, words and launch fields are Derived::heatmap's, which
// the vendor's refresh fills. Hover reads a cell (its limiters, NVIDIA's computed when the pointer
// first rests here); a click sets both inputs.
#include <algorithm>
#include <cmath>
#include <string>

#include "occ/format.hpp"
#include "plot.hpp"
#include "views.hpp"

namespace occ::ui {

void draw_heatmap(AppState& s) {
    const Heatmap& h = s.derived.heatmap;
    ImGui::TextUnformatted(h.title);
    const char* how = "(occupancy; hover to read, click to use)";
    same_line_if_fits(ImGui::CalcTextSize(how).x);
    ImGui::TextDisabled("%s", how);
    ImGui::SameLine(0, em(1));
    const plot::LegendItem colour_bar[] = {{"100%", 0, plot::Key::colormap, "0%"}};
    plot::legend(colour_bar);
    if (h.cols == 0 || !h.use) return;
    const int step = h.col_threads;
    plot::begin("heatmap", ImVec2(-1, -1), plot::Axis{0, static_cast<double>(h.cols * step), h.x_label},
                plot::Axis{0, static_cast<double>(h.rows), h.y_label});
    plot::heatmap(h.occupancy, h.cols, h.rows, 0.0f, 100.0f);
    if (h.max_regs + 1 < h.rows) plot::rect(0, h.max_regs + 1, h.cols * step, h.rows, IM_COL32(0, 0, 0, 120));
    // The current point sits in the middle of its cell.
    const double cx = std::ceil(h.threads(s) / static_cast<double>(step)) * step - step * 0.5;
    plot::marker(cx, h.regs_of(s) + 0.5, accent_color(), 5.0f);
    double hx = 0, hy = 0;
    if (plot::hovered(&hx, &hy)) {
        const int col = std::clamp(static_cast<int>(hx / step), 0, h.cols - 1);
        const int regs = std::clamp(static_cast<int>(hy), 0, h.rows - 1);
        const int threads = (col + 1) * step;
        plot::rect(col * step, regs, (col + 1) * step, regs + 1, 0, ImGui::GetColorU32(ImGuiCol_Text));
        const std::size_t cell = static_cast<std::size_t>(col * h.rows + regs);
        ImGui::BeginTooltip();
        ImGui::Text("%d threads x %d %s", threads, regs, h.regs);
        if (regs > h.max_regs) {
            ImGui::TextDisabled("more %s than a thread may use (%d)", h.regs, h.max_regs);
        } else if (h.count[cell] == 0) {
            ImGui::TextDisabled("%s", h.none_fits);
        } else {
            ImGui::Text("%s occupancy · %d %s", format_percent(h.occupancy[cell] / 100.0).c_str(), h.count[cell], h.count_unit);
            if (ready(s, Part::heatmap_limiters, /*now=*/true) && cell < h.limiters.size()) {
                const std::string by = h.limited_by(h.limiters[cell]);
                ImGui::TextDisabled("%s", by.empty() ? "no limit" : ("limited by " + by).c_str());
            }
        }
        ImGui::EndTooltip();
        if (plot::clicked(nullptr, nullptr)) {
            h.use(s, threads, std::min(regs, h.max_regs));
            mark_changed(s);
        }
    }
    plot::end();
}

}  // namespace occ::ui
