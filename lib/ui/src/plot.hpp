// plot.hpp — the one small ImDrawList helper every graph and diagram goes through.
//
// Shaped like ImPlot: begin(label, ...) / end() keyed by a label, data passed in as spans (never
// owned), and every data -> pixel transform done by to_screen(), so flips, log scales and margins
// live in one place. A diagram (the SM picture, the bank grid) is a plot without axes whose y axis
// runs downward (give y.min > y.max).
#pragma once
#include <cstdint>
#include <span>
#include <string>

#include "imgui.h"

namespace occ::ui::plot {

// A tick label for a value on an axis, unit included ("10 TFLOP/s").
using TickFormat = std::string (*)(double value);

struct Axis {
    double min = 0, max = 1;      // in data units, also on a log axis; min is drawn left / bottom; give min > max to flip
    const char* label = "";       // drawn under the x axis; include the unit
    const char* suffix = "";      // appended to the default tick labels ("%", " KiB")
    bool log = false;             // log10 scale with ticks at whole decades; min and max must be > 0
    TickFormat format = nullptr;  // tick labels; nullptr: occ::format_number(v, 2) + suffix
};

enum Flags : unsigned {
    kNone = 0,
    kNoAxes = 1u << 0,  // diagrams: no ticks, labels or grid; the whole rect is data
    kNoBackground = 1u << 1,
};

// Begins a plot of `size` pixels (x or y <= 0: fill the available space). Always pair with end().
void begin(const char* label, ImVec2 size, const Axis& x, const Axis& y, unsigned flags = kNone);
void end();

// [transforms]
ImVec2 to_screen(double x, double y);

// [interaction] The mouse over the data area, in data coordinates.
bool hovered(double* x, double* y);
bool clicked(double* x, double* y);  // left click this frame

// [primitives] all in data coordinates.
// A polyline; with `colors` (one per point) each run of equal colour is drawn in that colour.
void line(std::span<const float> xs, std::span<const float> ys, ImU32 color, float thickness = 2.0f, std::span<const ImU32> colors = {});
void marker(double x, double y, ImU32 color, float radius_px = 5.0f);
void vline(double x, ImU32 color, float thickness = 1.0f);
void hline(double y, ImU32 color, float thickness = 1.0f);
void rect(double x0, double y0, double x1, double y1, ImU32 fill, ImU32 border = 0, float rounding_px = 0.0f);
// `align` (0..1, 0..1): which point of the text sits at (x, y).
void text(double x, double y, const char* s, ImU32 color, ImVec2 align = ImVec2(0, 0));
// A grid of cells filling the whole axis range: `values` is column-major (values[c * rows + r]),
// column c spans x in [min + c*w, min + (c+1)*w], row r likewise along y. Vertical runs of equal
// value are drawn as one rectangle (the occupancy grid is piecewise constant). Returns nothing;
// use hovered() + the axis ranges to find the cell under the mouse.
void heatmap(std::span<const float> values, int cols, int rows, float vmin, float vmax);

// The colour map used by heatmap(): perceptually ordered, dark -> bright, t in [0, 1].
ImU32 colormap(float t);

ImDrawList* draw_list();

// [legend] One row of keys at the cursor, outside begin()/end() like any widget: for each item a
// sample of how its series is drawn, then its label.
enum class Key { line, marker, colormap };
struct LegendItem {
    const char* label;  // after the key; for a colormap, the value at the bright end
    ImU32 color = 0;    // line and marker keys
    Key key = Key::line;
    const char* low = "";  // colormap: the value at the dark end, before the bar
};
void legend(std::span<const LegendItem> items);

}  // namespace occ::ui::plot
