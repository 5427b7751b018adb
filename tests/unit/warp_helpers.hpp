// warp_helpers.hpp — warps the memory-model tests build (test_coalescing.cpp, test_banks.cpp).
#pragma once
#include <cstdint>

#include "occ/coalescing.hpp"

namespace occ::test {

// A warp at a constant step: lane i reads `bytes` bytes at base + i * stride_elems * bytes.
inline WarpAccess affine_warp(int bytes, std::uint64_t base, std::int64_t stride_elems, std::uint32_t mask = 0xffffffffu) {
    WarpAccess w;
    w.access_bytes = bytes;
    w.active = mask;
    for (int lane = 0; lane < kWarpLanes; ++lane)
        w.addr[static_cast<std::size_t>(lane)] = base + static_cast<std::uint64_t>(lane * stride_elems * bytes);
    return w;
}

}  // namespace occ::test
