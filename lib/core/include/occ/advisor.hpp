// occ/advisor.hpp — launch suggestions, each with the numbers before and after.
//
// [SECTION] Block size        like cudaOccupancyMaxPotentialBlockSize(VariableSMem)
// [SECTION] Register and shared-memory headroom: what you may add before losing a block, and the
//           cut that gains one (one ResourceAdvice shape for both); the dynamic shared memory
//           available per block at a target blocks/SM, like cudaOccupancyAvailableDynamicSMemPerBlock
// [SECTION] Suggestions       each piece of advice worded once, for JSON, the CLI and the app
//
// Everything here is a search over compute_occupancy() / the sweeps in occ/sweep.hpp: the
// advisor holds no occupancy rule of its own.
#pragma once
#include <cstdint>
#include <string>

#include "occ/cluster.hpp"
#include "occ/occupancy.hpp"
#include "occ/waves.hpp"

namespace occ {

// [SECTION] Block size
// Dynamic shared memory that grows with the block: fixed + per_thread × threads bytes (the
// blockSizeToDynamicSMemSize callback of cudaOccupancyMaxPotentialBlockSizeVariableSMem).
struct SmemGrowth {
    std::int64_t fixed = 0;
    std::int64_t per_thread = 0;
    std::int64_t at(int threads) const { return fixed + per_thread * threads; }
};

// The advice shapes are templates over the model's result (OccupancyResult here; AMD's
// amd::AmdOccupancyResult in occ/amd_advisor.hpp): one shape and one search for both vendors.
template <typename R>
struct BasicBlockSizeAdvice {
    int threads = 0;                // best block size
    std::int64_t smem_dynamic = 0;  // dynamic shared memory at that size
    int blocks_per_sm = 0;
    int active_threads_per_sm = 0;     // the score: blocks × threads
    std::int64_t min_grid_blocks = 0;  // blocks_per_sm × SMs: the smallest grid that fills the GPU (minGridSize); -1 unknown
    int candidates = 0;                // block sizes evaluated
    R before;                          // at the launch's current block size (its smem grown the same way)
    R after;                           // at the suggested block size
    std::string error;
    bool ok() const { return error.empty(); }
};
using BlockSizeAdvice = BasicBlockSizeAdvice<OccupancyResult>;

// Search order and tie-breaking follow the CUDA runtime's documented behaviour for
// cudaOccupancyMaxPotentialBlockSize: candidates are the block-size limit itself
// (min(block_size_limit, max threads per block)) and then every multiple of the warp size below it,
// from the largest down; a candidate replaces the best only when it has strictly more active
// threads per SM (blocks/SM × threads). So on a tie the LARGEST block size wins.
// block_size_limit = 0 means no limit beyond the device's.
BlockSizeAdvice advise_block_size(const Device& dev, const KernelResources& k, const LaunchConfig& l, SmemGrowth smem,
                                  int block_size_limit = 0);

// [SECTION] Register and shared-memory headroom (one shape for both resources)
enum class Resource : std::uint8_t {
    registers,      // registers per thread
    shared_memory,  // dynamic shared memory per block, bytes
};

template <typename R>
struct BasicResourceAdvice {
    Resource resource = Resource::registers;
    std::int64_t now = 0;              // the resource as the launch uses it now
    int blocks_per_sm = 0;             // blocks per SM now
    std::int64_t max_same_blocks = 0;  // the most that keeps blocks_per_sm
    std::int64_t headroom = 0;         // max_same_blocks - now
    std::int64_t to_gain_block = -1;   // the most that fits one more block; -1: none does
    std::int64_t cut_to_gain = 0;      // now - to_gain_block (0 when no cut helps)
    R before;                          // now
    R at_headroom;                     // at max_same_blocks
    R after_cut;                       // at to_gain_block (when one exists)
    std::string note;                  // why no cut helps, when none does
    std::string error;
    bool ok() const { return error.empty(); }
};
using ResourceAdvice = BasicResourceAdvice<OccupancyResult>;
// Registers per thread you may add before losing a block, and the cut that gains one.
ResourceAdvice advise_registers(const Device& dev, const KernelResources& k, const LaunchConfig& l);
// The same for the launch's dynamic shared memory per block.
ResourceAdvice advise_shared_memory(const Device& dev, const KernelResources& k, const LaunchConfig& l);

// The most dynamic shared memory per block (bytes) with which `target_blocks` blocks of
// `l.threads` threads still fit on one SM, like cudaOccupancyAvailableDynamicSMemPerBlock.
// The kernel's opt-in setting is respected (without opt-in a block may use 48 KB in total).
template <typename R>
struct BasicDynamicSmemAdvice {
    int target_blocks = 0;
    std::int64_t available = -1;  // bytes; -1 when the target cannot be reached
    R at_available;               // occupancy with smem_dynamic = available
    std::string error;            // why the target cannot be reached
    bool ok() const { return error.empty(); }
};
using DynamicSmemAdvice = BasicDynamicSmemAdvice<OccupancyResult>;
DynamicSmemAdvice available_dynamic_smem(const Device& dev, const KernelResources& k, const LaunchConfig& l, int target_blocks);

// [SECTION] Suggestions
// One sentence per piece of advice, worded here once for every face (the advise request's
// "suggestions", the CLI, the app). Each is empty when its advice has nothing to suggest.
std::string block_size_suggestion(const BlockSizeAdvice& b, int threads_now);
std::string cut_suggestion(const ResourceAdvice& a);        // cut registers / shared memory to gain a block
std::string headroom_suggestion(const ResourceAdvice& a);   // what may be added before losing a block
std::string target_suggestion(const DynamicSmemAdvice& a);  // dynamic shared memory at the target blocks/SM
struct AdviceWords;
std::string waves_suggestion(const WaveResult& w, const AdviceWords& words);  // a grid with a partial last wave
std::string waves_suggestion(const WaveResult& w);                            // in CUDA's words
std::string clusters_suggestion(const ClusterResult& c);                      // block slots that clusters leave idle
// The same sentences over the plain numbers, for a face that keeps only those (the app's hints):
// `before` is the launch now, `now` the resource as it uses it. Empty when there is nothing to say.
std::string cut_sentence(Resource res, std::int64_t now, std::int64_t to_gain, int blocks_after, const OccupancyResult& before);
std::string headroom_sentence(Resource res, std::int64_t now, std::int64_t max_same, const OccupancyResult& before);
// Where there is no headroom: one more register (byte) costs a block.
std::string no_headroom_sentence(Resource res, const OccupancyResult& before);
// The block size cudaOccupancyMaxPotentialBlockSize picks, and its occupancy.
std::string best_block_sentence(int threads, double occupancy);
// When no other suggestion applies.
std::string no_change_suggestion(const OccupancyResult& now);
std::string no_change_suggestion(const std::string& error);  // error: why the launch fails ("" when it runs)

// The same sentences in a vendor's nouns: the functions above use CUDA's (the defaults); AMD's are
// occ::amd::amd_words() (occ/amd_advisor.hpp). Each sentence is worded once, in advisor.cpp.
struct AdviceWords {
    std::string block = "block";                                       // "workgroup"
    std::string blocks = "blocks";                                     // "workgroups"
    std::string per = "SM";                                            // "CU", "WGP"
    std::string reg = "register";                                      // "VGPR"
    std::string regs = "registers";                                    // "VGPRs"
    std::string regs_short = "regs";                                   // "VGPRs": table rows, "256 threads x 64 regs"
    std::string per_lane = "per thread";                               // "per lane"
    std::string regs_how = "e.g. __launch_bounds__ or -maxrregcount";  // how to ask the compiler for fewer
    std::string smem = "dynamic shared memory";                        // "dynamic LDS"
    std::string smem_short = "shared-memory";                          // "LDS"
    std::string smem_abbrev = "smem";                                  // "LDS": table rows, "0 B dynamic smem"
    std::string pick = "cudaOccupancyMaxPotentialBlockSize's pick; ties go to the larger block";
    std::string waves_metric = "Nsight Compute \"Waves Per SM\"";  // the profiler's name for the waves ("" none)
};
std::string block_size_sentence(const AdviceWords& w, int threads_now, int threads, double occ_before, double occ_after, int blocks_before,
                                int blocks_after, std::int64_t min_grid);  // min_grid <= 0: unknown, not said
std::string cut_sentence(const AdviceWords& w, Resource res, std::int64_t now, std::int64_t to_gain, int blocks_before, int blocks_after,
                         double occ_before, double occ_after);
std::string headroom_sentence(const AdviceWords& w, Resource res, std::int64_t now, std::int64_t max_same, int blocks, double occupancy);
std::string no_headroom_sentence(const AdviceWords& w, Resource res, int blocks);
std::string best_block_sentence(const AdviceWords& w, int threads, double occupancy);
std::string target_sentence(const AdviceWords& w, int target, std::int64_t available, double occupancy);
// Why no cut gains a block: even at 0 the launch is limited by `limited_by` (the limiters' words).
std::string no_cut_sentence(const AdviceWords& w, Resource res, const std::string& limited_by);

}  // namespace occ
