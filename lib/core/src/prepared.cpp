// prepared.cpp — building PreparedDevice's tables from the single-query model.
#include "occ/prepared.hpp"

#include <algorithm>

namespace occ {

PreparedDevice::PreparedDevice(const ArchRules& a, int carveout, CacheConfig cache, PartitionedGC pgc) : arch_(a), smem_rule_(a) {
    valid_ = a.warp_size == 32 && (a.smem_alloc_unit == 128 || a.smem_alloc_unit == 256) && carveout >= -1 && carveout <= 100;
    if (!valid_) return;
    max_threads_ = a.max_threads_per_block;
    max_regs_ = a.max_regs_per_thread;
    reserved_ = a.smem_reserved_per_block;
    unit_ = a.smem_alloc_unit;
    unit_shift_ = unit_ == 128 ? 7 : 8;
    // Warps x registers (x blocks): ask the model with no shared memory and no barriers.
    warps_regs_.assign(static_cast<std::size_t>(256) * 33, 0);
    KernelResources k;
    k.barriers = 0;
    k.partitioned_gc = pgc;
    LaunchConfig l;
    l.carveout = carveout;
    l.cache_config = cache;
    for (int r = 0; r <= std::min(255, a.max_regs_per_thread); ++r) {
        k.regs_per_thread = r;
        for (int w = 1; w <= 32; ++w) {
            l.threads = w * 32;
            const int b = blocks_per_sm_fast(a, k, l);
            warps_regs_[static_cast<std::size_t>(r) * 33 + static_cast<std::size_t>(w)] = static_cast<std::uint8_t>(std::clamp(b, 0, 255));
        }
    }
    // Shared memory per allocation-unit count: configured carveout / allocation.
    const std::int64_t max_units = (std::max(smem_rule_.plain_bytes(), smem_rule_.optin_bytes()) >> unit_shift_) + 1;
    smem_.assign(static_cast<std::size_t>(max_units + 1), 0);
    for (std::int64_t u = 0; u <= max_units; ++u) {
        const std::int64_t alloc = u * unit_;
        if (alloc == 0) {
            smem_[0] = 255;
            continue;
        }
        const std::int64_t sm = configured_smem_per_sm(a, carveout, cache, alloc);
        smem_[static_cast<std::size_t>(u)] = sm < 0 ? 0 : static_cast<std::uint8_t>(std::min<std::int64_t>(255, sm / alloc));
    }
    // Named barriers (where they limit blocks: 9.0+).
    for (int b = 0; b <= 16; ++b)
        barriers_[static_cast<std::size_t>(b)] = (a.barriers_limit_blocks && b > 0)
                                                     ? static_cast<std::uint8_t>(
                                                           std::min(255, a.max_blocks_per_sm * a.barriers_per_block_slot / b))
                                                     : 255;
    // Virtual resources (where the SM has them: 10.x+): the SM's count / the kernel's; 0 = none declared.
    virtual_per_sm_ = std::max(0, a.virtual_resources_per_sm);
    if (virtual_per_sm_ > 0) {
        virtual_.assign(static_cast<std::size_t>(virtual_per_sm_) + 1, 255);
        for (int v = 1; v <= virtual_per_sm_; ++v)
            virtual_[static_cast<std::size_t>(v)] = static_cast<std::uint8_t>(std::min(255, virtual_per_sm_ / v));
    }
}

}  // namespace occ
