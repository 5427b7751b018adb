// Occupancy benchmarks: occ::core against NVIDIA's cuda_occupancy.h on identical inputs, and the
// full block-size x registers grid. Run: make bench (figures in docs/PERFORMANCE.md).
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "occ/device.hpp"
#include "occ/gpu_cache.hpp"
#include "occ/occupancy.hpp"
#include "occ/prepared.hpp"
#include "occ/sweep.hpp"

#ifdef OCC_HAVE_CUDA_OCCUPANCY
#include <cuda_occupancy.h>  // oracle only, from the installed toolkit

#include "oracle_prop.hpp"
#endif

namespace {

struct Query {
    int threads, regs;
    long long dyn;
};

// 65,536 random A100 queries (block size 1..1024, registers 0..255, dynamic smem 0..96 KiB, opt-in):
// about 40 % are refused (too many registers or too much shared memory per block).
constexpr std::size_t kQueries = 65536;

const std::vector<Query>& queries() {
    static const std::vector<Query> q = [] {
        std::vector<Query> v;
        std::mt19937 rng(42);
        for (std::size_t i = 0; i < kQueries; ++i)
            v.push_back({std::uniform_int_distribution<int>(1, 1024)(rng), std::uniform_int_distribution<int>(0, 255)(rng),
                         std::uniform_int_distribution<long long>(0, 96 * 1024)(rng)});
        return v;
    }();
    return q;
}

// The device as the CLI, the batch and the app get it: occ::find_gpu_cached, one Device per GPU
// for the process (its tables are found by address).
const occ::Device& a100() { return *occ::find_gpu_cached("A100-SXM4-80GB"); }
// A caller's own copy (its tables are found by comparing the rules).
const occ::Device& a100_copy() {
    static const occ::Device d = *occ::find_gpu("A100-SXM4-80GB");
    return d;
}

// Runs fn(kernel, launch) on the queries in turn, one per iteration.
template <typename Fn>
void each_query(benchmark::State& state, Fn fn) {
    const auto& qs = queries();
    std::size_t i = 0;
    for (auto _ : state) {
        const Query& q = qs[i++ & (kQueries - 1)];
        occ::KernelResources k;
        k.regs_per_thread = q.regs;
        k.optin = true;
        occ::LaunchConfig l;
        l.threads = q.threads;
        l.smem_dynamic = q.dyn;
        fn(k, l);
    }
    state.SetItemsProcessed(state.iterations());
}

void blocks_per_sm_fast(benchmark::State& state, const occ::ArchRules& a) {
    each_query(state, [&](const occ::KernelResources& k, const occ::LaunchConfig& l) {
        benchmark::DoNotOptimize(occ::blocks_per_sm_fast(a, k, l));
    });
}
void BM_occ_blocks_per_sm(benchmark::State& state) { blocks_per_sm_fast(state, a100().arch); }
void BM_occ_blocks_per_sm_copy(benchmark::State& state) { blocks_per_sm_fast(state, a100_copy().arch); }
BENCHMARK(BM_occ_blocks_per_sm);
BENCHMARK(BM_occ_blocks_per_sm_copy);

void BM_occ_prepared_blocks_per_sm(benchmark::State& state) {
    const auto& qs = queries();
    const occ::PreparedDevice prepared(a100().arch);
    std::size_t i = 0;
    for (auto _ : state) {
        const Query& q = qs[i++ & (kQueries - 1)];
        benchmark::DoNotOptimize(prepared.blocks_per_sm(q.threads, q.regs, 0, q.dyn, true, 1));
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_occ_prepared_blocks_per_sm);

void BM_occ_prepare_device(benchmark::State& state) {
    for (auto _ : state) {
        occ::PreparedDevice p(a100().arch, 50);
        benchmark::DoNotOptimize(&p);
    }
}
BENCHMARK(BM_occ_prepare_device)->Unit(benchmark::kMicrosecond);

void compute_occupancy_full(benchmark::State& state, const occ::Device& dev) {
    each_query(state, [&](const occ::KernelResources& k, const occ::LaunchConfig& l) {
        auto r = occ::compute_occupancy(dev, k, l);
        benchmark::DoNotOptimize(r);  // every field, the refusal's code and numbers included
    });
}
// Looked up once, as the header's case sets up its device once.
void BM_occ_compute_occupancy_full(benchmark::State& state) { compute_occupancy_full(state, a100()); }
void BM_occ_compute_occupancy_full_copy(benchmark::State& state) { compute_occupancy_full(state, a100_copy()); }
BENCHMARK(BM_occ_compute_occupancy_full);
BENCHMARK(BM_occ_compute_occupancy_full_copy);

#ifdef OCC_HAVE_CUDA_OCCUPANCY
void BM_nvidia_cudaOccMaxActiveBlocksPerMultiprocessor(benchmark::State& state) {
    const auto& qs = queries();
    const occ::ArchRules& a = a100().arch;
    const cudaOccDeviceProp p = oracle_prop(a, 108);
    cudaOccDeviceState st;
    std::size_t i = 0;
    for (auto _ : state) {
        const Query& q = qs[i++ & (kQueries - 1)];
        cudaOccFuncAttributes attr;
        attr.maxThreadsPerBlock = 1024;
        attr.numRegs = q.regs;
        attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
        attr.maxDynamicSharedSizeBytes = static_cast<size_t>(a.smem_per_block_optin);
        attr.numBlockBarriers = 1;
        cudaOccResult r;
        benchmark::DoNotOptimize(cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &attr, &st, q.threads, static_cast<size_t>(q.dyn)));
        benchmark::DoNotOptimize(r.activeBlocksPerMultiprocessor);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_nvidia_cudaOccMaxActiveBlocksPerMultiprocessor);
#endif

void BM_occ_grid_262144(benchmark::State& state) {
    std::vector<std::uint8_t> grid(occ::kGridSize);
    occ::KernelResources k;
    k.smem_static = 4096;
    occ::LaunchConfig l;
    for (auto _ : state) {
        occ::occupancy_grid(a100().arch, k, l, grid);
        benchmark::DoNotOptimize(grid.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * static_cast<long long>(occ::kGridSize));
    state.SetLabel("block size 1..1024 x regs 0..255");
}
BENCHMARK(BM_occ_grid_262144)->Unit(benchmark::kMicrosecond);

void BM_occ_sweep_block_size_1024(benchmark::State& state) {
    occ::KernelResources k;
    k.regs_per_thread = 64;
    for (auto _ : state) benchmark::DoNotOptimize(occ::sweep_block_size(a100(), k, occ::LaunchConfig{}).size());
}
BENCHMARK(BM_occ_sweep_block_size_1024)->Unit(benchmark::kMicrosecond);

}  // namespace
