// cpu_dispatch.hpp — (private) the one place that knows which x86 vector instructions this CPU has.
//
// Two kinds of choice, both made once per process:
// - OCC_HOT_CLONES: whole hot functions (analyze_global, analyze_banks, the occupancy fast path)
//   compiled twice, for the baseline ISA and for x86-64-v3 (AVX2, BMI2, POPCNT), and picked at load
//   time by the dynamic loader (GCC/clang target_clones). Their loops are written so both vectorise.
// - cpu_level() and pick(): the hand-written SIMD primitives (lane_rank.hpp). Each primitive lists its
//   versions in a table, plain first, each with the level it needs; pick() returns the best one the
//   CPU runs (at most the one asked for). The primitive's entry point calls Dispatch<table>::run,
//   which asks pick() on the first call and keeps the answer; its tests' `_at(level, ...)` entry
//   point asks pick() for the level it names, so a test runs exactly the code the dispatch would.
//
// OCC_X86_SIMD is set where the intrinsics exist (x86-64 with GCC or clang, not Emscripten); the
// files holding intrinsics compile to nothing elsewhere. OCC_NO_RANK_AVX2 turns it off on x86 too (the
// portable test build: the web page's code on this machine).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>

#if defined(__x86_64__) && defined(__ELF__) && !defined(__EMSCRIPTEN__) && (defined(__GNUC__) || defined(__clang__))
#define OCC_HOT_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define OCC_HOT_CLONES
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__EMSCRIPTEN__) && !defined(OCC_NO_RANK_AVX2)
#define OCC_X86_SIMD 1
#endif

namespace occ::detail {

// What this CPU runs, each level including the ones below it.
enum class CpuLevel : std::uint8_t {
    plain,        // no AVX2 (or not x86): plain loops
    avx2,         // AVX2 + POPCNT
    avx2_gfni,    // and GFNI
    avx512_gfni,  // and AVX-512 F + VL
};

// Checked once (the first call), by the compiler's CPU-model runtime.
inline CpuLevel cpu_level() noexcept {
#ifdef OCC_X86_SIMD
    static const CpuLevel level = !__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("popcnt")      ? CpuLevel::plain
                                  : !__builtin_cpu_supports("gfni")                                         ? CpuLevel::avx2
                                  : __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") ? CpuLevel::avx512_gfni
                                                                                                            : CpuLevel::avx2_gfni;
    return level;
#else
    return CpuLevel::plain;
#endif
}

// One version of a primitive: the level it needs and the function.
template <class Fn>
struct Version {
    CpuLevel needs;
    Fn* run;
};

// The index of the best version in `versions` (ordered by what they need, plain first) that this CPU
// runs, at most `want`.
template <class Fn, std::size_t N>
int pick_index(const Version<Fn> (&versions)[N], int want) noexcept {
    int i = want < 0 ? 0 : want < static_cast<int>(N) ? want : static_cast<int>(N) - 1;
    while (i > 0 && versions[i].needs > cpu_level()) --i;
    return i;
}
template <class Fn, std::size_t N>
int best_index(const Version<Fn> (&versions)[N]) noexcept {
    return pick_index(versions, static_cast<int>(N) - 1);
}
template <class Fn, std::size_t N>
Fn* pick(const Version<Fn> (&versions)[N], int want) noexcept {
    return versions[pick_index(versions, want)].run;
}

// A primitive's entry point: its best version, picked on the first call (through `first`) and kept in
// a constant-initialised pointer, so later calls are one load and an indirect jump (no guard to test,
// no registers saved). Threads that race on the first call store the same answer.
template <const auto& Versions, class Fn = decltype(Versions[0].run)>
struct Dispatch;
template <const auto& Versions, class R, class... Args>
struct Dispatch<Versions, R (*)(Args...)> {
    static R run(Args... args) { return version.load(std::memory_order_relaxed)(args...); }

private:
    static R first(Args... args) {
        R (*const best)(Args...) = pick(Versions, best_index(Versions));
        version.store(best, std::memory_order_relaxed);
        return best(args...);
    }
    static inline std::atomic<R (*)(Args...)> version{first};
};

}  // namespace occ::detail
