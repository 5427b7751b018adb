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

// Every target's writes are kWrite32Banks; a target's rules differ only in their reads.
constexpr LdsRules lds_rules(const LdsPhaseRule (&read)[3], std::string_view measured_on) {
    return {.bank_bytes = 4,
            .read = {read[0], read[1], read[2]},
            .write = {kWrite32Banks[0], kWrite32Banks[1], kWrite32Banks[2]},
            .measured_on = measured_on};
}
// gfx950: 64 banks for reads; b32 in one phase of 64 lanes, b64 in 2 of 32, b128 in 4 of 16 (T0-3,
// T12-15, T20-23, T24-27 / T4-7, T8-11, T16-19, T28-31, the same +32) [EMP cdna4info.md; SHARK "MI350"].
// Writes keep gfx942's 32 banks [RR; SHARK: the read bandwidth doubles]; their phases are gfx942's
// (inferred). [RR] also keeps ds_read_b32 at 32 banks, which [EMP]'s one 64-lane phase contradicts.
constexpr LdsPhaseRule kReadGfx950[3] = {{64, 64, G::contiguous}, {64, 32, G::contiguous}, {64, 16, G::quad_parity}};
// RX 9070 XT (gfx1201): b32 in one phase of 32, b64 in 2 of 16, b128 in 4 groups of 8 consecutive
// lanes [EMP rdna4info.md]. Writes as above (inferred).
constexpr LdsPhaseRule kReadGfx1201[3] = {{32, 32, G::contiguous}, {32, 16, G::contiguous}, {32, 8, G::contiguous}};

constexpr LdsRules kLdsGfx942 = lds_rules(kReadGfx942, "gfx942");
constexpr LdsRules kLdsGfx950 = lds_rules(kReadGfx950, "gfx950");
constexpr LdsRules kLdsGfx1100 = lds_rules(kReadGfx942, "gfx1100");
constexpr LdsRules kLdsGfx1201 = lds_rules(kReadGfx1201, "gfx1201");

// Which LLVM releases know a target (the differential test's oracles, tests/amd/amd_oracle.py).
struct Llvm {
    bool llvm14, llvm19;
};
constexpr Llvm kLlvm14And19{true, true}, kLlvm19Only{false, true}, kNoLlvmOracle{false, false};

// CDNA (gfx9): wave64 only, 4 SIMDs per CU, SGPRs from a shared 800-entry file per SIMD. What the CDNA
// targets differ in: the register file and the LDS.
struct CdnaRegs {
    int max_waves, vgprs, granule;
    AgprFile agprs;
};
constexpr CdnaRegs kRegsGfx908{10, 256, 4, AgprFile::separate};  // 256 arch VGPRs + 256 separate AGPRs
constexpr CdnaRegs kRegsGfx90a{8, 512, 8, AgprFile::unified};    // 512 VGPRs + AGPRs in one file
struct CdnaLds {
    std::int64_t bytes;
    int granule;
};
constexpr CdnaLds kLds64K{65536, 512}, kLds160K{163840, 1280};

constexpr AmdArch cdna(std::string_view isa, std::string_view family, CdnaRegs regs, CdnaLds lds, Llvm llvm, const LdsRules& banks) {
    AmdArch a{};
    a.isa = isa;
    a.family = family;
    a.default_wave_size = 64;
    a.wave32 = false;
    a.wave64 = true;
    a.has_wgp_mode = false;
    a.simds_per_cu = 4;
    a.max_waves_per_simd = regs.max_waves;
    a.vgprs_wave64 = regs.vgprs;
    a.vgpr_granule_wave64 = regs.granule;
    a.max_vgprs = 256;
    a.agprs = regs.agprs;
    a.sgprs = SgprRule::gfx9;
    a.max_sgprs = 108;  // 102 addressable + 6 (VCC, flat scratch, XNACK mask) [LLVM getNumExtraSGPRs]
    a.lds_per_cu = lds.bytes;
    a.lds_per_workgroup = lds.bytes;
    a.lds_granule = lds.granule;
    a.barriers_per_cu = 16;
    a.llvm14 = llvm.llvm14;
    a.llvm19 = llvm.llvm19;
    a.lds = &banks;
    return a;
}

// RDNA (gfx10.3+): wave32 by default, wave64 too; a WGP of two CUs (2 SIMDs each) unless CU mode.
// A family fixes the oracles and the LDS bank rules; a target adds its VGPR file: vgprs32 = 1024 or
// 1536 ("1.5x VGPRs" targets), and half that for wave64.
struct RdnaFamily {
    std::string_view name;
    Llvm llvm;
    const LdsRules& banks;
};
constexpr RdnaFamily kRdna2{"RDNA2", kLlvm14And19, kLdsGfx1100};
constexpr RdnaFamily kRdna3{"RDNA3", kLlvm19Only, kLdsGfx1100};
constexpr RdnaFamily kRdna35{"RDNA3.5", kLlvm19Only, kLdsGfx1100};
constexpr RdnaFamily kRdna4{"RDNA4", kLlvm19Only, kLdsGfx1201};

constexpr AmdArch rdna(std::string_view isa, const RdnaFamily& f, int vgprs32) {
    AmdArch a{};
    a.isa = isa;
    a.family = f.name;
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
    a.llvm14 = f.llvm.llvm14;
    a.llvm19 = f.llvm.llvm19;
    a.lds = &f.banks;
    return a;
}

constexpr std::array kArchs{
    // LDS: measured on gfx942, gfx950, gfx1100, gfx1201; every other target takes its family's
    // measured rules (inferred: the answer names the target they were measured on).
    cdna("gfx908", "CDNA", kRegsGfx908, kLds64K, kLlvm14And19, kLdsGfx942),
    cdna("gfx90a", "CDNA2", kRegsGfx90a, kLds64K, kLlvm14And19, kLdsGfx942),
    cdna("gfx942", "CDNA3", kRegsGfx90a, kLds64K, kLlvm19Only, kLdsGfx942),
    cdna("gfx950", "CDNA4", kRegsGfx90a, kLds160K, kNoLlvmOracle, kLdsGfx950),
    rdna("gfx1030", kRdna2, 1024),
    rdna("gfx1100", kRdna3, 1536),
    rdna("gfx1101", kRdna3, 1536),
    rdna("gfx1102", kRdna3, 1024),
    rdna("gfx1103", kRdna3, 1024),
    rdna("gfx1150", kRdna35, 1024),
    rdna("gfx1151", kRdna35, 1536),
    rdna("gfx1200", kRdna4, 1536),
    rdna("gfx1201", kRdna4, 1536),
};

// The AMD GPUs of the catalogue (occ/device.hpp GpuEntry: sm_count holds the compute units). Each HIP
// device of an MI250/MI250X is one GCD: the CU count given is the whole package's, as [SPECS] lists it,
// and so are the roofline peaks (one GCD has half of each).
// Roofline peaks (GpuPeaks): dense figures (AMD prints 2:4-sparsity figures twice as high; none is used),
// TFLOP/s = 10^12 FLOP/s, GB/s = 10^9 B/s. fp32 is the vector (SIMD) figure: the roofline has no FP32
// matrix entry, so CDNA's "matrix FP32" / "packed FP32" figures (twice the vector one on CDNA 1 and 2)
// are not used. A precision a source read here does not state stays unset (the roofline then says it
// has no published figure for that precision).
//   [MI300X]  AMD Instinct MI300X datasheet; the same figures in ROCm's "AMD Instinct MI300 series
//             microarchitecture", table "Peak-performance capabilities of the MI300X"
//             (rocm.docs.amd.com/en/latest/conceptual/gpu-arch/mi300.html): FP64 vector 81.7, FP64 matrix
//             163.4, FP32 vector 163.4, TF32 653.7, FP16/BF16 1,307.4, FP8 2,614.9, INT8 2,614.9; HBM3 5.3 TB/s.
//   [ROCM100] ROCm, "AMD Instinct MI100 microarchitecture", table "Peak-performance capabilities of MI100"
//             (rocm.docs.amd.com/en/latest/conceptual/gpu-arch/mi100.html): vector FP64 11.5, vector FP32
//             23.1, matrix FP16 184.6, matrix BF16 92.3 TFLOP/s; "peak memory bandwidth of the attached HBM2
//             is 1.228 TB/sec". CDNA 1 has no FP64 matrix instructions (ROCm Compute Profiler, "AMD CDNA
//             architecture", data type table: FP64 GEMM unsupported on CDNA; rocm.docs.amd.com/projects/
//             rocprofiler-compute/en/develop/conceptual/cdna/cdna-performance-model.html): fp64_tensor unset.
//   [ROCM250] ROCm, "AMD Instinct MI250 microarchitecture", table "Peak-performance capabilities of the
//             MI250 OAM" (rocm.docs.amd.com/en/latest/conceptual/gpu-arch/mi250.html): matrix FP64 90.5,
//             vector FP64 45.3, vector FP32 45.3, matrix FP16 / BF16 / INT8 362.1; "3.2 TB/sec".
//   [ANDT]    AMD's MI210 / MI250 / MI100 specification table as printed in AnandTech, "AMD Releases
//             Instinct MI210 Accelerator: CDNA 2 On a PCIe Card" (2022-03-22, anandtech.com/show/17326):
//             MI210 FP64 vector 22.6, FP64 matrix 45.3, FP32 vector 22.6, FP16 matrix 181 TFLOP/s, INT8
//             matrix 181 TOPS, 1.6 TB/s; MI100 INT8 matrix 184.6 TOPS. MI210's 181 FP16 and 1.6 TB/s also in
//             AMD's ROCm blog "LLM inference optimization" (rocm.blogs.amd.com; ROCm/rocm-blogs
//             blogs/artificial-intelligence/llm-inference-optimize). MI210 BF16: not in either: unset.
//   [MI250X]  AMD's MI200 launch table as printed in zexron.com, "AMD MI250(X) Aldebaran as MCM with up to
//             47.9 teraflop/s and 560 watt TDP" (zexron.com/amd-mi250-x-aldebaran-as-mcm-with-up-to-479-
//             teraflop-s-and-560-watt-tdp): MI250X FP64 | FP32 vector 47.9, FP64 | FP32 matrix 95.7,
//             FP16 | BF16 383.0 TFLOP/s, INT4 | INT8 383.0 TOPS, 3.2 TB/s (MI250: 45.3, 90.5, 362.1, as
//             [ROCM250]). The 383 FP16 also from AMD's hipBLAS maintainers (github.com/ROCm/hipBLAS/issues/534).
//   [MI300A]  AMD Instinct MI300A specifications (amd.com/en/products/accelerators/instinct/mi300/mi300a.html)
//             as listed in vengineer.hatenablog.com/entry/2023/12/11/080000: FP64 61.3, FP64 matrix 122.6, FP32 122.6,
//             FP16 980.6, BF16 980.6 TFLOP/s; INT8 "1.96 POPs" (rounded: not used); TF32 and FP8 not listed
//             there: unset. HBM3 5.3 TB/s (AMD's launch figures as reported in estaterule.ru/news/amd-vypuskaet-
//             samyj-bolshoj-i-slozhnyj-v-mire-gpu-so-192-gb-pamjati-i-gigantskij-apu-so-128-gb-...).
//   [MI325X]  AMD Instinct MI325X specifications as listed in awesomeagents.ai/hardware/amd-mi325x: FP32
//             163.4, TF32 653.7, FP16 / BF16 1,307.4, FP8 2,614.9 (5,229.8 with sparsity) TFLOP/s, 6 TB/s
//             (also docs.vultr.com/inference-cookbook/rocm/getting-started/hardware-requirements, from AMD's
//             MI325X page: 6.0 TB/s, FP16 1,307). FP64 and INT8 not listed there: unset.
//   [MI350]   Tom's Hardware, "AMD's Instinct MI355X accelerator will reportedly consume 1,400 watts" (ISC
//             2025; tomshardware.com/pc-components/gpus/amds-instinct-mi355x-accelerator-will-consume-1-400-
//             watts): MI350X and MI355X "288GB HBM3E memory that will offer up to 8 TB/s"; svethardware.cz,
//             "AMD uvádí akcelerátory Instinct MI350X a MI355X" (AMD's launch figures; svethardware.cz/amd-
//             uvadi-akceleratory-instinct-mi350x-a-mi355x-s-288gb-pameti-hbm3e/61870): MI355X FP32 157.3 TFLOP/s.
//             The dense matrix figures of the CDNA 4 whitepaper / datasheets were not readable here: unset.
//             CDNA 4 has no TF32 matrix instructions (ROCm Compute Profiler table: TF32 GEMM unsupported on
//             CDNA4).
//   [R7900]   Guru3D, RX 7900 XTX specifications (guru3d.com/review/powercolor-radeon-rx-7900-xtx-hellhound-
//             spectral-white-review/page-4): "61.4 teraflops on the XTX", 960 GB/s (20 Gbps on 384 bits).
//   [R9070]   AMD's RX 9070 XT launch specifications as reported by multiplayer.it/notizie/amd-radeon-rx-9070-
//             xt-rx-9070-specifiche.html and purepc.pl (2025-02, "AMD Radeon RX 9070 XT oraz Radeon RX 9070"):
//             48.7 TFLOP/s FP32; 16 GB GDDR6 at 20 Gbps on a 256-bit bus, 640 GB/s. Its INT8 779 / INT4 1,557
//             TOPS are printed without saying whether with sparsity: unset.
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

// An Instinct accelerator: datacenter, CU count from [SPECS].
constexpr GpuEntry instinct(const char* name, const char* isa, int cus, const char* aliases, GpuPeaks peaks) {
    return amd_gpu(name, isa, cus, Segment::datacenter, aliases, kSpecsCu, peaks);
}

constexpr GpuEntry kAmdGpus[] = {
    instinct("MI100", "gfx908", 120, "mi100",
             {.fp64 = 11.5,
              .fp32 = 23.1,
              .fp16 = 184.6,
              .bf16 = 92.3,
              .int8 = 184.6,
              .dram_gbps = 1228,
              .list_position = 21,
              .source = "[ROCM100] (matrix cores); INT8 [ANDT]"}),
    instinct("MI210", "gfx90a", 104, "mi210",
             {.fp64 = 22.6,
              .fp64_tensor = 45.3,
              .fp32 = 22.6,
              .fp16 = 181,
              .int8 = 181,
              .dram_gbps = 1600,
              .list_position = 22,
              .source = "[ANDT] (matrix cores)"}),
    instinct("MI250", "gfx90a", 208, "mi250",
             {.fp64 = 45.3,
              .fp64_tensor = 90.5,
              .fp32 = 45.3,
              .fp16 = 362.1,
              .bf16 = 362.1,
              .int8 = 362.1,
              .dram_gbps = 3200,
              .list_position = 23,
              .source = "[ROCM250] (matrix cores; both GCDs)"}),
    instinct("MI250X", "gfx90a", 220, "mi250x",
             {.fp64 = 47.9,
              .fp64_tensor = 95.7,
              .fp32 = 47.9,
              .fp16 = 383.0,
              .bf16 = 383.0,
              .int8 = 383.0,
              .dram_gbps = 3200,
              .list_position = 24,
              .source = "[MI250X] (matrix cores; both GCDs)"}),
    instinct("MI300A", "gfx942", 228, "mi300a",
             {.fp64 = 61.3,
              .fp64_tensor = 122.6,
              .fp32 = 122.6,
              .fp16 = 980.6,
              .bf16 = 980.6,
              .dram_gbps = 5300,
              .list_position = 25,
              .source = "[MI300A] (matrix cores)"}),
    instinct("MI300X", "gfx942", 304, "mi300x,mi300",
             {.fp64 = 81.7,
              .fp64_tensor = 163.4,
              .fp32 = 163.4,
              .tf32 = 653.7,
              .fp16 = 1307.4,
              .bf16 = 1307.4,
              .fp8 = 2614.9,
              .int8 = 2614.9,
              .dram_gbps = 5300,
              .list_position = 26,
              .source = "[MI300X] (matrix cores)"}),
    instinct("MI325X", "gfx942", 304, "mi325x",
             {.fp32 = 163.4,
              .tf32 = 653.7,
              .fp16 = 1307.4,
              .bf16 = 1307.4,
              .fp8 = 2614.9,
              .dram_gbps = 6000,
              .list_position = 27,
              .source = "[MI325X] (matrix cores)"}),
    instinct("MI350X", "gfx950", 256, "mi350x", {.dram_gbps = 8000, .list_position = 28, .source = "[MI350] (bandwidth only)"}),
    instinct("MI355X", "gfx950", 256, "mi355x", {.fp32 = 157.3, .dram_gbps = 8000, .list_position = 29, .source = "[MI350]"}),
    amd_gpu("RX-7900-XTX", "gfx1100", 96, Segment::consumer, "rx7900xtx,7900xtx",
            "CUs: Guru3D RX 7900 XTX review, specifications table (guru3d.com/review/xfx-radeon-rx-7900-xtx-magair-review/page-4); "
            "target: packages.gentoo.org/useflags/amdgpu_targets_gfx1100 (navi31, RX 7900XTX)",
            {.fp32 = 61.4, .dram_gbps = 960, .list_position = 30, .source = "[R7900]"}),
    amd_gpu("RX-9070-XT", "gfx1201", 64, Segment::consumer, "rx9070xt,9070xt",
            "CUs: Linux Format June 2025, 'Inside the DNA of AMD' (fully enabled Navi 48, 64 RDNA 4 CUs); "
            "target: LLVM AMDGPUUsage processor table (gfx1201: Radeon RX 9070 XT; llvm-project PR 155577)",
            {.fp32 = 48.7, .dram_gbps = 640, .list_position = 31, .source = "[R9070]"}),
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
