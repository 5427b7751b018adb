// ptxas / cuobjdump resource-usage import (occ/io/ptxas.hpp), on real nvcc 13 logs in
// tests/fixtures/ptxas (regenerate with scripts/make_ptxas_fixtures.sh; the values pinned here
// are the ones in the committed logs, see tests/fixtures/ptxas/NVCC_VERSION.txt).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "occ/io/api.hpp"
#include "occ/io/ptxas.hpp"

using occ::io::json;
using occ::io::parse_ptxas_log;
using occ::io::PtxasKernel;
using occ::io::PtxasLog;

namespace {

std::string fixture(const std::string& name) {
    std::ifstream f(std::string(OCC_SOURCE_DIR) + "/tests/fixtures/ptxas/" + name);
    REQUIRE_MESSAGE(f.good(), "missing fixture " << name);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

const PtxasKernel* find(const PtxasLog& log, const std::string& mangled, const std::string& arch = "") {
    for (const auto& k : log.kernels)
        if (k.mangled == mangled && (arch.empty() || k.arch == arch)) return &k;
    return nullptr;
}

}  // namespace

TEST_CASE("demangler matches c++filt on the fixture kernels and common shapes") {
    using occ::io::demangle;
    // Expected strings: c++filt (GNU binutils) output for the same symbols.
    CHECK(demangle("_Z12block_reduceIdLi512EEvPKT_PS0_i") == "void block_reduce<double, 512>(double const*, double*, int)");
    CHECK(demangle("_ZN3ops11scaled_copyENS_6ParamsEPKfPf") == "ops::scaled_copy(ops::Params, float const*, float*)");
    CHECK(demangle("_Z14transpose_tilePfPKfii") == "transpose_tile(float*, float const*, int, int)");
    CHECK(demangle("_Z11helper_polyf") == "helper_poly(float)");
    CHECK(demangle("_Z3fooILj4ELb1ELln3EEvRKiPPc") == "void foo<4u, true, -3l>(int const&, char**)");
    CHECK(demangle("_ZN2ns5outerIiE5innerEv") == "ns::outer<int>::inner()");
    CHECK(demangle("_Z3barPFviE") == "bar(void (*)(int))");
    CHECK(demangle("_Z6kernelP6__halfi.constprop.0") == "kernel(__half*, int)");   // clone suffix dropped
    // Not mangled (an extern "C" kernel, even one named like a type code) or malformed: left to the caller.
    CHECK(demangle("saxpy") == "");
    CHECK(demangle("i") == "");
    CHECK(demangle(std::string("_Z1kv\0x", 7)) == "");
    CHECK(demangle("_Z") == "");
    CHECK(demangle("_Z999x") == "");
}

TEST_CASE("sm_80 log: every kernel, its resources, and the device function") {
    const PtxasLog log = parse_ptxas_log(fixture("kernels_sm80.log"));
    int entries = 0, functions = 0;
    for (const auto& k : log.kernels) (k.entry ? entries : functions)++;
    CHECK(entries == 8);
    CHECK(functions == 1);
    CHECK(log.skipped_lines == 0);

    const PtxasKernel* saxpy = find(log, "saxpy");
    REQUIRE(saxpy);
    CHECK(saxpy->name == "saxpy");   // extern "C": not mangled
    CHECK(saxpy->arch == "sm_80");
    CHECK(saxpy->cc_major == 8);
    CHECK(saxpy->cc_minor == 0);
    CHECK(saxpy->registers == 10);
    CHECK(saxpy->barriers == 0);
    CHECK(saxpy->smem_static == 0);
    REQUIRE(saxpy->cmem.size() == 1);
    CHECK(saxpy->cmem[0].first == 0);
    CHECK(saxpy->cmem[0].second == 376);

    const PtxasKernel* t = find(log, "_Z14transpose_tilePfPKfii");
    REQUIRE(t);
    CHECK(t->name == "transpose_tile(float*, float const*, int, int)");
    CHECK(t->registers == 26);
    CHECK(t->barriers == 1);
    CHECK(t->smem_static == 4224);   // float[32][33]

    const PtxasKernel* s = find(log, "_Z11spill_heavyPKfPfi");
    REQUIRE(s);
    CHECK(s->registers == 32);   // __launch_bounds__(1024, 2): 65536 / 2048 threads
    CHECK(s->stack_frame == 1376);
    CHECK(s->spill_stores == 3456);
    CHECK(s->spill_loads == 4080);
    CHECK(s->cumulative_stack == 1376);

    const PtxasKernel* r = find(log, "_Z12block_reduceIdLi512EEvPKT_PS0_i");
    REQUIRE(r);
    CHECK(r->smem_static == 4096);   // double[512]
    CHECK(r->registers == 14);

    const PtxasKernel* h = find(log, "_Z11helper_polyf");
    REQUIRE(h);
    CHECK_FALSE(h->entry);
    CHECK(h->registers == -1);
}

TEST_CASE("every architecture's log parses: sm_75, sm_90, sm_100, sm_120") {
    struct Case { const char* file; const char* arch; int transpose_regs; int spill_regs; std::int64_t spill_stores; };
    const Case cases[] = {
        {"kernels_sm75.log", "sm_75", 24, 64, 2760},
        {"kernels_sm90.log", "sm_90", 26, 32, 3220},
        {"kernels_sm100.log", "sm_100", 25, 32, 5056},
        {"kernels_sm120.log", "sm_120", 30, 64, 4768},
    };
    for (const Case& c : cases) {
        CAPTURE(c.file);
        const PtxasLog log = parse_ptxas_log(fixture(c.file));
        int entries = 0;
        for (const auto& k : log.kernels) entries += k.entry;
        CHECK(entries == 8);
        const PtxasKernel* t = find(log, "_Z14transpose_tilePfPKfii");
        REQUIRE(t);
        CHECK(t->arch == c.arch);
        CHECK(t->registers == c.transpose_regs);
        CHECK(t->smem_static == 4224);
        const PtxasKernel* s = find(log, "_Z11spill_heavyPKfPfi");
        REQUIRE(s);
        CHECK(s->registers == c.spill_regs);
        CHECK(s->spill_stores == c.spill_stores);
    }
    // sm_75 and sm_120 ignore the minBlocks of __launch_bounds__(1024, 2) and say so.
    CHECK(parse_ptxas_log(fixture("kernels_sm75.log")).diagnostics.size() == 1);
}

TEST_CASE("Hopper log: named barriers and cluster kernels") {
    const PtxasLog log = parse_ptxas_log(fixture("hopper_sm90.log"));
    const PtxasKernel* nb = find(log, "_Z14named_barriersPf");
    REQUIRE(nb);
    CHECK(nb->barriers == 3);   // barrier 0 plus bar.sync/arrive 1 and 2
    CHECK(nb->smem_static == 512);
    const PtxasKernel* cl = find(log, "_Z12cluster_pairPf");
    REQUIRE(cl);
    CHECK(cl->registers == 12);
    CHECK(cl->smem_static == 1024);
}

TEST_CASE("a fat build log keeps one record per (kernel, arch)") {
    const PtxasLog log = parse_ptxas_log(fixture("kernels_fat_sm80_sm90.log"));
    int entries = 0;
    for (const auto& k : log.kernels) entries += k.entry;
    CHECK(entries == 16);
    REQUIRE(find(log, "saxpy", "sm_80"));
    REQUIRE(find(log, "saxpy", "sm_90"));
}

TEST_CASE("other tools' lines are skipped and counted, never fatal") {
    const PtxasLog log = parse_ptxas_log(fixture("mixed_build_sm86.log"));
    int entries = 0;
    for (const auto& k : log.kernels) entries += k.entry;
    CHECK(entries == 8);
    CHECK(log.skipped_lines >= 6);   // make lines and g++'s warning block
    const PtxasKernel* t = find(log, "_Z14transpose_tilePfPKfii");
    REQUIRE(t);
    CHECK(t->arch == "sm_86");

    // Garbage, truncation, huge numbers, CRLF, MSBuild prefixes.
    const std::string junk =
        "\x01\x02 binary junk\n"
        "ptxas info    : Used 99999999999999999999999 registers\n"   // no current kernel: ignored
        "ptxas info    : Compiling entry function 'k' for 'sm_80'\r\n"
        "ptxas info    : Function properties for k\r\n"
        "    0 bytes stack frame, 8 bytes spill stores, x bytes spill loads\r\n"
        "1>ptxas info    : Used 99999999999999999999999 registers, used 2 barriers, 12 bytes smem\r\n"
        "ptxas info    : Compiling entry function 'unterminated\n"
        "ptxas info    : Function properties for\n"
        "Function :\n"
        "REG:abc\n";
    const PtxasLog j = parse_ptxas_log(junk);
    REQUIRE(j.kernels.size() == 1);
    CHECK(j.kernels[0].mangled == "k");
    CHECK(j.kernels[0].registers == 2147483647);   // saturated, then refused by the occupancy range check
    CHECK(j.kernels[0].barriers == 2);
    CHECK(j.kernels[0].spill_stores == 8);
    CHECK(parse_ptxas_log("").kernels.empty());
    CHECK(parse_ptxas_log("\n\n\n").lines == 3);
}

TEST_CASE("cuobjdump --dump-resource-usage format") {
    // The layout documented in the CUDA Binary Utilities guide ("cuobjdump", -res-usage example).
    // cuobjdump is not installed on this machine, so this one sample is written out here.
    const std::string text =
        "\n"
        "Fatbin elf code:\n"
        "================\n"
        "arch = sm_90\n"
        "code version = [1,8]\n"
        "host = linux\n"
        "compile_size = 64bit\n"
        "\n"
        "Resource usage:\n"
        " Common:\n"
        "  GLOBAL:0\n"
        " Function _Z14transpose_tilePfPKfii:\n"
        "  REG:26 STACK:0 SHARED:4224 LOCAL:0 CONSTANT[0]:544 TEXTURE:0 SURFACE:0 SAMPLER:0\n"
        " Function saxpy:\n"
        "  REG:10 STACK:16 SHARED:0 LOCAL:24 CONSTANT[0]:548 TEXTURE:0 SURFACE:0 SAMPLER:0\n";
    const PtxasLog log = parse_ptxas_log(text);
    REQUIRE(log.kernels.size() == 2);
    CHECK(log.kernels[0].format == "cuobjdump");
    CHECK(log.kernels[0].arch == "sm_90");
    CHECK(log.kernels[0].registers == 26);
    CHECK(log.kernels[0].smem_static == 4224);
    CHECK(log.kernels[0].name == "transpose_tile(float*, float const*, int, int)");
    CHECK(log.kernels[1].stack_frame == 16);
    CHECK(log.kernels[1].local == 24);
    CHECK(log.skipped_lines == 0);
}

TEST_CASE("ptxas request: occupancy for every kernel, each with its limiter") {
    const json r = occ::io::handle("ptxas", json{{"log", fixture("kernels_sm80.log")}, {"gpu", "A100"}, {"threads", 256}});
    REQUIRE(r["error"].is_null());
    REQUIRE(r["kernels"].size() == 8);
    CHECK(r["functions"].size() == 1);
    CHECK(r["summary"]["with_spills"] == 1);
    for (const auto& row : r["kernels"]) {
        CAPTURE(row["name"].get<std::string>());
        CHECK(row["device"] == "A100-SXM4-80GB");
        CHECK(row["error"].is_null());
        if (row["mangled"] == "_Z14transpose_tilePfPKfii") {
            // 26 regs -> 832 -> 1024/warp; 16384/1024 = 16 warps per sub-partition -> 64 warps: 8 blocks
            // of 8 warps (warps limit); smem 4224 + 1024 reserve = 5248 -> 31 blocks; so 8 blocks, 100%.
            CHECK(row["occupancy"]["blocks_per_sm"] == 8);
            CHECK(row["occupancy"]["occupancy"].get<double>() == doctest::Approx(1.0));
            CHECK(row["occupancy"]["limiters"] == json::array({"warps", "registers"}));
        }
        if (row["mangled"] == "_Z11spill_heavyPKfPfi") CHECK(row.contains("note"));
    }
    // No device: each kernel on its own arch. A fat log then gives 16 rows.
    const json fat = occ::io::handle("ptxas", json{{"log", fixture("kernels_fat_sm80_sm90.log")}});
    CHECK(fat["kernels"].size() == 16);
    // With an H100 only the sm_90 builds run; the sm_80 ones are listed as skipped.
    const json h = occ::io::handle("ptxas", json{{"log", fixture("kernels_fat_sm80_sm90.log")}, {"gpu", "H100"}});
    CHECK(h["kernels"].size() == 8);
    CHECK(h["skipped"].size() == 8);
    // A100 (8.0) runs sm_80 only; RTX 3090 (8.6) runs the sm_80 cubins too (binary compatibility).
    const json g = occ::io::handle("ptxas", json{{"log", fixture("kernels_sm80.log")}, {"gpu", "RTX-3090"}});
    CHECK(g["kernels"].size() == 8);
}

TEST_CASE("ptxas request errors are values") {
    CHECK(occ::io::handle("ptxas", json::object())["error"].get<std::string>().find("log") == 0);
    CHECK(occ::io::handle("ptxas", json{{"log", "hello"}})["error"].get<std::string>().find("no kernels") != std::string::npos);
    CHECK(occ::io::handle("ptxas", json{{"log", "x"}, {"regs", 32}})["error"].get<std::string>().find("regs") == 0);
    const json sm75_on_a100 = occ::io::handle("ptxas", json{{"log", fixture("kernels_sm75.log")}, {"gpu", "A100"}});
    CHECK(sm75_on_a100["kernels"].empty());
    CHECK(sm75_on_a100["error"].get<std::string>().find("no kernel in the log runs on") == 0);
}

TEST_CASE("the app's flow: an occupancy scenario plus a pasted log") {
    // lib/ui/src/view_advisor.cpp sends the scenario's canonical request without the per-kernel
    // fields, plus the log; every field the scenario carries must be accepted.
    occ::io::OccupancyRequest req;
    req.device = *occ::find_gpu("H100");
    req.launch.threads = 128;
    req.launch.grid_blocks = 1000;
    req.launch.smem_dynamic = 4096;
    json r = occ::io::occupancy_request_to_json(req);
    for (const char* k : {"regs", "smem_static", "barriers"}) r.erase(k);
    r["log"] = fixture("hopper_sm90.log");
    const json out = occ::io::handle("ptxas", r);
    REQUIRE(out["error"].is_null());
    CHECK(out["kernels"].size() == 2);
    for (const auto& k : out["kernels"]) CHECK(k["device"] == "H100-SXM5-80GB");
}
