// kernels_tmem.cu — Tensor Memory residency kernels (README "7. Tensor Memory"). Compiled ONLY for
// sm_100a (CMake target occv_kernels_sm100a): tcgen05 exists on architecture-/family-specific
// Blackwell datacenter targets only, and sm_100a SASS runs on compute capability 10.0 only (B200);
// the harness checks the compute capability before it touches these kernels.
//
// One warp per block: tcgen05.alloc of COLS columns (it blocks while the SM's 512 columns are taken,
// PTX ISA "tcgen05.alloc"), relinquish_alloc_permit (no later alloc in this block), acq =
// %globaltimer, hold hold_ns, rel, tcgen05.dealloc (all Tensor Memory must be freed before exit).
// Every block gives its columns back, so no launch can hang on columns: a waiting alloc always
// ends once an earlier block deallocates.
#include <cstdint>

#include "device_clock.cuh"
#include "gpu.hpp"

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM100_ALL)
#error "kernels_tmem.cu must be compiled for sm_100a only (tcgen05)"
#endif

namespace {

template <int COLS>
__device__ __forceinline__ void tmem_body(const occv::TmemArgs& a) {
    static_assert(COLS >= 32 && COLS <= 512 && (COLS & (COLS - 1)) == 0, "tcgen05.alloc: a power of two in [32, 512]");
    __shared__ std::uint32_t taddr;
    const auto slot = static_cast<std::uint32_t>(__cvta_generic_to_shared(&taddr));
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(slot), "n"(COLS) : "memory");
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    __syncwarp();
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    const std::uint32_t base = *static_cast<volatile std::uint32_t*>(&taddr);
    const unsigned long long t = global_ns();
    const unsigned s = sm_id();
    if (threadIdx.x == 0) {
        a.acq[blockIdx.x] = t;
        a.sm[blockIdx.x] = s;
    }
    while (global_ns() - t < a.hold_ns) {}
    if (threadIdx.x == 0) a.rel[blockIdx.x] = global_ns();
    __syncwarp();
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(base), "n"(COLS) : "memory");
    if (threadIdx.x == 0) {
        __threadfence_system();
        a.done[blockIdx.x] = 1u;
    }
}

}  // namespace

#define OCCV_TMEM(COLS) \
    extern "C" __global__ void __launch_bounds__(32) occv_tmem_##COLS(occv::TmemArgs a) { tmem_body<COLS>(a); }
OCCV_TMEM(32)
OCCV_TMEM(64)
OCCV_TMEM(128)
OCCV_TMEM(256)
OCCV_TMEM(512)
#undef OCCV_TMEM

namespace occv {

// The names are the case table's (occ::validation::tmem_cases): tests/validation compares them.
std::vector<TmemKernel> tmem_kernels() {
    return {{"occv_tmem_32", reinterpret_cast<const void*>(&occv_tmem_32), 32},
            {"occv_tmem_64", reinterpret_cast<const void*>(&occv_tmem_64), 64},
            {"occv_tmem_128", reinterpret_cast<const void*>(&occv_tmem_128), 128},
            {"occv_tmem_256", reinterpret_cast<const void*>(&occv_tmem_256), 256},
            {"occv_tmem_512", reinterpret_cast<const void*>(&occv_tmem_512), 512}};
}

}  // namespace occv
