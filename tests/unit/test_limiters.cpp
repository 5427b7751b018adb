// Every limiter in occ::kLimiters (occ/occupancy.hpp) x every output that names limiters: a launch
// limited by exactly that one (tests/fixtures/limiter_cases.json) must be named by the occupancy
// JSON ("limiters" and "limits"), the table rows the CLI and the app print, the summary, the advise
// answer (snapshots and notes), the ptxas rows and the sweep. A limiter added to kLimiters without
// a case, or an output that skips one, fails here.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "occ/advisor.hpp"
#include "occ/amd.hpp"
#include "occ/amd_advisor.hpp"
#include "occ/explain.hpp"
#include "occ/io/amd.hpp"
#include "occ/io/api.hpp"
#include "occ/io/table.hpp"
#include "occ/occupancy.hpp"

using namespace occ;
using occ::io::json;

namespace {

json limiter_cases() {
    std::ifstream f(std::string(OCC_SOURCE_DIR) + "/tests/fixtures/limiter_cases.json");
    REQUIRE(f.good());
    return json::parse(f)["cases"];
}

// The case limited by this limiter alone; the test fails when there is none.
json case_for(const LimiterInfo& e) {
    for (const json& c : limiter_cases())
        if (c["limiter"] == e.key) return c;
    FAIL("tests/fixtures/limiter_cases.json has no case for limiter " << e.key);
    return {};
}

// A ptxas -v log of one kernel with the request's registers and barriers (format of the CUDA 12
// logs in tests/fixtures/ptxas), compiled for the request's GPU.
std::string ptxas_log(const json& req, const Device& d) {
    const std::string arch = "sm_" + std::to_string(d.arch.cc_major) + std::to_string(d.arch.cc_minor);
    return "ptxas info    : Compiling entry function '_Z9my_kernelPf' for '" + arch +
           "'\n"
           "ptxas info    : Function properties for _Z9my_kernelPf\n"
           "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
           "ptxas info    : Used " +
           std::to_string(req.value("regs", 32)) + " registers, used " + std::to_string(req.value("barriers", 1)) + " barriers\n";
}

}  // namespace

TEST_CASE("the limiter list: bits in cuda_occupancy.h's order, one entry per bit, names unique") {
    // cuda_occupancy.h: OCC_LIMIT_WARPS 0x01, _REGISTERS 0x02, _SHARED_MEMORY 0x04, _BLOCKS 0x08,
    // _BARRIERS 0x10, _VIRTUAL_RESOURCES 0x20.
    CHECK(kLimiterCount == 7);
    CHECK(kLimitWarps == 0x01u);
    CHECK(kLimitBarriers == 0x10u);
    CHECK(kLimitVirtualResources == 0x20u);
    for (std::size_t i = 0; i < kLimiterCount; ++i) {
        const LimiterInfo& e = kLimiters[i];
        CAPTURE(e.key);
        CHECK(limiter_index(e.bit) == i);
        CHECK(&limiter_info(e.bit) == &e);
        CHECK(std::string(limiter_name(e.bit)) == e.key);
        CHECK(kAllLimiters[i] == e.bit);
        for (std::size_t j = 0; j < i; ++j) CHECK(std::string(kLimiters[j].key) != e.key);
    }
    CHECK(std::string(limiter_info(kLimitVirtualResources).label) == "virtual resources");
    CHECK(limiter_labels(kLimitRegisters | kLimitVirtualResources, " and ") == "registers and virtual resources");
    CHECK(limiter_labels(0, ", ").empty());
}

TEST_CASE("every limiter x every output: a launch limited by it alone is named everywhere") {
    for (const LimiterInfo& e : kLimiters) {
        CAPTURE(e.key);
        const json c = case_for(e);
        const json& req = c["request"];
        const int blocks = c["blocks_per_sm"].get<int>();

        const auto ans = io::answer_occupancy(req);
        REQUIRE(ans);
        const OccupancyResult& r = ans->result;
        if (e.effective) {
            // An effective limit (Tensor Memory): the resident count and its limiters stay cuda_occupancy.h's;
            // the effective block count, its limiters, the table row and the summary name it.
            CHECK((r.limiters & e.bit) == 0);
            CHECK(r.blocks_per_sm > blocks);
            CHECK(effective_blocks_per_sm(r) == blocks);
            CHECK(effective_limiters(r) == e.bit);
            CHECK(limit_of(r, e.bit) == blocks);
            const json j = io::handle("occupancy", req);
            CHECK(j["effective"]["limiters"] == json::array({e.key}));
            CHECK(j["effective"]["blocks_per_sm"] == blocks);
            CHECK(j["limits"][e.key] == blocks);
            const std::vector<io::TableRow> rows = io::occupancy_table(ans->input, r);
            const auto row = std::find_if(rows.begin(), rows.end(),
                                          [&](const io::TableRow& t) { return t.kind == io::RowKind::limit && t.limiter == &e; });
            REQUIRE(row != rows.end());
            CHECK(row->hit);
            CHECK(summarize(r).find("(" + std::string(e.label) + ")") != std::string::npos);
            const json adv = io::handle("advise", req);
            CHECK(adv["occupancy"]["effective"]["limiters"] == json::array({e.key}));
            continue;
        }
        // The model itself: exactly this bit, and limit_of reads its member.
        CHECK(r.limiters == e.bit);
        CHECK(r.blocks_per_sm == blocks);
        CHECK(limit_of(r, e.bit) == blocks);

        // Occupancy JSON: "limiters" and the "limits" object.
        const json j = io::handle("occupancy", req);
        CHECK(j["limiters"] == json::array({e.key}));
        REQUIRE(j["limits"].contains(e.key));
        CHECK(j["limits"][e.key] == blocks);

        // The table rows (the CLI's limits table, the app's result view, the Markdown/CSV export).
        const std::vector<io::TableRow> rows = io::occupancy_table(ans->input, r);
        const auto row = std::find_if(rows.begin(), rows.end(),
                                      [&](const io::TableRow& t) { return t.kind == io::RowKind::limit && t.limiter == &e; });
        REQUIRE(row != rows.end());
        CHECK(row->key == e.title);
        CHECK(row->hit);
        CHECK(row->value == std::to_string(blocks) + " blocks");
        CHECK_FALSE(row->note.empty());
        CHECK(std::count_if(rows.begin(), rows.end(), [](const io::TableRow& t) { return t.hit; }) == 1);
        CHECK(summarize(r) == "limited by " + std::string(e.label));

        // Advise: the launch now, and the note on why no register cut helps (every limiter but the
        // registers themselves still limits at 0 registers).
        const json adv = io::handle("advise", req);
        REQUIRE(adv["error"].is_null());
        CHECK(adv["occupancy"]["limiters"] == json::array({e.key}));
        CHECK(adv["registers"]["before"]["limiters"] == json::array({e.key}));
        if (e.bit != kLimitRegisters)
            CHECK(adv["registers"]["note"] ==
                  "no register count fits more blocks: even with 0 registers the launch is limited by " + std::string(e.label));

        // ptxas rows: the kernel's registers and barriers from a log, the rest from the request.
        json preq = req;
        preq.erase("regs");
        preq.erase("barriers");
        preq["log"] = ptxas_log(req, ans->input.device);
        const json px = io::handle("ptxas", preq);
        REQUIRE(px["kernels"].size() == 1);
        CHECK(px["kernels"][0]["occupancy"]["limiters"] == json::array({e.key}));
        CHECK(px["kernels"][0]["occupancy"]["blocks_per_sm"] == blocks);

        // The register sweep: the step that holds the launch's own register count.
        json sreq = req;
        sreq["sweep"] = "regs";
        const json sw = io::handle("occupancy", sreq);
        const int regs = req["regs"].get<int>();
        json at;
        for (const json& p : sw["sweep"]["points"])
            if (p["x"].get<int>() <= regs) at = p;
        REQUIRE(at.is_object());
        CHECK(at["blocks_per_sm"] == blocks);
        CHECK(at["limiters"] == json::array({e.key}));
    }
}

TEST_CASE("a limit the kernel must declare is reported only where it declares it") {
    // Without a virtual-resource count the answer keeps its bytes: no "virtual_resources" limit,
    // no table row; with one, both.
    const json plain = io::handle("occupancy", json{{"gpu", "B200"}, {"threads", 64}, {"regs", 32}});
    CHECK_FALSE(plain["limits"].contains("virtual_resources"));
    CHECK(plain["limits"].size() == kLimiterCount - 2);  // neither virtual_resources nor tmem declared
    const auto ans = io::answer_occupancy(json{{"gpu", "B200"}, {"threads", 64}, {"regs", 32}});
    REQUIRE(ans);
    for (const io::TableRow& t : io::occupancy_table(ans->input, ans->result))
        CHECK((t.limiter == nullptr || t.limiter->bit != kLimitVirtualResources));
    CHECK_FALSE(limiter_info(kLimitVirtualResources).reported(ans->input.kernel));
    KernelResources k;
    k.virtual_resources = 1;
    CHECK(limiter_info(kLimitVirtualResources).reported(k));
}

TEST_CASE("the advice sentences over plain numbers are the ones the advice structs give") {
    // The app's hints keep only the numbers; their sentences must equal `occ advise`'s.
    const Device d = *find_gpu("A100");
    KernelResources k;
    k.regs_per_thread = 64;
    LaunchConfig l;
    l.threads = 256;
    const ResourceAdvice ra = advise_registers(d, k, l);
    REQUIRE(ra.to_gain_block >= 0);
    CHECK(cut_sentence(Resource::registers, ra.now, ra.to_gain_block, ra.after_cut.blocks_per_sm, ra.before) == cut_suggestion(ra));
    k.regs_per_thread = 32;  // shared memory limits: 40,000 + 1 KiB reserve per block, 4 of them in 164 KiB
    l.smem_dynamic = 40000;
    k.optin = true;
    const ResourceAdvice sa = advise_shared_memory(d, k, l);
    REQUIRE(sa.to_gain_block >= 0);
    CHECK(cut_sentence(Resource::shared_memory, sa.now, sa.to_gain_block, sa.after_cut.blocks_per_sm, sa.before) == cut_suggestion(sa));
    REQUIRE(sa.headroom > 0);
    CHECK(headroom_sentence(Resource::shared_memory, sa.now, sa.max_same_blocks, sa.before) == headroom_suggestion(sa));
    CHECK(no_headroom_sentence(Resource::registers, ra.before) ==
          "no register headroom: one more register per thread costs a block (4 blocks/SM now)");
}

TEST_CASE("both vendors' limiters are one shape: rows point at the entries, words and roles come from them") {
    // gfx90a, 512 threads, 50 VGPRs, 30 SGPRs: llvm-calc-occupancy's documented example
    // (https://llvm.org/docs/CommandGuide/llvm-calc-occupancy.html), limited by the wave slots.
    const io::json req = {{"gpu", "MI250X"}, {"threads", 512}, {"regs", 50}, {"sgprs", 30}};
    const auto ans = io::answer_amd_occupancy(req);
    REQUIRE(ans);
    const amd::AmdOccupancyResult& r = ans->result;
    CHECK(r.limiters == amd::kAmdLimitWaveSlots);
    std::vector<const LimiterKey*> seen;
    for (const io::TableRow& row : io::amd_occupancy_table(*ans))
        if (row.limiter) {
            seen.push_back(row.limiter);
            CHECK(row.key == row.limiter->title);
            CHECK(row.hit == ((r.limiters & row.limiter->bit) != 0));
            const int v = amd::amd_limit_of(r, row.limiter->bit);
            CHECK(row.count == (v == amd::kAmdUnlimited ? std::string("-") : std::to_string(v)));
        }
    REQUIRE(seen.size() == std::size(amd::kAmdLimiters));
    for (std::size_t i = 0; i < seen.size(); ++i) {
        CHECK(seen[i] == &amd::kAmdLimiters[i]);
        CHECK(limiter_key(amd::kAmdLimiters, amd::kAmdLimiters[i].bit) == seen[i]);
    }
    CHECK(limiter_key(amd::kAmdLimiters, 0) == nullptr);
    CHECK(limiter_key(amd::kAmdLimiters, 3) == nullptr);
    CHECK(limiter_key(amd::kAmdLimiters, 1u << std::size(amd::kAmdLimiters)) == nullptr);
    // Running text takes the labels, headings the titles, for either vendor's table.
    CHECK(amd::amd_limiter_list(amd::kAmdLimitWaveSlots | amd::kAmdLimitLds, ", ") == "wave slots, LDS");
    CHECK(amd::amd_limiter_labels(amd::kAmdLimitWaveSlots | amd::kAmdLimitWorkgroups, ", ") == "Wave slots, Workgroup slots");
    CHECK(limiter_labels(kLimitRegisters | kLimitSharedMemory, " and ") == "registers and shared memory");
    CHECK(limiter_words(kLimiters, kLimitBlocks, ", ", true) == "Block slots");
    // The same resource has the same role on both vendors (so the same colour in the app).
    CHECK(amd::kAmdLimiters[0].role == limiter_info(kLimitWarps).role);
    CHECK(amd::kAmdLimiters[1].role == limiter_info(kLimitRegisters).role);
    CHECK(amd::kAmdLimiters[3].role == limiter_info(kLimitSharedMemory).role);
    CHECK(amd::kAmdLimiters[4].role == limiter_info(kLimitBlocks).role);
    CHECK(amd::kAmdLimiters[2].role == LimiterRole::scalar_registers);
    // CUDA's rows point at kLimiters' entries too.
    const auto cuda = io::answer_occupancy(io::json{{"gpu", "A100"}, {"threads", 256}, {"regs", 64}});
    REQUIRE(cuda);
    for (const io::TableRow& row : io::occupancy_table(cuda->input, cuda->result))
        if (row.limiter) CHECK(&limiter_info(row.limiter->bit) == row.limiter);
}
