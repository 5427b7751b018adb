// test_warp_interp.cpp — the warp interpreter (occ/warp_interp.hpp) on the nvcc fixtures and on
// hand-written PTX; every expected number is derived by hand in the comment beside it.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "occ/io/ptx.hpp"
#include "occ/warp_interp.hpp"

namespace {

std::string ptx_fixture(const std::string& name) {
    std::ifstream f(std::string(OCC_SOURCE_DIR) + "/tests/fixtures/ptx/" + name, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

const occ::ArchRules& sm80() { return *occ::find_arch(8, 0); }

struct Run {
    occ::ptx::Program prog;
    occ::InterpReport rep;
};

Run run(const std::string& text, const std::string& entry, const occ::InterpOptions& o) {
    auto r = occ::io::read_ptx(text);
    REQUIRE_MESSAGE(r, r.error);
    Run out{std::move(*r), {}};
    const auto* e = out.prog.find_entry(entry);
    REQUIRE(e);
    out.rep = occ::interpret_warps(out.prog, *e, o, sm80());
    REQUIRE_MESSAGE(out.rep.ok(), out.rep.error);
    return out;
}

const occ::AccessSite& site(const occ::InterpReport& r, const std::string& opcode, int nth = 0, const std::string& side = {}) {
    for (const auto& s : r.sites)
        if (s.opcode == opcode && s.side == side && nth-- == 0) return s;
    FAIL("no site " << opcode);
    return r.sites.front();
}

// A kernel around `body`: one u64 pointer parameter p (in %rd1, as a global address) and %tid.x in %r1.
std::string kernel(const std::string& body, const std::string& decls = {}) {
    return ".version 8.0\n.target sm_80\n.address_size 64\n" + decls +
           ".visible .entry k(.param .u64 k_param_0)\n{\n"
           ".reg .pred %p<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<16>;\n"
           "ld.param.u64 %rd9, [k_param_0];\ncvta.to.global.u64 %rd1, %rd9;\nmov.u32 %r1, %tid.x;\n" +
           body + "ret;\n}\n";
}

}  // namespace

TEST_CASE("interp: coalesced and strided float accesses") {
    occ::InterpOptions o;
    o.params = {{"copy_f32_param_2", 1000}};
    const auto c = run(ptx_fixture("kernels_sm80.ptx"), "copy_f32", o);
    // 32 consecutive floats from a 256-byte-aligned base: 128 bytes = 4 sectors, ideal 4.
    const auto& ld = site(c.rep, "ld.global.nc.f32");
    CHECK(ld.executions == 1);
    CHECK(ld.costed == 1);
    CHECK(ld.sectors.max == 4);
    CHECK(ld.ideal_sectors.max == 4);
    CHECK(ld.active_lanes.max == 32);
    CHECK(ld.loc.line == 8);
    CHECK_FALSE(ld.notes.empty());  // the symbolic base of the pointer parameter is an assumption
    CHECK(site(c.rep, "st.global.f32").sectors.max == 4);
    REQUIRE(c.rep.warps.size() == 1);
    CHECK(c.rep.warps[0].finished);
    // Line 8 holds both: 4 + 4 sectors.
    bool line8 = false;
    for (const auto& l : c.rep.lines)
        if (l.loc.line == 8) {
            line8 = true;
            CHECK(l.sectors == 8);
            CHECK(l.ideal_sectors == 8);
            CHECK(l.executions == 2);
        }
    CHECK(line8);

    const auto s = run(ptx_fixture("kernels_sm80.ptx"), "stride2_f32", {});
    // in[2*i]: 32 floats 8 bytes apart span 256 bytes = 8 sectors, only 128 bytes used: ideal 4.
    CHECK(site(s.rep, "ld.global.f32").sectors.max == 8);
    CHECK(site(s.rep, "ld.global.f32").ideal_sectors.max == 4);
    CHECK(site(s.rep, "st.global.f32").sectors.max == 4);

    const auto v = run(ptx_fixture("kernels_sm80.ptx"), "copy_f4", {});
    // float4: 32 lanes x 16 bytes = 512 bytes = 16 sectors, ideal 16, access_bytes 16.
    CHECK(site(v.rep, "ld.global.v4.u32").access_bytes == 16);
    CHECK(site(v.rep, "ld.global.v4.u32").sectors.max == 16);
}

TEST_CASE("interp: transpose tile bank conflicts, with and without padding") {
    occ::InterpOptions o;
    o.block[0] = 32;
    o.block[1] = 32;
    o.params = {{"2", 1024}};  // width, by position
    o.warps = {{{0, 0, 0}, 0}, {{0, 0, 0}, 5}};
    const auto n = run(ptx_fixture("kernels_sm80.ptx"), "transpose_naive", o);
    // Row write tile[ty][tx]: 32 consecutive words = 32 banks, 1 wavefront.
    const auto& w = site(n.rep, "st.shared.f32");
    CHECK(w.executions == 2);
    CHECK(w.wavefronts.max == 1);
    CHECK(w.conflicts.max == 0);
    // Column read tile[tx][ty]: lane tx at byte tx*128 + 4*ty, bank (32*tx + ty) mod 32 = ty for
    // every lane: 32 distinct words in one bank = 32 wavefronts, ideal 1, 31 conflicts (32-way).
    const auto& r = site(n.rep, "ld.shared.f32");
    CHECK(r.executions == 2);
    CHECK(r.wavefronts.min == 32);
    CHECK(r.wavefronts.max == 32);
    CHECK(r.ideal_wavefronts.max == 1);
    CHECK(r.conflicts.mean() == doctest::Approx(31.0));
    const auto p = run(ptx_fixture("kernels_sm80.ptx"), "transpose_padded", o);
    // tile[32][33]: lane tx at word 33*tx + ty, bank (tx + ty) mod 32: all 32 banks, 1 wavefront.
    CHECK(site(p.rep, "ld.shared.f32").wavefronts.max == 1);
    CHECK(site(p.rep, "ld.shared.f32").conflicts.max == 0);
}

TEST_CASE("interp: predicated tail, divergence and reconvergence") {
    occ::InterpOptions o;
    o.params = {{"copy_f32_param_2", 20}};
    const auto t = run(ptx_fixture("kernels_sm80.ptx"), "copy_f32", o);
    // i < 20: lanes 0..19 run the body; 80 bytes from an aligned base = sectors 0, 1, 2.
    CHECK(site(t.rep, "ld.global.nc.f32").active_lanes.max == 20);
    CHECK(site(t.rep, "ld.global.nc.f32").sectors.max == 3);
    CHECK(site(t.rep, "ld.global.nc.f32").ideal_sectors.max == 3);
    // Block 1 with n = 40: threads 32..39 active, bytes 128..159 = 1 sector.
    o.params = {{"copy_f32_param_2", 40}};
    o.grid[0] = 2;
    o.warps = {{{1, 0, 0}, 0}};
    const auto t2 = run(ptx_fixture("kernels_sm80.ptx"), "copy_f32", o);
    CHECK(site(t2.rep, "ld.global.nc.f32").active_lanes.max == 8);
    CHECK(site(t2.rep, "ld.global.nc.f32").sectors.max == 1);

    // Lanes 0..15 store at 4*tid, lanes 16..31 at 8*tid; both paths join before the store, so it
    // is one request of 32 lanes: bytes 0..63 (sectors 0, 1) and 128..251 (sectors 4..7) = 6
    // sectors; 128 distinct bytes = ideal 4.
    const std::string body =
        "setp.lt.u32 %p1, %r1, 16;\n@%p1 bra $A;\nshl.b32 %r2, %r1, 3;\nbra.uni $J;\n$A:\nshl.b32 %r2, %r1, 2;\n$J:\n"
        "cvt.u64.u32 %rd2, %r2;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r1;\n";
    const auto d = run(kernel(body), "k", {});
    const auto& st = site(d.rep, "st.global.u32");
    CHECK(st.executions == 1);
    CHECK(st.active_lanes.max == 32);
    CHECK(st.sectors.max == 6);
    CHECK(st.ideal_sectors.max == 4);
    CHECK(d.rep.warps[0].finished);
}

TEST_CASE("interp: data-dependent addresses, unmodelled opcodes, unknown branches") {
    const auto g = run(ptx_fixture("kernels_sm80.ptx"), "gather_f32", [] {
        occ::InterpOptions o;
        o.params = {{"gather_f32_param_3", 64}};
        return o;
    }());
    // idx[i] is coalesced (4 sectors); a[idx[i]] is built from a loaded value: not guessed.
    CHECK(site(g.rep, "ld.global.u32").sectors.max == 4);
    const auto& a = site(g.rep, "ld.global.f32");
    CHECK(a.executions == 1);
    CHECK(a.costed == 0);
    CHECK(a.unknown == 1);
    CHECK(a.unknown_reason.find("data-dependent (gather)") == 0);
    CHECK(a.unknown_reason.find("ld.global.u32") != std::string::npos);
    CHECK(site(g.rep, "st.global.f32").sectors.max == 4);

    // mul24 is not modelled: the address it feeds is unknown, naming the instruction.
    const auto u = run(kernel("mul24.lo.u32 %r2, %r1, 4;\ncvt.u64.u32 %rd2, %r2;\nadd.s64 %rd3, %rd1, %rd2;\n"
                              "ld.global.u32 %r3, [%rd3];\n"),
                       "k", {});
    const auto& x = site(u.rep, "ld.global.u32");
    CHECK(x.unknown == 1);
    CHECK(x.unknown_reason.find("mul24.lo.u32") != std::string::npos);
    CHECK(x.unknown_reason.find("not modelled") != std::string::npos);
    REQUIRE(u.rep.unmodelled.size() == 1);
    CHECK(u.rep.unmodelled[0].find("mul24.lo.u32") == 0);

    // copy_f32 without n: "if (i < n)" cannot be decided; the warp stops and says why.
    const auto b = run(ptx_fixture("kernels_sm80.ptx"), "copy_f32", {});
    CHECK_FALSE(b.rep.warps[0].finished);
    CHECK(b.rep.warps[0].stopped.find("unknown predicate") != std::string::npos);
    CHECK(b.rep.warps[0].stopped.find("copy_f32_param_2") != std::string::npos);
    CHECK(site(b.rep, "ld.global.nc.f32").executions == 0);
    // Asked to assume the branch is not taken, it runs the body with all 32 lanes and notes it.
    occ::InterpOptions nt;
    nt.unknown_branch = occ::UnknownBranch::not_taken;
    const auto b2 = run(ptx_fixture("kernels_sm80.ptx"), "copy_f32", nt);
    CHECK(site(b2.rep, "ld.global.nc.f32").sectors.max == 4);
    bool noted = false;
    for (const auto& n : b2.rep.notes) noted = noted || n.find("assumed the branch") == 0;
    CHECK(noted);
}

TEST_CASE("interp: loop bound cut-off is reported") {
    occ::InterpOptions o;
    o.params = {{"row_sum_param_2", 2000}, {"row_sum_param_3", 64}};
    o.max_visits = 100;
    const auto r = run(ptx_fixture("kernels_sm80.ptx"), "row_sum", o);
    // The loop is unrolled by 4 (500 trips for 2000 rows): each of its four loads runs 100 times,
    // then the 101st visit of the loop's first instruction stops the warp.
    CHECK(site(r.rep, "ld.global.f32", 0).executions == 100);
    CHECK(site(r.rep, "ld.global.f32", 3).executions == 100);
    CHECK(site(r.rep, "ld.global.f32", 0).sectors.max == 4);
    REQUIRE(r.rep.warps.size() == 1);
    CHECK_FALSE(r.rep.warps[0].finished);
    CHECK(r.rep.warps[0].stopped.find("loop cut off") == 0);
    CHECK(r.rep.warps[0].stopped.find("max_visits = 100") != std::string::npos);
    // With 9 rows: 2 unrolled trips (8 rows) + 1 remainder trip, all finished.
    o.params = {{"row_sum_param_2", 9}, {"row_sum_param_3", 64}};
    const auto f = run(ptx_fixture("kernels_sm80.ptx"), "row_sum", o);
    CHECK(f.rep.warps[0].finished);
    CHECK(site(f.rep, "ld.global.f32", 0).executions == 2);
    CHECK(site(f.rep, "ld.global.f32", 4).executions == 1);
    // max_steps cuts too.
    occ::InterpOptions s = o;
    s.max_steps = 10;
    const auto st = run(ptx_fixture("kernels_sm80.ptx"), "row_sum", s);
    CHECK(st.rep.warps[0].stopped.find("max_steps = 10") != std::string::npos);
}

TEST_CASE("interp: integer semantics seen through shared-memory banks") {
    const std::string decls = ".shared .align 4 .b8 pad[4];\n.shared .align 16 .b8 buf[4096];\n";
    auto wavefronts = [&](const std::string& body, int expect_lanes = 32) {
        const auto r = run(kernel("mov.u32 %r20, buf;\n" + body + "add.s32 %r21, %r20, %r9;\nst.shared.u32 [%r21], %r1;\n", decls), "k",
                           {});
        const auto& s = site(r.rep, "st.shared.u32");
        REQUIRE_MESSAGE(s.costed == 1, s.unknown_reason);
        CHECK(s.active_lanes.max == expect_lanes);
        return s.wavefronts.max;
    };
    // rem 8, rows of 128 bytes: lanes t and t+8 share a word, 8 distinct words in bank 0 = 8 wavefronts.
    CHECK(wavefronts("rem.u32 %r2, %r1, 8;\nshl.b32 %r9, %r2, 7;\n") == 8);
    // div 4, words: 8 distinct words in 8 banks, each broadcast to 4 lanes = 1 wavefront.
    CHECK(wavefronts("div.u32 %r2, %r1, 4;\nshl.b32 %r9, %r2, 2;\n") == 1);
    // bfe.u32 (t >> 2) & 7 is the same as div 4 for t < 32.
    CHECK(wavefronts("bfe.u32 %r2, %r1, 2, 3;\nshl.b32 %r9, %r2, 2;\n") == 1);
    // min(t, 3) * 128: words 0, 32, 64, 96 in bank 0 = 4 wavefronts.
    CHECK(wavefronts("min.u32 %r2, %r1, 3;\nshl.b32 %r9, %r2, 7;\n") == 4);
    // selp on t < 16: lanes 0..15 at word t, lanes 16..31 at byte 128*t (word 32*t, bank 0): bank 0
    // holds word 0 (lane 0) and 16 more distinct words = 17 wavefronts.
    CHECK(wavefronts("setp.lt.u32 %p1, %r1, 16;\nshl.b32 %r3, %r1, 2;\nshl.b32 %r4, %r1, 7;\nselp.b32 %r9, %r3, %r4, %p1;\n") == 17);
    // prmt picks byte 0 of t (t < 32): the identity for these lanes, 1 wavefront.
    CHECK(wavefronts("prmt.b32 %r2, %r1, 0, 0x4440;\nshl.b32 %r9, %r2, 2;\n") == 1);
    // Signed compare: t - 16 >= 0 only for lanes 16..31, which jump past the first store: it has
    // lanes 0..15 on 16 consecutive words = 1 wavefront (an unsigned compare would send all 32).
    CHECK(wavefronts("sub.s32 %r5, %r1, 16;\nsetp.ge.s32 %p2, %r5, 0;\n@%p2 bra $S;\nshl.b32 %r9, %r1, 2;\n"
                     "add.s32 %r21, %r20, %r9;\nst.shared.u32 [%r21], %r1;\n$S:\nshl.b32 %r9, %r1, 2;\n",
                     16) == 1);
    // buf sits after pad at its .align 16 (offset 16), so 16-byte lanes are aligned: 4 wavefronts.
    const auto v = run(kernel("mov.u32 %r20, buf;\nshl.b32 %r9, %r1, 4;\nadd.s32 %r21, %r20, %r9;\n"
                              "st.shared.v4.u32 [%r21], {%r1, %r1, %r1, %r1};\n",
                              decls),
                       "k", {});
    CHECK(site(v.rep, "st.shared.v4.u32").costed == 1);
    CHECK(site(v.rep, "st.shared.v4.u32").wavefronts.max == 4);
}

TEST_CASE("interp: Triton vector add, cp.async, ldmatrix and listed instructions") {
    occ::InterpOptions o;
    o.block[0] = 128;
    o.params = {{"add_kernel_param_3", 100}};
    o.warps = {{{0, 0, 0}, 0}, {{0, 0, 0}, 1}};
    const auto t = run(ptx_fixture("triton_add_sm90a.ptx"), "add_kernel", o);
    // 4 floats per thread at element 4*tid, mask 4*tid < 100: lanes 0..24 of warp 0, 25 x 16 =
    // 400 bytes = 13 sectors (12.5 rounded up), ideal 13; warp 1 (elements 128..255) has no lane.
    const auto& ld = site(t.rep, "ld.global.v4.b32");
    CHECK(ld.executions == 1);
    CHECK(ld.active_lanes.max == 25);
    CHECK(ld.sectors.max == 13);
    CHECK(ld.ideal_sectors.max == 13);
    CHECK(site(t.rep, "st.global.v4.b32").sectors.max == 13);

    occ::InterpOptions a;
    a.params = {{"async_kernel_param_2", 20}};
    const auto c = run(ptx_fixture("triton_async_sm100a.ptx"), "async_kernel", a);
    // cp.async 16 bytes per lane, src-size 0 past tid 20: global side 20 lanes x 16 = 320 bytes =
    // 10 sectors; shared side all 32 lanes, 16-byte lanes = 4 phases of 8, 1 wavefront each.
    const auto& gs = site(c.rep, "cp.async.cg.shared.global", 0, "global side");
    CHECK(gs.active_lanes.max == 20);
    CHECK(gs.sectors.max == 10);
    const auto& ss = site(c.rep, "cp.async.cg.shared.global", 0, "shared side");
    CHECK(ss.wavefronts.max == 4);
    CHECK(ss.ideal_wavefronts.max == 4);
    // ldmatrix .x4, rows 16 bytes apart: each phase of 8 rows covers 128 bytes = 4 wavefronts.
    CHECK(site(c.rep, "ldmatrix.sync.aligned.m8n8.x4.shared.b16").wavefronts.max == 4);
    // rows 128 bytes apart: the 8 rows of a phase all start in bank 0: 8 per phase, 32 in all, 28 conflicts.
    const auto& tr = site(c.rep, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16");
    CHECK(tr.wavefronts.max == 32);
    CHECK(tr.conflicts.max == 28);
    // Descriptor-based instructions are listed, named and not costed.
    int listed = 0;
    for (const auto& s : c.rep.sites)
        if (s.model == occ::SiteModel::listed) {
            ++listed;
            CHECK(s.costed == 0);
            CHECK_FALSE(s.listed_reason.empty());
        }
    CHECK(listed == 9);  // 2 mbarrier, 1 TMA, 4 wgmma, 2 tcgen05
    CHECK(site(c.rep, "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes").listed_reason.find("TMA") == 0);
    REQUIRE_FALSE(c.rep.unmodelled.empty());
    CHECK(c.rep.unmodelled.back().find("shfl.sync.idx.b32") == 0);
}

TEST_CASE("interp: refused options") {
    auto r = occ::io::read_ptx(ptx_fixture("kernels_sm80.ptx"));
    REQUIRE(r);
    const auto* e = r->find_entry("copy_f32");
    occ::InterpOptions o;
    o.block[0] = 0;
    CHECK(occ::interpret_warps(*r, *e, o, sm80()).error.find("block") == 0);
    o.block[0] = 64;
    o.warps = {{{0, 0, 0}, 2}};
    CHECK(occ::interpret_warps(*r, *e, o, sm80()).error.find("warps: warp 2") == 0);
    o.warps = {{{1, 0, 0}, 0}};
    CHECK(occ::interpret_warps(*r, *e, o, sm80()).error.find("outside the grid") != std::string::npos);
}

TEST_CASE("interp: every fixture entry runs without crashing, with or without parameters") {
    for (const char* f : {"kernels_sm80.ptx", "kernels_sm90.ptx", "triton_add_sm90a.ptx", "triton_async_sm100a.ptx"}) {
        auto r = occ::io::read_ptx(ptx_fixture(f));
        REQUIRE(r);
        for (const auto& e : r->entries) {
            for (auto policy : {occ::UnknownBranch::stop, occ::UnknownBranch::not_taken, occ::UnknownBranch::taken}) {
                occ::InterpOptions o;
                o.block[0] = 64;
                o.warps = {{{0, 0, 0}, 0}, {{0, 0, 0}, 1}};
                o.unknown_branch = policy;
                const auto rep = occ::interpret_warps(*r, e, o, sm80());
                REQUIRE(rep.ok());
                CHECK(rep.warps.size() == 2);
                for (const auto& s : rep.sites) CHECK(s.costed + s.unknown <= s.executions);
            }
        }
    }
}

TEST_CASE("interp: the worst execution and its explanation are the described-pattern models' own") {
    occ::InterpOptions o;
    o.block[0] = 128;
    o.warps = {{{0, 0, 0}, 0}, {{0, 0, 0}, 3}};
    const auto s = run(ptx_fixture("kernels_sm80.ptx"), "stride2_f32", o);
    // in[2 * i]: lanes 8 bytes apart; the worst (first on ties) is warp 0's execution.
    const auto& ld = site(s.rep, "ld.global.f32");
    REQUIRE(ld.has_worst);
    CHECK(ld.worst_warp.warp == 0);
    CHECK(ld.worst_excess == 4);  // 8 sectors, ideal 4
    CHECK(ld.worst.access_bytes == 4);
    CHECK(ld.worst.addr[1] - ld.worst.addr[0] == 8);
    // The same words as analyze_global_block on an affine stride-2 pattern of one warp.
    occ::AccessPattern p;
    p.stride = 2;
    const occ::GlobalBlockResult g = occ::analyze_global_block(p, sm80());
    const occ::SiteExplanation x = occ::site_explanation(ld, sm80());
    CHECK(x.reason == g.reason);
    CHECK(x.fix == g.fix);
    // A coalesced store: a reason, no fix.
    const occ::SiteExplanation st = occ::site_explanation(site(s.rep, "st.global.f32"), sm80());
    CHECK(!st.reason.empty());
    CHECK(st.fix.empty());
    // A shared column read: the bank model's words, a fix that pads or swizzles.
    occ::InterpOptions t;
    t.block[0] = t.block[1] = 32;
    t.params = {{"2", 1024}};
    const auto n = run(ptx_fixture("kernels_sm80.ptx"), "transpose_naive", t);
    const auto& col = site(n.rep, "ld.shared.f32");
    CHECK(col.worst_excess == 31);
    CHECK(occ::site_explanation(col, sm80()).fix.find("pad") != std::string::npos);
    // A site never run has no worst execution and no words.
    occ::InterpOptions none;
    const auto c = run(ptx_fixture("kernels_sm80.ptx"), "copy_f32", none);  // n unknown: the warp stops at the guard
    CHECK_FALSE(site(c.rep, "st.global.f32").has_worst);
    CHECK(occ::site_explanation(site(c.rep, "st.global.f32"), sm80()).reason.empty());
}
