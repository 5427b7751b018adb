// Known answers for AMD LDS bank conflicts (occ/amd_lds.hpp). Each expected number is read from the
// public source named beside it; docs/AMD.md "LDS bank conflicts" lists the sources and the rules.
//   [EMP]   github.com/nod-ai/amd-shark-ai docs/empirical-lds/cdna3info.md, cdna4info.md, rdna3info.md,
//           rdna4info.md, lds_summary.md (rocprof bank-conflict counts and phase groups, measured)
//   [SHARK] github.com/nod-ai/amd-shark-ai docs/amdgpu_kernel_optimization_guide.md, "Avoiding LDS Bank Conflicts"
//   [BLOG]  rocm.blogs.amd.com/software-tools-optimization/lds-bank-conflict/README.html
//   [FI207] github.com/AMD-Ecosystem/flashinfer pull 207 (MI300X, k128B vs k128B_16Row swizzle)
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "occ/amd_lds.hpp"

using namespace occ::amd;

namespace {
const AmdArch& arch(const char* isa) {
    const AmdArch* a = find_amd_arch(isa);
    REQUIRE(a != nullptr);
    return *a;
}

LdsWave strided(int bytes, std::uint64_t stride_bytes, int wave = 64, bool store = false) {
    LdsWave w;
    w.wave_size = wave;
    w.access_bytes = bytes;
    w.store = store;
    for (int l = 0; l < 64; ++l) w.addr[static_cast<std::size_t>(l)] = static_cast<std::uint64_t>(l) * stride_bytes;
    return w;
}

LdsResult run(const char* isa, const LdsWave& w) {
    const AmdArch& a = arch(isa);
    REQUIRE(check_lds_wave(a, w).empty());
    return analyze_lds(a, w);
}
}  // namespace

TEST_CASE("amd lds: MI300X ds_read stride sweeps give rocprof's bank-conflict counts [EMP cdna3info.md]") {
    // cdna3info.md reports SQ bank conflicts per 64-read block; one ds_read is a 64th of it.
    struct Row {
        int bytes;
        std::uint64_t stride;
        int per_block;
    };
    const Row rows[] = {
        {4, 4, 0},      {4, 8, 128}, {4, 16, 384},  {4, 32, 896},   {4, 64, 1920},   {4, 128, 3968},  {4, 256, 3968},
        {4, 512, 3968}, {8, 8, 0},   {8, 16, 256},  {8, 32, 768},   {8, 64, 1792},   {8, 128, 3840},  {8, 256, 3840},
        {8, 512, 3840}, {16, 16, 0}, {16, 32, 512}, {16, 64, 1536}, {16, 128, 3584}, {16, 256, 3584}, {16, 512, 3584},
    };
    for (const Row& row : rows) {
        CAPTURE(row.bytes);
        CAPTURE(row.stride);
        const LdsResult r = run("gfx942", strided(row.bytes, row.stride));
        CHECK(r.conflicts * 64 == row.per_block);
        CHECK(r.ideal_cycles == (row.bytes == 4 ? 2 : row.bytes == 8 ? 4 : 8));  // 2, 4, 8 phases [EMP]
    }
    // Fully conflicted: every lane of a phase on one bank, lanes-per-phase cycles each.
    const LdsResult b32 = run("gfx942", strided(4, 128));
    CHECK(b32.max_way == 32);
    CHECK(b32.cycles == 64);
}

TEST_CASE("amd lds: the published ds_read_b128 lane groups [SHARK, BLOG, EMP]") {
    const LdsPhaseRule& cdna3 = lds_phase_rule(arch("gfx942"), 16, false);
    // MI300: T0-T3 with T20-T23, T4-T7 with T16-T19, T8-T11 with T28-T31, T12-T15 with T24-T27, and +32.
    CHECK(lds_phase_of(cdna3, 0) == lds_phase_of(cdna3, 23));
    CHECK(lds_phase_of(cdna3, 4) == lds_phase_of(cdna3, 16));
    CHECK(lds_phase_of(cdna3, 8) == lds_phase_of(cdna3, 31));
    CHECK(lds_phase_of(cdna3, 12) == lds_phase_of(cdna3, 24));
    CHECK(lds_phase_of(cdna3, 32) == lds_phase_of(cdna3, 55));
    CHECK(lds_phase_of(cdna3, 0) != lds_phase_of(cdna3, 4));
    CHECK(lds_phase_of(cdna3, 0) != lds_phase_of(cdna3, 32));
    // ds_write_b128 on MI300: 8 groups of 8 consecutive lanes [SHARK; BLOG].
    const LdsPhaseRule& w128 = lds_phase_rule(arch("gfx942"), 16, true);
    CHECK(lds_phase_of(w128, 0) == lds_phase_of(w128, 7));
    CHECK(lds_phase_of(w128, 7) != lds_phase_of(w128, 8));
    // MI350 (gfx950): 4 phases of 16: T0-3, T12-15, T20-23, T24-27 / T4-7, T8-11, T16-19, T28-31.
    const LdsPhaseRule& cdna4 = lds_phase_rule(arch("gfx950"), 16, false);
    for (int l : {12, 20, 27}) CHECK(lds_phase_of(cdna4, l) == lds_phase_of(cdna4, 0));
    for (int l : {8, 16, 31}) CHECK(lds_phase_of(cdna4, l) == lds_phase_of(cdna4, 4));
    CHECK(lds_phase_of(cdna4, 0) != lds_phase_of(cdna4, 4));
    CHECK(lds_phase_of(cdna4, 36) == lds_phase_of(cdna4, 40));
    // RDNA4 (RX 9070 XT): groups of 8 consecutive lanes; RDNA3 (W7900): MI300's quad pairs [EMP].
    CHECK(lds_phase_of(lds_phase_rule(arch("gfx1201"), 16, false), 4) == 0);
    CHECK(lds_phase_of(lds_phase_rule(arch("gfx1100"), 16, false), 20) == 0);
    // A pattern only the grouping decides: lane quads 0-3 share banks 0-15 (different dwords), quads
    // 4-7 banks 16-31. MI300's pairs (q, q^5) mix the halves: conflict-free; RDNA4's (q, q+1): 2-way.
    LdsWave w = strided(16, 0, 32);
    for (int l = 0; l < 32; ++l) {
        const int q = l / 4;
        w.addr[static_cast<std::size_t>(l)] = static_cast<std::uint64_t>(128 * q + (q >= 4 ? 64 : 0) + 16 * (l % 4));
    }
    CHECK(run("gfx1100", w).conflicts == 0);
    CHECK(run("gfx1201", w).max_way == 2);
    CHECK(run("gfx1201", w).conflicts == 4);
}

TEST_CASE("amd lds: MI350X reads have 64 banks [EMP cdna4info.md]; writes keep 32") {
    // ds_read_b64 saturates at a 256-byte stride on gfx950 (64 banks), at 128 on gfx942.
    CHECK(run("gfx950", strided(8, 128)).max_way == 16);
    CHECK(run("gfx950", strided(8, 256)).max_way == 32);
    CHECK(run("gfx942", strided(8, 128)).max_way == 16);
    // b32 reads: one phase of 64 lanes; consecutive dwords are conflict-free in one cycle.
    const LdsResult b32 = run("gfx950", strided(4, 4));
    CHECK(b32.phases == 1);
    CHECK(b32.cycles == 1);
    // A 128-byte stride: 2 distinct banks... each asked by 32 lanes: 32-way, not 64 (gfx942: 2 x 32).
    CHECK(run("gfx950", strided(4, 128)).cycles == 32);
    CHECK(run("gfx942", strided(4, 128)).cycles == 64);
    // Writes: 32 banks (rocRoller LDSBankModel.cpp; SHARK: only the read bandwidth doubles).
    CHECK(lds_phase_rule(arch("gfx950"), 4, true).banks == 32);
    CHECK(run("gfx950", strided(4, 128, 64, true)).max_way == 32);
}

TEST_CASE("amd lds: the MI300X MFMA A-tile read of the ROCm blog is 2-way [BLOG 'Naive Solution']") {
    // A [64 x 32] fp16 tile, row-major (64-byte rows), read with ds_read_b128 for a 16x16x32 MFMA:
    // lane l takes row l % 16, 8 halves at column 8 * (l / 16) (the operand layout is occ's reading of
    // the MFMA; the blog gives the verdict: "ds_read_b128 suffer from a 2-way bank conflict").
    LdsWave w = strided(16, 0);
    for (int l = 0; l < 64; ++l) w.addr[static_cast<std::size_t>(l)] = static_cast<std::uint64_t>((l % 16) * 64 + (l / 16) * 16);
    const LdsResult r = run("gfx942", w);
    CHECK(r.max_way == 2);
    CHECK(r.cycles == 16);
    CHECK(r.ideal_cycles == 8);
    // The blog's write side: each lane stores 8 consecutive halves, lanes consecutive: conflict-free.
    CHECK(run("gfx942", strided(16, 16, 64, true)).conflicts == 0);
}

TEST_CASE("amd lds: flashinfer's MI300X k128B swizzle conflicts, k128B_16Row does not [FI207]") {
    // ds_read_b64 (uint2) from rows of 256 bytes (HEAD_DIM 128, fp16); lane l reads row i = l % 16 at
    // uint2 column j ^ (i % 8) with j = l / 16. The PR's table: lanes i and i + 8 of a 16-lane phase
    // land on the same bank. (The PR's title calls it "8-way"; its table shows 8 banks each asked by
    // 2 lanes, which is 2 cycles per phase: occ reports max_way 2.)
    auto wave = [](int period) {
        LdsWave w = strided(8, 0);
        for (int l = 0; l < 64; ++l) {
            const int i = l % 16, j = l / 16;
            w.addr[static_cast<std::size_t>(l)] = static_cast<std::uint64_t>(32 * i + (j ^ (i % period))) * 8;
        }
        return w;
    };
    const LdsResult k128 = run("gfx942", wave(8));
    CHECK(k128.max_way == 2);
    CHECK(k128.cycles == 8);
    CHECK(k128.ideal_cycles == 4);
    CHECK(k128.conflict_lanes == ~std::uint64_t{0});
    const LdsResult k16row = run("gfx942", wave(16));
    CHECK(k16row.conflicts == 0);
}

TEST_CASE("amd lds: properties on every target, width and direction") {
    std::mt19937_64 rng(2027);
    for (const AmdArch& a : amd_archs()) {
        for (int bytes : {1, 2, 4, 8, 16}) {
            for (bool store : {false, true}) {
                const int wave = a.default_wave_size;
                const LdsPhaseRule& rule = lds_phase_rule(a, bytes, store);
                CAPTURE(a.isa);
                CAPTURE(bytes);
                CAPTURE(store);
                // A bank-free pattern: the k-th lane of each phase takes slot k of its own 1 KiB page;
                // permuting lanes within a phase keeps it conflict-free.
                LdsWave w = strided(bytes, 0, wave, store);
                const int phases = std::max(1, wave / rule.lanes);
                for (int ph = 0; ph < phases; ++ph) {
                    std::vector<int> lanes;
                    for (int l = 0; l < wave; ++l)
                        if (lds_phase_of(rule, l) == ph) lanes.push_back(l);
                    std::vector<std::uint64_t> slots;
                    for (std::size_t k = 0; k < lanes.size(); ++k)
                        slots.push_back(static_cast<std::uint64_t>(ph) * 1024 + k * static_cast<std::uint64_t>(std::max(bytes, 4)));
                    std::shuffle(slots.begin(), slots.end(), rng);
                    for (std::size_t k = 0; k < lanes.size(); ++k) w.addr[static_cast<std::size_t>(lanes[k])] = slots[k];
                }
                const LdsResult free = run(std::string(a.isa).c_str(), w);
                CHECK(free.conflicts == 0);
                CHECK(free.cycles == phases);
                // Broadcast: one address for every lane costs one cycle per phase.
                const LdsResult bc = run(std::string(a.isa).c_str(), strided(bytes, 0, wave, store));
                CHECK(bc.cycles == phases);
                CHECK(bc.max_way == 1);
                // Random addresses: the degree never exceeds the lanes of a phase.
                for (int t = 0; t < 20; ++t) {
                    LdsWave rw = strided(bytes, 0, wave, store);
                    rw.active = rng();
                    for (int l = 0; l < 64; ++l) rw.addr[static_cast<std::size_t>(l)] = (rng() % 4096) * static_cast<std::uint64_t>(bytes);
                    const LdsResult r = run(std::string(a.isa).c_str(), rw);
                    CHECK(r.max_way <= rule.lanes);
                    CHECK(r.conflicts >= 0);
                    CHECK(r.cycles <= r.active_lanes * std::max(1, bytes / 4));
                }
            }
        }
    }
}

TEST_CASE("amd lds: inactive lanes, refusals and the reason") {
    LdsWave one = strided(4, 128);
    one.active = 1;  // a single lane: one phase, one cycle, the empty phase is skipped
    CHECK(run("gfx942", one).cycles == 1);
    CHECK(run("gfx942", one).ideal_cycles == 1);
    LdsWave bad = strided(16, 8);
    CHECK(check_lds_wave(arch("gfx942"), bad).find("not a multiple of 16") != std::string::npos);
    LdsWave w3 = strided(4, 4);
    w3.access_bytes = 12;
    CHECK(check_lds_wave(arch("gfx942"), w3).find("access_bytes") == 0);
    LdsWave w32 = strided(4, 4, 32);
    CHECK(check_lds_wave(arch("gfx942"), w32).find("wave64 only") != std::string::npos);
    const LdsWave waves[] = {strided(4, 4), strided(4, 8)};
    const LdsBlockResult b = analyze_lds_block(arch("gfx942"), waves);
    REQUIRE(b.ok());
    CHECK(b.worst_wave == 1);
    CHECK(b.conflicts == 2);
    CHECK(b.cycles == 6);
    CHECK(b.reason.find("2-way") == 0);
    CHECK(b.reason.find("lanes 0, 16") != std::string::npos);
    CHECK(lds_basis(arch("gfx942"), 8, false, 64).measured);
    CHECK_FALSE(lds_basis(arch("gfx90a"), 8, false, 64).measured);
    CHECK_FALSE(lds_basis(arch("gfx942"), 4, true, 64).measured);
    CHECK(lds_instruction(16, false) == "ds_read_b128");
    CHECK(lds_instruction(2, true) == "ds_write_b16");
}
