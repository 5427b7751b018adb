// The launch advisor and waves for AMD GPUs (occ/amd_advisor.hpp). Known answers, as in test_amd.cpp:
//   [LLVM]     llvm/lib/Target/AMDGPU/Utils/AMDGPUBaseInfo.cpp getNumWavesPerEUWithNumVGPRs: on gfx90a+
//              a SIMD holds 512 VGPRs per lane for wave64, allocated in granules of 8, so waves per
//              SIMD = 512 / (VGPRs rounded up to 8): 96 -> 5, 97..104 -> 4, 128 -> 4.
//   [USAGE]    llvm.org/docs/AMDGPUUsage.html, COMPUTE_PGM_RSRC2.LDS_SIZE: LDS in granules of 512 B (gfx9).
//   [CALC]     llvm.org/docs/CommandGuide/llvm-calc-occupancy.html: gfx90a, 512 threads, 50 VGPRs,
//              30 SGPRs -> "Occupancy: 8 waves/EU (32 waves/CU)".
//   [CLR10618] ROCm/rocm-systems PR 10618: gfx942, one-wave workgroups at 92 SGPRs -> 28 per CU.
// And a property over a sweep: every cut the advice suggests, applied to the model again, reaches the
// workgroups it promises, and is the largest value that does.
#include <doctest/doctest.h>

#include "occ/amd_advisor.hpp"
#include "occ/device.hpp"

using namespace occ;
using namespace occ::amd;

namespace {
const AmdArch& arch(const char* isa) {
    const AmdArch* a = find_amd_arch(isa);
    REQUIRE(a != nullptr);
    return *a;
}
AmdKernel kernel(int vgprs, int sgprs = 32, std::int64_t lds = 0) {
    AmdKernel k;
    k.vgprs = vgprs;
    k.sgprs = sgprs;
    k.lds_bytes = lds;
    return k;
}
AmdLaunch launch(int threads, std::int64_t lds_dynamic = 0) {
    AmdLaunch l;
    l.threads = threads;
    l.lds_dynamic = lds_dynamic;
    return l;
}
}  // namespace

TEST_CASE("AMD VGPR advice: gfx942, 256 threads x 128 VGPRs -> 96 gains a workgroup [LLVM]") {
    const AmdArch& a = arch("gfx942");
    // The model's table at the granule boundary [LLVM].
    CHECK(amd_waves_per_simd_vgprs(a, 64, 96) == 5);
    CHECK(amd_waves_per_simd_vgprs(a, 64, 97) == 4);
    const AmdResourceAdvice r = amd_advise_vgprs(a, kernel(128), launch(256));
    REQUIRE(r.ok());
    CHECK(r.blocks_per_sm == 4);  // 4 waves per SIMD x 4 SIMDs / 4 waves per workgroup
    CHECK(r.before.occupancy == doctest::Approx(0.5));
    CHECK(r.max_same_blocks == 128);  // 129 rounds to 136: 3 waves per SIMD
    CHECK(r.headroom == 0);
    CHECK(r.to_gain_block == 96);  // the granule boundary where the table gives 5 waves
    CHECK(r.cut_to_gain == 32);
    CHECK(r.after_cut.workgroups_per_cu == 5);
    CHECK(r.after_cut.waves_per_simd == 5);
    CHECK(r.after_cut.occupancy == doctest::Approx(0.625));
    // The occupancy answer's own fix says the same number.
    CHECK(amd_fix(r.before).find("at most 96 VGPRs+AGPRs per lane") != std::string::npos);
    // How to ask the compiler: __launch_bounds__'s second argument is amdgpu-waves-per-eu.
    const std::string s = amd_cut_suggestion(r, 256);
    CHECK(s ==
          "VGPRs 128 -> 96 per lane (cut 32, ask hipcc with __launch_bounds__(256, 5), which LLVM reads as amdgpu-waves-per-eu=5): "
          "4 -> 5 workgroups/CU, occupancy 50% -> 62.5%");
    CHECK(amd_no_headroom_sentence(r) == "no VGPR headroom: one more VGPR per lane costs a workgroup (4 workgroups/CU now)");
}

TEST_CASE("AMD advice at full occupancy: [CALC] gfx90a, 512 threads, 50 VGPRs, 30 SGPRs") {
    const AmdArch& a = arch("gfx90a");
    const AmdResourceAdvice r = amd_advise_vgprs(a, kernel(50, 30), launch(512));
    REQUIRE(r.ok());
    CHECK(r.before.waves_per_simd == 8);  // [CALC]
    CHECK(r.to_gain_block == -1);
    CHECK(r.note == "no VGPR count fits more workgroups: even with 0 VGPRs the launch is limited by wave slots");
    CHECK(r.max_same_blocks == 64);  // 512 / 64 = 8 waves per SIMD still
    CHECK(r.headroom == 14);
    CHECK(amd_headroom_suggestion(r) == "VGPR headroom: up to 64 VGPRs per lane (+14) keep 4 workgroups/CU (100%)");
}

TEST_CASE("AMD advice when SGPRs limit: [CLR10618] MI300X, 64 threads, 92 SGPRs") {
    const GpuEntry* g = lookup_amd_gpu("MI300X");
    REQUIRE(g != nullptr);
    const AmdArch& a = *amd_arch_of(*g);
    const AmdResourceAdvice r = amd_advise_vgprs(a, kernel(8, 92), launch(64));
    CHECK(r.blocks_per_sm == 28);  // [CLR10618]
    CHECK(r.to_gain_block == -1);
    CHECK(r.note.find("limited by SGPRs") != std::string::npos);
    const WaveResult w = amd_waves(r.before, g->sm_count, 10000);
    REQUIRE(w.ok());
    CHECK(w.blocks_per_wave == 28 * 304);
    CHECK(w.full_waves == 1);
    CHECK(w.tail_blocks == 10000 - 8512);
    CHECK(w.achieved_occupancy < 0);
    CHECK(w.achieved_unknown.find("NVIDIA") != std::string::npos);
}

TEST_CASE("AMD LDS advice: gfx942, 24 KiB dynamic -> 21 KiB gains a workgroup [USAGE]") {
    const AmdArch& a = arch("gfx942");
    const AmdResourceAdvice r = amd_advise_lds(a, kernel(16), launch(256, 24 * 1024));
    REQUIRE(r.ok());
    CHECK(r.blocks_per_sm == 2);          // 65536 / 24576
    CHECK(r.max_same_blocks == 32768);    // 2 x 32768 still fit
    CHECK(r.to_gain_block == 21 * 1024);  // 3 x 21504 = 64512; 21505 rounds to 22016 (x3 > 64 KiB)
    CHECK(r.after_cut.workgroups_per_cu == 3);
    const AmdLdsAdvice t = amd_available_lds(a, kernel(16), launch(256), 4);
    REQUIRE(t.ok());
    CHECK(t.available == 16384);
}

TEST_CASE("AMD block size and waves: MI300X and an RDNA3 WGP") {
    const GpuEntry* g = lookup_amd_gpu("MI300X");
    REQUIRE(g != nullptr);
    const AmdArch& a = *amd_arch_of(*g);
    // 128 VGPRs: 4 waves per SIMD whatever the size; 1024 threads (16 waves) fit one workgroup, the
    // largest with 16 active waves per CU: ties go to the larger workgroup.
    const AmdBlockSizeAdvice b = amd_advise_block_size(a, kernel(128), launch(64), SmemGrowth{}, 0, g->sm_count);
    REQUIRE(b.ok());
    CHECK(b.threads == 1024);
    CHECK(b.active_threads_per_sm == 1024);
    CHECK(b.min_grid_blocks == 304);
    CHECK(amd_advise_block_size(a, kernel(128), launch(64), SmemGrowth{}, 0, 0).min_grid_blocks == -1);  // a bare target
    // RDNA3 in WGP mode: workgroups per WGP x 48 WGPs of the 96 CUs.
    const GpuEntry* rx = lookup_amd_gpu("7900xtx");
    REQUIRE(rx != nullptr);
    const AmdOccupancyResult r = compute_amd_occupancy(*amd_arch_of(*rx), kernel(64), launch(256));
    REQUIRE(r.wgp_mode);
    const WaveResult w = amd_waves(r, rx->sm_count, 0);
    CHECK(w.sm_count == 48);
    CHECK(w.blocks_per_wave == static_cast<std::int64_t>(r.workgroups_per_cu) * 48);
    CHECK_FALSE(amd_waves(r, 0, 100).ok());  // no CU count for a bare target
}

TEST_CASE("AMD advice applied reaches the promised occupancy (sweep over targets, sizes, VGPRs, LDS)") {
    int checked = 0;
    for (const char* isa : {"gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1201"}) {
        const AmdArch& a = arch(isa);
        for (int threads : {64, 96, 128, 256, 320, 512, 1024})
            for (int vgprs = 0; vgprs <= a.max_vgprs; vgprs += 13)
                for (std::int64_t lds : {0, 3000, 12288, 40000}) {
                    const AmdKernel k = kernel(vgprs);
                    const AmdLaunch l = launch(threads, std::min<std::int64_t>(lds, a.lds_per_workgroup));
                    const AmdOccupancyResult now = compute_amd_occupancy(a, k, l);
                    for (const AmdResourceAdvice& r : {amd_advise_vgprs(a, k, l), amd_advise_lds(a, k, l)}) {
                        const bool regs = r.resource == Resource::registers;
                        auto at = [&](std::int64_t v) {
                            AmdKernel kk = k;
                            AmdLaunch ll = l;
                            if (regs) kk.vgprs = static_cast<int>(v);
                            else ll.lds_dynamic = v;
                            const AmdOccupancyResult x = compute_amd_occupancy(a, kk, ll);
                            return x.ok() ? x.workgroups_per_cu : 0;
                        };
                        CAPTURE(isa);
                        CAPTURE(threads);
                        CAPTURE(vgprs);
                        CAPTURE(lds);
                        CAPTURE(regs);
                        REQUIRE(r.ok());
                        CHECK(r.blocks_per_sm == (now.ok() ? now.workgroups_per_cu : 0));
                        CHECK(at(r.max_same_blocks) >= r.blocks_per_sm);
                        const std::int64_t hi = regs ? a.max_vgprs : a.lds_per_workgroup;
                        if (r.blocks_per_sm > 0 && r.max_same_blocks < hi) CHECK(at(r.max_same_blocks + 1) < r.blocks_per_sm);
                        if (r.to_gain_block >= 0) {
                            // Applied: the suggested value really fits more workgroups, the promised number.
                            CHECK(at(r.to_gain_block) > r.blocks_per_sm);
                            CHECK(at(r.to_gain_block) == r.after_cut.workgroups_per_cu);
                            CHECK(at(r.to_gain_block + 1) <= r.blocks_per_sm);  // and it is the largest such value
                            ++checked;
                        } else if (r.now > 0) {
                            CHECK(at(0) <= r.blocks_per_sm);  // no cut helps: not even to 0
                        }
                    }
                }
    }
    CHECK(checked > 500);
}
