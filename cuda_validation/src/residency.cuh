// residency.cuh — the residency kernel template, included by each kernels_occupancy*.cu. It lives in
// an anonymous namespace so the copies compiled with different -maxrregcount never share a symbol.
#pragma once
#include "device_clock.cuh"
#include "gpu.hpp"

namespace {

template <int N, int SSMEM>
__device__ __forceinline__ void residency_body(const occv::ResidencyArgs& a) {
    const unsigned sm = sm_id() % occv::kMaxSms;
    if (threadIdx.x == 0) {
        const unsigned now = atomicAdd(&a.count[sm], 1u) + 1u;
        atomicMax(&a.peak[sm], now);
    }
    float v[N];
#pragma unroll
    for (int i = 0; i < N; ++i) v[i] = a.seed * static_cast<float>(threadIdx.x + i);
    float extra = 0.f;
    if constexpr (SSMEM > 0) {
        __shared__ float st[SSMEM / 4];
        st[threadIdx.x % (SSMEM / 4)] = v[0];
        __syncthreads();
        extra = st[(threadIdx.x + 1) % (SSMEM / 4)];
    }
    __syncthreads();
    const unsigned long long t0 = global_ns();
    while (global_ns() - t0 < a.spin_ns) {
#pragma unroll
        for (int i = 0; i < N; ++i) v[i] = fmaf(v[i], a.seed, v[(i + 1) % N]);
    }
    __syncthreads();
    if (threadIdx.x == 0) atomicSub(&a.count[sm], 1u);
    float s = extra;
#pragma unroll
    for (int i = 0; i < N; ++i) s += v[i];
    if (a.flag) a.sink[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <int N, int SSMEM>
__global__ void residency(occv::ResidencyArgs a) {
    residency_body<N, SSMEM>(a);
}

template <int N, int SSMEM, int MAXT, int MINB>
__global__ void __launch_bounds__(MAXT, MINB) residency_lb(occv::ResidencyArgs a) {
    residency_body<N, SSMEM>(a);
}

template <int N, int SSMEM>
void add(std::vector<occv::ResidencyKernel>& v, const char* prefix, const char* how) {
    v.push_back({std::string(prefix) + "r" + std::to_string(N) + "_s" + std::to_string(SSMEM),
                 reinterpret_cast<const void*>(&residency<N, SSMEM>), N, SSMEM, how});
}

template <int N, int SSMEM, int MAXT, int MINB>
void add_lb(std::vector<occv::ResidencyKernel>& v) {
    v.push_back({"lb" + std::to_string(MAXT) + "x" + std::to_string(MINB) + "_r" + std::to_string(N) + "_s" + std::to_string(SSMEM),
                 reinterpret_cast<const void*>(&residency_lb<N, SSMEM, MAXT, MINB>), N, SSMEM,
                 "__launch_bounds__(" + std::to_string(MAXT) + "," + std::to_string(MINB) + ")"});
}

}  // namespace
