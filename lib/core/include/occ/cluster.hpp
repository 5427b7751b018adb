// occ/cluster.hpp — thread block clusters (compute capability 9.0+): how many clusters of a
// given size can be resident at once, like cudaOccupancyMaxActiveClusters.
//
// Rules (CUDA C++ Programming Guide, "Thread Block Clusters"):
//   * the blocks of a cluster are guaranteed to be co-scheduled on one GPU Processing Cluster (GPC);
//   * 8 blocks is the portable maximum cluster size; 16 is allowed on H100 after
//     cudaFuncSetAttribute(cudaFuncAttributeNonPortableClusterSizeAllowed, 1) (Hopper Tuning Guide,
//     "Thread Block Clusters") and measured on B200/B300; ArchRules::max_cluster_size_nonportable.
// Model: each SM holds blocks_per_sm blocks (the ordinary occupancy model); a GPC with S SMs holds
// floor(S × blocks_per_sm / cluster_size) clusters (blocks of one cluster may share an SM); the
// device holds the sum over its GPCs. The GPC layout per GPU is an ASSUMPTION (NVIDIA does not
// publish which TPCs are disabled on each part): see gpc_layout() and docs/ADVANCED.md.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "occ/occupancy.hpp"

namespace occ {

// Portable cluster size limit (Programming Guide, "Thread Block Clusters").
inline constexpr int kMaxPortableClusterSize = 8;
// The largest non-portable size on any part (ArchRules::max_cluster_size_nonportable per architecture).
inline constexpr int kMaxNonPortableClusterSize = 16;

struct GpcLayout {
    std::vector<int> sms_per_gpc;  // SMs in each GPC; sums to the device's SM count
    std::string source;            // where the numbers come from, and what is assumed
    bool assumed = true;           // true when the split across GPCs is not published
    int gpc_count() const { return static_cast<int>(sms_per_gpc.size()); }
};

// The layout occ assumes for a named GPU (falls back to even_gpc_layout for others).
GpcLayout gpc_layout(const Device& dev);
// SMs split over ceil(sm_count / max_sms_per_gpc) GPCs as evenly as possible in whole TPCs
// (2 SMs per TPC, Hopper whitepaper: "9 TPCs per GPC, 2 SMs per TPC", i.e. 18 SMs per full GPC).
GpcLayout even_gpc_layout(int sm_count, int max_sms_per_gpc = 18);

struct ClusterResult {
    int cluster_size = 1;
    bool non_portable = false;
    int blocks_per_sm = 0;        // from the occupancy model
    int max_active_clusters = 0;  // device-wide, like cudaOccupancyMaxActiveClusters
    std::vector<int> clusters_per_gpc;
    std::int64_t active_blocks = 0;     // max_active_clusters × cluster_size
    std::int64_t block_slots = 0;       // SMs × blocks_per_sm: what plain (cluster-less) launches could hold
    std::int64_t idle_block_slots = 0;  // block_slots - active_blocks
    double cluster_occupancy = 0.0;     // active_blocks / block_slots, 0..1
    double device_occupancy = 0.0;      // active warps / (SMs × max warps per SM), 0..1
    OccupancyResult per_sm;
    GpcLayout layout;
    std::string error;
    bool ok() const { return error.empty(); }
};

ClusterResult compute_clusters(const Device& dev, const KernelResources& k, const LaunchConfig& l, int cluster_size, bool non_portable,
                               const GpcLayout& layout);
inline ClusterResult compute_clusters(const Device& dev, const KernelResources& k, const LaunchConfig& l, int cluster_size,
                                      bool non_portable = false) {
    return compute_clusters(dev, k, l, cluster_size, non_portable, gpc_layout(dev));
}

}  // namespace occ
