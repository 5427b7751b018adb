// test_triton_hip.cpp — Triton caches from the HIP backend (occ/io/binary.hpp, TritonMetadata): the
// metadata <name>.json (target {"backend": "hip", "arch": "gfx942", "warp_size": 64}) beside the code
// object <name>.hsaco gives an AMD row with the launch Triton's HIP launcher uses: num_warps x
// warp_size work-items and `shared` bytes of dynamic LDS (triton-lang/triton third_party/amd/backend/
// driver.py: hipModuleLaunchKernel(function, gridX, gridY, gridZ, {warp_size}*num_warps, 1, 1,
// shared_memory, ...)). Fixture: tests/fixtures/triton/hip_cache (make_hip_cache.py; README.md "HIP").
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "occ/amd.hpp"
#include "occ/io/binary.hpp"
#include "occ/io/ptxas.hpp"

namespace {

namespace fs = std::filesystem;
using occ::io::json;

const std::string kCache = std::string(OCC_SOURCE_DIR) + "/tests/fixtures/triton/hip_cache";

std::string kernel_dir() {
    for (const auto& e : fs::directory_iterator(kCache))
        if (fs::exists(e.path() / "matmul_kernel.json")) return e.path().string();
    FAIL("no hip_cache folder holds matmul_kernel.json (tests/fixtures/triton/make_hip_cache.py)");
    return {};
}

}  // namespace

TEST_CASE("triton hip: the cache gives the code object's kernel with Triton's launch") {
    const occ::io::BinaryRead r = occ::io::read_binary_file(kCache);
    REQUIRE_MESSAGE(r.error.empty(), r.error);
    REQUIRE(r.kernels.size() == 1);
    const occ::io::PtxasKernel& k = r.kernels[0];
    CHECK(k.mangled == "matmul_kernel");
    CHECK(k.arch == "gfx942");
    REQUIRE(k.amd);
    // The code object's metadata (llc-19 for the fixture): .vgpr_count 128 = 96 VGPRs + 32 AGPRs,
    // .sgpr_count 47, no static LDS (Triton's LDS is dynamic), .max_flat_workgroup_size 256.
    CHECK(k.amd->vgprs_total == 128);
    CHECK(k.amd->agprs == 32);
    CHECK(k.amd->sgprs == 47);
    CHECK(k.smem_static == 0);
    CHECK(k.amd->max_workgroup_size == 256);
    REQUIRE(k.launch);
    CHECK(k.launch->num_warps == 4);
    CHECK(k.launch->warp_size == 64);
    CHECK(k.launch->threads == 256);
    CHECK(k.launch->smem_dynamic == 32768);

    // Evaluated on its own target with that launch, whatever the request's threads: 4 waves per
    // workgroup; 32 KiB of LDS per workgroup leaves 2 per 64 KiB CU (8 waves, 2 per SIMD), below the
    // VGPR limit (128 registers: 4 waves per SIMD, 4 workgroups).
    std::vector<occ::io::BinaryRead> files;
    files.push_back(r);
    const auto a = occ::io::answer_kernels(json{{"threads", 64}}, files);
    REQUIRE(a);
    REQUIRE(a->rows.rows.size() == 1);
    const occ::io::PtxasRow& row = a->rows.rows[0];
    REQUIRE_MESSAGE(row.amd_result, row.error);
    occ::amd::AmdLaunch l;
    l.threads = 256;
    l.lds_dynamic = 32768;
    const auto want = occ::amd::compute_amd_occupancy(*occ::amd::find_amd_arch("gfx942"), occ::amd::AmdKernel{96, 32, 47, 0}, l);
    CHECK(row.amd_result->workgroups_per_cu == want.workgroups_per_cu);
    CHECK(row.amd_result->workgroups_per_cu == 2);
    CHECK(row.amd_result->waves_per_simd == 2);
    CHECK(row.amd_result->limiters == occ::amd::kAmdLimitLds);
    REQUIRE(!row.notes.empty());
    bool launch_noted = false;
    for (const std::string& n : row.notes) launch_noted = launch_noted || n.find("4 warps x 64 = 256 threads") != std::string::npos;
    CHECK(launch_noted);
    const json out = occ::io::to_json(*a);
    CHECK(out["kernels"][0]["launch"]["threads"] == 256);
    CHECK(out["kernels"][0]["vendor"] == "AMD");
}

TEST_CASE("triton hip: one kernel's .json, its .hsaco with the metadata beside it, and the request's files") {
    const std::string dir = kernel_dir();
    for (const std::string& p : {dir + "/matmul_kernel.json", dir + "/matmul_kernel.hsaco", dir}) {
        const occ::io::BinaryRead r = occ::io::read_binary_file(p);
        CAPTURE(p);
        REQUIRE_MESSAGE(r.error.empty(), r.error);
        REQUIRE(r.kernels.size() == 1);
        REQUIRE(r.kernels[0].launch);
        CHECK(r.kernels[0].launch->threads == 256);
    }
    // The request's files (the kernels kind): <name>.json pairs with <name>.hsaco.
    const auto bytes = [](const std::string& path) {
        std::ifstream f(path, std::ios::binary);
        return std::vector<unsigned char>{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
    };
    const std::vector<occ::io::BinaryRead> given = occ::io::read_binaries(
        {{"h/matmul_kernel.json", bytes(dir + "/matmul_kernel.json")}, {"h/matmul_kernel.hsaco", bytes(dir + "/matmul_kernel.hsaco")}});
    REQUIRE(given.size() == 1);
    REQUIRE(given[0].kernels.size() == 1);
    REQUIRE(given[0].kernels[0].launch);
    CHECK(given[0].kernels[0].launch->smem_dynamic == 32768);
    const std::vector<occ::io::BinaryRead> lone = occ::io::read_binaries({{"h/matmul_kernel.json", bytes(dir + "/matmul_kernel.json")}});
    REQUIRE(lone.size() == 1);
    CHECK(lone[0].error.find("add h/matmul_kernel.hsaco") != std::string::npos);

    // Metadata without its .hsaco, a CUDA one beside a .hsaco, and a hip target without warp_size.
    const fs::path tmp = fs::temp_directory_path() / ("occ_triton_hip_" + std::to_string(::getpid()));
    fs::create_directories(tmp / "H");
    std::ofstream(tmp / "H" / "k.json")
        << R"({"name": "k", "num_warps": 4, "shared": 0, "target": {"backend": "hip", "arch": "gfx942", "warp_size": 64}})";
    const occ::io::BinaryRead lonely = occ::io::read_binary_file((tmp / "H" / "k.json").string());
    REQUIRE(!lonely.diagnostics.empty());
    CHECK(lonely.diagnostics[0].find("no k.hsaco beside it") != std::string::npos);
    fs::copy_file(dir + "/matmul_kernel.hsaco", tmp / "H" / "matmul_kernel.hsaco");
    std::ofstream(tmp / "H" / "matmul_kernel.json")
        << R"({"name": "matmul_kernel", "num_warps": 4, "shared": 0, "target": {"backend": "cuda", "arch": 80, "warp_size": 32}})";
    const occ::io::BinaryRead cuda_meta = occ::io::read_binary_file((tmp / "H" / "matmul_kernel.hsaco").string());
    REQUIRE(cuda_meta.kernels.size() == 1);
    CHECK(!cuda_meta.kernels[0].launch);
    REQUIRE(!cuda_meta.diagnostics.empty());
    CHECK(cuda_meta.diagnostics[0].find("for the cuda backend") != std::string::npos);
    std::ofstream(tmp / "H" / "k.json") << R"({"name": "k", "num_warps": 4, "shared": 0, "target": {"backend": "hip", "arch": "gfx942"}})";
    const occ::io::BinaryRead no_ws = occ::io::read_binary_file((tmp / "H" / "k.json").string());
    CHECK(no_ws.error.find("target.warp_size") != std::string::npos);
    fs::remove_all(tmp);
}
