// The AMD targets occ knows and a few products built on them. Every number is cited in
// docs/AMD.md; the short tag after each row says where it comes from:
//   [LLVM] llvm/lib/Target/AMDGPU/Utils/AMDGPUBaseInfo.cpp (IsaInfo::getMaxWavesPerEU,
//          getVGPRAllocGranule, getTotalNumVGPRs, getEUsPerCU, getLocalMemorySize,
//          getMaxWorkGroupsPerCU), held to llc-19 / llc-14 by tests/amd/amd_oracle.py
//   [USAGE] LLVM AMDGPUUsage, COMPUTE_PGM_RSRC2.LDS_SIZE granularity (128 dwords; 320 on GFX950)
//   [SPECS] ROCm "GPU hardware specifications" table (rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html)
//   LDS banks and phases (docs/AMD.md "LDS bank conflicts"):
//   [EMP]   nod-ai/amd-shark-ai docs/empirical-lds/lds_summary.md and cdna3info.md, cdna4info.md,
//           rdna3info.md, rdna4info.md: bank count and ds_read_b32/b64/b128 phase groups measured on
//           MI300X (gfx942), MI350X (gfx950), W7900 (gfx1100), RX 9070 XT (gfx1201)
//   [SHARK] nod-ai/amd-shark-ai docs/amdgpu_kernel_optimization_guide.md, "Workgroup Memory (LDS)" and
//           "Avoiding LDS Bank Conflicts" (MI300: 32 banks of 4 B, ds_write_b128 in 8 groups of 8 lanes;
//           MI355X: 64 banks, "doubles the read bandwidth")
//   [BLOG]  rocm.blogs.amd.com/software-tools-optimization/lds-bank-conflict/README.html, "Bank Conflict
//           Check Rule" (ds_write_b128 and ds_read_b128 lane groups on MI-series GPUs)
//   [RR]    ROCm/rocm-libraries shared/rocroller/lib/source/LDSBankModel.cpp (PR 2157): on gfx950 only
//           ds_read_b64/b128 use 64 banks; every write keeps 32
#include <algorithm>
#include <array>

#include "occ/amd.hpp"
#include "occ/device.hpp"

namespace occ::amd {
namespace {

using G = LdsLaneGroups;
// ds_read on gfx942 [EMP cdna3info.md; SHARK "MI300"]: b32 in 2 phases of 32 lanes, b64 in 4 of 16,
// b128 in 8 of 8 lanes (T0-3 + T20-23, T4-7 + T16-19, T8-11 + T28-31, T12-15 + T24-27, the same +32;
// also [BLOG]). W7900 (gfx1100, wave32) measured the same groups for its 32 lanes [EMP rdna3info.md].
constexpr LdsPhaseRule kReadGfx942[3] = {{32, 32, G::contiguous}, {32, 16, G::contiguous}, {32, 8, G::quad_pairs}};
// Writes: ds_write_b128 in 8 groups of 8 consecutive lanes [SHARK; BLOG]. ds_write_b32/b64: no
// published grouping; taken as the reads' (32 and 16 lanes): inferred, docs/AMD.md says so.
constexpr LdsPhaseRule kWrite32Banks[3] = {{32, 32, G::contiguous}, {32, 16, G::contiguous}, {32, 8, G::contiguous}};

constexpr LdsRules kLdsGfx942{.bank_bytes = 4,
                              .read = {kReadGfx942[0], kReadGfx942[1], kReadGfx942[2]},
                              .write = {kWrite32Banks[0], kWrite32Banks[1], kWrite32Banks[2]},
                              .measured_on = "gfx942"};
// gfx950: 64 banks for reads; b32 in one phase of 64 lanes, b64 in 2 of 32, b128 in 4 of 16 (T0-3,
// T12-15, T20-23, T24-27 / T4-7, T8-11, T16-19, T28-31, the same +32) [EMP cdna4info.md; SHARK "MI350"].
// Writes keep gfx942's 32 banks [RR; SHARK: the read bandwidth doubles]; their phases are gfx942's
// (inferred). [RR] also keeps ds_read_b32 at 32 banks, which [EMP]'s one 64-lane phase contradicts.
constexpr LdsRules kLdsGfx950{.bank_bytes = 4,
                              .read = {{64, 64, G::contiguous}, {64, 32, G::contiguous}, {64, 16, G::quad_parity}},
                              .write = {kWrite32Banks[0], kWrite32Banks[1], kWrite32Banks[2]},
                              .measured_on = "gfx950"};
constexpr LdsRules kLdsGfx1100{.bank_bytes = 4,
                               .read = {kReadGfx942[0], kReadGfx942[1], kReadGfx942[2]},
                               .write = {kWrite32Banks[0], kWrite32Banks[1], kWrite32Banks[2]},
                               .measured_on = "gfx1100"};
// RX 9070 XT (gfx1201): b32 in one phase of 32, b64 in 2 of 16, b128 in 4 groups of 8 consecutive
// lanes [EMP rdna4info.md]. Writes as above (inferred).
constexpr LdsRules kLdsGfx1201{.bank_bytes = 4,
                               .read = {{32, 32, G::contiguous}, {32, 16, G::contiguous}, {32, 8, G::contiguous}},
                               .write = {kWrite32Banks[0], kWrite32Banks[1], kWrite32Banks[2]},
                               .measured_on = "gfx1201"};

// CDNA (gfx9): wave64 only, 4 SIMDs per CU, SGPRs from a shared 800-entry file per SIMD.
constexpr AmdArch cdna(std::string_view isa, std::string_view family, int max_waves, int vgprs, int granule, AgprFile agprs,
                       std::int64_t lds, int lds_granule, bool llvm14, bool llvm19, const LdsRules& banks) {
    AmdArch a{};
    a.isa = isa;
    a.family = family;
    a.default_wave_size = 64;
    a.wave32 = false;
    a.wave64 = true;
    a.has_wgp_mode = false;
    a.simds_per_cu = 4;
    a.max_waves_per_simd = max_waves;
    a.vgprs_wave64 = vgprs;
    a.vgpr_granule_wave64 = granule;
    a.max_vgprs = 256;
    a.agprs = agprs;
    a.sgprs = SgprRule::gfx9;
    a.max_sgprs = 108;  // 102 addressable + 6 (VCC, flat scratch, XNACK mask) [LLVM getNumExtraSGPRs]
    a.lds_per_cu = lds;
    a.lds_per_workgroup = lds;
    a.lds_granule = lds_granule;
    a.barriers_per_cu = 16;
    a.llvm14 = llvm14;
    a.llvm19 = llvm19;
    a.lds = &banks;
    return a;
}

// RDNA (gfx10.3+): wave32 by default, wave64 too; a WGP of two CUs (2 SIMDs each) unless CU mode.
// vgprs32 = 1024 or 1536 ("1.5x VGPRs" targets), and half that for wave64.
constexpr AmdArch rdna(std::string_view isa, std::string_view family, int vgprs32, bool llvm14, bool llvm19, const LdsRules& banks) {
    AmdArch a{};
    a.isa = isa;
    a.family = family;
    a.default_wave_size = 32;
    a.wave32 = true;
    a.wave64 = true;
    a.has_wgp_mode = true;
    a.simds_per_cu = 2;  // per CU; a WGP has 4 [LLVM getEUsPerCU]
    a.max_waves_per_simd = 16;
    a.vgprs_wave32 = vgprs32;
    a.vgpr_granule_wave32 = vgprs32 == 1536 ? 24 : 16;
    a.vgprs_wave64 = vgprs32 / 2;
    a.vgpr_granule_wave64 = vgprs32 == 1536 ? 12 : 8;
    a.max_vgprs = 256;
    a.agprs = AgprFile::none;
    a.sgprs = SgprRule::none;
    a.max_sgprs = 108;     // 106 addressable + VCC [LLVM getAddressableNumSGPRs, getNumExtraSGPRs]
    a.lds_per_cu = 65536;  // per CU; 128 KB per WGP [LLVM getLocalMemorySize]
    a.lds_per_workgroup = 65536;
    a.lds_granule = 512;
    a.barriers_per_cu = 16;  // per CU; 32 per WGP [LLVM getMaxWorkGroupsPerCU]
    a.llvm14 = llvm14;
    a.llvm19 = llvm19;
    a.lds = &banks;
    return a;
}

constexpr std::array kArchs{
    // LDS: measured on gfx942, gfx950, gfx1100, gfx1201; every other target takes its family's
    // measured rules (inferred: the answer names the target they were measured on).
    cdna("gfx908", "CDNA", 10, 256, 4, AgprFile::separate, 65536, 512, true, true, kLdsGfx942),
    cdna("gfx90a", "CDNA2", 8, 512, 8, AgprFile::unified, 65536, 512, true, true, kLdsGfx942),
    cdna("gfx942", "CDNA3", 8, 512, 8, AgprFile::unified, 65536, 512, false, true, kLdsGfx942),
    cdna("gfx950", "CDNA4", 8, 512, 8, AgprFile::unified, 163840, 1280, false, false, kLdsGfx950),
    rdna("gfx1030", "RDNA2", 1024, true, true, kLdsGfx1100),
    rdna("gfx1100", "RDNA3", 1536, false, true, kLdsGfx1100),
    rdna("gfx1101", "RDNA3", 1536, false, true, kLdsGfx1100),
    rdna("gfx1102", "RDNA3", 1024, false, true, kLdsGfx1100),
    rdna("gfx1103", "RDNA3", 1024, false, true, kLdsGfx1100),
    rdna("gfx1150", "RDNA3.5", 1024, false, true, kLdsGfx1100),
    rdna("gfx1151", "RDNA3.5", 1536, false, true, kLdsGfx1100),
    rdna("gfx1200", "RDNA4", 1536, false, true, kLdsGfx1201),
    rdna("gfx1201", "RDNA4", 1536, false, true, kLdsGfx1201),
};

// The AMD GPUs of the catalogue (occ/device.hpp GpuEntry: sm_count holds the compute units). Each HIP
// device of an MI250/MI250X is one GCD: the CU count given is the whole package's, as [SPECS] lists it.
//   [MI300X] AMD Instinct MI300X datasheet: FP64 vector 81.7, FP64 matrix 163.4, FP32 vector 163.4,
//            TF32 653.7, FP16/BF16 1,307.4, FP8 2,614.9, INT8 2,614.9 TFLOP/s (dense), HBM3 5.3 TB/s.
constexpr GpuEntry amd_gpu(const char* name, const char* isa, int cus, Segment segment, const char* aliases, const char* source,
                           GpuPeaks peaks = {}) {
    return {.name = name,
            .vendor = "AMD",
            .sm_count = cus,
            .segment = segment,
            .aliases = aliases,
            .source = source,
            .isa = isa,
            .peaks = peaks};
}

constexpr const char* kSpecsCu = "[SPECS] ROCm GPU hardware specifications (rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html)";

constexpr GpuEntry kAmdGpus[] = {
    amd_gpu("MI100", "gfx908", 120, Segment::datacenter, "mi100", kSpecsCu),
    amd_gpu("MI210", "gfx90a", 104, Segment::datacenter, "mi210", kSpecsCu),
    amd_gpu("MI250", "gfx90a", 208, Segment::datacenter, "mi250", kSpecsCu),
    amd_gpu("MI250X", "gfx90a", 220, Segment::datacenter, "mi250x", kSpecsCu),
    amd_gpu("MI300A", "gfx942", 228, Segment::datacenter, "mi300a", kSpecsCu),
    amd_gpu("MI300X", "gfx942", 304, Segment::datacenter, "mi300x,mi300", kSpecsCu,
            {.fp64 = 81.7,
             .fp64_tensor = 163.4,
             .fp32 = 163.4,
             .tf32 = 653.7,
             .fp16 = 1307.4,
             .bf16 = 1307.4,
             .fp8 = 2614.9,
             .int8 = 2614.9,
             .dram_gbps = 5300,
             .list_position = 21,
             .source = "[MI300X] (matrix cores)"}),
    amd_gpu("MI325X", "gfx942", 304, Segment::datacenter, "mi325x", kSpecsCu),
    amd_gpu("MI350X", "gfx950", 256, Segment::datacenter, "mi350x", kSpecsCu),
    amd_gpu("MI355X", "gfx950", 256, Segment::datacenter, "mi355x", kSpecsCu),
    amd_gpu("RX-7900-XTX", "gfx1100", 96, Segment::consumer, "rx7900xtx,7900xtx",
            "CUs: Guru3D RX 7900 XTX review, specifications table (guru3d.com/review/xfx-radeon-rx-7900-xtx-magair-review/page-4); "
            "target: packages.gentoo.org/useflags/amdgpu_targets_gfx1100 (navi31, RX 7900XTX)"),
    amd_gpu("RX-9070-XT", "gfx1201", 64, Segment::consumer, "rx9070xt,9070xt",
            "CUs: Linux Format June 2025, 'Inside the DNA of AMD' (fully enabled Navi 48, 64 RDNA 4 CUs); "
            "target: LLVM AMDGPUUsage processor table (gfx1201: Radeon RX 9070 XT; llvm-project PR 155577)"),
};

bool same_name(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               auto lo = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
               return lo(x) == lo(y);
           });
}

}  // namespace

std::span<const AmdArch> amd_archs() { return kArchs; }

const AmdArch* find_amd_arch(std::string_view isa) {
    for (const auto& a : kArchs)
        if (same_name(a.isa, isa)) return &a;
    return nullptr;
}

const AmdArch* amd_arch_of(const GpuEntry& g) { return *g.isa ? find_amd_arch(g.isa) : nullptr; }

}  // namespace occ::amd

namespace occ {
std::span<const GpuEntry> amd_gpus() { return amd::kAmdGpus; }
}  // namespace occ
