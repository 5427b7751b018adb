// occ/amd_advisor.hpp — the launch advisor and the waves of a grid for AMD GPUs: the CUDA advisor's
// searches and shapes (occ/advisor_search.hpp, occ/advisor.hpp) over the AMD model (occ/amd.hpp),
// in AMD's words (workgroups per CU or WGP, VGPRs per lane, LDS).
//
//   block size   the workgroup size with the most active threads per CU (WGP), ties to the larger
//   VGPRs        the most arch VGPRs per lane that keep the workgroups, and the cut that gains one
//                (with how to ask LLVM for it: __launch_bounds__ / amdgpu-waves-per-eu)
//   LDS          the same for the dynamic LDS; the LDS available per workgroup at a target
//   waves        workgroups per wave = workgroups per CU (WGP) x CUs (WGPs) of the GPU
// Every number comes from compute_amd_occupancy; there is no AMD rule here.
#pragma once
#include <cstdint>
#include <string>

#include "occ/advisor.hpp"
#include "occ/amd.hpp"
#include "occ/waves.hpp"

namespace occ::amd {

using AmdBlockSizeAdvice = BasicBlockSizeAdvice<AmdOccupancyResult>;
using AmdResourceAdvice = BasicResourceAdvice<AmdOccupancyResult>;  // registers: arch VGPRs; shared_memory: dynamic LDS
using AmdLdsAdvice = BasicDynamicSmemAdvice<AmdOccupancyResult>;

// The units a grid's workgroups spread over: the GPU's CUs, or its WGPs (two CUs) in WGP mode; 0 when
// unknown (a bare target has no CU count).
int amd_units(const AmdOccupancyResult& r, int compute_units);

// compute_units: the GPU's CUs (0 for a bare target: min_grid_blocks is then -1, unknown).
AmdBlockSizeAdvice amd_advise_block_size(const AmdArch& a, const AmdKernel& k, const AmdLaunch& l, SmemGrowth lds, int block_size_limit,
                                         int compute_units);
AmdResourceAdvice amd_advise_vgprs(const AmdArch& a, const AmdKernel& k, const AmdLaunch& l);
AmdResourceAdvice amd_advise_lds(const AmdArch& a, const AmdKernel& k, const AmdLaunch& l);
// The most dynamic LDS per workgroup with which `target` workgroups still fit on one CU (WGP).
AmdLdsAdvice amd_available_lds(const AmdArch& a, const AmdKernel& k, const AmdLaunch& l, int target);
// Waves of `grid` workgroups (0: one full wave) over the GPU's units; the achieved-occupancy
// prediction is null with its reason (fitted on NVIDIA reports only).
WaveResult amd_waves(const AmdOccupancyResult& r, int compute_units, std::int64_t grid);

// The advisor's sentences (occ/advisor.hpp) in AMD's nouns for this launch's unit (CU or WGP).
AdviceWords amd_words(const AmdOccupancyResult& r);
// The limiters' labels in running text ("VGPRs and LDS"), as amd_limiters() names them.
std::string amd_limiter_list(unsigned bits, const char* sep);
// The limiters' labels as the tables show them ("Wave slots, VGPRs"), AMD's limiter_labels.
std::string amd_limiter_labels(unsigned bits, const char* sep);
// Each empty when there is nothing to suggest.
std::string amd_block_size_suggestion(const AmdBlockSizeAdvice& b, int threads_now);
std::string amd_best_block_sentence(const AmdBlockSizeAdvice& b);
// The cut that gains a workgroup; for VGPRs with how to ask the compiler for it: HIP's
// __launch_bounds__(threads, waves per SIMD), which clang passes on as amdgpu-waves-per-eu.
std::string amd_cut_suggestion(const AmdResourceAdvice& a, int threads);
std::string amd_headroom_suggestion(const AmdResourceAdvice& a);
std::string amd_no_headroom_sentence(const AmdResourceAdvice& a);
std::string amd_target_suggestion(const AmdLdsAdvice& a);
std::string amd_waves_suggestion(const WaveResult& w, const AmdOccupancyResult& r);

}  // namespace occ::amd
