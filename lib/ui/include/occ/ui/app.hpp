// occ/ui/app.hpp — the one entry point the platform mains (native/desktop, web) call each frame.
// No GLFW, GL or Emscripten headers here or anywhere in lib/ui.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace occ::ui {

struct AppState;  // every input and view flag; defined in lib/ui/src/app_state.hpp

class App {
public:
    // Create the ImGui context first: the constructor sets the keyboard-navigation flag, turns off
    // imgui.ini and builds the font atlas.
    App();
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    // Draws every view. Call between ImGui::NewFrame() and ImGui::Render().
    void frame();

    // The whole scenario (inputs + which views are open + theme) as JSON text: what the URL hash,
    // localStorage and the desktop settings file store.
    std::string scenario_json() const;
    // Loads a scenario. On failure returns false, fills `error`, and leaves the state unchanged.
    bool load_scenario_json(std::string_view json_text, std::string* error);
    // True once after the user changed the scenario (the platform layer then persists it).
    bool take_scenario_changed();

    // The Occupancy tab's result table (occ::io::occupancy_table, the rows the CLI prints) as
    // "markdown" or "csv"; an unknown format gives a one-line explanation instead.
    std::string result_table(std::string_view format);

    // Text dropped on the window or pasted outside a text box: an Nsight Compute report when it reads
    // as one, else compiler output (ptxas -v); the Advisor tab opens with it.
    void take_dropped_text(std::string text);
    // Files dropped on the window, as {name, bytes}: cubins, fatbins, objects, libraries,
    // executables and Triton's .cubin + .json are read for their kernels (the Advisor tab lists them
    // with "Use"); a text file (a report or compiler output) goes to take_dropped_text.
    void take_dropped_files(std::vector<std::pair<std::string, std::vector<unsigned char>>> files);
    // The dropped binaries' answer as `occ kernels --json` prints it for the scenario's device and
    // launch ("null" when none were dropped).
    std::string kernels_json();
    // The pasted report's answer as `occ ncu --json` prints it ("null" when none is pasted).
    std::string ncu_json();

    // The layout self-check of the frame just drawn, as JSON text: every text cut by its box
    // ("clipped": [{"id", "text", "rect"}]) and every pair of texts drawn over each other
    // ("overlaps": [{"a", "b"}]); rects are [x, y, w, h] in ImGui's pixels. A label ImGui shortened
    // with an ellipsis (a tab or table header too narrow for it) is a cut text whose "label" is the
    // whole label; "texts" lists every text drawn ({"id", "text", "rect"}). Call after ImGui::Render().
    std::string layout_json() const;

    // What the menu bar's "recomputed in" figure is made of, as JSON text: {"ms": the figure, "waiting":
    // a part shown waits for the next frame, "frames": frames drawn, "first_frame_ms": the figure the
    // first frame showed, "settled_frame": the frame since which nothing waits (0: a part waits now),
    // "settled_at_ms": the steady clock at its end (in the page: ms since navigation start),
    // "parts": [{"part", "ms", "runs", "state": "computed" | "kept" | "waiting" | "not shown"}]}.
    std::string recompute_json() const;

    // Touch scrolling: moves the content of the panel under (x, y) (or of the first one around it
    // that scrolls) by (dx, dy) pixels, as a finger dragging it would. Call between frames.
    void scroll_at(float x, float y, float dx, float dy);

    // A notice shown at the top of the window until dismissed (e.g. "the link was malformed").
    void set_notice(std::string text);

    void set_dark_theme(bool dark);
    bool dark_theme() const;
    // Content scale for HiDPI (1.0, 1.5, 2.0 ...). Rebuilds fonts/sizes; call before a frame.
    // The font atlas is rebuilt at once: if the renderer already uploaded the font texture, upload it
    // again (ImGui_ImplOpenGL3_DestroyFontsTexture() + ImGui_ImplOpenGL3_CreateFontsTexture()).
    void set_content_scale(float scale);
    float content_scale() const;
    // Optional TrueType UI font (copied). Without one the app uses ImGui's built-in font. Rebuilds
    // the font atlas like set_content_scale.
    void set_font_ttf(const unsigned char* data, std::size_t size);

    AppState& state();
    const AppState& state() const;

private:
    std::unique_ptr<AppState> state_;
};

}  // namespace occ::ui
