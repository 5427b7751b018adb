// test_amd_artefacts.cpp — the AMD readers (occ/io/amd_artefacts.hpp) on tests/fixtures/amd/: what
// llc printed for a kernel (its assembly comments, its remarks) is the oracle for the same kernel
// read from the code object llc wrote, from an offload bundle (plain, zlib, zstd) and from a host
// file's .hip_fatbin; the hand-written remark variants read their own numbers; the request kinds
// answer with compute_amd_occupancy's figures; hostile bytes end in an error, never a crash.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "occ/amd.hpp"
#include "occ/io/amd.hpp"
#include "occ/io/amd_artefacts.hpp"
#include "occ/io/binary.hpp"
#include "occ/io/ptxas.hpp"

namespace {

using occ::io::json;
using occ::io::PtxasKernel;

const std::string kDir = std::string(OCC_SOURCE_DIR) + "/tests/fixtures/amd/";

std::vector<unsigned char> bytes_of(const std::string& name) {
    std::ifstream f(kDir + name, std::ios::binary);
    REQUIRE_MESSAGE(f, "missing fixture " << name << " (tests/fixtures/amd/make_fixtures.py)");
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}
std::string text_of(const std::string& name) {
    const auto b = bytes_of(name);
    return {b.begin(), b.end()};
}

std::map<std::string, PtxasKernel> by_name(const std::vector<PtxasKernel>& ks) {
    std::map<std::string, PtxasKernel> m;
    for (const PtxasKernel& k : ks)
        if (k.entry) m.emplace(k.mangled, k);
    return m;
}

// The register, LDS and scratch figures of a kernel read from a binary equal llc's comments.
void same_as_llc(const PtxasKernel& bin, const PtxasKernel& llc) {
    CAPTURE(bin.mangled);
    CAPTURE(bin.source_entry);
    REQUIRE(bin.amd);
    REQUIRE(llc.amd);
    CHECK(bin.arch == llc.arch);
    CHECK(bin.amd->sgprs == llc.amd->sgprs);              // .sgpr_count == ; NumSgprs:
    CHECK(bin.amd->vgprs_total == llc.amd->vgprs_total);  // .vgpr_count == ; TotalNumVgprs:
    CHECK(bin.smem_static == llc.smem_static);            // .group_segment_fixed_size == ; LDSByteSize:
    CHECK(bin.stack_frame == llc.stack_frame);            // .private_segment_fixed_size == ; ScratchSize:
    CHECK(bin.amd->wave_size == llc.amd->wave_size);
    CHECK(bin.amd->max_workgroup_size == llc.amd->max_workgroup_size);
    if (llc.amd->agprs.value_or(0) == 0) CHECK(bin.registers == llc.registers);  // no AGPRs: .vgpr_count is the arch VGPRs
    else CHECK(!bin.registers);                                                  // the total only: null, with its reason
}

}  // namespace

TEST_CASE("llc-19 assembly comments and .amdhsa directives (gfx942)") {
    const occ::io::PtxasLog log = occ::io::parse_amd_text(text_of("kernels_gfx942.s"));
    auto ks = by_name(log.kernels);
    REQUIRE(ks.size() == 3);
    // What llc-19 printed (tests/fixtures/amd/kernels_gfx942.s, "; Kernel info:").
    const PtxasKernel& s = ks.at("_Z5scalePfS_i");
    CHECK(s.name == "scale(float*, float*, int)");
    CHECK(s.arch == "gfx942");
    CHECK(s.amd->target == "amdgcn-amd-amdhsa--gfx942");
    CHECK(s.registers == 64);
    CHECK(s.amd->agprs == 0);
    CHECK(s.amd->vgprs_total == 64);
    CHECK(s.amd->sgprs == 47);
    CHECK(s.smem_static == 3000);
    CHECK(s.stack_frame == 0);
    CHECK(s.amd->llvm_occupancy == 8);
    CHECK(s.amd->max_workgroup_size == 256);
    CHECK(s.amd->wave_size == 64);
    CHECK(s.amd->kernarg_bytes == 280);
    const PtxasKernel& m = ks.at("mfma_tile");
    CHECK(m.registers == 81);
    CHECK(m.amd->agprs == 32);
    CHECK(m.amd->vgprs_total == 116);  // roundup(81, 4) + 32: the unified file
    CHECK(m.amd->sgprs == 27);
    CHECK(m.amd->llvm_occupancy == 4);
    const PtxasKernel& r = ks.at("_Z9reduce_k2Pf");
    CHECK(r.registers == 128);
    CHECK(r.amd->sgprs == 97);
    CHECK(r.smem_static == 20000);
    CHECK(r.amd->max_workgroup_size == 128);
    // Every figure an AMD artefact lacks is null with a reason.
    bool spill_reason = false;
    for (const auto& [field, why] : s.amd->unread) spill_reason |= field == "spill_stores" && why.find("registers") != std::string::npos;
    CHECK(spill_reason);
    CHECK(!s.spill_stores);
    CHECK(!s.barriers);
}

TEST_CASE("llc-19 remarks give the numbers its assembly comments give") {
    for (const char* cpu : {"gfx942", "gfx1100"}) {
        CAPTURE(cpu);
        auto asm_ks = by_name(occ::io::parse_amd_text(text_of(std::string("kernels_") + cpu + ".s")).kernels);
        auto rem = by_name(occ::io::parse_amd_text(text_of(std::string("kernels_") + cpu + ".remarks")).kernels);
        REQUIRE(rem.size() == 3);
        for (const auto& entry : rem) {
            const auto& name = entry.first;  // not a structured binding: clang 14 cannot capture one (CAPTURE)
            const auto& k = entry.second;
            CAPTURE(name);
            const PtxasKernel& a = asm_ks.at(name);
            CHECK(k.format == "llvm remark");
            CHECK(k.arch.empty());  // a remark does not name the target
            CHECK(k.registers == a.registers);
            CHECK(k.amd->sgprs == a.amd->sgprs);
            CHECK(k.smem_static == a.smem_static);
            CHECK(k.stack_frame == a.stack_frame);
            CHECK(k.amd->llvm_occupancy == a.amd->llvm_occupancy);
            CHECK(k.amd->dynamic_stack == false);
            if (std::string(cpu) == "gfx942") CHECK(k.amd->agprs == a.amd->agprs);
            else CHECK(!k.amd->agprs);  // RDNA: no AGPRs line
        }
    }
}

TEST_CASE("llc-19 assembly with a device function: its comments stay its own") {
    const occ::io::PtxasLog log = occ::io::parse_amd_text(text_of("calls_gfx942.s"));
    REQUIRE(log.kernels.size() == 2);
    CHECK(log.kernels[0].mangled == "helper");
    CHECK(!log.kernels[0].entry);            // no .amdhsa_kernel block
    CHECK(log.kernels[0].amd->sgprs == 38);  // its "; Function info:"
    CHECK(log.kernels[1].mangled == "k");
    CHECK(log.kernels[1].entry);
    CHECK(log.kernels[1].amd->sgprs == 39);  // its "; Kernel info:"
    CHECK(log.kernels[1].registers == 32);
    CHECK(log.kernels[1].amd->dynamic_stack == std::nullopt);
}

TEST_CASE("llc-14 assembly (gfx90a)") {
    auto ks = by_name(occ::io::parse_amd_text(text_of("kernels_gfx90a_llc14.s")).kernels);
    REQUIRE(ks.size() == 3);
    CHECK(ks.at("mfma_tile").arch == "gfx90a");
    CHECK(ks.at("mfma_tile").registers == 81);
    CHECK(ks.at("mfma_tile").amd->agprs == 32);
    CHECK(ks.at("mfma_tile").amd->vgprs_total == 116);
    CHECK(ks.at("mfma_tile").amd->sgprs == 21);  // llc-14 counts fewer extra SGPRs than llc-19 on gfx942 (27)
    CHECK(ks.at("_Z9reduce_k2Pf").amd->llvm_occupancy == 4);
}

TEST_CASE("code objects, offload bundles and .hip_fatbin: each kernel as llc printed it") {
    const auto oracle942 = by_name(occ::io::parse_amd_text(text_of("kernels_gfx942.s")).kernels);
    const auto oracle1100 = by_name(occ::io::parse_amd_text(text_of("kernels_gfx1100.s")).kernels);
    const struct {
        const char* file;
        const char* format;
        int code_objects;
    } cases[] = {
        {"kernels_gfx942.o", "code object", 1}, {"kernels_gfx942.hsaco", "code object", 1}, {"kernels_gfx1100.hsaco", "code object", 1},
        {"bundle.hipfb", "offload bundle", 2},  {"bundle_zlib.hipfb", "offload bundle", 2}, {"bundle_zstd.hipfb", "offload bundle", 2},
        {"host_hip.o", "object file", 2}};
    for (const auto& c : cases) {
        CAPTURE(c.file);
        const occ::io::BinaryRead r = occ::io::read_binary(c.file, bytes_of(c.file));
        REQUIRE_MESSAGE(r.error.empty(), r.error);
        CHECK(r.format == c.format);
        CHECK(r.code_objects == c.code_objects);
        CHECK(r.kernels.size() == 3u * c.code_objects);
        for (const PtxasKernel& k : r.kernels) {
            CHECK(k.format == "code object");
            CHECK(k.source_file == c.file);
            same_as_llc(k, (k.arch == "gfx942" ? oracle942 : oracle1100).at(k.mangled));
        }
    }
    const occ::io::BinaryRead b = occ::io::read_binary("b", bytes_of("bundle.hipfb"));
    CHECK(b.kernels[0].source_entry == "file bundle #0, entry 1 (hipv4-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-)");
    CHECK(b.kernels[0].amd->target == "amdgcn-amd-amdhsa--gfx942");  // the metadata's amdhsa.target (llc set no features)
    CHECK(occ::io::read_binary("h", bytes_of("host_hip.o")).kernels[0].source_entry.find(".hip_fatbin") == 0);
}

TEST_CASE("hand-written remark variants (tests/fixtures/amd/README.md cites each)") {
    auto clang = by_name(occ::io::parse_amd_text(text_of("remarks_clang.txt")).kernels);
    REQUIRE(clang.size() == 2);
    const PtxasKernel& g = clang.at("_Z10gemm_tile8PKDF16_S0_Pf");
    CHECK(g.amd->sgprs == 62);  // TotalSGPRs (LLVM 20+)
    CHECK(g.registers == 90);
    CHECK(g.amd->agprs == 64);
    CHECK(g.stack_frame == 16);
    CHECK(g.amd->vgpr_spills == 4);
    CHECK(g.smem_static == 32768);
    CHECK(g.amd->llvm_occupancy == 1);
    CHECK(clang.at("_Z9saxpy_ldsPKfPfif").smem_static == 1024);
    auto hipcc = by_name(occ::io::parse_amd_text(text_of("remarks_hipcc.txt")).kernels);
    REQUIRE(hipcc.size() == 1);
    CHECK(hipcc.at("_Z7stencilPKfPfi").amd->sgprs == 26);
    CHECK(!hipcc.at("_Z7stencilPKfPfi").amd->dynamic_stack);  // no such line before LLVM 18
    const auto pasted = occ::io::parse_amd_text(text_of("remarks_pasted.txt"));
    REQUIRE(pasted.kernels.size() == 1);
    CHECK(pasted.kernels[0].mangled.empty());
    CHECK(pasted.kernels[0].registers == 170);
    CHECK(pasted.kernels[0].amd->sgprs == 52);
    CHECK(pasted.kernels[0].smem_static == 65536);
    CHECK(occ::io::looks_like_amd_text(text_of("remarks_pasted.txt")));
    CHECK(!occ::io::looks_like_amd_text("ptxas info    : Used 26 registers, 4224 bytes smem"));
}

TEST_CASE("ptxas and kernels kinds: AMD rows carry compute_amd_occupancy's answer") {
    const json out = occ::io::api_ptxas(json{{"log", text_of("kernels_gfx942.remarks")}, {"gpu", "MI300X"}, {"threads", 256}});
    REQUIRE_MESSAGE(out["error"].is_null(), out.dump());
    REQUIRE(out["kernels"].size() == 3);
    CHECK(out["summary"]["failed"] == 0);  // a remark does not carry reduce_k2's 128-thread bound (its assembly does)
    const json asm_out = occ::io::api_ptxas(json{{"log", text_of("kernels_gfx942.s")}, {"threads", 256}});
    CHECK(asm_out["summary"]["failed"] == 1);
    CHECK(asm_out["kernels"][2]["error"].get<std::string>().find("max_flat_workgroup_size 128") != std::string::npos);
    const occ::amd::AmdArch& a = *occ::amd::find_amd_arch("gfx942");
    for (const json& row : out["kernels"]) {
        if (row["mangled"] != "mfma_tile") continue;
        occ::amd::AmdLaunch l;
        l.threads = 256;
        const auto r = occ::amd::compute_amd_occupancy(a, occ::amd::AmdKernel{81, 32, 27, 0}, l);
        CHECK(row["occupancy"]["waves_per_simd"] == r.waves_per_simd);
        CHECK(row["occupancy"]["waves_per_simd"] == 4);  // = llc's "; Occupancy: 4"
        CHECK(row["device"] == "MI300X");
        CHECK(row["resources"]["agprs"] == 32);
    }
    // Vendor mismatches name both sides.
    const json nv = occ::io::api_ptxas(json{{"log", text_of("kernels_gfx942.s")}, {"gpu", "H100"}});
    CHECK(nv["error"].get<std::string>().find("is an NVIDIA GPU") != std::string::npos);
    std::ifstream f(std::string(OCC_SOURCE_DIR) + "/tests/fixtures/ptxas/kernels_sm80.log");
    const std::string cuda{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
    const json amd = occ::io::api_ptxas(json{{"log", cuda}, {"gpu", "MI300X"}});
    CHECK(amd["error"].get<std::string>().find("is an AMD GPU") != std::string::npos);
    // The artefact's figures are refused.
    CHECK(occ::io::api_ptxas(json{{"log", ""}, {"arch", "gfx942"}, {"sgprs", 3}})["error"] ==
          "sgprs: comes from the log for each kernel; leave it out");
    // Code object without a device: each kernel on its own target; a build for another target is skipped.
    std::vector<occ::io::BinaryRead> files;
    files.push_back(occ::io::read_binary("bundle.hipfb", bytes_of("bundle.hipfb")));
    const auto k = occ::io::answer_kernels(json{{"arch", "gfx1100"}, {"threads", 128}}, files);
    REQUIRE(k);
    CHECK(k->rows.rows.size() == 3);
    CHECK(k->rows.skipped.size() == 3);
    for (const occ::io::PtxasRow& row : k->rows.rows) CHECK(row.amd_result);
}

TEST_CASE("MessagePack reader: values, and hostile input refused") {
    // {"a": [1, -1, "x", true, nil, 300]} in MessagePack.
    const std::vector<unsigned char> ok = {0x81, 0xa1, 'a', 0x96, 0x01, 0xff, 0xa1, 'x', 0xc3, 0xc0, 0xcd, 0x01, 0x2c};
    const auto v = occ::io::parse_msgpack(ok);
    REQUIRE(v);
    CHECK(v->dump() == R"({"a":[1,-1,"x",true,null,300]})");
    CHECK(!occ::io::parse_msgpack(std::vector<unsigned char>{0xdd, 0xff, 0xff, 0xff, 0xff}));       // 4G elements in 0 bytes
    CHECK(!occ::io::parse_msgpack(std::vector<unsigned char>{0xdb, 0x00, 0x00, 0x10, 0x00, 'a'}));  // string past the end
    CHECK(!occ::io::parse_msgpack(std::vector<unsigned char>{0x81, 0x01, 0x02}));                   // key not a string
    CHECK(!occ::io::parse_msgpack(std::vector<unsigned char>(100, 0x91)));                          // nested 100 deep
    CHECK(!occ::io::parse_msgpack(std::vector<unsigned char>{0xc1}));                               // never used
}

TEST_CASE("hostile bundles and code objects end in an error naming what is wrong") {
    std::vector<unsigned char> b = bytes_of("bundle.hipfb");
    auto trunc = b;
    trunc.resize(40);
    CHECK(occ::io::read_binary("t", trunc).error.find("offload bundle") != std::string::npos);
    auto far = b;
    far[32] = 0xff;  // entry 0's offset far past the end
    far[39] = 0x7f;
    CHECK(!occ::io::read_binary("f", far).error.empty());
    auto count = b;
    count[24] = 0xff;  // a billion entries
    count[28] = 0xff;
    CHECK(occ::io::read_binary("c", count).error.find("entries") != std::string::npos);
    std::vector<unsigned char> z = bytes_of("bundle_zlib.hipfb");
    z[12] = 0xff;  // uncompressed size 4 GiB+
    z[15] = 0x7f;
    CHECK(!occ::io::read_binary("z", z).error.empty());
    std::vector<unsigned char> co = bytes_of("kernels_gfx942.hsaco");
    co.resize(co.size() / 2);
    CHECK(!occ::io::read_binary("co", co).error.empty());
    CHECK(occ::io::amd_processor("hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+") == "gfx90a");
    CHECK(occ::io::amd_mach_name(0x54c) == "gfx942");
}
