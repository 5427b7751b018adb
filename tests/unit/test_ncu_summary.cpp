// test_ncu_summary.cpp — `ncu --print-summary per-kernel` (three value columns per metric: minimum,
// maximum, average) and reports without "# SMs" (tests/fixtures/ncu/README.md cites the public
// layouts each fixture reproduces).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "ncu_helpers.hpp"
#include "occ/io/ncu.hpp"

namespace {

using occ::io::json;
using occ::io::NcuStatus;

using ncu_test::fixture;

using ncu_test::difference;

const occ::io::NcuNotCompared* not_compared(const occ::io::NcuKernelAnswer& k, const std::string& field) {
    for (const auto& n : k.not_compared)
        if (n.field == field) return &n;
    return nullptr;
}

}  // namespace

TEST_CASE("ncu summary: three columns per line are read as minimum, maximum and average, the unit kept") {
    const occ::io::NcuReport rep = occ::io::parse_ncu(fixture("summary_per_kernel.txt"));
    REQUIRE(rep.kernels.size() == 2);
    const occ::io::NcuKernel& k = rep.kernels[0];
    CHECK(k.name == "scan_tiles(const int *, int *, int)");
    CHECK(k.invocations == 12);
    CHECK(k.cc_major == 8);
    CHECK(k.cc_minor == 9);
    // "Shared Memory Configuration Size  Kbyte  16.38  16.38  16.38" is 16 KiB, not 16.38 bytes.
    const occ::io::NcuValue* cfg = k.get("shared_memory_configuration_size");
    REQUIRE(cfg != nullptr);
    CHECK(cfg->unit == "Kbyte");
    CHECK(cfg->value == 16384);
    CHECK(cfg->summary);
    CHECK_FALSE(cfg->varies());
    CHECK(k.get("grid_size")->value == 2048);  // "2,048.00"
    CHECK(k.get("registers_per_thread")->value == 30);
    CHECK(k.get("registers_per_thread")->unit == "register/thread");
    CHECK(k.get("sms")->value == 24);
    const occ::io::NcuValue* ach = k.get("achieved_occupancy");
    REQUIRE(ach != nullptr);
    CHECK(ach->varies());
    CHECK(ach->printed_min == "71.02");
    CHECK(ach->printed_max == "84.66");
    CHECK(ach->value == doctest::Approx(79.31));
    CHECK(ach->min == doctest::Approx(71.02));
    CHECK(ach->max == doctest::Approx(84.66));
    // The second kernel's configuration varied: 32.77 to 65.54 KB, average 49.15.
    const occ::io::NcuValue* cfg2 = rep.kernels[1].get("shared_memory_configuration_size");
    REQUIRE(cfg2 != nullptr);
    CHECK(cfg2->varies());
    CHECK(cfg2->min == 32768);
    CHECK(cfg2->max == 65536);
    CHECK(rep.kernels[1].invocations == 8);
}

TEST_CASE("ncu summary: a one-value line is compared, a varied one is not compared with the reason, never a contradiction") {
    auto a = occ::io::answer_ncu(json{{"text", fixture("summary_per_kernel.txt")}});
    REQUIRE(a);
    REQUIRE(a->kernels.size() == 2);
    const auto& scan = a->kernels[0];
    REQUIRE(scan.device.has_value());
    CHECK(scan.device->sm_count == 24);
    // 16 KiB is one of cc 8.9's carveouts and occ's rule predicts it: the line agrees.
    CHECK(difference(scan, "shared_memory_configuration_size") == nullptr);
    CHECK(not_compared(scan, "shared_memory_configuration_size") == nullptr);
    CHECK(scan.result.limit_registers == 8);
    CHECK(scan.differences.empty());
    const auto* ach = not_compared(scan, "achieved_occupancy");
    REQUIRE(ach != nullptr);
    CHECK(ach->why.find("varied over its 12 invocations") != std::string::npos);
    CHECK(ach->why.find("minimum 71.02, maximum 84.66, average 79.31 %") != std::string::npos);
    const json j = occ::io::to_json(*a);
    CHECK(j["kernels"][0]["lines"]["shared_memory_configuration_size"] == "agrees");
    CHECK(j["kernels"][0]["lines"]["achieved_occupancy"] == "not_compared");
    CHECK(j["kernels"][0]["lines"]["waves_per_sm"] == "agrees");
    CHECK(j["kernels"][0]["invocations"] == 12);
    CHECK(j["kernels"][0]["printed"]["achieved_occupancy"]["minimum"] == "71.02");

    const auto& gather = a->kernels[1];
    for (const auto& d : gather.differences) {
        INFO(d.field << ": " << d.why);
        CHECK(d.status != NcuStatus::contradiction);
    }
    // The driver's configuration and the limit ncu computed from it varied: not compared, with the reason.
    for (const char* key : {"shared_memory_configuration_size", "block_limit_shared_mem"}) {
        CAPTURE(key);
        CHECK(difference(gather, key) == nullptr);
        const auto* n = not_compared(gather, key);
        REQUIRE(n != nullptr);
        CHECK(n->why.find("varied over its 8 invocations") != std::string::npos);
    }
    CHECK(not_compared(gather, "shared_memory_configuration_size")->why.find("minimum 32.77, maximum 65.54, average 49.15 Kbyte") !=
          std::string::npos);
    // The achieved figures go above 100 % and 48 warps: the summary's arithmetic, said so, not a mismatch with occ's bound.
    for (const char* key : {"achieved_occupancy", "achieved_active_warps_per_sm"}) {
        CAPTURE(key);
        CHECK(difference(gather, key) == nullptr);
        const auto* n = not_compared(gather, key);
        REQUIRE(n != nullptr);
        CHECK(n->why.find("which no launch can reach") != std::string::npos);
    }
    CHECK(not_compared(gather, "achieved_occupancy")->why.find("goes above 100 %") != std::string::npos);
    CHECK(not_compared(gather, "achieved_active_warps_per_sm")->why.find("goes above 48 warps") != std::string::npos);
    // What did not vary still agrees: 40 registers -> 3 blocks, 1.33 waves on 24 SMs.
    CHECK(gather.result.blocks_per_sm == 3);
    CHECK(gather.differences.empty());
    const auto rows = occ::io::ncu_rows(gather);
    bool marked = false;
    for (const auto& r : rows)
        if (r.key == "shared_memory_configuration_size") marked = std::string(r.mark()) == "n/c" && r.not_compared != nullptr;
    CHECK(marked);
}

TEST_CASE("ncu summary: the CSV summary (--csv --print-summary per-kernel) reads like the text one") {
    auto a = occ::io::answer_ncu(json{{"text", fixture("summary_per_kernel.csv")}});
    REQUIRE(a);
    CHECK(a->report.format == "csv-summary");
    REQUIRE(a->kernels.size() == 1);
    const auto& k = a->kernels[0];
    CHECK(k.measured.invocations == 12);
    CHECK(k.measured.get("shared_memory_configuration_size")->value == 16384);
    REQUIRE(k.device.has_value());
    CHECK(k.device->sm_count == 24);
    CHECK(k.differences.empty());
    REQUIRE(not_compared(k, "achieved_occupancy") != nullptr);
}

TEST_CASE("ncu summary: a launch input that varied over the invocations gives no prediction, and says why") {
    std::string text = fixture("summary_per_kernel.txt");
    const std::string from = "Registers Per Thread             register/thread        30.00        30.00        30.00";
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), "Registers Per Thread             register/thread        30.00        32.00        31.00");
    auto a = occ::io::answer_ncu(json{{"text", text}});
    REQUIRE(a);
    const auto& k = a->kernels[0];
    CHECK_FALSE(k.launch.has_value());
    CHECK(k.differences.empty());
    const auto* n = not_compared(k, "block_limit_registers");
    REQUIRE(n != nullptr);
    CHECK(n->why.find("registers_per_thread 30.00 to 32.00") != std::string::npos);
}

TEST_CASE("ncu without # SMs: waves occ cannot compute are not compared, with the SM counts and catalogue GPUs that fit") {
    // 48 blocks of 128 threads, ncu's block count 12: 0.10 waves stands for 39 to 42 SMs.
    auto a = occ::io::answer_ncu(json{{"text", fixture("older_no_sms_small_grid.txt")}});
    REQUIRE(a);
    REQUIRE(a->kernels.size() == 1);
    const auto& k = a->kernels[0];
    CHECK_FALSE(k.sm_count_known);
    CHECK(difference(k, "waves_per_sm") == nullptr);
    const auto* w = not_compared(k, "waves_per_sm");
    REQUIRE(w != nullptr);
    CHECK(w->why.find("fits 39 to 42 SMs") != std::string::npos);
    CHECK(w->why.find("RTX-3070-Laptop (40 SMs)") != std::string::npos);
    CHECK(k.differences.empty());
    // With --cc only (a compute capability, no SM count) the waves are not predicted with one SM.
    auto c = occ::io::answer_ncu(json{{"text", fixture("older_no_sms_small_grid.txt")}, {"cc", "8.6"}});
    REQUIRE(c);
    const auto& kc = c->kernels[0];
    CHECK_FALSE(kc.sm_count_known);
    CHECK(difference(kc, "waves_per_sm") == nullptr);
    REQUIRE(not_compared(kc, "waves_per_sm") != nullptr);
    CHECK(occ::io::to_json(*c)["kernels"][0]["predicted"]["waves_per_sm"].is_null());
    // A GPU that names the SM count compares them: 48 / (12 x 40) = 0.10.
    auto g = occ::io::answer_ncu(json{{"text", fixture("older_no_sms_small_grid.txt")}, {"gpu", "NVIDIA GeForce RTX 3070 Laptop GPU"}});
    REQUIRE(g);
    CHECK(g->kernels[0].sm_count_known);
    CHECK(not_compared(g->kernels[0], "waves_per_sm") == nullptr);
    CHECK(g->kernels[0].differences.empty());
    // The older dated report (16 blocks at 0.07 waves): a range with no catalogue GPU of cc 8.6 named is said so too.
    auto d = occ::io::answer_ncu(json{{"text", fixture("public_dated_ga104.txt")}});
    REQUIRE(d);
    const auto* dw = not_compared(d->kernels[0], "waves_per_sm");
    REQUIRE(dw != nullptr);
    CHECK(dw->why.find("the report prints no # SMs") != std::string::npos);
}
