// device_db.cpp — the per-compute-capability table and the named-GPU database.
//
// [SECTION] Sources
//   [PG]  CUDA C++ Programming Guide, "Technical Specifications per Compute Capability" table
//         (threads, warps, blocks, registers, shared memory per SM and per block).
//   [VTG] Volta Tuning Guide §1.4.3.1 "Unified Shared Memory/L1/Texture Cache": carveouts 0/8/16/32/64/96 KB.
//   [TTG] Turing Tuning Guide §1.4.3.1: shared memory 32 or 64 KB per SM.
//   [ATG] NVIDIA Ampere GPU Architecture Tuning Guide §1.4.2.1: A100 carveouts 0..164 KB, GA10x 0..100 KB,
//         1 KB of shared memory reserved per block by the system.
//   [AdaTG] Ada Tuning Guide §1.4.2.1: same carveouts as GA10x (up to 100 KB), 99 KB max per block.
//   [HTG] Hopper Tuning Guide §1.4.2.1: carveouts 0/8/16/32/64/100/132/164/196/228 KB, 227 KB per block.
//   [BTG] Blackwell Tuning Guide §1.4.2.1: 10.x same carveouts as Hopper; 12.x up to 100 KB (99 KB/block).
//   [NCU] Nsight Compute Profiling Guide, occupancy section (register allocation per warp, 256-register unit).
//   [BPG] CUDA C++ Best Practices Guide, "Coalesced Access to Global Memory".
//   Allocation granularities and block/barrier slot counts agree with the CUDA toolkit's own
//   occupancy calculator (cuda_occupancy.h), against which tests/diff checks every input exhaustively.
#include "occ/device.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace occ {
namespace {

constexpr std::int64_t KiB = 1024;

constexpr std::array<std::int64_t, kMaxCarveoutSteps> kVoltaCarveouts{0, 8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB, 96 * KiB};
constexpr std::array<std::int64_t, kMaxCarveoutSteps> kTuringCarveouts{32 * KiB, 64 * KiB};
constexpr std::array<std::int64_t, kMaxCarveoutSteps> kGA100Carveouts{0, 8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB, 100 * KiB, 132 * KiB, 164 * KiB};
constexpr std::array<std::int64_t, kMaxCarveoutSteps> kGA10xCarveouts{0, 8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB, 100 * KiB};
constexpr std::array<std::int64_t, kMaxCarveoutSteps> kHopperCarveouts{0, 8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB, 100 * KiB, 132 * KiB, 164 * KiB, 196 * KiB, 228 * KiB};

// One row per compute capability, ascending; fields left out keep ArchRules' defaults (32-thread
// warps, 1024 threads and 48 KB per block, 255 registers per thread in units of 256: [PG] for every
// row). Behaviours, each the same for the rows named:
//   smem_config     l1_split 3.x ([PG] "Compute Capability 3.x", Shared Memory: 16/32/48 KB of L1 out of
//                   64 KB); dedicated 5.x-6.x ([PG] 5.x/6.x: shared memory is its own array); carveout
//                   7.0+ ([VTG]/[TTG]/[ATG]/[HTG]/[BTG] §"Unified Shared Memory/L1").
//   smem_optin      7.0+ ([PG] 7.x "Shared Memory": above 48 KB per block needs an explicit opt-in).
//   smem_reserve_in_block_limit  8.0+ ([ATG] §1.4.2.1: 1 KB reserved per block, on top of the 163 KB a
//                   block may use out of 164 KB; cuda_occupancy.h agrees, tests/diff).
//   compat_subpartitions  6.0: GP100 also checks GP10x's 4 sub-partitions (cuda_occupancy.h, "GP10x").
//   barriers_limit_blocks 9.0+ (CUDA 12 Hopper Tuning Guide, "Named barriers"; cuda_occupancy.h).
//   clusters        9.0+ ([PG] "Thread Block Clusters").
//   banks_model     5.0+ ([PG] 5.x "Shared Memory": 32 banks of 4 bytes; 3.x has a 4- or 8-byte bank mode).
//   sectors_model   6.0+ ([BPG] "Coalesced Access to Global Memory": 32-byte sectors from 6.0).
constexpr ArchRules kArchs[] = {
    {.cc_major = 3, .cc_minor = 5, .family = "Kepler",
     .max_threads_per_sm = 2048, .max_blocks_per_sm = 16, .regs_per_sm = 65536, .regs_per_block = 65536,
     .subpartitions = 4,
     .smem_per_sm = 48 * KiB, .smem_per_block_optin = 48 * KiB, .smem_alloc_unit = 256, .smem_config = SmemConfig::l1_split,
     .barriers_per_block_slot = 2,
     .source = "[PG] cc 3.5"},
    {.cc_major = 3, .cc_minor = 7, .family = "Kepler",
     .max_threads_per_sm = 2048, .max_blocks_per_sm = 16, .regs_per_sm = 131072, .regs_per_block = 65536,
     .subpartitions = 4,
     .smem_per_sm = 112 * KiB, .smem_per_block_optin = 48 * KiB, .smem_alloc_unit = 256, .smem_config = SmemConfig::l1_split,
     .barriers_per_block_slot = 2,
     .source = "[PG] cc 3.7 (GK210: 128K registers, 112 KB shared)"},
    {.cc_major = 5, .cc_minor = 0, .family = "Maxwell",
     .max_threads_per_sm = 2048, .max_blocks_per_sm = 32, .regs_per_sm = 65536, .regs_per_block = 65536,
     .subpartitions = 4,
     .smem_per_sm = 64 * KiB, .smem_per_block_optin = 48 * KiB, .smem_alloc_unit = 256, .smem_config = SmemConfig::dedicated,
     .barriers_per_block_slot = 2, .banks_model = true,
     .source = "[PG] cc 5.0"},
    {.cc_major = 5, .cc_minor = 2, .family = "Maxwell",
     .max_threads_per_sm = 2048, .max_blocks_per_sm = 32, .regs_per_sm = 65536, .regs_per_block = 65536,
     .subpartitions = 4, .partitioned_gc_supported = true,
     .smem_per_sm = 96 * KiB, .smem_per_block_optin = 48 * KiB, .smem_alloc_unit = 256, .smem_config = SmemConfig::dedicated,
     .barriers_per_block_slot = 2, .banks_model = true,
     .source = "[PG] cc 5.2"},
    {.cc_major = 5, .cc_minor = 3, .family = "Maxwell",
     .max_threads_per_sm = 2048, .max_blocks_per_sm = 32, .regs_per_sm = 65536, .regs_per_block = 32768,
     .subpartitions = 4, .partitioned_gc_supported = true,
     .smem_per_sm = 64 * KiB, .smem_per_block_optin = 48 * KiB, .smem_alloc_unit = 256, .smem_config = SmemConfig::dedicated,
     .barriers_per_block_slot = 2, .banks_model = true,
     .source = "[PG] cc 5.3 (32K registers per block)"},
    {.cc_major = 6, .cc_minor = 0, .family = "Pascal",
     .max_threads_per_sm = 2048, .max_blocks_per_sm = 32, .regs_per_sm = 65536, .regs_per_block = 65536,
     .subpartitions = 2, .compat_subpartitions = 4,
     .smem_per_sm = 64 * KiB, .smem_per_block_optin = 48 * KiB, .smem_alloc_unit = 256, .smem_config = SmemConfig::dedicated,
     .barriers_per_block_slot = 2, .banks_model = true, .sectors_model = true,
     .source = "[PG] cc 6.0 (GP100: 2 sub-partitions per SM, Pascal whitepaper)"},
    {.cc_major = 6, .cc_minor = 1, .family = "Pascal",
     .max_threads_per_sm = 2048, .max_blocks_per_sm = 32, .regs_per_sm = 65536, .regs_per_block = 65536,
     .subpartitions = 4, .partitioned_gc_supported = true,
     .smem_per_sm = 96 * KiB, .smem_per_block_optin = 48 * KiB, .smem_alloc_unit = 256, .smem_config = SmemConfig::dedicated,
     .barriers_per_block_slot = 2, .banks_model = true, .sectors_model = true,
     .source = "[PG] cc 6.1"},
    {.cc_major = 6, .cc_minor = 2, .family = "Pascal",
     .max_threads_per_sm = 2048, .max_blocks_per_sm = 32, .regs_per_sm = 65536, .regs_per_block = 32768,
     .subpartitions = 4, .partitioned_gc_supported = true,
     .smem_per_sm = 64 * KiB, .smem_per_block_optin = 48 * KiB, .smem_alloc_unit = 256, .smem_config = SmemConfig::dedicated,
     .barriers_per_block_slot = 2, .banks_model = true, .sectors_model = true,
     .source = "[PG] cc 6.2 (32K registers per block)"},
    {.cc_major = 7, .cc_minor = 0, .family = "Volta",
     .max_threads_per_sm = 2048, .max_blocks_per_sm = 32, .regs_per_sm = 65536, .regs_per_block = 65536,
     .subpartitions = 4,
     .smem_per_sm = 96 * KiB, .smem_per_block_optin = 96 * KiB, .smem_alloc_unit = 256, .smem_config = SmemConfig::carveout,
     .carveout_steps = kVoltaCarveouts, .carveout_step_count = 6,
     .smem_optin = true, .barriers_per_block_slot = 2, .banks_model = true, .sectors_model = true,
     .source = "[PG] cc 7.0; [VTG] carveouts"},
    {.cc_major = 7, .cc_minor = 2, .family = "Volta",
     .max_threads_per_sm = 2048, .max_blocks_per_sm = 32, .regs_per_sm = 65536, .regs_per_block = 65536,
     .subpartitions = 4,
     .smem_per_sm = 96 * KiB, .smem_per_block_optin = 96 * KiB, .smem_alloc_unit = 256, .smem_config = SmemConfig::carveout,
     .carveout_steps = kVoltaCarveouts, .carveout_step_count = 6,
     .smem_optin = true, .barriers_per_block_slot = 2, .banks_model = true, .sectors_model = true,
     .source = "[PG] cc 7.2; [VTG] carveouts"},
    {.cc_major = 7, .cc_minor = 5, .family = "Turing",
     .max_threads_per_sm = 1024, .max_blocks_per_sm = 16, .regs_per_sm = 65536, .regs_per_block = 65536,
     .subpartitions = 4,
     .smem_per_sm = 64 * KiB, .smem_per_block_optin = 64 * KiB, .smem_alloc_unit = 256, .smem_config = SmemConfig::carveout,
     .carveout_steps = kTuringCarveouts, .carveout_step_count = 2,
     .smem_optin = true, .barriers_per_block_slot = 2, .banks_model = true, .sectors_model = true,
     .source = "[PG] cc 7.5; [TTG] 32/64 KB"},
    {.cc_major = 8, .cc_minor = 0, .family = "Ampere",
     .max_threads_per_sm = 2048, .max_blocks_per_sm = 32, .regs_per_sm = 65536, .regs_per_block = 65536,
     .subpartitions = 4,
     .smem_per_sm = 164 * KiB, .smem_per_block_optin = 163 * KiB, .smem_reserved_per_block = KiB, .smem_alloc_unit = 128, .smem_config = SmemConfig::carveout,
     .carveout_steps = kGA100Carveouts, .carveout_step_count = 8,
     .smem_optin = true, .smem_reserve_in_block_limit = true, .barriers_per_block_slot = 2, .banks_model = true, .sectors_model = true,
     .source = "[PG] cc 8.0; [ATG] carveouts, 1 KB reserve"},
    {.cc_major = 8, .cc_minor = 6, .family = "Ampere",
     .max_threads_per_sm = 1536, .max_blocks_per_sm = 16, .regs_per_sm = 65536, .regs_per_block = 65536,
     .subpartitions = 4,
     .smem_per_sm = 100 * KiB, .smem_per_block_optin = 99 * KiB, .smem_reserved_per_block = KiB, .smem_alloc_unit = 128, .smem_config = SmemConfig::carveout,
     .carveout_steps = kGA10xCarveouts, .carveout_step_count = 6,
     .smem_optin = true, .smem_reserve_in_block_limit = true, .barriers_per_block_slot = 1, .banks_model = true, .sectors_model = true,
     .source = "[PG] cc 8.6; [ATG] GA10x carveouts"},
    {.cc_major = 8, .cc_minor = 7, .family = "Ampere",
     .max_threads_per_sm = 1536, .max_blocks_per_sm = 16, .regs_per_sm = 65536, .regs_per_block = 65536,
     .subpartitions = 4,
     .smem_per_sm = 164 * KiB, .smem_per_block_optin = 163 * KiB, .smem_reserved_per_block = KiB, .smem_alloc_unit = 128, .smem_config = SmemConfig::carveout,
     .carveout_steps = kGA100Carveouts, .carveout_step_count = 8,
     .smem_optin = true, .smem_reserve_in_block_limit = true, .barriers_per_block_slot = 1, .banks_model = true, .sectors_model = true,
     .source = "[PG] cc 8.7 (Orin); [ATG] carveouts"},
    {.cc_major = 8, .cc_minor = 9, .family = "Ada",
     .max_threads_per_sm = 1536, .max_blocks_per_sm = 24, .regs_per_sm = 65536, .regs_per_block = 65536,
     .subpartitions = 4,
     .smem_per_sm = 100 * KiB, .smem_per_block_optin = 99 * KiB, .smem_reserved_per_block = KiB, .smem_alloc_unit = 128, .smem_config = SmemConfig::carveout,
     .carveout_steps = kGA10xCarveouts, .carveout_step_count = 6,
     .smem_optin = true, .smem_reserve_in_block_limit = true, .barriers_per_block_slot = 1, .banks_model = true, .sectors_model = true,
     .source = "[PG] cc 8.9; [AdaTG] carveouts"},
    {.cc_major = 9, .cc_minor = 0, .family = "Hopper",
     .max_threads_per_sm = 2048, .max_blocks_per_sm = 32, .regs_per_sm = 65536, .regs_per_block = 65536,
     .subpartitions = 4,
     .smem_per_sm = 228 * KiB, .smem_per_block_optin = 227 * KiB, .smem_reserved_per_block = KiB, .smem_alloc_unit = 128, .smem_config = SmemConfig::carveout,
     .carveout_steps = kHopperCarveouts, .carveout_step_count = 10,
     .smem_optin = true, .smem_reserve_in_block_limit = true, .barriers_limit_blocks = true, .barriers_per_block_slot = 2, .clusters = true, .banks_model = true, .sectors_model = true,
     .source = "[PG] cc 9.0; [HTG] carveouts"},
    {.cc_major = 10, .cc_minor = 0, .family = "Blackwell",
     .max_threads_per_sm = 2048, .max_blocks_per_sm = 32, .regs_per_sm = 65536, .regs_per_block = 65536,
     .subpartitions = 4,
     .smem_per_sm = 228 * KiB, .smem_per_block_optin = 227 * KiB, .smem_reserved_per_block = KiB, .smem_alloc_unit = 128, .smem_config = SmemConfig::carveout,
     .carveout_steps = kHopperCarveouts, .carveout_step_count = 10,
     .smem_optin = true, .smem_reserve_in_block_limit = true, .barriers_limit_blocks = true, .barriers_per_block_slot = 2, .clusters = true, .banks_model = true, .sectors_model = true,
     .source = "[PG] cc 10.0; [BTG] carveouts"},
    {.cc_major = 10, .cc_minor = 3, .family = "Blackwell",
     .max_threads_per_sm = 2048, .max_blocks_per_sm = 32, .regs_per_sm = 65536, .regs_per_block = 65536,
     .subpartitions = 4,
     .smem_per_sm = 228 * KiB, .smem_per_block_optin = 227 * KiB, .smem_reserved_per_block = KiB, .smem_alloc_unit = 128, .smem_config = SmemConfig::carveout,
     .carveout_steps = kHopperCarveouts, .carveout_step_count = 10,
     .smem_optin = true, .smem_reserve_in_block_limit = true, .barriers_limit_blocks = true, .barriers_per_block_slot = 2, .clusters = true, .banks_model = true, .sectors_model = true,
     .source = "[PG] cc 10.3; [BTG] carveouts"},
    {.cc_major = 11, .cc_minor = 0, .family = "Blackwell",
     .max_threads_per_sm = 1536, .max_blocks_per_sm = 24, .regs_per_sm = 65536, .regs_per_block = 65536,
     .subpartitions = 4,
     .smem_per_sm = 228 * KiB, .smem_per_block_optin = 227 * KiB, .smem_reserved_per_block = KiB, .smem_alloc_unit = 128, .smem_config = SmemConfig::carveout,
     .carveout_steps = kHopperCarveouts, .carveout_step_count = 10,
     .smem_optin = true, .smem_reserve_in_block_limit = true, .barriers_limit_blocks = true, .barriers_per_block_slot = 1, .clusters = true, .banks_model = true, .sectors_model = true,
     .source = "[PG] cc 11.0 (Thor, formerly 10.1); [BTG] carveouts"},
    {.cc_major = 12, .cc_minor = 0, .family = "Blackwell",
     .max_threads_per_sm = 1536, .max_blocks_per_sm = 24, .regs_per_sm = 65536, .regs_per_block = 65536,
     .subpartitions = 4,
     .smem_per_sm = 100 * KiB, .smem_per_block_optin = 99 * KiB, .smem_reserved_per_block = KiB, .smem_alloc_unit = 128, .smem_config = SmemConfig::carveout,
     .carveout_steps = kGA10xCarveouts, .carveout_step_count = 6,
     .smem_optin = true, .smem_reserve_in_block_limit = true, .barriers_limit_blocks = true, .barriers_per_block_slot = 1, .clusters = true, .banks_model = true, .sectors_model = true,
     .source = "[PG] cc 12.0; [BTG] carveouts up to 100 KB"},
    {.cc_major = 12, .cc_minor = 1, .family = "Blackwell",
     .max_threads_per_sm = 1536, .max_blocks_per_sm = 24, .regs_per_sm = 65536, .regs_per_block = 65536,
     .subpartitions = 4,
     .smem_per_sm = 100 * KiB, .smem_per_block_optin = 99 * KiB, .smem_reserved_per_block = KiB, .smem_alloc_unit = 128, .smem_config = SmemConfig::carveout,
     .carveout_steps = kGA10xCarveouts, .carveout_step_count = 6,
     .smem_optin = true, .smem_reserve_in_block_limit = true, .barriers_limit_blocks = true, .barriers_per_block_slot = 1, .clusters = true, .banks_model = true, .sectors_model = true,
     .source = "[PG] cc 12.1 (GB10); [BTG] carveouts up to 100 KB"},
};
// SM counts: vendor datasheets / whitepapers for each product (the "source" column).
constexpr GpuEntry kGpus[] = {
    // Kepler
    {"Tesla-K40", 3, 5, 15, Segment::datacenter, "k40,teslak40", "Tesla K40 datasheet: 2880 CUDA cores = 15 SMX"},
    {"GTX-780-Ti", 3, 5, 15, Segment::consumer, "780ti,gtx780ti", "GK110 whitepaper: 15 SMX"},
    {"Tesla-K80", 3, 7, 13, Segment::datacenter, "k80,teslak80", "Tesla K80 datasheet: 2496 cores per GPU = 13 SMX"},
    // Maxwell
    {"GTX-750-Ti", 5, 0, 5, Segment::consumer, "750ti,gtx750ti", "GM107 whitepaper: 5 SMM"},
    {"GTX-980", 5, 2, 16, Segment::consumer, "980,gtx980", "GM204 whitepaper: 16 SMM"},
    {"GTX-Titan-X", 5, 2, 24, Segment::consumer, "titanx,gtxtitanx", "GM200: 3072 cores = 24 SMM"},
    {"Tesla-M40", 5, 2, 24, Segment::datacenter, "m40,teslam40", "Tesla M40 datasheet: 3072 cores = 24 SMM"},
    {"Jetson-Nano", 5, 3, 1, Segment::embedded, "nano,jetsonnano", "Jetson Nano: 128 CUDA cores = 1 SMM"},
    // Pascal
    {"Tesla-P100", 6, 0, 56, Segment::datacenter, "p100,teslap100,p100sxm2,p100pcie", "Pascal P100 whitepaper: 56 SMs"},
    {"GTX-1080", 6, 1, 20, Segment::consumer, "1080,gtx1080", "GP104: 2560 cores = 20 SMs"},
    {"GTX-1080-Ti", 6, 1, 28, Segment::consumer, "1080ti,gtx1080ti", "GP102: 3584 cores = 28 SMs"},
    {"Tesla-P40", 6, 1, 30, Segment::datacenter, "p40,teslap40", "Tesla P40 datasheet: 3840 cores = 30 SMs"},
    {"Tesla-P4", 6, 1, 20, Segment::datacenter, "p4,teslap4", "Tesla P4 datasheet: 2560 cores = 20 SMs"},
    {"Jetson-TX2", 6, 2, 2, Segment::embedded, "tx2,jetsontx2", "Jetson TX2: 256 CUDA cores = 2 SMs"},
    // Volta
    {"V100-SXM2-32GB", 7, 0, 80, Segment::datacenter, "v100,v100sxm2,v100sxm216gb,teslav100", "Volta V100 whitepaper: 80 SMs"},
    {"V100-PCIe-32GB", 7, 0, 80, Segment::datacenter, "v100pcie,v100pcie16gb", "V100 PCIe datasheet: 5120 cores = 80 SMs"},
    {"Titan-V", 7, 0, 80, Segment::workstation, "titanv", "Titan V: 5120 cores = 80 SMs"},
    {"Jetson-AGX-Xavier", 7, 2, 8, Segment::embedded, "xavier,agxxavier,jetsonxavier", "Jetson AGX Xavier: 512 cores = 8 SMs"},
    // Turing
    {"Tesla-T4", 7, 5, 40, Segment::datacenter, "t4", "Turing whitepaper / T4 datasheet: 2560 cores = 40 SMs"},
    {"RTX-2080-Ti", 7, 5, 68, Segment::consumer, "2080ti,rtx2080ti", "Turing whitepaper: 68 SMs"},
    {"RTX-2080", 7, 5, 46, Segment::consumer, "2080,rtx2080", "Turing whitepaper: 46 SMs"},
    {"Quadro-RTX-6000", 7, 5, 72, Segment::workstation, "rtx6000,quadrortx6000,quadrortx8000", "TU102 full: 72 SMs"},
    // Ampere
    {"A100-SXM4-40GB", 8, 0, 108, Segment::datacenter, "a100sxm440gb,a10040gb,a100sxm", "Ampere A100 whitepaper: 108 SMs"},
    {"A100-SXM4-80GB", 8, 0, 108, Segment::datacenter, "a100,a10080gb,a100sxm480gb", "A100 80GB datasheet: 108 SMs"},
    {"A100-PCIe-40GB", 8, 0, 108, Segment::datacenter, "a100pcie,a100pcie40gb", "A100 PCIe datasheet: 108 SMs"},
    {"A100-PCIe-80GB", 8, 0, 108, Segment::datacenter, "a100pcie80gb", "A100 PCIe 80GB datasheet: 108 SMs"},
    {"A30", 8, 0, 56, Segment::datacenter, "a30", "A30 datasheet: 3584 cores = 56 SMs"},
    {"A10", 8, 6, 72, Segment::datacenter, "a10", "A10 datasheet: 9216 cores = 72 SMs"},
    {"A40", 8, 6, 84, Segment::datacenter, "a40", "A40 datasheet: 10752 cores = 84 SMs"},
    {"RTX-A6000", 8, 6, 84, Segment::workstation, "a6000,rtxa6000", "RTX A6000 datasheet: 10752 cores = 84 SMs"},
    {"RTX-3090", 8, 6, 82, Segment::consumer, "3090,rtx3090", "GA102 whitepaper: RTX 3090 82 SMs"},
    {"RTX-3080", 8, 6, 68, Segment::consumer, "3080,rtx3080", "GA102 whitepaper: RTX 3080 68 SMs"},
    {"RTX-3060", 8, 6, 28, Segment::consumer, "3060,rtx3060", "GA106: 3584 cores = 28 SMs"},
    {"Jetson-AGX-Orin", 8, 7, 16, Segment::embedded, "orin,agxorin,jetsonorin", "Jetson AGX Orin 64GB: 2048 cores = 16 SMs"},
    // Ada
    {"RTX-4090", 8, 9, 128, Segment::consumer, "4090,rtx4090", "Ada whitepaper: RTX 4090 128 SMs"},
    {"RTX-4080", 8, 9, 76, Segment::consumer, "4080,rtx4080", "Ada whitepaper: RTX 4080 76 SMs"},
    {"L4", 8, 9, 58, Segment::datacenter, "l4", "L4 datasheet: 7424 cores = 58 SMs"},
    {"L40", 8, 9, 142, Segment::datacenter, "l40", "L40 datasheet: 18176 cores = 142 SMs"},
    {"L40S", 8, 9, 142, Segment::datacenter, "l40s", "L40S datasheet: 18176 cores = 142 SMs"},
    {"RTX-6000-Ada", 8, 9, 142, Segment::workstation, "rtx6000ada,6000ada", "RTX 6000 Ada datasheet: 18176 cores = 142 SMs"},
    // Hopper
    {"H100-SXM5-80GB", 9, 0, 132, Segment::datacenter, "h100,h100sxm,h100sxm5,h10080gb", "Hopper whitepaper: H100 SXM5 132 SMs"},
    {"H100-PCIe-80GB", 9, 0, 114, Segment::datacenter, "h100pcie", "Hopper whitepaper: H100 PCIe 114 SMs"},
    {"H100-NVL", 9, 0, 132, Segment::datacenter, "h100nvl", "H100 NVL datasheet: 132 SMs"},
    {"H200", 9, 0, 132, Segment::datacenter, "h200,h200sxm,h200sxm141gb", "H200 datasheet: GH100 with 132 SMs"},
    {"GH200", 9, 0, 132, Segment::datacenter, "gh200,gracehopper", "GH200 datasheet: H100 GPU with 132 SMs"},
    // Blackwell
    {"B200", 10, 0, 148, Segment::datacenter, "b200,gb200", "Blackwell B200: 148 SMs (cudaDeviceProp on B200)"},
    {"B300", 10, 3, 148, Segment::datacenter, "b300,gb300", "Blackwell Ultra B300: 148 SMs enabled (assumption, see docs/MODEL.md)"},
    {"Jetson-AGX-Thor", 11, 0, 20, Segment::embedded, "thor,agxthor,jetsonthor", "Jetson AGX Thor: 2560 cores = 20 SMs"},
    {"RTX-5090", 12, 0, 170, Segment::consumer, "5090,rtx5090", "RTX Blackwell whitepaper: RTX 5090 170 SMs"},
    {"RTX-5080", 12, 0, 84, Segment::consumer, "5080,rtx5080", "RTX Blackwell whitepaper: RTX 5080 84 SMs"},
    {"RTX-PRO-6000-Blackwell", 12, 0, 188, Segment::workstation, "rtxpro6000,pro6000", "RTX PRO 6000 Blackwell datasheet: 24064 cores = 188 SMs"},
    {"DGX-Spark-GB10", 12, 1, 48, Segment::workstation, "gb10,dgxspark,spark", "DGX Spark GB10: 6144 cores = 48 SMs"},
};

// Lowercase, keep only [a-z0-9], drop vendor words so "NVIDIA GeForce RTX 4090" == "rtx4090".
std::string normalise(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        if (std::isalnum(static_cast<unsigned char>(c))) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
    for (const char* word : {"nvidia", "geforce", "tesla"}) {
        const std::string w(word);
        if (out.size() > w.size() && out.compare(0, w.size(), w) == 0) out.erase(0, w.size());
    }
    return out;
}

Device to_device(const GpuEntry& g) {
    Device d;
    d.name = g.name;
    d.sm_count = g.sm_count;
    d.segment = g.segment;
    d.arch = *find_arch(g.cc_major, g.cc_minor);
    return d;
}

// Optimal-string-alignment distance: a swap of two neighbours ("4009" for "4090") costs one edit.
std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0u : 1u)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

template <typename Fn>
void for_each_name(const GpuEntry& g, Fn&& fn) {
    fn(std::string_view(g.name));
    std::string_view rest(g.aliases);
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        fn(rest.substr(0, comma));
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
    }
}

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
std::span<const GpuEntry> all_gpus() { return kGpus; }

const ArchRules* find_arch(int cc_major, int cc_minor) {
    for (const ArchRules& a : kArchs)
        if (a.cc_major == cc_major && a.cc_minor == cc_minor) return &a;
    return nullptr;
}

std::optional<Device> find_gpu(std::string_view name) {
    const std::string key = normalise(name);
    if (key.empty()) return std::nullopt;
    for (const GpuEntry& g : kGpus) {
        bool hit = false;
        for_each_name(g, [&](std::string_view n) { hit = hit || normalise(n) == key; });
        if (hit) return to_device(g);
    }
    return std::nullopt;
}

std::string suggest_gpu(std::string_view name) {
    const std::string key = normalise(name);
    if (key.empty()) return {};
    std::size_t best = SIZE_MAX;
    const char* best_name = nullptr;
    for (const GpuEntry& g : kGpus) {
        for_each_name(g, [&](std::string_view n) {
            const std::string cand = normalise(n);
            // Scores in half-edits: a prefix match ("h10" -> "h100") beats a one-letter typo.
            std::size_t d = 2 * edit_distance(key, cand);
            if (cand.size() > key.size() && cand.compare(0, key.size(), key) == 0) d = std::min<std::size_t>(d, 1);
            if (d < best) { best = d; best_name = g.name; }
        });
    }
    // Accept up to a third of the typed length in edits (at least 2).
    const std::size_t allowed = 2 * std::max<std::size_t>(2, key.size() / 3);
    return (best_name && best <= allowed) ? std::string(best_name) : std::string();
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
        if (t.size() > p.size() && t.substr(0, p.size()) == p) { t.remove_prefix(p.size()); break; }
    }
    auto all_digits = [](std::string_view s) {
        return !s.empty() && s.size() <= 2 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    auto to_int = [](std::string_view s) { int v = 0; for (char c : s) v = v * 10 + (c - '0'); return v; };
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

bool cubin_runs_on(int code_major, int code_minor, const ArchRules& device) {
    return code_major == device.cc_major && code_minor <= device.cc_minor;
}

bool cc_older(int a_major, int a_minor, int b_major, int b_minor) {
    return a_major != b_major ? a_major < b_major : a_minor < b_minor;
}

std::string supported_cc_list() {
    std::string s;
    for (const ArchRules& a : kArchs) {
        if (!s.empty()) s += ", ";
        s += std::to_string(a.cc_major) + "." + std::to_string(a.cc_minor);
    }
    return s;
}

}  // namespace occ
