// gpu.hpp — the boundary between the CUDA kernels (*.cu, nvcc) and the host harness (*.cpp, g++).
// Plain types only; the host side calls the CUDA runtime on the function handles registered here.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace occv {

// --- Residency kernels ------------------------------------------------------------------------------
// Every residency kernel has this one signature. Thread 0 of each block reads %smid, increments
// count[smid], keeps peak[smid] = max(peak, count), every thread spins on %globaltimer for spin_ns
// while keeping `live` values in registers, then thread 0 decrements count[smid].
struct ResidencyArgs {
    unsigned* count;  // per-SM current resident blocks (kMaxSms entries)
    unsigned* peak;   // per-SM running maximum
    unsigned long long spin_ns;
    float* sink;  // written only when flag != 0 (never, at run time)
    float seed;
    int flag;
};
inline constexpr int kMaxSms = 1024;

struct ResidencyKernel {
    std::string name;  // "r64_s0", "lb256x4_r128", "rr32_r64", ...
    const void* func;  // host handle for cudaFuncGetAttributes / cudaLaunchKernel
    int live_values;   // floats kept live across the spin (drives the register count)
    int static_smem;   // bytes of __shared__ array in the kernel
    std::string how;   // "template", "__launch_bounds__(256,4)", "-maxrregcount=32"
};
void add_residency_kernels_main(std::vector<ResidencyKernel>& v);  // kernels_occupancy.cu
void add_residency_kernels_rr32(std::vector<ResidencyKernel>& v);  // kernels_occupancy_rr32.cu
void add_residency_kernels_rr72(std::vector<ResidencyKernel>& v);  // kernels_occupancy_rr72.cu
inline std::vector<ResidencyKernel> residency_kernels() {
    std::vector<ResidencyKernel> v;
    add_residency_kernels_main(v);
    add_residency_kernels_rr32(v);
    add_residency_kernels_rr72(v);
    return v;
}

// --- Memory kernels -------------------------------------------------------------------------------
// occv_{g,s}{ld,st}_{1,2,4,8,16}: block 0 does ONE load or store per thread (per warp: one warp-level
// instruction); other blocks return at once (gridDim.x carries the case index for ncu). Table mode
// reads each thread's byte offset from a constant-memory table (no extra global loads); 2-D mode
// computes base + threadIdx.y * pitch + threadIdx.x * size. Kernels are idempotent (ncu replays).
struct MemArgs {
    char* gbase;                // 256-byte aligned global buffer
    int* out;                   // 64 ints: loads land here so they are not optimised away
    unsigned mask_lo, mask_hi;  // active threads 0-31, 32-63
    int two_d;
    int base, pitch;  // 2-D mode, bytes
    int flag;         // 0 at run time; keeps shared stores observable
    // Fallback timing (bandwidth/clock kernels only)
    int reps;
    long long region_bytes;  // bandwidth kernel: bytes between consecutive blocks' patterns
    int regions;
    long long* cycles;  // clock kernel: cycles per access, written by thread 0
};
struct MemKernel {
    std::string name;  // extern "C" name, e.g. "occv_gld_16"
    const void* func;
    const void* bw_func;   // fallback: global bandwidth kernel (nullptr for shared)
    const void* clk_func;  // fallback: shared clock kernel (nullptr for global)
    int elem_size;
    bool shared;
    bool store;
};
std::vector<MemKernel> memory_kernels();
// Copies up to 64 byte offsets into the constant table. Returns a cudaError_t value.
int upload_offsets(const int* offsets, int n);

// --- Tile kernels (kernels_tiles.cu) ---------------------------------------------------------------
// occv_ldmatrix_x{1,2,4}[_trans], occv_stmatrix_x{1,2,4}[_trans] (sm_90+), occv_cp_async_{4,8,16}
// (sm_80+): block 0, one warp, ONE warp-level instruction at the per-lane byte offsets of the tile
// tables (occ::tile_warp_access for the shared side, occ::tile_global_access for cp.async's source).
struct TileArgs {
    char* gbase;    // cp.async source buffer (256-byte aligned)
    int* out;       // 32 ints: keeps results observable
    unsigned mask;  // cp.async: active lanes
    int flag;       // 0 at run time
};
struct TileKernel {
    std::string name;  // extern "C" name
    const void* func;
    std::string access;  // occ's tile_access spelling: "ldmatrix.x4.trans", "cp_async", ...
    int min_cc;          // 75 (ldmatrix), 80 (cp.async), 90 (stmatrix); earlier parts run an empty body
};
std::vector<TileKernel> tile_kernels();
// Copies 32 shared-memory and (when not null) 32 global byte offsets into the tables. Returns a cudaError_t value.
int upload_tile_offsets(const int* smem_offsets, const int* gmem_offsets);

// --- setmaxnreg register plans (kernels_regpool.cu, sm_90a only) --------------------------------------
// occv_regpool_<threads>_<count per warpgroup...>: __launch_bounds__(threads, 1); warpgroup w runs its
// setmaxnreg in order (producer's .dec first), records acq[w] and rel[w] around a hold of hold_ns,
// and a consumer gives its extra registers back afterwards, so a plan that does not fit serialises
// instead of hanging. Thread 0 counts residency per SM like the residency kernels and sets done[block]
// last (acq, rel and done live in mapped host memory: the host reads them even if the kernel never ends).
inline constexpr int kWarpgroupThreads = 128, kRegPoolMaxWarpgroups = 4;
struct RegPoolArgs {
    unsigned long long* acq;  // [block * kRegPoolMaxWarpgroups + w], %globaltimer once warpgroup w holds its count
    unsigned long long* rel;  // [block * kRegPoolMaxWarpgroups + w], before it gives registers back
    unsigned* sm;             // [block] %smid
    unsigned* done;           // [block] 1 once the block finished
    unsigned* count;          // per-SM resident blocks (kMaxSms), device memory
    unsigned* peak;           // per-SM running maximum
    unsigned long long hold_ns;
    unsigned long long wait_ns;  // bound on waiting for the previous warpgroup's turn
};
struct RegPoolKernel {
    std::string name;  // extern "C" name, the case table's kernel
    const void* func;
};
std::vector<RegPoolKernel> regpool_kernels();  // kernels_regpool.cu

// --- Tensor Memory (kernels_tmem.cu, sm_100a only) -----------------------------------------------------
// occv_tmem_<columns>: one warp per block; tcgen05.alloc of <columns> columns (blocks while they are
// taken), relinquish_alloc_permit, acq = %globaltimer, hold hold_ns, rel, tcgen05.dealloc. The host
// sweeps the [acq, rel) intervals per SM: the most blocks holding columns at once.
struct TmemArgs {
    unsigned long long* acq;  // [block]
    unsigned long long* rel;  // [block]
    unsigned* sm;             // [block]
    unsigned* done;           // [block]
    unsigned long long hold_ns;
};
struct TmemKernel {
    std::string name;  // extern "C" name
    const void* func;
    int columns;
};
std::vector<TmemKernel> tmem_kernels();  // kernels_tmem.cu

}  // namespace occv
