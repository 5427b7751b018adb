// coalescing.cpp — global-memory coalescing model (see occ/coalescing.hpp).
//
// [SECTION] Small helpers (names, validation)
// [SECTION] Patterns -> WarpAccess
// [SECTION] analyze_global (hot path; its sector counts for lanes out of order: global_sectors.hpp)
// [SECTION] Block totals, reason and fix
#include "occ/coalescing.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <utility>

#include "cpu_dispatch.hpp"  // OCC_HOT_CLONES
#include "global_sectors.hpp"
#include "lane_rank.hpp"
#include "memory_block.hpp"
#include "occ/format.hpp"

namespace occ {
namespace {

// Addresses are kept below 2^56 so (address << 5 | lane) fits a 64-bit sort key.
constexpr std::uint64_t kMaxAddress = std::uint64_t{1} << 56;

std::string num(std::int64_t v) { return std::to_string(v); }

std::uint64_t splitmix64(std::uint64_t& state) {
    // splitmix64 (Steele, Lea, Flood 2014): a tiny, well-mixed, reproducible generator.
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// Signed address of linear thread t (no range checks; check_pattern does them).
std::int64_t thread_address(const AccessPattern& p, int t, const std::uint16_t* perm) {
    const std::int64_t eb = p.element_bytes();
    const std::int64_t start = static_cast<std::int64_t>(p.base) + p.offset;
    switch (p.kind) {
        case PatternKind::addresses: return static_cast<std::int64_t>(p.addresses[static_cast<std::size_t>(t & 31)]);
        case PatternKind::affine: return start + static_cast<std::int64_t>(t) * p.stride * eb;
        case PatternKind::index_2d: {
            const int bx = p.block[0], by = p.block[1];
            const int x = t % bx, y = (t / bx) % by, z = t / (bx * by);
            std::int64_t row = 0, col = 0;
            if (p.order == IndexOrder::row) {
                row = y + static_cast<std::int64_t>(z) * by;
                col = x;
            } else {
                row = x;
                col = y + static_cast<std::int64_t>(z) * by;
            }
            const std::int64_t pitch = p.row_pitch();
            if (p.swizzle) {
                // XOR swizzle (e.g. CUTLASS's Swizzle, NVIDIA GTC "CUTLASS" talks): permute columns within
                // each aligned group of P by the row, so a column walk spreads over P banks.
                const std::int64_t pw = std::int64_t{1}
                                        << (63 - std::countl_zero(static_cast<std::uint64_t>(std::max<std::int64_t>(pitch, 1))));
                col = col ^ (row & (pw - 1));
            }
            return start + (row * pitch + col) * eb;
        }
        case PatternKind::gather: {
            std::int64_t idx = 0;
            if (p.range > 0) {
                std::uint64_t s = p.seed ^ (static_cast<std::uint64_t>(t) * 0xd1b54a32d192ed03ull);
                idx = static_cast<std::int64_t>(splitmix64(s) % static_cast<std::uint64_t>(p.range));
            } else {
                idx = perm ? perm[t] : t;
            }
            return start + idx * eb;
        }
    }
    return start;
}

// Fisher-Yates permutation of 0..n-1 driven by splitmix64(seed), into a fixed array.
void make_permutation(std::uint64_t seed, int n, std::array<std::uint16_t, 1024>& perm) {
    for (int i = 0; i < n; ++i) perm[static_cast<std::size_t>(i)] = static_cast<std::uint16_t>(i);
    std::uint64_t s = seed;
    for (int i = n - 1; i > 0; --i) {
        const int j = static_cast<int>(splitmix64(s) % static_cast<std::uint64_t>(i + 1));
        std::swap(perm[static_cast<std::size_t>(i)], perm[static_cast<std::size_t>(j)]);
    }
}

const char* elem_noun(int bytes) {
    switch (bytes) {
        case 1: return "bytes";
        case 2: return "2-byte elements";
        case 4: return "floats";
        case 8: return "doubles";
        case 16: return "16-byte vectors";
        case 32: return "32-byte vectors";
    }
    return "elements";
}

}  // namespace

// [SECTION] Small helpers

const char* access_op_name(AccessOp op) { return op == AccessOp::store ? "store" : "load"; }

bool valid_access_bytes(int b) { return b == 1 || b == 2 || b == 4 || b == 8 || b == 16; }

bool valid_global_access_bytes(int b) { return valid_access_bytes(b) || b == kWideAccessBytes; }

const char* pattern_kind_name(PatternKind k) {
    switch (k) {
        case PatternKind::addresses: return "addresses";
        case PatternKind::affine: return "affine";
        case PatternKind::index_2d: return "2d";
        case PatternKind::gather: return "gather";
    }
    return "affine";
}

const char* global_verdict_name(GlobalVerdict v) {
    switch (v) {
        case GlobalVerdict::none: return "none";
        case GlobalVerdict::coalesced: return "coalesced";
        case GlobalVerdict::broadcast: return "broadcast";
        case GlobalVerdict::misaligned: return "misaligned";
        case GlobalVerdict::strided: return "strided";
        case GlobalVerdict::split_rows: return "split_rows";
        case GlobalVerdict::scattered: return "scattered";
    }
    return "none";
}

std::int64_t AccessPattern::row_pitch() const {
    std::int64_t p = pitch;
    if (p <= 0) p = order == IndexOrder::row ? block[0] : static_cast<std::int64_t>(block[1]) * block[2];
    return p + pad;
}

std::string check_warp_access(const WarpAccess& w) {
    if (!valid_global_access_bytes(w.access_bytes)) return "access_bytes: must be 1, 2, 4, 8 or 16, got " + num(w.access_bytes);
    for (int lane = 0; lane < kWarpLanes; ++lane) {
        if (!w.lane_active(lane)) continue;
        const std::uint64_t a = w.addr[static_cast<std::size_t>(lane)];
        if (a >= kMaxAddress) return "addresses: lane " + num(lane) + " address must be below 2^56";
        // CUDA C++ Programming Guide, "Device Memory Accesses": global memory instructions support
        // reading or writing words of size 1, 2, 4, 8, or 16 bytes that are naturally aligned.
        if (a % static_cast<std::uint64_t>(w.access_bytes) != 0)
            return "addresses: lane " + num(lane) + " address " + num(static_cast<std::int64_t>(a)) +
                   " is not a multiple of access_bytes (" + num(w.access_bytes) + "); CUDA requires naturally aligned accesses";
    }
    return {};
}

std::string check_pattern(const AccessPattern& p) {
    // (32 passes here: whether the model and the device take it is global_access_unsupported's and
    // banks_access_unsupported's question.)
    if (!valid_global_access_bytes(p.access_bytes)) return "access_bytes: must be 1, 2, 4, 8 or 16, got " + num(p.access_bytes);
    if (p.elem_bytes != 0 && !valid_global_access_bytes(p.elem_bytes))
        return "elem_bytes: must be 1, 2, 4, 8 or 16, got " + num(p.elem_bytes);
    // CUDA C++ Programming Guide, "Technical Specifications": at most 1024 threads per block, z <= 64
    // (the same on every compute capability, so the patterns check them without a device).
    for (int i = 0; i < 3; ++i)
        if (p.block[i] < 1 || p.block[i] > kMaxBlockDimXY)
            return "block: each dimension must be 1.." + num(kMaxBlockDimXY) + ", got " + num(p.block[i]);
    if (p.block[2] > kMaxBlockDimZ) return "block: z must be 1.." + num(kMaxBlockDimZ) + ", got " + num(p.block[2]);
    if (static_cast<std::int64_t>(p.block[0]) * p.block[1] * p.block[2] > kMaxBlockThreads)
        return "block: at most " + num(kMaxBlockThreads) + " threads, got " +
               num(static_cast<std::int64_t>(p.block[0]) * p.block[1] * p.block[2]);
    if (p.kind == PatternKind::addresses && p.threads() != kWarpLanes)
        return "block: explicit addresses describe exactly one warp (32 threads)";
    if (p.base >= (std::uint64_t{1} << 48)) return "base: must be 0..2^48, got " + num(static_cast<std::int64_t>(p.base));
    if (p.offset < -(std::int64_t{1} << 40) || p.offset > (std::int64_t{1} << 40))
        return "offset: must be -2^40..2^40 bytes, got " + num(p.offset);
    if (p.stride < -(std::int64_t{1} << 24) || p.stride > (std::int64_t{1} << 24))
        return "stride: must be -16777216..16777216 elements, got " + num(p.stride);
    if (p.pitch < 0 || p.pitch > (std::int64_t{1} << 24)) return "pitch: must be 0..16777216 elements, got " + num(p.pitch);
    if (p.pad < 0 || p.pad > 1024) return "pad: must be 0..1024 elements, got " + num(p.pad);
    if (p.range < 0 || p.range > (std::int64_t{1} << 32)) return "range: must be 0..2^32 elements, got " + num(p.range);
    // Every address must be non-negative and naturally aligned.
    std::array<std::uint16_t, 1024> perm{};
    const bool use_perm = p.kind == PatternKind::gather && p.range == 0;
    if (use_perm) make_permutation(p.seed, p.threads(), perm);
    for (int t = 0; t < p.threads(); ++t) {
        const int lane = t % kWarpLanes;
        if (!((p.active_lanes >> lane) & 1u)) continue;
        const std::int64_t a = thread_address(p, t, use_perm ? perm.data() : nullptr);
        if (a < 0) return "offset: thread " + num(t) + " would access a negative address (" + num(a) + "); raise base";
        if (static_cast<std::uint64_t>(a) >= kMaxAddress) return "base: thread " + num(t) + " address must be below 2^56";
        if (a % p.access_bytes != 0) {
            const bool from_offset = (static_cast<std::int64_t>(p.base) + p.offset) % p.access_bytes != 0;
            return std::string(from_offset                        ? "offset"
                               : p.kind == PatternKind::addresses ? "addresses"
                                                                  : "elem_bytes") +
                   ": thread " + num(t) + " address " + num(a) + " is not a multiple of access_bytes (" + num(p.access_bytes) +
                   "); CUDA requires naturally aligned accesses (shift by whole elements to model misalignment)";
        }
    }
    return {};
}

// [SECTION] Patterns -> WarpAccess

WarpAccess make_warp_access(const AccessPattern& p, int warp) {
    WarpAccess w;
    w.access_bytes = p.access_bytes;
    w.op = p.op;
    w.active = 0;
    std::array<std::uint16_t, 1024> perm{};
    const bool use_perm = p.kind == PatternKind::gather && p.range == 0;
    if (use_perm) make_permutation(p.seed, p.threads(), perm);
    const int n = p.threads();
    for (int lane = 0; lane < kWarpLanes; ++lane) {
        // Programming Guide, "Thread Hierarchy": thread ID = x + y*Dx + z*Dx*Dy; warps take 32
        // consecutive thread IDs ("SIMT Architecture").
        const int t = warp * kWarpLanes + lane;
        if (t >= n || !((p.active_lanes >> lane) & 1u)) continue;
        const std::int64_t a = thread_address(p, t, use_perm ? perm.data() : nullptr);
        if (a < 0) continue;
        w.addr[static_cast<std::size_t>(lane)] = static_cast<std::uint64_t>(a);
        w.active |= 1u << lane;
    }
    return w;
}

// [SECTION] analyze_global

OCC_HOT_CLONES GlobalAccessResult analyze_global(const WarpAccess& w) {
    GlobalAccessResult r;
    r.lane_sector.fill(kNoSector);
    const std::uint32_t active = w.active;
    if (active == 0) return r;
    const std::uint64_t ab = valid_global_access_bytes(w.access_bytes) ? static_cast<std::uint64_t>(w.access_bytes) : 4u;
    const std::uint64_t amask = (kMaxAddress - 1) & ~(ab - 1);

    // Best Practices Guide, "Coalesced Access to Global Memory": the concurrent accesses of a warp
    // coalesce into as many transactions as there are 32-byte sectors touched (cc 6.0+).
    // Active lanes are visited in ascending address order; sectors and distinct addresses are
    // counted where the value changes (no branches in the step).
    std::uint64_t prev_a = ~0ull, prev_s = ~0ull;
    int sectors = 0, distinct = 0;
    // first_distinct[k] = distinct addresses seen before sector k opened (slot 32 absorbs the writes of
    // lanes that open nothing), so used bytes come out after the loop without a read-modify-write chain.
    std::array<int, kWarpLanes + 1> first_distinct;
    auto step = [&](std::uint64_t a, int lane) {
        const std::uint64_t s = a / kSectorBytes;
        const int new_s = s != prev_s, new_a = a != prev_a;
        first_distinct[static_cast<std::size_t>(new_s ? sectors : kWarpLanes)] = distinct;
        sectors += new_s;
        distinct += new_a;
        r.sector_addr[static_cast<std::size_t>(sectors - 1)] = s * kSectorBytes;
        r.lane_sector[static_cast<std::size_t>(lane)] = static_cast<std::int8_t>(sectors - 1);
        prev_s = s;
        prev_a = a;
    };

    // Fastest path: a full warp at a constant non-negative step d (a[i] = a0 + i*d), the shape of
    // every coalesced, misaligned, strided, vector and broadcast access. Closed form, no per-lane chains.
    bool done = false, ordered = true;
    int known_lines = 0;
    // (Lane 2 off the step already rules it out: gathers skip the walk.)
    if (active == 0xffffffffu && (w.addr[2] & amask) - (w.addr[1] & amask) == (w.addr[1] & amask) - (w.addr[0] & amask)) {
        const std::uint64_t a0 = w.addr[0] & amask, a1 = w.addr[1] & amask;
        const std::uint64_t d = a1 - a0;
        std::uint64_t off_step = a1 < a0 ? 1u : 0u, expect = a1;
        for (int i = 2; i < kWarpLanes; ++i) {
            expect += d;
            off_step |= (w.addr[static_cast<std::size_t>(i)] & amask) ^ expect;
        }
        if (off_step == 0 && expect < kMaxAddress) {
            done = true;
            // Lines in closed form too (reading back the sector addresses just stored stalls): below a
            // 128-byte step the lanes touch every line from the first lane's to the last one's; from it
            // on, a line each.
            known_lines = static_cast<int>(std::min<std::uint64_t>(kWarpLanes, expect / kLineBytes - a0 / kLineBytes + 1));
            if (d == 0) {  // broadcast: one address, one sector
                r.lane_sector.fill(0);
                sectors = 1;
                distinct = 1;
                r.sector_addr[0] = a0 & ~std::uint64_t{kSectorBytes - 1};
                r.sector_used_bytes[0] = static_cast<std::uint8_t>(ab);
            } else if (d >= static_cast<std::uint64_t>(kSectorBytes)) {  // a sector per lane
                sectors = distinct = kWarpLanes;
                std::uint64_t at = a0;
                for (int i = 0; i < kWarpLanes; ++i) {
                    r.lane_sector[static_cast<std::size_t>(i)] = static_cast<std::int8_t>(i);
                    r.sector_addr[static_cast<std::size_t>(i)] = at & ~std::uint64_t{kSectorBytes - 1};
                    at += d;
                }
                r.sector_used_bytes.fill(static_cast<std::uint8_t>(ab));
            } else {  // 0 < d < 32: lane i sits in sector (off + i*d) / 32 of the first one
                const std::uint64_t off = a0 % kSectorBytes, first = a0 - off;
                std::uint64_t pos = off;
                for (int i = 0; i < kWarpLanes; ++i) {
                    r.lane_sector[static_cast<std::size_t>(i)] = static_cast<std::int8_t>(pos / kSectorBytes);
                    pos += d;
                }
                sectors = r.lane_sector[kWarpLanes - 1] + 1;
                distinct = kWarpLanes;
                // Sector k holds lanes ceil((32k - off) / d) .. ceil((32(k+1) - off) / d) - 1.
                const bool pow2 = (d & (d - 1)) == 0;
                const int shift = std::countr_zero(d);
                std::uint64_t lo = 0;
                for (int k = 0; k < sectors; ++k) {
                    const std::uint64_t end = static_cast<std::uint64_t>(k + 1) * kSectorBytes - off + d - 1;
                    const std::uint64_t hi = std::min<std::uint64_t>(kWarpLanes, pow2 ? end >> shift : end / d);
                    r.sector_addr[static_cast<std::size_t>(k)] = first + static_cast<std::uint64_t>(k) * kSectorBytes;
                    r.sector_used_bytes[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>((hi - lo) * ab);
                    lo = hi;
                }
            }
        }
    }
    // A full warp out of order is seen at once (compares that vectorise), not lane by lane: a
    // gather would leave the walk below at a random lane, a mispredicted branch per warp.
    // (Lanes 0-3 first: a gather is out of order there 23 times in 24.)
    if (!done && active == 0xffffffffu) {
        const std::uint64_t a1 = w.addr[1] & amask, a2 = w.addr[2] & amask;
        std::int64_t descending = int{a1 < (w.addr[0] & amask)} | int{a2 < a1} | int{(w.addr[3] & amask) < a2};  // addresses < 2^56
        if (descending == 0)
            for (std::size_t i = 4; i < kWarpLanes; ++i)
                descending |= static_cast<std::int64_t>(w.addr[i] & amask) < static_cast<std::int64_t>(w.addr[i - 1] & amask);
        ordered = descending == 0;
    } else if (const std::uint32_t m1 = active & (active - 1), m2 = m1 & (m1 - 1); !done && m2 != 0) {  // a partial warp's first 3 lanes
        const std::uint64_t a1 = w.addr[static_cast<std::size_t>(std::countr_zero(m1))] & amask,
                            a2 = w.addr[static_cast<std::size_t>(std::countr_zero(m2))] & amask;
        ordered = (int{a1 < (w.addr[static_cast<std::size_t>(std::countr_zero(active))] & amask)} | int{a2 < a1}) ==
                  0;  // else sorted: same answers
    }
    // Fast path: lanes already in address order (contiguous, strided, misaligned, vector, broadcast).
    std::uint64_t last = 0;
    for (std::uint32_t m = done || !ordered ? 0u : active; m; m &= m - 1) {
        const int lane = std::countr_zero(m);
        const std::uint64_t a = w.addr[static_cast<std::size_t>(lane)] & amask;
        if (a < last) {
            ordered = false;
            break;
        }
        last = a;
        step(a, lane);
    }
    // Ranks cost the same for any number of lanes; sorting a few lanes is cheaper (measured: 16 lanes).
    // (Partial warps only: taken for full ones too, even just the test, the ranked path of a wide
    // gather measured a quarter slower, from code layout rather than work.)
    if (!ordered && active != 0xffffffffu && window_may_hold(w, amask) && window_sectors(w, ab, amask, r, sectors, distinct, known_lines)) {
        done = true;  // lanes within 1 KiB: a mask of the window's sectors
    } else if (!ordered && detail::pop32(active) > kWarpLanes / 2 && ranked_sectors(w, ab, amask, r, sectors, distinct, known_lines)) {
        done = true;
    } else if (detail::SortedSectors ss{r.lane_sector, r.sector_addr, r.sector_used_bytes};
               !ordered && detail::sorted_sectors16(w.addr, amask, active, ab, ss)) {
        done = true;  // up to 16 lanes, sorted in vector registers (lane_rank.hpp)
        sectors = ss.sectors, distinct = ss.distinct, known_lines = ss.lines;
    } else if (!ordered) {
        // Start over in sorted order: keys hold the address in the high bits and the lane in the low 5.
        r.lane_sector.fill(kNoSector);
        prev_a = prev_s = ~0ull;
        sectors = distinct = 0;
        std::array<std::uint64_t, kWarpLanes> key;
        int n = 0;
        for (std::uint32_t m = active; m; m &= m - 1) {
            const int lane = std::countr_zero(m);
            key[static_cast<std::size_t>(n++)] = ((w.addr[static_cast<std::size_t>(lane)] & amask) << 5) | static_cast<std::uint64_t>(lane);
        }
        detail::sort_keys(key, n);
        for (int i = 0; i < n; ++i) step(key[static_cast<std::size_t>(i)] >> 5, static_cast<int>(key[static_cast<std::size_t>(i)] & 31u));
    }

    // Aligned accesses of one width either coincide or are disjoint, so a sector's used bytes =
    // its distinct addresses x width (a broadcast counts once).
    for (int k = 0; !done && k < sectors; ++k) {
        const int end = k + 1 < sectors ? first_distinct[static_cast<std::size_t>(k + 1)] : distinct;
        r.sector_used_bytes[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(
            static_cast<std::uint64_t>(end - first_distinct[static_cast<std::size_t>(k)]) * ab);
    }
    // Lines: 128-byte lines among the (ascending) sectors. Slots past the last sector hold 0, so the
    // whole array is compared (no bound in the loop) and the one step down to 0 is taken back.
    int lines = known_lines;
    if (lines == 0) {
        std::int64_t steps = 0;  // 64-bit compares and sums (addresses are below 2^56), which vectorise
        for (std::size_t i = 1; i < kWarpLanes; ++i)
            steps += static_cast<std::int64_t>(r.sector_addr[i] ^ r.sector_addr[i - 1]) >= std::int64_t{kLineBytes};
        lines = 1 + static_cast<int>(steps);
        if (sectors < kWarpLanes) lines -= r.sector_addr[static_cast<std::size_t>(sectors - 1)] / kLineBytes != 0;
    }
    r.requests = 1;
    r.active_lanes = detail::pop32(active);
    r.sectors = sectors;
    r.lines = lines;
    r.bytes_requested = static_cast<std::int64_t>(distinct) * static_cast<std::int64_t>(ab);
    r.lane_bytes = static_cast<std::int64_t>(r.active_lanes) * static_cast<std::int64_t>(ab);
    r.bytes_transferred = static_cast<std::int64_t>(sectors) * kSectorBytes;
    r.efficiency = static_cast<double>(r.bytes_requested) / static_cast<double>(r.bytes_transferred);
    // MODEL.md: ideal sectors = ceil(unique bytes / 32) (Nsight Compute's "ideal" sectors per request).
    r.ideal_sectors = static_cast<int>((r.bytes_requested + kSectorBytes - 1) / kSectorBytes);
    r.excess_sectors = r.sectors - r.ideal_sectors;
    return r;
}

std::string global_model_unsupported(const ArchRules& a) {
    if (a.sectors_model) return {};
    // Best Practices Guide, "Coalesced Access to Global Memory": the 32-byte-sector rules are stated
    // for compute capability 6.0 and later; Kepler/Maxwell cached global loads in L1 or the texture
    // path with 128-byte transactions depending on compiler flags, which occ does not model.
    return "cc: the coalescing model covers compute capability 6.0 and newer (32-byte sectors); cc " + num(a.cc_major) + "." +
           num(a.cc_minor) + " (" + a.family +
           ") used 128-byte L1 or 32-byte L2 transactions depending on caching flags, which occ does not model";
}

std::string global_access_unsupported(int access_bytes, const ArchRules& a) {
    if (access_bytes <= a.max_global_access_bytes) return {};
    // PTX ISA 8.8, ld / st: the 256-bit forms (.v8.b32, .v4.b64) need sm_100 or higher; ptxas refuses
    // them for sm_90 ("Feature '256 bit wide load/store' requires .target sm_100 or higher"), and nvcc
    // splits a 32-byte type (double4_32a) into two 16-byte ld.global.v4 there.
    return "access_bytes: must be 1, 2, 4, 8 or " + num(a.max_global_access_bytes) + " on cc " + num(a.cc_major) + "." + num(a.cc_minor) +
           " (" + a.family + "), got " + num(access_bytes) + "; a " + num(access_bytes) +
           "-byte lane (one 256-bit ld/st.global, .v8.b32 or .v4.b64) needs compute capability 10.0 or newer (PTX ISA 8.8, sm_100+); "
           "on this device the compiler splits it into two 16-byte accesses, so model access_bytes 16";
}

// [SECTION] Block totals, reason and fix

namespace {

// Sorted distinct addresses of one warp; returns the count and the common difference (0 if none).
int distinct_addresses(const WarpAccess& w, std::array<std::uint64_t, kWarpLanes>& out, std::int64_t& step) {
    int n = 0;
    for (int lane = 0; lane < kWarpLanes; ++lane)
        if (w.lane_active(lane)) out[static_cast<std::size_t>(n++)] = w.addr[static_cast<std::size_t>(lane)];
    std::sort(out.begin(), out.begin() + n);
    n = static_cast<int>(std::unique(out.begin(), out.begin() + n) - out.begin());
    step = 0;
    if (n >= 2) {
        step = static_cast<std::int64_t>(out[1] - out[0]);
        for (int i = 2; i < n; ++i)
            if (static_cast<std::int64_t>(out[static_cast<std::size_t>(i)] - out[static_cast<std::size_t>(i - 1)]) != step) {
                step = 0;
                break;
            }
    }
    return n;
}

// Do lanes follow the thread order with a constant step (not merely sorted)?
bool lanes_in_order(const WarpAccess& w) {
    std::uint64_t prev = 0;
    bool first = true;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
        if (!w.lane_active(lane)) continue;
        if (!first && w.addr[static_cast<std::size_t>(lane)] < prev) return false;
        prev = w.addr[static_cast<std::size_t>(lane)];
        first = false;
    }
    return true;
}

}  // namespace

GlobalBlockResult analyze_global_block(const AccessPattern& p, const ArchRules& arch) {
    GlobalBlockResult b;
    std::string refusal = global_model_unsupported(arch);
    if (refusal.empty()) refusal = global_access_unsupported(p.access_bytes, arch);
    if (!detail::start_block(b, std::move(refusal), p)) return b;
    const int nw = p.warps();
    int worst_excess = -1;
    for (int wi = 0; wi < nw; ++wi) {
        const GlobalAccessResult r = analyze_global(make_warp_access(p, wi));
        b.requests += r.requests;
        b.sectors += r.sectors;
        b.lines += r.lines;
        b.bytes_requested += r.bytes_requested;
        b.lane_bytes += r.lane_bytes;
        b.bytes_transferred += r.bytes_transferred;
        b.ideal_sectors += r.ideal_sectors;
        b.excess_sectors += r.excess_sectors;
        if (r.excess_sectors > worst_excess) {
            worst_excess = r.excess_sectors;
            b.worst_warp = wi;
        }
        b.warps.push_back(r);
    }
    b.efficiency = b.bytes_transferred > 0 ? static_cast<double>(b.bytes_requested) / static_cast<double>(b.bytes_transferred) : 0.0;
    b.contiguous_sectors = b.ideal_sectors;
    b.contiguous_efficiency = b.contiguous_sectors > 0
                                  ? static_cast<double>(b.bytes_requested) / static_cast<double>(b.contiguous_sectors * kSectorBytes)
                                  : 0.0;

    // The verdict comes from the worst warp: that is the one a user has to fix.
    const GlobalAccessResult& ww = b.warps[static_cast<std::size_t>(b.worst_warp)];
    const WarpAccess wa = make_warp_access(p, b.worst_warp);
    std::array<std::uint64_t, kWarpLanes> addrs{};
    std::int64_t step = 0;
    const int distinct = distinct_addresses(wa, addrs, step);
    const int ab = p.access_bytes;
    const std::string sect = num(ww.sectors) + (ww.sectors == 1 ? " sector" : " sectors");
    const std::string eff_now = format_percent(b.efficiency);
    const std::string eff_fix = format_percent(b.contiguous_efficiency);
    // The fix's common wording: "<how>: <lead><n> sectors per block, <eff> efficiency (now <eff>)".
    const auto set_fix = [&](const std::string& how, const char* lead) {
        b.fix = how + ": " + lead + num(b.contiguous_sectors) + " sectors per block, " + eff_fix + " efficiency (now " + eff_now + ")";
    };
    char buf[320];

    if (b.requests == 0) {
        b.verdict = GlobalVerdict::none;
        b.reason = "no active lane: no request is made";
        return b;
    }
    if (b.excess_sectors == 0) {
        if (distinct < ww.active_lanes) {
            b.verdict = GlobalVerdict::broadcast;
            std::snprintf(buf, sizeof buf,
                          "%d lanes ask for %d distinct %d-byte address%s: shared values are fetched once (broadcast), %s, nothing wasted",
                          ww.active_lanes, distinct, ab, distinct == 1 ? "" : "es", sect.c_str());
        } else {
            b.verdict = GlobalVerdict::coalesced;
            std::snprintf(buf, sizeof buf, "%d lanes %s %lld bytes that fill %s exactly: every byte moved is used (coalesced)",
                          ww.active_lanes, p.op == AccessOp::load ? "read" : "write", static_cast<long long>(ww.bytes_requested),
                          sect.c_str());
        }
        b.reason = buf;
        if (p.kind == PatternKind::index_2d && p.order == IndexOrder::row && p.block[0] < kWarpLanes && p.block[1] * p.block[2] > 1 &&
            p.row_pitch() != p.block[0]) {
            std::snprintf(buf, sizeof buf, "; note blockDim.x = %d < 32, so each warp covers %d rows and touches %d lines per request",
                          p.block[0], std::min(kWarpLanes / p.block[0], p.block[1] * p.block[2]), ww.lines);
            b.reason += buf;
        }
        return b;
    }

    const bool ordered = lanes_in_order(wa);
    if (p.kind == PatternKind::index_2d && p.order == IndexOrder::row && p.block[0] < kWarpLanes && p.block[1] * p.block[2] > 1 &&
        p.row_pitch() != p.block[0]) {
        b.verdict = GlobalVerdict::split_rows;
        const int rows = std::min(kWarpLanes / p.block[0], p.block[1] * p.block[2]);
        std::snprintf(buf, sizeof buf,
                      "blockDim.x = %d < 32: each warp covers %d rows of %d %s, %lld bytes apart, so it touches %s instead of %d",
                      p.block[0], rows, p.block[0], elem_noun(p.element_bytes()), static_cast<long long>(p.row_pitch() * p.element_bytes()),
                      sect.c_str(), ww.ideal_sectors);
        b.reason = buf;
        set_fix("make blockDim.x a multiple of 32 (e.g. " + num(kWarpLanes) + "x" + num(std::max(1, p.threads() / kWarpLanes)) +
                    ") so each warp reads one row",
                "");
        return b;
    }
    if (ordered && step == ab && distinct == ww.active_lanes) {
        b.verdict = GlobalVerdict::misaligned;
        const long long off = static_cast<long long>(addrs[0] % kSectorBytes);
        std::snprintf(buf, sizeof buf, "contiguous %lld bytes start %lld bytes past a 32-byte boundary, so they straddle %s instead of %d",
                      static_cast<long long>(ww.bytes_requested), off, sect.c_str(), ww.ideal_sectors);
        b.reason = buf;
        set_fix("align the start to 32 bytes (cudaMalloc returns 256-byte-aligned memory; keep offsets a multiple of 32 bytes)", "");
        return b;
    }
    if (step > 0 && distinct == ww.active_lanes) {
        b.verdict = GlobalVerdict::strided;
        const int eb = p.element_bytes();
        const std::int64_t elems = step % eb == 0 ? step / eb : 0;
        const double used = ww.efficiency;
        std::string usage;
        if (used >= 0.999) usage = "every sector is fully used";
        else if (std::abs(used - 0.5) < 1e-9) usage = "every sector is half used";
        else if (ww.sectors == ww.active_lanes) usage = "each lane gets a sector of its own and uses " + num(ab) + " of its 32 bytes";
        else usage = format_percent(used) + " of each sector is used";
        if (elems > 0)
            std::snprintf(buf, sizeof buf, "stride of %lld %s (%lld bytes) between lanes: %s; %s instead of %d",
                          static_cast<long long>(elems), elem_noun(eb), static_cast<long long>(step), usage.c_str(), sect.c_str(),
                          ww.ideal_sectors);
        else
            std::snprintf(buf, sizeof buf, "stride of %lld bytes between lanes: %s; %s instead of %d", static_cast<long long>(step),
                          usage.c_str(), sect.c_str(), ww.ideal_sectors);
        b.reason = buf;
        const char* how =
            p.kind == PatternKind::index_2d && p.order == IndexOrder::column
                ? "swap the indices so threadIdx.x walks a row (A[threadIdx.y * pitch + threadIdx.x]), or transpose through shared memory"
                : "make consecutive lanes access consecutive elements (structure of arrays, or stage through shared memory)";
        std::snprintf(buf, sizeof buf, "%s: %lld sectors per block instead of %lld, %s efficiency (now %s)", how,
                      static_cast<long long>(b.contiguous_sectors), static_cast<long long>(b.sectors), eff_fix.c_str(), eff_now.c_str());
        b.fix = buf;
        return b;
    }
    b.verdict = GlobalVerdict::scattered;
    std::snprintf(buf, sizeof buf, "no constant stride between lanes: %d distinct addresses land in %s (ideal %d)", distinct, sect.c_str(),
                  ww.ideal_sectors);
    b.reason = buf;
    set_fix("sort or bin the indices so each warp's lanes read neighbouring elements", "as few as ");
    return b;
}

}  // namespace occ
