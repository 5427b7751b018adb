// test_ncu.cpp — the Nsight Compute reader on one fixture per format (tests/fixtures/ncu, each
// modelled on a public paste cited in its README), and occ's prediction next to the report.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "occ/io/ncu.hpp"

namespace {

using occ::io::json;

std::string fixture(const std::string& name) {
    std::ifstream f(std::string(OCC_SOURCE_DIR) + "/tests/fixtures/ncu/" + name, std::ios::binary);
    REQUIRE(f);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// A public report's launch rebuilt on a device of its compute capability.
struct ReportLaunch {
    occ::Device dev;
    occ::KernelResources k;
    occ::LaunchConfig l;
};
ReportLaunch launch_of(const json& r) {
    int major = 0, minor = 0;
    REQUIRE(occ::parse_cc(r["cc"].get<std::string>(), major, minor));
    auto dev = occ::device_for_cc(major, minor);
    REQUIRE(dev.has_value());
    ReportLaunch x{*dev, {}, {}};
    x.l.threads = r["block_size"].get<int>();
    x.k.regs_per_thread = r["registers_per_thread"].get<int>();
    x.k.smem_static = r["static_shared_memory_per_block"].is_number() ? r["static_shared_memory_per_block"].get<std::int64_t>() : 0;
    x.l.smem_dynamic = r["dynamic_shared_memory_per_block"].is_number() ? r["dynamic_shared_memory_per_block"].get<std::int64_t>() : 0;
    x.k.optin = x.k.smem_static + x.l.smem_dynamic > x.dev.arch.smem_per_block;
    return x;
}

json expected() { return json::parse(fixture("expected.json")); }

}  // namespace

TEST_CASE("ncu: every fixture's kernels, launch shapes and values read as the README lists them") {
    const json all = expected();
    for (auto it = all.begin(); it != all.end(); ++it) {
        INFO("fixture " << it.key());
        const occ::io::NcuReport rep = occ::io::parse_ncu(fixture(it.key()));
        REQUIRE(rep.kernels.size() == it->size());
        for (std::size_t i = 0; i < it->size(); ++i) {
            const json& e = (*it)[i];
            const occ::io::NcuKernel& k = rep.kernels[i];
            INFO("kernel " << i << " " << k.name);
            if (e.contains("name") && e["name"].is_string()) CHECK(k.name.rfind(e["name"].get<std::string>(), 0) == 0);
            if (e.contains("cc") && e["cc"].is_string())
                CHECK(std::to_string(k.cc_major) + "." + std::to_string(k.cc_minor) == e["cc"].get<std::string>());
            if (e.contains("cc") && e["cc"].is_null()) CHECK(k.cc_major == 0);
            if (e.contains("block") && e["block"].is_array() && e["block"][1].is_number()) {
                REQUIRE(k.block.has_value());
                for (int d = 0; d < 3; ++d)
                    CHECK((*k.block)[static_cast<std::size_t>(d)] == e["block"][static_cast<std::size_t>(d)].get<std::int64_t>());
            }
            if (e.contains("grid") && e["grid"].is_array() && e["grid"][1].is_number()) {
                REQUIRE(k.grid.has_value());
                for (int d = 0; d < 3; ++d)
                    CHECK((*k.grid)[static_cast<std::size_t>(d)] == e["grid"][static_cast<std::size_t>(d)].get<std::int64_t>());
            }
            for (auto m = e["measured"].begin(); m != e["measured"].end(); ++m) {
                INFO("value " << m.key());
                const occ::io::NcuValue* v = k.get(m.key());
                if (m->is_null()) {
                    CHECK(v == nullptr);  // never a number the report did not print
                } else {
                    REQUIRE(v != nullptr);
                    CHECK(std::fabs(v->value - m->get<double>()) < 1e-6);
                }
            }
        }
    }
}

TEST_CASE("ncu: values keep what was printed, the interval it can mean and the best reading") {
    auto v = occ::io::ncu_value("32.77", "Kbyte");
    REQUIRE(v);
    CHECK(v->value == 32768);
    CHECK(v->lo == doctest::Approx(32765));
    CHECK(v->hi == doctest::Approx(32775));
    CHECK(occ::io::ncu_value("8.19", "Kbyte")->value == 8192);
    CHECK(occ::io::ncu_value("1.02", "Kbyte/block")->value == 1024);
    CHECK(occ::io::ncu_value("102.40", "Kbyte")->value == 102400);
    CHECK(occ::io::ncu_value("167.94", "Kbyte")->value == 167936);
    CHECK(occ::io::ncu_value("4.22", "Kbyte/block")->value == 4224);  // no whole KiB fits: the 128-byte unit does
    CHECK(occ::io::ncu_value("2,048", "")->value == 2048);
    CHECK(occ::io::ncu_value("1,048,576", "thread")->value == 1048576);
    CHECK(occ::io::ncu_value("66.67", "%")->value == doctest::Approx(66.67));
    CHECK_FALSE(occ::io::ncu_value("2,04", ""));
    CHECK_FALSE(occ::io::ncu_value("n/a", ""));
    CHECK_FALSE(occ::io::ncu_value("", "byte"));
}

TEST_CASE("ncu: the prediction agrees with the report where the model is exact, and explains the driver's carveout") {
    auto a = occ::io::answer_ncu(json{{"text", fixture("default_two_kernels.txt")}});
    REQUIRE(a);
    REQUIRE(a->kernels.size() == 2);
    for (const auto& k : a->kernels) {
        REQUIRE(k.device.has_value());
        CHECK(k.device->sm_count == 82);
        for (const auto& d : k.differences) {
            INFO(k.measured.name << ": " << d.field);
            // Only the driver's configuration (and the limit ncu computes against it) may differ.
            CHECK((d.field == "shared_memory_configuration_size" || d.field == "block_limit_shared_mem"));
        }
    }
    const json j = occ::io::to_json(*a);
    CHECK(j["kernels"][0]["measured"]["theoretical_occupancy"] == 100);
    CHECK(j["kernels"][0]["predicted"]["theoretical_occupancy"] == 100);
    CHECK(j["kernels"][0]["predicted"]["block_limit_registers"] == 10);
    CHECK(j["kernels"][0]["measured"]["block_limit_barriers"].is_null());
}

TEST_CASE("ncu: bad input never crashes and says what is missing") {
    auto empty = occ::io::answer_ncu(json{{"text", "hello\nworld\n"}});
    REQUIRE(empty);
    CHECK(empty->kernels.empty());
    REQUIRE_FALSE(empty->report.diagnostics.empty());
    auto missing = occ::io::answer_ncu(json::object());
    REQUIRE_FALSE(missing);
    CHECK(missing.error.rfind("text: required", 0) == 0);
    auto truncated = occ::io::answer_ncu(json{{"text", fixture("truncated.txt")}});
    REQUIRE(truncated);
    REQUIRE_FALSE(truncated->kernels.empty());
    bool said = false;
    for (const auto& k : truncated->kernels) said |= !k.diagnostics.empty();
    CHECK(said);
}

TEST_CASE("ncu: on every gathered public report occ's register, warp and block-slot limits and theoretical occupancy equal ncu's") {
    // tests/fixtures/ncu/public_reports.json: numbers read from reports users published (each row
    // names its source); the launch is rebuilt from the report and run through occ's model.
    const json reports = json::parse(fixture("public_reports.json"));
    int compared = 0;
    for (const json& r : reports) {
        if (!r["cc"].is_string() || !r["block_size"].is_number() || !r["registers_per_thread"].is_number()) continue;
        INFO(r["source"].get<std::string>());
        const ReportLaunch x = launch_of(r);
        const occ::OccupancyResult res = occ::compute_occupancy(x.dev, x.k, x.l);
        REQUIRE(res.ok());
        if (r["block_limit_registers"].is_number()) CHECK(res.limit_registers == r["block_limit_registers"].get<int>());
        if (r["block_limit_warps"].is_number()) CHECK(res.limit_warps == r["block_limit_warps"].get<int>());
        if (r["block_limit_sm"].is_number()) CHECK(res.limit_blocks == r["block_limit_sm"].get<int>());
        if (r["theoretical_occupancy"].is_number())
            CHECK(std::fabs(res.occupancy * 100 - r["theoretical_occupancy"].get<double>()) <= 0.005 + 1e-9);  // printed with 2 decimals
        ++compared;
    }
    CHECK(compared >= 100);
}

TEST_CASE("ncu: the driver's carveout choice matches at least 90 % of the gathered public reports") {
    // Rule: occ::driver_smem_config (fitted per cc in driver_smem.cpp, scripts/fit_carveout.py); evidence
    // and every miss: tests/fixtures/ncu/README.md and docs/MODEL.md.
    const json reports = json::parse(fixture("public_reports.json"));
    int compared = 0, fit = 0;
    for (const json& r : reports) {
        if (!r["cc"].is_string() || !r["block_size"].is_number() || !r["registers_per_thread"].is_number() ||
            !r["shared_memory_configuration_size"].is_number() || !r["block_limit_shared_mem"].is_number())
            continue;
        if (r["source"].get<std::string>().find("occ_sweep.csv") != std::string::npos) continue;  // the sweep rows are counted apart
        const ReportLaunch x = launch_of(r);
        const occ::OccupancyResult res = occ::compute_occupancy(x.dev, x.k, x.l);
        const occ::DriverSmemConfig d = occ::driver_smem_config(x.dev.arch, x.k, res);
        ++compared;
        const bool ok = d.bytes == r["shared_memory_configuration_size"].get<std::int64_t>() &&
                        d.block_limit == r["block_limit_shared_mem"].get<int>();
        if (ok) ++fit;
        else
            MESSAGE("miss: " << r["source"].get<std::string>() << ": ncu " << r["shared_memory_configuration_size"] << " B, occ " << d.bytes
                             << " B" << std::string(d.may_be_larger ? " (flagged: may be larger)" : ""));
    }
    CHECK(compared >= 55);
    CHECK(fit * 10 >= compared * 9);
}
