// global_sectors.hpp — (private) two ways analyze_global counts the sectors of a warp whose lanes are
// out of address order (coalescing.cpp; its other ways are in the function itself): by lane ranks
// (any span up to 32 GiB) and by a window's sector mask (within 1 KiB). Both are inlined into
// analyze_global, so they are defined here rather than in a file of their own; internal linkage, as
// when they were in coalescing.cpp (the same machine code for analyze_global). Include it there only.
#pragma once
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#include "lane_rank.hpp"
#include "occ/coalescing.hpp"

namespace occ {
namespace {

// Any order of lanes (gathers, partial warps) whose sectors lie within 2^30 sectors (32 GiB) of the
// first active lane's: a lane's sector index = the distinct sectors below it (lane_rank.hpp), no sort
// and no branch on the data. Used bytes come from a 32-bit byte mask per sector: aligned accesses of one width either
// coincide or are disjoint, so the mask counts each requested byte once. Fills lane_sector,
// sector_addr and sector_used_bytes; false (nothing written) for wider spans.
[[gnu::always_inline]] inline bool ranked_sectors(const WarpAccess& w, std::uint64_t ab, std::uint64_t amask, GlobalAccessResult& r,
                                                  int& sectors, int& distinct, int& lines) {
    const std::uint32_t active = w.active;
    const bool full = active == 0xffffffffu;
    alignas(32) std::array<std::uint8_t, kWarpLanes>
        k;  // (aligned: copied unaligned, as two 16-byte loads of the rank's one 32-byte store, it stalled)
    // Sectors in 32-bit lanes; a full warp of 32 distinct sectors may come back sorted already.
    const int keys = full ? detail::full_sector_rank32(w.addr, amask, k, r.sector_addr, lines)
                          : detail::sector_dense_rank32(w.addr, amask, active, k);
    if (keys < 0) return false;
    sectors = keys - !full;
    if (full && lines > 0) {  // 32 sectors in order: every lane's index is its rank, every sector holds one lane's bytes
        std::memcpy(r.lane_sector.data(), k.data(), kWarpLanes);
        r.sector_used_bytes.fill(static_cast<std::uint8_t>(ab));
        distinct = kWarpLanes;
        return true;
    }
    const std::uint64_t smask = amask & ~std::uint64_t{kSectorBytes - 1};
    const std::uint8_t n_sec = static_cast<std::uint8_t>(sectors);
    if (sectors == detail::pop32(active)) {
        // A sector per active lane (the usual random gather): each holds one lane's bytes, so only
        // the addresses need the scatter.
        // (The ranks are read 8 at a time: byte loads of the rank's vector store measured slower.)
        for (std::size_t q = 0; q < kWarpLanes; q += 8) {
            std::uint64_t k8;
            std::memcpy(&k8, k.data() + q, sizeof k8);
#pragma GCC unroll 8
            for (std::size_t b = 0; b < 8; ++b) r.sector_addr[(k8 >> (8 * b)) & 0xffu] = w.addr[q + b] & smask;
        }
        if (sectors < kWarpLanes) r.sector_addr[static_cast<std::size_t>(sectors)] = 0;
        if (full) {  // 32 sectors: every lane's index is its rank, every sector holds one lane's bytes
            std::memcpy(r.lane_sector.data(), k.data(), kWarpLanes);
            r.sector_used_bytes.fill(static_cast<std::uint8_t>(ab));
        } else {
            for (std::size_t i = 0; i < kWarpLanes; ++i) {
                r.lane_sector[i] = k[i] < n_sec ? static_cast<std::int8_t>(k[i]) : kNoSector;
                r.sector_used_bytes[i] = i < n_sec ? static_cast<std::uint8_t>(ab) : std::uint8_t{0};
            }
        }
        distinct = sectors;
        return true;
    }
    std::array<std::uint32_t, kWarpLanes> mask;                                    // the bytes of its sector a lane asks for
    const auto width = static_cast<std::uint32_t>((std::uint64_t{1} << ab) - 1u);  // a 32-byte lane: the whole sector
    for (std::size_t i = 0; i < kWarpLanes; ++i)
        mask[i] = (width << (w.addr[i] & amask & (kSectorBytes - 1))) & (0u - ((active >> i) & 1u));
    // Scatter by sector index. Inactive lanes all get index `sectors` (one past the active ones) and no
    // bytes; that slot is cleared again below. (used[] is cleared by the same scatter, not a memset.)
    std::array<std::uint32_t, kWarpLanes> used;
    for (std::size_t i = 0; i < kWarpLanes; ++i) used[k[i]] = 0;
    for (std::size_t i = 0; i < kWarpLanes; ++i) {
        r.sector_addr[k[i]] = w.addr[i] & smask;
        used[k[i]] |= mask[i];
    }
    if (sectors < kWarpLanes) r.sector_addr[static_cast<std::size_t>(sectors)] = 0;
    for (std::size_t i = 0; i < kWarpLanes; ++i) r.lane_sector[i] = k[i] < n_sec ? static_cast<std::int8_t>(k[i]) : kNoSector;
    int bytes = 0;
    for (int i = 0; i < sectors; ++i) {
        const int n = detail::pop32(used[static_cast<std::size_t>(i)]);
        r.sector_used_bytes[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(n);
        bytes += n;
    }
    distinct = bytes >> std::countr_zero(ab);
    return true;
}

// Any order of lanes whose active addresses lie in the 1 KiB around the first active lane's 128-byte
// line (512 bytes either side: 32 sectors, 8 lines; shuffled or permuted lanes, tile rows, small
// gathers): a 32-bit mask of the window's sectors touched, a lane's sector index = the touched sectors
// below its own, and a byte mask per window sector (so an address asked for twice counts once). No
// sort and no rank. Fills lane_sector (active lanes), sector_addr and sector_used_bytes; false
// (nothing written) when an active address lies outside the window.
constexpr std::uint64_t kWindowBefore = 512, kWindow = 1024;
inline std::uint64_t window_base(const WarpAccess& w, std::uint64_t amask) {
    return (w.addr[static_cast<std::size_t>(std::countr_zero(w.active))] & amask & ~std::uint64_t{kLineBytes - 1}) -
           kWindowBefore;  // mod 2^64
}
// Whether the last active lane lies in the window: a wide gather is turned away here, inline.
inline bool window_may_hold(const WarpAccess& w, std::uint64_t amask) {
    return (w.addr[static_cast<std::size_t>(31 - std::countl_zero(w.active | 1u))] & amask) - window_base(w, amask) < kWindow;
}
[[gnu::always_inline]] inline bool window_sectors(const WarpAccess& w, std::uint64_t ab, std::uint64_t amask, GlobalAccessResult& r,
                                                  int& sectors, int& distinct, int& lines) {
    const std::uint32_t active = w.active;
    const std::uint64_t base = window_base(w, amask);
    std::array<std::uint32_t, kWarpLanes> rel;
    std::uint64_t outside = 0;
    for (std::size_t i = 0; i < kWarpLanes; ++i) {
        const std::uint64_t d = (w.addr[i] & amask) - base;
        outside |= d & (0u - static_cast<std::uint64_t>((active >> i) & 1u));
        rel[i] = static_cast<std::uint32_t>(d);
    }
    if (outside >= kWindow) return false;
    std::array<std::uint32_t, kWarpLanes> used{};  // by window sector: the bytes asked for
    std::uint32_t touched = 0;
    // Aligned accesses never cross a sector; a 32-byte lane is a whole one (a 64-bit shift: 1u << 32 is undefined).
    const auto width = static_cast<std::uint32_t>((std::uint64_t{1} << ab) - 1u);
    for (std::uint32_t m = active; m; m &= m - 1) {
        const std::uint32_t d = rel[static_cast<std::size_t>(std::countr_zero(m))];
        touched |= 1u << (d >> 5);
        used[d >> 5] |= width << (d & (kSectorBytes - 1));
    }
    for (std::uint32_t m = active; m; m &= m - 1) {
        const int lane = std::countr_zero(m);
        r.lane_sector[static_cast<std::size_t>(lane)] = static_cast<std::int8_t>(
            detail::pop32(touched & ((1u << (rel[static_cast<std::size_t>(lane)] >> 5)) - 1u)));
    }
    int k = 0, bytes = 0;
    for (std::uint32_t t = touched; t; t &= t - 1, ++k) {
        const int s = std::countr_zero(t);
        const int n = detail::pop32(used[static_cast<std::size_t>(s)]);
        r.sector_addr[static_cast<std::size_t>(k)] = base + static_cast<std::uint64_t>(s) * kSectorBytes;
        r.sector_used_bytes[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(n);
        bytes += n;
    }
    sectors = k;
    distinct = bytes >> std::countr_zero(ab);
    // The window starts on a line: line j holds window sectors 4j .. 4j+3.
    lines = detail::pop32((touched | touched >> 1 | touched >> 2 | touched >> 3) & 0x11111111u);
    return true;
}

}  // namespace
}  // namespace occ
