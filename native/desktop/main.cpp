// occ-gui — the desktop window: GLFW + OpenGL 3 around occ::ui::App. This file owns the loop and
// the platform chores (settings file, HiDPI, screenshots); everything drawn comes from lib/ui.
//
//   occ-gui [--scenario JSON|FILE] [--size WxH]
//   occ-gui --screenshot FILE.png [--frames N] [--scenario JSON|FILE] [--size WxH] [--light]
//   --drop FILE (repeatable) opens with FILE dropped on the window, as a drag and drop does.
#include <GLFW/glfw3.h>  // includes the system GL header (glReadPixels etc. are GL 1.x, exported by libGL)

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "occ/ui/app.hpp"
#include "png.hpp"
#include "settings.hpp"

namespace {

struct Args {
    std::string screenshot;
    int frames = 0;  // 0: until closed (screenshots default to 3)
    std::string scenario;
    int width = 0, height = 0;
    bool light = false;
    std::vector<const char*> drop;  // files dropped on the window at start
};

void usage(std::FILE* to) {
    std::fputs(
        "usage: occ-gui [--scenario JSON|FILE] [--size WxH]\n"
        "       occ-gui --screenshot FILE.png [--frames N] [--scenario JSON|FILE] [--size WxH] [--light]\n"
        "--frames N without --screenshot closes the window after N frames (for tests).\n"
        "--drop FILE (repeatable) starts with FILE dropped on the window (a binary, report or log).\n"
        "The last scenario and the window geometry are kept in $XDG_CONFIG_HOME/occ/settings.json\n"
        "(~/.config/occ/settings.json); --screenshot neither reads nor writes them.\n",
        to);
}

// Returns 0 to continue, or an exit status.
int parse_args(int argc, char** argv, Args& a) {
    for (int i = 1; i < argc; ++i) {
        const std::string k = argv[i];
        const bool takes_value = k == "--screenshot" || k == "--scenario" || k == "--frames" || k == "--size" || k == "--drop";
        const char* v = takes_value && i + 1 < argc ? argv[++i] : "";  // "" when missing
        if (k == "-h" || k == "--help") {
            usage(stdout);
            return -1;
        } else if (k == "--screenshot" || k == "--scenario") {
            if (!*v) return 2;
            (k == "--screenshot" ? a.screenshot : a.scenario) = v;
        } else if (k == "--frames") {
            if ((a.frames = std::atoi(v)) < 1 || a.frames > 100000) return 2;
        } else if (k == "--size") {
            if (std::sscanf(v, "%dx%d", &a.width, &a.height) != 2 || a.width < 320 || a.height < 240) return 2;
        } else if (k == "--drop") {
            if (!*v) return 2;
            a.drop.push_back(v);
        } else if (k == "--light") {
            a.light = true;
        } else {
            return 2;
        }
    }
    return 0;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {};
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// A TrueType font reads better than ImGui's pixel font at any scale; use DejaVu Sans when the
// system has it ($OCC_GUI_FONT overrides).
std::string find_font() {
    const char* env = std::getenv("OCC_GUI_FONT");
    for (const char* p : {env, "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"}) {
        if (!p) continue;
        std::string data = read_file(p);
        if (!data.empty()) return data;
    }
    return {};
}

void glfw_error(int code, const char* text) { std::fprintf(stderr, "occ-gui: GLFW error %d: %s\n", code, text); }

occ::ui::App* g_app = nullptr;

// Files dropped on the window: a report or compiler output, or binaries (the app tells which). A
// dropped folder is a Triton cache (~/.triton/cache or one <hash> folder): its files and those of
// its subfolders, in name order, named by their path so each <name>.json meets its <name>.cubin.
constexpr std::uintmax_t kMaxDropBytes = 256u << 20;  // all files together, as the page allows
constexpr std::size_t kMaxDropFiles = 20000;

void add_dropped(const std::filesystem::path& p, int depth, std::vector<std::pair<std::string, std::vector<unsigned char>>>& out,
                 std::uintmax_t& total, std::string& error) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
        if (depth > 1) return;
        std::vector<std::filesystem::path> entries;
        for (std::filesystem::directory_iterator it(p, ec), end; !ec && it != end && entries.size() < kMaxDropFiles; it.increment(ec))
            entries.push_back(it->path());
        std::sort(entries.begin(), entries.end());
        for (const auto& e : entries) add_dropped(e, depth + 1, out, total, error);
        return;
    }
    if (!error.empty() || out.size() >= kMaxDropFiles) return;
    const std::uintmax_t size = std::filesystem::file_size(p, ec);
    if (ec || (total += size) > kMaxDropBytes) {
        error = ec ? "Could not read the dropped file " + p.string() + "."
                   : "The dropped files hold more than 256 MiB: give the largest to the CLI (occ kernels).";
        return;
    }
    const std::string bytes = read_file(p.string());
    out.emplace_back(p.string(), std::vector<unsigned char>(bytes.begin(), bytes.end()));
}

void on_drop(GLFWwindow*, int count, const char** paths) {
    if (!g_app) return;
    std::vector<std::pair<std::string, std::vector<unsigned char>>> files;
    std::uintmax_t total = 0;
    std::string error;
    for (int i = 0; i < count; ++i) add_dropped(paths[i], 0, files, total, error);
    if (!error.empty()) g_app->set_notice(error);
    else if (files.empty()) g_app->set_notice(std::string("Could not read the dropped file ") + (count ? paths[0] : "") + ".");
    else g_app->take_dropped_files(std::move(files));
}

void on_content_scale(GLFWwindow*, float xs, float ys) {
    if (!g_app) return;
    g_app->set_content_scale(std::max(xs, ys));
    // The atlas was rebuilt: upload it again.
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
}

bool save_screenshot(const std::string& path, int w, int h) {
    std::vector<std::uint8_t> px(static_cast<std::size_t>(w) * h * 3);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE, px.data());
    // GL's rows start at the bottom; PNG's at the top.
    std::vector<std::uint8_t> flipped(px.size());
    const std::size_t row = static_cast<std::size_t>(w) * 3;
    for (int y = 0; y < h; ++y) std::memcpy(&flipped[y * row], &px[(h - 1 - y) * row], row);
    return occ::desktop::write_png(path, w, h, flipped);
}

}  // namespace

int main(int argc, char** argv) {
    Args args;
    if (const int rc = parse_args(argc, argv, args)) {
        if (rc == 2) usage(stderr);
        return rc < 0 ? 0 : rc;
    }
    const bool shot = !args.screenshot.empty();
    if (shot && args.frames == 0) args.frames = 3;

    // Settings: the interactive app restores them; a screenshot is reproducible without them.
    const auto settings_file = occ::desktop::settings_path();
    occ::desktop::Settings settings;
    if (!shot) {
        std::string warning;
        settings = occ::desktop::load_settings(settings_file, &warning);
        if (!warning.empty()) std::fprintf(stderr, "occ-gui: %s\n", warning.c_str());
    }
    if (args.width > 0) {
        settings.width = args.width;
        settings.height = args.height;
    } else if (shot) {
        settings.width = 1600;
        settings.height = 1000;
    }

    glfwSetErrorCallback(glfw_error);
    if (!glfwInit()) {
        std::fprintf(stderr, "occ-gui: cannot initialise GLFW (no display? try xvfb-run)\n");
        return 1;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    // Scale only the default size to the monitor: a saved or requested size is already what the
    // user had, and scaling it again would grow the window on every run on a HiDPI screen.
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, shot || settings.size_saved || args.width > 0 ? GLFW_FALSE : GLFW_TRUE);
    GLFWwindow* window = glfwCreateWindow(settings.width, settings.height, "occ — CUDA occupancy calculator", nullptr, nullptr);
    if (!window) {
        std::fprintf(stderr, "occ-gui: cannot create an OpenGL 3.3 window\n");
        glfwTerminate();
        return 1;
    }
    if (!shot && settings.x >= 0 && settings.y >= 0) glfwSetWindowPos(window, settings.x, settings.y);
    glfwMakeContextCurrent(window);
    glfwSwapInterval(shot ? 0 : 1);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    int exit_code = 0;
    {
        occ::ui::App app;
        g_app = &app;
        const std::string font = find_font();
        if (!font.empty()) app.set_font_ttf(reinterpret_cast<const unsigned char*>(font.data()), font.size());
        float xs = 1, ys = 1;
        glfwGetWindowContentScale(window, &xs, &ys);
        app.set_content_scale(std::max(xs, ys));
        if (args.light) app.set_dark_theme(false);

        std::string scenario = args.scenario;
        if (!scenario.empty() && scenario.find('{') == std::string::npos) scenario = read_file(args.scenario);
        if (scenario.empty() && !args.scenario.empty()) {
            std::fprintf(stderr, "occ-gui: cannot read scenario %s\n", args.scenario.c_str());
            if (shot) return 2;
        }
        if (scenario.empty()) scenario = settings.scenario;
        if (!scenario.empty()) {
            std::string err;
            if (!app.load_scenario_json(scenario, &err)) {
                std::fprintf(stderr, "occ-gui: scenario ignored: %s\n", err.c_str());
                app.set_notice("The saved scenario could not be loaded (" + err + "); showing defaults.");
                if (shot && !args.scenario.empty()) exit_code = 2;
            }
        }

        ImGui_ImplGlfw_InitForOpenGL(window, true);
        ImGui_ImplOpenGL3_Init("#version 330 core");
        glfwSetWindowContentScaleCallback(window, on_content_scale);
        glfwSetDropCallback(window, on_drop);
        if (!args.drop.empty()) on_drop(window, static_cast<int>(args.drop.size()), args.drop.data());

        int frames = 0;
        bool dirty = false;
        auto last_save = std::chrono::steady_clock::now();
        auto save = [&] {
            glfwGetWindowPos(window, &settings.x, &settings.y);
            glfwGetWindowSize(window, &settings.width, &settings.height);
            settings.scenario = app.scenario_json();
            std::string err;
            if (!occ::desktop::save_settings(settings_file, settings, &err)) std::fprintf(stderr, "occ-gui: %s\n", err.c_str());
            dirty = false;
            last_save = std::chrono::steady_clock::now();
        };
        while (!glfwWindowShouldClose(window)) {
            // Sleep until an event arrives (or briefly, so tooltips and blinking cursors update):
            // an idle calculator should not spin a core.
            if (shot || args.frames > 0) glfwPollEvents();
            else glfwWaitEventsTimeout(0.25);
            ImGui_ImplOpenGL3_NewFrame();
            ImGui_ImplGlfw_NewFrame();
            // A screenshot shows the app at rest: wherever the X server left the pointer, no hover.
            if (shot) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
            ImGui::NewFrame();
            // Ctrl+V (Cmd+V) with no text box active: the clipboard is a report or compiler log, taken
            // as a dropped file is (the Advisor tab opens its import).
            const ImGuiIO& io = ImGui::GetIO();
            if (!io.WantTextInput && (io.KeyCtrl || io.KeySuper) && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_V), false)) {
                const char* clip = glfwGetClipboardString(window);
                if (clip && *clip) app.take_dropped_text(clip);
            }
            app.frame();
            ImGui::Render();
            int w = 0, h = 0;
            glfwGetFramebufferSize(window, &w, &h);
            glViewport(0, 0, w, h);
            const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
            glClearColor(bg.x, bg.y, bg.z, 1);
            glClear(GL_COLOR_BUFFER_BIT);
            ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
            ++frames;
            if (shot && frames >= args.frames) {
                if (!save_screenshot(args.screenshot, w, h)) {
                    std::fprintf(stderr, "occ-gui: cannot write %s\n", args.screenshot.c_str());
                    exit_code = 1;
                } else {
                    std::printf("occ-gui: wrote %s (%dx%d, %d frames)\n", args.screenshot.c_str(), w, h, frames);
                }
                break;
            }
            glfwSwapBuffers(window);
            if (args.frames > 0 && frames >= args.frames) glfwSetWindowShouldClose(window, GLFW_TRUE);
            if (!shot) {
                dirty |= app.take_scenario_changed();
                // Persist at most once a second while the user drags a value.
                if (dirty && std::chrono::steady_clock::now() - last_save > std::chrono::seconds(1)) save();
            }
        }
        if (!shot) save();
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        g_app = nullptr;
    }
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return exit_code;
}
