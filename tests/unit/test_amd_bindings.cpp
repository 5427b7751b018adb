// test_amd_bindings.cpp — the AMD occupancy request's fields as bindings (kinds.cpp, kAmdBindings):
// the reader, the echo, the list an AMD request takes and the AMD-only fields all come from that one
// table, and the field added through it (max_threads: the kernel's .max_flat_workgroup_size) reaches
// the model.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "occ/io/amd.hpp"
#include "occ/io/api.hpp"

using occ::io::json;
namespace io = occ::io;

namespace {

// A value other than the default for each bound field, and the target that takes it (cu_mode is
// RDNA's). A binding without a value here fails the first test: add one.
const std::map<std::string, std::pair<json, const char*>> kValues = {
    {"regs", {64, "MI300X"}},          {"agprs", {32, "MI300X"}},          {"sgprs", {48, "MI300X"}},
    {"smem_static", {1024, "MI300X"}}, {"smem_dynamic", {2048, "MI300X"}}, {"wave_size", {64, "MI300X"}},
    {"cu_mode", {true, "gfx1100"}},    {"grid", {5000, "MI300X"}},         {"max_threads", {512, "MI300X"}},
};

json request_with(const std::string& key) {
    const auto& [value, target] = kValues.at(key);
    json r = std::string(target).starts_with("gfx") ? json{{"arch", target}} : json{{"gpu", target}};
    r["threads"] = 256;
    r[key] = value;
    return r;
}

}  // namespace

TEST_CASE("every AMD binding is read, echoed and read back") {
    for (const auto& b : io::amd_bindings()) {
        const std::string key(b.spec->key);
        CAPTURE(key);
        REQUIRE(kValues.count(key) == 1);
        const auto read = io::read_amd_request(request_with(key), "test");
        REQUIRE_MESSAGE(read, read.error);
        CHECK(b.get(*read) == (kValues.at(key).first.is_boolean() ? 1 : kValues.at(key).first.get<std::int64_t>()));
        const json echo = io::amd_request_to_json(*read);
        REQUIRE(echo.contains(key));
        CHECK(echo[key] == kValues.at(key).first);
        const auto again = io::read_amd_request(echo, "echo");
        REQUIRE(again);
        CHECK(io::amd_request_to_json(*again) == echo);
    }
}

TEST_CASE("what an AMD request takes is the binding table") {
    const json a = io::handle("occupancy", json{{"gpu", "MI300X"}, {"carveout", 50}});
    const std::string err = a["error"].get<std::string>();
    std::string takes = "threads or block";
    for (const auto& b : io::amd_bindings()) takes += ", " + std::string(b.spec->key);
    CHECK(err == "carveout: applies to NVIDIA GPUs only; MI300X is an AMD GPU (AMD takes " + takes + ")");
    // The AMD-only fields: arch and the bound fields the CUDA launch does not bind; an NVIDIA GPU refuses them.
    std::string only;
    for (const io::FieldSpec* s : io::amd_only_fields()) only += std::string(only.empty() ? "" : ",") + std::string(s->key);
    CHECK(only == "arch,agprs,sgprs,wave_size,cu_mode");
    const json n = io::handle("occupancy", json{{"gpu", "A100"}, {"sgprs", 40}});
    CHECK(n["error"].get<std::string>().starts_with("sgprs: applies to AMD GPUs only"));
}

// LLVM AMDGPUUsage, "amdgpu-flat-work-group-size"="min,max" (HIP's __launch_bounds__ sets it; the code
// object's .max_flat_workgroup_size): a workgroup larger than max is undefined behaviour and HIP
// refuses the launch. As for CUDA's max_threads, the answer is the launch's failure, not a refusal.
TEST_CASE("AMD max_threads: a workgroup over the kernel's max_flat_workgroup_size fails to launch") {
    const json over = io::handle("occupancy", json{{"gpu", "MI300X"}, {"threads", 512}, {"regs", 32}, {"max_threads", 256}});
    REQUIRE(over.contains("blocks_per_sm"));
    CHECK(over["blocks_per_sm"] == 0);
    CHECK(over["error"] ==
          "threads 512 exceeds the kernel's max_flat_workgroup_size 256: the launch fails (hipErrorInvalidValue); launch at most that "
          "many");
    CHECK(over["input"]["max_threads"] == 256);
    // At the bound it answers as without it (MI300X, 256 threads of 32 VGPRs: 8 waves per SIMD,
    // the wave slots; docs/AMD.md), and the echo leaves the default out.
    const json at = io::handle("occupancy", json{{"gpu", "MI300X"}, {"threads", 256}, {"regs", 32}, {"max_threads", 256}});
    const json none = io::handle("occupancy", json{{"gpu", "MI300X"}, {"threads", 256}, {"regs", 32}});
    CHECK(at["error"].is_null());
    CHECK(at["waves_per_simd"] == none["waves_per_simd"]);
    CHECK(at["blocks_per_sm"] == none["blocks_per_sm"]);
    CHECK_FALSE(none["input"].contains("max_threads"));
    CHECK(none["waves_per_simd"] == 8);
}

// A compiled kernel brings its own .max_flat_workgroup_size (the artefact kinds read it per kernel),
// so an artefact request refuses max_threads as it refuses regs.
TEST_CASE("AMD max_threads comes from the artefact in ptxas and kernels") {
    std::ifstream in(std::string(OCC_SOURCE_DIR) + "/tests/fixtures/amd/calls_gfx942.s");
    REQUIRE(in);
    const std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const json a = io::handle("ptxas", json{{"log", log}, {"arch", "gfx942"}, {"max_threads", 256}});
    CHECK(a["error"].get<std::string>().starts_with("max_threads: comes from the "));
    const json ok = io::handle("ptxas", json{{"log", log}, {"arch", "gfx942"}});
    CHECK(ok["error"].is_null());
    CHECK_FALSE(ok["kernels"].empty());
}
