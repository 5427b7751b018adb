// occ/advisor.hpp — launch suggestions, each with the numbers before and after.
//
// [SECTION] Block size        like cudaOccupancyMaxPotentialBlockSize(VariableSMem)
// [SECTION] Register headroom registers you may add before losing a block / cut to gain one
// [SECTION] Shared memory     the same for dynamic shared memory, and the dynamic shared memory
//                             available per block at a target blocks/SM, like
//                             cudaOccupancyAvailableDynamicSMemPerBlock
//
// Everything here is a search over compute_occupancy() / the sweeps in occ/sweep.hpp: the
// advisor holds no occupancy rule of its own.
#pragma once
#include <cstdint>
#include <string>

#include "occ/occupancy.hpp"

namespace occ {

// [SECTION] Block size
// Dynamic shared memory that grows with the block: fixed + per_thread × threads bytes (the
// blockSizeToDynamicSMemSize callback of cudaOccupancyMaxPotentialBlockSizeVariableSMem).
struct SmemGrowth {
    std::int64_t fixed = 0;
    std::int64_t per_thread = 0;
    std::int64_t at(int threads) const { return fixed + per_thread * threads; }
};

struct BlockSizeAdvice {
    int threads = 0;                 // best block size
    std::int64_t smem_dynamic = 0;   // dynamic shared memory at that size
    int blocks_per_sm = 0;
    int active_threads_per_sm = 0;   // the score: blocks × threads
    std::int64_t min_grid_blocks = 0;   // blocks_per_sm × SMs: the smallest grid that fills the GPU (minGridSize)
    int candidates = 0;              // block sizes evaluated
    OccupancyResult before;          // at the launch's current block size (its smem grown the same way)
    OccupancyResult after;           // at the suggested block size
    std::string error;
    bool ok() const { return error.empty(); }
};

// Search order and tie-breaking follow the CUDA runtime's documented behaviour for
// cudaOccupancyMaxPotentialBlockSize: candidates are the block-size limit itself
// (min(block_size_limit, max threads per block)) and then every multiple of the warp size below it,
// from the largest down; a candidate replaces the best only when it has strictly more active
// threads per SM (blocks/SM × threads). So on a tie the LARGEST block size wins.
// block_size_limit = 0 means no limit beyond the device's.
BlockSizeAdvice advise_block_size(const Device& dev, const KernelResources& k, const LaunchConfig& l, SmemGrowth smem,
                                  int block_size_limit = 0);

// [SECTION] Register headroom
struct RegisterAdvice {
    int regs = 0;                    // registers per thread now
    int blocks_per_sm = 0;           // blocks per SM now
    int max_regs_same_blocks = 0;    // the most registers per thread that keep blocks_per_sm
    int headroom = 0;                // max_regs_same_blocks - regs
    int regs_to_gain_block = -1;     // the most registers per thread that fit one more block; -1: none does
    int cut_to_gain = 0;             // regs - regs_to_gain_block (0 when no cut helps)
    OccupancyResult before;          // now
    OccupancyResult at_headroom;     // at max_regs_same_blocks
    OccupancyResult after_cut;       // at regs_to_gain_block (when one exists)
    std::string note;                // why no cut helps, when none does
    std::string error;
    bool ok() const { return error.empty(); }
};
RegisterAdvice advise_registers(const Device& dev, const KernelResources& k, const LaunchConfig& l);

// [SECTION] Shared memory
struct SharedMemoryAdvice {
    std::int64_t smem_dynamic = 0;             // dynamic bytes now
    int blocks_per_sm = 0;
    std::int64_t max_dynamic_same_blocks = 0;  // the most dynamic bytes that keep blocks_per_sm
    std::int64_t headroom = 0;                 // max_dynamic_same_blocks - smem_dynamic
    std::int64_t dynamic_to_gain_block = -1;   // the most dynamic bytes that fit one more block; -1: none does
    std::int64_t cut_to_gain = 0;              // smem_dynamic - dynamic_to_gain_block
    OccupancyResult before, at_headroom, after_cut;
    std::string note;
    std::string error;
    bool ok() const { return error.empty(); }
};
SharedMemoryAdvice advise_shared_memory(const Device& dev, const KernelResources& k, const LaunchConfig& l);

// The most dynamic shared memory per block (bytes) with which `target_blocks` blocks of
// `l.threads` threads still fit on one SM, like cudaOccupancyAvailableDynamicSMemPerBlock.
// The kernel's opt-in setting is respected (without opt-in a block may use 48 KB in total).
struct DynamicSmemAdvice {
    int target_blocks = 0;
    std::int64_t available = -1;     // bytes; -1 when the target cannot be reached
    OccupancyResult at_available;    // occupancy with smem_dynamic = available
    std::string error;               // why the target cannot be reached
    bool ok() const { return error.empty(); }
};
DynamicSmemAdvice available_dynamic_smem(const Device& dev, const KernelResources& k, const LaunchConfig& l, int target_blocks);

}  // namespace occ
