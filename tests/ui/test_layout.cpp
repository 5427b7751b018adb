// test_layout.cpp — the layout self-check (occ::ui::check_layout, which window.occ.layout() returns
// on the page): it finds a cut value, a label ImGui shortened with an ellipsis and two texts drawn over
// each other, and the app shows whole texts, none over another, on every tab at the window sizes the
// page's e2e test opens and the issue's extremes (360x640 to 3840x2160, DPR 1-3), in the default
// state and in states that show more (Expression mode, every tile access and the swizzled tile, an
// imported compiler log and Nsight Compute report, a 3-D block, a custom device).
#include <doctest/doctest.h>

#include <cfloat>
#include <cstdio>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "headless.hpp"
#include "occ/format.hpp"
#include "occ/io/api.hpp"
#include "occ/io/ptxas.hpp"
#include "scenario.hpp"

// [SECTION] Layout self-check (occ::ui::check_layout, window.occ.layout() on the page)
namespace {

// The window sizes the page's e2e test opens (CSS pixels and device pixel ratio); the desktop app
// draws in device pixels at content scale = ratio, as the page does.
struct Screen {
    int w, h;
    float dpr;
};
constexpr Screen kScreens[] = {{1280, 720, 1}, {1366, 768, 1},  {1440, 900, 1},  {1920, 1080, 1}, {2560, 1440, 1}, {1280, 720, 2},
                               {1366, 768, 2}, {1440, 900, 2},  {1920, 1080, 2}, {2560, 1440, 2}, {768, 1024, 3},  {390, 844, 3},
                               {360, 640, 1},  {3840, 2160, 1}, {360, 640, 2},   {360, 640, 3},   {3840, 2160, 2}, {1280, 720, 3}};

std::vector<unsigned char> ui_font() {
    std::vector<unsigned char> data;
    if (std::FILE* f = std::fopen("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "rb")) {
        unsigned char buf[65536];
        for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) data.insert(data.end(), buf, buf + n);
        std::fclose(f);
    }
    return data;
}

std::string fixture(const char* path) {
    std::ifstream f(std::string(OCC_FIXTURES_DIR) + "/" + path);
    REQUIRE_MESSAGE(f.good(), path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
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

// Loads an AMD occupancy request as the scenario (the link's form; without "ui" the tab stays).
void amd_scenario(occ::ui::AppState& s, const char* request) {
    std::string err;
    REQUIRE_MESSAGE(occ::ui::scenario_from_json(request, s, &err), err);
    REQUIRE(s.amd);
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
    auto r = occ::io::json::parse(app.layout_json());
    REQUIRE(r["clipped"].size() == 1);
    CHECK(r["clipped"][0]["id"] == "probe");
    CHECK(r["clipped"][0]["text"].get<std::string>().rfind("12", 0) == 0);  // the digits that show
    REQUIRE(r["overlaps"].size() == 1);
    CHECK(r["overlaps"][0]["a"]["text"] == "first text");
    CHECK(r["overlaps"][0]["b"]["text"] == "second text");

    // Tabs and a table header narrower than their labels: ImGui draws them short, ending in "...".
    for (int i = 0; i < 3; ++i) {
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(ImVec2(140, 300));
        ImGui::Begin("narrow");
        if (ImGui::BeginTabBar("bar")) {
            for (const char* label : {"Occupancy##t", "Memory", "Roofline"})
                if (ImGui::BeginTabItem(label)) ImGui::EndTabItem();
            ImGui::EndTabBar();
        }
        if (ImGui::BeginTable("t", 2, ImGuiTableFlags_SizingFixedFit)) {
            ImGui::TableSetupColumn("limit", ImGuiTableColumnFlags_WidthFixed, 60);
            ImGui::TableSetupColumn("blocks per SM", ImGuiTableColumnFlags_WidthFixed, 30);
            ImGui::TableHeadersRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted("warps");
            ImGui::TableNextColumn();
            ImGui::TextUnformatted("8");
            ImGui::EndTable();
        }
        ImGui::End();
        ImGui::Render();
    }
    r = occ::io::json::parse(app.layout_json());
    CHECK(r["overlaps"].empty());
    std::vector<std::string> labels;
    for (const auto& c : r["clipped"]) {
        CHECK(c["id"] == "narrow");
        REQUIRE(c.contains("label"));
        const std::string text = c["text"], label = c["label"];
        CHECK(text.size() < label.size() + 3);  // what shows: a shorter start of the label, then the ellipsis
        CHECK(label.compare(0, text.size() - 3, text, 0, text.size() - 3) == 0);
        labels.push_back(label);
    }
    CHECK(labels == std::vector<std::string>{"Occupancy", "Memory", "Roofline", "blocks per SM"});
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

TEST_CASE("layout check: states that show more than the defaults, at every screen size") {
    using occ::ui::AppState;
    using occ::ui::Tab;
    struct State {
        std::string name;
        Tab tab;
        std::function<void(AppState&)> set;
    };
    const std::string log = fixture("ptxas/kernels_sm80.log"), report = fixture("ncu/default_two_kernels.txt");
    const std::string rocprof = fixture("rocprof/tutorial_ldsbound.txt");
    const State states[] = {
        {"memory: Expression mode", Tab::memory,
         [](AppState& s) {
             s.memory.use_expr = true;
             s.memory.expr = "tile[threadIdx.y][threadIdx.x ^ threadIdx.y]";
             s.memory.array = "float tile[32][33]";
             s.memory.consts = "N = 4096";
             s.memory.warp = 5;
         }},
        {"memory: every tile access, CuTe swizzle", Tab::memory,
         [](AppState& s) {
             s.memory_tile.trans = s.memory_tile.cp_async = s.memory_tile.column = true;
             s.memory_tile.layout = 2;
             s.memory_tile.cute[0] = 2;
             s.memory_tile.rows = 128;
             s.memory_tile.cols = 128;
         }},
        {"memory: padded tile, gather pattern", Tab::memory,
         [](AppState& s) {
             s.memory_tile.layout = 1;
             s.memory_tile.pad = 1024;
             s.memory_tile.rows = s.memory_tile.cols = 1024;
             s.memory.pattern.kind = occ::PatternKind::gather;
             s.memory.pattern.range = 1 << 20;
             s.memory.pattern.block[0] = 1024;
             s.memory.pattern.block[1] = 1;
         }},
        {"advisor: an imported compiler log", Tab::advisor, [&](AppState& s) { occ::ui::take_dropped_text(s, log); }},
        {"advisor: an imported Nsight Compute report", Tab::advisor, [&](AppState& s) { occ::ui::take_dropped_text(s, report); }},
        {"occupancy: a 3-D block", Tab::occupancy,
         [](AppState& s) {
             s.block_3d = true;
             s.req.block[0] = 1024;
             s.req.block[1] = 1;
             s.req.block[2] = 1;
             occ::ui::sync_block(s);
             s.req.launch.grid_blocks = occ::io::fields::grid.hi;  // the largest grid a request takes (15 digits)
             s.req.launch.smem_dynamic = 99999;
         }},
        // AMD GPUs (docs/AMD.md): a CDNA3 CU with AGPRs, SGPRs and LDS limiting; an RDNA3 WGP in wave64.
        {"occupancy: MI300X", Tab::occupancy,
         [](AppState& s) { amd_scenario(s, R"({"gpu":"MI300X","threads":256,"regs":128,"agprs":64,"sgprs":100,"smem_static":"20K"})"); }},
        {"roofline: MI300X", Tab::roofline, [](AppState& s) { amd_scenario(s, R"({"gpu":"MI300X","threads":256,"regs":128})"); }},
        {"advisor: a rocprof-compute analysis on an MI250 (measured figures)", Tab::advisor,
         [&](AppState& s) {
             amd_scenario(s, R"({"gpu":"MI250"})");
             occ::ui::take_dropped_text(s, rocprof);
         }},
        {"advisor: MI300X", Tab::advisor, [](AppState& s) { amd_scenario(s, R"({"gpu":"MI300X"})"); }},
        {"advisor: MI300X, VGPRs and LDS to cut", Tab::advisor,
         [](AppState& s) { amd_scenario(s, R"({"gpu":"MI300X","threads":256,"regs":128,"smem_dynamic":"24K"})"); }},
        {"advisor: RX-7900-XTX, a WGP", Tab::advisor,
         [](AppState& s) { amd_scenario(s, R"({"gpu":"RX-7900-XTX","threads":256,"regs":96})"); }},
        {"advisor: gfx942, a launch that fails", Tab::advisor,
         [](AppState& s) { amd_scenario(s, R"({"arch":"gfx942","threads":1024,"regs":170})"); }},
        {"memory: MI300X", Tab::memory, [](AppState& s) { amd_scenario(s, R"({"gpu":"MI300X"})"); }},
        {"occupancy: RX-7900-XTX (gfx1100), wave64", Tab::occupancy,
         [](AppState& s) { amd_scenario(s, R"({"gpu":"RX-7900-XTX","threads":1024,"regs":200,"smem_dynamic":"48K","wave_size":"64"})"); }},
        {"occupancy: gfx1100 in CU mode", Tab::occupancy,
         [](AppState& s) { amd_scenario(s, R"({"arch":"gfx1100","threads":64,"regs":40,"cu_mode":true})"); }},
        {"occupancy: a custom device, an old cc", Tab::occupancy,
         [](AppState& s) {
             s.req.device = *occ::find_gpu("GTX-1080");
             s.device_kind = occ::ui::DeviceKind::custom;
             s.req.kernel.partitioned_gc = occ::PartitionedGC::strict;
             s.req.launch.cache_config = occ::CacheConfig::prefer_equal;
         }},
    };
    for (const State& st : states) {
        Headless h;
        occ::ui::App app;
        const std::vector<unsigned char> font = ui_font();
        if (!font.empty()) app.set_font_ttf(font.data(), font.size());
        Headless::upload_fonts();
        AppState& s = app.state();
        st.set(s);
        occ::ui::mark_changed(s);
        s.tab = st.tab;
        for (const Screen& sc : kScreens) {
            const occ::io::json r = layout_at(app, sc);
            CAPTURE(st.name);
            CAPTURE(sc.w);
            CAPTURE(sc.h);
            CAPTURE(sc.dpr);
            REQUIRE(s.shown_tab == st.tab);
            CHECK_MESSAGE(r["clipped"].empty(), r["clipped"].dump());
            CHECK_MESSAGE(r["overlaps"].empty(), r["overlaps"].dump());
        }
    }
}

// A dropped fatbin with PTX-only rows (tests/fixtures/binaries/fatbin_none.fatbin) opens
// its table from the top, and at every screen size every word drawn in the Advisor tab is one drawn
// on a screen wide enough that nothing wraps (a word broken across lines, "com" + "pute_90", is not),
// from the binaries' section down. A text partly scrolled out of view (a "Use" button at the bottom
// edge, of which ImGui draws only the "U") is a piece of a word and is skipped.
TEST_CASE("layout check: a dropped fatbin's table opens at its heading and no word breaks mid-word") {
    Headless h;
    occ::ui::App app;
    const std::vector<unsigned char> font = ui_font();
    if (!font.empty()) app.set_font_ttf(font.data(), font.size());
    Headless::upload_fonts();
    const std::string bin = fixture("binaries/fatbin_none.fatbin");
    app.take_dropped_files({{"fatbin_none.fatbin", std::vector<unsigned char>(bin.begin(), bin.end())}});
    const auto words = [](const occ::io::json& r, bool below = true) {  // those drawn from the binaries' section down
        std::set<std::string> w;
        float top = below ? 1e9f : -1e9f;  // nothing when the section is off screen
        for (const auto& t : r["texts"])
            if (below && t["text"].get<std::string>().rfind("Import binaries", 0) == 0) top = t["rect"][1];
        for (const auto& t : r["texts"]) {
            if (t["rect"][1].get<float>() < top || (below && t["text"].get<std::string>().rfind("Import", 0) == 0))
                continue;                         // the header runs past a phone's edge
            if (t.contains("partial")) continue;  // partly scrolled out of view: a piece of a word ("U" of "Use")
            std::istringstream in(t["text"].get<std::string>());
            for (std::string x; in >> x;) {
                const auto b = x.find_first_not_of(",;:.()"), e = x.find_last_not_of(",;:.()");
                if (b != std::string::npos) w.insert(x.substr(b, e - b + 1));
            }
        }
        return w;
    };
    const occ::io::json phone = layout_at(app, {390, 844, 3}, 10);
    std::set<std::string> heads;
    for (const auto& t : phone["texts"]) heads.insert(t["text"].get<std::string>());
    CHECK(heads.count("kernel") == 1);  // the table's heading is on screen
    CHECK(heads.count("occupancy") == 1);
    const std::set<std::string> whole = words(layout_at(app, {7680, 4320, 1}), false);
    REQUIRE(whole.count("compute_90") == 1);
    const std::set<std::string> shown = words(phone);
    CHECK(shown.count("ns::k_overload(int*") == 1);
    for (const std::string& w : shown) CHECK_MESSAGE(whole.count(w) == 1, w);
    for (const Screen& sc : kScreens) {
        CAPTURE(sc.w);
        CAPTURE(sc.dpr);
        for (const std::string& w : words(layout_at(app, sc))) CHECK_MESSAGE(whole.count(w) == 1, w);
    }
}

// The Advisor tab shows occ::amd's advice for an AMD GPU (the VGPR cut with the
// amdgpu-waves-per-eu to ask for, the waves over 304 CUs), and at every screen size every word the
// tab draws, for it and for an A100, is one drawn on a screen wide enough that nothing wraps: the
// before/after tables turn into lines before a column would break "Registers" into "Register" + "s"
// (a header cell does not wrap, so a column needs its whole title).
TEST_CASE("layout check: the Advisor (AMD and NVIDIA) breaks no word mid-word; the AMD advice is shown") {
    const auto words = [](const occ::io::json& r) {
        std::set<std::string> w;
        for (const auto& t : r["texts"]) {
            if (t.contains("partial")) continue;
            std::istringstream in(t["text"].get<std::string>());
            for (std::string x; in >> x;) {
                // Words only: an arrow ("->", of the before/after lines on a narrow screen) is not one.
                const auto b = x.find_first_not_of(",;:.()->"), e = x.find_last_not_of(",;:.()->");
                if (b != std::string::npos) w.insert(x.substr(b, e - b + 1));
            }
        }
        return w;
    };
    // and a rocprof-compute analysis dropped on an MI250, its measured figures under the kernels table
    // (tests/fixtures/rocprof/tutorial_ldsbound.txt).
    const std::string rocprof = fixture("rocprof/tutorial_ldsbound.txt");
    for (const char* request : {R"({"gpu":"MI300X","threads":256,"regs":128,"smem_dynamic":"12K"})",
                                R"({"gpu":"A100","threads":256,"regs":64,"smem_dynamic":16384})", R"({"gpu":"MI250"})"}) {
        CAPTURE(request);
        Headless h;
        occ::ui::App app;
        const std::vector<unsigned char> font = ui_font();
        if (!font.empty()) app.set_font_ttf(font.data(), font.size());
        Headless::upload_fonts();
        occ::ui::AppState& s = app.state();
        std::string err;
        REQUIRE_MESSAGE(occ::ui::scenario_from_json(request, s, &err), err);
        const bool drop = std::string(request).find("MI250") != std::string::npos;
        if (drop) occ::ui::take_dropped_text(s, rocprof);
        occ::ui::mark_changed(s);
        s.tab = occ::ui::Tab::advisor;
        const std::set<std::string> whole = words(layout_at(app, {7680, 4320, 1}));
        if (drop) CHECK(whole.count("rocprof-compute") == 1);
        else if (s.amd) {
            CHECK(whole.count("amdgpu-waves-per-eu=5") == 1);  // 128 -> 96 VGPRs: 5 waves per SIMD (tests/unit/test_amd_advisor.cpp)
            CHECK(whole.count("__launch_bounds__(256") == 1);
            CHECK(whole.count("1216") == 1);  // a wave: 4 workgroups per CU x 304 CUs
        }
        for (const Screen& sc : kScreens) {
            CAPTURE(sc.w);
            CAPTURE(sc.dpr);
            for (const std::string& w : words(layout_at(app, sc))) CHECK_MESSAGE(whole.count(w) == 1, w);
        }
    }
}

// The kernels view shows what rocprof-compute measured (tests/fixtures/rocprof/tutorial_ldsbound.txt:
// Wavefront Occupancy 415.52 of 3328.00, 12.49% of peak; Insufficient CU LDS 96.47%), apart from
// occ's theoretical occupancy: each figure shown is the JSON's profile.measured as `occ kernels
// --json` gives it for the same log and GPU, and a figure the analysis lacks (the kernel time) is
// "not in the output", never a number.
TEST_CASE("the kernels view shows rocprof-compute's measured figures, the JSON's profile.measured") {
    Headless h;
    occ::ui::App app;
    const std::vector<unsigned char> font = ui_font();
    if (!font.empty()) app.set_font_ttf(font.data(), font.size());
    Headless::upload_fonts();
    occ::ui::AppState& s = app.state();
    const std::string text = fixture("rocprof/tutorial_ldsbound.txt");
    amd_scenario(s, R"({"gpu":"MI250"})");
    occ::ui::take_dropped_text(s, text);
    occ::ui::mark_changed(s);
    s.tab = occ::ui::Tab::advisor;
    std::set<std::string> shown;
    const occ::io::json r = layout_at(app, {3840, 2160, 1}, 10);
    for (const auto& t : r["texts"]) shown.insert(t["text"].get<std::string>());
    const occ::Result<occ::io::PtxasAnswer> a = occ::io::answer_ptxas(occ::io::json{{"gpu", "MI250"}, {"log", text}});
    REQUIRE(a);
    const occ::io::json row = occ::io::to_json(*a)["kernels"][0], m = row["profile"]["measured"];
    const auto f = [](const occ::io::json& v, const char* unit = "") {
        char b[32];
        std::snprintf(b, sizeof b, "%.2f%s", v.get<double>(), unit);
        return std::string(b);
    };
    REQUIRE(m["wavefront_occupancy"] == 415.52);
    const std::string drawn = occ::io::json(shown).dump();
    CAPTURE(drawn);
    CHECK(shown.count("Measured by rocprof-compute analyze (the table above is occ's theoretical answer):") == 1);
    CHECK(shown.count("Wavefront Occupancy: Avg " + f(m["wavefront_occupancy"]) + ", Peak " + f(m["wavefront_occupancy_peak"]) +
                      ", Pct of Peak " + f(m["wavefront_occupancy_pct"], "%") + "; occ's theoretical occupancy " +
                      occ::format_percent(row["occupancy"]["occupancy"].get<double>())) == 1);
    std::string top;  // the largest "Insufficient ..." rate
    for (const auto& [k, v] : m.items())
        if (k.rfind("insufficient_", 0) == 0 && (top.empty() || v.get<double>() > m[top].get<double>())) top = k;
    REQUIRE(top == "insufficient_cu_lds_pct");
    CHECK(shown.count("Insufficient CU LDS " + f(m[top], "%") + ", the largest \"Insufficient\" rate") == 1);
    REQUIRE(m["kernel_time_ns"].is_null());
    CHECK(shown.count("Kernel Time (Nanosec): Avg not in the output") == 1);
}
