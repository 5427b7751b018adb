// kernels_regpool.cu — warp-specialised setmaxnreg kernels (README "6. setmaxnreg register plans").
// Compiled ONLY for sm_90a (CMake target occv_kernels_sm90a): setmaxnreg exists on architecture- or
// family-specific targets only, and sm_90a SASS runs on compute capability 9.0 only (H100, H200).
//
// Each kernel is __launch_bounds__(T, 1), so ptxas knows the register count at entry (65536 / T
// rounded down to 8: 168 for 384 threads, 128 for 512) and honours setmaxnreg; without the minimum
// block count it prints C7508 "'setmaxnreg' ignored" and the kernel would measure nothing.
//
// Per block, warpgroup w (128 threads) in order w = 0, 1, ...: waits (bounded by wait_ns) until
// warpgroups 0..w-1 hold their counts, runs its setmaxnreg (warpgroup 0, the producer, first: its
// .dec feeds the pool), records acq[w] (%globaltimer), holds the count for hold_ns, records rel[w],
// and a consumer that increased gives its extra registers back (setmaxnreg.dec to the launch count).
// So a plan whose counts fit in the pool holds all counts at once (every acq before every rel), and
// a plan that does not fit SERIALISES instead of hanging: the consumer whose .inc cannot be met
// waits until an earlier consumer gives back, then runs (its acq after that consumer's rel). The
// host still guards against a real hang (run_regpool.cpp): mapped memory, a separate stream, a
// timeout, the non-fitting plan last.
#include <cstdint>

#include "device_clock.cuh"
#include "gpu.hpp"

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "kernels_regpool.cu must be compiled for sm_90a only (setmaxnreg)"
#endif

namespace {

// Named barrier 1 + w over the 128 threads of warpgroup w (barrier 0 is __syncthreads).
__device__ __forceinline__ void warpgroup_sync(int w) { asm volatile("bar.sync %0, 128;" ::"r"(w + 1) : "memory"); }

// From the launch count LR to R: .dec below it, .inc above it, nothing when equal.
template <int R, int LR>
__device__ __forceinline__ void take() {
    if constexpr (R < LR) asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(R));
    if constexpr (R > LR) asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(R));
}
// A consumer that increased gives the extra back to the pool (the producer keeps its lower count).
template <int R, int LR>
__device__ __forceinline__ void give_back() {
    if constexpr (R > LR) asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(LR));
}

template <int R, int LR>
__device__ __forceinline__ void role(const occv::RegPoolArgs& a, int w, volatile unsigned* turn) {
    const bool lead = threadIdx.x % occv::kWarpgroupThreads == 0;
    if (lead) {
        const unsigned long long t0 = global_ns();
        while (*turn < static_cast<unsigned>(w) && global_ns() - t0 < a.wait_ns) {}
    }
    warpgroup_sync(w);
    take<R, LR>();
    const unsigned long long t = global_ns();
    if (lead) {
        a.acq[blockIdx.x * occv::kRegPoolMaxWarpgroups + w] = t;
        __threadfence_block();
        atomicAdd(const_cast<unsigned*>(turn), 1u);
    }
    while (global_ns() - t < a.hold_ns) {}
    warpgroup_sync(w);
    if (lead) a.rel[blockIdx.x * occv::kRegPoolMaxWarpgroups + w] = global_ns();
    give_back<R, LR>();
}

template <int T, int LR, int R0, int R1, int R2, int R3>
__device__ __forceinline__ void regpool_body(const occv::RegPoolArgs& a) {
    static_assert(T % occv::kWarpgroupThreads == 0 && T / occv::kWarpgroupThreads <= occv::kRegPoolMaxWarpgroups);
    constexpr int warpgroups = T / occv::kWarpgroupThreads;
    __shared__ unsigned turn;
    const unsigned sm = sm_id() % occv::kMaxSms;
    if (threadIdx.x == 0) {
        turn = 0;
        const unsigned n = atomicAdd(&a.count[sm], 1u) + 1u;
        atomicMax(&a.peak[sm], n);
        a.sm[blockIdx.x] = sm;
    }
    __syncthreads();
    const int w = static_cast<int>(threadIdx.x) / occv::kWarpgroupThreads;  // warpgroup-uniform branches
    if (w == 0) role<R0, LR>(a, 0, &turn);
    if constexpr (warpgroups > 1)
        if (w == 1) role<R1, LR>(a, 1, &turn);
    if constexpr (warpgroups > 2)
        if (w == 2) role<R2, LR>(a, 2, &turn);
    if constexpr (warpgroups > 3)
        if (w == 3) role<R3, LR>(a, 3, &turn);
    __syncthreads();
    if (threadIdx.x == 0) {
        atomicSub(&a.count[sm], 1u);
        __threadfence_system();
        a.done[blockIdx.x] = 1u;
    }
}

}  // namespace

// extern "C" names, so the bundle check (`occ kernels`) finds each plan's kernel in the sm_90a SASS.
// __launch_bounds__(T, 1): entry count LR = 65536 / T rounded down to 8 (what occ::validation assumes).
#define OCCV_REGPOOL(NAME, T, LR, R0, R1, R2, R3) \
    extern "C" __global__ void __launch_bounds__(T, 1) NAME(occv::RegPoolArgs a) { regpool_body<T, LR, R0, R1, R2, R3>(a); }
OCCV_REGPOOL(occv_regpool_384_24_240_240, 384, 168, 24, 240, 240, 0)        // FlashAttention-3 forward/backward (TMA K/V)
OCCV_REGPOOL(occv_regpool_512_32_160_160_160, 512, 128, 32, 160, 160, 160)  // FlashAttention-3, 3 consumer warpgroups
OCCV_REGPOOL(occv_regpool_384_40_232_232, 384, 168, 40, 232, 232, 0)        // CUTLASS sm90 warp-specialized GEMM
OCCV_REGPOOL(occv_regpool_384_24_240_256, 384, 168, 24, 240, 256, 0)        // does NOT fit: 520 > 3 x 168
#undef OCCV_REGPOOL

namespace occv {

// The names are the case table's (occ::validation::regpool_cases): tests/validation compares them.
std::vector<RegPoolKernel> regpool_kernels() {
    return {
        {"occv_regpool_384_24_240_240", reinterpret_cast<const void*>(&occv_regpool_384_24_240_240)},
        {"occv_regpool_512_32_160_160_160", reinterpret_cast<const void*>(&occv_regpool_512_32_160_160_160)},
        {"occv_regpool_384_40_232_232", reinterpret_cast<const void*>(&occv_regpool_384_40_232_232)},
        {"occv_regpool_384_24_240_256", reinterpret_cast<const void*>(&occv_regpool_384_24_240_256)},
    };
}

}  // namespace occv
