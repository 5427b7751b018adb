// cluster.cpp — thread block cluster occupancy (see occ/cluster.hpp).
//
// [SECTION] GPC layouts   from the GPU catalogue (gpu_db.cpp), or an even split
// [SECTION] Model
#include "occ/cluster.hpp"

#include <algorithm>
#include <numeric>

namespace occ {
namespace {

// Spread `sm_count` SMs over `gpcs` GPCs in whole TPCs (2 SMs), as evenly as possible, largest first.
std::vector<int> spread(int sm_count, int gpcs) {
    std::vector<int> out(static_cast<std::size_t>(std::max(1, gpcs)), 0);
    const int tpcs = sm_count / 2;
    const int n = static_cast<int>(out.size());
    for (int g = 0; g < n; ++g) out[static_cast<std::size_t>(g)] = 2 * (tpcs / n + (g < tpcs % n ? 1 : 0));
    out[0] += sm_count % 2;  // an odd SM count (custom devices) puts the odd SM in the first GPC
    return out;
}

}  // namespace

GpcLayout even_gpc_layout(int sm_count, int max_sms_per_gpc) {
    GpcLayout g;
    sm_count = std::max(1, sm_count);
    max_sms_per_gpc = std::max(2, max_sms_per_gpc);
    const int gpcs = (sm_count + max_sms_per_gpc - 1) / max_sms_per_gpc;
    g.sms_per_gpc = spread(sm_count, gpcs);
    g.source = "generic assumption: GPCs of up to " + std::to_string(max_sms_per_gpc) +
               " SMs (Hopper whitepaper: 9 TPCs x 2 SMs per GPC), TPCs spread evenly over " + std::to_string(gpcs) + " GPCs";
    g.assumed = true;
    return g;
}

GpcLayout gpc_layout(const Device& dev) {
    // The GPU's catalogue entry (gpu_db.cpp, with its source): the per-GPC split where measurements
    // of cudaOccupancyMaxActiveClusters determine it; otherwise its GPC count, with the enabled TPCs
    // spread evenly over those GPCs (the split is never published per chip).
    const GpuEntry* entry = find_gpu_entry(dev.name);
    if (!entry || entry->gpc.gpcs == 0) return even_gpc_layout(dev.sm_count);
    GpcLayout g;
    g.source = entry->gpc.source;
    const std::span<const int> sms = entry->gpc.sms;
    if (!sms.empty() && std::accumulate(sms.begin(), sms.end(), 0) == dev.sm_count) {
        g.sms_per_gpc.assign(sms.begin(), sms.end());
        g.assumed = !entry->gpc.measured;
        return g;
    }
    g.sms_per_gpc = spread(dev.sm_count, entry->gpc.gpcs);  // also a catalogue GPU given another SM count
    g.assumed = true;
    return g;
}

// [SECTION] Model

ClusterResult compute_clusters(const Device& dev, const KernelResources& k, const LaunchConfig& l, int cluster_size, bool non_portable,
                               const GpcLayout& layout) {
    ClusterResult c;
    c.cluster_size = cluster_size;
    c.non_portable = non_portable;
    c.layout = layout;
    const ArchRules& a = dev.arch;
    // Programming Guide, "Thread Block Clusters": introduced with compute capability 9.0.
    if (!a.clusters) {
        c.error = "thread block clusters need compute capability 9.0 or later; this device is " + std::to_string(a.cc_major) + "." +
                  std::to_string(a.cc_minor);
        return c;
    }
    const int max = non_portable ? a.max_cluster_size_nonportable : kMaxPortableClusterSize;
    if (non_portable && cluster_size > max && cluster_size <= kMaxNonPortableClusterSize) {
        c.error = "cluster_size " + std::to_string(cluster_size) + ": non-portable cluster sizes above 8 are documented for compute " +
                  "capability 9.0 (Hopper Tuning Guide) and measured on 10.0/10.3 (B200, B300); nothing is published for " +
                  std::to_string(a.cc_major) + "." + std::to_string(a.cc_minor) +
                  ", so occ allows 1..8 here (ask the device: cudaOccupancyMaxPotentialClusterSize)";
        return c;
    }
    if (cluster_size < 1 || cluster_size > max) {
        c.error = "cluster_size must be 1.." + std::to_string(max) +
                  (non_portable ? " (non-portable maximum)" : " (portable maximum; 9..16 need non_portable)") + ", got " +
                  std::to_string(cluster_size);
        return c;
    }
    const int sum = std::accumulate(layout.sms_per_gpc.begin(), layout.sms_per_gpc.end(), 0);
    if (layout.sms_per_gpc.empty() || sum != dev.sm_count ||
        std::any_of(layout.sms_per_gpc.begin(), layout.sms_per_gpc.end(), [](int s) { return s < 1; })) {
        c.error = "the GPC layout must list at least one GPC, each with >= 1 SM, summing to the device's " + std::to_string(dev.sm_count) +
                  " SMs (got " + std::to_string(sum) + ")";
        return c;
    }
    c.per_sm = compute_occupancy(dev, k, l);
    c.blocks_per_sm = c.per_sm.blocks_per_sm;
    if (!c.per_sm.ok() && c.blocks_per_sm == 0) {
        c.error = c.per_sm.error_message();
        return c;
    }
    for (int s : layout.sms_per_gpc) {
        const int n = s * c.blocks_per_sm / cluster_size;
        c.clusters_per_gpc.push_back(n);
        c.max_active_clusters += n;
    }
    c.active_blocks = static_cast<std::int64_t>(c.max_active_clusters) * cluster_size;
    c.block_slots = static_cast<std::int64_t>(dev.sm_count) * c.blocks_per_sm;
    c.idle_block_slots = c.block_slots - c.active_blocks;
    c.cluster_occupancy = c.block_slots > 0 ? static_cast<double>(c.active_blocks) / static_cast<double>(c.block_slots) : 0.0;
    const double max_warps = static_cast<double>(dev.sm_count) * a.max_warps_per_sm();
    c.device_occupancy = max_warps > 0 ? static_cast<double>(c.active_blocks) * c.per_sm.warps_per_block / max_warps : 0.0;
    if (c.max_active_clusters == 0 && c.blocks_per_sm > 0) {
        const int biggest = *std::max_element(layout.sms_per_gpc.begin(), layout.sms_per_gpc.end());
        c.error = "a cluster of " + std::to_string(cluster_size) + " blocks does not fit in one GPC (" + std::to_string(biggest) +
                  " SMs x " + std::to_string(c.blocks_per_sm) + " blocks per SM)";
    }
    return c;
}

}  // namespace occ
