// The AMD occupancy model (occ/amd.hpp). Rules and their sources, in the order applied:
//   [LLVM]  llvm/lib/Target/AMDGPU/Utils/AMDGPUBaseInfo.cpp, namespace IsaInfo (LLVM 19):
//           getNumWavesPerEUWithNumVGPRs, getOccupancyWithNumSGPRs, getEUsPerCU,
//           getMaxWorkGroupsPerCU, getLocalMemorySize
//   [SUBT]  llvm/lib/Target/AMDGPU/AMDGPUSubtarget.cpp, getOccupancyWithLocalMemSize and
//           GCNSubtarget::computeOccupancy (the `; Occupancy:` comment)
//   [USAGE] LLVM AMDGPUUsage, "AMDGPU Code Object V3+ Kernel Descriptor": COMPUTE_PGM_RSRC2.LDS_SIZE
//           granularity, COMPUTE_PGM_RSRC3_GFX90A.ACCUM_OFFSET (AGPRs follow the VGPRs aligned to 4)
// docs/AMD.md has the rules in prose with the citations.
#include <algorithm>
#include <array>
#include <cstdio>

#include "occ/amd.hpp"
#include "occ/amd_advisor.hpp"
#include "occ/format.hpp"
#include "occ/text.hpp"

namespace occ::amd {
namespace {

int ceil_div(std::int64_t a, std::int64_t b) { return static_cast<int>((a + b - 1) / b); }
std::int64_t round_up(std::int64_t a, std::int64_t g) { return (a + g - 1) / g * g; }

AmdOccupancyResult fail(AmdOccupancyResult r, AmdError e, std::string msg) {
    r.error = e;
    r.error_message = std::move(msg);
    return r;
}

std::string str(std::int64_t v) { return std::to_string(v); }

}  // namespace

int amd_total_vgprs(const AmdArch& a, int vgprs, int agprs) {
    switch (a.agprs) {
        // [USAGE] ACCUM_OFFSET: the AGPRs start after the VGPRs, at a multiple of 4; one file of 512.
        case AgprFile::unified: return agprs > 0 ? static_cast<int>(round_up(vgprs, 4)) + agprs : vgprs;
        // gfx908: two files of 256; the wave needs the larger (LLVM's TotalNumVgprs = max).
        case AgprFile::separate: return std::max(vgprs, agprs);
        case AgprFile::none: break;
    }
    return vgprs;
}

// [LLVM] getNumWavesPerEUWithNumVGPRs: fewer than one granule never limits; else the file over the
// count rounded up to the granule, at least 1, at most the wave-slot maximum.
int amd_waves_per_simd_vgprs(const AmdArch& a, int wave_size, int total_vgprs) {
    const int file = wave_size == 32 ? a.vgprs_wave32 : a.vgprs_wave64;
    const int granule = wave_size == 32 ? a.vgpr_granule_wave32 : a.vgpr_granule_wave64;
    if (total_vgprs < granule) return a.max_waves_per_simd;
    const int rounded = static_cast<int>(round_up(total_vgprs, granule));
    return std::min(std::max(file / rounded, 1), a.max_waves_per_simd);
}

// [SGPR] gfx9: each wave holds its SGPRs rounded up to the granule (16) plus, while a trap handler
// is installed (ROCm on HSA), 16 more; the SIMD's 800 are shared by its waves. LLVM since PR 201342
// ("Make SGPR occupancy the exact inverse of getMaxNumSGPRs") and HIP's runtime since ROCm
// rocm-systems PR 10618 (gfx942, 92 SGPRs: 28 one-wave workgroups per CU on the hardware, not 32).
// From gfx10 each wave has its own SGPRs and they never limit.
int amd_waves_per_simd_sgprs(const AmdArch& a, int sgprs, bool trap_handler) {
    if (a.sgprs == SgprRule::none) return a.max_waves_per_simd;
    const int per_wave = static_cast<int>(round_up(std::max(sgprs, 1), a.sgpr_granule)) + (trap_handler ? a.sgpr_trap_reserve : 0);
    return std::min(a.sgpr_file / per_wave, a.max_waves_per_simd);
}

// [LLVM] getOccupancyWithNumSGPRs as released in LLVM 14 to 19 (VOLCANIC_ISLANDS..GFX9 branch): a
// table that ignores the trap reserve and part of the granule; only LLVM's estimate uses it.
int amd_llvm_waves_per_simd_sgprs(const AmdArch& a, int sgprs) {
    if (a.sgprs == SgprRule::none || sgprs <= 0) return a.max_waves_per_simd;
    const int w = sgprs <= 80 ? 10 : sgprs <= 88 ? 9 : sgprs <= 100 ? 8 : 7;
    return std::min(w, a.max_waves_per_simd);
}

int amd_wave_size(const AmdArch& a, int requested) {
    const int w = requested == 0 ? a.default_wave_size : requested;
    return (w == 32 && a.wave32) || (w == 64 && a.wave64) ? w : 0;
}

std::string amd_wave_size_error(const AmdArch& a, int requested) {
    if (amd_wave_size(a, requested) != 0) return "";
    return std::string("must be ") + (a.wave32 ? (a.wave64 ? "0, 32 or 64" : "0 or 32") : "0 or 64") + " on " + std::string(a.isa) +
           " (0 = the target's own, " + str(a.default_wave_size) + "), got " + str(requested);
}

AmdOccupancyResult compute_amd_occupancy(const AmdArch& a, const AmdKernel& k, const AmdLaunch& l) {
    AmdOccupancyResult r;
    r.arch = &a;
    r.wave_size = amd_wave_size(a, l.wave_size);
    if (r.wave_size == 0) return fail(r, AmdError::wave_size, "wave_size " + amd_wave_size_error(a, l.wave_size));
    if (l.threads < 1 || l.threads > a.max_threads_per_workgroup)
        return fail(r, AmdError::threads_range,
                    "threads must be 1.." + str(a.max_threads_per_workgroup) + " (threads per workgroup), got " + str(l.threads));
    if (k.vgprs < 0 || k.vgprs > a.max_vgprs)
        return fail(r, AmdError::vgprs_range, "regs must be 0.." + str(a.max_vgprs) + " (VGPRs per lane), got " + str(k.vgprs));
    if (k.agprs < 0 || (a.agprs == AgprFile::none && k.agprs != 0) || k.agprs > a.max_vgprs)
        return fail(r, AmdError::agprs_range,
                    "agprs must be 0.." + str(a.agprs == AgprFile::none ? 0 : a.max_vgprs) +
                        (a.agprs == AgprFile::none ? " (" + std::string(a.isa) + " has no AGPRs)" : std::string(" (AGPRs per lane)")) +
                        ", got " + str(k.agprs));
    if (k.sgprs < 0 || k.sgprs > a.max_sgprs)
        return fail(r, AmdError::sgprs_range, "sgprs must be 0.." + str(a.max_sgprs) + " (SGPRs per wave), got " + str(k.sgprs));
    const std::int64_t lds = k.lds_bytes + l.lds_dynamic;
    if (k.lds_bytes < 0 || l.lds_dynamic < 0 || lds > a.lds_per_workgroup)
        return fail(r, AmdError::lds_range,
                    "smem_static + smem_dynamic (LDS per workgroup) must be 0.." + format_bytes(a.lds_per_workgroup) + " on " +
                        std::string(a.isa) + ", got " + format_bytes(lds));

    // [LLVM] getEUsPerCU, getLocalMemorySize, getMaxWorkGroupsPerCU: in WGP mode (RDNA's default) a
    // workgroup's waves may use both CUs of the WGP: 4 SIMDs, twice the LDS, 32 barriers.
    r.wgp_mode = a.has_wgp_mode && !l.cu_mode;
    r.trap_handler = l.trap_handler;
    const int wgp = r.wgp_mode ? 2 : 1;
    r.simds = a.simds_per_cu * wgp;
    r.lds_per_cu = a.lds_per_cu * wgp;
    const int barriers = a.barriers_per_cu * wgp;
    r.max_waves_per_simd = a.max_waves_per_simd;
    const int n = ceil_div(l.threads, r.wave_size);  // [LLVM] getWavesPerWorkGroup
    r.waves_per_workgroup = n;

    const int total_vgprs = amd_total_vgprs(a, k.vgprs, k.agprs);
    const int granule = r.wave_size == 32 ? a.vgpr_granule_wave32 : a.vgpr_granule_wave64;
    r.vgpr_file = r.wave_size == 32 ? a.vgprs_wave32 : a.vgprs_wave64;
    r.vgprs_allocated = static_cast<int>(round_up(std::max(total_vgprs, 1), granule));
    r.waves_per_simd_vgprs = amd_waves_per_simd_vgprs(a, r.wave_size, total_vgprs);
    r.waves_per_simd_sgprs = amd_waves_per_simd_sgprs(a, k.sgprs, l.trap_handler);
    // [USAGE] LDS is allocated per workgroup in granules (512 B; 1280 B on GFX950).
    r.lds_allocated = round_up(lds, a.lds_granule);

    const int slots = a.max_waves_per_simd * r.simds;
    r.limit_wave_slots = slots / n;
    // Every wave of a workgroup needs its own registers on some SIMD: the SIMDs together hold
    // waves_per_simd_x × simds waves, in whole workgroups.
    r.limit_vgprs = r.waves_per_simd_vgprs >= a.max_waves_per_simd ? kAmdUnlimited : r.waves_per_simd_vgprs * r.simds / n;
    r.limit_sgprs = r.waves_per_simd_sgprs >= a.max_waves_per_simd ? kAmdUnlimited : r.waves_per_simd_sgprs * r.simds / n;
    r.limit_lds = r.lds_allocated == 0 ? kAmdUnlimited : static_cast<int>(r.lds_per_cu / r.lds_allocated);
    // [LLVM] getMaxWorkGroupsPerCU: single-wave workgroups do not consume barrier resources.
    r.limit_workgroups = n == 1 ? kAmdUnlimited : barriers;

    // As on NVIDIA, a workgroup the register file cannot hold names its limiter (0 workgroups).
    if (r.limit_vgprs == 0) r.limiters |= kAmdLimitVgprs;
    if (r.limit_sgprs == 0) r.limiters |= kAmdLimitSgprs;
    if (r.limit_vgprs == 0 || r.limit_sgprs == 0)
        return fail(r, AmdError::registers_too_many,
                    "a workgroup of " + str(n) + " waves needs more registers than the " + str(r.simds) + " SIMDs hold (" +
                        str(std::min(r.waves_per_simd_vgprs, r.waves_per_simd_sgprs)) +
                        " waves per SIMD): fewer threads or fewer registers");

    if (k.max_threads > 0 && l.threads > k.max_threads)
        return fail(r, AmdError::over_kernel_max,
                    "threads " + str(l.threads) + " exceeds the kernel's max_flat_workgroup_size " + str(k.max_threads) +
                        ": the launch fails (hipErrorInvalidValue); launch at most that many");

    r.workgroups_per_cu = kAmdUnlimited;
    for (const AmdLimiterInfo& li : kAmdLimiters) r.workgroups_per_cu = std::min(r.workgroups_per_cu, r.*li.limit);
    for (const AmdLimiterInfo& li : kAmdLimiters)
        if (r.*li.limit == r.workgroups_per_cu) r.limiters |= li.bit;
    r.waves_per_cu = r.workgroups_per_cu * n;
    r.waves_per_simd = ceil_div(r.waves_per_cu, r.simds);
    r.occupancy = static_cast<double>(r.waves_per_simd) / a.max_waves_per_simd;

    r.llvm_waves_per_simd = amd_llvm_occupancy(a, k, l, 19);
    return r;
}

int amd_llvm_occupancy(const AmdArch& a, const AmdKernel& k, const AmdLaunch& l, int llvm_major) {
    const int wave = l.wave_size == 0 ? a.default_wave_size : l.wave_size;  // inputs are taken as valid
    const bool wgp = a.has_wgp_mode && !l.cu_mode;
    const int simds = a.simds_per_cu * (wgp ? 2 : 1);
    const int n = ceil_div(std::max(l.threads, 1), wave);
    const std::int64_t lds = std::max<std::int64_t>(k.lds_bytes + l.lds_dynamic, 1);
    const int maxw = a.max_waves_per_simd;
    int lds_waves = 1;
    if (llvm_major >= 19) {
        // [SUBT] getOccupancyWithLocalMemSize (LLVM 19): workgroups from the unrounded LDS bytes (at
        // least 1), capped by getMaxWorkGroupsPerCU (wave slots / n, and the barriers unless n == 1),
        // times n, spread over the SIMDs rounded up, capped by the wave slots.
        const int slots = maxw * simds;
        const int max_groups = n == 1 ? slots : std::min(slots / n, a.barriers_per_cu * (wgp ? 2 : 1));
        const int groups = static_cast<int>(a.lds_per_cu * (wgp ? 2 : 1) / lds);
        if (groups > 0) lds_waves = std::min(ceil_div(static_cast<std::int64_t>(std::min(groups, max_groups)) * n, simds), maxw);
    } else {
        // LLVM 14: the same with getMaxWorkGroupsPerCU = 40 (n == 1) or min(40 / n, 16), the LDS of one
        // CU even in WGP mode, and the waves of all those workgroups compared with the per-SIMD
        // maximum without dividing by the SIMDs (AMDGPUSubtarget.cpp as released in LLVM 14).
        const int max_groups = n == 1 ? 40 : std::min(40 / n, 16);
        const int groups = static_cast<int>(a.lds_per_cu / lds);
        if (groups > 0) lds_waves = std::min(std::min(groups, max_groups) * n, maxw);
    }
    // [SUBT] GCNSubtarget::computeOccupancy: the least of the LDS, SGPR and VGPR limits.
    return std::min({maxw, lds_waves, amd_llvm_waves_per_simd_sgprs(a, k.sgprs),
                     amd_waves_per_simd_vgprs(a, wave, amd_total_vgprs(a, k.vgprs, k.agprs))});
}

std::string amd_limit_note(const AmdOccupancyResult& r, AmdLimiter which) {
    if (!r.arch) return "";
    const AmdArch& a = *r.arch;
    const std::string unit = r.wgp_mode ? "WGP" : "CU";
    switch (which) {
        case kAmdLimitWaveSlots:
            return str(r.simds) + " SIMDs x " + str(a.max_waves_per_simd) + " wave slots / " + str(r.waves_per_workgroup) + " wave" +
                   (r.waves_per_workgroup == 1 ? "" : "s") + " of " + str(r.wave_size) + " per workgroup";
        case kAmdLimitVgprs:
            return str(r.vgprs_allocated) + " VGPRs per lane allocated (granule " +
                   str(r.wave_size == 32 ? a.vgpr_granule_wave32 : a.vgpr_granule_wave64) + ") of " + str(r.vgpr_file) + " -> " +
                   str(r.waves_per_simd_vgprs) + " waves per SIMD";
        case kAmdLimitSgprs:
            if (a.sgprs != SgprRule::gfx9) return "no limit on " + std::string(a.isa) + ": each wave has its own SGPRs";
            return str(a.sgpr_file) + " per SIMD in granules of " + str(a.sgpr_granule) +
                   (r.trap_handler ? " + " + str(a.sgpr_trap_reserve) + " per wave for the trap handler" : std::string()) + " -> " +
                   str(r.waves_per_simd_sgprs) + " waves per SIMD";
        case kAmdLimitLds:
            return format_bytes(r.lds_per_cu) + " per " + unit + " / " + format_bytes(r.lds_allocated) + " per workgroup (granule " +
                   format_bytes(a.lds_granule) + ")";
        case kAmdLimitWorkgroups:
            return r.waves_per_workgroup == 1 ? "single-wave workgroups hold no barrier"
                                              : str(r.limit_workgroups) + " barriers per " + unit + ", one per workgroup of 2+ waves";
    }
    return "";
}

std::string amd_explain(const AmdOccupancyResult& r) {
    if (!r.ok()) return r.error_message;
    const AmdArch& a = *r.arch;
    const std::string unit = r.wgp_mode ? "WGP" : "CU";
    std::string s;
    for (const AmdLimiterInfo& li : kAmdLimiters) {
        const int v = amd_limit_of(r, li.bit);
        s += std::string(li.title) + ": " + amd_limit_note(r, static_cast<AmdLimiter>(li.bit)) + " (" +
             (v == kAmdUnlimited ? std::string("no limit") : str(v) + " workgroups") + ").\n";
    }
    const std::string by = amd_limiter_labels(r.limiters, ", ");
    s += str(r.workgroups_per_cu) + " workgroups per " + unit + " (limited by " + by + ") = " + str(r.waves_per_cu) +
         " waves = " + str(r.waves_per_simd) + " of " + str(a.max_waves_per_simd) + " waves per SIMD.";
    if (r.llvm_waves_per_simd != r.waves_per_simd)
        s += "\nLLVM's estimate (`; Occupancy:`) is " + str(r.llvm_waves_per_simd) +
             ": it counts LDS unrounded, registers per SIMD without whole workgroups, and (LLVM 19) SGPRs without the trap handler's.";
    const std::string fix = amd_fix(r);
    if (!fix.empty()) s += "\n" + fix;
    return s;
}

std::string amd_fix(const AmdOccupancyResult& r) {
    if (!r.ok() || r.waves_per_simd >= r.max_waves_per_simd) return "";
    const AmdArch& a = *r.arch;
    const int next = r.workgroups_per_cu + 1;
    // Waves per SIMD one more workgroup needs, spread as the dispatcher spreads them.
    const int need = ceil_div(static_cast<std::int64_t>(next) * r.waves_per_workgroup, r.simds);
    std::string s;
    auto add = [&s](const std::string& t) { s += (s.empty() ? "To fit " : "; ") + t; };
    if (need > a.max_waves_per_simd) return "";  // the wave slots are full: only smaller workgroups help
    if (r.limiters & kAmdLimitVgprs) {
        const int granule = r.wave_size == 32 ? a.vgpr_granule_wave32 : a.vgpr_granule_wave64;
        const int most = std::min(r.vgpr_file / need / granule * granule, a.agprs == AgprFile::unified ? 512 : a.max_vgprs);
        add("at most " + str(most) + (a.agprs == AgprFile::unified ? " VGPRs+AGPRs" : " VGPRs") + " per lane");
    }
    if (r.limiters & kAmdLimitSgprs) {
        // Largest count whose rounded allocation (+ the trap reserve) fits the SIMD's file `need` times.
        const int per_wave = a.sgpr_file / need - (r.trap_handler ? a.sgpr_trap_reserve : 0);
        add("at most " + str(per_wave / a.sgpr_granule * a.sgpr_granule) + " SGPRs");
    }
    if (r.limiters & kAmdLimitLds)
        add("at most " + format_bytes(r.lds_per_cu / next / a.lds_granule * a.lds_granule) + " of LDS per workgroup");
    if (r.limiters & kAmdLimitWorkgroups) add("fewer workgroups with 2+ waves: use single-wave workgroups or larger ones");
    if (s.empty()) return "";
    return s + " (" + str(next) + " workgroups per " + (r.wgp_mode ? "WGP" : "CU") + ", " + str(need) + " waves per SIMD).";
}

}  // namespace occ::amd
