// app.cpp — occ::ui::App: theme, fonts, and the layout that places every view.
//
// [SECTION] Theme and fonts
// [SECTION] Layout: menu bar, notice, tabs; the occupancy tab's columns and rows
// [SECTION] App API
#include "occ/ui/app.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "amd_ui.hpp"
#include "app_state.hpp"
#include "imgui_internal.h"
#include "scenario.hpp"
#include "views.hpp"

namespace occ::ui {
namespace {

// [SECTION] Theme and fonts
void apply_theme(bool dark, float scale) {
    ImGuiStyle st;
    if (dark) ImGui::StyleColorsDark(&st);
    else ImGui::StyleColorsLight(&st);
    st.WindowRounding = 0;
    st.ChildRounding = 6;
    st.FrameRounding = 4;
    st.GrabRounding = 4;
    st.PopupRounding = 4;
    st.TabRounding = 4;
    st.ScrollbarRounding = 6;
    st.WindowPadding = ImVec2(10, 10);
    st.FramePadding = ImVec2(6, 4);
    st.ItemSpacing = ImVec2(8, 6);
    st.CellPadding = ImVec2(6, 3);
    st.ScrollbarSize = 12;
    st.WindowBorderSize = 0;
    st.ChildBorderSize = 1;
    // The theme's own colours: {slot, dark, light}; a light value with alpha 0 keeps ImGui's light one.
    struct Themed {
        ImGuiCol slot;
        ImVec4 dark, light;
    };
    static const Themed colours[] = {
        {ImGuiCol_WindowBg, {0.075f, 0.082f, 0.098f, 1}, {0.925f, 0.933f, 0.945f, 1}},
        {ImGuiCol_ChildBg, {0.110f, 0.120f, 0.140f, 1}, {0.99f, 0.99f, 1.0f, 1}},
        {ImGuiCol_MenuBarBg, {0.095f, 0.105f, 0.125f, 1}, {0.89f, 0.90f, 0.92f, 1}},
        {ImGuiCol_Border, {0.22f, 0.24f, 0.28f, 1}, {0.78f, 0.80f, 0.84f, 1}},
        {ImGuiCol_FrameBg, {0.165f, 0.178f, 0.207f, 1}, {0.925f, 0.935f, 0.95f, 1}},
        {ImGuiCol_FrameBgHovered, {0.21f, 0.23f, 0.27f, 1}, {}},
        {ImGuiCol_FrameBgActive, {0.25f, 0.28f, 0.33f, 1}, {}},
        {ImGuiCol_TableRowBgAlt, {1, 1, 1, 0.03f}, {0, 0, 0, 0.03f}},
        {ImGuiCol_Text, {0.90f, 0.91f, 0.93f, 1}, {}},
        {ImGuiCol_TextDisabled, {0.55f, 0.58f, 0.63f, 1}, {0.42f, 0.45f, 0.50f, 1}},
        {ImGuiCol_PlotHistogram, {0.36f, 0.80f, 0.95f, 1}, {0.05f, 0.45f, 0.80f, 1}},  // accent: current point
    };
    for (const Themed& t : colours) {
        const ImVec4& v = dark ? t.dark : t.light;
        if (v.w > 0) st.Colors[t.slot] = v;
    }
    st.ScaleAllSizes(scale);
    ImGui::GetStyle() = st;
}

void build_fonts(AppState& s) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    const float scale = s.content_scale;
    if (!s.font_ttf.empty()) {
        ImFontConfig cfg;
        cfg.FontDataOwnedByAtlas = false;  // AppState owns the bytes
        cfg.OversampleH = 2;
        io.Fonts->AddFontFromMemoryTTF(s.font_ttf.data(), static_cast<int>(s.font_ttf.size()), std::round(15.0f * scale), &cfg);
        io.Fonts->AddFontFromMemoryTTF(s.font_ttf.data(), static_cast<int>(s.font_ttf.size()), std::round(30.0f * scale), &cfg);
    } else {
        // ImGui's built-in ProggyClean is a pixel font: crisp at whole multiples of 13 px.
        ImFontConfig cfg;
        cfg.SizePixels = std::max(13.0f, std::round(scale) * 13.0f);
        io.Fonts->AddFontDefault(&cfg);
        cfg.SizePixels *= 2;
        io.Fonts->AddFontDefault(&cfg);
    }
    io.Fonts->Build();
    s.fonts_built = true;
}

// [SECTION] Layout
void recompute_tooltip(const AppState& s);

// A panel whose numbers are not computed yet (they come in one of the next frames).
void coming(const char* what) { ImGui::TextDisabled("Computing the %s...", what); }

// The menu bar drops what does not fit, least useful first: the subtitle, then the recompute time.
// The page's Copy link / export bar (index.html) sits in the middle of it on wide screens and at its
// right end below 900 CSS pixels, so the bar's middle and (when narrow) its right end stay free.
void menu_bar(App& app, AppState& s) {
    if (!ImGui::BeginMenuBar()) return;
    const float w = ImGui::GetWindowWidth();
    ImGui::TextUnformatted("occ");
    if (w >= em(80)) ImGui::TextDisabled("GPU occupancy calculator");
    if (ImGui::BeginMenu("View")) {
        bool changed = false;
        changed |= ImGui::MenuItem("SM picture", nullptr, &s.views.sm);
        changed |= ImGui::MenuItem("Graphs", nullptr, &s.views.plots);
        changed |= ImGui::MenuItem("Heatmap", nullptr, &s.views.heatmap);
        changed |= ImGui::MenuItem("Hints", nullptr, &s.views.hints);
        ImGui::Separator();
        bool dark = s.dark;
        if (ImGui::MenuItem("Dark theme", nullptr, &dark)) app.set_dark_theme(dark);
        if (changed) s.scenario_changed = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Scenario")) {
        if (ImGui::MenuItem("Copy scenario JSON")) ImGui::SetClipboardText(scenario_to_json(s).c_str());
        if (ImGui::MenuItem("Reset inputs")) reset_inputs(s);
        ImGui::EndMenu();
    }
    char status[96];
    std::snprintf(status, sizeof status, "recomputed in %.2f ms", recompute_ms(s));
    const float status_x = w - ImGui::CalcTextSize(status).x - em(1.5f);
    if (w >= em(60) && status_x > ImGui::GetCursorPosX() + em(1)) {
        ImGui::SameLine(status_x);
        ImGui::TextDisabled("%s", status);
        if (ImGui::IsItemHovered()) recompute_tooltip(s);
    }
    ImGui::EndMenuBar();
}

// Where the menu bar's figure comes from: each part of what is shown, computed for these inputs
// (over one frame or more), kept from earlier inputs, or not needed yet.
void recompute_tooltip(const AppState& s) {
    ImGui::BeginTooltip();
    ImGui::TextUnformatted("Time spent computing what is shown for these inputs:");
    const Recompute& r = s.derived.recompute;
    for (int i = 0; i < kPartCount; ++i) {
        const Part p = static_cast<Part>(i);
        const PartLog& log = r[p];
        if (log.generation != s.input_generation) {
            if (log.waited_frame == r.frames) ImGui::TextDisabled("%s: comes in the next frame", part_title(p));
            else if (log.runs > 0) ImGui::TextDisabled("%s: not shown", part_title(p));
            continue;
        }
        if (log.computed_for == s.input_generation) ImGui::Text("%s: %.2f ms", part_title(p), log.ms);
        else ImGui::TextDisabled("%s: kept (its inputs did not change)", part_title(p));
    }
    ImGui::EndTooltip();
}

void notice_bar(AppState& s) {
    if (s.notice.empty()) return;
    const float button_w = ImGui::CalcTextSize("Dismiss").x + ImGui::GetStyle().FramePadding.x * 2;
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(0.85f, 0.55f, 0.10f, 0.25f));
    panel("notice", ImVec2(0, 0), [&] {
        ImGui::PushTextWrapPos(ImGui::GetContentRegionAvail().x - button_w - ImGui::GetStyle().ItemSpacing.x);
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(s.notice.c_str());
        ImGui::PopTextWrapPos();
        ImGui::SameLine(ImGui::GetContentRegionMax().x - button_w);
        if (ImGui::Button("Dismiss")) s.notice.clear();
    });
    ImGui::PopStyleColor();
}

// What the user sets (the GPU, the kernel and launch) and what to change next.
void inputs_column(AppState& s) {
    draw_device_picker(s);
    ImGui::Spacing();
    draw_inputs(s);
    if (s.views.hints) {
        ImGui::Spacing();
        if (ready(s, Part::hints)) draw_hints(s);
        else coming("hints");
    }
}

void plots(AppState& s) {
    bool all = true;  // each sweep that the budget allows, even after one that waits
    for (const Part p : {Part::sweep_threads, Part::sweep_regs, Part::sweep_smem}) all = ready(s, p) && all;
    if (all) draw_plots(s);
    else coming("graphs");
}

void heatmap(AppState& s) {
    if (ready(s, Part::heatmap)) draw_heatmap(s);
    else coming("heatmap");
}

// The occupancy tab. Wide screens: the inputs on the left; on the right the result and the SM
// picture (side by side when there is room) at the height the result needs, so both show without
// scrolling, then the graphs and the heatmap, which the right column scrolls to when the window is
// short. Narrow screens (phones, tablets upright): one column under a summary that stays in view.
void occupancy_tab(AppState& s) {
    const ImGuiStyle& st = ImGui::GetStyle();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    if (avail.x < em(60)) {
        panel("summary", ImVec2(avail.x, 0), [&] { draw_result_headline(s); });
        scroll_region("page", ImVec2(avail.x, ImGui::GetContentRegionAvail().y), [&] {
            const float w = ImGui::GetContentRegionAvail().x;
            panel("inputs_panel", ImVec2(w, 0), [&] { inputs_column(s); });
            panel("result_panel", ImVec2(w, 0), [&] { draw_result(s, /*headline=*/false); });
            if (s.views.sm) panel("sm_panel", ImVec2(w, em(21)), [&] { draw_sm(s); });
            if (s.views.plots) panel("plots_panel", ImVec2(w, 0), [&] { plots(s); });
            if (s.views.heatmap) panel("heatmap_panel", ImVec2(w, em(24)), [&] { heatmap(s); });
        });
        return;
    }
    const float left_w = std::clamp(avail.x * 0.27f, em(25), em(30));
    panel(
        "inputs_panel", ImVec2(left_w, avail.y), [&] { inputs_column(s); }, /*scroll=*/true);
    ImGui::SameLine();
    scroll_region("right", ImVec2(avail.x - left_w - st.ItemSpacing.x, avail.y), [&] {
        const ImVec2 r = ImGui::GetContentRegionAvail();
        const bool side = s.views.sm && r.x >= em(54);
        const float result_w = side ? std::clamp(r.x * 0.5f, em(28), r.x - em(26)) : r.x;
        const float top_h = std::max(panel_height("result_panel"), side ? em(21) : 0.0f);
        panel("result_panel", ImVec2(result_w, top_h), [&] { draw_result(s, /*headline=*/true); });
        float used = top_h + st.ItemSpacing.y;
        if (s.views.sm) {
            if (side) ImGui::SameLine();
            else used += em(21) + st.ItemSpacing.y;
            panel("sm_panel", ImVec2(side ? r.x - result_w - st.ItemSpacing.x : r.x, side ? top_h : em(21)), [&] { draw_sm(s); });
        }
        // An AMD GPU: the graphs' note, as tall as its text, and the heatmap takes the rest.
        if (s.views.plots && s.amd) {
            panel("plots_panel", ImVec2(r.x, 0), [&] { plots(s); });
            used += panel_height("plots_panel") + st.ItemSpacing.y;
        }
        const bool graphs = s.views.plots && !s.amd;
        // What is left goes to the graphs and the heatmap, each at least tall enough to read.
        const float plots_min = em(15), heat_min = em(18), rest = r.y - used;
        float plots_h = plots_min, heat_h = heat_min;
        if (graphs && s.views.heatmap) {
            if (rest >= plots_min + heat_min + st.ItemSpacing.y) {
                plots_h = std::max(plots_min, (rest - st.ItemSpacing.y) * 0.45f);
                heat_h = rest - plots_h - st.ItemSpacing.y;
            }
        } else {
            plots_h = std::max(plots_min, rest);
            heat_h = std::max(heat_min, rest);
        }
        if (graphs) panel("plots_panel", ImVec2(r.x, plots_h), [&] { plots(s); });
        if (s.views.heatmap) panel("heatmap_panel", ImVec2(r.x, heat_h), [&] { heatmap(s); });
    });
}

}  // namespace

// [SECTION] App API
App::App() : state_(std::make_unique<AppState>()) {
    reset_inputs(*state_);
    state_->scenario_changed = false;
    if (ImGui::GetCurrentContext()) {
        ImGuiIO& io = ImGui::GetIO();
        io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
        io.IniFilename = nullptr;  // the layout is computed, and the platform stores the scenario
        build_fonts(*state_);
        apply_theme(state_->dark, state_->content_scale);
    }
}

App::~App() = default;

void App::frame() {
    AppState& s = *state_;
    begin_frame(s);
    ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(vp->WorkSize);
    const ImGuiWindowFlags wf = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                ImGuiWindowFlags_MenuBar | ImGuiWindowFlags_NoBringToFrontOnFocus;
    // Focus the app window once, so the keyboard works before the first click.
    if (!s.focused_once) {
        ImGui::SetNextWindowFocus();
        s.focused_once = true;
    }
    ImGui::Begin("occ", nullptr, wf);
    menu_bar(*this, s);
    notice_bar(s);
    if (ImGui::BeginTabBar("tabs")) {
        // A scenario may ask for a tab: SetSelected is passed only while the tab shown differs
        // from the one asked for, so clicking a tab still works. The switch lands a frame later.
        const bool force = s.tab != s.shown_tab;
        auto flags = [&](Tab t) { return force && s.tab == t ? ImGuiTabItemFlags_SetSelected : 0; };
        int drawn = -1;
        auto tab = [&](const char* label, Tab t, void (*draw)(AppState&)) {
            if (!ImGui::BeginTabItem(label, nullptr, flags(t))) return;
            drawn = static_cast<int>(t);
            draw(s);
            ImGui::EndTabItem();
        };
        // The other tabs' numbers are computed when the tab opens (the tile panel's may follow a frame later).
        tab("Occupancy", Tab::occupancy, occupancy_tab);
        tab("Memory", Tab::memory, [](AppState& st) {
            ready(st, Part::memory, /*now=*/true);
            draw_memory(st);
        });
        tab("Advisor", Tab::advisor, [](AppState& st) {
            ready(st, Part::advisor, /*now=*/true);
            ready(st, Part::ncu, /*now=*/true);
            draw_advisor(st);
        });
        // The Roofline tab scrolls as a whole when the window is short or narrow.
        tab("Roofline", Tab::roofline, [](AppState& st) {
            ready(st, Part::roofline, /*now=*/true);
            scroll_region("roofline_page", ImGui::GetContentRegionAvail(), [&] { draw_roofline(st); });
        });
        ImGui::EndTabBar();
        if (drawn >= 0 && (!force || static_cast<Tab>(drawn) == s.tab)) {
            if (s.tab != static_cast<Tab>(drawn)) s.scenario_changed = true;
            s.tab = s.shown_tab = static_cast<Tab>(drawn);
        }
    }
    ImGui::End();
    Recompute& r = s.derived.recompute;
    if (++r.frames == 1) r.first_frame_ms = recompute_ms(s);
    if (r.waiting) r.settled_frame = 0;
    else if (r.settled_frame == 0) {
        r.settled_frame = r.frames;
        r.settled_at_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
    }
}

std::string App::recompute_json() const {
    const AppState& s = *state_;
    const Recompute& r = s.derived.recompute;
    io::json parts = io::json::array();
    for (int i = 0; i < kPartCount; ++i) {
        const PartLog& log = r[static_cast<Part>(i)];
        const bool current = log.generation == s.input_generation;
        const char* state = current                        ? (log.computed_for == s.input_generation ? "computed" : "kept")
                            : log.waited_frame == r.frames ? "waiting"
                                                           : "not shown";
        parts.push_back({{"part", part_title(static_cast<Part>(i))}, {"ms", log.ms}, {"state", state}, {"runs", log.runs}});
    }
    return io::json{{"ms", recompute_ms(s)},
                    {"waiting", r.waiting},
                    {"frames", r.frames},
                    {"first_frame_ms", r.first_frame_ms},
                    {"settled_frame", r.settled_frame},
                    {"settled_at_ms", r.settled_at_ms},
                    {"parts", parts}}
        .dump();
}

std::string App::scenario_json() const { return scenario_to_json(*state_); }

bool App::load_scenario_json(std::string_view json_text, std::string* error) {
    const bool was_dark = state_->dark;
    if (!scenario_from_json(json_text, *state_, error)) return false;
    state_->scenario_changed = false;  // it came from the platform; nothing new to persist
    if (state_->dark != was_dark && ImGui::GetCurrentContext()) apply_theme(state_->dark, state_->content_scale);
    ready(*state_, Part::result, /*now=*/true);
    return true;
}

bool App::take_scenario_changed() {
    const bool c = state_->scenario_changed;
    state_->scenario_changed = false;
    return c;
}

std::string App::result_table(std::string_view format) {
    ready(*state_, Part::result, /*now=*/true);
    Result<std::string> t = io::format_table(state_->derived.view.rows, format);
    return t ? *t : t.error;
}

void App::take_dropped_text(std::string text) { ui::take_dropped_text(*state_, std::move(text)); }

void App::take_dropped_files(std::vector<std::pair<std::string, std::vector<unsigned char>>> files) {
    ui::take_dropped_files(*state_, std::move(files));
}

std::string App::kernels_json() {
    ready(*state_, Part::advisor, /*now=*/true);
    if (state_->binaries.empty()) return "null";
    const Result<io::KernelsAnswer>& k = state_->derived.advisor.kernels;
    return (k ? io::to_json(*k) : io::json{{"error", k.error}}).dump();
}

std::string App::ncu_json() {
    ready(*state_, Part::ncu, /*now=*/true);
    const NcuDerived& n = state_->derived.ncu;
    if (n.text.empty()) return "null";
    return (n.error.empty() ? io::to_json(n.answer) : io::json{{"error", n.error}}).dump();
}

std::string App::layout_json() const { return check_layout().dump(); }

void App::scroll_at(float x, float y, float dx, float dy) {
    if (!ImGui::GetCurrentContext()) return;
    const ImGuiContext& g = *GImGui;
    // The front-most window under the point (children come after their parents in g.Windows).
    ImGuiWindow* hit = nullptr;
    for (int i = g.Windows.Size - 1; i >= 0 && !hit; --i) {
        ImGuiWindow* w = g.Windows[i];
        if (w->WasActive && !w->Hidden && w->OuterRectClipped.Contains(ImVec2(x, y))) hit = w;
    }
    for (ImGuiWindow* w = hit; w; w = w->ParentWindow) {
        if (w->ScrollMax.y > 0 && dy != 0 && !(w->Flags & ImGuiWindowFlags_NoScrollWithMouse)) {
            ImGui::SetScrollY(w, std::clamp(w->Scroll.y - dy, 0.0f, w->ScrollMax.y));
            dy = 0;
        }
        if (w->ScrollMax.x > 0 && dx != 0) {
            ImGui::SetScrollX(w, std::clamp(w->Scroll.x - dx, 0.0f, w->ScrollMax.x));
            dx = 0;
        }
    }
}

void App::set_notice(std::string text) { state_->notice = std::move(text); }

void App::set_dark_theme(bool dark) {
    if (state_->dark != dark) state_->scenario_changed = true;
    state_->dark = dark;
    apply_theme(dark, state_->content_scale);
}

bool App::dark_theme() const { return state_->dark; }

void App::set_content_scale(float scale) {
    scale = std::clamp(scale, 0.5f, 4.0f);
    // Same scale: keep the atlas, so a platform that calls this every frame (or on every resize)
    // never needs to re-upload the font texture.
    if (state_->fonts_built && scale == state_->content_scale) return;
    state_->content_scale = scale;
    build_fonts(*state_);
    apply_theme(state_->dark, state_->content_scale);
}

float App::content_scale() const { return state_->content_scale; }

void App::set_font_ttf(const unsigned char* data, std::size_t size) {
    state_->font_ttf.assign(data, data + size);
    build_fonts(*state_);
}

AppState& App::state() { return *state_; }
const AppState& App::state() const { return *state_; }

}  // namespace occ::ui
