// kernels_tiles.cu — validation kernels for occ's tile shapes (occ/smem_shapes.hpp): ldmatrix .x1/.x2/.x4
// with and without .trans, stmatrix (sm_90+), and cp.async of 4, 8 and 16 bytes. Like kernels_memory.cu,
// block 0 executes ONE warp-level instruction per warp (the one Nsight Compute's per-instruction shared
// and global counters then count), at byte offsets from a constant-memory table: the host fills the table
// from occ::tile_warp_access / tile_global_access, so a swizzled tile (CuTe Swizzle<B,M,S> or a TMA mode)
// is just another table. Other blocks return at once; the kernels are idempotent (ncu replays them).
#include <cuda_runtime.h>

#include "gpu.hpp"

namespace {

__constant__ int c_tile_smem[32];  // shared-memory byte offset per lane (16-byte aligned for matrices)
__constant__ int c_tile_gmem[32];  // global byte offset per lane (cp.async source)

__device__ __forceinline__ unsigned smem_addr(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

// PTX ISA, ldmatrix: every lane gives one 16-byte row address; lanes 8N.. of .xN are ignored.
template <int N, bool TRANS>
__device__ __forceinline__ void ldmatrix_body(const occv::TileArgs& a) {
    extern __shared__ __align__(128) unsigned char smem[];
    if (blockIdx.x != 0) return;
    const int lane = threadIdx.x & 31;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
    const unsigned p = smem_addr(smem + c_tile_smem[lane]);
    unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
    if constexpr (N == 1 && !TRANS) asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(p));
    if constexpr (N == 1 && TRANS) asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(p));
    if constexpr (N == 2 && !TRANS) asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(p));
    if constexpr (N == 2 && TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(p));
    if constexpr (N == 4 && !TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(p));
    if constexpr (N == 4 && TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                     : "r"(p));
    a.out[threadIdx.x] = static_cast<int>(r0 ^ r1 ^ r2 ^ r3);
#else
    if (a.flag) a.out[threadIdx.x] = lane;
#endif
}

// PTX ISA, stmatrix (sm_90+): the same row addresses as ldmatrix, stored.
template <int N, bool TRANS>
__device__ __forceinline__ void stmatrix_body(const occv::TileArgs& a) {
    extern __shared__ __align__(128) unsigned char smem[];
    if (blockIdx.x != 0) return;
    const int lane = threadIdx.x & 31;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const unsigned p = smem_addr(smem + c_tile_smem[lane]);
    const unsigned v = static_cast<unsigned>(threadIdx.x);
    if constexpr (N == 1 && !TRANS) asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(p), "r"(v));
    if constexpr (N == 1 && TRANS) asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" ::"r"(p), "r"(v));
    if constexpr (N == 2 && !TRANS) asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(p), "r"(v), "r"(v + 1));
    if constexpr (N == 2 && TRANS)
        asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" ::"r"(p), "r"(v), "r"(v + 1));
    if constexpr (N == 4 && !TRANS)
        asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(p), "r"(v), "r"(v + 1), "r"(v + 2),
                     "r"(v + 3));
    if constexpr (N == 4 && TRANS)
        asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(p), "r"(v), "r"(v + 1), "r"(v + 2),
                     "r"(v + 3));
    // Keeps the stores observable; flag is 0 at run time.
    if (a.flag) a.out[threadIdx.x] = smem[c_tile_smem[lane]];
#else
    if (a.flag) a.out[threadIdx.x] = lane;
#endif
}

// PTX ISA, cp.async: cp-size 4, 8 or 16 bytes, global -> shared, then wait for the group.
template <int S>
__device__ __forceinline__ void cp_async_body(const occv::TileArgs& a) {
    extern __shared__ __align__(128) unsigned char smem[];
    if (blockIdx.x != 0) return;
    const int lane = threadIdx.x & 31;
    if (!((a.mask >> lane) & 1u)) return;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned dst = smem_addr(smem + c_tile_smem[lane]);
    const char* src = a.gbase + c_tile_gmem[lane];
    // .ca for every size: CUPTI counts LDGSTS global requests/sectors only on the L1-access path
    // (l1tex__t_*_op_ldgsts_cache_access; there is no bypass counter), which .cg (16 B only) would skip.
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(dst), "l"(src), "n"(S));
    asm volatile("cp.async.commit_group;");
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    if (a.flag) a.out[threadIdx.x] = smem[c_tile_smem[lane]];
#else
    if (a.flag) a.out[threadIdx.x] = lane;
#endif
}

}  // namespace

#define OCCV_MATRIX(N)                                                                                     \
    extern "C" __global__ void occv_ldmatrix_x##N(occv::TileArgs a) { ldmatrix_body<N, false>(a); }        \
    extern "C" __global__ void occv_ldmatrix_x##N##_trans(occv::TileArgs a) { ldmatrix_body<N, true>(a); } \
    extern "C" __global__ void occv_stmatrix_x##N(occv::TileArgs a) { stmatrix_body<N, false>(a); }        \
    extern "C" __global__ void occv_stmatrix_x##N##_trans(occv::TileArgs a) { stmatrix_body<N, true>(a); }
OCCV_MATRIX(1)
OCCV_MATRIX(2)
OCCV_MATRIX(4)
extern "C" __global__ void occv_cp_async_4(occv::TileArgs a) { cp_async_body<4>(a); }
extern "C" __global__ void occv_cp_async_8(occv::TileArgs a) { cp_async_body<8>(a); }
extern "C" __global__ void occv_cp_async_16(occv::TileArgs a) { cp_async_body<16>(a); }

namespace occv {

std::vector<TileKernel> tile_kernels() {
    std::vector<TileKernel> v;
#define OCCV_MATRIX_REG(N)                                                                                                          \
    v.push_back({"occv_ldmatrix_x" #N, reinterpret_cast<const void*>(&occv_ldmatrix_x##N), "ldmatrix.x" #N, 75});                   \
    v.push_back(                                                                                                                    \
        {"occv_ldmatrix_x" #N "_trans", reinterpret_cast<const void*>(&occv_ldmatrix_x##N##_trans), "ldmatrix.x" #N ".trans", 75}); \
    v.push_back({"occv_stmatrix_x" #N, reinterpret_cast<const void*>(&occv_stmatrix_x##N), "stmatrix.x" #N, 90});                   \
    v.push_back({"occv_stmatrix_x" #N "_trans", reinterpret_cast<const void*>(&occv_stmatrix_x##N##_trans), "stmatrix.x" #N ".trans", 90});
    OCCV_MATRIX_REG(1)
    OCCV_MATRIX_REG(2)
    OCCV_MATRIX_REG(4)
#undef OCCV_MATRIX_REG
    v.push_back({"occv_cp_async_4", reinterpret_cast<const void*>(&occv_cp_async_4), "cp_async", 80});
    v.push_back({"occv_cp_async_8", reinterpret_cast<const void*>(&occv_cp_async_8), "cp_async", 80});
    v.push_back({"occv_cp_async_16", reinterpret_cast<const void*>(&occv_cp_async_16), "cp_async", 80});
    return v;
}

int upload_tile_offsets(const int* smem_offsets, const int* gmem_offsets) {
    cudaError_t e = cudaMemcpyToSymbol(c_tile_smem, smem_offsets, sizeof(int) * 32);
    if (e == cudaSuccess && gmem_offsets) e = cudaMemcpyToSymbol(c_tile_gmem, gmem_offsets, sizeof(int) * 32);
    return static_cast<int>(e);
}

}  // namespace occv
