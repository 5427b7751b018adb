// occ/advisor_search.hpp — the advisor's searches, written once for both vendors' models: the CUDA
// model (advisor.cpp) and AMD's (amd_advisor.cpp) each pass how to evaluate a launch and how many
// blocks (workgroups) per SM (CU) a result holds; the search and the advice's shape are these.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "occ/advisor.hpp"

namespace occ::advisor_search {

// The largest x in [lo, hi] for which holds(x), where holds is true up to some x and false after it
// (the blocks a launch fits never grow with a resource); lo - 1 when it holds nowhere.
template <typename Holds>
std::int64_t largest_where(std::int64_t lo, std::int64_t hi, Holds holds) {
    if (lo > hi || !holds(lo)) return lo - 1;
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo + 1) / 2;
        if (holds(mid)) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

// The block-size search (occ/advisor.hpp, advise_block_size): candidates are `limit` and then every
// multiple of `step` below it, largest first; a candidate replaces the best only when it has strictly
// more active threads (blocks × threads). eval(threads, smem_dynamic) -> R; blocks(R) -> int. When no
// size fits, `after` is the last result that fit no block and `threads` is 0 (the caller words it).
template <typename R, typename Eval, typename Blocks>
BasicBlockSizeAdvice<R> best_block_size(int threads_now, int limit, int step, SmemGrowth smem, Eval eval, Blocks blocks) {
    BasicBlockSizeAdvice<R> a;
    if (smem.fixed < 0 || smem.per_thread < 0) {
        a.error = "shared memory growth must be >= 0 bytes (fixed and per thread)";
        return a;
    }
    a.before = eval(threads_now, smem.at(threads_now));
    const int aligned = (limit + step - 1) / step * step;
    int best_score = 0;
    for (int t = aligned; t > 0; t -= step) {
        const int threads = std::min(t, limit);
        const std::int64_t bytes = smem.at(threads);
        R r = eval(threads, bytes);
        ++a.candidates;
        const int score = blocks(r) * threads;
        if (score > best_score) {
            best_score = score;
            a.threads = threads;
            a.smem_dynamic = bytes;
            a.after = std::move(r);
        } else if (best_score == 0 && blocks(r) == 0) {
            a.after = std::move(r);
        }
    }
    a.blocks_per_sm = best_score > 0 ? blocks(a.after) : 0;
    a.active_threads_per_sm = best_score;
    return a;
}

// Headroom and cut for one resource (occ/advisor.hpp, ResourceAdvice) over [0, hi]: eval(value) -> R
// is the launch with the resource at value. The note (why no cut helps) is the caller's.
template <typename R, typename Eval, typename Blocks>
BasicResourceAdvice<R> resource_advice(Resource res, std::int64_t now, std::int64_t hi, Eval eval, Blocks blocks) {
    BasicResourceAdvice<R> a;
    a.resource = res;
    a.now = now;
    a.before = eval(now);
    a.blocks_per_sm = blocks(a.before);
    const int b = a.blocks_per_sm;
    a.max_same_blocks = b > 0 ? std::max(now, largest_where(now, hi, [&](std::int64_t x) { return blocks(eval(x)) >= b; })) : now;
    a.headroom = a.max_same_blocks - now;
    a.at_headroom = eval(a.max_same_blocks);
    const std::int64_t gain = largest_where(0, now - 1, [&](std::int64_t x) { return blocks(eval(x)) > b; });
    if (gain >= 0) {
        a.to_gain_block = gain;
        a.cut_to_gain = now - gain;
        a.after_cut = eval(gain);
    }
    return a;
}

// The most of a resource in [0, hi] with at least `target` blocks (for the dynamic shared memory or
// LDS available per block at a target), or -1.
template <typename Eval, typename Blocks>
std::int64_t most_with_blocks(int target, std::int64_t hi, Eval eval, Blocks blocks) {
    return largest_where(0, hi, [&](std::int64_t x) { return blocks(eval(x)) >= target; });
}

}  // namespace occ::advisor_search
