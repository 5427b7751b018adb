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

#include "occ/advisor_search.hpp"
#include "occ/explain.hpp"
#include "occ/format.hpp"
#include "occ/sweep.hpp"

namespace occ {
namespace {

// [SECTION] Helpers

int blocks_of(const OccupancyResult& r) { return r.blocks_per_sm; }

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
    const ArchRules& ar = dev.arch;
    if (block_size_limit < 0) {
        BlockSizeAdvice a;
        a.error = "block_size_limit must be >= 0 (0 = the device's maximum), got " + std::to_string(block_size_limit);
        return a;
    }
    const int limit = block_size_limit > 0 ? std::min(block_size_limit, ar.max_threads_per_block) : ar.max_threads_per_block;
    // cudaOccupancyMaxPotentialBlockSize behaviour (CUDA Runtime API reference): try the limit, then
    // each warp multiple below it, largest first; keep a size only on a strict improvement.
    BlockSizeAdvice a = advisor_search::best_block_size<OccupancyResult>(
        l.threads, limit, ar.warp_size, smem,
        [&](int threads, std::int64_t bytes) {
            LaunchConfig q = l;
            q.threads = threads;
            q.smem_dynamic = bytes;
            return compute_occupancy(dev, k, q);
        },
        blocks_of);
    if (!a.ok()) return a;
    if (a.active_threads_per_sm == 0) {
        a.error = "no block size fits on an SM" + (a.after.ok() ? std::string() : ": " + a.after.error_message());
        return a;
    }
    a.min_grid_blocks = static_cast<std::int64_t>(a.blocks_per_sm) * dev.sm_count;
    return a;
}

// [SECTION] Registers

ResourceAdvice advise_registers(const Device& dev, const KernelResources& k, const LaunchConfig& l) {
    auto at = [&](std::int64_t regs) {
        KernelResources q = k;
        q.regs_per_thread = static_cast<int>(regs);
        return compute_occupancy(dev, q, l);
    };
    if (k.regs_per_thread < 0 || k.regs_per_thread > dev.arch.max_regs_per_thread) {
        ResourceAdvice a = advice_now(Resource::registers, k.regs_per_thread, dev, k, l);
        a.error = a.before.error_message();
        return a;
    }
    ResourceAdvice a = advisor_search::resource_advice<OccupancyResult>(Resource::registers, k.regs_per_thread,
                                                                        dev.arch.max_regs_per_thread, at, blocks_of);
    if (a.to_gain_block < 0) a.note = no_cut_sentence(AdviceWords{}, Resource::registers, limiter_list(at(0).limiters));
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
                     ? no_cut_sentence(AdviceWords{}, Resource::shared_memory, limiter_list(zero.limiters))
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

// Every sentence below is worded once, in a vendor's nouns (AdviceWords; CUDA's by default).
namespace {
std::string str(std::int64_t v) { return std::to_string(v); }
// "4 blocks/SM", "3 workgroups/CU"
std::string per_unit(const AdviceWords& w, int n) { return str(n) + " " + w.blocks + "/" + w.per; }
}  // namespace

std::string block_size_sentence(const AdviceWords& w, int threads_now, int threads, double occ_before, double occ_after, int blocks_before,
                                int blocks_after, std::int64_t min_grid) {
    if (threads == threads_now || !(occ_after > occ_before + 1e-12)) return {};
    return w.block + " size " + str(threads_now) + " -> " + str(threads) + " threads: occupancy " + format_percent(occ_before) + " -> " +
           format_percent(occ_after) + " (" + str(blocks_before) + " -> " + per_unit(w, blocks_after) + ")" +
           (min_grid > 0 ? "; grid of at least " + str(min_grid) + " " + w.blocks + " fills the GPU" : std::string());
}

std::string block_size_suggestion(const BlockSizeAdvice& b, int threads_now) {
    if (!b.ok()) return {};
    return block_size_sentence(AdviceWords{}, threads_now, b.threads, b.before.occupancy, b.after.occupancy, b.before.blocks_per_sm,
                               b.blocks_per_sm, b.min_grid_blocks);
}

std::string cut_sentence(const AdviceWords& w, Resource res, std::int64_t now, std::int64_t to_gain, int blocks_before, int blocks_after,
                         double occ_before, double occ_after) {
    if (to_gain < 0 || to_gain >= now) return {};
    const std::string tail = ": " + str(blocks_before) + " -> " + per_unit(w, blocks_after) + ", occupancy " + format_percent(occ_before) +
                             " -> " + format_percent(occ_after);
    if (res == Resource::registers)
        return w.regs + " " + str(now) + " -> " + str(to_gain) + " " + w.per_lane + " (cut " + str(now - to_gain) + ", " + w.regs_how +
               ")" + tail;
    return w.smem + " " + format_bytes(now) + " -> " + format_bytes(to_gain) + " per " + w.block + " (cut " + format_bytes(now - to_gain) +
           ")" + tail;
}

std::string cut_sentence(Resource res, std::int64_t now, std::int64_t to_gain, int blocks_after, const OccupancyResult& before) {
    // The threads do not change, so neither do the warps per block: the occupancy at blocks_after.
    const double after = before.max_warps_per_sm > 0 ? static_cast<double>(blocks_after * before.warps_per_block) / before.max_warps_per_sm
                                                     : 0.0;
    return cut_sentence(AdviceWords{}, res, now, to_gain, before.blocks_per_sm, blocks_after, before.occupancy, after);
}

std::string headroom_sentence(const AdviceWords& w, Resource res, std::int64_t now, std::int64_t max_same, int blocks, double occupancy) {
    if (max_same <= now || blocks <= 0) return {};
    if (res == Resource::registers)
        return w.reg + " headroom: up to " + str(max_same) + " " + w.regs + " " + w.per_lane + " (+" + str(max_same - now) + ") keep " +
               per_unit(w, blocks) + " (" + format_percent(occupancy) + ")";
    return w.smem_short + " headroom: up to " + format_bytes(max_same) + " dynamic per " + w.block + " (+" + format_bytes(max_same - now) +
           ") keeps " + per_unit(w, blocks);
}

std::string headroom_sentence(Resource res, std::int64_t now, std::int64_t max_same, const OccupancyResult& before) {
    return headroom_sentence(AdviceWords{}, res, now, max_same, before.blocks_per_sm, before.occupancy);
}

std::string no_headroom_sentence(const AdviceWords& w, Resource res, int blocks) {
    if (blocks <= 0) return {};
    return "no " +
           (res == Resource::registers ? w.reg + " headroom: one more " + w.reg + " " + w.per_lane
                                       : w.smem_short + " headroom: one more byte of " + w.smem) +
           " costs a " + w.block + " (" + per_unit(w, blocks) + " now)";
}

std::string no_headroom_sentence(Resource res, const OccupancyResult& before) {
    return no_headroom_sentence(AdviceWords{}, res, before.blocks_per_sm);
}

std::string cut_suggestion(const ResourceAdvice& a) {
    if (!a.ok() || a.to_gain_block < 0) return {};
    return cut_sentence(a.resource, a.now, a.to_gain_block, a.after_cut.blocks_per_sm, a.before);
}

std::string headroom_suggestion(const ResourceAdvice& a) {
    if (!a.ok() || a.headroom <= 0 || a.blocks_per_sm <= 0) return {};
    return headroom_sentence(a.resource, a.now, a.max_same_blocks, a.before);
}

std::string best_block_sentence(const AdviceWords& w, int threads, double occupancy) {
    if (threads <= 0) return {};
    return "best " + w.block + " size: " + str(threads) + " threads, " + format_percent(occupancy) + " occupancy (" + w.pick + ")";
}

std::string best_block_sentence(int threads, double occupancy) { return best_block_sentence(AdviceWords{}, threads, occupancy); }

std::string target_sentence(const AdviceWords& w, int target, std::int64_t available, double occupancy) {
    return "at " + per_unit(w, target) + " each " + w.block + " may use up to " + format_bytes(available) + " of " + w.smem +
           " (occupancy " + format_percent(occupancy) + ")";
}

std::string target_suggestion(const DynamicSmemAdvice& a) {
    if (!a.ok()) return {};
    return target_sentence(AdviceWords{}, a.target_blocks, a.available, a.at_available.occupancy);
}

std::string waves_suggestion(const WaveResult& wr, const AdviceWords& w) {
    if (!wr.ok() || wr.grid_blocks <= 0 || wr.tail_blocks <= 0) return {};
    return "grid " + str(wr.grid_blocks) + " " + w.blocks + " = " + format_number(wr.waves, 2) + " waves of " + str(wr.blocks_per_wave) +
           "; last wave " + format_percent(wr.last_wave_fill) + " full: " + str(wr.suggested_grid_down) + " or " +
           str(wr.suggested_grid_up) + " " + w.blocks + " end on a whole wave";
}

std::string no_cut_sentence(const AdviceWords& w, Resource res, const std::string& limited_by) {
    return res == Resource::registers
               ? "no " + w.reg + " count fits more " + w.blocks + ": even with 0 " + w.regs + " the launch is limited by " + limited_by
               : "no " + w.smem + " size fits more " + w.blocks + ": with 0 bytes the launch is limited by " + limited_by;
}

std::string waves_suggestion(const WaveResult& w) { return waves_suggestion(w, AdviceWords{}); }

std::string clusters_suggestion(const ClusterResult& c) {
    if (!c.ok() || c.idle_block_slots <= 0) return {};
    char buf[400];
    std::snprintf(buf, sizeof buf, "clusters of %d: %d active clusters use %lld of %lld block slots (%s); the rest stay idle",
                  c.cluster_size, c.max_active_clusters, static_cast<long long>(c.active_blocks), static_cast<long long>(c.block_slots),
                  format_percent(c.cluster_occupancy).c_str());
    return buf;
}

std::string no_change_suggestion(const std::string& error) {
    return "no change improves occupancy: " + (error.empty() ? std::string("already at the best this kernel allows") : error);
}

std::string no_change_suggestion(const OccupancyResult& now) {
    return no_change_suggestion(now.ok() ? std::string() : now.error_message());
}

}  // namespace occ
