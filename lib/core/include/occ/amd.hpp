// occ/amd.hpp — theoretical occupancy of one HIP kernel launch on one AMD compute unit (CU), or
// on one workgroup processor (WGP) on RDNA in its default WGP mode.
//
// The model, rule by rule (each rule is cited in amd_occupancy.cpp and docs/AMD.md):
//   wave slots  workgroups ≤ max waves per SIMD × SIMDs / waves per workgroup
//   VGPRs       per-lane VGPRs (+ AGPRs: unified file on gfx90a+) rounded to the granule; waves per
//               SIMD = VGPR file / that, at most the wave-slot maximum
//   SGPRs       gfx9 only (800 per SIMD); from gfx10 every wave has its own 106 and they never limit
//   LDS         bytes rounded to the allocation granule; workgroups ≤ LDS per CU (WGP) / that
//   workgroups  multi-wave workgroups hold a barrier: 16 per CU, 32 per WGP
// The answer is counted in whole workgroups, then spread over the SIMDs (waves per SIMD, the number
// AMD's tools call occupancy). LLVM's own estimate (the `; Occupancy:` comment llc prints) is
// computed beside it (llvm_waves_per_simd); docs/AMD.md says where and why the two differ.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "occ/limiter.hpp"

namespace occ {
struct GpuEntry;
}

namespace occ::amd {

// How accumulation VGPRs (AGPRs, the MFMA operand file) share the register budget.
enum class AgprFile : std::uint8_t {
    none,      // no AGPRs (RDNA)
    separate,  // gfx908: a second 256-register file; the larger of the two counts
    unified,   // gfx90a+: one 512-register file, AGPRs after the VGPRs aligned to 4
};

// How SGPRs limit waves per SIMD.
enum class SgprRule : std::uint8_t {
    gfx9,  // 800 SGPRs per SIMD, in granules of 16, plus the trap handler's 16 per wave
    none,  // gfx10+: each wave has its own SGPRs; they never limit
};

// How one LDS instruction width splits a wave into phases (occ/amd_lds.hpp; cited in amd_arch.cpp and
// docs/AMD.md "LDS bank conflicts"). Lanes of one phase are serviced together; only they can conflict.
enum class LdsLaneGroups : std::uint8_t {
    contiguous,   // lanes 0..n-1, n..2n-1, ...
    quad_pairs,   // 8 lanes: the lane quads q and q^5 of each 32-lane half (T0-3 + T20-23, T4-7 + T16-19, ...)
    quad_parity,  // 16 lanes: the lane quads of equal bit parity in each half (T0-3, T12-15, T20-23, T24-27, ...)
};
struct LdsPhaseRule {
    int banks = 32;  // banks the phase's dwords spread over
    int lanes = 32;  // lanes per phase (64: the whole wave64 at once)
    LdsLaneGroups groups = LdsLaneGroups::contiguous;
};
// A target's LDS bank rules: [0] accesses of 1, 2 or 4 bytes (ds_read_b32, _u8, _u16), [1] 8 bytes
// (b64), [2] 16 bytes (b128), for reads and for writes.
struct LdsRules {
    int bank_bytes = 4;
    LdsPhaseRule read[3];
    LdsPhaseRule write[3];
    std::string_view measured_on;  // the target whose published phases these are ("gfx942")
};

// One gfx target's rules: the named fields the model reads, one entry per ISA (amd_arch.cpp).
struct AmdArch {
    std::string_view isa;       // LLVM target name, "gfx942"
    std::string_view family;    // "CDNA3", "RDNA4"
    int default_wave_size;      // 64 on CDNA, 32 on RDNA (what hipcc compiles for)
    bool wave32 = false;        // wave32 supported
    bool wave64 = true;         // wave64 supported
    bool has_wgp_mode = false;  // RDNA: a workgroup runs on a WGP (two CUs) unless CU mode is asked for
    int simds_per_cu = 4;       // SIMDs (LLVM's "EUs") sharing a workgroup's waves: 4 per CU (CDNA) or per WGP
    int max_waves_per_simd = 10;
    int vgprs_wave64 = 256;  // per-lane VGPRs one SIMD holds for wave64 (LLVM getTotalNumVGPRs)
    int vgpr_granule_wave64 = 4;
    int vgprs_wave32 = 0;  // 0 when wave32 is unsupported
    int vgpr_granule_wave32 = 0;
    int max_vgprs = 256;  // per lane one wave may address (arch VGPRs; AGPRs the same again)
    AgprFile agprs = AgprFile::none;
    SgprRule sgprs = SgprRule::gfx9;
    int max_sgprs = 108;                     // the most a kernel reports (addressable + VCC/flat-scratch/XNACK)
    int sgpr_file = 800;                     // SGPRs per SIMD (gfx9)
    int sgpr_granule = 16;                   // allocation granule (gfx9)
    int sgpr_trap_reserve = 16;              // SGPRs each wave also holds while a trap handler is installed (gfx9)
    std::int64_t lds_per_cu = 65536;         // bytes of LDS per CU (per WGP: twice this in WGP mode)
    std::int64_t lds_per_workgroup = 65536;  // the most one workgroup may allocate
    int lds_granule = 512;                   // bytes: COMPUTE_PGM_RSRC2.LDS_SIZE granularity
    int barriers_per_cu = 16;                // workgroups of 2+ waves resident per CU (per WGP: 32)
    int max_threads_per_workgroup = 1024;
    bool llvm14 = false;            // Debian's llc-14 knows this target
    bool llvm19 = false;            // Debian's llc-19 knows this target
    const LdsRules* lds = nullptr;  // LDS banks and phases (never null in amd_archs())
};

// The targets occ knows, in ISA order.
std::span<const AmdArch> amd_archs();
// nullptr when unknown.
const AmdArch* find_amd_arch(std::string_view isa);

// The target of an AMD catalogue GPU (occ/device.hpp amd_gpus(), lookup_amd_gpu()); nullptr for
// any other entry.
const AmdArch* amd_arch_of(const GpuEntry& g);

// What the compiler reported for the kernel (llc's `; NumVgprs:`, `; NumAgprs:`, `; NumSgprs:`,
// `; LDSByteSize:`, or the code object's .vgpr_count / .agpr_count / .sgpr_count /
// .group_segment_fixed_size).
struct AmdKernel {
    int vgprs = 32;              // arch VGPRs per lane
    int agprs = 0;               // accumulation VGPRs per lane (gfx908/gfx90a/gfx94x/gfx950)
    int sgprs = 32;              // SGPRs incl. VCC, flat scratch, XNACK mask
    std::int64_t lds_bytes = 0;  // static LDS (group segment)
    // The kernel's .max_flat_workgroup_size (code-object metadata; HIP's __launch_bounds__ sets
    // LLVM's "amdgpu-flat-work-group-size"="1,N"); 0 = not declared. A larger workgroup is undefined
    // behaviour (LLVM AMDGPUUsage, "amdgpu-flat-work-group-size") and HIP refuses the launch.
    int max_threads = 0;
};

struct AmdLaunch {
    int threads = 256;             // threads per workgroup (x*y*z)
    int wave_size = 0;             // 0 = the target's default; 32 or 64
    bool cu_mode = false;          // RDNA: -mcumode (a workgroup on one CU, not a WGP)
    std::int64_t lds_dynamic = 0;  // bytes of dynamic LDS (hipLaunchKernelGGL's sharedMemBytes)
    // ROCm installs a trap handler on HSA, and on gfx9 every wave then also holds its SGPRs; false
    // for a system without one.
    bool trap_handler = true;
};

// What sets the workgroup count; one bit per limit, in the order kAmdLimiters lists them.
enum AmdLimiter : unsigned {
    kAmdLimitWaveSlots = 1u << 0,
    kAmdLimitVgprs = 1u << 1,
    kAmdLimitSgprs = 1u << 2,
    kAmdLimitLds = 1u << 3,
    kAmdLimitWorkgroups = 1u << 4,  // barrier / workgroup slots
};

enum class AmdError : std::uint8_t {
    none,
    threads_range,       // threads < 1 or > the workgroup maximum
    wave_size,           // a wave size the target does not run
    vgprs_range,         // vgprs < 0 or > max_vgprs
    agprs_range,         // agprs on a target without them, or > max_vgprs
    sgprs_range,         // sgprs < 0 or > max_sgprs
    lds_range,           // negative, or more than one workgroup may allocate
    registers_too_many,  // a workgroup's waves do not fit the CU's register files (launch fails)
    over_kernel_max,     // more threads than the kernel's max_flat_workgroup_size (launch fails)
};

// A launch that fails (an answer with its error, as CUDA's refused launch), not an input out of range.
inline constexpr bool amd_launch_fails(AmdError e) { return e == AmdError::registers_too_many || e == AmdError::over_kernel_max; }

inline constexpr int kAmdUnlimited = 0x7fffffff;

struct AmdOccupancyResult {
    const AmdArch* arch = nullptr;
    int wave_size = 0;
    bool wgp_mode = false;        // the workgroup runs on a WGP (RDNA default)
    bool trap_handler = true;     // as launched (AmdLaunch::trap_handler)
    int simds = 0;                // SIMDs its waves spread over (4 per CU or WGP, 2 per RDNA CU)
    int waves_per_workgroup = 0;  // ceil(threads / wave size)
    int max_waves_per_simd = 0;

    int vgprs_allocated = 0;         // per lane, VGPRs (+AGPRs) rounded to the granule
    int vgpr_file = 0;               // per-lane VGPRs per SIMD for this wave size
    int waves_per_simd_vgprs = 0;    // what the VGPRs alone allow
    int waves_per_simd_sgprs = 0;    // what the SGPRs alone allow (the maximum from gfx10)
    std::int64_t lds_allocated = 0;  // per workgroup, rounded to the granule
    std::int64_t lds_per_cu = 0;     // the pool the workgroups share (per WGP in WGP mode)

    // Workgroups per CU (WGP) each limit alone allows (kAmdUnlimited when it places no bound).
    int limit_wave_slots = 0;
    int limit_vgprs = 0;
    int limit_sgprs = 0;
    int limit_lds = 0;
    int limit_workgroups = 0;
    unsigned limiters = 0;  // AmdLimiter bits of the limits equal to workgroups_per_cu

    int workgroups_per_cu = 0;  // per WGP in WGP mode
    int waves_per_cu = 0;
    int waves_per_simd = 0;  // ceil(waves_per_cu / simds): the occupancy AMD's tools report
    double occupancy = 0.0;  // waves_per_simd / max_waves_per_simd

    // LLVM's estimate for the same kernel (llc's `; Occupancy:`), with its rules: LDS unrounded, no
    // whole-workgroup rounding for registers (AMDGPUSubtarget::getOccupancyWithLocalMemSize).
    int llvm_waves_per_simd = 0;

    AmdError error = AmdError::none;
    std::string error_message;  // names the field and its allowed range
    bool ok() const { return error == AmdError::none; }
};

// An AMD limiter (occ/limiter.hpp's key, words and rule) and where its limit is held; the one
// list every face iterates (docs/AMD.md has the rules with their sources).
struct AmdLimiterInfo : LimiterKey {
    int AmdOccupancyResult::*limit;  // the workgroups per CU (WGP) it alone allows
};
inline constexpr AmdLimiterInfo kAmdLimiters[] = {
    {{kAmdLimitWaveSlots, "wave_slots", "wave slots", "Wave slots",
      "Wave slots: each SIMD holds a fixed number of waves (the target's wave slots); a workgroup's waves are spread over the "
      "SIMDs of its CU (WGP).",
      LimiterRole::warps},
     &AmdOccupancyResult::limit_wave_slots},
    {{kAmdLimitVgprs, "vgprs", "VGPRs", "VGPRs",
      "VGPRs: each lane's vector registers (+ AGPRs on CDNA) are allocated in granules out of the SIMD's file; the waves that fit "
      "per SIMD, in whole workgroups.",
      LimiterRole::registers},
     &AmdOccupancyResult::limit_vgprs},
    {{kAmdLimitSgprs, "sgprs", "SGPRs", "SGPRs",
      "SGPRs (gfx9 only): each wave holds its scalar registers in granules, plus a reserve for the trap handler, out of the "
      "SIMD's file; from gfx10 every wave has its own.",
      LimiterRole::scalar_registers},
     &AmdOccupancyResult::limit_sgprs},
    {{kAmdLimitLds, "lds", "LDS", "LDS",
      "LDS: static + dynamic, rounded to the target's granule, out of the CU's (WGP's) local data share.", LimiterRole::shared_memory},
     &AmdOccupancyResult::limit_lds},
    {{kAmdLimitWorkgroups, "workgroups", "workgroup slots", "Workgroup slots",
      "Workgroup slots: a workgroup of two or more waves holds one of the CU's (WGP's) barriers.", LimiterRole::blocks},
     &AmdOccupancyResult::limit_workgroups},
};
static_assert(detail::bits_in_order(kAmdLimiters), "kAmdLimiters: entry i must be bit 1 << i");
inline std::span<const AmdLimiterInfo> amd_limiters() { return kAmdLimiters; }
// The workgroups per CU (WGP) one limiter allows (kAmdUnlimited when it does not limit).
inline int amd_limit_of(const AmdOccupancyResult& r, unsigned bit) { return r.*kAmdLimiters[std::countr_zero(bit)].limit; }

AmdOccupancyResult compute_amd_occupancy(const AmdArch& arch, const AmdKernel& k, const AmdLaunch& l);

// Why each limit allows what it does, and what sets the answer; built here so every face shows the
// same sentences.
std::string amd_explain(const AmdOccupancyResult& r);
// How one limit comes to what it allows (amd_limit_of): "4 SIMDs x 8 wave slots / 4 waves of 64
// per workgroup", the table's "how" column and the lines of amd_explain.
std::string amd_limit_note(const AmdOccupancyResult& r, AmdLimiter which);
// What would fit one more workgroup ("To fit at most 80 VGPRs per lane (3 workgroups per CU, 6
// waves per SIMD)."), for each limiter at the answer; "" at the maximum or when only smaller
// workgroups would help.
std::string amd_fix(const AmdOccupancyResult& r);

// The wave size a launch runs at: `requested` (0 = the target's default, 32 or 64) when the target
// runs it, else 0; amd_wave_size_error says why ("must be 0 or 64 on gfx942 (0 = the target's own,
// 64), got 32"; "" when it runs).
int amd_wave_size(const AmdArch& a, int requested);
std::string amd_wave_size_error(const AmdArch& a, int requested);

// The rules the model and the oracle share, exposed for tests.
int amd_waves_per_simd_vgprs(const AmdArch& a, int wave_size, int total_vgprs);
int amd_waves_per_simd_sgprs(const AmdArch& a, int sgprs, bool trap_handler = true);
int amd_llvm_waves_per_simd_sgprs(const AmdArch& a, int sgprs);  // LLVM 14..19's table
int amd_total_vgprs(const AmdArch& a, int vgprs, int agprs);     // what occupies the file per lane
// LLVM's estimate (llc's `; Occupancy:`) under the rules of LLVM 19 (llvm_major >= 19) or of
// LLVM 14 (below 19: the two Debian releases the oracle runs); inputs are taken as valid.
int amd_llvm_occupancy(const AmdArch& a, const AmdKernel& k, const AmdLaunch& l, int llvm_major);

}  // namespace occ::amd
