// device_db.cpp — the per-compute-capability rules table (the GPUs are in gpu_db.cpp).
//
// [SECTION] Sources
//   [PG]  CUDA C++ Programming Guide, "Technical Specifications per Compute Capability" table
//         (threads, warps, blocks, registers, shared memory per SM and per block).
//   [VTG] Volta Tuning Guide §1.4.3.1 "Unified Shared Memory/L1/Texture Cache": carveouts 0/8/16/32/64/96 KB.
//   [TTG] Turing Tuning Guide §1.4.3.1: shared memory 32 or 64 KB per SM.
//   [ATG] NVIDIA Ampere GPU Architecture Tuning Guide §1.4.2.3 "Unified Shared Memory/L1/Texture Cache":
//         A100 carveouts 0..164 KB, GA10x 0..100 KB, 1 KB of shared memory reserved per block by the system.
//   [AdaTG] Ada Tuning Guide §1.4.2.1: same carveouts as GA10x (up to 100 KB), 99 KB max per block.
//   [HTG] Hopper Tuning Guide §1.4.2.1: carveouts 0/8/16/32/64/100/132/164/196/228 KB, 227 KB per block.
//   [BTG] Blackwell Tuning Guide §1.4.2.3 "Unified Shared Memory/L1/Texture Cache": 10.x same carveouts as
//         Hopper; 12.x up to 100 KB (99 KB/block). Its §1.4.1.1 "Occupancy" says 128 KB per SM and 32 blocks
//         per SM for 12.0; the Programming Guide's table and cuda_occupancy.h say 100 KB and 24 blocks, and
//         deviceQuery on an RTX 5090 prints "Total shared memory per multiprocessor: 102400 bytes": occ
//         follows those (128 KB is the whole unified L1/shared array, of which at most 100 KB is shared).
//   [OCCH] cuda_occupancy.h (CUDA 13): a per-SM virtual-resource count, 128 on compute capability 10.x,
//         11.x and 12.x and none before; a kernel declaring virtualResourceCount = v > 0 fits
//         floor(128 / v) blocks per SM (the header's own rule; tests/diff checks it on every input).
//   [NCU] Nsight Compute Profiling Guide, occupancy section (register allocation per warp, 256-register unit).
//   [BPG] CUDA C++ Best Practices Guide, "Coalesced Access to Global Memory".
//   [PTX] PTX ISA, "Data Movement and Conversion Instructions: ld" / "st" (vector forms and their targets).
//   Allocation granularities and block/barrier slot counts agree with the CUDA toolkit's own
//   occupancy calculator (cuda_occupancy.h), against which tests/diff checks every input exhaustively.
#include "occ/device.hpp"

#include <algorithm>
#include <cstdio>

namespace occ {
namespace {

constexpr std::int64_t KiB = 1024;

constexpr std::array<std::int64_t, kMaxCarveoutSteps> kVoltaCarveouts{0, 8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB, 96 * KiB};
constexpr std::array<std::int64_t, kMaxCarveoutSteps> kTuringCarveouts{32 * KiB, 64 * KiB};
constexpr std::array<std::int64_t, kMaxCarveoutSteps> kGA100Carveouts{0,        8 * KiB,   16 * KiB,  32 * KiB,
                                                                      64 * KiB, 100 * KiB, 132 * KiB, 164 * KiB};
constexpr std::array<std::int64_t, kMaxCarveoutSteps> kGA10xCarveouts{0, 8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB, 100 * KiB};
constexpr std::array<std::int64_t, kMaxCarveoutSteps> kHopperCarveouts{0,         8 * KiB,   16 * KiB,  32 * KiB,  64 * KiB,
                                                                       100 * KiB, 132 * KiB, 164 * KiB, 196 * KiB, 228 * KiB};

// Rows from one another: the same rules under another compute capability and citation.
constexpr ArchRules same_as(ArchRules r, int cc_minor, const char* source) {
    r.cc_minor = cc_minor;
    r.source = source;
    return r;
}

// The rows, ascending by compute capability. A row names only what differs from ArchRules' defaults
// (32-thread warps, 1024 threads and 48 KB per block, 2048 threads and 32 blocks per SM, 64K registers
// per SM and per block, 255 per thread in units of 256, 4 sub-partitions, shared memory in units of 256
// bytes, its own array: [PG] for every row). Behaviours, each the same for the rows named:
//   smem_config     l1_split 3.x ([PG] "Compute Capability 3.x", Shared Memory: 16/32/48 KB of L1 out of
//                   64 KB); dedicated 5.x-6.x ([PG] 5.x/6.x: shared memory is its own array); carveout
//                   7.0+ ([VTG]/[TTG]/[ATG]/[HTG]/[BTG] §"Unified Shared Memory/L1").
//   smem_optin      7.0+ ([PG] 7.x "Shared Memory": above 48 KB per block needs an explicit opt-in).
//   smem_reserve_in_block_limit  8.0+ ([ATG] §1.4.2.3: 1 KB reserved per block, on top of the 163 KB a
//                   block may use out of 164 KB; cuda_occupancy.h agrees, tests/diff).
//   compat_subpartitions  6.0: GP100 also checks GP10x's 4 sub-partitions (cuda_occupancy.h, "GP10x").
//   barriers_limit_blocks 9.0+ (CUDA 12 Hopper Tuning Guide, "Named barriers"; cuda_occupancy.h).
//   clusters        9.0+ ([PG] "Thread Block Clusters").
//   virtual_resources_per_sm  128 on 10.x-12.x ([OCCH]); 0 (no such limit) before.
//   banks_model     5.0+ ([PG] 5.x "Shared Memory": 32 banks of 4 bytes; 3.x has a 4- or 8-byte bank mode).
//   sectors_model   6.0+ ([BPG] "Coalesced Access to Global Memory": 32-byte sectors from 6.0).
//   max_global_access_bytes  32 on 10.0+ ([PTX] ISA 8.8, ld/st: .v8.b32 and .v4.b64 need sm_100 or higher
//                   and the .global state space; ptxas 13.0 accepts them for sm_100, 103, 110, 120 and 121
//                   and refuses sm_90 with "Feature '256 bit wide load/store' requires .target sm_100 or
//                   higher"); 16 before (a 32-byte type such as double4_32a compiles to two 16-byte accesses).
//   smem_paired_load_merge  7.0+ (NVIDIA developer forum, "Unexpected shared memory bank conflict",
//                   https://forums.developer.nvidia.com/t/unexpected-shared-memory-bank-conflict/77228/2:
//                   on cc 7.0-7.5 LDS.128 takes 2 requests instead of 4 when lanes Tn and Tn^1, or Tn
//                   and Tn^2, share addresses; the Ampere SGEMM of Yinghan-Li/YHs_Sample
//                   (cuda/gemm/ampere_sgemm.cu, "z thread map to avoid LDS.128 shared memory broadcast
//                   limitation") lays its cc 8.0 fragments out for it; measured halving on 8- and
//                   16-byte loads, never on stores (reported counter measurements). 5.x-6.x: no public evidence, off.
constexpr ArchRules kVolta70{.cc_major = 7,
                             .cc_minor = 0,
                             .family = "Volta",
                             .smem_per_sm = 96 * KiB,
                             .smem_per_block_optin = 96 * KiB,
                             .smem_config = SmemConfig::carveout,
                             .carveout_steps = kVoltaCarveouts,
                             .carveout_step_count = 6,
                             .smem_optin = true,
                             .banks_model = true,
                             .sectors_model = true,
                             .smem_paired_load_merge = true,
                             .source = "[PG] cc 7.0; [VTG] carveouts"};
constexpr ArchRules kBlackwell100{.cc_major = 10,
                                  .cc_minor = 0,
                                  .family = "Blackwell",
                                  .smem_per_sm = 228 * KiB,
                                  .smem_per_block_optin = 227 * KiB,
                                  .smem_reserved_per_block = KiB,
                                  .smem_alloc_unit = 128,
                                  .smem_config = SmemConfig::carveout,
                                  .carveout_steps = kHopperCarveouts,
                                  .carveout_step_count = 10,
                                  .smem_optin = true,
                                  .smem_reserve_in_block_limit = true,
                                  .barriers_limit_blocks = true,
                                  .clusters = true,
                                  .max_cluster_size_nonportable = 16,
                                  .virtual_resources_per_sm = 128,
                                  .tmem_columns_per_sm = 512,
                                  .banks_model = true,
                                  .sectors_model = true,
                                  .max_global_access_bytes = 32,
                                  .smem_paired_load_merge = true,
                                  .source = "[PG] cc 10.0; [BTG] carveouts"};
constexpr ArchRules kBlackwell120{.cc_major = 12,
                                  .cc_minor = 0,
                                  .family = "Blackwell",
                                  .max_threads_per_sm = 1536,
                                  .max_blocks_per_sm = 24,
                                  .smem_per_sm = 100 * KiB,
                                  .smem_per_block_optin = 99 * KiB,
                                  .smem_reserved_per_block = KiB,
                                  .smem_alloc_unit = 128,
                                  .smem_config = SmemConfig::carveout,
                                  .carveout_steps = kGA10xCarveouts,
                                  .carveout_step_count = 6,
                                  .smem_optin = true,
                                  .smem_reserve_in_block_limit = true,
                                  .barriers_limit_blocks = true,
                                  .barriers_per_block_slot = 1,
                                  .clusters = true,
                                  .virtual_resources_per_sm = 128,
                                  .banks_model = true,
                                  .sectors_model = true,
                                  .max_global_access_bytes = 32,
                                  .smem_paired_load_merge = true,
                                  .source = "[PG] cc 12.0; [BTG] carveouts up to 100 KB"};

// Thor: cc 10.0's memory system with cc 12.x's thread and block slots ([PG] "Technical
// Specifications per Compute Capability": 1536 threads and 24 blocks per SM on 11.0), one barrier
// set per block slot, portable clusters only.
constexpr ArchRules thor110() {
    ArchRules r = kBlackwell100;
    r.cc_major = 11;
    r.max_threads_per_sm = 1536;
    r.max_blocks_per_sm = 24;
    r.barriers_per_block_slot = 1;
    r.max_cluster_size_nonportable = ArchRules{}.max_cluster_size_nonportable;
    r.source = "[PG] cc 11.0 (Thor, formerly 10.1); [BTG] carveouts";
    return r;
}
constexpr ArchRules kThor110 = thor110();

constexpr ArchRules kArchs[] = {
    {.cc_major = 3,
     .cc_minor = 5,
     .family = "Kepler",
     .max_blocks_per_sm = 16,
     .smem_per_sm = 48 * KiB,
     .smem_config = SmemConfig::l1_split,
     .source = "[PG] cc 3.5"},
    {.cc_major = 3,
     .cc_minor = 7,
     .family = "Kepler",
     .max_blocks_per_sm = 16,
     .regs_per_sm = 131072,
     .smem_per_sm = 112 * KiB,
     .smem_config = SmemConfig::l1_split,
     .source = "[PG] cc 3.7 (GK210: 128K registers, 112 KB shared)"},
    {.cc_major = 5, .cc_minor = 0, .family = "Maxwell", .smem_per_sm = 64 * KiB, .banks_model = true, .source = "[PG] cc 5.0"},
    {.cc_major = 5,
     .cc_minor = 2,
     .family = "Maxwell",
     .partitioned_gc_supported = true,
     .smem_per_sm = 96 * KiB,
     .banks_model = true,
     .source = "[PG] cc 5.2"},
    {.cc_major = 5,
     .cc_minor = 3,
     .family = "Maxwell",
     .regs_per_block = 32768,
     .partitioned_gc_supported = true,
     .smem_per_sm = 64 * KiB,
     .banks_model = true,
     .source = "[PG] cc 5.3 (32K registers per block)"},
    {.cc_major = 6,
     .cc_minor = 0,
     .family = "Pascal",
     .subpartitions = 2,
     .compat_subpartitions = 4,
     .smem_per_sm = 64 * KiB,
     .banks_model = true,
     .sectors_model = true,
     .source = "[PG] cc 6.0 (GP100: 2 sub-partitions per SM, Pascal whitepaper)"},
    {.cc_major = 6,
     .cc_minor = 1,
     .family = "Pascal",
     .partitioned_gc_supported = true,
     .smem_per_sm = 96 * KiB,
     .banks_model = true,
     .sectors_model = true,
     .source = "[PG] cc 6.1"},
    {.cc_major = 6,
     .cc_minor = 2,
     .family = "Pascal",
     .regs_per_block = 32768,
     .partitioned_gc_supported = true,
     .smem_per_sm = 64 * KiB,
     .banks_model = true,
     .sectors_model = true,
     .source = "[PG] cc 6.2 (32K registers per block)"},
    kVolta70,
    same_as(kVolta70, 2, "[PG] cc 7.2; [VTG] carveouts"),
    {.cc_major = 7,
     .cc_minor = 5,
     .family = "Turing",
     .max_threads_per_sm = 1024,
     .max_blocks_per_sm = 16,
     .smem_per_sm = 64 * KiB,
     .smem_per_block_optin = 64 * KiB,
     .smem_config = SmemConfig::carveout,
     .carveout_steps = kTuringCarveouts,
     .carveout_step_count = 2,
     .smem_optin = true,
     .banks_model = true,
     .sectors_model = true,
     .smem_paired_load_merge = true,
     .source = "[PG] cc 7.5; [TTG] 32/64 KB"},
    {.cc_major = 8,
     .cc_minor = 0,
     .family = "Ampere",
     .smem_per_sm = 164 * KiB,
     .smem_per_block_optin = 163 * KiB,
     .smem_reserved_per_block = KiB,
     .smem_alloc_unit = 128,
     .smem_config = SmemConfig::carveout,
     .carveout_steps = kGA100Carveouts,
     .carveout_step_count = 8,
     .smem_optin = true,
     .smem_reserve_in_block_limit = true,
     .banks_model = true,
     .sectors_model = true,
     .smem_paired_load_merge = true,
     .source = "[PG] cc 8.0; [ATG] carveouts, 1 KB reserve"},
    {.cc_major = 8,
     .cc_minor = 6,
     .family = "Ampere",
     .max_threads_per_sm = 1536,
     .max_blocks_per_sm = 16,
     .smem_per_sm = 100 * KiB,
     .smem_per_block_optin = 99 * KiB,
     .smem_reserved_per_block = KiB,
     .smem_alloc_unit = 128,
     .smem_config = SmemConfig::carveout,
     .carveout_steps = kGA10xCarveouts,
     .carveout_step_count = 6,
     .smem_optin = true,
     .smem_reserve_in_block_limit = true,
     .barriers_per_block_slot = 1,
     .banks_model = true,
     .sectors_model = true,
     .smem_paired_load_merge = true,
     .source = "[PG] cc 8.6; [ATG] GA10x carveouts"},
    {.cc_major = 8,
     .cc_minor = 7,
     .family = "Ampere",
     .max_threads_per_sm = 1536,
     .max_blocks_per_sm = 16,
     .smem_per_sm = 164 * KiB,
     .smem_per_block_optin = 163 * KiB,
     .smem_reserved_per_block = KiB,
     .smem_alloc_unit = 128,
     .smem_config = SmemConfig::carveout,
     .carveout_steps = kGA100Carveouts,
     .carveout_step_count = 8,
     .smem_optin = true,
     .smem_reserve_in_block_limit = true,
     .barriers_per_block_slot = 1,
     .banks_model = true,
     .sectors_model = true,
     .smem_paired_load_merge = true,
     .source = "[PG] cc 8.7 (Orin); [ATG] carveouts"},
    {.cc_major = 8,
     .cc_minor = 9,
     .family = "Ada",
     .max_threads_per_sm = 1536,
     .max_blocks_per_sm = 24,
     .smem_per_sm = 100 * KiB,
     .smem_per_block_optin = 99 * KiB,
     .smem_reserved_per_block = KiB,
     .smem_alloc_unit = 128,
     .smem_config = SmemConfig::carveout,
     .carveout_steps = kGA10xCarveouts,
     .carveout_step_count = 6,
     .smem_optin = true,
     .smem_reserve_in_block_limit = true,
     .barriers_per_block_slot = 1,
     .banks_model = true,
     .sectors_model = true,
     .smem_paired_load_merge = true,
     .source = "[PG] cc 8.9; [AdaTG] carveouts"},
    {.cc_major = 9,
     .cc_minor = 0,
     .family = "Hopper",
     .smem_per_sm = 228 * KiB,
     .smem_per_block_optin = 227 * KiB,
     .smem_reserved_per_block = KiB,
     .smem_alloc_unit = 128,
     .smem_config = SmemConfig::carveout,
     .carveout_steps = kHopperCarveouts,
     .carveout_step_count = 10,
     .smem_optin = true,
     .smem_reserve_in_block_limit = true,
     .barriers_limit_blocks = true,
     .clusters = true,
     .max_cluster_size_nonportable = 16,
     .banks_model = true,
     .sectors_model = true,
     .smem_paired_load_merge = true,
     .source = "[PG] cc 9.0; [HTG] carveouts"},
    kBlackwell100,
    [] {  // The same hardware as 11.0 under CUDA 12.8/12.9's number (CUDA 13.0 Features Archive:
          // "SM101 has been renumbered as SM110 from this release")
        ArchRules r = kThor110;
        r.cc_major = 10;
        r.cc_minor = 1;
        r.source = "[PG] cc 11.0 under its CUDA 12.8/12.9 number 10.1 (CUDA 13.0 renumbered SM101 as SM110)";
        return r;
    }(),
    same_as(kBlackwell100, 3, "[PG] cc 10.3; [BTG] carveouts"),
    kThor110,
    kBlackwell120,
    same_as(kBlackwell120, 1, "[PG] cc 12.1 (GB10); [BTG] carveouts up to 100 KB"),
};
}  // namespace

const char* segment_name(Segment s) {
    switch (s) {
        case Segment::datacenter: return "datacenter";
        case Segment::workstation: return "workstation";
        case Segment::consumer: return "consumer";
        case Segment::embedded: return "embedded";
        case Segment::custom: return "custom";
    }
    return "custom";
}

std::span<const ArchRules> all_archs() { return kArchs; }

const ArchRules* find_arch(int cc_major, int cc_minor) {
    for (const ArchRules& a : kArchs)
        if (a.cc_major == cc_major && a.cc_minor == cc_minor) return &a;
    return nullptr;
}

std::optional<Device> device_for_cc(int cc_major, int cc_minor) {
    const ArchRules* a = find_arch(cc_major, cc_minor);
    if (!a) return std::nullopt;
    Device d;
    char buf[32];
    std::snprintf(buf, sizeof buf, "cc %d.%d", cc_major, cc_minor);
    d.name = buf;
    d.sm_count = 1;
    d.segment = Segment::custom;
    d.arch = *a;
    return d;
}

bool parse_cc(std::string_view t, int& major, int& minor) {
    for (std::string_view p : {"sm_", "sm", "compute_", "cc"}) {
        if (t.size() > p.size() && t.substr(0, p.size()) == p) {
            t.remove_prefix(p.size());
            break;
        }
    }
    auto all_digits = [](std::string_view s) {
        return !s.empty() && s.size() <= 2 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    auto to_int = [](std::string_view s) {
        int v = 0;
        for (char c : s) v = v * 10 + (c - '0');
        return v;
    };
    const auto dot = t.find('.');
    if (dot != std::string_view::npos) {
        const auto a = t.substr(0, dot), b = t.substr(dot + 1);
        if (!all_digits(a) || !all_digits(b) || b.size() != 1) return false;
        major = to_int(a);
        minor = to_int(b);
        return true;
    }
    // "80", "120", "90a" style
    while (!t.empty() && (t.back() == 'a' || t.back() == 'f')) t.remove_suffix(1);
    if (t.size() < 2 || t.size() > 3 || !std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
    major = to_int(t.substr(0, t.size() - 1));
    minor = t.back() - '0';
    return true;
}

bool cubin_runs_on(int code_major, int code_minor, const ArchRules& device, char suffix) {
    if (code_major == 10 && code_minor == 1) code_major = 11, code_minor = 0;  // CUDA 13.0: "SM101 has been renumbered as SM110"
    if (suffix == 'a') return code_major == device.cc_major && code_minor == device.cc_minor;
    return code_major == device.cc_major && code_minor <= device.cc_minor;
}

char arch_suffix(std::string_view arch) {
    if (arch.empty() || (arch.back() != 'a' && arch.back() != 'f')) return 0;
    const std::string_view head = arch.substr(0, arch.size() - 1);
    return !head.empty() && head.back() >= '0' && head.back() <= '9' ? arch.back() : 0;
}

bool cc_older(int a_major, int a_minor, int b_major, int b_minor) { return a_major != b_major ? a_major < b_major : a_minor < b_minor; }

std::string supported_cc_list() {
    std::string s;
    for (const ArchRules& a : kArchs) {
        if (!s.empty()) s += ", ";
        s += std::to_string(a.cc_major) + "." + std::to_string(a.cc_minor);
    }
    return s;
}

}  // namespace occ
