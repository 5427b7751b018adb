// test_recompute.cpp — the refresh step computes each part of what the app shows only when a view on
// screen needs it and its inputs changed (lib/ui/src/state.cpp): the first frame has the result, the
// panels whose first run waits fill in over the next frames, with the same numbers occ::core gives;
// parts whose inputs did not change are kept (counted by runs, not timed); other tabs' numbers wait
// for their tab; the menu bar's figure is the sum of what was computed for the inputs shown.
#include <doctest/doctest.h>

#include <algorithm>
#include <cfloat>
#include <cstring>
#include <string>
#include <vector>

#include "headless.hpp"
#include "imgui_internal.h"
#include "occ/io/api.hpp"

namespace {

using occ::ui::Part;

int runs(const occ::ui::AppState& s, Part p) { return s.derived.recompute[p].runs; }
bool current(const occ::ui::AppState& s, Part p) { return s.derived.recompute[p].generation == s.input_generation; }

// The runs of every part, to compare before and after a change.
std::vector<int> all_runs(const occ::ui::AppState& s) {
    std::vector<int> v;
    for (int p = 0; p < occ::ui::kPartCount; ++p) v.push_back(runs(s, static_cast<Part>(p)));
    return v;
}

// The heatmap's occupancy cells as occ::occupancy_grid gives them, computed here on their own.
std::vector<float> expected_heatmap(const occ::ui::AppState& s) {
    std::vector<std::uint8_t> grid(occ::kGridSize);
    occ::occupancy_grid(s.req.device.arch, s.req.kernel, s.req.launch, grid);
    const int warp = s.req.device.arch.warp_size, cols = occ::kGridThreads / warp;
    std::vector<float> out;
    for (int c = 0; c < cols; ++c)
        for (int r = 0; r < occ::kGridRegs; ++r)
            out.push_back(static_cast<float>(100.0 * grid[static_cast<std::size_t>(((c + 1) * warp - 1) * occ::kGridRegs + r)] * (c + 1) /
                                             s.req.device.arch.max_warps_per_sm()));
    return out;
}

// One frame, and every text it drew (read back from the draw lists, as the layout check does).
std::string frame_text(occ::ui::App& app) {
    run_frame(app);
    std::string text;
    for (const std::string& t : occ::ui::drawn_texts()) text += t + "\n";
    return text;
}

}  // namespace

TEST_CASE("recompute: the first frame has the result; the heatmap follows and equals occupancy_grid's values") {
    Headless h;
    occ::ui::App app;
    Headless::upload_fonts();
    occ::ui::AppState& s = app.state();
    s.derived.recompute.budget_ms = 0;  // one part a frame: the slowest a machine could be
    s.req.kernel.regs_per_thread = 40;
    s.req.launch.smem_dynamic = 20000;
    occ::ui::mark_changed(s);
    const std::string shown = frame_text(app);
    // The panels still waiting say so (and show no numbers).
    CHECK(shown.find("Computing the hints...") != std::string::npos);
    CHECK(shown.find("Computing the graphs...") != std::string::npos);
    CHECK(shown.find("Computing the heatmap...") != std::string::npos);
    CHECK(shown.find("Block size x registers") == std::string::npos);
    CHECK(current(s, Part::result));
    CHECK(s.derived.result.blocks_per_sm == occ::compute_occupancy(s.req.device, s.req.kernel, s.req.launch).blocks_per_sm);
    CHECK(!s.derived.view.rows.empty());
    CHECK(runs(s, Part::heatmap) == 0);
    CHECK(s.derived.recompute.waiting);
    // The menu bar's figure is what was computed for these inputs: the result alone so far.
    CHECK(occ::ui::recompute_ms(s) == doctest::Approx(s.derived.recompute[Part::result].ms));
    const auto first = occ::io::json::parse(app.recompute_json());
    for (const auto& part : first["parts"]) {
        CAPTURE(part.dump());
        const std::string name = part["part"];
        if (name == "result") CHECK(part["state"] == "computed");
        else if (name == "block-size graph" || name == "register graph" || name == "shared-memory graph" || name == "heatmap" ||
                 name == "hints")
            CHECK(part["state"] == "waiting");
        else CHECK(part["state"] == "not shown");
    }
    CHECK(first["frames"] == 1);
    CHECK(first["settled_frame"] == 0);
    CHECK(first["first_frame_ms"].get<double>() == doctest::Approx(s.derived.recompute[Part::result].ms));

    int frames = 1;
    while (s.derived.recompute.waiting && frames < 20) {
        run_frame(app);
        ++frames;
    }
    CHECK(!s.derived.recompute.waiting);
    CHECK(frames >= 5);  // the three graphs, the heatmap and the hints came one a frame
    const std::string complete = frame_text(app);
    CHECK(complete.find("Computing") == std::string::npos);
    CHECK(complete.find("Block size x registers") != std::string::npos);
    CHECK(runs(s, Part::heatmap) == 1);
    CHECK(s.derived.heatmap.occupancy == expected_heatmap(s));
    CHECK(s.derived.by_threads.size() == 1024);
    CHECK(s.derived.hints.best_block > 0);
    CHECK(runs(s, Part::heatmap_limiters) == 0);  // nobody hovered the heatmap
    const auto done = occ::io::json::parse(app.recompute_json());
    CHECK(done["settled_frame"] == frames);
    double sum = 0;
    for (const auto& p : done["parts"])
        if (p["state"] == "computed") sum += p["ms"].get<double>();
    CHECK(done["ms"].get<double>() == doctest::Approx(sum));

    // Nothing changes: no part runs again, however many frames.
    const std::vector<int> before = all_runs(s);
    for (int i = 0; i < 5; ++i) run_frame(app);
    CHECK(all_runs(s) == before);

    // Every part has run once: a change that touches them all is computed in the frame that shows
    // it, budget or not (no panel flickers to "Computing" while a slider moves).
    s.req.launch.smem_dynamic = 30000;
    s.req.kernel.regs_per_thread = 48;
    s.req.launch.threads = 384;
    occ::ui::sync_block(s);
    occ::ui::mark_changed(s);
    run_frame(app);
    CHECK(!s.derived.recompute.waiting);
    for (const Part p : {Part::result, Part::sweep_threads, Part::sweep_regs, Part::sweep_smem, Part::heatmap, Part::hints}) {
        CAPTURE(occ::ui::part_title(p));
        CHECK(current(s, p));
        CHECK(runs(s, p) == before[static_cast<std::size_t>(p)] + 1);
    }
    CHECK(s.derived.heatmap.occupancy == expected_heatmap(s));
}

TEST_CASE("recompute: a part whose inputs did not change is kept") {
    Headless h;
    occ::ui::App app;
    Headless::upload_fonts();
    occ::ui::AppState& s = app.state();
    s.derived.recompute.budget_ms = 1e9;  // every part in the frame that needs it
    for (int i = 0; i < 2; ++i) run_frame(app);
    REQUIRE(!s.derived.recompute.waiting);
    struct Change {
        const char* what;
        void (*apply)(occ::ui::AppState&);
        std::vector<Part> kept;
    };
    const Change changes[] = {
        {"block size", [](occ::ui::AppState& s) { s.req.launch.threads = 128; }, {Part::sweep_threads, Part::heatmap}},
        {"registers", [](occ::ui::AppState& s) { s.req.kernel.regs_per_thread = 64; }, {Part::sweep_regs, Part::heatmap}},
        {"dynamic shared memory", [](occ::ui::AppState& s) { s.req.launch.smem_dynamic = 4096; }, {Part::sweep_smem}},
        {"grid size",
         [](occ::ui::AppState& s) { s.req.launch.grid_blocks = 5000; },
         {Part::sweep_threads, Part::sweep_regs, Part::sweep_smem, Part::heatmap}},
        {"GPU", [](occ::ui::AppState& s) { s.req.device = *occ::find_gpu("H100-SXM5-80GB"); }, {}},
    };
    for (const Change& c : changes) {
        CAPTURE(c.what);
        occ::ui::sync_block(s);
        const std::vector<int> before = all_runs(s);
        c.apply(s);
        occ::ui::sync_block(s);
        occ::ui::mark_changed(s);
        run_frame(app);
        for (const Part p : {Part::result, Part::sweep_threads, Part::sweep_regs, Part::sweep_smem, Part::heatmap, Part::hints}) {
            CAPTURE(occ::ui::part_title(p));
            const bool kept = std::find(c.kept.begin(), c.kept.end(), p) != c.kept.end();
            CHECK(current(s, p));
            CHECK(runs(s, p) == before[static_cast<std::size_t>(p)] + (kept ? 0 : 1));
        }
        // Kept parts hold the numbers occ::core gives for the new inputs, and cost nothing in the figure.
        const occ::Device& d = s.req.device;
        CHECK(s.derived.by_threads.size() == occ::sweep_block_size(d, s.req.kernel, s.req.launch).size());
        CHECK(s.derived.by_regs[40].blocks_per_sm == occ::sweep_registers(d, s.req.kernel, s.req.launch)[40].blocks_per_sm);
        CHECK(s.derived.by_threads[511].blocks_per_sm == occ::sweep_block_size(d, s.req.kernel, s.req.launch)[511].blocks_per_sm);
        CHECK(s.derived.heatmap.occupancy == expected_heatmap(s));
        double computed = 0;
        for (int p = 0; p < occ::ui::kPartCount; ++p) {
            const occ::ui::PartLog& log = s.derived.recompute[static_cast<Part>(p)];
            if (log.generation == s.input_generation && log.computed_for == s.input_generation) computed += log.ms;
        }
        CHECK(occ::ui::recompute_ms(s) == doctest::Approx(computed));
    }
}

TEST_CASE("recompute: other tabs' numbers wait for their tab, and are never stale when it opens") {
    Headless h;
    occ::ui::App app;
    Headless::upload_fonts();
    occ::ui::AppState& s = app.state();
    for (int i = 0; i < 4; ++i) run_frame(app);
    for (const Part p : {Part::memory, Part::memory_tile, Part::advisor, Part::roofline, Part::ncu}) {
        CAPTURE(occ::ui::part_title(p));
        CHECK(runs(s, p) == 0);
    }
    s.memory.pattern.stride = 33;
    s.memory.pattern.kind = occ::PatternKind::affine;
    occ::ui::mark_changed(s);
    s.tab = occ::ui::Tab::memory;
    for (int i = 0; i < 3; ++i) run_frame(app);
    REQUIRE(s.shown_tab == occ::ui::Tab::memory);
    CHECK(runs(s, Part::memory) == 1);
    CHECK(runs(s, Part::memory_tile) == 1);
    CHECK(runs(s, Part::advisor) == 0);
    CHECK(s.derived.memory.global.sectors == occ::analyze_global_block(s.memory.pattern, s.req.device.arch).sectors);
    // An input changed on the Memory tab: the frame that draws it computes it first.
    s.memory.pattern.stride = 1;
    occ::ui::mark_changed(s);
    run_frame(app);
    CHECK(runs(s, Part::memory) == 2);
    CHECK(s.derived.memory.global.sectors == occ::analyze_global_block(s.memory.pattern, s.req.device.arch).sectors);
    CHECK(runs(s, Part::memory_tile) == 1);  // its inputs did not change
    CHECK(runs(s, Part::heatmap) == 1);      // the Occupancy tab is not shown

    s.tab = occ::ui::Tab::advisor;
    for (int i = 0; i < 3; ++i) run_frame(app);
    CHECK(runs(s, Part::advisor) == 1);
    CHECK(s.derived.advisor.view.block.error.empty());
    CHECK(runs(s, Part::roofline) == 0);
}

TEST_CASE("recompute: the heatmap's limiters are computed when the pointer first rests on it") {
    Headless h;
    occ::ui::App app;
    Headless::upload_fonts();
    occ::ui::AppState& s = app.state();
    for (int i = 0; i < 3; ++i) run_frame(app);
    CHECK(runs(s, Part::heatmap_limiters) == 0);
    const ImGuiWindow* heat = nullptr;
    for (const ImGuiWindow* w : GImGui->Windows)
        if (w->WasActive && std::strstr(w->Name, "heatmap_panel")) heat = w;
    REQUIRE(heat != nullptr);
    const ImRect r = heat->Rect();  // low on the left: a small block, few registers, where blocks fit
    ImGui::GetIO().MousePos = ImVec2(r.Min.x + 0.3f * r.GetWidth(), r.Max.y - 0.3f * r.GetHeight());
    for (int i = 0; i < 3; ++i) run_frame(app);
    CHECK(runs(s, Part::heatmap_limiters) == 1);
    REQUIRE(s.derived.heatmap.limiters.size() == s.derived.heatmap.occupancy.size());
    occ::LaunchConfig l = s.req.launch;
    l.threads = 8 * s.req.device.arch.warp_size;
    const auto col = occ::sweep_registers(s.req.device, s.req.kernel, l);
    for (int r = 0; r < s.derived.heatmap.rows; ++r)
        CHECK(s.derived.heatmap.limiters[static_cast<std::size_t>(7 * s.derived.heatmap.rows + r)] ==
              col[static_cast<std::size_t>(r)].limiters);
    ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
}

TEST_CASE("recompute: the menu bar's figure has a tooltip") {
    Headless h;
    occ::ui::App app;
    Headless::upload_fonts();
    for (int i = 0; i < 3; ++i) run_frame(app);
    // The figure sits at the right end of the menu bar.
    ImGui::GetIO().MousePos = ImVec2(ImGui::GetIO().DisplaySize.x - ImGui::GetFontSize() * 4, ImGui::GetFrameHeight() * 0.5f);
    for (int i = 0; i < 3; ++i) run_frame(app);
    bool tooltip = false;
    for (const ImGuiWindow* w : GImGui->Windows)
        tooltip |= w->Active && (w->Flags & ImGuiWindowFlags_Tooltip) && w->DrawList->VtxBuffer.Size > 0;
    CHECK(tooltip);
    ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    for (int i = 0; i < 2; ++i) run_frame(app);
    tooltip = false;
    for (const ImGuiWindow* w : GImGui->Windows) tooltip |= w->Active && (w->Flags & ImGuiWindowFlags_Tooltip);
    CHECK(!tooltip);
}
