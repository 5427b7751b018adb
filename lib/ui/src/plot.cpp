// plot.cpp — see plot.hpp. One plot is open at a time (like ImPlot's current plot).
#include "plot.hpp"

#include <algorithm>
#include <cassert>
#include <cfloat>
#include <cmath>
#include <string>

#include "imgui_internal.h"
#include "occ/format.hpp"

namespace occ::ui::plot {
namespace {

struct Current {
    bool open = false;
    ImRect frame;  // whole widget
    ImRect area;   // data area
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

// Ticks of an axis, about `target` of them, in increasing order: multiples of a nice step, or
// whole decades (every k-th when there are many) on a log axis.
template <typename Fn>
void for_each_tick(const Axis& a, int target, Fn&& fn) {
    const double lo = std::min(a.min, a.max), hi = std::max(a.min, a.max);
    if (a.log) {
        if (!(lo > 0)) return;
        const int e0 = static_cast<int>(std::ceil(std::log10(lo) - 1e-9)), e1 = static_cast<int>(std::floor(std::log10(hi) + 1e-9));
        const int every = std::max(1, static_cast<int>(std::ceil((e1 - e0) / static_cast<double>(std::max(1, target)))));
        for (int e = e0; e <= e1; e += every) fn(std::pow(10.0, e));
        return;
    }
    const double step = nice_step(hi - lo, target);
    for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) fn(v);
}

std::string tick_label(const Axis& a, double v) { return a.format ? a.format(v) : format_number(v, 2) + a.suffix; }

int x_tick_target() { return std::max(2, static_cast<int>(g.area.GetWidth() / (ImGui::GetFontSize() * 5))); }
int y_tick_target() { return std::max(2, static_cast<int>(g.area.GetHeight() / (ImGui::GetFontSize() * 2.5f))); }

// Axis value -> 0..1 along the axis (min -> 0), and back. The log of a value <= 0 is clamped.
double scaled(const Axis& a, double v) { return a.log ? std::log10(std::max(v, DBL_MIN)) : v; }
double fraction(const Axis& a, double v) { return (scaled(a, v) - scaled(a, a.min)) / (scaled(a, a.max) - scaled(a, a.min)); }
double from_fraction(const Axis& a, double t) {
    if (!a.log) return a.min + t * (a.max - a.min);
    const double lo = scaled(a, a.min);
    return std::pow(10.0, lo + t * (scaled(a, a.max) - lo));
}

ImU32 with_alpha(ImU32 c, float a) {
    ImVec4 v = ImGui::ColorConvertU32ToFloat4(c);
    v.w *= a;
    return ImGui::ColorConvertFloat4ToU32(v);
}

void draw_axes() {
    ImDrawList* dl = g.dl;
    const ImU32 grid = with_alpha(ImGui::GetColorU32(ImGuiCol_Border), 0.55f);
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    // A tick label that would touch the one before it is left out (its grid line stays).
    float last_x = -FLT_MAX;
    for_each_tick(g.x, x_tick_target(), [&](double v) {
        const float px = to_screen(v, g.y.min).x;
        dl->AddLine(ImVec2(px, g.area.Min.y), ImVec2(px, g.area.Max.y), grid);
        const std::string s = tick_label(g.x, v);
        const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
        const float x = std::clamp(px - ts.x * 0.5f, g.frame.Min.x, g.frame.Max.x - ts.x);
        if (x < last_x) return;
        dl->AddText(ImVec2(x, g.area.Max.y + 2), text, s.c_str());
        last_x = x + ts.x + ImGui::GetFontSize() * 0.5f;
    });
    float last_y = FLT_MAX;  // y ticks go upward
    for_each_tick(g.y, y_tick_target(), [&](double v) {
        const float py = to_screen(g.x.min, v).y;
        dl->AddLine(ImVec2(g.area.Min.x, py), ImVec2(g.area.Max.x, py), grid);
        const std::string s = tick_label(g.y, v);
        const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
        const float y = std::clamp(py - ts.y * 0.5f, g.frame.Min.y, g.area.Max.y - ts.y);
        if (y + ts.y > last_y) return;
        dl->AddText(ImVec2(g.area.Min.x - ts.x - 4, y), text, s.c_str());
        last_y = y;
    });
    if (g.x.label && *g.x.label) {
        const ImVec2 ts = ImGui::CalcTextSize(g.x.label);
        dl->AddText(
            ImVec2(std::max(g.frame.Min.x, std::min(g.area.GetCenter().x - ts.x * 0.5f, g.frame.Max.x - ts.x)), g.frame.Max.y - ts.y), text,
            g.x.label);
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
        // Room for the y tick labels on the left (the widest of them) and x ticks + axis label below.
        g.area = ImRect(ImVec2(p.x, p.y + fh * 0.5f), ImVec2(p.x + size.x - fh * 0.6f, p.y + size.y - fh * 2.3f));
        float widest = ImGui::CalcTextSize("1000%").x;
        for_each_tick(y, y_tick_target(), [&](double v) { widest = std::max(widest, ImGui::CalcTextSize(tick_label(y, v).c_str()).x); });
        g.area.Min.x += widest + 8;
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
    return ImVec2(static_cast<float>(g.area.Min.x + fraction(g.x, x) * g.area.GetWidth()),
                  static_cast<float>(g.area.Max.y - fraction(g.y, y) * g.area.GetHeight()));
}

bool hovered(double* x, double* y) {
    if (!g.hovered) return false;
    const double tx = (ImGui::GetIO().MousePos.x - g.area.Min.x) / g.area.GetWidth();
    const double ty = (g.area.Max.y - ImGui::GetIO().MousePos.y) / g.area.GetHeight();
    if (x) *x = from_fraction(g.x, tx);
    if (y) *y = from_fraction(g.y, ty);
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
    static const ImVec4 stops[] = {{0.267f, 0.005f, 0.329f, 1},
                                   {0.231f, 0.322f, 0.545f, 1},
                                   {0.129f, 0.569f, 0.549f, 1},
                                   {0.369f, 0.788f, 0.384f, 1},
                                   {0.993f, 0.906f, 0.144f, 1}};
    t = std::clamp(t, 0.0f, 1.0f) * 4.0f;
    const int i = std::min(3, static_cast<int>(t));
    const float f = t - static_cast<float>(i);
    const ImVec4 &a = stops[i], &b = stops[i + 1];
    return ImGui::ColorConvertFloat4ToU32(ImVec4(a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f, a.z + (b.z - a.z) * f, 1));
}

ImDrawList* draw_list() { return g.dl; }

void legend(std::span<const LegendItem> items) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float h = ImGui::GetTextLineHeight();
    const ImGuiWindow* win = ImGui::GetCurrentWindow();
    for (const LegendItem& it : items) {
        // An item that does not fit on this line starts the next one.
        const float item_w = (it.key == Key::colormap ? h * 8 + ImGui::CalcTextSize(it.low).x + ImGui::GetStyle().ItemSpacing.x : h) +
                             ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(it.label).x;
        const bool line_start = ImGui::GetCursorScreenPos().x <= win->DC.CursorStartPos.x + win->DC.Indent.x + 1;
        if (!line_start && ImGui::GetContentRegionAvail().x < item_w) ImGui::NewLine();
        if (it.key == Key::colormap) {
            ImGui::TextDisabled("%s", it.low);
            ImGui::SameLine();
        }
        const ImVec2 p = ImGui::GetCursorScreenPos();
        float w = h;
        switch (it.key) {
            case Key::line: dl->AddRectFilled(ImVec2(p.x, p.y + h * 0.4f), ImVec2(p.x + h, p.y + h * 0.65f), it.color); break;
            case Key::marker:
                dl->AddCircleFilled(ImVec2(p.x + h * 0.5f, p.y + h * 0.5f), h * 0.3f, it.color);
                dl->AddCircle(ImVec2(p.x + h * 0.5f, p.y + h * 0.5f), h * 0.3f + 1.0f, ImGui::GetColorU32(ImGuiCol_Text), 0, 1.0f);
                break;
            case Key::colormap:
                w = h * 8;
                for (int i = 0; i < 32; ++i)
                    dl->AddRectFilled(ImVec2(p.x + w * i / 32.0f, p.y + h * 0.2f), ImVec2(p.x + w * (i + 1) / 32.0f + 0.5f, p.y + h * 0.8f),
                                      colormap(static_cast<float>(i) / 31.0f));
                break;
        }
        ImGui::Dummy(ImVec2(w, h));
        ImGui::SameLine();
        ImGui::TextDisabled("%s", it.label);
        ImGui::SameLine(0, h);
    }
    ImGui::NewLine();
}

}  // namespace occ::ui::plot
