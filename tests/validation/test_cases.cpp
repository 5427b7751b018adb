// The case tables cuda_validation runs, occ's predictions for textbook cases, and the builders that
// turn (prediction, runtime answer, measurement) into report cases. Measurements here are SYNTHETIC.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "occ/validation/cases.hpp"
#include "occ/validation/tools.hpp"

using namespace occ::validation;

namespace {

MemCase table_case(Kind kind, int size, std::int64_t stride_elems, std::int64_t shift_bytes = 0, std::uint64_t mask = 0xFFFFFFFFull) {
    MemCase c;
    c.kind = kind;
    c.id = "t";
    c.elem_size = size;
    c.mask = mask;
    for (int l = 0; l < 32; ++l) c.offsets.push_back(shift_bytes + l * stride_elems * size);
    return c;
}

void check_table(const std::vector<MemCase>& v, std::size_t at_least) {
    CHECK(v.size() >= at_least);
    std::set<std::string> ids;
    std::set<int> sizes;
    bool st = false, ld = false, two_d = false, masked = false, two_warps = false;
    for (const MemCase& c : v) {
        CHECK_MESSAGE(validate_case(c).empty(), validate_case(c));
        CHECK_MESSAGE(ids.insert(c.id).second, "duplicate id " << c.id);
        sizes.insert(c.elem_size);
        (c.store ? st : ld) = true;
        two_d = two_d || c.two_d;
        two_warps = two_warps || c.threads() > 32;
        masked = masked || (c.mask & 0xFFFFFFFFull) != 0xFFFFFFFFull;
    }
    CHECK(sizes == std::set<int>{1, 2, 4, 8, 16});
    CHECK(st);
    CHECK(ld);
    CHECK(two_d);
    CHECK(two_warps);
    CHECK(masked);
}

}  // namespace

TEST_CASE("coalescing table: >= 100 well-formed cases, sizes 1-16, loads and stores, masks, 2-D") {
    check_table(coalescing_cases(true), 100);
    check_table(coalescing_cases(false), 200);
    for (const MemCase& c : coalescing_cases(false)) CHECK(c.kind == Kind::coalescing);
}

TEST_CASE("bank table: >= 100 well-formed cases, sizes 1-16, loads and stores, masks, 2-D") {
    check_table(bank_cases(true), 100);
    check_table(bank_cases(false), 100);
    for (const MemCase& c : bank_cases(false)) CHECK(c.kind == Kind::banks);
}

TEST_CASE("validate_case refuses malformed cases") {
    MemCase c = table_case(Kind::coalescing, 4, 1);
    CHECK(validate_case(c).empty());
    c.offsets[3] += 2;
    CHECK(validate_case(c).find("aligned") != std::string::npos);
    c = table_case(Kind::banks, 4, 1, kSharedBufferBytes);
    CHECK(validate_case(c).find("out of the buffer") != std::string::npos);
    c = table_case(Kind::coalescing, 3, 1);
    CHECK(validate_case(c).find("element size") != std::string::npos);
    c = table_case(Kind::coalescing, 4, 1);
    c.offsets.pop_back();
    CHECK(validate_case(c).find("one offset per thread") != std::string::npos);
}

TEST_CASE("global predictions: the Best Practices Guide's worked examples") {
    CHECK(predict_global(table_case(Kind::coalescing, 4, 1)).sectors == 4);
    CHECK(predict_global(table_case(Kind::coalescing, 4, 1, 4)).sectors == 5);  // shifted by one float
    CHECK(predict_global(table_case(Kind::coalescing, 4, 2)).sectors == 8);
    CHECK(predict_global(table_case(Kind::coalescing, 4, 32)).sectors == 32);
    CHECK(predict_global(table_case(Kind::coalescing, 16, 1)).sectors == 16);
    CHECK(predict_global(table_case(Kind::coalescing, 1, 1)).sectors == 1);
    CHECK(predict_global(table_case(Kind::coalescing, 4, 0)).sectors == 1);  // broadcast
    const GlobalPrediction none = predict_global(table_case(Kind::coalescing, 4, 1, 0, 0));
    CHECK(none.requests == 0);
    CHECK(none.sectors == 0);
    CHECK(predict_global(table_case(Kind::coalescing, 4, 1, 0, 0x1)).sectors == 1);
}

TEST_CASE("shared predictions: strides, broadcast, padding, vector phases") {
    CHECK(predict_shared(table_case(Kind::banks, 4, 1)).wavefronts == 1);
    CHECK(predict_shared(table_case(Kind::banks, 4, 2)).wavefronts == 2);
    CHECK(predict_shared(table_case(Kind::banks, 4, 32)).wavefronts == 32);
    CHECK(predict_shared(table_case(Kind::banks, 4, 32)).conflicts == 31);
    CHECK(predict_shared(table_case(Kind::banks, 4, 33)).wavefronts == 1);
    CHECK(predict_shared(table_case(Kind::banks, 4, 0)).wavefronts == 1);
    CHECK(predict_shared(table_case(Kind::banks, 8, 1)).wavefronts == 2);
    CHECK(predict_shared(table_case(Kind::banks, 8, 1)).conflicts == 0);
    CHECK(predict_shared(table_case(Kind::banks, 16, 1)).wavefronts == 4);
    CHECK(predict_shared(table_case(Kind::banks, 1, 1)).wavefronts == 1);
    CHECK(predict_shared(table_case(Kind::banks, 4, 1)).instructions == 1);
    CHECK(predict_shared(table_case(Kind::banks, 4, 1, 0, 0)).instructions == 0);
}

TEST_CASE("2-D cases use x-fastest lane order and sum over warps") {
    for (const MemCase& c : coalescing_cases(false)) {
        if (c.id != "gmem/ld4/2d_16x4_p64") continue;
        CHECK(c.threads() == 64);
        CHECK(predict_global(c).requests == 2);
        CHECK(predict_global(c).sectors == 8);  // each warp: two rows of 64 contiguous bytes
    }
}

TEST_CASE("occupancy configs: >= 300 quick cases over 36 kernels, odd sizes, opt-in, carveouts") {
    std::vector<OccKernel> ks;
    for (int i = 0; i < 36; ++i) ks.push_back({"k" + std::to_string(i), i % 5 == 0 ? 256 : 1024, (i % 7) * 4096});
    std::size_t total = 0, optin = 0, must_fail = 0;
    std::set<int> threads, carve;
    for (int i = 0; i < static_cast<int>(ks.size()); ++i) {
        for (const OccConfig& c : occupancy_configs(ks[i], i, true, 232448)) {
            ++total;
            threads.insert(c.threads);
            carve.insert(c.carveout);
            if (c.optin) {
                ++optin;
                CHECK(c.dynamic_smem + ks[i].static_smem > 48 * 1024);
                CHECK(c.dynamic_smem + ks[i].static_smem <= 232448);
            } else {
                CHECK(c.dynamic_smem + ks[i].static_smem <= 48 * 1024);
            }
            if (c.threads > ks[i].max_threads) ++must_fail;
        }
    }
    CHECK(total >= 300);
    CHECK(optin >= 30);
    CHECK(must_fail >= 5);
    CHECK(threads.count(32));
    CHECK(threads.count(1024));
    CHECK(threads.count(33));
    CHECK(threads.count(513));
    CHECK(carve.size() >= 8);
    // Deterministic.
    CHECK(occupancy_configs(ks[3], 3, true, 232448).size() == occupancy_configs(ks[3], 3, true, 232448).size());
    CHECK(occupancy_configs(ks[3], 3, false, 232448).size() > occupancy_configs(ks[3], 3, true, 232448).size());
}

TEST_CASE("memory_result pairs predictions with (SYNTHETIC) counters by grid index") {
    const auto cases = coalescing_cases(true);
    NcuLaunch l;
    l.id = 0;
    l.kernel = "occv_gld_4";
    l.grid_x = 1;  // case 0
    const MemCase& c0 = cases[0];
    REQUIRE(c0.id == "gmem/ld4/contiguous");
    CHECK(memory_kernel_name(c0) == "occv_gld_4");
    l.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] = 1;
    l.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = 4;
    const std::vector<NcuLaunch> launches{l};
    const auto m = match_launches(launches, cases.size());
    REQUIRE(m[0] == &launches[0]);
    CHECK(m[1] == nullptr);
    CHECK(evaluate(memory_result(c0, m[0], 4)) == Status::match);
    CHECK(evaluate(memory_result(c0, m[0], 8)) == Status::mismatch);
    CHECK(evaluate(memory_result(cases[1], m[1], std::nullopt)) == Status::unverified);
    l.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = 5;
    CHECK(evaluate(memory_result(c0, &l, 4)) == Status::mismatch);
    const Case bad = memory_result(c0, &l, -1);
    CHECK(bad.note.find("several access widths") != std::string::npos);

    const auto banks = bank_cases(true);
    const Case b = memory_result(banks[0], nullptr, 4);
    REQUIRE(b.checks.size() == 4);
    CHECK(b.checks[1].name == "wavefronts");
    CHECK(b.inputs["kernel"] == "occv_sld_4");
}

TEST_CASE("occupancy_result and device_constant") {
    OccMeasurement m;
    m.kernel = "r64_s0";
    m.config.threads = 256;
    m.regs = 64;
    m.model = 4;
    m.runtime = 4;
    m.measured = 4;
    Case c = occupancy_result(m);
    CHECK(c.id == "occ/r64_s0/t256/d0/c-1");
    CHECK(evaluate(c) == Status::match);
    CHECK_FALSE(c.inputs.contains("counters"));
    // CUPTI counters ride along in the inputs and never change the verdict.
    m.counters = json{{"ctas_launched", 1188}, {"achieved_occupancy_pct", 12.5}};
    c = occupancy_result(m);
    CHECK(c.inputs.at("counters").at("ctas_launched") == 1188);
    CHECK(evaluate(c) == Status::match);
    m.measured = 3;
    CHECK(evaluate(occupancy_result(m)) == Status::mismatch);
    m.config.optin = true;
    m.config.dynamic_smem = 65536;
    CHECK(occupancy_result(m).id == "occ/r64_s0/t256/d65536/c-1/optin");
    CHECK(evaluate(device_constant("regsPerMultiprocessor", 65536, 65536, 65536, "")) == Status::match);
    CHECK(evaluate(device_constant("sharedMemPerMultiprocessor", 233472, 233472, std::nullopt, "")) == Status::match);
    CHECK(evaluate(device_constant("multiProcessorCount", 132, 144, std::nullopt, "")) == Status::mismatch);
}
