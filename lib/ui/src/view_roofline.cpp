// view_roofline.cpp — the roofline on log-log axes (Williams, Waterman, Patterson, CACM 2009):
// the device's memory roof (bandwidth × intensity) and compute roofs (one per published
// precision), the operation presets as points, hover values for the roof and for each point, and
// an optional second device for comparison. Numbers come from occ::core's roofline model; the view
// only draws them.
//
// [SECTION] Inputs (view-local: not part of the occupancy scenario)
// [SECTION] Plot
// [SECTION] View
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "occ/format.hpp"
#include "occ/roofline.hpp"
#include "plot.hpp"
#include "views.hpp"

namespace occ::ui {
namespace {

// [SECTION] Inputs
struct RooflineInputs {
    int device = -1;        // index into roofline_devices(); -1 = pick the A100 on first use
    int compare = -1;       // -1 = none
    int dtype = static_cast<int>(Precision::fp16);
    int m = 4096, n = 4096, k = 4096;
    int seq_len = 4096, head_dim = 128;
    int elements_m = 16;    // elementwise size in M elements
    int rows = 4096, cols = 4096;
    float measured_ms = 0;  // for the matmul point
};
RooflineInputs g_in;

struct OpPoint {
    const char* label;
    Operation op;
    RooflinePoint p;
    ImU32 color;
};

const ImU32 kOpColors[] = {IM_COL32(78, 121, 167, 255), IM_COL32(242, 142, 43, 255), IM_COL32(89, 161, 79, 255), IM_COL32(225, 87, 89, 255),
                           IM_COL32(176, 122, 161, 255)};

std::vector<OpPoint> points_for(const RooflineDevice& dev, Precision dtype) {
    std::vector<OpPoint> out;
    Operation mm;
    mm.kind = OpKind::matmul;
    mm.dtype = dtype;
    mm.m = g_in.m;
    mm.n = g_in.n;
    mm.k = g_in.k;
    Operation dec;
    dec.kind = OpKind::attention_decode;
    dec.dtype = dtype;
    dec.seq_len = g_in.seq_len;
    dec.head_dim = g_in.head_dim;
    Operation ew;
    ew.kind = OpKind::elementwise;
    ew.dtype = dtype;
    ew.elements = static_cast<std::int64_t>(g_in.elements_m) << 20;
    Operation sm;
    sm.kind = OpKind::softmax;
    sm.dtype = dtype;
    sm.rows = g_in.rows;
    sm.cols = g_in.cols;
    Operation ln = sm;
    ln.kind = OpKind::layernorm;
    const std::pair<const char*, Operation> ops[] = {{"matmul", mm}, {"decode attention", dec}, {"elementwise", ew}, {"softmax", sm}, {"layernorm", ln}};
    int i = 0;
    for (const auto& [label, op] : ops) {
        RooflineQuery q;
        q.device = dev;
        q.op = op;
        if (i == 0 && g_in.measured_ms > 0) q.measured_s = g_in.measured_ms / 1e3;
        out.push_back(OpPoint{label, op, compute_roofline(q), kOpColors[i]});
        ++i;
    }
    return out;
}

bool combo_device(const char* label, int* index, bool allow_none) {
    const auto devs = roofline_devices();
    const char* preview = *index >= 0 ? devs[static_cast<std::size_t>(*index)].name.c_str() : "none";
    bool changed = false;
    if (ImGui::BeginCombo(label, preview)) {
        if (allow_none && ImGui::Selectable("none", *index < 0)) {
            *index = -1;
            changed = true;
        }
        for (int i = 0; i < static_cast<int>(devs.size()); ++i) {
            const RooflineDevice& d = devs[static_cast<std::size_t>(i)];
            std::string item = d.name + "  (" + d.vendor + ")";
            if (ImGui::Selectable(item.c_str(), *index == i)) {
                *index = i;
                changed = true;
            }
        }
        ImGui::EndCombo();
    }
    return changed;
}

// [SECTION] Plot
// Log-log axes in data units (FLOP/byte, FLOP/s): the plot helper does the log transform and
// puts the ticks on whole decades.
void roofs(const RooflineDevice& d, Precision main, double x0, double x1, ImU32 color, bool dashed_others) {
    const double bw = d.dram_gbps * 1e9;
    for (Precision p : kAllPrecisions) {
        const PeakFigure& f = d.at(p);
        if (!(f.tflops > 0)) continue;
        // Precisions with the same peak share one roof and one label ("fp16/bf16"); the main
        // precision leads its group, otherwise the first one in table order does.
        std::string names;
        bool all_tensor = true;
        Precision leader = p;
        bool leader_set = false;
        for (Precision q : kAllPrecisions) {
            if (d.at(q).tflops != f.tflops) continue;
            if (!leader_set) { leader = q; leader_set = true; }
            if (q == main) leader = q;
            all_tensor = all_tensor && d.at(q).tensor;
            if (!names.empty()) names += '/';
            names += precision_name(q);
        }
        if (p != leader) continue;
        const bool is_main = p == main;
        if (!is_main && !dashed_others) continue;
        const double peak = f.tflops * 1e12;
        const double ridge = ridge_point(peak, bw);
        const ImU32 c = is_main ? color : (color & 0x00ffffffu) | (0x55u << 24);
        // Memory roof up to this precision's ridge, then the flat compute roof.
        const float xs[] = {static_cast<float>(x0), static_cast<float>(ridge), static_cast<float>(x1)};
        const float ys[] = {static_cast<float>(bw * x0), static_cast<float>(peak), static_cast<float>(peak)};
        plot::line(xs, ys, c, is_main ? 2.5f : 1.0f);
        char buf[96];
        std::snprintf(buf, sizeof buf, "%s%s %s", names.c_str(), all_tensor ? " (tensor)" : "", format_si(peak, "FLOP/s").c_str());
        plot::text(x1, peak, buf, is_main ? color : ImGui::GetColorU32(ImGuiCol_TextDisabled), ImVec2(1.02f, 1.05f));
    }
}

}  // namespace

// [SECTION] View
void draw_roofline(AppState& /*s*/) {
    const auto devs = roofline_devices();
    if (g_in.device < 0) {
        for (std::size_t i = 0; i < devs.size(); ++i)
            if (devs[i].name == "A100-SXM4-80GB") g_in.device = static_cast<int>(i);
        if (g_in.device < 0) g_in.device = 0;
    }
    const RooflineDevice& dev = devs[static_cast<std::size_t>(g_in.device)];
    const Precision dtype = static_cast<Precision>(g_in.dtype);

    // Inputs
    ImGui::PushItemWidth(em(14));
    combo_device("device", &g_in.device, false);
    ImGui::SameLine(0, em(1));
    combo_device("compare with", &g_in.compare, true);
    ImGui::SameLine(0, em(1));
    ImGui::PushItemWidth(em(6));
    const char* dtypes[] = {"fp64", "fp64_tensor", "fp32", "tf32", "fp16", "bf16", "fp8", "int8"};
    ImGui::Combo("dtype", &g_in.dtype, dtypes, IM_ARRAYSIZE(dtypes));
    ImGui::PopItemWidth();
    ImGui::PopItemWidth();
    ImGui::PushItemWidth(em(5));
    ImGui::InputInt("M", &g_in.m, 0);
    ImGui::SameLine();
    ImGui::InputInt("N", &g_in.n, 0);
    ImGui::SameLine();
    ImGui::InputInt("K", &g_in.k, 0);
    ImGui::SameLine();
    ImGui::InputFloat("matmul ms", &g_in.measured_ms, 0, 0, "%.3f");
    item_tooltip("A measured time for the matmul: the table then shows the fraction of the roofline reached.");
    ImGui::SameLine(0, em(1));
    ImGui::InputInt("seq len", &g_in.seq_len, 0);
    ImGui::SameLine();
    ImGui::InputInt("head dim", &g_in.head_dim, 0);
    ImGui::SameLine(0, em(1));
    ImGui::InputInt("elementwise M elems", &g_in.elements_m, 0);
    ImGui::SameLine(0, em(1));
    ImGui::InputInt("rows", &g_in.rows, 0);
    ImGui::SameLine();
    ImGui::InputInt("cols", &g_in.cols, 0);
    ImGui::PopItemWidth();
    for (int* v : {&g_in.m, &g_in.n, &g_in.k, &g_in.seq_len, &g_in.head_dim, &g_in.elements_m, &g_in.rows, &g_in.cols}) *v = std::clamp(*v, 1, 1 << 24);
    g_in.measured_ms = std::max(0.0f, g_in.measured_ms);

    const std::vector<OpPoint> pts = points_for(dev, dtype);
    std::vector<OpPoint> cmp;
    if (g_in.compare >= 0) cmp = points_for(devs[static_cast<std::size_t>(g_in.compare)], dtype);

    // Axes: intensity 10^-2 .. 10^4 FLOP/byte; FLOP/s from 4 decades under the highest peak up to 1.
    double top = 0;
    for (const RooflineDevice* d : {&dev, g_in.compare >= 0 ? &devs[static_cast<std::size_t>(g_in.compare)] : nullptr}) {
        if (!d) continue;
        for (Precision p : kAllPrecisions) top = std::max(top, d->at(p).tflops * 1e12);
    }
    if (!(top > 0)) top = 1e12;
    const double top_decade = std::ceil(std::log10(top) + 0.3);
    const double y0 = std::pow(10.0, top_decade - 6), y1 = std::pow(10.0, top_decade);
    const double x0 = 1e-2, x1 = 1e4;

    const float fh = ImGui::GetFontSize();
    const float table_h = (static_cast<float>(pts.size()) + 2.5f) * ImGui::GetTextLineHeightWithSpacing();
    const ImU32 compare_color = IM_COL32(150, 150, 150, 255);
    const std::string compare_key = g_in.compare >= 0 ? devs[static_cast<std::size_t>(g_in.compare)].name + " (compare)" : std::string();
    std::vector<plot::LegendItem> keys{{dev.name.c_str(), accent_color()}};
    if (g_in.compare >= 0) keys.push_back({compare_key.c_str(), compare_color});
    for (const OpPoint& o : pts) keys.push_back({o.label, o.color, plot::Key::marker});
    plot::legend(keys);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 size(std::max(avail.x, em(24)), std::max(avail.y - table_h, em(15)));
    const plot::TickFormat intensity_tick = [](double v) { return format_number(v, 2); };
    const plot::TickFormat flops_tick = [](double v) { return format_si(v, "FLOP/s", 1); };
    plot::begin("roofline", size, plot::Axis{x0, x1, "arithmetic intensity (FLOP/byte, log scale)", "", true, intensity_tick},
                plot::Axis{y0, y1, "", "", true, flops_tick});
    const Precision main = pts.front().p.ok() ? pts.front().p.compute : Precision::fp32;
    if (g_in.compare >= 0) roofs(devs[static_cast<std::size_t>(g_in.compare)], main, x0, x1, compare_color, false);
    roofs(dev, main, x0, x1, accent_color(), true);
    // The ops' own compute roofs differ (matmul in dtype, the rest fp32): mark each point on its roof.
    for (const OpPoint& o : cmp)
        if (o.p.ok()) plot::marker(o.p.intensity, o.p.attainable, (o.color & 0x00ffffffu) | (0x60u << 24), 3.5f);
    for (const OpPoint& o : pts)
        if (o.p.ok()) plot::marker(o.p.intensity, o.p.attainable, o.color, 5.0f);

    double hx = 0, hy = 0;
    if (plot::hovered(&hx, &hy)) {
        // The nearest point within a few pixels, else the roof under the mouse.
        const ImVec2 mouse = ImGui::GetIO().MousePos;
        const OpPoint* near = nullptr;
        float best = fh * 0.8f;
        for (const OpPoint& o : pts) {
            if (!o.p.ok()) continue;
            const ImVec2 sp = plot::to_screen(o.p.intensity, o.p.attainable);
            const float dist = std::hypot(sp.x - mouse.x, sp.y - mouse.y);
            if (dist < best) {
                best = dist;
                near = &o;
            }
        }
        ImGui::BeginTooltip();
        if (near) {
            const RooflinePoint& p = near->p;
            ImGui::Text("%s (%s)", near->label, precision_name(near->op.dtype));
            ImGui::TextDisabled("%s", p.formula.c_str());
            ImGui::Text("intensity %s FLOP/byte, ridge %s", format_number(p.intensity, 3).c_str(), format_number(p.ridge, 1).c_str());
            ImGui::Text("attainable %s (%s-bound, %s peak)", format_si(p.attainable, "FLOP/s").c_str(), p.memory_bound ? "memory" : "compute",
                        precision_name(p.compute));
            ImGui::Text("%s, %s: at least %s", format_si(p.flops, "FLOP").c_str(), format_si(p.bytes, "B").c_str(), format_seconds(p.time_bound_s).c_str());
            if (p.measured_s > 0) ImGui::Text("measured %s = %s of the roofline", format_seconds(p.measured_s).c_str(), format_percent(p.fraction_of_roofline).c_str());
        } else {
            const double intensity = hx;
            const PeakFigure& f = dev.at(main);
            const double att = attainable_flops(f.tflops * 1e12, dev.dram_gbps * 1e9, intensity);
            ImGui::Text("intensity %s FLOP/byte", format_number(intensity, intensity < 1 ? 3 : 1).c_str());
            ImGui::Text("%s attainable (%s): %s", dev.name.c_str(), precision_name(main), format_si(att, "FLOP/s").c_str());
            ImGui::TextDisabled("roof = min(peak, %s x intensity)", format_si(dev.dram_gbps * 1e9, "B/s").c_str());
        }
        ImGui::EndTooltip();
    }
    plot::end();

    // Table of the points
    if (ImGui::BeginTable("roofline_points", 7, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
        for (const char* h : {"op", "intensity", "attainable", "bound", "fastest", g_in.compare >= 0 ? "vs compare" : "peak used", "source"})
            ImGui::TableSetupColumn(h);
        ImGui::TableHeadersRow();
        for (std::size_t i = 0; i < pts.size(); ++i) {
            const OpPoint& o = pts[i];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(o.color), "%s", o.label);
            if (!o.p.ok()) {
                ImGui::TableNextColumn();
                ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error_color()), "%s", o.p.error.c_str());
                continue;
            }
            ImGui::TableNextColumn();
            ImGui::Text("%s", format_number(o.p.intensity, o.p.intensity < 10 ? 3 : 1).c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%s", format_si(o.p.attainable, "FLOP/s").c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%s", o.p.memory_bound ? "memory" : "compute");
            ImGui::TableNextColumn();
            if (o.p.measured_s > 0) ImGui::Text("%s (%s reached)", format_seconds(o.p.time_bound_s).c_str(), format_percent(o.p.fraction_of_roofline).c_str());
            else ImGui::Text("%s", format_seconds(o.p.time_bound_s).c_str());
            ImGui::TableNextColumn();
            if (g_in.compare >= 0 && i < cmp.size() && cmp[i].p.ok() && cmp[i].p.attainable > 0)
                ImGui::Text("%sx", format_number(o.p.attainable / cmp[i].p.attainable, 1).c_str());
            else
                ImGui::Text("%s%s", precision_name(o.p.compute), o.p.tensor ? " (tensor)" : "");
            ImGui::TableNextColumn();
            if (i == 0) ImGui::TextDisabled("%s", dev.source.c_str());
        }
        ImGui::EndTable();
    }
}

}  // namespace occ::ui
