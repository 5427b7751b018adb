// test_check_memory.cpp — the memory budgets of `occ check` (occ/io/check.hpp, check_memory.cpp):
// the budget keys read and refused with their range, and check_budget over tests/fixtures/ptx
// (kernels.cu): the padded transpose passes a bank-conflict budget the naive one fails at the line
// of its ld.shared; a cubin without PTX is unknown, never a pass.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "occ/io/check.hpp"

namespace {

const std::string kSrc = OCC_SOURCE_DIR;

// The .loc line of the first instruction starting with `opcode` in `entry` of the sm_80 fixture.
int loc_line(const std::string& entry, const std::string& opcode) {
    std::ifstream f(kSrc + "/tests/fixtures/ptx/kernels_sm80.ptx");
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string text = ss.str();
    std::istringstream body(text.substr(text.find(".entry " + entry + "(")));
    int line = 0;
    for (std::string l; std::getline(body, l);) {
        const auto at = l.find_first_not_of(" \t");
        if (at == std::string::npos) continue;
        const std::string s = l.substr(at);
        if (s.rfind(".loc", 0) == 0) {
            std::istringstream w(s.substr(4));
            int file = 0;
            w >> file >> line;
        } else if (s.rfind(opcode, 0) == 0) return line;
    }
    return -1;
}

const occ::io::CheckResult* find(const occ::io::CheckReport& rep, const std::string& kernel, const std::string& check) {
    for (const auto& r : rep.results)
        if (r.kernel == kernel && r.check == check) return &r;
    return nullptr;
}

}  // namespace

TEST_CASE("check memory: budget keys and their ranges") {
    using occ::io::parse_budget;
    const auto b = parse_budget(
        "block = [64]\nparams = {n = 8}\n[[rule]]\nkernels = \"*\"\nblock = [32, 32]\ngrid = 4\nparams = {2 = 1024}\n"
        "max_sectors_per_request_ratio = 1.5\nmax_bank_conflicts_per_request = 0\nmax_uncoalesced_accesses = 2\n",
        "b.toml");
    REQUIRE(b);
    REQUIRE(b->block);
    CHECK((*b->block)[0] == 64);
    CHECK(b->params.size() == 1);
    const auto& r = b->rules.at(0);
    CHECK((*r.block)[1] == 32);
    CHECK((*r.grid)[0] == 4);
    CHECK(r.params.at(0).first == "2");
    CHECK(r.params.at(0).second == 1024);
    CHECK(*r.max_sectors_per_request_ratio == 1.5);
    CHECK(*r.max_bank_conflicts_per_request == 0);
    CHECK(*r.max_uncoalesced_accesses == 2);
    CHECK(r.memory());
    const auto bad = parse_budget("[[rule]]\nkernels = \"*\"\nmax_sectors_per_request_ratio = 0.5\n", "b.toml");
    REQUIRE_FALSE(bad);
    CHECK(bad.error.find("b.toml:3") != std::string::npos);
    CHECK(bad.error.find("max_sectors_per_request_ratio") != std::string::npos);
    CHECK(bad.error.find("1..32") != std::string::npos);
    CHECK_FALSE(parse_budget("[[rule]]\nkernels = \"*\"\nblock = [1, 2, 3, 4]\nmax_uncoalesced_accesses = 0\n", "b.toml"));
    CHECK_FALSE(parse_budget("[[rule]]\nkernels = \"*\"\nmax_bank_conflicts_per_request = -1\n", "b.toml"));
}

TEST_CASE("check memory: the padded transpose passes, the naive fails at its ld.shared line") {
    const auto budget = occ::io::read_budget(kSrc + "/tests/fixtures/check/budget_memory.toml");
    REQUIRE(budget);
    std::vector<occ::io::CheckInput> inputs{occ::io::read_check_input(kSrc + "/tests/fixtures/ptx/kernels_sm80.ptx")};
    const auto rep = occ::io::check_budget(*budget, std::move(inputs));
    REQUIRE(rep);
    const auto* padded = find(*rep, "transpose_padded", "max_bank_conflicts_per_request");
    const auto* naive = find(*rep, "transpose_naive", "max_bank_conflicts_per_request");
    REQUIRE(padded);
    REQUIRE(naive);
    CHECK(padded->verdict == occ::io::Verdict::pass);
    CHECK(naive->verdict == occ::io::Verdict::fail);
    CHECK(naive->source_line == loc_line("transpose_naive", "ld.shared"));
    CHECK(naive->source.find("kernels.cu") != std::string::npos);
    CHECK(naive->instruction.rfind("ld.shared", 0) == 0);
    const auto* stride = find(*rep, "stride2_f32", "max_sectors_per_request_ratio");
    REQUIRE(stride);
    CHECK(stride->verdict == occ::io::Verdict::fail);
    CHECK(*stride->value == doctest::Approx(2.0));
    const auto* copy = find(*rep, "copy_f32", "max_sectors_per_request_ratio");
    REQUIRE(copy);
    CHECK(copy->verdict == occ::io::Verdict::pass);
}

TEST_CASE("check memory: a cubin without PTX is not checked") {
    const auto budget = occ::io::parse_budget("gpu = \"A100\"\n[[rule]]\nkernels = \"*\"\nmax_bank_conflicts_per_request = 0\n", "b.toml");
    REQUIRE(budget);
    std::vector<occ::io::CheckInput> inputs{occ::io::read_check_input(kSrc + "/tests/fixtures/binaries/sm_80.cubin")};
    const auto rep = occ::io::check_budget(*budget, std::move(inputs));
    REQUIRE(rep);
    int seen = 0;
    for (const auto& r : rep->results) {
        if (r.check != "max_bank_conflicts_per_request") continue;
        ++seen;
        CHECK(r.verdict == occ::io::Verdict::unknown);
        CHECK_FALSE(r.value);
        CHECK(r.message.find("not checked: no PTX") != std::string::npos);
    }
    CHECK(seen > 0);
    CHECK(rep->passed == 0);
}
