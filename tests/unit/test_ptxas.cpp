// ptxas / cuobjdump resource-usage import (occ/io/ptxas.hpp), on real nvcc 13 logs in
// tests/fixtures/ptxas (regenerate with scripts/make_ptxas_fixtures.sh; the values pinned here
// are the ones in the committed logs, see tests/fixtures/ptxas/NVCC_VERSION.txt), and the "ptxas"
// request kind (typed answer and JSON). The layouts other tools and versions print are in
// test_ptxas_variants.cpp.
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
    CHECK(demangle("_Z6kernelP6__halfi.constprop.0") == "kernel(__half*, int)");  // clone suffix dropped
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
    CHECK(saxpy->name == "saxpy");  // extern "C": not mangled
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
    CHECK(t->smem_static == 4224);  // float[32][33]

    const PtxasKernel* s = find(log, "_Z11spill_heavyPKfPfi");
    REQUIRE(s);
    CHECK(s->registers == 32);  // __launch_bounds__(1024, 2): 65536 / 2048 threads
    CHECK(s->stack_frame == 1376);
    CHECK(s->spill_stores == 3456);
    CHECK(s->spill_loads == 4080);
    CHECK(s->cumulative_stack == 1376);

    const PtxasKernel* r = find(log, "_Z12block_reduceIdLi512EEvPKT_PS0_i");
    REQUIRE(r);
    CHECK(r->smem_static == 4096);  // double[512]
    CHECK(r->registers == 14);

    const PtxasKernel* h = find(log, "_Z11helper_polyf");
    REQUIRE(h);
    CHECK_FALSE(h->entry);
    CHECK_FALSE(h->registers.has_value());  // a device function has no "Used" line: not read (was the sentinel -1)
    CHECK_FALSE(h->smem_static.has_value());
    CHECK(h->stack_frame == 0);
}

TEST_CASE("every architecture's log parses: sm_75, sm_90, sm_100, sm_120") {
    struct Case {
        const char* file;
        const char* arch;
        int transpose_regs;
        int spill_regs;
        std::int64_t spill_stores;
    };
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
    CHECK(nb->barriers == 3);  // barrier 0 plus bar.sync/arrive 1 and 2
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
    CHECK(log.skipped_lines >= 6);  // make lines and g++'s warning block
    const PtxasKernel* t = find(log, "_Z14transpose_tilePfPKfii");
    REQUIRE(t);
    CHECK(t->arch == "sm_86");

    // Garbage, truncation, huge numbers, CRLF, MSBuild prefixes.
    const std::string junk =
        "\x01\x02 binary junk\n"
        "ptxas info    : Used 99999999999999999999999 registers\n"  // no current kernel: ignored
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
    CHECK(j.kernels[0].registers == 2147483647);  // saturated, then refused by the occupancy range check
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

namespace {

std::string variant_log(const std::string& name) { return fixture("variants/" + name); }

occ::io::PtxasAnswer answer(json request) {
    const auto a = occ::io::answer_ptxas(request);
    REQUIRE_MESSAGE(a.value.has_value(), a.error);
    return *a;
}

}  // namespace

TEST_CASE("ptxas answer: every compilation of a name is its own numbered row") {
    const occ::io::PtxasAnswer a = answer(json{{"log", variant_log("triton_autotune_sm75.log")}, {"gpu", "T4"}, {"threads", 128}});
    CHECK(a.error.empty());
    REQUIRE(a.rows.size() == 4);
    CHECK(a.compilations == 4);
    const json j = occ::io::to_json(a);
    for (int i = 0; i < 4; ++i) {
        CHECK(j["kernels"][i]["occurrence"] == i + 1);
        CHECK(j["kernels"][i]["occurrences"] == 4);
        CHECK(j["kernels"][i]["device"] == "Tesla-T4");
    }
    CHECK(j["kernels"][1]["registers"] == 41);
    CHECK(j["summary"]["compilations"] == 4);
}

TEST_CASE("ptxas answer: a field the log did not give is null, never 0; earlier keys stay numbers") {
    const json j = occ::io::to_json(answer(json{{"log", variant_log("cuobjdump_two_archs.log")}}));
    REQUIRE(j["kernels"].size() == 2);
    const json& row = j["kernels"][0];
    CHECK(row["resources"]["spill_stores"].is_null());  // cuobjdump has no spill figures
    CHECK(row["resources"]["spill_loads"].is_null());
    CHECK(row["resources"]["barriers"].is_null());
    CHECK(row["resources"]["registers"] == 19);
    CHECK(row["resources"]["textures"] == 0);
    CHECK(row["stack_frame"] == 0);
    CHECK(row["spill_stores"] == 0);  // kept for the app, which reads these as numbers
    CHECK(row["barriers"] == 0);
    CHECK(row["cc"] == "5.2");

    // A compilation without its "Used" line: no registers, no shared memory, no occupancy.
    const std::string cut =
        "ptxas info    : Compiling entry function '_Z4stepPf' for 'sm_80'\n"
        "ptxas info    : Function properties for _Z4stepPf\n"
        "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n";
    const occ::io::PtxasAnswer a = answer(json{{"log", cut}, {"gpu", "A100"}});
    REQUIRE(a.rows.size() == 1);
    CHECK_FALSE(a.rows[0].result.has_value());
    CHECK(a.rows[0].error == "the log gives no register count for this compilation");
    const json c = occ::io::to_json(a)["kernels"][0];
    CHECK(c["registers"].is_null());
    CHECK(c["resources"]["smem_static"].is_null());
    CHECK(c["resources"]["cmem"].is_null());
    CHECK(c["occupancy"].is_null());
    CHECK(c["diagnostics"][0].get<std::string>().find("no resource line") != std::string::npos);
    CHECK(occ::io::to_json(a)["summary"]["failed"] == 1);
}

TEST_CASE("ptxas answer: architectures occ does not model are rows with their resources, not a refused log") {
    for (const json& device : {json::object(), json{{"gpu", "A100"}}}) {
        json req = device;
        req["log"] = variant_log("sm30_lmem_textures.log");
        const occ::io::PtxasAnswer a = answer(req);
        CHECK(a.error.empty());
        REQUIRE(a.rows.size() == 2);
        for (const occ::io::PtxasRow& row : a.rows) {
            CHECK_FALSE(row.result.has_value());
            CHECK(row.error.rfind("occupancy not modelled for sm_30", 0) == 0);
        }
        const json j = occ::io::to_json(a);
        CHECK(j["kernels"][0]["registers"] == 63);
        CHECK(j["kernels"][0]["resources"]["local"] == 72);
        CHECK(j["error"].is_null());
    }
}

TEST_CASE("ptxas answer: with a device, the newest build that runs on it; the others are listed as skipped") {
    const occ::io::PtxasAnswer a = answer(json{{"log", variant_log("fat_multi_gencode.log")}, {"gpu", "GTX-1080"}});
    REQUIRE(a.rows.size() == 1);
    CHECK(a.log.kernels[a.rows[0].kernel].arch == "sm_61");
    REQUIRE(a.skipped.size() == 3);
    CHECK(a.skipped[0].reason == "compiled for sm_52, which does not run on cc 6.1");
    CHECK(a.skipped[1].reason == "a newer compatible build (sm_61) is used");
    CHECK(a.skipped[2].reason == "compiled for sm_70, which does not run on cc 6.1");
    const occ::io::PtxasAnswer v = answer(json{{"log", variant_log("fat_multi_gencode.log")}, {"gpu", "V100"}});
    REQUIRE(v.rows.size() == 1);
    CHECK(v.log.kernels[v.rows[0].kernel].registers == 56);
}

TEST_CASE("ptxas answer: a log that does not say the architecture needs a device, and says so on the rows") {
    const occ::io::PtxasAnswer none = answer(json{{"log", variant_log("no_arch_cuda2.log")}});
    REQUIRE(none.rows.size() == 2);
    CHECK(none.rows[0].error == "the log does not say which architecture this kernel was compiled for; give gpu or cc");
    const occ::io::PtxasAnswer a = answer(json{{"log", variant_log("no_arch_cuda2.log")}, {"cc", "8.0"}, {"threads", 128}});
    REQUIRE(a.rows.size() == 2);
    for (const occ::io::PtxasRow& row : a.rows) {
        CHECK(row.result.has_value());
        REQUIRE(row.notes.size() == 1);
        CHECK(row.notes[0].find("does not say which architecture") != std::string::npos);
    }
}

TEST_CASE("ptxas answer: a log of spill warnings alone gives a row per warning: spills read, the rest null with the reason") {
    const occ::io::PtxasAnswer a = answer(json{{"log", variant_log("xla_spill_warnings_only.log")}});
    REQUIRE(a.rows.size() == 3);
    CHECK(a.error.empty());
    const json j = occ::io::to_json(a);
    REQUIRE(j["kernels"].size() == 3);
    const json& first = j["kernels"][0];
    CHECK(first["name"] == "gemm_fusion_dot_41");
    CHECK(first["occurrence"] == 1);
    CHECK(first["occurrences"] == 2);
    CHECK(first["resources"]["spill_stores"] == 316);
    CHECK(first["resources"]["spill_loads"] == 316);
    for (const char* unread : {"registers", "smem_static", "barriers", "stack_frame"}) {
        CAPTURE(unread);
        CHECK(first["resources"][unread].is_null());
        CHECK(first[unread].is_null());  // never 0, in the older flat fields too
    }
    CHECK(first["occupancy"].is_null());
    CHECK(first["error"] == occ::io::kSpillOnlyReason);
    CHECK(first["format"] == "ptxas warning");
    CHECK(j["kernels"][1]["resources"]["spill_stores"] == 548);
    CHECK(j["kernels"][1]["occurrence"] == 2);
    CHECK(j["diagnostics"].size() == 3);
}

TEST_CASE("ptxas answer: named barriers the log does not give are not guessed on a 9.0 device") {
    const occ::io::PtxasAnswer a = answer(json{{"log", variant_log("triton_single_space_sm89.log")}, {"gpu", "H100"}});
    CHECK(a.rows.empty());  // sm_89 cubins do not run on 9.0
    const occ::io::PtxasAnswer b = answer(json{{"log", variant_log("wrapped_lines_sm90.log")}, {"gpu", "H100"}, {"threads", 128}});
    REQUIRE(b.rows.size() == 2);
    for (const occ::io::PtxasRow& row : b.rows) CHECK(row.notes.empty());  // both give "used N barriers"
    const std::string no_barriers =
        "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
        "ptxas info    : Used 32 registers, 2048 bytes smem, 400 bytes cmem[0]\n";
    const occ::io::PtxasAnswer c = answer(json{{"log", no_barriers}, {"gpu", "H100"}});
    REQUIRE(c.rows.size() == 1);
    REQUIRE(c.rows[0].notes.size() == 1);
    CHECK(c.rows[0].notes[0].find("named barriers") != std::string::npos);
    CHECK(occ::io::to_json(c)["kernels"][0]["resources"]["barriers"].is_null());
}

TEST_CASE("ptxas answer: a figure the model refuses is an error, not a number") {
    const std::string log =
        "ptxas info    : Compiling entry function 'wide' for 'sm_80'\n"
        "ptxas info    : Used 300 registers, 400 bytes cmem[0]\n";
    const occ::io::PtxasAnswer a = answer(json{{"log", log}, {"gpu", "A100"}});
    REQUIRE(a.rows.size() == 1);
    CHECK_FALSE(a.rows[0].result.has_value());
    CHECK_FALSE(a.rows[0].error.empty());
    CHECK(occ::io::to_json(a)["kernels"][0]["occupancy"].is_null());
}

TEST_CASE("api_ptxas: a bad request is an error object, never an exception") {
    CHECK(occ::io::api_ptxas(json::object())["error"].get<std::string>().rfind("log: required", 0) == 0);
    CHECK(occ::io::api_ptxas(json{{"log", "x"}, {"smem_static", 0}})["error"].get<std::string>().rfind("smem_static:", 0) == 0);
    CHECK(occ::io::api_ptxas(json{{"log", "x"}, {"treads", 128}})["error"].get<std::string>().rfind("treads", 0) == 0);
    CHECK(occ::io::api_ptxas(json::array())["error"].is_string());
    const json ok = occ::io::api_ptxas(json{{"log", variant_log("wrapped_lines_sm90.log")}, {"id", 7}});
    CHECK(ok["id"] == 7);
    CHECK(ok["kernels"][0]["diagnostics"].size() == 2);
    CHECK(ok["summary"]["unknown_lines"] == 0);
}
