// Parsing of Nsight Compute CSV and cuobjdump SASS, on SYNTHETIC samples in the tools' layouts.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "occ/validation/cases.hpp"
#include "occ/validation/tools.hpp"

using namespace occ::validation;

namespace {
std::string slurp(const std::string& name) {
    std::ifstream in(std::string(OCC_VALIDATION_FIXTURES) + "/" + name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}
}  // namespace

TEST_CASE("ncu CSV: rows, integer values, n/a, thousands separators, ==PROF== lines skipped") {
    std::string err;
    const auto rows = parse_ncu_csv(slurp("synthetic_ncu.csv"), &err);
    CHECK(err.empty());
    REQUIRE(rows.size() == 7);
    CHECK(rows[0].id == 0);
    CHECK(rows[0].kernel == "occv_gld_4");
    CHECK(rows[0].metric == "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
    CHECK(rows[0].value == 1);
    CHECK_FALSE(rows[2].value.has_value());  // n/a
    CHECK(rows[6].value == 1024);            // "1,024"
    const auto launches = group_ncu(rows);
    REQUIRE(launches.size() == 2);
    CHECK(launches[0].grid_x == 1);
    CHECK(launches[1].grid_x == 3);
    CHECK(launches[1].kernel == "occv_sld_8");
    CHECK(launches[0].metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 4);
    CHECK(launches[0].metrics.count("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 0);
    CHECK(launches[1].metrics.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 2);
}

TEST_CASE("ncu CSV: missing header and permission failures are reported") {
    std::string err;
    CHECK(parse_ncu_csv("hello\nworld\n", &err).empty());
    CHECK(err.find("no ncu CSV") != std::string::npos);
    CHECK(parse_ncu_csv("\"a\",\"b\"\n\"1\",\"2\"\n", &err).empty());
    CHECK(err.find("header") != std::string::npos);
    CHECK(ncu_failure_reason(slurp("synthetic_ncu_perm.txt")).find("ERR_NVGPUCTRPERM") != std::string::npos);
    CHECK(ncu_failure_reason(slurp("synthetic_ncu.csv")).empty());
    CHECK(ncu_memory_metrics().size() == 10);
}

TEST_CASE("parse_dim_x") {
    CHECK(parse_dim_x("(3, 1, 1)") == 3);
    CHECK(parse_dim_x("(1024, 2, 1)") == 1024);
    CHECK(parse_dim_x("7") == 7);
    CHECK(parse_dim_x("") == -1);
    CHECK(parse_dim_x("(x, 1, 1)") == -1);
}

TEST_CASE("cuobjdump SASS: functions per arch, opcodes without predicates") {
    const auto fns = parse_cuobjdump_sass(slurp("synthetic_sass.txt"));
    REQUIRE(fns.size() == 3);
    CHECK(fns[0].arch == "sm_80");
    CHECK(fns[0].name == "occv_gld_16");
    CHECK(fns[0].opcodes == std::vector<std::string>{"MOV", "LDG.E.128", "STG.E", "EXIT"});
    const SassFunction* s = find_sass(fns, "sm_90", "occv_sst_1");
    REQUIRE(s != nullptr);
    CHECK(s->opcodes[1] == "STS.U8");
    CHECK(sass_widths(*s, "STS") == std::set<int>{1});
    CHECK(sass_widths(*s, "LDS") == std::set<int>{1});
    CHECK(sass_widths(*s, "LDG").empty());
    const SassFunction* g90 = find_sass(fns, "sm_90", "occv_gld_16");
    REQUIRE(g90 != nullptr);
    CHECK(sass_widths(*g90, "LDG") == std::set<int>{8, 16});
    CHECK(find_sass(fns, "", "occv_gld_16") == &fns[0]);
    CHECK(find_sass(fns, "sm_100", "occv_gld_16") == nullptr);
}

TEST_CASE("SASS access widths") {
    CHECK(sass_access_width("LDG.E") == 4);
    CHECK(sass_access_width("LDG.E.U8") == 1);
    CHECK(sass_access_width("LDG.E.S16") == 2);
    CHECK(sass_access_width("LDG.E.64") == 8);
    CHECK(sass_access_width("LDG.E.128.CONSTANT") == 16);
    CHECK(sass_access_width("STG.E.128") == 16);
    CHECK(sass_access_width("LDS") == 4);
    CHECK(sass_access_width("LDS.U.128") == 16);
    CHECK(sass_access_width("STS.64") == 8);
    CHECK(sass_access_width("FFMA") == 0);
    CHECK(sass_access_width("LDC.64") == 0);
}

// --- CUPTI range profiler: metric sets, range names, decoded ranges -> the report's launches --------
// The values below are written by hand (SYNTHETIC), in the shape cuptiProfilerHostEvaluateToGpuValues
// returns them: one double per metric per range.
TEST_CASE("CUPTI metric sets: the ncu names, and the hardware-instruction fallback") {
    const auto sass = cupti_memory_metrics(true);
    CHECK(sass == ncu_memory_metrics());
    const auto hw = cupti_memory_metrics(false);
    REQUIRE(hw.size() == sass.size());
    CHECK(std::count(hw.begin(), hw.end(), "smsp__inst_executed_op_shared_ld.sum") == 1);
    CHECK(std::count(hw.begin(), hw.end(), "smsp__inst_executed_op_shared_st.sum") == 1);
    for (const std::string& m : hw) CHECK(m.find("sass") == std::string::npos);
    CHECK(cupti_occupancy_metrics().size() == 5);
    const auto chips = cupti_bundle_chips();
    REQUIRE(chips.size() == 6);
    CHECK(chips[3] == std::pair<int, std::string>{90, "GH100"});
}

TEST_CASE("CUPTI range names round-trip; foreign names are refused") {
    CHECK(counter_range_name(0) == "case-0");
    CHECK(counter_range_index("case-0") == 0);
    CHECK(counter_range_index(counter_range_name(261)) == 261);
    CHECK(counter_range_index("case-") == -1);
    CHECK(counter_range_index("case-1x") == -1);
    CHECK(counter_range_index("MainRange") == -1);
    CHECK(counter_range_index("case-12345678901") == -1);
}

TEST_CASE("CUPTI ranges become launches that match_launches and memory_result read") {
    std::vector<CounterRange> ranges;
    ranges.push_back(
        {"case-1",
         {{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 1.0}, {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 3.9999999}}});
    ranges.push_back({"unrelated", {{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 7.0}}});
    ranges.push_back({"case-0",
                      {{"smsp__inst_executed_op_shared_ld.sum", 2.0},
                       {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 64.0},
                       {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 62.0},
                       {"sm__warps_active.avg.pct_of_peak_sustained_active", NAN}}});
    const auto launches = launches_from_ranges(ranges);
    REQUIRE(launches.size() == 2);
    CHECK(launches[0].grid_x == 2);
    CHECK(launches[0].metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 4);  // rounded
    CHECK(launches[1].grid_x == 1);
    // The hardware fallback counter is filed under the name the report reads.
    CHECK(launches[1].metrics.at("smsp__sass_inst_executed_op_shared_ld.sum") == 2);
    CHECK(launches[1].metrics.count("sm__warps_active.avg.pct_of_peak_sustained_active") == 0);  // NaN dropped

    const auto by_case = match_launches(launches, 3);
    CHECK(by_case[0] == &launches[1]);
    CHECK(by_case[1] == &launches[0]);
    CHECK(by_case[2] == nullptr);

    MemCase c;
    c.id = "smem/ld4/stride32";
    c.kind = Kind::banks;
    c.elem_size = 4;
    c.block_x = 64;
    for (int t = 0; t < 64; ++t) c.offsets.push_back(static_cast<std::int64_t>(t) * 128);
    const Case r = memory_result(c, by_case[0], std::nullopt);
    REQUIRE(r.checks.size() == 4);
    CHECK(r.checks[0].name == "instructions");
    CHECK(r.checks[0].measured == 2);
    CHECK(r.checks[1].measured == 64);
    CHECK(r.checks[2].measured == 62);
    CHECK(evaluate(r) == Status::match);  // 2 warps x 32-way conflict = occ's prediction
}

TEST_CASE("CUPTI failures: one line, privilege errors name the driver setting") {
    CHECK(is_privilege_error("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"));
    CHECK_FALSE(is_privilege_error("CUPTI_ERROR_NOT_SUPPORTED"));
    const std::string p = cupti_failure_reason("cuptiRangeProfilerEnable", "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES");
    CHECK(p.find("restricted to administrators") != std::string::npos);
    CHECK(p.find("NVreg_RestrictProfilingToAdminUsers") != std::string::npos);
    CHECK(p.find("cuptiRangeProfilerEnable") != std::string::npos);
    CHECK(p.find('\n') == std::string::npos);
    CHECK(is_privilege_error(p));  // the line still carries the result name
    const std::string o = cupti_failure_reason("cuptiProfilerHostConfigAddMetrics", "CUPTI_ERROR_INVALID_METRIC_NAME");
    CHECK(o == "CUPTI cuptiProfilerHostConfigAddMetrics failed: CUPTI_ERROR_INVALID_METRIC_NAME");
}
