// test_warp_specialisation.cpp — Hopper/Blackwell resources: setmaxnreg register plans,
// Tensor Memory as an effective limit, architecture-specific builds. Each known answer cites its source.
#include <doctest/doctest.h>

#include <vector>

#include "occ/device.hpp"
#include "occ/io/api.hpp"
#include "occ/io/binding.hpp"
#include "occ/io/ptxas.hpp"
#include "occ/occupancy.hpp"
#include "occ/register_pool.hpp"

namespace io = occ::io;
using io::json;

namespace {
const occ::Device& gpu(const char* name) {
    static std::vector<occ::Device> keep;
    keep.reserve(16);
    keep.push_back(*occ::find_gpu(name));
    return keep.back();
}
occ::RegisterPoolAnswer plan(const char* g, int threads, int regs, std::vector<int> p) {
    occ::KernelResources k;
    k.regs_per_thread = regs;
    occ::LaunchConfig l;
    l.threads = threads;
    return occ::register_pool(gpu(g).arch, k, l, p);
}
}  // namespace

// FlashAttention-3, Dao-AILab/flash-attention hopper/flash_fwd_kernel_sm90.h:82-83 (commit 0251105a):
// 1 producer + 2 consumer warpgroups launch at 168 registers, producer 24, consumers 240; 1 + 3 launch at
// 128 with 32 / 160. Both fill the pool exactly (3 x 168 = 24 + 2 x 240; 4 x 128 = 32 + 3 x 160).
TEST_CASE("register pool: FlashAttention-3's plans fit exactly") {
    const occ::RegisterPoolAnswer a = plan("H100", 384, 168, {24, 240, 240});
    REQUIRE(a.error.empty());
    CHECK(a.warpgroups == 3);
    CHECK(a.pool == 168 * 384);
    CHECK(a.planned == (24 + 240 + 240) * 128);
    CHECK(a.left == 0);
    CHECK(a.fits);
    CHECK(a.max_consumer_regs == 240);
    CHECK(std::string(a.plan[0].action) == "dec");
    CHECK(std::string(a.plan[1].action) == "inc");
    const occ::RegisterPoolAnswer b = plan("H100", 512, 128, {32, 160, 160, 160});
    REQUIRE(b.error.empty());
    CHECK(b.fits);
    CHECK(b.left == 0);
    CHECK(b.max_consumer_regs == 160);
}

// CUTLASS sm90_gemm_tma_warpspecialized_cooperative.hpp:150-151: LoadRegisterRequirement 40,
// MmaRegisterRequirement 232, 384 threads at __launch_bounds__(384, 1) (168 registers).
TEST_CASE("register pool: CUTLASS's cooperative 40/232 plan fits with 8 per thread to spare") {
    const occ::RegisterPoolAnswer a = plan("H100", 384, 168, {40, 232, 232});
    REQUIRE(a.error.empty());
    CHECK(a.fits);
    CHECK(a.left == (504 - 504) * 128);
    // The advisor's largest consumer count with a producer at 40: (504 - 40) / 2 = 232.
    CHECK(a.max_consumer_regs == 232);
}

TEST_CASE("register pool: a plan over the pool is a hang risk, and names the largest count that fits") {
    const occ::RegisterPoolAnswer a = plan("H100", 384, 168, {24, 240, 256});
    REQUIRE(a.error.empty());
    CHECK_FALSE(a.fits);
    CHECK(a.left == (504 - 520) * 128);
    CHECK(a.summary.find("hang risk") != std::string::npos);
    CHECK(a.summary.find("at most 240") != std::string::npos);
    // The launch count as allocated: 163 registers are allocated as 168 (256 per warp).
    CHECK(plan("H100", 384, 163, {24, 240, 240}).launch_regs == 168);
}

TEST_CASE("register pool: refusals name the rule") {
    // PTX ISA setmaxnreg: "in the range 24 to 256 (both inclusive) and must be a multiple of 8".
    CHECK(plan("H100", 384, 168, {24, 250, 240}).error.find("24..256 in steps of 8") != std::string::npos);
    CHECK(plan("H100", 384, 168, {16, 240, 240}).error.find("warpgroup_regs[0]") != std::string::npos);
    CHECK(plan("H100", 384, 168, {24, 240}).error.find("has 3") != std::string::npos);
    CHECK(plan("H100", 200, 168, {24, 240}).error.find("not whole warpgroups") != std::string::npos);
    // sm_90a is the first target with setmaxnreg.
    CHECK(plan("A100-SXM4-80GB", 384, 168, {24, 240, 240}).error.find("9.0 or newer") != std::string::npos);
}

TEST_CASE("register pool: through the occupancy request, which keeps its block count") {
    const json with = io::api_occupancy(json::parse(R"({"gpu":"H100","threads":384,"regs":168,"warpgroup_regs":[24,240,240]})"));
    const json without = io::api_occupancy(json::parse(R"({"gpu":"H100","threads":384,"regs":168})"));
    REQUIRE(with["error"].is_null());
    CHECK(with["blocks_per_sm"] == without["blocks_per_sm"]);
    CHECK(with["register_pool"]["fits"] == true);
    CHECK(with["register_pool"]["left"] == 0);
    CHECK(with["input"]["warpgroup_regs"] == json::array({24, 240, 240}));
    CHECK_FALSE(without.contains("register_pool"));
    const json bad = io::handle("occupancy", json::parse(R"({"gpu":"H100","threads":384,"warpgroup_regs":[24,"x"]})"));
    CHECK(bad["error"].get<std::string>().find("warpgroup_regs") != std::string::npos);
}

TEST_CASE("register pool: the app's typed plan takes what the request takes, by the same rule") {
    const auto& spec = io::fields::warpgroup_regs;
    CHECK(io::parse_int_list("24, 240,240", spec, 8) == std::vector<int>{24, 240, 240});
    CHECK(io::parse_int_list("", spec, 8) == std::vector<int>{});
    CHECK_FALSE(io::parse_int_list("24,250", spec, 8));                      // not a multiple of 8 (PTX ISA setmaxnreg)
    CHECK_FALSE(io::parse_int_list("16,240", spec, 8));                      // under 24
    CHECK_FALSE(io::parse_int_list("24,", spec, 8));                         // an empty entry
    CHECK_FALSE(io::parse_int_list("24,24,24,24,24,24,24,24,24", spec, 8));  // 9 warpgroups: over 1024 threads
    // gpc_sms reads through the same list reader: entries 1..64.
    CHECK(io::parse_int_list("18,18,16", io::fields::gpc_sms, 64) == std::vector<int>{18, 18, 16});
    CHECK_FALSE(io::parse_int_list("18,65", io::fields::gpc_sms, 64));
}

// PTX ISA "Tensor Memory": 512 columns per CTA/SM; tcgen05.alloc takes a power of two >= 32 and "blocks if
// the requested amount of Tensor Memory is not available and unblocks as soon as [it] becomes available".
TEST_CASE("tmem: blocks beyond 512 / columns wait; the resident count stays cuda_occupancy.h's") {
    occ::KernelResources k;
    k.regs_per_thread = 64;
    occ::LaunchConfig l;
    l.threads = 128;
    const occ::OccupancyResult plain = occ::compute_occupancy(gpu("B200"), k, l);
    k.tmem_columns = 256;
    const occ::OccupancyResult r = occ::compute_occupancy(gpu("B200"), k, l);
    CHECK(r.blocks_per_sm == plain.blocks_per_sm);
    CHECK(r.blocks_per_sm == 8);  // 64 regs x 128 threads: registers allow 8
    CHECK(r.limiters == plain.limiters);
    CHECK(r.limit_tmem == 2);
    CHECK(occ::effective_blocks_per_sm(r) == 2);
    CHECK(occ::effective_limiters(r) == occ::kLimitTmem);
    k.tmem_columns = 32;  // 16 blocks' worth: more than the 8 resident
    const occ::OccupancyResult small = occ::compute_occupancy(gpu("B200"), k, l);
    CHECK(small.limit_tmem == 16);
    CHECK(occ::effective_blocks_per_sm(small) == 8);
    CHECK(occ::effective_limiters(small) == small.limiters);
    k.tmem_columns = 64;  // exactly 8: both name it
    const occ::OccupancyResult equal = occ::compute_occupancy(gpu("B200"), k, l);
    CHECK(occ::effective_limiters(equal) == (equal.limiters | occ::kLimitTmem));
    // No Tensor Memory before 10.0 or on 12.x: no effective limit.
    k.tmem_columns = 256;
    CHECK(occ::compute_occupancy(gpu("H100"), k, l).limit_tmem == occ::kUnlimited);
    CHECK(occ::compute_occupancy(gpu("RTX5090"), k, l).limit_tmem == occ::kUnlimited);
    CHECK(occ::compute_occupancy(gpu("B300"), k, l).limit_tmem == 2);
}

TEST_CASE("tmem: the request's rule (power of two 32..512) and the answer's effective block") {
    const json a = io::api_occupancy(json::parse(R"({"gpu":"B200","threads":128,"regs":64,"tmem_columns":256})"));
    REQUIRE(a["error"].is_null());
    CHECK(a["blocks_per_sm"] == 8);
    CHECK(a["limits"]["tmem"] == 2);
    CHECK(a["effective"]["blocks_per_sm"] == 2);
    CHECK(a["effective"]["waiting_blocks"] == 6);
    CHECK(a["effective"]["limiters"] == json::array({"tmem"}));
    CHECK(a["effective"]["occupancy"].get<double>() == doctest::Approx(8.0 / 64));
    CHECK(a["input"]["tmem_columns"] == 256);
    const json none = io::api_occupancy(json::parse(R"({"gpu":"B200","threads":128,"regs":64})"));
    CHECK_FALSE(none.contains("effective"));
    CHECK_FALSE(none["limits"].contains("tmem"));
    for (const char* bad :
         {R"({"gpu":"B200","tmem_columns":100})", R"({"gpu":"B200","tmem_columns":16})", R"({"gpu":"B200","tmem_columns":1024})"}) {
        CAPTURE(bad);
        const json e = io::handle("occupancy", json::parse(bad));
        REQUIRE(e["error"].is_string());
        CHECK(e["error"].get<std::string>().find("tmem_columns") != std::string::npos);
    }
}

// CUDA C++ Programming Guide (13.0) "Feature Availability": an sm_XYa build runs only on X.Y; an
// sm_XYf build on the family's later minors (100f: 10.0 and 10.3); plain SASS on the same major.
TEST_CASE("arch suffixes: an 'a' build runs only on its own compute capability") {
    const occ::ArchRules& b300 = gpu("B300").arch;  // 10.3
    const occ::ArchRules& b200 = gpu("B200").arch;  // 10.0
    CHECK_FALSE(occ::cubin_runs_on(10, 0, b300, 'a'));
    CHECK(occ::cubin_runs_on(10, 0, b200, 'a'));
    CHECK(occ::cubin_runs_on(10, 0, b300, 'f'));
    CHECK(occ::cubin_runs_on(10, 0, b300));
    CHECK_FALSE(occ::cubin_runs_on(10, 3, b200, 'f'));
    CHECK(occ::arch_suffix("sm_90a") == 'a');
    CHECK(occ::arch_suffix("sm_100f") == 'f');
    CHECK(occ::arch_suffix("sm_90") == 0);
    CHECK(occ::arch_suffix("compute_120a") == 'a');
    // CUDA 13.0 Features Archive: "SM101 has been renumbered as SM110": 10.1 code runs on Thor (11.0).
    CHECK(occ::cubin_runs_on(10, 1, gpu("Jetson-AGX-Thor").arch));
    const occ::ArchRules* cc101 = occ::find_arch(10, 1);
    const occ::ArchRules* cc110 = occ::find_arch(11, 0);
    REQUIRE(cc101);
    REQUIRE(cc110);
    CHECK(cc101->max_threads_per_sm == cc110->max_threads_per_sm);
    CHECK(cc101->max_blocks_per_sm == cc110->max_blocks_per_sm);
    CHECK(cc101->tmem_columns_per_sm == 512);
}

TEST_CASE("arch suffixes: a log's sm_100a build is not used on a 10.3 GPU") {
    const char* log =
        "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_100a'\n"
        "ptxas info    : Function properties for _Z1kPf\n"
        "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 40 registers, used 1 barriers, 380 bytes cmem[0]\n";
    const json on_b300 = io::api_ptxas(json{{"log", log}, {"gpu", "B300"}, {"threads", 128}});
    CHECK(on_b300["kernels"].empty());
    REQUIRE(on_b300["skipped"].size() == 1);
    CHECK(on_b300["skipped"][0]["reason"].get<std::string>().find("runs only on cc 10.0") != std::string::npos);
    const json on_b200 = io::api_ptxas(json{{"log", log}, {"gpu", "B200"}, {"threads", 128}});
    CHECK(on_b200["kernels"].size() == 1);
}

// ptxas 13.0's own message, as it printed it here for a kernel with __launch_bounds__(384) and no
// minimum block count (the cause NVIDIA/Fuser #3972 and NVIDIA/cutlass #3406 report).
TEST_CASE("ptxas log: 'setmaxnreg ignored' is read with its cause and what lifts it") {
    const char* log =
        "ptxas info    : (C7508) Potential Performance Loss: 'setmaxnreg' ignored; unable to determine register count at entry.\n"
        "ptxas info    : 0 bytes gmem\n"
        "ptxas info    : Compiling entry function '_Z9ws_kernelPf' for 'sm_90a'\n"
        "ptxas info    : Function properties for _Z9ws_kernelPf\n"
        "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 10 registers, used 0 barriers\n";
    const io::PtxasLog l = io::parse_ptxas_log(log);
    REQUIRE(l.setmaxnreg_ignored.size() == 1);
    CHECK(l.setmaxnreg_ignored[0] == "unable to determine register count at entry");
    CHECK(io::setmaxnreg_advice(l.setmaxnreg_ignored[0]).find("__launch_bounds__") != std::string::npos);
    const json a = io::api_ptxas(json{{"log", log}, {"gpu", "H100"}, {"threads", 384}});
    REQUIRE(a["setmaxnreg_ignored"].size() == 1);
    CHECK(a["setmaxnreg_ignored"][0]["reason"] == "unable to determine register count at entry");
    CHECK_FALSE(io::api_ptxas(json{{"log", std::string(log).substr(std::string(log).find('\n') + 1)}, {"gpu", "H100"}})
                    .contains("setmaxnreg_ignored"));
}
