// device_clock.cuh — the two special registers every timing kernel reads: %globaltimer (ns) and
// %smid. In an anonymous namespace, as the kernels that include it are: each translation unit keeps
// its own copy (they are compiled for different targets and register caps).
#pragma once

namespace {

__device__ __forceinline__ unsigned long long global_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ unsigned sm_id() {
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

}  // namespace
