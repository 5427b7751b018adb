// test_triton.cpp — Triton's kernel cache as an `occ kernels` input (occ/io/binary.hpp): the fixture
// cache tests/fixtures/triton/cache (make_cache.sh; README.md cites the Triton source it follows)
// gives each kernel with the launch its metadata fixes, and the occupancy at that launch.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "occ/io/binary.hpp"
#include "occ/io/ptxas.hpp"

namespace {

namespace fs = std::filesystem;
using occ::io::json;

const std::string kTriton = std::string(OCC_SOURCE_DIR) + "/tests/fixtures/triton/";

std::string hash_dir_of(const std::string& kernel) {
    for (const auto& e : fs::directory_iterator(kTriton + "cache"))
        if (fs::exists(e.path() / (kernel + ".json"))) return e.path().string();
    FAIL("no cache folder holds " << kernel << ".json (tests/fixtures/triton/make_cache.sh)");
    return {};
}

const occ::io::PtxasKernel* find(const std::vector<occ::io::PtxasKernel>& ks, const std::string& name) {
    for (const auto& k : ks)
        if (k.mangled == name) return &k;
    return nullptr;
}

std::vector<unsigned char> bytes_of(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    REQUIRE_MESSAGE(f, "missing " << path);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

std::string b64(const std::vector<unsigned char>& in) {
    static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t i = 0;
    for (; i + 2 < in.size(); i += 3) {
        const unsigned v = in[i] << 16 | in[i + 1] << 8 | in[i + 2];
        out += {t[v >> 18], t[v >> 12 & 63], t[v >> 6 & 63], t[v & 63]};
    }
    if (i + 1 == in.size()) out += {t[in[i] >> 2], t[(in[i] & 3) << 4], '=', '='};
    else if (i + 2 == in.size()) out += {t[in[i] >> 2], t[(in[i] & 3) << 4 | in[i + 1] >> 4], t[(in[i + 1] & 15) << 2], '='};
    return out;
}

}  // namespace

TEST_CASE("triton: metadata gives the launch (num_warps x warp_size threads, shared bytes dynamic)") {
    const std::string text =
        R"({"hash": "x", "target": {"backend": "cuda", "arch": 90, "warp_size": 32}, "num_warps": 8, "num_ctas": 2,
            "num_stages": 3, "maxnreg": null, "cluster_dims": [2, 1, 1], "shared": 98304, "tmem_size": 0, "name": "k",
            "triton_version": "3.3.1"})";
    const auto m = occ::io::parse_triton_metadata(text, "/c/H/k.json");
    REQUIRE_MESSAGE(m, m.error);
    CHECK(m->name == "k");
    CHECK(m->backend == "cuda");
    CHECK(m->arch == 90);
    CHECK(m->launch.threads == 256);
    CHECK(m->launch.smem_dynamic == 98304);
    CHECK(m->launch.num_ctas == 2);
    CHECK(!m->launch.maxnreg);
    CHECK(m->launch.from == "Triton metadata (k.json)");
}

TEST_CASE("triton: metadata errors name the key") {
    CHECK(occ::io::parse_triton_metadata("[1]", "a.json").error.find("not a JSON object") != std::string::npos);
    CHECK(occ::io::parse_triton_metadata(R"({"num_warps": 4, "shared": 0})", "a.json").error.find("\"name\"") != std::string::npos);
    CHECK(occ::io::parse_triton_metadata(R"({"name": "k", "shared": 0})", "a.json").error.find("\"num_warps\"") != std::string::npos);
    CHECK(occ::io::parse_triton_metadata(R"({"name": "k", "num_warps": 4})", "a.json").error.find("\"shared\"") != std::string::npos);
    CHECK(occ::io::parse_triton_metadata(R"({"name": "k", "num_warps": "4", "shared": 0})", "a.json")
              .error.find("\"num_warps\" is not an integer") != std::string::npos);
    CHECK(occ::io::parse_triton_metadata(R"({"name": "k", "num_warps": 0, "shared": 0})", "a.json").error.find("1..64") !=
          std::string::npos);
}

TEST_CASE("triton: a cache folder gives each kernel with its launch and occupancy") {
    const occ::io::BinaryRead r = occ::io::read_binary_file(kTriton + "cache");
    REQUIRE_MESSAGE(r.error.empty(), r.error);
    CHECK(r.format == "Triton cache");
    CHECK(r.cubins == 2);
    REQUIRE(r.kernels.size() == 2);
    const auto* add = find(r.kernels, "add_kernel");
    const auto* mm = find(r.kernels, "matmul_kernel");
    REQUIRE(add);
    REQUIRE(mm);
    // Resources as ptxas -v printed them for the same compile (tests/fixtures/triton/*.log).
    const std::vector<unsigned char> add_bytes = bytes_of(kTriton + "add_kernel.log");
    const occ::io::PtxasLog add_log = occ::io::parse_ptxas_log(std::string(add_bytes.begin(), add_bytes.end()));
    const std::vector<unsigned char> mm_bytes = bytes_of(kTriton + "matmul_kernel.log");
    const occ::io::PtxasLog mm_log = occ::io::parse_ptxas_log(std::string(mm_bytes.begin(), mm_bytes.end()));
    REQUIRE(add_log.kernels.size() == 1);
    REQUIRE(mm_log.kernels.size() == 1);
    CHECK(add->registers == add_log.kernels[0].registers);
    CHECK(mm->registers == mm_log.kernels[0].registers);
    CHECK(add->arch == "sm_80");
    CHECK(mm->arch == "sm_90a");
    REQUIRE(add->launch);
    REQUIRE(mm->launch);
    CHECK(add->launch->threads == 128);
    CHECK(add->launch->smem_dynamic == 0);
    CHECK(mm->launch->threads == 256);
    CHECK(mm->launch->smem_dynamic == 98304);
    CHECK(mm->source_file.find("matmul_kernel.cubin") != std::string::npos);

    // The kind: each row evaluated at its own launch, whatever threads the request gives.
    const auto a = occ::io::answer_kernels(json{{"threads", 1024}}, {r});
    REQUIRE_MESSAGE(a, a.error);
    REQUIRE(a->rows.error.empty());
    const json out = occ::io::to_json(*a);
    REQUIRE(out["kernels"].size() == 2);
    for (const json& row : out["kernels"]) {
        CAPTURE(row.dump());
        REQUIRE(row["occupancy"].is_object());
        if (row["mangled"] == "add_kernel") {
            // cc 8.0, 12 registers, 128 threads: 16 blocks fill the SM's 64 warps.
            CHECK(row["launch"]["threads"] == 128);
            CHECK(row["occupancy"]["blocks_per_sm"] == 16);
            CHECK(row["occupancy"]["occupancy"] == 1.0);
        } else {
            // cc 9.0, 256 threads, 96 KiB dynamic + 1 KiB reserved per block in 228 KiB: 2 blocks, 16 warps of 64.
            CHECK(row["launch"]["smem_dynamic"] == 98304);
            CHECK(row["occupancy"]["blocks_per_sm"] == 2);
            CHECK(row["occupancy"]["occupancy"] == 0.25);
            CHECK(row["occupancy"]["limiters"] == json::array({"shared_memory"}));
        }
        CHECK(row["notes"].dump().find("the request's 1024 threads are not used") != std::string::npos);
    }
}

TEST_CASE("triton: one kernel's files — the .json, a <hash> folder, the .cubin with its metadata beside it") {
    const std::string dir = hash_dir_of("matmul_kernel");
    for (const std::string& p : {dir + "/matmul_kernel.json", dir, dir + "/matmul_kernel.cubin"}) {
        CAPTURE(p);
        const occ::io::BinaryRead r = occ::io::read_binary_file(p);
        REQUIRE_MESSAGE(r.error.empty(), r.error);
        REQUIRE(r.kernels.size() == 1);
        REQUIRE(r.kernels[0].launch);
        CHECK(r.kernels[0].launch->threads == 256);
    }
}

TEST_CASE("triton: the kernels kind pairs <name>.json with <name>.cubin from the request's files") {
    const std::string dir = hash_dir_of("add_kernel");
    const json req{{"files",
                    {{{"name", "h/add_kernel.cubin"}, {"base64", b64(bytes_of(dir + "/add_kernel.cubin"))}},
                     {{"name", "h/add_kernel.json"}, {"base64", b64(bytes_of(dir + "/add_kernel.json"))}}}},
                   {"gpu", "A100"}};
    const json out = occ::io::api_kernels(req);
    REQUIRE_MESSAGE(out["error"].is_null(), out.dump());
    REQUIRE(out["kernels"].size() == 1);
    CHECK(out["kernels"][0]["launch"]["threads"] == 128);
    CHECK(out["kernels"][0]["occupancy"]["warps_per_sm"] == 64);

    const json lonely{{"files", {{{"name", "k.json"}, {"base64", b64(bytes_of(dir + "/add_kernel.json"))}}}}};
    const json bad = occ::io::api_kernels(lonely);
    REQUIRE(bad["error"].is_string());
    CHECK(bad["error"].get<std::string>().find("add k.cubin") != std::string::npos);
}

TEST_CASE("triton: folders without Triton kernels, and broken metadata, are clear errors") {
    const fs::path tmp = fs::temp_directory_path() / ("occ_triton_test_" + std::to_string(::getpid()));
    fs::create_directories(tmp / "H");
    const occ::io::BinaryRead empty = occ::io::read_binary_file(tmp.string());
    CHECK(empty.error.find("no Triton kernels in this folder") != std::string::npos);
    std::ofstream(tmp / "H" / "k.json") << R"({"name": "k", "num_warps": 4})";
    const occ::io::BinaryRead broken = occ::io::read_binary_file((tmp / "H" / "k.json").string());
    CHECK(broken.error.find("\"shared\"") != std::string::npos);
    std::ofstream(tmp / "H" / "k.json")
        << R"({"name": "k", "num_warps": 4, "shared": 0, "target": {"backend": "cuda", "arch": 80, "warp_size": 32}})";
    const occ::io::BinaryRead no_cubin = occ::io::read_binary_file((tmp / "H" / "k.json").string());
    CHECK(no_cubin.error.empty());
    CHECK(no_cubin.kernels.empty());
    REQUIRE(!no_cubin.diagnostics.empty());
    CHECK(no_cubin.diagnostics[0].find("no k.cubin beside it") != std::string::npos);
    fs::remove_all(tmp);
}
