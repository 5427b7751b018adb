// view_plots.cpp — occupancy against block size, registers and shared memory (the three sweeps from
// occ::core), each line coloured by the limiting resource, the current inputs marked. Hover reads a
// point; click moves the input there.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

#include "amd_ui.hpp"
#include "occ/format.hpp"
#include "plot.hpp"
#include "views.hpp"

namespace occ::ui {
namespace {

struct Series {
    const char* id;
    const char* title;
    plot::Axis x;
    std::span<const float> xs, ys;
    std::span<const unsigned> lim;
    std::span<const SweepPoint> points;
    double current_x;
    const char* unit;   // for the hover readout
    double unit_scale;  // sweep x -> plotted x
};

// Returns the sweep point nearest to plotted x, or nullptr.
const SweepPoint* nearest(const Series& s, double x) {
    if (s.points.empty()) return nullptr;
    auto it = std::lower_bound(s.xs.begin(), s.xs.end(), static_cast<float>(x));
    std::size_t i = static_cast<std::size_t>(it - s.xs.begin());
    if (i >= s.xs.size()) i = s.xs.size() - 1;
    if (i > 0 && std::abs(s.xs[i - 1] - x) < std::abs(s.xs[i] - x)) --i;
    return &s.points[i];
}

// Draws one graph; returns the sweep point clicked, if any.
const SweepPoint* graph(const Series& s, float height, double current_occ, bool ok) {
    ImGui::TextUnformatted(s.title);
    static std::vector<ImU32> colors;  // scratch, reused every frame
    colors.resize(s.lim.size());
    for (std::size_t i = 0; i < s.lim.size(); ++i) colors[i] = limiter_color(s.lim[i]);
    plot::begin(s.id, ImVec2(-1, height), s.x, plot::Axis{0, 105, "", "%"});
    plot::hline(100, ImGui::GetColorU32(ImGuiCol_Border));
    plot::line(s.xs, s.ys, 0, 2.0f, colors);
    if (ok) {
        plot::vline(s.current_x, ImGui::GetColorU32(ImGuiCol_Text, 0.35f));
        plot::marker(s.current_x, current_occ * 100.0, accent_color());
    }
    const SweepPoint* clicked = nullptr;
    double hx = 0;
    if (plot::hovered(&hx, nullptr)) {
        if (const SweepPoint* p = nearest(s, hx)) {
            const double px = static_cast<double>(p->x) * s.unit_scale;
            plot::vline(px, ImGui::GetColorU32(ImGuiCol_Text, 0.6f));
            plot::marker(px, p->occupancy * 100.0, limiter_color(p->limiters), 4.0f);
            ImGui::BeginTooltip();
            if (s.unit_scale == 1.0) ImGui::Text("%lld %s", static_cast<long long>(p->x), s.unit);
            else ImGui::Text("%s %s", format_bytes(p->x).c_str(), s.unit);
            ImGui::Text("%s occupancy · %d blocks · %d warps per SM", format_percent(p->occupancy).c_str(), p->blocks_per_sm,
                        p->warps_per_sm);
            for (const LimiterInfo& e : kLimiters)
                if (p->limiters & e.bit) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(limiter_color(e.bit)), "limited by %s", e.label);
            ImGui::TextDisabled("click to use this value");
            ImGui::EndTooltip();
            if (plot::clicked(nullptr, nullptr)) clicked = p;
        }
    }
    plot::end();
    return clicked;
}

}  // namespace

void draw_plots(AppState& s) {
    if (s.amd) {
        section("Occupancy graphs");
        return draw_amd_note("The graphs against block size, registers and shared memory",
                             "The heatmap below sweeps the AMD model over workgroup size and VGPRs.");
    }
    const Derived& d = s.derived;
    const ArchRules& a = s.req.device.arch;
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("Occupancy against one input at a time; line colour = what limits it.");
    ImGui::PopTextWrapPos();
    ImGui::SameLine(0, em(1));
    // Every limiter this kernel can have (virtual resources only when it declares a count, as the result's table).
    plot::LegendItem keys[kLimiterCount];
    std::size_t n_keys = 0;
    for (const LimiterInfo& e : kLimiters)
        if (e.reported(s.req.kernel)) keys[n_keys++] = {e.title, limiter_color(e.bit)};
    plot::legend(std::span<const plot::LegendItem>(keys, n_keys));
    // Three graphs side by side filling the panel; on a narrow panel one under another, each of a
    // fixed height (the panel then grows to fit them).
    const int cols = ImGui::GetContentRegionAvail().x >= em(48) ? 3 : 1;
    const float h = cols == 1 ? em(11)
                              : std::max(em(8), ImGui::GetContentRegionAvail().y - ImGui::GetTextLineHeightWithSpacing() -
                                                    ImGui::GetStyle().ItemSpacing.y);
    const double smem_max_kib = d.smem_x.empty() ? 48.0 : std::max(1.0f, d.smem_x.back());
    const Series series[] = {
        {"by_threads", "Block size", plot::Axis{0, static_cast<double>(a.max_threads_per_block), "threads per block"}, d.threads_x,
         d.threads_y, d.threads_lim, d.by_threads, static_cast<double>(s.req.launch.threads), "threads per block", 1.0},
        {"by_regs", "Registers", plot::Axis{0, static_cast<double>(a.max_regs_per_thread + 1), "registers per thread"}, d.regs_x, d.regs_y,
         d.regs_lim, d.by_regs, static_cast<double>(s.req.kernel.regs_per_thread), "registers per thread", 1.0},
        {"by_smem", "Dynamic shared memory", plot::Axis{0, smem_max_kib, "dynamic shared memory per block (KiB)"}, d.smem_x, d.smem_y,
         d.smem_lim, d.by_smem, static_cast<double>(s.req.launch.smem_dynamic) / 1024.0, "dynamic shared memory", 1.0 / 1024.0},
    };
    if (!ImGui::BeginTable("plots", cols, ImGuiTableFlags_SizingStretchSame)) return;
    for (int i = 0; i < 3; ++i) {
        ImGui::TableNextColumn();
        const SweepPoint* p = graph(series[i], h, d.result.occupancy, d.result.ok());
        if (!p) continue;
        if (i == 0) {
            s.block_3d = false;
            s.req.launch.threads = static_cast<int>(p->x);
            sync_block(s);
        } else if (i == 1) {
            s.req.kernel.regs_per_thread = static_cast<int>(p->x);
        } else {
            s.req.launch.smem_dynamic = p->x;
        }
        mark_changed(s);
    }
    ImGui::EndTable();
}

}  // namespace occ::ui
