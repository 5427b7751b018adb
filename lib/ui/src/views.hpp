// views.hpp — every view is a free function over AppState (one .cpp each), plus the few drawing
// conventions they share (colours per block and per limiter, tooltips, em units).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "app_state.hpp"
#include "imgui.h"

namespace occ::ui {

// [SECTION] Views (draw only; numbers come from AppState::derived or occ::core)
void draw_device_picker(AppState& s);                 // view_device.cpp
void draw_inputs(AppState& s);                        // view_inputs.cpp
void draw_result(AppState& s, bool headline = true);  // view_result.cpp
void draw_result_headline(AppState& s);               // the big figure and its line: the narrow layout's summary
void draw_sm(AppState& s);                            // view_sm.cpp
void draw_plots(AppState& s);                         // view_plots.cpp: the three occupancy graphs
void draw_heatmap(AppState& s);                       // view_heatmap.cpp
void draw_hints(AppState& s);                         // view_hints.cpp
void draw_memory(AppState& s);                        // view_memory.cpp
void draw_roofline(AppState& s);                      // view_roofline.cpp: log-log roofline with the operation presets
void draw_advisor(AppState& s);                       // view_advisor.cpp: before/after suggestions, waves, clusters
void draw_ncu(AppState& s);                           // view_ncu.cpp: a pasted Nsight Compute report next to occ's prediction
void draw_ptxas_import(AppState& s);                  // view_kernels.cpp: pasted compiler output, a row per kernel
void draw_binary_import(AppState& s);                 // view_kernels.cpp: dropped binaries, a row per kernel

// [SECTION] Shared conventions (common.cpp)
// Sizes in multiples of the font size, so layouts follow the content scale.
inline float em(float n) { return n * ImGui::GetFontSize(); }
// Resident block i's colour (a repeating qualitative palette), and each limiter's colour.
ImU32 block_color(int block, float alpha = 1.0f);
// A limiter's colour follows its role (occ/limiter.hpp), so it is the same for either vendor.
ImU32 limiter_color(const LimiterKey& limiter, float alpha = 1.0f);
// Of two limiters (either may be nullptr), the one whose colour a mask shows; that colour (grey for none).
const LimiterKey* first_limiter(const LimiterKey* a, const LimiterKey* b);
ImU32 mask_color(const LimiterKey* pick, float alpha = 1.0f);
// The colour of a mask of a vendor's limiter bits (occ::kLimiters, amd::kAmdLimiters).
template <typename Table>
ImU32 limiter_mask_color(const Table& table, unsigned bits, float alpha = 1.0f) {
    const LimiterKey* pick = nullptr;
    for (const LimiterKey& e : table)
        if (bits & e.bit) pick = first_limiter(pick, &e);
    return mask_color(pick, alpha);
}
ImU32 limiter_color(unsigned limiter_bits, float alpha = 1.0f);  // a mask of occ::Limiter bits
// The colour of the limiters a table's rows mark as hit (the result's headline).
ImU32 rows_color(const std::vector<io::TableRow>& rows, float alpha = 1.0f);
// A collapsing header that a drop or paste (AppState::reveal == which) opens and scrolls to the top.
bool reveal_header(AppState& s, AppState::Reveal which, const char* label);
// A wrapped tooltip for the last item.
void item_tooltip(const char* text);
// Text wrapped to the space left on the line at blanks only (ImGui 1.86 also breaks after a
// comma or a point, which splits "1,024" and "0.5"); drawn as one group.
void text_wrapped(std::string_view text);
float widest_word(std::string_view text);  // what text_wrapped needs to break at blanks only
// Starts a row of a two-column input table: the label (with its tooltip) in column 0; the next
// widget fills column 1.
void input_row(const char* label, const char* tip);
// A multiline text box over a std::string that grows as the user types or pastes.
bool input_text_multiline(const char* id, std::string& text, ImVec2 size);
// A one-line text box over a std::string that grows with what is typed, with a grey hint when empty.
bool input_text_hint(const char* id, const char* hint, std::string& text, int flags = 0);
// A full-width combo over an enum whose values are in the order of a choice field's spellings
// (occ/io/binding.hpp): the app offers the words the CLI and JSON take. True when changed.
bool choice_combo(const char* id, int& index, const io::FieldSpec& spec);
template <typename E>
bool choice_combo(const char* id, E& value, const io::FieldSpec& spec) {
    int i = static_cast<int>(value);
    if (!choice_combo(id, i, spec)) return false;
    value = static_cast<E>(i);
    return true;
}
// [SECTION] Typed numbers (common.cpp)
// A number field that reads what is typed as the CLI reads the field's flag (io::read_typed:
// "48K", "48KiB", "49152", "0x100"), with - and + steps where they fit. A value outside lo..hi is
// refused with refuse(value) (the CLI's own message for that value; by default "must be lo..hi").
// A refusal shows under the field in the error colour, the text stays as typed and the value keeps
// its last good number: never a silently different one. True when the value changed.
struct TypedField {
    const io::FieldSpec* spec = nullptr;
    std::int64_t lo = 0, hi = 0;
    std::int64_t step = 0, fast = 0;  // the - and + buttons (0: none); fast: with Ctrl held
    const char* unit = nullptr;       // beside the field ("threads"); a size shows its value in KiB there
    // Messages, each given `ctx`: refuse for a value outside lo..hi (nullptr: "must be lo..hi"); check
    // for a rule inside it (an offset in whole elements), "" when the value is good. Plain function
    // pointers: the page's download budget (docs/PERFORMANCE.md) has no room for std::function.
    std::string (*refuse)(const void* ctx, std::int64_t v) = nullptr;
    std::string (*check)(const void* ctx, std::int64_t v) = nullptr;
    const void* ctx = nullptr;
    // > 0: the field (with its buttons) is this wide and `unit` is its label after it, as ImGui's
    // own inputs are laid out in a row of fields; 0: it fills the column, the unit in em(5.5).
    float width = 0;
};
bool typed_input(const char* id, const TypedField& f, std::int64_t& v);
bool typed_input(const char* id, const TypedField& f, int& v);
// [SECTION] Layout (common.cpp): every panel goes through these, so the layout check's rules hold.
// A bordered panel ("card"). size.x == 0: the available width. size.y == 0: as tall as its content,
// measured the frame before (it settles one frame after the content changes), never scrolling; the
// region around it scrolls. With a height, the content scrolls when `scroll` is set.
bool begin_panel(const char* id, ImVec2 size, bool scroll = false);
void end_panel();
template <typename F>
void panel(const char* id, ImVec2 size, F&& body, bool scroll = false) {
    if (begin_panel(id, size, scroll)) body();
    end_panel();
}
// The height a panel's content needed last frame (0 before its first frame).
float panel_height(const char* id);
// A borderless region that scrolls vertically (the narrow layout's page, the wide one's right column).
template <typename F>
void scroll_region(const char* id, ImVec2 size, F&& body) {
    if (ImGui::BeginChild(id, size, false, ImGuiWindowFlags_NavFlattened)) body();
    ImGui::EndChild();
}
// Continues the line when `width` more fits on it, else starts a new line.
void same_line_if_fits(float width);
// A section title with a thin rule under it.
void section(const char* title);
// Colour for good/bad figures (theme aware).
ImU32 accent_color();
ImU32 error_color();

}  // namespace occ::ui

namespace occ::ui {
// The layout self-check of the frame just drawn (layout_check.cpp): {"clipped": [{"id", "text",
// "rect"}], "overlaps": [{"a", "b"}]}, rects as [x, y, w, h] in ImGui's pixels.
io::json check_layout();
// Every text of the frame just drawn, as the layout check reads them (tests look for what a panel says).
std::vector<std::string> drawn_texts();
// The large font for headline figures (font 1 of the atlas; falls back to the default font).
void push_big_font();
}  // namespace occ::ui
