// occ/coalescing.hpp — how a warp's global-memory access becomes 32-byte sectors (cc >= 6.0).
//
// [SECTION] WarpAccess: one warp-level instruction, 32 lanes of byte addresses
// [SECTION] AccessPattern: the ways a user describes a block's access (addresses, affine, 2-D, gather)
// [SECTION] analyze_global: one warp -> requests, sectors, lines, bytes (hot path, no allocation)
// [SECTION] analyze_global_block: every warp of a block + totals, reason and fix (allocates)
//
// The rules (cited in coalescing.cpp):
//   one warp-level instruction with at least one active lane = one request
//   sectors = distinct 32-byte-aligned sectors touched by active lanes; lines = distinct 128-byte lines
//   ideal sectors = ceil(distinct bytes requested / 32); excess = sectors - ideal
//   a naturally aligned 32-byte lane (cc 10.0+) fills exactly one sector; a 128-byte line holds 4 such lanes
//   lanes are numbered threadIdx.x fastest, then y, then z; warp w = linear threads 32w .. 32w+31
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "occ/device.hpp"

namespace occ {

// [SECTION] Constants
inline constexpr int kWarpLanes = 32;
// CUDA C++ Best Practices Guide, "Coalesced Access to Global Memory": 32-byte segments (sectors)
// from compute capability 6.0; L1/L2 lines are 128 bytes = 4 sectors (Nsight Compute memory tables).
inline constexpr int kSectorBytes = 32;
inline constexpr int kLineBytes = 128;

enum class AccessOp : std::uint8_t { load, store };
const char* access_op_name(AccessOp op);  // "load" / "store"

// The widest lane: 32 bytes, one 256-bit ld/st.global (.v8.b32, .v4.b64; CUDA 13's double4_32a and
// the other *_32a types), global memory only and compute capability 10.0 and newer
// (ArchRules::max_global_access_bytes).
inline constexpr int kWideAccessBytes = 32;

// True for 1, 2, 4, 8, 16: the widths a CUDA lane loads or stores in one instruction on every
// architecture, in global and in shared memory.
bool valid_access_bytes(int bytes);
// valid_access_bytes, or 32 (kWideAccessBytes): the widths the global model counts. Whether the
// device has 32-byte lanes is global_access_unsupported's question.
bool valid_global_access_bytes(int bytes);

// [SECTION] WarpAccess
// One warp-level instruction. Lane i is active when bit i of `active` is set; inactive lanes'
// addresses are ignored. Every active lane's address must be a multiple of access_bytes (CUDA
// requires naturally aligned accesses; check_warp_access reports the first lane that is not).
struct WarpAccess {
    std::array<std::uint64_t, kWarpLanes> addr{};  // byte address per lane
    std::uint32_t active = 0xffffffffu;            // lane mask
    int access_bytes = 4;                          // 1, 2, 4, 8, 16 or 32 (32: global, cc 10.0+)
    AccessOp op = AccessOp::load;

    bool lane_active(int lane) const { return (active >> lane) & 1u; }
};

// Empty when the access is well formed; else a readable reason (bad width, misaligned lane).
std::string check_warp_access(const WarpAccess& w);

// [SECTION] AccessPattern
enum class PatternKind : std::uint8_t {
    addresses,  // explicit per-lane byte addresses (one warp); inactive lanes via active_lanes
    affine,     // addr = base + offset + t * stride * elem_bytes        (t = linear thread index)
    index_2d,   // addr = base + offset + (row * pitch + col') * elem_bytes
                //   order row:    row = threadIdx.y, col = threadIdx.x   (z adds block_y rows)
                //   order column: row = threadIdx.x, col = threadIdx.y
                //   col' = swizzle ? col ^ (row mod P) : col, P = largest power of two <= pitch
    gather,     // addr = base + offset + idx(t) * elem_bytes; idx = a random permutation of the
                //   block's threads (range 0) or uniform random in [0, range); splitmix64(seed)
};
const char* pattern_kind_name(PatternKind k);  // "addresses", "affine", "2d", "gather"

enum class IndexOrder : std::uint8_t { row, column };

// A block's access, described the way a user thinks of it. make_warp_access turns it into WarpAccess.
struct AccessPattern {
    PatternKind kind = PatternKind::affine;
    int access_bytes = 4;  // bytes each lane moves (1, 2, 4, 8, 16; 32 in global memory on cc 10.0+)
    int elem_bytes = 0;    // element size for index arithmetic (1..32, a power of two); 0 = access_bytes
    AccessOp op = AccessOp::load;
    int block[3] = {32, 1, 1};                 // blockDim; threads = x*y*z (1..1024)
    std::uint32_t active_lanes = 0xffffffffu;  // applied to every warp
    std::uint64_t base = 0;                    // bytes
    std::int64_t offset = 0;                   // bytes added to every address (misalignment experiments)
    std::int64_t stride = 1;                   // affine: elements between consecutive threads
    std::int64_t pitch = 0;                    // 2-D: elements per row (0 = the block's extent along col)
    std::int64_t pad = 0;                      // 2-D: elements added to pitch (the "+1" of a 32x33 tile)
    bool swizzle = false;                      // 2-D: XOR-swizzle the column with the row
    IndexOrder order = IndexOrder::row;
    std::uint64_t seed = 1;                             // gather
    std::int64_t range = 0;                             // gather: elements; 0 = permutation of the block's threads
    std::array<std::uint64_t, kWarpLanes> addresses{};  // kind addresses

    int threads() const { return block[0] * block[1] * block[2]; }
    int warps() const { return (threads() + kWarpLanes - 1) / kWarpLanes; }
    int element_bytes() const { return elem_bytes > 0 ? elem_bytes : access_bytes; }
    std::int64_t row_pitch() const;  // effective pitch incl. pad, in elements
};

// Empty when the pattern is usable; else "field: allowed range, got X" style messages that name
// the AccessPattern field (block, access_bytes, stride, ...).
std::string check_pattern(const AccessPattern& p);

// The access of warp `warp` (0-based) of the block. Lanes past the block's last thread are inactive.
// Precondition: check_pattern(p) is empty. No heap allocation (a gather permutation is rebuilt in a
// fixed stack array on each call, O(threads)).
WarpAccess make_warp_access(const AccessPattern& p, int warp);

// [SECTION] analyze_global
inline constexpr std::int8_t kNoSector = -1;

struct GlobalAccessResult {
    int requests = 0;  // 1 when any lane is active, else 0
    int active_lanes = 0;
    int sectors = 0;                     // distinct 32-byte sectors
    int lines = 0;                       // distinct 128-byte lines
    std::int64_t bytes_requested = 0;    // distinct bytes the active lanes ask for (a broadcast counts once)
    std::int64_t lane_bytes = 0;         // active lanes x access_bytes (duplicates counted)
    std::int64_t bytes_transferred = 0;  // sectors x 32
    double efficiency = 0.0;             // bytes_requested / bytes_transferred (0 with no active lane)
    int ideal_sectors = 0;               // ceil(bytes_requested / 32)
    int excess_sectors = 0;              // sectors - ideal_sectors
    // For pictures: lane -> index into sector_addr (kNoSector for an inactive lane); sectors are
    // numbered in ascending address order. sector_addr[i] = byte address of sector i (i < sectors).
    std::array<std::int8_t, kWarpLanes> lane_sector{};
    std::array<std::uint64_t, kWarpLanes> sector_addr{};
    // Bytes of each sector that some active lane asked for (0..32), i < sectors.
    std::array<std::uint8_t, kWarpLanes> sector_used_bytes{};
};

// One warp. Pure, no allocation, no strings. Precondition: check_warp_access(w) is empty
// (a misaligned lane is rounded down to its natural alignment). Full warps at a constant step take a
// closed-form path; anything else is sorted by address (both exact).
GlobalAccessResult analyze_global(const WarpAccess& w);

// Empty when the global model covers this architecture (ArchRules::sectors_model); else why it does not.
std::string global_model_unsupported(const ArchRules& a);
// Empty when a lane of access_bytes is one global load/store on this architecture; else why not
// (32-byte lanes before compute capability 10.0), naming the field, the widths allowed and the fix.
std::string global_access_unsupported(int access_bytes, const ArchRules& a);

// [SECTION] analyze_global_block
enum class GlobalVerdict : std::uint8_t {
    none,        // no active lane
    coalesced,   // sectors == ideal, every moved byte is used
    broadcast,   // several lanes share addresses; still no excess
    misaligned,  // contiguous, but the span starts off a 32-byte boundary: +1 sector
    strided,     // a constant stride > 1 element leaves sectors part used
    split_rows,  // 2-D block with blockDim.x < 32 (row order): a warp spans several rows
    scattered,   // no constant stride (gather, permutation)
};
const char* global_verdict_name(GlobalVerdict v);

struct GlobalBlockResult {
    std::vector<GlobalAccessResult> warps;  // one per warp of the block
    int requests = 0;
    std::int64_t sectors = 0;
    std::int64_t lines = 0;
    std::int64_t bytes_requested = 0;
    std::int64_t lane_bytes = 0;
    std::int64_t bytes_transferred = 0;
    double efficiency = 0.0;
    std::int64_t ideal_sectors = 0;
    std::int64_t excess_sectors = 0;
    int worst_warp = 0;  // the warp with most excess sectors (first on ties)
    GlobalVerdict verdict = GlobalVerdict::none;
    // The fix: the same lanes reading consecutive, 32-byte-aligned elements.
    std::int64_t contiguous_sectors = 0;
    double contiguous_efficiency = 0.0;
    std::string reason;  // "stride of 2 floats: every sector is half used"
    std::string fix;     // "" when nothing to fix
    std::string error;   // non-empty: the inputs were refused; other fields are zero
    bool ok() const { return error.empty(); }
};

GlobalBlockResult analyze_global_block(const AccessPattern& p, const ArchRules& arch);

}  // namespace occ
