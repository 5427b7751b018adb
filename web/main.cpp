// main.cpp — the browser face: Emscripten's GLFW port + WebGL2 + the occ::ui App.
// Thin on purpose: it owns the main loop, keeps the canvas the size of the window at the screen's
// pixel density, and moves the scenario between the App and the URL hash / localStorage. The page
// logic it calls (occShell.*) lives in index.html; window.occ calls back into the exports below.
//
// [SECTION] JS hooks (index.html's occShell)
// [SECTION] Scenario <-> URL hash / localStorage
// [SECTION] Frame loop
// [SECTION] Exports for window.occ
// [SECTION] main
#include <GLFW/glfw3.h>
#include <emscripten/emscripten.h>
#include <emscripten/html5.h>

#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "occ/io/amd.hpp"
#include "occ/io/fields.hpp"
#include "occ/io/url.hpp"
#include "occ/ui/app.hpp"
#include "web.hpp"

namespace {

// [SECTION] JS hooks
// Strings from JS are malloc'ed there and freed here (take_js_string).
EM_JS(char*, js_location_hash, (), {
    var s = window.location.hash || "";
    var n = lengthBytesUTF8(s) + 1, p = _malloc(n);
    stringToUTF8(s, p, n);
    return p;
});
EM_JS(char*, js_stored_scenario, (), {
    var s = occShell.stored() || "";
    var n = lengthBytesUTF8(s) + 1, p = _malloc(n);
    stringToUTF8(s, p, n);
    return p;
});
EM_JS(void, js_persist, (const char* query, const char* scenario, int replace),
      { occShell.persist(UTF8ToString(query), UTF8ToString(scenario), replace != 0); });
EM_JS(void, js_notice, (const char* text), { occShell.noticeShown(UTF8ToString(text)); });
EM_JS(void, js_first_frame, (), { occShell.firstFrame(); });
// Sizes the canvas backing store and tells the GLFW port. Not glfwSetWindowSize: the port asks for
// fullscreen whenever the size equals the screen's (a maximised window at 1x), which fails.
EM_JS(void, js_size_canvas, (int w, int h), {
    var c = Module.canvas;
    if (c.width != w) c.width = w;
    if (c.height != h) c.height = h;
    if (GLFW.active) {
        GLFW.active.width = w;
        GLFW.active.height = h;
    }
});
EM_JS(void, js_fatal, (const char* text), { occShell.fatal(UTF8ToString(text)); });

// The UI font index.html fetched (0 bytes when there is none); copied once, then dropped in JS.
EM_JS(int, js_font_size, (), { return Module.occFont ? Module.occFont.length : 0; });
EM_JS(void, js_font_copy, (unsigned char* dst), {
    HEAPU8.set(Module.occFont, dst);
    Module.occFont = null;
});

std::string take_js_string(char* p) {
    std::string s = p ? p : "";
    std::free(p);
    return s;
}

struct Web {
    GLFWwindow* window = nullptr;
    std::unique_ptr<occ::ui::App> app;
    int width = 0, height = 0;  // canvas backing store, in device pixels
    double dpr = 0;
    occ::io::json defaults;  // a fresh App's scenario: the base the URL hash patches
    bool first_frame_done = false;
    bool dead = false;
    std::string clipboard;  // the last text pasted or copied (ImGui's clipboard)
    // Touch: index.html turns a tap into a press and a release here and a drag into scrolling (the
    // GLFW port reads no position from touches). While `touch` is set, the pointer is this one.
    bool touch = false, touch_down = false;
    ImVec2 touch_pos{-FLT_MAX, -FLT_MAX};
};
Web g;

void set_notice(const std::string& text) {
    g.app->set_notice(text);
    js_notice(text.c_str());
}

// [SECTION] Scenario <-> URL hash / localStorage
// The hash holds the scenario as a merge patch over the default scenario (so it stays short), but
// always with the essential inputs, so a link reads on its own: #gpu=H100-SXM5-80GB&threads=128&regs=64...
// ui.memory, a coalesce request whose fields depend on its pattern, travels whole when it differs
// from the default: a key-by-key patch over the default 2-D tile would mix two patterns' fields.
constexpr const char* kAlwaysInLink[] = {"gpu", "cc", "device", "threads", "block", "regs", "smem_static", "smem_dynamic"};

const occ::io::json* ui_memory(const occ::io::json& scenario) {
    const auto ui = scenario.find("ui");
    if (ui == scenario.end() || !ui->is_object()) return nullptr;
    const auto m = ui->find("memory");
    return m == ui->end() ? nullptr : &*m;
}

// What a link patches: the default scenario, or for an AMD GPU or target (occ/io/amd.hpp) the AMD
// request's defaults for it with the default "ui" (the NVIDIA-only fields are not an AMD request's).
occ::io::json link_base(const occ::io::json& s) {
    occ::io::json base = occ::io::target_defaults(s);
    if (base.is_null()) return g.defaults;
    if (g.defaults.contains("ui")) base["ui"] = g.defaults["ui"];
    return base;
}

std::string scenario_query(const std::string& scenario_text) {
    const auto scenario = occ::io::json::parse(std::string_view(scenario_text), nullptr, /*allow_exceptions=*/false);
    if (scenario.is_discarded() || !scenario.is_object()) return {};
    occ::io::json link = occ::io::json::object();
    for (const char* k : kAlwaysInLink)
        if (scenario.contains(k)) link[k] = scenario[k];
    const occ::io::json patch = occ::io::merge_patch_diff(link_base(scenario), scenario);
    for (auto it = patch.begin(); it != patch.end(); ++it)
        if (!link.contains(it.key())) link[it.key()] = *it;
    if (ui_memory(link) && ui_memory(scenario)) link["ui"]["memory"] = *ui_memory(scenario);
    return occ::io::encode_url_query(link);
}

// Loads a URL query (the hash) into the App; on failure leaves the App as it was.
bool load_query(const std::string& query, std::string* error) {
    auto decoded = occ::io::decode_url_query(query);
    if (!decoded) {
        *error = decoded.error;
        return false;
    }
    occ::io::json scenario = link_base(*decoded);
    scenario.merge_patch(*decoded);
    if (const occ::io::json* m = ui_memory(*decoded); m && m->is_object()) {
        occ::io::json whole = occ::io::json::object();
        whole.merge_patch(*m);  // drops nulls
        scenario["ui"]["memory"] = whole;
    }
    return g.app->load_scenario_json(scenario.dump(), error);
}

void persist(bool replace) {
    const std::string scenario = g.app->scenario_json();
    js_persist(scenario_query(scenario).c_str(), scenario.c_str(), replace ? 1 : 0);
}

// The link wins; if it cannot be read, say so and fall back to the last scenario, then the defaults.
void boot_scenario() {
    const std::string hash = take_js_string(js_location_hash());
    const std::string stored = take_js_string(js_stored_scenario());
    std::string link_error, ignored;
    if (hash.size() > 1 && load_query(hash, &link_error)) return;
    const bool restored = !stored.empty() && g.app->load_scenario_json(stored, &ignored);
    if (!link_error.empty())
        set_notice("This link's scenario could not be read (" + link_error + "). Showing " +
                   (restored ? "your last scenario" : "the default scenario") + " instead.");
}

// [SECTION] Frame loop
// The canvas's CSS size comes from the page (full window); its backing store follows it at the
// device pixel ratio, and ImGui works in device pixels with the App's content scale set to that
// ratio, so text is rasterised at the screen's density (crisp on HiDPI).
void sync_canvas() {
    double css_w = 0, css_h = 0;
    emscripten_get_element_css_size("#canvas", &css_w, &css_h);
    const double dpr = std::max(0.5, emscripten_get_device_pixel_ratio());
    const int w = std::max(1, static_cast<int>(std::lround(css_w * dpr)));
    const int h = std::max(1, static_cast<int>(std::lround(css_h * dpr)));
    if (w != g.width || h != g.height) {
        js_size_canvas(w, h);
        g.width = w;
        g.height = h;
    }
    if (dpr != g.dpr) {  // first frame, browser zoom, or a move to another screen
        g.dpr = dpr;
        g.app->set_content_scale(static_cast<float>(dpr));
        if (g.first_frame_done) {  // the renderer holds the old atlas: upload the new one
            ImGui_ImplOpenGL3_DestroyFontsTexture();
            ImGui_ImplOpenGL3_CreateFontsTexture();
        }
    }
}

void die(const std::string& why) {
    g.dead = true;
    emscripten_cancel_main_loop();
    js_fatal(why.c_str());
}

void draw_frame() {
    sync_canvas();
    glfwPollEvents();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    if (g.touch) {
        ImGui::GetIO().MousePos = g.touch_pos;
        ImGui::GetIO().MouseDown[0] = g.touch_down;
    }
    ImGui::NewFrame();
    g.app->frame();
    ImGui::Render();
    glViewport(0, 0, g.width, g.height);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    if (g.app->take_scenario_changed()) persist(/*replace=*/false);
    if (!g.first_frame_done) {
        g.first_frame_done = true;
        js_first_frame();
    }
}

// Every exception ends the page with its message (occShell.fatal).
void frame() {
    if (g.dead) return;
    std::string what;
    if (occ::io::catching(&what, /*all=*/true, [] { draw_frame(); }) != occ::io::Caught::nothing) die(what);
}

}  // namespace

// [SECTION] Exports for window.occ (names listed in web/CMakeLists.txt)
extern "C" {

// The current scenario as JSON text ("null" before the App exists, e.g. without WebGL2).
EMSCRIPTEN_KEEPALIVE const char* occ_web_state() { return occ::web::to_js(g.app ? g.app->scenario_json() : std::string("null")); }

// The current scenario as the URL query the hash holds.
EMSCRIPTEN_KEEPALIVE const char* occ_web_state_query() {
    if (!g.app) return occ::web::to_js("");
    return occ::web::to_js(scenario_query(g.app->scenario_json()));
}

// Back/forward and edited hashes: 1 when loaded; 0 shows a notice and keeps the current scenario.
EMSCRIPTEN_KEEPALIVE int occ_web_load_query(const char* query) {
    if (!g.app) return 0;
    std::string error;
    if (load_query(query ? query : "", &error)) return 1;
    set_notice("This link's scenario could not be read (" + error + "). Kept the current scenario.");
    return 0;
}

// Loads a scenario given as JSON text; returns "" or the error message.
EMSCRIPTEN_KEEPALIVE const char* occ_web_load_json(const char* json_text) {
    if (!g.app) return occ::web::to_js("the app is not running");
    std::string error;
    if (g.app->load_scenario_json(json_text ? json_text : "", &error)) {
        persist(/*replace=*/false);
        return occ::web::to_js("");
    }
    return occ::web::to_js(error.empty() ? std::string("not a valid scenario") : error);
}

EMSCRIPTEN_KEEPALIVE void occ_web_set_notice(const char* text) {
    if (g.app) set_notice(text ? text : "");
}

// The current result table as "markdown" or "csv": the app's rows (occ::io::occupancy_table).
EMSCRIPTEN_KEEPALIVE const char* occ_web_export(const char* format) {
    if (!g.app) return occ::web::to_js("the app is not running");
    return occ::web::to_js(g.app->result_table(format ? format : ""));
}

// occ.ncu(text): the "ncu" request kind with {"text": ...}, the JSON `occ ncu --batch` prints.
EMSCRIPTEN_KEEPALIVE const char* occ_web_ncu(const char* text) {
    return occ::web::to_js(occ::io::handle("ncu", occ::io::json{{"text", text ? text : ""}}).dump());
}

// occ.layout(): the layout self-check of the frame just drawn (occ::ui::App::layout_json); rects in
// canvas pixels (CSS pixels x devicePixelRatio).
EMSCRIPTEN_KEEPALIVE const char* occ_web_layout() {
    return occ::web::to_js(g.app && g.first_frame_done ? g.app->layout_json() : std::string(R"({"clipped":[],"overlaps":[]})"));
}

// What the menu bar's "recomputed in" figure is made of (occ::ui::App::recompute_json), for
// tests/web/measure.mjs: Module.UTF8ToString(Module._occ_web_recompute()).
EMSCRIPTEN_KEEPALIVE const char* occ_web_recompute() { return occ::web::to_js(g.app ? g.app->recompute_json() : std::string("null")); }

// The report pasted into the app, as the app shows it ("null" when none).
EMSCRIPTEN_KEEPALIVE const char* occ_web_app_ncu() { return occ::web::to_js(g.app ? g.app->ncu_json() : std::string("null")); }

// The page's paste event (the browser gives ImGui no clipboard): with a text box active, the text
// becomes the clipboard ImGui's Ctrl+V reads on the next frame; elsewhere it is a dropped report or
// compiler log. Returns 1 when the text box takes it.
EMSCRIPTEN_KEEPALIVE int occ_web_paste(const char* text) {
    if (!g.app) return 0;
    g.clipboard = text ? text : "";
    if (ImGui::GetIO().WantTextInput) return 1;
    g.app->take_dropped_text(g.clipboard);
    return 0;
}

// A tap at (x, y) in canvas pixels: a frame with the pointer pressed there and one with it
// released, drawn now, so the page learns in the same touch event whether a text box took the tap
// (1: index.html then focuses its hidden text field, which opens the on-screen keyboard).
EMSCRIPTEN_KEEPALIVE int occ_web_tap(float x, float y) {
    if (!g.app || !g.first_frame_done) return 0;
    g.touch = true;
    g.touch_pos = ImVec2(x, y);
    g.touch_down = true;
    frame();
    g.touch_down = false;
    frame();
    g.touch_pos = ImVec2(-FLT_MAX, -FLT_MAX);  // no hover (and no tooltip) after the finger lifts
    return ImGui::GetIO().WantTextInput ? 1 : 0;
}

// A finger dragged by (dx, dy) canvas pixels over (x, y): scrolls the panel under it.
EMSCRIPTEN_KEEPALIVE void occ_web_touch_scroll(float x, float y, float dx, float dy) {
    if (!g.app) return;
    g.touch = true;
    g.app->scroll_at(x, y, dx, dy);
}

// A wheel event from index.html, in notches with the browser's sign (positive = down / right). The
// GLFW port of Emscripten 3.1.6 hands ImGui the raw deltaY in pixels with that sign, which ImGui
// reads as notches up (library_glfw.js, onMouseWheel): one tick ran 100 notches the wrong way.
EMSCRIPTEN_KEEPALIVE void occ_web_wheel(float dx, float dy) {
    if (!g.app) return;
    g.touch = false;
    ImGuiIO& io = ImGui::GetIO();
    io.MouseWheel -= dy;
    io.MouseWheelH -= dx;
}

// Text typed on the on-screen keyboard (index.html's hidden text field) for the active text box.
EMSCRIPTEN_KEEPALIVE void occ_web_type(const char* text) {
    if (g.app && text) ImGui::GetIO().AddInputCharactersUTF8(text);
}

// Files dropped on the page (index.html reads them, unzipping a .zip, and stages each with
// occ_web_stage_file): binaries for their kernels, or a report or compiler log (the App tells which).
EMSCRIPTEN_KEEPALIVE void occ_web_drop_files() {
    std::vector<occ::io::NamedBytes> files = occ::web::take_staged_files();
    if (g.app) g.app->take_dropped_files(std::move(files));
}

// The dropped binaries' kernels as `occ kernels --json` prints them ("null" when none).
EMSCRIPTEN_KEEPALIVE const char* occ_web_app_kernels() { return occ::web::to_js(g.app ? g.app->kernels_json() : std::string("null")); }

}  // extern "C"

// [SECTION] main
namespace {

// 0 when the App runs; 1 when the page cannot start (the page has been told why).
int start() {
    if (!glfwInit()) {
        js_fatal("Could not start the window system (GLFW).");
        return 1;
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    g.window = glfwCreateWindow(1280, 800, "occ", nullptr, nullptr);
    if (!g.window) {
        js_fatal("This page needs WebGL2, and the browser could not create a WebGL2 context.");
        return 1;
    }
    glfwMakeContextCurrent(g.window);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();  // before the App: it sets keyboard navigation and no imgui.ini
    g.app = std::make_unique<occ::ui::App>();
    if (const int n = js_font_size(); n > 0) {
        std::vector<unsigned char> font(static_cast<std::size_t>(n));
        js_font_copy(font.data());
        g.app->set_font_ttf(font.data(), font.size());
    }
    ImGui_ImplGlfw_InitForOpenGL(g.window, true);
    ImGui_ImplOpenGL3_Init("#version 300 es");
    // Emscripten's GLFW has no clipboard: ImGui's copy and paste go through g.clipboard, which the
    // page's paste event fills (occ_web_paste).
    ImGui::GetIO().GetClipboardTextFn = [](void*) { return g.clipboard.c_str(); };
    ImGui::GetIO().SetClipboardTextFn = [](void*, const char* text) { g.clipboard = text ? text : ""; };

    // As a string_view, as every parse in the page: one instantiation of nlohmann's parser (6.6 KB of code each).
    const std::string defaults = g.app->scenario_json();
    g.defaults = occ::io::json::parse(std::string_view(defaults), nullptr, /*allow_exceptions=*/false);
    if (!g.defaults.is_object()) g.defaults = occ::io::json::object();
    boot_scenario();
    g.app->take_scenario_changed();
    persist(/*replace=*/true);
    return 0;
}

}  // namespace

int main() {
    int rc = 1;
    std::string what;
    if (occ::io::catching(&what, /*all=*/true, [&] { rc = start(); }) != occ::io::Caught::nothing) {
        js_fatal(("Start-up failed: " + what).c_str());
        return 1;
    }
    if (rc != 0) return rc;
    emscripten_set_main_loop(frame, 0, true);
    return 0;
}
