// view_roofline.cpp — the roofline on log-log axes (Williams, Waterman, Patterson, CACM 2009):
// the device's memory roof (bandwidth × intensity) and compute roofs (one per published
// precision), the operation presets as points, hover values for the roof and for each point, and
// an optional second device for comparison. Numbers come from occ::core's roofline model; the view
// only draws them.
//
// [SECTION] Inputs: widgets over AppState::roofline (points computed in the refresh step)
// [SECTION] Plot
// [SECTION] View
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "imgui_internal.h"
#include "occ/format.hpp"
#include "occ/io/schema.hpp"
#include "occ/roofline.hpp"
#include "plot.hpp"
#include "views.hpp"

namespace occ::ui {
namespace {

// [SECTION] Inputs
struct OpPoint {
    const char* label;
    Operation op;
    RooflinePoint p;
    ImU32 color;
};

const ImU32 kOpColors[] = {IM_COL32(78, 121, 167, 255), IM_COL32(242, 142, 43, 255), IM_COL32(89, 161, 79, 255), IM_COL32(225, 87, 89, 255),
                           IM_COL32(176, 122, 161, 255)};

// The refresh step's points, each with its colour.
std::vector<OpPoint> colored(const std::vector<RooflineOp>& ops) {
    std::vector<OpPoint> out;
    for (std::size_t i = 0; i < ops.size(); ++i)
        out.push_back(OpPoint{ops[i].label, ops[i].op, ops[i].point, kOpColors[i % std::size(kOpColors)]});
    return out;
}

// A device by name; `empty_item` names the "" choice (follow the scenario's GPU, or none).
bool combo_device(const char* label, std::string* name, const char* preview, const char* empty_item) {
    bool changed = false;
    if (ImGui::BeginCombo(label, preview)) {
        if (ImGui::Selectable(empty_item, name->empty())) {
            changed = !name->empty();
            name->clear();
        }
        for (const RooflineDevice& d : roofline_devices()) {
            const std::string item = d.name + "  (" + d.vendor + ")";
            if (ImGui::Selectable(item.c_str(), *name == d.name)) {
                changed = *name != d.name;
                *name = d.name;
            }
        }
        ImGui::EndCombo();
    }
    return changed;
}

// Sizes and the time take the ranges of the roofline request's fields (occ/io/schema.hpp).
void roofline_inputs(AppState& s) {
    namespace F = io::fields;
    RooflineInputs& in = s.roofline;
    const RooflineDerived& r = s.derived.roofline;
    bool changed = false;
    const std::string follow = r.device.name + (r.note.empty() ? " (scenario)" : " (fallback)");
    ImGui::SetNextItemWidth(em(16));
    changed |= combo_device("device", &in.gpu, r.follows_scenario ? follow.c_str() : in.gpu.c_str(), "the scenario's GPU");
    item_tooltip("The roofline follows the scenario's GPU until you pick another device.");
    // The next field (em wide, then its label) on this line when it fits, else on the next.
    auto next = [](const char* label, float width) {
        same_line_if_fits(em(width) + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x);
    };
    next("compare with", 14);
    ImGui::SetNextItemWidth(em(14));
    changed |= combo_device("compare with", &in.compare, in.compare.empty() ? "none" : in.compare.c_str(), "none");
    next("dtype", 6);
    ImGui::SetNextItemWidth(em(6));
    if (ImGui::BeginCombo("dtype", precision_name(in.dtype))) {
        for (Precision p : kAllPrecisions)
            if (ImGui::Selectable(precision_name(p), p == in.dtype)) {
                changed |= p != in.dtype;
                in.dtype = p;
            }
        ImGui::EndCombo();
    }
    auto size = [&](const char* label, const io::FieldSpec& f, std::int64_t* v, float width) {
        TypedField t{&f, f.lo, f.hi, 0, 0, label};
        t.width = em(width);
        changed |= typed_input((std::string("##") + label).c_str(), t, *v);
    };
    size("M", F::m, &in.m, 5);
    next("N", 5);
    size("N", F::n, &in.n, 5);
    next("K", 5);
    size("K", F::k, &in.k, 5);
    next("matmul ms", 5);
    ImGui::SetNextItemWidth(em(5));
    if (ImGui::InputDouble("matmul ms", &in.measured_ms, 0, 0, "%.3f")) {
        in.measured_ms = std::clamp(in.measured_ms, 0.0, F::measured_ms.dhi);
        changed = true;
    }
    item_tooltip("A measured time for the matmul: the table then shows the fraction of the roofline reached.");
    next("seq len", 5);
    size("seq len", F::seq_len, &in.seq_len, 5);
    next("head dim", 5);
    size("head dim", F::head_dim, &in.head_dim, 5);
    next("elements", 6);
    size("elements", F::elements, &in.elements, 6);
    item_tooltip("Elements of the elementwise op.");
    next("rows", 5);
    size("rows", F::rows, &in.rows, 5);
    next("cols", 5);
    size("cols", F::cols, &in.cols, 5);
    ImGui::PushTextWrapPos(0);
    if (!r.note.empty()) ImGui::TextDisabled("%s", r.note.c_str());
    ImGui::PopTextWrapPos();
    if (changed) mark_changed(s);
}

// [SECTION] Plot
// Log-log axes in data units (FLOP/byte, FLOP/s): the plot helper does the log transform and
// puts the ticks on whole decades.
// Each roof's label sits at the right end, above it; a label that would touch one already drawn
// (roofs close together on a short plot) or reach past the left edge is left out, the main
// precision's first.
void roofs(const RooflineDevice& d, Precision main, double x0, double x1, ImU32 color, bool dashed_others, std::vector<ImRect>& labels) {
    struct Label {
        std::string text;
        double peak;
        ImU32 color;
    };
    std::vector<Label> pending;
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
            if (!leader_set) {
                leader = q;
                leader_set = true;
            }
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
        const Label l{buf, peak, is_main ? color : ImGui::GetColorU32(ImGuiCol_TextDisabled)};
        if (is_main) pending.insert(pending.begin(), l);
        else pending.push_back(l);
    }
    const float left = plot::to_screen(x0, 1).x;
    for (const Label& l : pending) {
        const ImVec2 p = plot::to_screen(x1, l.peak), ts = ImGui::CalcTextSize(l.text.c_str());
        const ImRect box(ImVec2(p.x - ts.x * 1.02f, p.y - ts.y * 1.05f), ImVec2(p.x - ts.x * 0.02f, p.y - ts.y * 0.05f));
        bool free = box.Min.x >= left;
        for (const ImRect& o : labels) free = free && !o.Overlaps(box);
        if (!free) continue;
        labels.push_back(box);
        plot::text(x1, l.peak, l.text.c_str(), l.color, ImVec2(1.02f, 1.05f));
    }
}

}  // namespace

// [SECTION] View
void draw_roofline(AppState& s) {
    roofline_inputs(s);
    const RooflineDerived& r = s.derived.roofline;
    const RooflineDevice& dev = r.device;
    const RooflineDevice* compare = r.has_compare ? &r.compare : nullptr;
    const std::vector<OpPoint> pts = colored(r.points);
    const std::vector<OpPoint> cmp = colored(r.compare_points);

    // Axes: intensity 10^-2 .. 10^4 FLOP/byte; FLOP/s from 4 decades under the highest peak up to 1.
    double top = 0;
    for (const RooflineDevice* d : {&dev, compare}) {
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
    const std::string compare_key = compare ? compare->name + " (compare)" : std::string();
    std::vector<plot::LegendItem> keys{{dev.name.c_str(), accent_color()}};
    if (compare) keys.push_back({compare_key.c_str(), compare_color});
    for (const OpPoint& o : pts) keys.push_back({o.label, o.color, plot::Key::marker});
    plot::legend(keys);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 size(avail.x, std::max(avail.y - table_h, em(15)));
    const plot::TickFormat intensity_tick = [](double v) { return format_number(v, 2); };
    const plot::TickFormat flops_tick = [](double v) { return format_si(v, "FLOP/s", 1); };
    const char* x_title = "arithmetic intensity (FLOP/byte, log scale)";
    if (ImGui::CalcTextSize(x_title).x > size.x * 0.7f) x_title = "intensity (FLOP/byte, log)";
    plot::begin("roofline", size, plot::Axis{x0, x1, x_title, "", true, intensity_tick}, plot::Axis{y0, y1, "", "", true, flops_tick});
    const Precision main = pts.front().p.ok() ? pts.front().p.compute : Precision::fp32;
    std::vector<ImRect> labels;
    roofs(dev, main, x0, x1, accent_color(), true, labels);
    if (compare) roofs(*compare, main, x0, x1, compare_color, false, labels);
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
            ImGui::Text("attainable %s (%s-bound, %s peak)", format_si(p.attainable, "FLOP/s").c_str(),
                        p.memory_bound ? "memory" : "compute", precision_name(p.compute));
            ImGui::Text("%s, %s: at least %s", format_si(p.flops, "FLOP").c_str(), format_si(p.bytes, "B").c_str(),
                        format_seconds(p.time_bound_s).c_str());
            if (p.measured_s > 0)
                ImGui::Text("measured %s = %s of the roofline", format_seconds(p.measured_s).c_str(),
                            format_percent(p.fraction_of_roofline).c_str());
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
    // On a narrow screen the columns keep their width and the table scrolls sideways.
    const bool narrow = ImGui::GetContentRegionAvail().x < em(48);
    const ImGuiTableFlags tf = ImGuiTableFlags_RowBg |
                               (narrow ? ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX : ImGuiTableFlags_SizingStretchProp);
    const ImVec2 table_size(0, narrow ? table_h + ImGui::GetStyle().ScrollbarSize : 0);
    if (ImGui::BeginTable("roofline_points", 7, tf, table_size)) {
        for (const char* h : {"op", "intensity", "attainable", "bound", "fastest", compare ? "vs compare" : "peak used", "source"})
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
            if (o.p.measured_s > 0)
                ImGui::Text("%s (%s reached)", format_seconds(o.p.time_bound_s).c_str(), format_percent(o.p.fraction_of_roofline).c_str());
            else ImGui::Text("%s", format_seconds(o.p.time_bound_s).c_str());
            ImGui::TableNextColumn();
            if (compare && i < cmp.size() && cmp[i].p.ok() && cmp[i].p.attainable > 0)
                ImGui::Text("%sx", format_number(o.p.attainable / cmp[i].p.attainable, 1).c_str());
            else ImGui::Text("%s%s", precision_name(o.p.compute), o.p.tensor ? " (tensor)" : "");
            ImGui::TableNextColumn();
            if (i == 0) ImGui::TextDisabled("%s", dev.source.c_str());
        }
        ImGui::EndTable();
    }
}

}  // namespace occ::ui
