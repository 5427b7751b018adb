// test_layout.cpp — the layout self-check (occ::ui::check_layout, which window.occ.layout() returns
// on the page): it finds a cut value and two texts drawn over each other, and the app shows whole
// texts, none over another, on every tab at the window sizes the page's e2e test opens.
#include <doctest/doctest.h>

#include <cfloat>
#include <cstdio>
#include <string>
#include <vector>

#include "headless.hpp"
#include "occ/io/api.hpp"

// [SECTION] Layout self-check (occ::ui::check_layout, window.occ.layout() on the page)
namespace {

// The window sizes the page's e2e test opens (CSS pixels and device pixel ratio); the desktop app
// draws in device pixels at content scale = ratio, as the page does.
struct Screen {
    int w, h;
    float dpr;
};
constexpr Screen kScreens[] = {{1280, 720, 1}, {1366, 768, 1}, {1440, 900, 1}, {1920, 1080, 1}, {2560, 1440, 1},
                               {1280, 720, 2}, {1366, 768, 2}, {1440, 900, 2}, {1920, 1080, 2}, {2560, 1440, 2},
                               {768, 1024, 3}, {390, 844, 3},  {360, 640, 1},  {3840, 2160, 1}};

std::vector<unsigned char> ui_font() {
    std::vector<unsigned char> data;
    if (std::FILE* f = std::fopen("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "rb")) {
        unsigned char buf[65536];
        for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) data.insert(data.end(), buf, buf + n);
        std::fclose(f);
    }
    return data;
}

// Draws `frames` frames of the app at a screen size and returns the check of the last one.
occ::io::json layout_at(occ::ui::App& app, const Screen& sc, int frames = 4) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(sc.w * sc.dpr, sc.h * sc.dpr);
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    if (app.content_scale() != sc.dpr) {
        app.set_content_scale(sc.dpr);
        Headless::upload_fonts();
    }
    for (int i = 0; i < frames; ++i) run_frame(app);
    return occ::io::json::parse(app.layout_json());
}

}  // namespace

TEST_CASE("layout check: finds a value cut by its field and two texts drawn over each other") {
    Headless h;
    occ::ui::App app;
    Headless::upload_fonts();
    for (int i = 0; i < 2; ++i) {
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(ImVec2(600, 300));
        ImGui::Begin("probe");
        int v = 123456789;
        ImGui::SetNextItemWidth(30);
        ImGui::InputInt("##narrow", &v, 0, 0);
        ImGui::TextUnformatted("first text");
        ImGui::SetCursorPos(ImVec2(ImGui::GetCursorPosX() + 20, ImGui::GetCursorPosY() - ImGui::GetTextLineHeightWithSpacing() + 3));
        ImGui::TextUnformatted("second text");
        ImGui::TextUnformatted("alone");
        ImGui::End();
        ImGui::Render();
    }
    const auto r = occ::io::json::parse(app.layout_json());
    REQUIRE(r["clipped"].size() == 1);
    CHECK(r["clipped"][0]["id"] == "probe");
    CHECK(r["clipped"][0]["text"].get<std::string>().rfind("12", 0) == 0);   // the digits that show
    REQUIRE(r["overlaps"].size() == 1);
    CHECK(r["overlaps"][0]["a"]["text"] == "first text");
    CHECK(r["overlaps"][0]["b"]["text"] == "second text");
}

TEST_CASE("layout check: every tab at every screen size shows whole texts, none over another") {
    Headless h;
    occ::ui::App app;
    const std::vector<unsigned char> font = ui_font();
    if (!font.empty()) app.set_font_ttf(font.data(), font.size());
    Headless::upload_fonts();
    const occ::ui::Tab tabs[] = {occ::ui::Tab::occupancy, occ::ui::Tab::memory, occ::ui::Tab::advisor, occ::ui::Tab::roofline};
    for (const Screen& sc : kScreens)
        for (const occ::ui::Tab t : tabs) {
            app.state().tab = t;
            const occ::io::json r = layout_at(app, sc);
            CAPTURE(sc.w);
            CAPTURE(sc.h);
            CAPTURE(sc.dpr);
            CAPTURE(static_cast<int>(t));
            CHECK_MESSAGE(r["clipped"].empty(), r["clipped"].dump());
            CHECK_MESSAGE(r["overlaps"].empty(), r["overlaps"].dump());
        }
}
