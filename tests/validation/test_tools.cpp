// Parsing of Nsight Compute CSV and cuobjdump SASS, on SYNTHETIC samples in the tools' layouts.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

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
    CHECK_FALSE(rows[2].value.has_value());   // n/a
    CHECK(rows[6].value == 1024);             // "1,024"
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
