// advisor.cpp — launch suggestions built on compute_occupancy() and the sweeps.
//
// [SECTION] Helpers
// [SECTION] Block size
// [SECTION] Registers
// [SECTION] Shared memory
// [SECTION] Suggestions
#include "occ/advisor.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "occ/explain.hpp"
#include "occ/format.hpp"
#include "occ/sweep.hpp"

namespace occ {
namespace {

// [SECTION] Helpers

// Names the resources in a limiter mask, for notes ("warps", "warps and blocks").
std::string limiter_list(unsigned mask) {
    const std::string s = limiter_labels(mask, " and ");
    return s.empty() ? std::string("nothing") : s;
}

// The most dynamic shared memory (bytes) with at least `target` blocks per SM, or -1.
// Coarse pass: the shared-memory sweep (one point per allocation unit); fine pass: the bytes
// between the best point and the next one, since static + reserve need not be unit-aligned.
std::int64_t max_dynamic_for(const Device& dev, const KernelResources& k, const LaunchConfig& l, int target) {
    const std::vector<SweepPoint> pts = sweep_shared_memory(dev, k, l);
    std::size_t idx = pts.size();
    for (std::size_t i = 0; i < pts.size(); ++i)
        if (pts[i].blocks_per_sm >= target) idx = i;
    if (idx == pts.size()) return -1;
    const std::int64_t best = pts[idx].x;
    if (idx + 1 >= pts.size()) return best;
    LaunchConfig q = l;
    for (std::int64_t x = pts[idx + 1].x - 1; x > best; --x) {
        q.smem_dynamic = x;
        if (compute_occupancy(dev, k, q).blocks_per_sm >= target) return x;
    }
    return best;
}

// Where both resource advices start: the resource as the launch uses it now and its occupancy.
ResourceAdvice advice_now(Resource r, std::int64_t now, const Device& dev, const KernelResources& k, const LaunchConfig& l) {
    ResourceAdvice a;
    a.resource = r;
    a.now = now;
    a.before = compute_occupancy(dev, k, l);
    a.blocks_per_sm = a.before.blocks_per_sm;
    return a;
}

}  // namespace

// [SECTION] Block size

BlockSizeAdvice advise_block_size(const Device& dev, const KernelResources& k, const LaunchConfig& l, SmemGrowth smem,
                                  int block_size_limit) {
    BlockSizeAdvice a;
    const ArchRules& ar = dev.arch;
    if (smem.fixed < 0 || smem.per_thread < 0) {
        a.error = "shared memory growth must be >= 0 bytes (fixed and per thread)";
        return a;
    }
    if (block_size_limit < 0) {
        a.error = "block_size_limit must be >= 0 (0 = the device's maximum), got " + std::to_string(block_size_limit);
        return a;
    }
    LaunchConfig q = l;
    q.smem_dynamic = smem.at(l.threads);
    a.before = compute_occupancy(dev, k, q);

    const int limit = block_size_limit > 0 ? std::min(block_size_limit, ar.max_threads_per_block) : ar.max_threads_per_block;
    const int ws = ar.warp_size;
    const int aligned = (limit + ws - 1) / ws * ws;
    int best_score = 0;
    OccupancyResult smallest_failure;
    // cudaOccupancyMaxPotentialBlockSize behaviour (CUDA Runtime API reference): try the limit, then
    // each warp multiple below it, largest first; keep a size only on a strict improvement.
    for (int t = aligned; t > 0; t -= ws) {
        const int threads = std::min(t, limit);
        q.threads = threads;
        q.smem_dynamic = smem.at(threads);
        const OccupancyResult r = compute_occupancy(dev, k, q);
        ++a.candidates;
        const int score = r.blocks_per_sm * threads;
        if (r.blocks_per_sm == 0) smallest_failure = r;
        if (score > best_score) {
            best_score = score;
            a.threads = threads;
            a.smem_dynamic = q.smem_dynamic;
            a.after = r;
        }
    }
    if (best_score == 0) {
        a.error = "no block size fits on an SM" + (smallest_failure.ok() ? std::string() : ": " + smallest_failure.error_message());
        return a;
    }
    a.blocks_per_sm = a.after.blocks_per_sm;
    a.active_threads_per_sm = best_score;
    a.min_grid_blocks = static_cast<std::int64_t>(a.blocks_per_sm) * dev.sm_count;
    return a;
}

// [SECTION] Registers

ResourceAdvice advise_registers(const Device& dev, const KernelResources& k, const LaunchConfig& l) {
    ResourceAdvice a = advice_now(Resource::registers, k.regs_per_thread, dev, k, l);
    if (k.regs_per_thread < 0 || k.regs_per_thread > dev.arch.max_regs_per_thread) {
        a.error = a.before.error_message();
        return a;
    }
    const std::vector<SweepPoint> pts = sweep_registers(dev, k, l);  // index = registers per thread
    const int cur = k.regs_per_thread;
    KernelResources q = k;

    // Headroom: walk up from the current count while the block count holds.
    int hi = cur;
    if (a.blocks_per_sm > 0)
        while (hi + 1 < static_cast<int>(pts.size()) && pts[static_cast<std::size_t>(hi + 1)].blocks_per_sm >= a.blocks_per_sm) ++hi;
    a.max_same_blocks = hi;
    a.headroom = hi - cur;
    q.regs_per_thread = hi;
    a.at_headroom = compute_occupancy(dev, q, l);

    // Gain: the largest count below the current one that fits more blocks.
    for (int r = cur - 1; r >= 0; --r) {
        if (pts[static_cast<std::size_t>(r)].blocks_per_sm > a.blocks_per_sm) {
            a.to_gain_block = r;
            break;
        }
    }
    if (a.to_gain_block >= 0) {
        a.cut_to_gain = cur - a.to_gain_block;
        q.regs_per_thread = static_cast<int>(a.to_gain_block);
        a.after_cut = compute_occupancy(dev, q, l);
    } else {
        const OccupancyResult zero = [&] {
            KernelResources z = k;
            z.regs_per_thread = 0;
            return compute_occupancy(dev, z, l);
        }();
        a.note = "no register count fits more blocks: even with 0 registers the launch is limited by " + limiter_list(zero.limiters);
    }
    return a;
}

// [SECTION] Shared memory

ResourceAdvice advise_shared_memory(const Device& dev, const KernelResources& k, const LaunchConfig& l) {
    ResourceAdvice a = advice_now(Resource::shared_memory, l.smem_dynamic, dev, k, l);
    if (l.smem_dynamic < 0 || k.smem_static < 0) {
        a.error = a.before.error_message();
        return a;
    }
    LaunchConfig q = l;
    if (a.blocks_per_sm > 0) {
        a.max_same_blocks = std::max(l.smem_dynamic, max_dynamic_for(dev, k, l, a.blocks_per_sm));
        a.headroom = a.max_same_blocks - l.smem_dynamic;
    } else {
        a.max_same_blocks = l.smem_dynamic;
    }
    q.smem_dynamic = a.max_same_blocks;
    a.at_headroom = compute_occupancy(dev, k, q);

    const std::int64_t gain = max_dynamic_for(dev, k, l, a.blocks_per_sm + 1);
    if (gain >= 0 && gain < l.smem_dynamic) {
        a.to_gain_block = gain;
        a.cut_to_gain = l.smem_dynamic - gain;
        q.smem_dynamic = gain;
        a.after_cut = compute_occupancy(dev, k, q);
    } else {
        LaunchConfig z = l;
        z.smem_dynamic = 0;
        const OccupancyResult zero = compute_occupancy(dev, k, z);
        a.note = zero.blocks_per_sm <= a.blocks_per_sm
                     ? "no dynamic shared memory size fits more blocks: with 0 bytes the launch is limited by " +
                           limiter_list(zero.limiters)
                     : "more blocks need less static shared memory";
    }
    return a;
}

DynamicSmemAdvice available_dynamic_smem(const Device& dev, const KernelResources& k, const LaunchConfig& l, int target_blocks) {
    DynamicSmemAdvice a;
    a.target_blocks = target_blocks;
    if (target_blocks < 1) {
        a.error = "target blocks per SM must be >= 1, got " + std::to_string(target_blocks);
        return a;
    }
    a.available = max_dynamic_for(dev, k, l, target_blocks);
    if (a.available < 0) {
        LaunchConfig z = l;
        z.smem_dynamic = 0;
        const OccupancyResult zero = compute_occupancy(dev, k, z);
        a.at_available = zero;
        a.error = !zero.ok() ? zero.error_message()
                             : "at most " + std::to_string(zero.blocks_per_sm) +
                                   " blocks per SM fit even with no dynamic shared memory (limited by " + limiter_list(zero.limiters) + ")";
        return a;
    }
    LaunchConfig q = l;
    q.smem_dynamic = a.available;
    a.at_available = compute_occupancy(dev, k, q);
    return a;
}

// [SECTION] Suggestions

std::string block_size_suggestion(const BlockSizeAdvice& b, int threads_now) {
    if (!b.ok() || b.threads == threads_now || !(b.after.occupancy > b.before.occupancy + 1e-12)) return {};
    char buf[400];
    std::snprintf(buf, sizeof buf,
                  "block size %d -> %d threads: occupancy %s -> %s (%d -> %d blocks/SM); grid of at least %lld blocks fills the GPU",
                  threads_now, b.threads, format_percent(b.before.occupancy).c_str(), format_percent(b.after.occupancy).c_str(),
                  b.before.blocks_per_sm, b.blocks_per_sm, static_cast<long long>(b.min_grid_blocks));
    return buf;
}

std::string cut_sentence(Resource res, std::int64_t now, std::int64_t to_gain, int blocks_after, const OccupancyResult& before) {
    if (to_gain < 0 || to_gain >= now) return {};
    // The threads do not change, so neither do the warps per block: the occupancy at blocks_after.
    const double after = before.max_warps_per_sm > 0 ? static_cast<double>(blocks_after * before.warps_per_block) / before.max_warps_per_sm
                                                     : 0.0;
    char buf[400];
    if (res == Resource::registers)
        std::snprintf(
            buf, sizeof buf,
            "registers %d -> %d per thread (cut %d, e.g. __launch_bounds__ or -maxrregcount): %d -> %d blocks/SM, occupancy %s -> %s",
            static_cast<int>(now), static_cast<int>(to_gain), static_cast<int>(now - to_gain), before.blocks_per_sm, blocks_after,
            format_percent(before.occupancy).c_str(), format_percent(after).c_str());
    else
        std::snprintf(buf, sizeof buf, "dynamic shared memory %s -> %s per block (cut %s): %d -> %d blocks/SM, occupancy %s -> %s",
                      format_bytes(now).c_str(), format_bytes(to_gain).c_str(), format_bytes(now - to_gain).c_str(), before.blocks_per_sm,
                      blocks_after, format_percent(before.occupancy).c_str(), format_percent(after).c_str());
    return buf;
}

std::string headroom_sentence(Resource res, std::int64_t now, std::int64_t max_same, const OccupancyResult& before) {
    if (max_same <= now || before.blocks_per_sm <= 0) return {};
    char buf[400];
    if (res == Resource::registers)
        std::snprintf(buf, sizeof buf, "register headroom: up to %d registers per thread (+%d) keep %d blocks/SM (%s)",
                      static_cast<int>(max_same), static_cast<int>(max_same - now), before.blocks_per_sm,
                      format_percent(before.occupancy).c_str());
    else
        std::snprintf(buf, sizeof buf, "shared-memory headroom: up to %s dynamic per block (+%s) keeps %d blocks/SM",
                      format_bytes(max_same).c_str(), format_bytes(max_same - now).c_str(), before.blocks_per_sm);
    return buf;
}

std::string no_headroom_sentence(Resource res, const OccupancyResult& before) {
    if (before.blocks_per_sm <= 0) return {};
    return (res == Resource::registers ? std::string("no register headroom: one more register per thread costs a block (")
                                       : std::string("no shared-memory headroom: one more byte of dynamic shared memory costs a block (")) +
           std::to_string(before.blocks_per_sm) + " blocks/SM now)";
}

std::string cut_suggestion(const ResourceAdvice& a) {
    if (!a.ok() || a.to_gain_block < 0) return {};
    return cut_sentence(a.resource, a.now, a.to_gain_block, a.after_cut.blocks_per_sm, a.before);
}

std::string headroom_suggestion(const ResourceAdvice& a) {
    if (!a.ok() || a.headroom <= 0 || a.blocks_per_sm <= 0) return {};
    return headroom_sentence(a.resource, a.now, a.max_same_blocks, a.before);
}

std::string best_block_sentence(int threads, double occupancy) {
    if (threads <= 0) return {};
    return "best block size: " + std::to_string(threads) + " threads, " + format_percent(occupancy) +
           " occupancy (cudaOccupancyMaxPotentialBlockSize's pick; ties go to the larger block)";
}

std::string target_suggestion(const DynamicSmemAdvice& a) {
    if (!a.ok()) return {};
    char buf[400];
    std::snprintf(buf, sizeof buf, "at %d blocks/SM each block may use up to %s of dynamic shared memory (occupancy %s)", a.target_blocks,
                  format_bytes(a.available).c_str(), format_percent(a.at_available.occupancy).c_str());
    return buf;
}

std::string waves_suggestion(const WaveResult& w) {
    if (!w.ok() || w.grid_blocks <= 0 || w.tail_blocks <= 0) return {};
    char buf[400];
    std::snprintf(buf, sizeof buf, "grid %lld blocks = %s waves of %lld; last wave %s full: %lld or %lld blocks end on a whole wave",
                  static_cast<long long>(w.grid_blocks), format_number(w.waves, 2).c_str(), static_cast<long long>(w.blocks_per_wave),
                  format_percent(w.last_wave_fill).c_str(), static_cast<long long>(w.suggested_grid_down),
                  static_cast<long long>(w.suggested_grid_up));
    return buf;
}

std::string clusters_suggestion(const ClusterResult& c) {
    if (!c.ok() || c.idle_block_slots <= 0) return {};
    char buf[400];
    std::snprintf(buf, sizeof buf, "clusters of %d: %d active clusters use %lld of %lld block slots (%s); the rest stay idle",
                  c.cluster_size, c.max_active_clusters, static_cast<long long>(c.active_blocks), static_cast<long long>(c.block_slots),
                  format_percent(c.cluster_occupancy).c_str());
    return buf;
}

std::string no_change_suggestion(const OccupancyResult& now) {
    return "no change improves occupancy: " +
           std::string(now.ok() ? std::string("already at the best this kernel allows") : now.error_message());
}

}  // namespace occ
