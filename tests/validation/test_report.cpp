// Comparison, JSON round trip, console table and Markdown of cuda_validation reports, on SYNTHETIC
// fixtures (fixtures/README.md): these tests check the report code, not the hardware.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "occ/validation/report.hpp"

using namespace occ::validation;

namespace {
const std::string kFix = OCC_VALIDATION_FIXTURES;

Case one(Kind kind, std::int64_t pred, std::optional<std::int64_t> rt, std::optional<std::int64_t> hw) {
    Case c;
    c.kind = kind;
    c.id = "t";
    c.checks.push_back({"x", pred, rt, hw});
    return c;
}
}  // namespace

TEST_CASE("evaluate: every value present must agree") {
    CHECK(evaluate(one(Kind::occupancy, 4, 4, 4)) == Status::match);
    CHECK(evaluate(one(Kind::occupancy, 4, 4, std::nullopt)) == Status::match);
    CHECK(evaluate(one(Kind::occupancy, 4, std::nullopt, 4)) == Status::match);
    CHECK(evaluate(one(Kind::occupancy, 4, 3, 3)) == Status::mismatch);
    CHECK(evaluate(one(Kind::occupancy, 4, 4, 5)) == Status::mismatch);
    CHECK(evaluate(one(Kind::occupancy, 4, std::nullopt, std::nullopt)) == Status::unverified);
    Case e = one(Kind::banks, 4, std::nullopt, 1);
    e.explanation = "documented";
    CHECK(evaluate(e) == Status::explained);
    Case est = one(Kind::coalescing, 4, std::nullopt, 4);
    est.estimate = true;
    CHECK(evaluate(est) == Status::unverified);
    // One disagreeing check spoils the case.
    Case two = one(Kind::coalescing, 1, std::nullopt, 1);
    two.checks.push_back({"sectors", 5, std::nullopt, 4});
    CHECK(evaluate(two) == Status::mismatch);
}

TEST_CASE("gpu_slug gives the results file stem") {
    CHECK(gpu_slug("NVIDIA H200") == "h200");
    CHECK(gpu_slug("NVIDIA GeForce RTX 4090") == "rtx-4090");
    CHECK(gpu_slug("NVIDIA A100-SXM4-80GB") == "a100-sxm4-80gb");
    CHECK(gpu_slug("Tesla V100-PCIE-16GB") == "v100-pcie-16gb");
    CHECK(gpu_slug("  ") == "unknown-gpu");
}

TEST_CASE("the SYNTHETIC fixture loads, and is tallied per status and kind") {
    const Report r = load_report(kFix + "/synthetic_report.json");
    CHECK(r.synthetic);
    CHECK(r.gpu.slug == "synthetic-h200");
    CHECK(r.gpu.cc_major == 9);
    REQUIRE(r.cases.size() == 6);
    const Tally t = r.tally();
    CHECK(t.cases == 6);
    CHECK(t.matched == 3);
    CHECK(t.mismatched == 1);
    CHECK(t.explained == 1);
    CHECK(t.unverified == 1);
    CHECK(r.tally(Kind::occupancy).cases == 2);
    CHECK(r.tally(Kind::occupancy).mismatched == 1);
    CHECK(r.tally(Kind::banks).explained == 1);
    CHECK(r.tally(Kind::device).matched == 1);
}

TEST_CASE("JSON round trip keeps every field and writes a summary") {
    const Report r = load_report(kFix + "/synthetic_report.json");
    const json j = to_json(r);
    CHECK(j["schema"] == kSchema);
    CHECK(j["synthetic"] == true);
    CHECK(j["summary"]["cases"] == 6);
    CHECK(j["summary"]["matched"] == 3);
    CHECK(j["summary"]["by_kind"]["occupancy"]["mismatched"] == 1);
    CHECK(j["cases"][2]["status"] == "mismatch");
    CHECK(j["cases"][2]["checks"][0]["agrees"] == false);
    const Report back = report_from_json(j);
    CHECK(to_json(back) == j);
}

TEST_CASE("bad reports are refused with a readable reason") {
    CHECK_THROWS_WITH_AS(load_report(kFix + "/synthetic_bad_schema.json"), doctest::Contains("unsupported schema"), std::runtime_error);
    CHECK_THROWS_AS(load_report(kFix + "/does_not_exist.json"), std::runtime_error);
    json j = to_json(load_report(kFix + "/synthetic_report.json"));
    j["cases"][0]["kind"] = "nonsense";
    CHECK_THROWS_WITH_AS(report_from_json(j), doctest::Contains("unknown case kind"), std::runtime_error);
    j = to_json(load_report(kFix + "/synthetic_report.json"));
    j["cases"][1]["checks"][0]["measured"] = "four";
    CHECK_THROWS_WITH_AS(report_from_json(j), doctest::Contains("measured"), std::runtime_error);
}

TEST_CASE("console table marks mismatches and shows the three columns") {
    const Report r = load_report(kFix + "/synthetic_report.json");
    const std::string all = format_table(r);
    CHECK(all.find("runtime") != std::string::npos);
    CHECK(all.find("hardware") != std::string::npos);
    CHECK(all.find("MISMATCH") != std::string::npos);
    CHECK(all.find("occ/r64_s0/t256/d0/c-1") != std::string::npos);
    const std::string problems = format_table(r, true);
    CHECK(problems.find("occ/r64_s0/t256/d0/c-1") == std::string::npos);  // matched: left out
    CHECK(problems.find("occ/r40_s0/t1000/d0/c-1") != std::string::npos);
    CHECK(problems.find("explained: made-up explanation") != std::string::npos);
}

TEST_CASE("Markdown summary: banner for synthetic data, counts, non-matching cases") {
    const Report r = load_report(kFix + "/synthetic_report.json");
    const std::string md = format_markdown(r);
    CHECK(md.find("SYNTHETIC fixture") != std::string::npos);
    CHECK(md.find("| occupancy | 2 | 1 | 1 | 0 | 0 |") != std::string::npos);
    CHECK(md.find("| **all** | **6** | **3** | **1** | **1** | **1** |") != std::string::npos);
    CHECK(md.find("`occ/r40_s0/t1000/d0/c-1`") != std::string::npos);
    CHECK(md.find("`occ/r64_s0/t256/d0/c-1`") == std::string::npos);
    const std::string line = format_summary_line(r);
    CHECK(line.find("6 cases, 3 matched, 1 mismatched") != std::string::npos);
    CHECK(line.find("SYNTHETIC") != std::string::npos);

    Report clean = r;
    clean.synthetic = false;
    clean.gpu.name = "Test GPU";
    clean.tools = json::object();
    clean.cases.resize(2);
    const std::string md2 = format_markdown(clean);
    CHECK(md2.find("SYNTHETIC") == std::string::npos);
    CHECK(md2.find("Every compared value agreed.") != std::string::npos);
}
