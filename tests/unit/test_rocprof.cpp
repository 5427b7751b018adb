// test_rocprof.cpp — rocprof-compute (Omniperf) analyze output as AMD kernel rows (occ/io/rocprof.hpp),
// on the output AMD published (tests/fixtures/rocprof/SOURCES.md): the values read equal the printed
// ones, occ's theoretical occupancy from the read resources is its AMD model's, and the measured
// figures stay under "profile", apart from occ's.
//
// Known answers: the Omniperf tutorial "Occupancy limiters example" (ROCm/omniperf
// docs/tutorial/includes/occupancy-limiters-example.rst) ran sample/occupancy.hip on an MI250 GCD
// (gfx90a, 104 CUs: the tables' Peak 3328 = 104 x 32 waves); every kernel is launched with 256
// work-items per workgroup (sample/occupancy.hip, `<<<1024 * 1024, 256>>>`).
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "occ/amd.hpp"
#include "occ/io/binary.hpp"
#include "occ/io/ptxas.hpp"
#include "occ/io/rocprof.hpp"

namespace {

using occ::io::json;

const std::string kDir = std::string(OCC_SOURCE_DIR) + "/tests/fixtures/rocprof/";

std::string text_of(const std::string& name) {
    std::ifstream f(kDir + name, std::ios::binary);
    REQUIRE_MESSAGE(f, "missing fixture " << name);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

double measured(const occ::io::PtxasKernel& k, const std::string& key) {
    REQUIRE(k.amd);
    REQUIRE(k.amd->profile);
    for (const auto& m : k.amd->profile->measured)
        if (m.first == key) return m.second;
    FAIL("no measured " << key);
    return -1;
}

std::string unread(const std::vector<std::pair<std::string, std::string>>& u, const std::string& field) {
    for (const auto& e : u)
        if (e.first == field) return e.second;
    return {};
}

constexpr int kMi250GcdCus = 104;  // the tables' Peak: 3328 wavefronts = 104 CUs x 32

}  // namespace

TEST_CASE("rocprof-compute: the tutorial's LDS-limited kernel, read and evaluated on gfx90a") {
    const std::string text = text_of("tutorial_ldsbound.txt");
    CHECK(occ::io::looks_like_rocprof_compute(text));
    const occ::io::PtxasLog log = occ::io::parse_rocprof_compute(text);
    REQUIRE(log.kernels.size() == 1);
    const occ::io::PtxasKernel& k = log.kernels[0];
    // The printed "Wavefront Launch Stats" (7.1.5-7.1.8).
    CHECK(k.registers == 96);
    CHECK(k.amd->agprs == 0);
    CHECK(k.amd->sgprs == 80);
    CHECK(k.smem_static == 65536);
    CHECK(!k.stack_frame);  // 7.1.9 was not asked for
    CHECK(unread(k.amd->unread, "stack_frame").find("-b 7.1") != std::string::npos);
    CHECK(k.arch.empty());  // the tables do not name the GPU
    CHECK(k.format == "rocprof-compute analysis");
    // What the run measured (2.1.15 and block 6.2).
    CHECK(measured(k, "wavefront_occupancy") == doctest::Approx(415.52));
    CHECK(measured(k, "wavefront_occupancy_peak") == doctest::Approx(3328.0));
    CHECK(measured(k, "wavefront_occupancy_pct") == doctest::Approx(12.49));
    CHECK(measured(k, "insufficient_cu_lds_pct") == doctest::Approx(96.47));
    CHECK(measured(k, "insufficient_simd_vgprs_pct") == doctest::Approx(0.0));
    CHECK(measured(k, "scheduler_pipe_stall_pct") == doctest::Approx(24.84));
    CHECK(unread(k.amd->profile->unread, "workgroup_size").find("Workgroup Size") != std::string::npos);

    // occ's theoretical answer: one 64 KiB workgroup per CU, 4 waves: 1 wave per SIMD, LDS-limited.
    const json out = occ::io::api_ptxas(json{{"log", text}, {"arch", "gfx90a"}, {"threads", 256}});
    REQUIRE_MESSAGE(out["error"].is_null(), out.dump());
    const json& row = out["kernels"][0];
    CHECK(row["occupancy"]["blocks_per_sm"] == 1);
    CHECK(row["occupancy"]["warps_per_sm"] == 4);
    CHECK(row["occupancy"]["waves_per_simd"] == 1);
    CHECK(row["occupancy"]["limiters"] == json::array({"lds"}));
    CHECK(row["notes"][0].get<std::string>().find("does not give the workgroup size") != std::string::npos);
    // The measurement stays under "profile", labelled measured, and agrees: 4 waves x 104 CUs = 416
    // resident at most; the run averaged 415.52.
    CHECK(row["profile"]["measured"]["wavefront_occupancy"] == 415.52);
    CHECK(row["profile"]["measured"]["insufficient_cu_lds_pct"] == 96.47);
    CHECK(row["profile"]["measured"]["kernel_time_ns"].is_null());
    CHECK(row["profile"]["unread"]["kernel_time_ns"].get<std::string>().find("7.2") != std::string::npos);
    const int theoretical = row["occupancy"]["warps_per_sm"].get<int>() * kMi250GcdCus;
    CHECK(theoretical == 416);
    CHECK(415.52 <= theoretical);
    CHECK(415.52 / theoretical > 0.99);
}

TEST_CASE("rocprof-compute: the tutorial's VGPR- and SGPR-bound kernels") {
    const occ::amd::AmdArch& gfx90a = *occ::amd::find_amd_arch("gfx90a");
    occ::amd::AmdLaunch l;
    l.threads = 256;
    // vgprbound: 124 VGPRs + 4 AGPRs = 128 (rocprof-compute prints the allocation: the assembly's
    // 122 VGPRs with AccumOffset 124), so 512 / 128 = 4 waves per SIMD; 16 per CU x 104 = 1664, and
    // the run averaged 1661.24. Its analysis has no LDS row: the kernel has no __shared__ (source).
    const occ::io::PtxasLog v = occ::io::parse_rocprof_compute(text_of("tutorial_vgprbound.txt"));
    REQUIRE(v.kernels.size() == 1);
    const occ::io::PtxasKernel& vk = v.kernels[0];
    CHECK(vk.name == "vgprbound(int, double*)");
    CHECK(vk.registers == 124);
    CHECK(vk.amd->agprs == 4);
    CHECK(vk.amd->sgprs == 80);
    CHECK(!vk.smem_static);
    CHECK(measured(vk, "insufficient_simd_vgprs_pct") == doctest::Approx(94.90));
    CHECK(measured(vk, "wavefront_occupancy") == doctest::Approx(1661.24));
    const auto rv = occ::amd::compute_amd_occupancy(gfx90a, occ::amd::AmdKernel{*vk.registers, *vk.amd->agprs, *vk.amd->sgprs, 0}, l);
    CHECK(rv.waves_per_simd == 4);
    CHECK(rv.limiters == occ::amd::kAmdLimitVgprs);
    CHECK(rv.waves_per_cu * kMi250GcdCus == 1664);
    // Through the ptxas kind the missing LDS row is the row's reason.
    const json ve = occ::io::api_ptxas(json{{"log", text_of("tutorial_vgprbound.txt")}, {"arch", "gfx90a"}});
    CHECK(ve["kernels"][0]["error"] == "the rocprof-compute analysis gives no LDS size for this kernel");

    // sgprbound: 64 VGPRs, 80 SGPRs (+16 trap) = 8 waves per SIMD, 32 per CU: 3328 = the Peak; measured 3291.76.
    const json s = occ::io::api_ptxas(json{{"log", text_of("tutorial_sgprbound.txt")}, {"arch", "gfx90a"}, {"threads", 256}});
    REQUIRE_MESSAGE(s["error"].is_null(), s.dump());
    const json& sr = s["kernels"][0];
    CHECK(sr["name"] == "sgprbound(int, double*)");
    CHECK(sr["resources"]["scratch"] == 60);
    CHECK(sr["occupancy"]["waves_per_simd"] == 8);
    CHECK(sr["occupancy"]["warps_per_sm"].get<int>() * kMi250GcdCus == 3328);
    CHECK(sr["profile"]["measured"]["wavefront_occupancy"] == 3291.76);
    CHECK(sr["profile"]["measured"]["scratch_stall_pct"] == 39.76);
    CHECK(sr["profile"]["measured"]["insufficient_simd_sgprs_pct"] == 25.52);
}

TEST_CASE("rocprof-compute: names, several analyses, dispatches that differ") {
    // HPCTrainingExamples: the name from the Dispatch List; the wrapped Top Kernels name joins the same.
    const std::string hpc = text_of("hpc_register_problem.txt");
    const occ::io::PtxasLog h = occ::io::parse_rocprof_compute(hpc);
    REQUIRE(h.kernels.size() == 1);
    CHECK(h.kernels[0].name == "yax(double*, double*, double*, int, int, double*)");
    CHECK(h.kernels[0].registers == 92);
    CHECK(h.kernels[0].amd->agprs == 132);
    CHECK(h.kernels[0].amd->sgprs == 48);
    CHECK(h.kernels[0].amd->profile->dispatches == 1);
    CHECK(measured(h.kernels[0], "wavefront_occupancy") == doctest::Approx(433.52));
    const std::size_t list = hpc.find("0.2 Dispatch List"), sol = hpc.find("2. System Speed-of-Light");
    REQUIRE(list != std::string::npos);
    const occ::io::PtxasLog top = occ::io::parse_rocprof_compute(hpc.substr(0, list) + hpc.substr(sol));
    REQUIRE(top.kernels.size() == 1);
    CHECK(top.kernels[0].name == "yax(double*, double*, double*, int, int, double*)");
    CHECK(!top.kernels[0].amd->profile->dispatches);

    // Measured only (no launch stats): the row says why it has no occupancy.
    const occ::io::PtxasLog lds = occ::io::parse_rocprof_compute(text_of("hpc_lds_problem.txt"));
    REQUIRE(lds.kernels.size() == 1);
    CHECK(measured(lds.kernels[0], "insufficient_cu_lds_pct") == doctest::Approx(79.01));
    CHECK(measured(lds.kernels[0], "wavefront_occupancy_pct") == doctest::Approx(3.10));
    CHECK(!lds.kernels[0].registers);

    // The three tutorial analyses pasted one after another: three rows.
    const std::string all = text_of("tutorial_vgprbound.txt") + text_of("tutorial_ldsbound.txt") + text_of("tutorial_sgprbound.txt");
    const occ::io::PtxasLog three = occ::io::parse_rocprof_compute(all);
    REQUIRE(three.kernels.size() == 3);
    CHECK(three.kernels[0].registers == 124);
    CHECK(three.kernels[1].smem_static == 65536);
    CHECK(three.kernels[2].stack_frame == 60);

    // Dispatches that differ (Min != Max): the figure is null, with the reason.
    std::string differ = text_of("tutorial_ldsbound.txt");
    const std::string vgprs = "│    96.00 │    96.00 │    96.00 │";
    REQUIRE(differ.find(vgprs) != std::string::npos);
    differ.replace(differ.find(vgprs), vgprs.size(), "│    96.00 │    64.00 │   128.00 │");
    const occ::io::PtxasLog d = occ::io::parse_rocprof_compute(differ);
    REQUIRE(d.kernels.size() == 1);
    CHECK(!d.kernels[0].registers);
    CHECK(unread(d.kernels[0].amd->unread, "registers").find("min 64, max 128") != std::string::npos);
}

TEST_CASE("rocprof-compute: read by the kernels kind, and hostile text") {
    const std::string text = text_of("tutorial_ldsbound.txt");
    const std::vector<unsigned char> bytes(text.begin(), text.end());
    std::vector<occ::io::BinaryRead> files;
    files.push_back(occ::io::read_binary("lds.txt", bytes));
    REQUIRE_MESSAGE(files[0].error.empty(), files[0].error);
    CHECK(files[0].format == "rocprof-compute analysis");
    const auto k = occ::io::answer_kernels(json{{"gpu", "MI250"}, {"threads", 256}}, files);
    REQUIRE(k);
    REQUIRE(k->rows.rows.size() == 1);
    REQUIRE(k->rows.rows[0].amd_result);
    CHECK(k->rows.rows[0].amd_result->waves_per_simd == 1);
    CHECK(!occ::io::looks_like_rocprof_compute("ptxas info    : Used 26 registers"));
    // Broken tables: no crash, nothing negative.
    for (const std::string& bad : {std::string("│ Metric │ Avg │\n│ VGPRs │ -5 │\n│ SGPRs │ 1e300 │\n│ LDS Allocation │ nan │"),
                                   std::string("Wavefront Occupancy │││││\n│\n╒\n│ Kernel_Name │\n│ │ x │\n"), std::string(5000, '\xe2')}) {
        const occ::io::PtxasLog b = occ::io::parse_rocprof_compute(bad);
        for (const occ::io::PtxasKernel& bk : b.kernels) {
            CHECK(bk.registers.value_or(0) >= 0);
            CHECK(bk.amd->sgprs.value_or(0) >= 0);
            CHECK(bk.smem_static.value_or(0) >= 0);
        }
        CHECK(occ::io::api_ptxas(json{{"log", bad}, {"arch", "gfx942"}}).is_object());
    }
}

TEST_CASE("rocprof-compute pmc_perf.csv: one row per dispatch, the GPU from sysinfo.csv") {
    // ROCm/omniperf tests/workloads/dispatch_0/MI300X_A1 (columns excerpted; SOURCES.md): vcopy
    // (`./tests/vcopy -n 1048576 -b 256 -i 3`, sysinfo.csv) on an MI300X, gpu_arch gfx942.
    const std::string dir = kDir + "dispatch_0_mi300x";
    const occ::io::BinaryRead r = occ::io::read_binary_file(dir);
    REQUIRE_MESSAGE(r.error.empty(), r.error);
    CHECK(r.format == "rocprof-compute pmc_perf.csv");
    REQUIRE(r.kernels.size() == 3);
    const occ::io::PtxasKernel& k = r.kernels[0];
    CHECK(k.name == "vecCopy(double*, double*, double*, int, int)");
    CHECK(k.arch == "gfx942");  // sysinfo.csv's gpu_arch
    CHECK(k.source_entry == "Dispatch_ID 0");
    CHECK(k.registers == 4);
    CHECK(k.amd->agprs == 4);
    CHECK(k.amd->sgprs == 16);
    CHECK(k.amd->wave_size == 64);
    CHECK(k.smem_static == 0);
    CHECK(k.amd->profile->workgroup_size == 256);
    CHECK(k.amd->profile->grid_size == 1048576);
    // SPI_CSN_WAVE = 1048576 work-items / 64 = 16384 waves; End - Start = 16160 ns.
    CHECK(measured(k, "total_wavefronts") == 16384.0);
    CHECK(measured(k, "kernel_time_ns") == 16160.0);
    CHECK(unread(k.amd->profile->unread, "wavefront_occupancy").find("SQ_ACCUM_PREV_HIRES") != std::string::npos);
    CHECK(unread(k.amd->profile->unread, "insufficient_cu_lds_pct").find("6.2") != std::string::npos);
    // occ: 4 waves per workgroup, 8 VGPRs and 16 SGPRs never limit: the wave slots do, 8 per SIMD.
    std::vector<occ::io::BinaryRead> files;
    files.push_back(r);
    const auto a = occ::io::answer_kernels(json::object(), files);
    REQUIRE(a);
    REQUIRE(a->rows.rows.size() == 3);
    REQUIRE_MESSAGE(a->rows.rows[0].amd_result, a->rows.rows[0].error);
    CHECK(a->rows.rows[0].amd_result->waves_per_simd == 8);
    CHECK(a->rows.rows[0].amd_result->workgroups_per_cu == 8);
    CHECK(a->rows.rows[0].amd_result->limiters == occ::amd::kAmdLimitWaveSlots);
    // The older MI200 workload's columns ("wave_size", "[clone .kd]"), read as text by the ptxas kind.
    const std::string mi200 = text_of("dispatch_0_mi200/pmc_perf.csv");
    CHECK(occ::io::looks_like_rocprof_csv(mi200));
    CHECK(occ::io::rocprof_sysinfo_arch(text_of("dispatch_0_mi200/sysinfo.csv")) == "gfx90a");
    const json out = occ::io::api_ptxas(json{{"log", mi200}, {"arch", "gfx90a"}});
    REQUIRE_MESSAGE(out["error"].is_null(), out.dump());
    CHECK(out["kernels"][0]["name"] == "vecCopy(double*, double*, double*, int, int)");
    CHECK(out["kernels"][0]["resources"]["vgprs"] == 8);
    CHECK(out["kernels"][0]["occupancy"]["waves_per_simd"] == 8);
    CHECK(out["kernels"][0]["profile"]["measured"]["total_wavefronts"] == 16384.0);
}

TEST_CASE("rocprof-compute: the launch rows (MI300A), and a comparison of two workloads") {
    // amd/HPCTrainingExamples rocprof-compute/OpenMP/Fortran/1_collapse (SOURCES.md): Grid Size 233472,
    // Workgroup Size 256, Total Wavefronts 3648 = 233472 / 64.
    const occ::io::PtxasLog s = occ::io::parse_rocprof_compute(text_of("openmp_collapse_solution.txt"));
    REQUIRE(s.kernels.size() == 1);
    const occ::io::AmdProfile& p = *s.kernels[0].amd->profile;
    CHECK(p.workgroup_size == 256);
    CHECK(p.grid_size == 233472);
    CHECK(measured(s.kernels[0], "total_wavefronts") == 3648.0);
    CHECK(measured(s.kernels[0], "wavefront_occupancy_peak") == 7296.0);  // 228 CUs x 32
    CHECK(*p.grid_size / 64 == 3648);
    // The row runs with the dispatch's workgroups, whatever the request says (a note says so).
    const json out = occ::io::api_ptxas(json{{"log", text_of("openmp_collapse_solution.txt")}, {"arch", "gfx942"}, {"threads", 64}});
    const json& row = out["kernels"][0];
    CHECK(row["profile"]["workgroup_size"] == 256);
    CHECK(row["error"] == "the rocprof-compute analysis gives no VGPR count for this kernel");  // 7.1.5 not asked for

    // `analyze -p A -p B`: each column twice; nothing is read from the tables, and the row says why.
    const occ::io::PtxasLog c = occ::io::parse_rocprof_compute(text_of("openmp_collapse_compare.txt"));
    REQUIRE(c.kernels.size() == 1);
    CHECK(c.kernels[0].name == "__omp_offloading_32_6140__QQmain_l37");
    CHECK(!c.kernels[0].amd->profile->workgroup_size);
    CHECK(c.kernels[0].amd->profile->measured.empty());
    REQUIRE(!c.kernels[0].diagnostics.empty());
    CHECK(c.kernels[0].diagnostics[0].find("comparison of two workloads") != std::string::npos);
}
