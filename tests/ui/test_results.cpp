// test_results.cpp — what the result panel, the heatmap's hover and the Nsight Compute import show:
// rows and answers built in the refresh step from occ::io (the same the CLI prints), never per frame.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "headless.hpp"
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
    REQUIRE(s.derived.table.size() == cli.size());
    for (std::size_t i = 0; i < cli.size(); ++i) {
        CHECK(s.derived.table[i].key == cli[i].key);
        CHECK(s.derived.table[i].value == cli[i].value);
    }
    const occ::io::TableRow* regs = row(s.derived.table, "Registers");
    REQUIRE(regs);
    CHECK(regs->hit);
    CHECK(regs->value == "4 blocks");
    CHECK(row(s.derived.table, "Driver's config"));
    CHECK(row(s.derived.table, "Waves"));
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
    REQUIRE(d.heat_limiters.size() == d.heat_occupancy.size());
    for (int threads : {32, 256, 1024})
        for (int regs : {0, 32, 64, 128, 255}) {
            occ::KernelResources k = s.req.kernel;
            occ::LaunchConfig l = s.req.launch;
            k.regs_per_thread = regs;
            l.threads = threads;
            const occ::OccupancyResult r = occ::compute_occupancy(s.req.device, k, l);
            const std::size_t cell = static_cast<std::size_t>((threads / 32 - 1) * d.heat_rows + regs);
            CHECK(d.heat_limiters[cell] == r.limiters);
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

    // What "Use" does: the row's request becomes the scenario.
    std::string error;
    REQUIRE(occ::ui::use_request(s, *row.request, &error));
    occ::ui::refresh(s);
    CHECK(s.req.kernel.regs_per_thread == 12);
    CHECK(s.req.launch.threads == 128);
    CHECK(s.derived.result.blocks_per_sm == row.result->blocks_per_sm);

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
