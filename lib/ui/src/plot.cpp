// plot.cpp — see plot.hpp. One plot is open at a time (like ImPlot's current plot).
#include "plot.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <string>

#include "imgui_internal.h"
#include "occ/format.hpp"

namespace occ::ui::plot {
namespace {

struct Current {
    bool open = false;
    ImRect frame;        // whole widget
    ImRect area;         // data area
    Axis x, y;
    unsigned flags = 0;
    bool hovered = false;
    bool clicked = false;
    ImDrawList* dl = nullptr;
};
Current g;

// 1, 2 or 5 times a power of ten, giving about `target` ticks over `range`.
double nice_step(double range, int target) {
    const double raw = std::abs(range) / std::max(1, target);
    if (raw <= 0) return 1;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    const double m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

std::string tick_label(double v, const char* suffix) { return format_number(v, 2) + suffix; }

ImU32 with_alpha(ImU32 c, float a) {
    ImVec4 v = ImGui::ColorConvertU32ToFloat4(c);
    v.w *= a;
    return ImGui::ColorConvertFloat4ToU32(v);
}

void draw_axes() {
    ImDrawList* dl = g.dl;
    const ImU32 grid = with_alpha(ImGui::GetColorU32(ImGuiCol_Border), 0.55f);
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const float fh = ImGui::GetFontSize();
    const double xs = nice_step(g.x.max - g.x.min, std::max(2, static_cast<int>(g.area.GetWidth() / (fh * 5))));
    const double ys = nice_step(g.y.max - g.y.min, std::max(2, static_cast<int>(g.area.GetHeight() / (fh * 2.5f))));
    const double x_lo = std::min(g.x.min, g.x.max), x_hi = std::max(g.x.min, g.x.max);
    const double y_lo = std::min(g.y.min, g.y.max), y_hi = std::max(g.y.min, g.y.max);
    for (double v = std::ceil(x_lo / xs) * xs; v <= x_hi + xs * 1e-9; v += xs) {
        const float px = to_screen(v, 0).x;
        dl->AddLine(ImVec2(px, g.area.Min.y), ImVec2(px, g.area.Max.y), grid);
        const std::string s = tick_label(v, g.x.suffix);
        const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
        dl->AddText(ImVec2(std::clamp(px - ts.x * 0.5f, g.frame.Min.x, g.frame.Max.x - ts.x), g.area.Max.y + 2), text, s.c_str());
    }
    for (double v = std::ceil(y_lo / ys) * ys; v <= y_hi + ys * 1e-9; v += ys) {
        const float py = to_screen(0, v).y;
        dl->AddLine(ImVec2(g.area.Min.x, py), ImVec2(g.area.Max.x, py), grid);
        const std::string s = tick_label(v, g.y.suffix);
        const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
        dl->AddText(ImVec2(g.area.Min.x - ts.x - 4, std::clamp(py - ts.y * 0.5f, g.frame.Min.y, g.area.Max.y - ts.y)), text, s.c_str());
    }
    if (g.x.label && *g.x.label) {
        const ImVec2 ts = ImGui::CalcTextSize(g.x.label);
        dl->AddText(ImVec2(g.area.GetCenter().x - ts.x * 0.5f, g.frame.Max.y - ts.y), text, g.x.label);
    }
    dl->AddRect(g.area.Min, g.area.Max, with_alpha(ImGui::GetColorU32(ImGuiCol_Border), 0.9f));
}

}  // namespace

void begin(const char* label, ImVec2 size, const Axis& x, const Axis& y, unsigned flags) {
    assert(!g.open && "plot::begin without end");
    ImGui::PushID(label);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    if (size.x <= 0) size.x = std::max(avail.x + size.x, 40.0f);
    if (size.y <= 0) size.y = std::max(avail.y + size.y, 40.0f);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##plot", size);
    g = Current{};
    g.open = true;
    g.x = x;
    g.y = y;
    g.flags = flags;
    g.frame = ImRect(p, ImVec2(p.x + size.x, p.y + size.y));
    g.area = g.frame;
    g.dl = ImGui::GetWindowDrawList();
    const float fh = ImGui::GetFontSize();
    if (!(flags & kNoAxes)) {
        // Room for y tick labels on the left and x ticks + axis label below.
        const float left = ImGui::CalcTextSize("1000%").x + 8;
        g.area = ImRect(ImVec2(p.x + left, p.y + fh * 0.5f), ImVec2(p.x + size.x - fh * 0.6f, p.y + size.y - fh * 2.3f));
    }
    g.hovered = ImGui::IsItemHovered() && g.area.Contains(ImGui::GetIO().MousePos);
    g.clicked = g.hovered && ImGui::IsItemClicked(ImGuiMouseButton_Left);
    if (!(flags & kNoBackground)) g.dl->AddRectFilled(g.area.Min, g.area.Max, ImGui::GetColorU32(ImGuiCol_FrameBg));
    if (!(flags & kNoAxes)) draw_axes();
    g.dl->PushClipRect(g.area.Min, g.area.Max, true);
}

void end() {
    assert(g.open);
    g.dl->PopClipRect();
    g.open = false;
    ImGui::PopID();
}

ImVec2 to_screen(double x, double y) {
    const double tx = (x - g.x.min) / (g.x.max - g.x.min);
    const double ty = (y - g.y.min) / (g.y.max - g.y.min);
    return ImVec2(static_cast<float>(g.area.Min.x + tx * g.area.GetWidth()),
                  static_cast<float>(g.area.Max.y - ty * g.area.GetHeight()));
}

ImVec2 to_data(ImVec2 s) {
    const double tx = (s.x - g.area.Min.x) / g.area.GetWidth();
    const double ty = (g.area.Max.y - s.y) / g.area.GetHeight();
    return ImVec2(static_cast<float>(g.x.min + tx * (g.x.max - g.x.min)), static_cast<float>(g.y.min + ty * (g.y.max - g.y.min)));
}

ImVec2 pixel_size() {
    return ImVec2(static_cast<float>(std::abs(g.x.max - g.x.min) / g.area.GetWidth()),
                  static_cast<float>(std::abs(g.y.max - g.y.min) / g.area.GetHeight()));
}

bool hovered(double* x, double* y) {
    if (!g.hovered) return false;
    const double tx = (ImGui::GetIO().MousePos.x - g.area.Min.x) / g.area.GetWidth();
    const double ty = (g.area.Max.y - ImGui::GetIO().MousePos.y) / g.area.GetHeight();
    if (x) *x = g.x.min + tx * (g.x.max - g.x.min);
    if (y) *y = g.y.min + ty * (g.y.max - g.y.min);
    return true;
}

bool clicked(double* x, double* y) { return g.clicked && hovered(x, y); }

void line(std::span<const float> xs, std::span<const float> ys, ImU32 color, float thickness, std::span<const ImU32> colors) {
    const std::size_t n = std::min(xs.size(), ys.size());
    if (n < 2) return;
    const bool per_point = colors.size() >= n;
    // Draw runs of one colour as one polyline; consecutive runs share their joining point.
    std::size_t start = 0;
    while (start + 1 < n) {
        std::size_t end = start + 1;
        const ImU32 c = per_point ? colors[start + 1] : color;
        while (per_point && end + 1 < n && colors[end + 1] == c) ++end;
        if (!per_point) end = n - 1;
        for (std::size_t i = start; i <= end; ++i) g.dl->PathLineTo(to_screen(xs[i], ys[i]));
        g.dl->PathStroke(c, 0, thickness);
        start = end;
    }
}

void marker(double x, double y, ImU32 color, float r) {
    const ImVec2 p = to_screen(x, y);
    g.dl->AddCircleFilled(p, r, color);
    g.dl->AddCircle(p, r + 1.5f, ImGui::GetColorU32(ImGuiCol_Text), 0, 1.5f);
}

void vline(double x, ImU32 color, float t) {
    const float px = to_screen(x, 0).x;
    g.dl->AddLine(ImVec2(px, g.area.Min.y), ImVec2(px, g.area.Max.y), color, t);
}

void hline(double y, ImU32 color, float t) {
    const float py = to_screen(0, y).y;
    g.dl->AddLine(ImVec2(g.area.Min.x, py), ImVec2(g.area.Max.x, py), color, t);
}

void rect(double x0, double y0, double x1, double y1, ImU32 fill, ImU32 border, float rounding) {
    const ImVec2 a = to_screen(x0, y0), b = to_screen(x1, y1);
    const ImVec2 mn(std::min(a.x, b.x), std::min(a.y, b.y)), mx(std::max(a.x, b.x), std::max(a.y, b.y));
    if (fill) g.dl->AddRectFilled(mn, mx, fill, rounding);
    if (border) g.dl->AddRect(mn, mx, border, rounding);
}

void text(double x, double y, const char* s, ImU32 color, ImVec2 align) {
    const ImVec2 p = to_screen(x, y);
    const ImVec2 ts = ImGui::CalcTextSize(s);
    g.dl->AddText(ImVec2(std::floor(p.x - ts.x * align.x), std::floor(p.y - ts.y * align.y)), color, s);
}

void heatmap(std::span<const float> values, int cols, int rows, float vmin, float vmax) {
    if (cols <= 0 || rows <= 0 || values.size() < static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows)) return;
    const double w = (g.x.max - g.x.min) / cols, h = (g.y.max - g.y.min) / rows;
    const float span = vmax > vmin ? vmax - vmin : 1.0f;
    for (int c = 0; c < cols; ++c) {
        const float* col = values.data() + static_cast<std::size_t>(c) * rows;
        int r0 = 0;
        while (r0 < rows) {
            int r1 = r0 + 1;
            while (r1 < rows && col[r1] == col[r0]) ++r1;
            const ImVec2 a = to_screen(g.x.min + c * w, g.y.min + r0 * h);
            const ImVec2 b = to_screen(g.x.min + (c + 1) * w, g.y.min + r1 * h);
            g.dl->AddRectFilled(ImVec2(std::min(a.x, b.x), std::min(a.y, b.y)), ImVec2(std::max(a.x, b.x), std::max(a.y, b.y)),
                                colormap((col[r0] - vmin) / span));
            r0 = r1;
        }
    }
}

ImU32 colormap(float t) {
    // Five stops sampled from matplotlib's "viridis" (CC0): dark blue -> teal -> green -> yellow.
    static const ImVec4 stops[] = {{0.267f, 0.005f, 0.329f, 1}, {0.231f, 0.322f, 0.545f, 1}, {0.129f, 0.569f, 0.549f, 1},
                                   {0.369f, 0.788f, 0.384f, 1}, {0.993f, 0.906f, 0.144f, 1}};
    t = std::clamp(t, 0.0f, 1.0f) * 4.0f;
    const int i = std::min(3, static_cast<int>(t));
    const float f = t - static_cast<float>(i);
    const ImVec4 &a = stops[i], &b = stops[i + 1];
    return ImGui::ColorConvertFloat4ToU32(ImVec4(a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f, a.z + (b.z - a.z) * f, 1));
}

ImDrawList* draw_list() { return g.dl; }

}  // namespace occ::ui::plot
