// oracle_prop.hpp — an occ::ArchRules as the cudaOccDeviceProp that NVIDIA's cuda_occupancy.h takes.
// Shared by the differential test and the benchmark; include <cuda_occupancy.h> (from the installed
// toolkit, an oracle only) before this header.
#pragma once
#include "occ/device.hpp"

inline cudaOccDeviceProp oracle_prop(const occ::ArchRules& a, int sm_count = 1) {
    cudaOccDeviceProp p;
    p.computeMajor = a.cc_major;
    p.computeMinor = a.cc_minor;
    p.maxThreadsPerBlock = a.max_threads_per_block;
    p.maxThreadsPerMultiprocessor = a.max_threads_per_sm;
    p.regsPerBlock = a.regs_per_block;
    p.regsPerMultiprocessor = a.regs_per_sm;
    p.warpSize = a.warp_size;
    p.sharedMemPerBlock = static_cast<size_t>(a.smem_per_block);
    p.sharedMemPerMultiprocessor = static_cast<size_t>(a.smem_per_sm);
    p.numSms = sm_count;
    p.sharedMemPerBlockOptin = static_cast<size_t>(a.smem_per_block_optin);
    p.reservedSharedMemPerBlock = static_cast<size_t>(a.smem_reserved_per_block);
    return p;
}
