// occ/prepared.hpp — a device prepared for many queries: the same answers as compute_occupancy,
// from small lookup tables, with no division on the query path.
//
// Every rule sees the block size only through its warp count (1..32) and the register count
// (0..255), shared memory only through its allocation-unit count, and the virtual-resource limit
// only through the kernel's count (0..the SM's count; above it no block fits), so a few KB of tables built
// once per (device, carveout, cache preference, partitioned caching) answer any query with a handful
// of loads. Built from compute_occupancy itself: there is no second copy of the rules.
// tests/diff checks it against cuda_occupancy.h on every input the single-query path sees.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "occ/occupancy.hpp"

namespace occ {

class PreparedDevice {
public:
    PreparedDevice(const ArchRules& arch, int carveout = -1, CacheConfig cache = CacheConfig::none, PartitionedGC pgc = PartitionedGC::off);

    // Blocks per SM; -1 for inputs outside the model's ranges (same as blocks_per_sm_fast).
    // virtual_resources: KernelResources::virtual_resources (0 = none declared).
    int blocks_per_sm(int threads, int regs, std::int64_t smem_static, std::int64_t smem_dynamic, bool optin = false, int barriers = 1,
                      int virtual_resources = 0) const {
        if (static_cast<unsigned>(threads - 1) >= 1024u || static_cast<unsigned>(regs) > static_cast<unsigned>(max_regs_) ||
            static_cast<unsigned>(barriers) > 16u || smem_static < 0 || smem_dynamic < 0 || virtual_resources < 0 || !valid_)
            return -1;
        if (threads > max_threads_) return 0;
        constexpr std::int64_t kHuge = std::int64_t{1} << 40;  // beyond every limit; keeps sums in range
        if (smem_static > kHuge || smem_dynamic > kHuge) return 0;
        const int w = (threads + 31) >> 5;
        int blocks = warps_regs_[static_cast<std::size_t>(regs) * 33 + static_cast<std::size_t>(w)];
        // Shared memory: allocation units against what one block may use (block_smem_limit).
        const std::int64_t alloc_units = (smem_static + reserved_ + smem_dynamic + unit_ - 1) >> unit_shift_;
        const BlockSmemLimit limit = smem_rule_(smem_static, optin, -1);
        if (limit.optin && smem_dynamic > limit.max_dynamic) return 0;
        if ((alloc_units << unit_shift_) > limit.bytes) return 0;
        const int s = smem_[static_cast<std::size_t>(alloc_units)];
        blocks = s < blocks ? s : blocks;
        const int b = barriers_[static_cast<std::size_t>(barriers)];
        blocks = b < blocks ? b : blocks;
        // Virtual resources (only where the SM has them): more than the SM has, and no block fits.
        if (virtual_resources > 0 && virtual_per_sm_ > 0) {
            const int v = virtual_resources <= virtual_per_sm_ ? virtual_[static_cast<std::size_t>(virtual_resources)] : 0;
            blocks = v < blocks ? v : blocks;
        }
        return blocks;
    }

    const ArchRules& arch() const { return arch_; }

private:
    ArchRules arch_;
    SmemLimitRule smem_rule_;
    bool valid_ = true;
    int max_threads_ = 1024;
    int max_regs_ = 255;
    std::int64_t reserved_ = 0, unit_ = 128;
    int unit_shift_ = 7;
    std::vector<std::uint8_t> warps_regs_;     // [regs 0..255][warps 0..32] = min(warps, registers, blocks)
    std::vector<std::uint8_t> smem_;           // [allocation units] = shared-memory limit
    std::array<std::uint8_t, 17> barriers_{};  // [named barriers 0..16]
    int virtual_per_sm_ = 0;                   // ArchRules::virtual_resources_per_sm (0 = no such limit)
    std::vector<std::uint8_t> virtual_;        // [virtual resources per block 0..virtual_per_sm_] = the SM's count / it
};

}  // namespace occ
