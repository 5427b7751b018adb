// kernels_memory.cu — one load or store per thread of block 0, for Nsight Compute's per-instruction
// counters; plus the fallback timing kernels used when ncu cannot read counters.
#include <cuda_runtime.h>

#include "gpu.hpp"

namespace {

__constant__ int c_off[64];  // byte offset per linear thread (table mode)

template <int S>
struct Elem;
template <>
struct Elem<1> {
    using T = unsigned char;
    __device__ static T make(int t) { return static_cast<T>(t); }
    __device__ static int fold(T v) { return v; }
};
template <>
struct Elem<2> {
    using T = unsigned short;
    __device__ static T make(int t) { return static_cast<T>(t); }
    __device__ static int fold(T v) { return v; }
};
template <>
struct Elem<4> {
    using T = unsigned;
    __device__ static T make(int t) { return static_cast<T>(t); }
    __device__ static int fold(T v) { return static_cast<int>(v); }
};
template <>
struct Elem<8> {
    using T = uint2;
    __device__ static T make(int t) { return make_uint2(t, t + 1); }
    __device__ static int fold(T v) { return static_cast<int>(v.x ^ v.y); }
};
template <>
struct Elem<16> {
    using T = uint4;
    __device__ static T make(int t) { return make_uint4(t, t + 1, t + 2, t + 3); }
    __device__ static int fold(T v) { return static_cast<int>(v.x ^ v.y ^ v.z ^ v.w); }
};

__device__ __forceinline__ int linear_tid() { return threadIdx.x + threadIdx.y * blockDim.x; }

__device__ __forceinline__ bool thread_on(const occv::MemArgs& a, int t) {
    return t < 32 ? ((a.mask_lo >> t) & 1u) : ((a.mask_hi >> (t - 32)) & 1u);
}

template <int S>
__device__ __forceinline__ int thread_offset(const occv::MemArgs& a, int t) {
    return a.two_d ? a.base + static_cast<int>(threadIdx.y) * a.pitch + static_cast<int>(threadIdx.x) * S : c_off[t];
}

// The measured access: exactly one warp-level LDG/STG/LDS/STS per warp of block 0.
template <int S, bool SHARED, bool STORE>
__device__ __forceinline__ void mem_body(const occv::MemArgs& a) {
    using E = Elem<S>;
    using T = typename E::T;
    extern __shared__ __align__(16) unsigned char smem[];
    if (blockIdx.x != 0) return;
    const int t = linear_tid();
    const int off = thread_offset<S>(a, t);
    unsigned char* p = SHARED ? smem + off : reinterpret_cast<unsigned char*>(a.gbase) + off;
    if (thread_on(a, t)) {
        if constexpr (STORE) {
            *reinterpret_cast<T*>(p) = E::make(t);
        } else {
            a.out[t] = E::fold(*reinterpret_cast<const T*>(p));
        }
    }
    if constexpr (SHARED && STORE) {
        // Keeps the shared store observable; flag is 0 at run time, so this never executes.
        if (a.flag) a.out[t] = E::fold(*reinterpret_cast<const T*>(smem + off));
    }
}

// Fallback 1: effective bandwidth of a global pattern. Every block repeats case's access `reps`
// times at its own region (region_bytes apart, `regions` of them), so DRAM traffic scales with the
// sectors each warp touches.
template <int S, bool STORE>
__device__ __forceinline__ void bw_body(const occv::MemArgs& a) {
    using E = Elem<S>;
    using T = typename E::T;
    const int t = linear_tid();
    if (!thread_on(a, t)) return;
    const int off = thread_offset<S>(a, t);
    int acc = 0;
    for (int r = 0; r < a.reps; ++r) {
        const long long region = (static_cast<long long>(blockIdx.x) * a.reps + r) % a.regions;
        unsigned char* p = reinterpret_cast<unsigned char*>(a.gbase) + region * a.region_bytes + off;
        if constexpr (STORE) {
            *reinterpret_cast<T*>(p) = E::make(t + r);
        } else {
            acc ^= E::fold(*reinterpret_cast<const T*>(p));
        }
    }
    if (a.flag) a.out[t] = acc;
}

// Fallback 2: clock cycles per shared access of one warp (reps accesses; a compiler barrier keeps each one).
template <int S, bool STORE>
__device__ __forceinline__ void clk_body(const occv::MemArgs& a) {
    using E = Elem<S>;
    using T = typename E::T;
    extern __shared__ __align__(16) unsigned char smem[];
    const int t = linear_tid();
    const int off = thread_offset<S>(a, t);
    T* p = reinterpret_cast<T*>(smem + off);
    const bool on = thread_on(a, t);
    int acc = 0;
    __syncwarp();
    const long long c0 = clock64();
    if (on) {
        for (int r = 0; r < a.reps; ++r) {
            if constexpr (STORE) {
                *p = E::make(t + r);
            } else {
                acc ^= E::fold(*p);
            }
            asm volatile("" ::: "memory");  // one real access per iteration
        }
    }
    __syncwarp();
    const long long c1 = clock64();
    if (t == 0) *a.cycles = (c1 - c0) / (a.reps > 0 ? a.reps : 1);
    if (a.flag) a.out[t] = acc;
}

}  // namespace

#define OCCV_MEM(S)                                                                            \
    extern "C" __global__ void occv_gld_##S(occv::MemArgs a) { mem_body<S, false, false>(a); } \
    extern "C" __global__ void occv_gst_##S(occv::MemArgs a) { mem_body<S, false, true>(a); }  \
    extern "C" __global__ void occv_sld_##S(occv::MemArgs a) { mem_body<S, true, false>(a); }  \
    extern "C" __global__ void occv_sst_##S(occv::MemArgs a) { mem_body<S, true, true>(a); }   \
    extern "C" __global__ void occv_bw_gld_##S(occv::MemArgs a) { bw_body<S, false>(a); }      \
    extern "C" __global__ void occv_bw_gst_##S(occv::MemArgs a) { bw_body<S, true>(a); }       \
    extern "C" __global__ void occv_clk_sld_##S(occv::MemArgs a) { clk_body<S, false>(a); }    \
    extern "C" __global__ void occv_clk_sst_##S(occv::MemArgs a) { clk_body<S, true>(a); }

OCCV_MEM(1)
OCCV_MEM(2)
OCCV_MEM(4)
OCCV_MEM(8)
OCCV_MEM(16)

#define OCCV_REG(S)                                                                                                                       \
    v.push_back({"occv_gld_" #S, reinterpret_cast<const void*>(&occv_gld_##S), reinterpret_cast<const void*>(&occv_bw_gld_##S), nullptr,  \
                 S, false, false});                                                                                                       \
    v.push_back({"occv_gst_" #S, reinterpret_cast<const void*>(&occv_gst_##S), reinterpret_cast<const void*>(&occv_bw_gst_##S), nullptr,  \
                 S, false, true});                                                                                                        \
    v.push_back({"occv_sld_" #S, reinterpret_cast<const void*>(&occv_sld_##S), nullptr, reinterpret_cast<const void*>(&occv_clk_sld_##S), \
                 S, true, false});                                                                                                        \
    v.push_back({"occv_sst_" #S, reinterpret_cast<const void*>(&occv_sst_##S), nullptr, reinterpret_cast<const void*>(&occv_clk_sst_##S), \
                 S, true, true});

namespace occv {

std::vector<MemKernel> memory_kernels() {
    std::vector<MemKernel> v;
    OCCV_REG(1)
    OCCV_REG(2)
    OCCV_REG(4)
    OCCV_REG(8)
    OCCV_REG(16)
    return v;
}

int upload_offsets(const int* offsets, int n) {
    if (n < 0 || n > 64) return static_cast<int>(cudaErrorInvalidValue);
    return static_cast<int>(cudaMemcpyToSymbol(c_off, offsets, sizeof(int) * static_cast<std::size_t>(n)));
}

}  // namespace occv
