// headless.hpp — what the headless UI tests share: an ImGui context with no window, and frames
// drawn with every view (like imgui's example_null).
#pragma once
#include <doctest/doctest.h>

#include <cstdint>

#include "app_state.hpp"
#include "imgui.h"
#include "occ/ui/app.hpp"
#include "views.hpp"

namespace {

// One ImGui context per test, sized like a laptop window.
struct Headless {
    Headless() {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = ImVec2(1600, 1000);
        io.DeltaTime = 1.0f / 60.0f;
    }
    ~Headless() { ImGui::DestroyContext(); }
    // What a renderer backend would do once: fetch the atlas pixels (and hand back a texture id).
    static void upload_fonts() {
        unsigned char* px = nullptr;
        int w = 0, h = 0;
        ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&px, &w, &h);
        REQUIRE(px != nullptr);
        REQUIRE(w > 0);
        ImGui::GetIO().Fonts->SetTexID(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(1)));
    }
};

inline void run_frame(occ::ui::App& app) {
    ImGui::NewFrame();
    app.frame();
    ImGui::Render();
}

// Draws every view in its own window too, so the Memory, Advisor and Roofline views and the
// occupancy views are all exercised in one frame whatever tab is selected.
inline void run_frame_all_views(occ::ui::App& app) {
    ImGui::NewFrame();
    app.frame();
    occ::ui::AppState& s = app.state();
    occ::ui::refresh(s);  // every part, whichever tab the app shows
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(1600, 1000));
    ImGui::Begin("all views");
    occ::ui::draw_device_picker(s);
    occ::ui::draw_inputs(s);
    occ::ui::draw_result(s);
    occ::ui::draw_sm(s);
    occ::ui::draw_plots(s);
    occ::ui::draw_heatmap(s);
    occ::ui::draw_hints(s);
    occ::ui::draw_memory(s);
    occ::ui::draw_advisor(s);
    occ::ui::draw_roofline(s);
    ImGui::End();
    ImGui::Render();
    occ::ui::refresh(s);
}

}  // namespace
