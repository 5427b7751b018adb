// test_results.cpp — what the result panel, the heatmap's hover and the Nsight Compute import show:
// rows and answers built in the refresh step from occ::io (the same the CLI prints), never per frame.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "headless.hpp"
#include "occ/explain.hpp"
#include "occ/io/ncu.hpp"
#include "occ/io/table.hpp"
#include "scenario.hpp"

namespace {

std::string fixture(const char* name) {
    std::ifstream in(std::string(OCC_FIXTURES_DIR) + "/" + name, std::ios::binary);
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

const occ::io::TableRow* row(const std::vector<occ::io::TableRow>& rows, const std::string& key) {
    for (const occ::io::TableRow& r : rows)
        if (r.key == key) return &r;
    return nullptr;
}

// A limit's row, found by its limiter's key ("registers", "vgprs").
const occ::io::TableRow* limit(const std::vector<occ::io::TableRow>& rows, const std::string& key) {
    for (const occ::io::TableRow& r : rows)
        if (r.limiter && r.limiter->key == key) return &r;
    return nullptr;
}

}  // namespace

TEST_CASE("the result panel and the export are occ::io::occupancy_table's rows, built in refresh") {
    Headless h;
    occ::ui::App app;
    Headless::upload_fonts();
    auto& s = app.state();
    s.req.kernel.regs_per_thread = 64;  // A100, 256 threads: registers limit to 4 blocks, 50 %
    s.req.launch.grid_blocks = 1000;
    occ::ui::mark_changed(s);
    occ::ui::refresh(s);
    const occ::WaveResult waves = occ::compute_waves(s.derived.result, s.req.device.sm_count, 1000, s.req.kernel.regs_per_thread);
    const std::vector<occ::io::TableRow> cli = occ::io::occupancy_table(s.req, s.derived.result, &waves);
    REQUIRE(s.derived.view.rows.size() == cli.size());
    for (std::size_t i = 0; i < cli.size(); ++i) {
        CHECK(s.derived.view.rows[i].key == cli[i].key);
        CHECK(s.derived.view.rows[i].value == cli[i].value);
    }
    const occ::io::TableRow* regs = limit(s.derived.view.rows, "registers");
    REQUIRE(regs);
    CHECK(regs->key == "Registers");
    CHECK(regs->hit);
    CHECK(regs->value == "4 blocks");
    // The headline and the answer are the CLI's for the same request (io::occupancy_view).
    const occ::io::OccupancyView& v = s.derived.view;
    CHECK(occ::io::to_json(v) == occ::io::handle("occupancy", occ::io::occupancy_request_to_json(s.req)));
    CHECK(v.ok);
    CHECK(v.occupancy == 0.5);
    CHECK(v.counts == "4 blocks · 32 of 64 warps · 1,024 threads per SM");
    CHECK(v.summary == occ::summarize(s.derived.result));
    CHECK(v.limit_column == "blocks/SM");
    CHECK(row(s.derived.view.rows, "Driver's config"));
    CHECK(row(s.derived.view.rows, "Waves"));
    const std::string md = app.result_table("markdown");
    CHECK(md == *occ::io::format_table(cli, "markdown"));
    CHECK(md.find("| Occupancy | 50% (32 of 64 warps per SM) |") != std::string::npos);
    CHECK(app.result_table("csv").rfind("quantity,value\n", 0) == 0);
    CHECK(app.result_table("xml").find("markdown or csv") != std::string::npos);
    for (int f = 0; f < 3; ++f) run_frame_all_views(app);
}

TEST_CASE("the heatmap's cells carry their limiters (the hover computes nothing)") {
    Headless h;
    occ::ui::App app;
    Headless::upload_fonts();
    auto& s = app.state();
    occ::ui::refresh(s);
    const occ::ui::Derived& d = s.derived;
    REQUIRE(d.heatmap.limiters.size() == d.heatmap.occupancy.size());
    for (int threads : {32, 256, 1024})
        for (int regs : {0, 32, 64, 128, 255}) {
            occ::KernelResources k = s.req.kernel;
            occ::LaunchConfig l = s.req.launch;
            k.regs_per_thread = regs;
            l.threads = threads;
            const occ::OccupancyResult r = occ::compute_occupancy(s.req.device, k, l);
            const std::size_t cell = static_cast<std::size_t>((threads / 32 - 1) * d.heatmap.rows + regs);
            CHECK(d.heatmap.limiters[cell] == r.limiters);
            CHECK(d.grid_full[static_cast<std::size_t>((threads - 1) * occ::kGridRegs + regs)] == r.blocks_per_sm);
        }
}

TEST_CASE("a pasted Nsight Compute report: kernels, differences, and Use makes a kernel the scenario") {
    Headless h;
    occ::ui::App app;
    Headless::upload_fonts();
    auto& s = app.state();
    s.ncu_text = fixture("ncu/default_two_kernels.txt");
    occ::ui::mark_changed(s);
    occ::ui::refresh(s);  // no frame drawn: the answer is there already
    const occ::io::NcuAnswer& a = s.derived.ncu.answer;
    CHECK(s.derived.ncu.error.empty());
    REQUIRE(a.kernels.size() == 2);
    CHECK(a.kernels[0].measured.name.rfind("scale_rows", 0) == 0);
    CHECK(a.kernels[0].differences.empty());
    const occ::io::NcuKernelAnswer& k = a.kernels[1];
    CHECK(k.measured.name.rfind("tile_transpose", 0) == 0);
    // The fitted carveout rule answers the 64 KiB ncu printed (docs/NCU.md, docs/MODEL.md): no line differs.
    CHECK(k.differences.empty());
    CHECK(k.predicted.size() == std::size(occ::io::kNcuKeys));
    CHECK(app.ncu_json() == occ::io::to_json(a).dump());
    CHECK(app.scenario_json().find("tile_transpose") == std::string::npos);  // the report stays out of the link

    // Drawn open in the Advisor tab (what a drop or paste does), for a few frames.
    s.tab = occ::ui::Tab::advisor;
    s.reveal = occ::ui::AppState::Reveal::ncu;
    for (int f = 0; f < 4; ++f) run_frame(app);
    CHECK(ImGui::GetDrawData()->TotalVtxCount > 1000);

    // "Use" on the second kernel: its launch becomes the scenario; the views and the report stay.
    REQUIRE(k.launch);
    std::string error;
    REQUIRE(occ::ui::use_request(s, *k.launch, &error));
    occ::ui::refresh(s);
    CHECK(s.req.kernel.regs_per_thread == 22);
    CHECK(s.req.block[0] == 32);
    CHECK(s.req.block[1] == 8);
    CHECK(s.req.launch.threads == 256);
    CHECK(s.block_3d);
    CHECK(s.req.kernel.smem_static == 4224);
    CHECK(s.req.device.name == k.device->name);
    CHECK(s.tab == occ::ui::Tab::advisor);
    CHECK(s.derived.ncu.answer.kernels.size() == 2);
    CHECK(s.derived.result.blocks_per_sm == 6);
    run_frame(app);

    occ::ui::reset_inputs(s);
    occ::ui::refresh(s);
    CHECK(s.ncu_text.empty());
    CHECK(s.derived.ncu.answer.kernels.empty());
}

TEST_CASE("dropped text: a report goes to the ncu import, anything else to the compiler log") {
    Headless h;
    occ::ui::App app;
    Headless::upload_fonts();
    auto& s = app.state();
    app.take_dropped_text(fixture("ncu/raw_page.csv"));
    CHECK(!s.ncu_text.empty());
    CHECK(s.tab == occ::ui::Tab::advisor);
    CHECK(s.reveal == occ::ui::AppState::Reveal::ncu);
    for (int f = 0; f < 8; ++f) run_frame(app);
    CHECK(s.reveal == occ::ui::AppState::Reveal::none);  // shown until its place holds, then the user scrolls
    CHECK(!s.derived.ncu.answer.kernels.empty());
    app.take_dropped_text("ptxas info    : Used 40 registers, 1024 bytes smem, 360 bytes cmem[0]\n");
    CHECK(s.ptxas_log.find("40 registers") != std::string::npos);
    app.take_dropped_text("not a report");
    occ::ui::refresh(s);
    CHECK(s.ptxas_log == "not a report");
    CHECK(!s.derived.ncu.answer.kernels.empty());  // the report stays
}

TEST_CASE("dropped files: binaries and Triton's files become the binary import; Use loads a kernel; bad files change nothing") {
    Headless h;
    occ::ui::App app;
    Headless::upload_fonts();
    auto& s = app.state();
    const auto bytes = [](const std::string& name) {
        const std::string b = fixture(name.c_str());
        return std::vector<unsigned char>(b.begin(), b.end());
    };
    // Triton's cache folder as the desktop reads it (every file of a <hash> folder): the IR stages,
    // the PTX and the __grp__ file are skipped; the .json gives the .cubin its launch
    // (tests/fixtures/triton/add_kernel.log: 12 registers; the metadata: 4 warps x 32).
    const std::string dir = "triton/cache/ZDNWLPKZ7LNREF7MCXAL4PM4ZGVPCT4IW3TIMEYGOHDIYY6EKGAQ/";
    std::vector<std::pair<std::string, std::vector<unsigned char>>> files;
    for (const char* f : {"__grp__add_kernel.json", "add_kernel.cubin", "add_kernel.json", "add_kernel.llir", "add_kernel.ptx",
                          "add_kernel.ttgir", "add_kernel.ttir"})
        files.emplace_back(dir + f, bytes(dir + f));
    app.take_dropped_files(files);
    CHECK(s.tab == occ::ui::Tab::advisor);
    CHECK(s.reveal == occ::ui::AppState::Reveal::binaries);
    CHECK(s.binaries_skipped == 5);
    REQUIRE(s.binaries.size() == 1);
    CHECK(s.binaries[0].error.empty());
    occ::ui::refresh(s);
    const auto& k = s.derived.advisor.kernels;
    REQUIRE(k);
    REQUIRE(k->rows.rows.size() == 1);
    const occ::io::PtxasRow& row = k->rows.rows[0];
    CHECK(k->rows.log.kernels[row.kernel].mangled == "add_kernel");
    REQUIRE(row.request);
    CHECK(row.request->kernel.regs_per_thread == 12);
    CHECK(row.request->launch.threads == 128);
    CHECK(app.kernels_json() == occ::io::to_json(*k).dump());
    CHECK(app.scenario_json().find("add_kernel") == std::string::npos);  // the binaries stay out of the link
    for (int f = 0; f < 8; ++f) run_frame(app);
    CHECK(s.reveal == occ::ui::AppState::Reveal::none);

    // What "Use" does: the row's request becomes the scenario. The refresh answers the import again,
    // so the row's figures are copied first.
    std::string error;
    REQUIRE(row.result);
    const int want_blocks = row.result->blocks_per_sm;
    REQUIRE(occ::ui::use_request(s, *row.request, &error));
    occ::ui::refresh(s);
    CHECK(s.req.kernel.regs_per_thread == 12);
    CHECK(s.req.launch.threads == 128);
    CHECK(s.derived.result.blocks_per_sm == want_blocks);

    // A truncated cubin: its error in the import, the inputs as they were.
    const std::string before = app.scenario_json();
    std::vector<unsigned char> cut = bytes("binaries/sm_80.cubin");
    cut.resize(300);
    app.take_dropped_files({{"cut.cubin", cut}});
    occ::ui::refresh(s);
    REQUIRE(s.binaries.size() == 1);
    CHECK(s.binaries[0].error.rfind("cut.cubin: ", 0) == 0);
    CHECK(!s.derived.advisor.kernels->rows.error.empty());
    CHECK(app.scenario_json() == before);
    run_frame(app);

    // A text file is still a report or a log; a shared library is read for its kernels.
    app.take_dropped_files({{"log.txt", {'p', 't', 'x', 'a', 's'}}});
    CHECK(s.ptxas_log == "ptxas");
    app.take_dropped_files({{"libkernels.so", bytes("binaries/libkernels.so")}});
    occ::ui::refresh(s);
    CHECK(s.binaries.at(0).format == "shared library");
    const occ::io::PtxasAnswer& so = s.derived.advisor.kernels->rows;  // sm_86 + sm_120 builds: none runs on the A100
    CHECK(so.compilations >= 40);
    CHECK(so.rows.empty());
    CHECK(so.error.find("runs on") != std::string::npos);
    run_frame(app);
}

// [SECTION] AMD GPUs (occ/io/amd.hpp; the model's rules and sources: docs/AMD.md)
TEST_CASE("AMD: the result panel is io::amd_occupancy_table's rows, and the scenario round-trips") {
    Headless h;
    occ::ui::App app;
    Headless::upload_fonts();
    auto& s = app.state();
    // MI300X (gfx942), 256 threads = 4 waves of 64, 128 VGPRs (granule 8 of the 512-register file:
    // 4 waves per SIMD), 16 KiB LDS (4 workgroups of the CU's 64 KiB): 4 workgroups, 4 of 8 waves per SIMD.
    const std::string request = R"({"gpu":"MI300X","threads":256,"regs":128,"sgprs":40,"smem_static":16384})";
    std::string err;
    REQUIRE_MESSAGE(app.load_scenario_json(request, &err), err);
    CHECK(s.amd);
    CHECK(s.device_kind == occ::ui::DeviceKind::named);
    occ::ui::refresh(s);
    const occ::Result<occ::io::AmdAnswer> cli = occ::io::answer_amd_occupancy(occ::io::json::parse(request));
    REQUIRE(cli);
    const std::vector<occ::io::TableRow> rows = occ::io::amd_occupancy_table(*cli);
    REQUIRE(s.derived.view.rows.size() == rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        CHECK(s.derived.view.rows[i].key == rows[i].key);
        CHECK(s.derived.view.rows[i].value == rows[i].value);
        CHECK(s.derived.view.rows[i].note == rows[i].note);
        CHECK(s.derived.view.rows[i].hit == rows[i].hit);
    }
    CHECK(s.derived.amd.result.workgroups_per_cu == 4);
    CHECK(s.derived.amd.result.waves_per_simd == 4);
    const occ::io::TableRow* vgprs = limit(s.derived.view.rows, "vgprs");
    REQUIRE(vgprs);
    CHECK(vgprs->key == "VGPRs");
    CHECK(occ::io::to_json(s.derived.view) == occ::io::handle("occupancy", occ::io::json::parse(request)));
    CHECK(s.derived.view.counts.rfind("4 of 8 waves per SIMD · ", 0) == 0);
    CHECK(s.derived.view.limit_column == "groups/CU");
    CHECK(vgprs->hit);
    CHECK(vgprs->value == "4 workgroups");
    CHECK(vgprs->count == "4");
    // The panel draws every limit row (label, value, how) and the advice.
    for (int f = 0; f < 3; ++f) run_frame(app);
    const std::vector<std::string> texts = occ::ui::drawn_texts();
    auto drawn = [&](const std::string& t) {
        for (const std::string& d : texts)
            if (d.find(t) != std::string::npos) return true;
        return false;
    };
    for (const occ::io::TableRow& r : rows)
        if (r.kind == occ::io::RowKind::limit) {
            CAPTURE(r.key);
            CHECK(drawn(r.key));
            CHECK(drawn(r.note.substr(0, 12)));
        }
    CHECK(drawn("One CU, filled with resident workgroups"));
    // The one result panel, in AMD's words: the count column's header and the limit's count.
    CHECK(drawn("Groups/CU"));
    CHECK(drawn("4 workgroups"));
    CHECK(drawn("50%"));
    CHECK(app.result_table("markdown") == *occ::io::format_table(rows, "markdown"));

    // The link: the AMD request as the CLI's --batch line (io::amd_request_to_json), and back.
    const std::string saved = app.scenario_json();
    const occ::io::json j = occ::io::json::parse(saved);
    CHECK(j["gpu"] == "MI300X");
    CHECK(j["regs"] == 128);
    CHECK(j["sgprs"] == 40);
    CHECK(j["smem_static"] == 16384);
    CHECK(j["wave_size"] == 0);
    occ::ui::App other;
    REQUIRE_MESSAGE(other.load_scenario_json(saved, &err), err);
    CHECK(other.state().amd);
    CHECK(other.scenario_json() == saved);
    CHECK(other.state().derived.amd.result.waves_per_simd == 4);

    // A bad AMD field: a notice naming it, and the state stays.
    for (const char* bad : {R"({"gpu":"MI300X","regs":999})", R"({"gpu":"MI300X","cu_mode":true})", R"({"gpu":"MI300X","carveout":50})",
                            R"({"arch":"gfx9999"})", R"({"gpu":"MI300X","wave_size":32})"}) {
        CAPTURE(bad);
        err.clear();
        CHECK(!other.load_scenario_json(bad, &err));
        CHECK(!err.empty());
        CHECK(other.scenario_json() == saved);
    }
    err.clear();
    CHECK(!other.load_scenario_json(R"({"gpu":"MI300X","regs":999})", &err));
    CHECK(err.find("regs must be 0..256 (VGPRs per lane), got 999") != std::string::npos);  // gfx942: 256 arch VGPRs per lane

    // An RDNA target given by arch: wave size and CU mode round-trip.
    REQUIRE_MESSAGE(other.load_scenario_json(R"({"arch":"gfx1100","threads":128,"regs":64,"wave_size":"64","cu_mode":true})", &err), err);
    CHECK(other.state().device_kind == occ::ui::DeviceKind::amd_target);
    const occ::io::json rd = occ::io::json::parse(other.scenario_json());
    CHECK(rd["arch"] == "gfx1100");
    CHECK(rd["wave_size"] == 64);
    CHECK(rd["cu_mode"] == true);
    CHECK(!other.state().derived.amd.result.wgp_mode);
    for (int f = 0; f < 3; ++f) run_frame_all_views(other);
    // Back to NVIDIA: an NVIDIA request loads over an AMD one.
    REQUIRE(other.load_scenario_json(R"({"gpu":"A100","threads":256})", &err));
    CHECK(!other.state().amd);
}

TEST_CASE("AMD: the heatmap's cells are the model's occupancy over workgroup size x VGPRs") {
    Headless h;
    occ::ui::App app;
    Headless::upload_fonts();
    auto& s = app.state();
    std::string err;
    REQUIRE_MESSAGE(app.load_scenario_json(R"({"gpu":"MI300X","threads":256,"regs":128})", &err), err);
    occ::ui::refresh(s);
    const occ::ui::Derived& d = s.derived;
    REQUIRE(d.heatmap.col_threads == 64);
    REQUIRE(d.heatmap.cols == 16);
    REQUIRE(d.heatmap.rows == s.amd_req.arch->max_vgprs + 1);
    for (int threads : {64, 256, 1024})
        for (int vgprs : {0, 64, 128, 200, 256}) {
            occ::amd::AmdKernel k = s.amd_req.kernel;
            occ::amd::AmdLaunch l = s.amd_req.launch;
            k.vgprs = vgprs;
            l.threads = threads;
            const occ::amd::AmdOccupancyResult r = occ::amd::compute_amd_occupancy(*s.amd_req.arch, k, l);
            const std::size_t cell = static_cast<std::size_t>((threads / 64 - 1) * d.heatmap.rows + vgprs);
            CAPTURE(threads);
            CAPTURE(vgprs);
            CHECK(d.heatmap.occupancy[cell] == static_cast<float>(r.ok() ? 100.0 * r.occupancy : 0.0));
            CHECK(d.heatmap.limiters[cell] == (r.ok() ? r.limiters : 0u));
            CHECK(d.heatmap.count[cell] == (r.ok() ? r.workgroups_per_cu : 0));
        }
    CHECK(std::string(d.heatmap.regs) == "VGPRs");
    CHECK(std::string(d.heatmap.count_unit) == "workgroups per CU");
    // 256 threads x 128 VGPRs: 4 of 8 waves per SIMD (the result above).
    CHECK(d.heatmap.occupancy[static_cast<std::size_t>(3 * d.heatmap.rows + 128)] == 50.0f);
}

TEST_CASE("Advisor tab: NVIDIA advice is `occ advise`'s for the same request, and its words are the target's") {
    Headless h;
    occ::ui::App app;
    Headless::upload_fonts();
    auto& s = app.state();
    // The same request the CLI gets: the scenario plus the Advisor's inputs (growth per thread on top
    // of smem_dynamic, which the advise request calls smem_fixed; the UI's cluster size on a 9.0 GPU).
    struct Case {
        const char* scenario;
        const char* advise;
    } cases[] = {
        {R"({"gpu":"A100","threads":256,"regs":64,"smem_dynamic":12288,"grid":1000})",
         R"({"gpu":"A100","threads":256,"regs":64,"smem_fixed":12288,"smem_per_thread":16,"grid":1000})"},
        {R"({"gpu":"H100","threads":128,"regs":40})", R"({"gpu":"H100","threads":128,"regs":40,"smem_per_thread":16,"cluster_size":2})"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.scenario);
        std::string err;
        REQUIRE_MESSAGE(app.load_scenario_json(c.scenario, &err), err);
        REQUIRE_FALSE(s.amd);
        s.advisor.smem_per_thread = 16;
        occ::ui::mark_changed(s);
        s.tab = occ::ui::Tab::advisor;
        for (int f = 0; f < 3; ++f) run_frame(app);
        REQUIRE(occ::ui::ready(s, occ::ui::Part::advisor, true));
        const occ::io::AdviceView& v = s.derived.advisor.view;
        CHECK(occ::io::to_json(v) == occ::io::handle("advise", occ::io::json::parse(c.advise)));
        CHECK(v.rows[3] == "blocks per SM");
        CHECK(v.block.title == "Best block size");
        const std::vector<std::string> texts = occ::ui::drawn_texts();
        bool now = false;
        for (const std::string& t : texts) now |= t.find(v.now) != std::string::npos;
        CHECK_MESSAGE(now, v.now);
    }
}

TEST_CASE("AMD: the Advisor tab shows `occ advise`'s advice, the same JSON") {
    Headless h;
    occ::ui::App app;
    Headless::upload_fonts();
    auto& s = app.state();
    // MI300X, 128 VGPRs: 4 workgroups per CU; 96 VGPRs gain one (tests/unit/test_amd_advisor.cpp).
    const std::string request = R"({"gpu":"MI300X","threads":256,"regs":128,"smem_dynamic":12288})";
    std::string err;
    REQUIRE_MESSAGE(app.load_scenario_json(request, &err), err);
    REQUIRE(s.amd);
    s.tab = occ::ui::Tab::advisor;
    for (int f = 0; f < 3; ++f) run_frame(app);
    REQUIRE(occ::ui::ready(s, occ::ui::Part::advisor, true));
    const occ::io::json ui = occ::io::to_json(s.derived.advisor.view);
    const occ::io::json cli = occ::io::handle("advise", occ::io::json::parse(request));
    CHECK(ui == cli);
    CHECK(ui["registers"]["regs_to_gain_block"] == 96);
    const occ::io::AdviceView& v = s.derived.advisor.view;
    CHECK(v.rows[3] == "workgroups per CU");
    CHECK(v.block.title == "Best workgroup size");
    CHECK(v.resources[0].options[2].title == "cut to gain a workgroup");
    CHECK_FALSE(v.has_clusters);
    CHECK(v.clusters_absent.empty());  // AMD has no clusters: no section, no note
    const std::vector<std::string> texts = occ::ui::drawn_texts();
    bool shown = false;
    for (const std::string& t : texts) shown |= t.find("amdgpu-waves-per-eu=5") != std::string::npos;
    CHECK(shown);
}
