// The setmaxnreg plan cases and Tensor Memory cases of cuda_validation (report/src/regpool.cpp,
// README sections 6 and 7): the plan list is the one the issue names, occ's model (occ::register_pool
// called here directly on the same plans) gives the answers the harness expects, the kernels in
// src/kernels_regpool.cu / kernels_tmem.cu are exactly the table's, and measurements turn into the
// right verdicts. Measurements here are SYNTHETIC.
//   Known answers: pool = launch count x threads; 24+240+240 = 40+232+232 = 504 = 3 x 168 and
//   32+3x160 = 512 = 4 x 128 fit exactly, 24+240+256 = 520 > 504 does not (PTX ISA "setmaxnreg");
//   ptxas gives 168 registers at entry for __launch_bounds__(384,1), 128 for (512,1) (nvcc 13.0 -Xptxas -v,
//   rechecked by nvcc_build_check.sh); Tensor Memory: 512 columns per SM, so 512 / columns blocks hold
//   columns at once (PTX ISA "Tensor Memory Allocation").
#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "occ/register_pool.hpp"
#include "occ/validation/regpool.hpp"

using namespace occ::validation;

namespace {

std::string read(const std::string& path) {
    std::ifstream f(path);
    REQUIRE_MESSAGE(f.good(), "cannot read " << path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

occ::Device hopper() { return *occ::device_for_cc(9, 0); }
occ::Device b200() { return *occ::device_for_cc(10, 0); }

}  // namespace

TEST_CASE("setmaxnreg plans: the issue's four, the one that does not fit last") {
    const auto v = regpool_cases();
    REQUIRE(v.size() == 4);
    CHECK(v[0].plan == std::vector<int>{24, 240, 240});
    CHECK(v[1].plan == std::vector<int>{32, 160, 160, 160});
    CHECK(v[2].plan == std::vector<int>{40, 232, 232});
    CHECK(v[3].plan == std::vector<int>{24, 240, 256});
    CHECK(v[0].threads == 384);
    CHECK(v[1].threads == 512);
    CHECK(v[3].threads == 384);
    CHECK(v[0].launch_regs() == 168);
    CHECK(v[1].launch_regs() == 128);
    CHECK(v[0].kernel == "occv_regpool_384_24_240_240");
    CHECK(v[0].id == "regpool/t384/24-240-240");
    // Everything after the first plan that does not fit must be skipped in a hang: it is the last.
    for (std::size_t i = 0; i + 1 < v.size(); ++i) CHECK(predict_regpool(v[i], hopper(), v[i].launch_regs()).pool.fits);
}

TEST_CASE("setmaxnreg plans: the harness's expectations are occ::register_pool's answers on the same plans") {
    const occ::Device d = hopper();
    const bool expect_fits[] = {true, true, true, false};
    const int expect_left[] = {0, 0, 0, -16 * 128};
    const auto v = regpool_cases();
    for (std::size_t i = 0; i < v.size(); ++i) {
        const RegPlanCase& c = v[i];
        occ::KernelResources k;
        k.regs_per_thread = c.launch_regs();
        occ::LaunchConfig l;
        l.threads = c.threads;
        const occ::RegisterPoolAnswer direct = occ::register_pool(d.arch, k, l, c.plan);
        CAPTURE(c.id);
        REQUIRE(direct.error.empty());
        CHECK(direct.fits == expect_fits[i]);
        CHECK(direct.left == expect_left[i]);
        CHECK(direct.pool == c.launch_regs() * c.threads);
        const RegPlanPrediction p = predict_regpool(c, d, c.launch_regs());
        CHECK(p.pool.fits == direct.fits);
        CHECK(p.pool.summary == direct.summary);
        CHECK(p.blocks_per_sm == 1);  // the launch count sets occupancy: 384 x 168 and 512 x 128 leave room for one block
        const Case r = regpool_result(c, d, std::nullopt, kRegPoolNeeds);
        REQUIRE(r.checks.size() == 3);
        CHECK(r.checks[0].name == "launch_regs");
        CHECK(r.checks[1].name == "blocks_per_sm");
        CHECK(r.checks[2].name == "fits");
        CHECK(r.checks[2].predicted == (direct.fits ? 1 : 0));
        CHECK(evaluate(r) == Status::unverified);
    }
    // The plan that does not fit, in occ's words.
    CHECK(predict_regpool(v[3], d, 168).pool.summary.find("hang risk") == 0);
}

TEST_CASE("setmaxnreg kernels: kernels_regpool.cu instantiates exactly the table's plans with __launch_bounds__(threads, 1)") {
    const std::string src = read(std::string(OCC_VALIDATION_SOURCES) + "/kernels_regpool.cu");
    const std::regex def(R"(OCCV_REGPOOL\((occv_regpool_\w+), (\d+), (\d+), (\d+), (\d+), (\d+), (\d+)\))");
    std::vector<RegPlanCase> found;
    for (auto it = std::sregex_iterator(src.begin(), src.end(), def); it != std::sregex_iterator(); ++it) {
        const std::smatch& m = *it;
        RegPlanCase c;
        c.kernel = m[1];
        c.threads = std::stoi(m[2]);
        CHECK_MESSAGE(std::stoi(m[3]) == c.launch_regs(), c.kernel << ": launch count in the source differs from the table's");
        for (int g = 4; g < 4 + c.threads / 128; ++g) c.plan.push_back(std::stoi(m[g]));
        found.push_back(c);
    }
    const auto v = regpool_cases();
    REQUIRE(found.size() == v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        CHECK(found[i].kernel == v[i].kernel);
        CHECK(found[i].threads == v[i].threads);
        CHECK(found[i].plan == v[i].plan);
        CHECK(src.find("{\"" + v[i].kernel + "\", reinterpret_cast<const void*>(&" + v[i].kernel + ")}") != std::string::npos);
    }
    CHECK(src.find("__launch_bounds__(T, 1)") != std::string::npos);
    CHECK(src.find("__CUDA_ARCH_FEAT_SM90_ALL") != std::string::npos);
}

TEST_CASE("setmaxnreg results: held at once = fits, serialised or hung = does not") {
    const auto v = regpool_cases();
    const occ::Device d = hopper();
    RegPlanMeasurement all;
    all.regs = 168;
    all.runtime = 1;
    all.resident = 1;
    all.blocks = all.completed = all.overlapped = 396;
    const Case ok = regpool_result(v[0], d, all);
    CHECK(evaluate(ok) == Status::match);
    CHECK(ok.checks[2].measured == 1);

    RegPlanMeasurement serial = all;
    serial.overlapped = 0;
    const Case s = regpool_result(v[3], d, serial);
    CHECK(s.checks[2].predicted == 0);
    CHECK(s.checks[2].measured == 0);
    CHECK(evaluate(s) == Status::match);
    CHECK(s.note.find("serialised") != std::string::npos);
    // A fitting plan observed serialised is a mismatch.
    CHECK(evaluate(regpool_result(v[0], d, serial)) == Status::mismatch);

    RegPlanMeasurement hang = all;
    hang.timed_out = true;
    hang.completed = 0;
    hang.resident.reset();
    const Case h = regpool_result(v[3], d, hang);
    CHECK(h.checks[2].measured == 0);
    CHECK_FALSE(h.checks[1].measured.has_value());
    CHECK(h.note.rfind("HANG", 0) == 0);

    // ptxas giving a different entry count than the table assumes is a mismatch on launch_regs.
    RegPlanMeasurement other = all;
    other.regs = 160;
    CHECK_FALSE(regpool_result(v[0], d, other).checks[0].agrees());
}

TEST_CASE("held_at_once and max_concurrent") {
    CHECK(held_at_once({10, 11, 12}, {20, 21, 22}));
    CHECK_FALSE(held_at_once({10, 11, 25}, {20, 21, 30}));  // the last took its count after the first gave back
    CHECK_FALSE(held_at_once({}, {}));
    // SM 0: [0,10) [5,15) [10,20) -> at most 2 at once ([0,10) ends as [10,20) starts); SM 1: three at once.
    CHECK(max_concurrent({0, 0, 0, 1, 1, 1}, {1, 5, 10, 1, 2, 3}, {10, 15, 20, 9, 9, 9}) == 3);
    CHECK(max_concurrent({0, 0, 0}, {1, 5, 10}, {10, 15, 20}) == 2);
    CHECK(max_concurrent({0}, {0}, {0}) == 0);  // never written: not counted
}

TEST_CASE("Tensor Memory cases: 32..512 columns, 512 / columns blocks at once on a B200, skipped elsewhere") {
    const auto v = tmem_cases();
    REQUIRE(v.size() == 5);
    const occ::Device d = b200();
    for (const TmemCase& c : v) {
        CAPTURE(c.id);
        CHECK(c.kernel == "occv_tmem_" + std::to_string(c.columns));
        CHECK(predict_tmem(c, d, 16) == 512 / c.columns);
        const Case skipped = tmem_result(c, d, std::nullopt, kTmemNeeds);
        CHECK(evaluate(skipped) == Status::unverified);
        CHECK(skipped.note.find("needs a B200") != std::string::npos);
        TmemMeasurement m;
        m.regs = 16;
        m.holding = 512 / c.columns;
        m.blocks = m.completed = 100;
        CHECK(evaluate(tmem_result(c, d, m)) == Status::match);
    }
    const std::string src = read(std::string(OCC_VALIDATION_SOURCES) + "/kernels_tmem.cu");
    for (const TmemCase& c : v) CHECK(src.find("OCCV_TMEM(" + std::to_string(c.columns) + ")") != std::string::npos);
    CHECK(src.find("__CUDA_ARCH_FEAT_SM100_ALL") != std::string::npos);
}
