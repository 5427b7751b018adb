// bench_memory.cpp — warp accesses analysed per second by the coalescing and bank models.
// Target: >= 20 M warp accesses per second on one core, for global and for shared, every shape.
// Each case prepares a ring of 256 warp accesses up front, so the loop times only the analysis.
#include <array>
#include <cstdint>

#include <benchmark/benchmark.h>

#include "occ/banks.hpp"
#include "occ/coalescing.hpp"

namespace {

using occ::AccessPattern;
using occ::PatternKind;
using occ::WarpAccess;

constexpr int kRing = 256;

std::array<WarpAccess, kRing> make_ring(const AccessPattern& base, bool vary_seed) {
    std::array<WarpAccess, kRing> ring{};
    for (int i = 0; i < kRing; ++i) {
        AccessPattern p = base;
        p.base = base.base + static_cast<std::uint64_t>(i) * 4096u;
        if (vary_seed) p.seed = static_cast<std::uint64_t>(i) + 1u;
        ring[static_cast<std::size_t>(i)] = occ::make_warp_access(p, 0);
    }
    return ring;
}

AccessPattern affine(int bytes, std::int64_t stride, std::int64_t offset = 0) {
    AccessPattern p;
    p.kind = PatternKind::affine;
    p.access_bytes = bytes;
    p.stride = stride;
    p.offset = offset;
    return p;
}

AccessPattern gather(int bytes) {
    AccessPattern p;
    p.kind = PatternKind::gather;
    p.access_bytes = bytes;
    p.range = 1 << 20;
    return p;
}

template <typename Fn>
void run(benchmark::State& state, const std::array<WarpAccess, kRing>& ring, Fn fn) {
    std::size_t i = 0;
    for (auto _ : state) {
        auto r = fn(ring[i]);
        benchmark::DoNotOptimize(r);
        i = (i + 1) & (kRing - 1);
    }
    state.SetItemsProcessed(state.iterations());  // items = warp accesses
}

// The shapes of docs/PERFORMANCE.md's memory table, the same warps for both models: 4-byte contiguous,
// strides of 33 and 32 elements, 8- and 16-byte vectors, a random gather over 4 MiB (unordered lanes),
// plus a misaligned start (global), stride 2 (banks) and a half-active shuffled warp (both).
AccessPattern half_gather() {
    AccessPattern p = gather(4);
    p.range = 0;  // a permutation of the block's threads: 32 distinct, unordered elements
    p.active_lanes = 0x0000ffffu;
    return p;
}

#define OCC_MEMORY_SHAPES(X)                       \
    X(Contiguous4, make_ring(affine(4, 1), false)) \
    X(Stride33, make_ring(affine(4, 33), false))   \
    X(Stride32, make_ring(affine(4, 32), false))   \
    X(Vector8, make_ring(affine(8, 1), false))     \
    X(Vector16, make_ring(affine(16, 1), false))   \
    X(RandomGather, make_ring(gather(4), true))    \
    X(HalfWarpShuffled, make_ring(half_gather(), true))

// (analyze_banks has an overload taking the device's rules: the one-argument one, by a lambda.)
const auto banks = [](const WarpAccess& w) { return occ::analyze_banks(w); };

#define OCC_DEFINE(name, ring)                                                        \
    void BM_Global_##name(benchmark::State& s) { run(s, ring, occ::analyze_global); } \
    void BM_Banks_##name(benchmark::State& s) { run(s, ring, banks); }
OCC_MEMORY_SHAPES(OCC_DEFINE)
#undef OCC_DEFINE

void BM_Global_Misaligned4(benchmark::State& s) { run(s, make_ring(affine(4, 1, 4), false), occ::analyze_global); }
void BM_Banks_Stride2(benchmark::State& s) { run(s, make_ring(affine(4, 2), false), banks); }

}  // namespace

#define OCC_REGISTER(name, ring) \
    BENCHMARK(BM_Global_##name); \
    BENCHMARK(BM_Banks_##name);
OCC_MEMORY_SHAPES(OCC_REGISTER)
BENCHMARK(BM_Global_Misaligned4);
BENCHMARK(BM_Banks_Stride2);
