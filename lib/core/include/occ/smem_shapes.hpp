// occ/smem_shapes.hpp — shared-memory tiles the way modern kernels lay them out and touch them.
//
// [SECTION] CuTe Swizzle<B,M,S> and the TMA swizzle modes
// [SECTION] TileLayout: rows x columns of elements, padding, col ^ row, a CuTe swizzle or a TMA mode
// [SECTION] TileAccess: row (vector) and column accesses, ldmatrix/stmatrix, cp.async
// [SECTION] Analysis: every warp instruction that covers the tile, counted by analyze_banks / analyze_global
// [SECTION] The swizzle solver
//
// The rules (cited in smem_shapes.cpp):
//   Swizzle<B,M,S>(i) = i ^ ((i & yyy) >> S), yyy = ((1 << B) - 1) << (M + S)      (CuTe swizzle.hpp)
//   TMA 32B / 64B / 128B swizzle = Swizzle<1,4,3> / <2,4,3> / <3,4,3> on byte offsets (CUTLASS
//     copy_traits_sm90_tma_swizzle.hpp: M = 4 is the 16-byte unit; PTX ISA "tensor swizzling modes")
//   TMA 128B_ATOM_32B = Swizzle<2,5,2>, 128B_ATOM_64B = Swizzle<1,6,1>, 128B_ATOM_32B_FLIP_8B =
//     Swizzle<2,5,2> and the 8-byte halves of each 16 bytes swapped on odd 128-byte rows (cuda.h
//     CUtensorMapSwizzle; CUTLASS get_tma_swizzle_base, mma_sm100_desc.hpp)
//   rotation: chunk c of row r moves to (c + r) mod (columns / chunk)
//   cp.async's shared side: at least one wavefront per 4 global sectors it reads (reported counter measurements; cuda_validation's "cp.async source" cases)
//   ldmatrix/stmatrix .xN: lanes 8k..8k+7 give the 16-byte row addresses of matrix k (PTX ISA, ldmatrix);
//     a 16-byte access runs as 4 phases of 8 lanes, so each matrix is one phase (one wavefront ideal)
//   cp.async: 4, 8 or 16 bytes per lane (PTX ISA cp-size); the global side is sectors, the shared side
//     wavefronts of a store of that width
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "occ/banks.hpp"
#include "occ/coalescing.hpp"

namespace occ {

// [SECTION] Swizzles

// CuTe's Swizzle<BBits, MBase, SShift>, applied to an offset in elements (composition with a
// row-major layout). bits = 0 is the identity.
struct CuteSwizzle {
    int bits = 0;   // B: how many bits are XORed
    int base = 0;   // M: low bits kept constant (2^M elements stay together)
    int shift = 0;  // S: distance from the bits read (YYY) to the bits changed (ZZZ); |S| >= B
    bool operator==(const CuteSwizzle&) const = default;
};

// The ranges check_swizzle and check_tile_layout accept (the UI's inputs clamp to the same).
inline constexpr int kMaxSwizzleBits = 8;    // B
inline constexpr int kMaxSwizzleBase = 16;   // M
inline constexpr int kMaxSwizzleShift = 16;  // |S|
inline constexpr int kMaxTileDim = 1024;     // rows, columns (elements)
inline constexpr int kMaxTilePad = 1024;     // elements

std::int64_t swizzle_apply(const CuteSwizzle& s, std::int64_t offset);
// Empty when usable: B 0..8, M 0..16, |S| >= B, |S| <= 16.
std::string check_swizzle(const CuteSwizzle& s);
// "Swizzle<3,3,3>", "Sw<3,3,3>", "cute::Swizzle<3,3,3>" or "3,3,3" (spaces allowed). False on anything else.
bool parse_cute_swizzle(std::string_view text, CuteSwizzle& out);
std::string cute_swizzle_type(const CuteSwizzle& s);  // "cute::Swizzle<3,3,3>"
// The same map as an index expression on the element offset i: "i ^ ((i >> 3) & 0x38)" ("i" for B = 0).
std::string swizzle_index_expression(const CuteSwizzle& s);
// Lowest and one-past-highest bit the swizzle may change (ZZZ): [low, high).
int swizzle_low_bit(const CuteSwizzle& s);
int swizzle_high_bit(const CuteSwizzle& s);

// CUtensorMapSwizzle, in the enum's order (the 128B_ATOM_* modes: CUDA 12.8+, Blackwell).
enum class TmaSwizzle : std::uint8_t { none, b32, b64, b128, b128_atom32, b128_atom32_flip8, b128_atom64 };
inline constexpr int kTmaSwizzleModes = 7;
// "none", "32B", "64B", "128B", "128B_ATOM_32B", "128B_ATOM_32B_FLIP_8B", "128B_ATOM_64B"
const char* tma_swizzle_name(TmaSwizzle t);
// A name above in any case, with or without the CU_TENSOR_MAP_SWIZZLE_ prefix. False on anything else.
bool parse_tma_swizzle(std::string_view text, TmaSwizzle& out);
int tma_swizzle_span(TmaSwizzle t);  // 0, 32, 64, 128 bytes (128 for every 128B_* mode)
// The unit kept together: 16 bytes; 32 and 64 for the ATOM modes; 8 for FLIP_8B (its 8-byte halves move).
int tma_swizzle_atom(TmaSwizzle t);
// Bytes after which the pattern repeats (and the tile's base alignment): 256, 512 or 1024.
int tma_swizzle_repeat(TmaSwizzle t);
// The XOR part on byte offsets: Swizzle<1|2|3, 4, 3>, <2,5,2> (ATOM_32B, FLIP_8B), <1,6,1> (ATOM_64B).
CuteSwizzle tma_swizzle_bytes(TmaSwizzle t);
// The whole mode on a byte offset (tma_swizzle_bytes, and FLIP_8B's swap of 8-byte halves on odd rows).
std::int64_t tma_swizzle_apply(TmaSwizzle t, std::int64_t byte_offset);
// The element-offset swizzle equal to a TMA mode for elements of elem_bytes (a power of two <= 16).
CuteSwizzle tma_swizzle_elements(TmaSwizzle t, int elem_bytes);
// The TMA mode whose layout equals `s` on elements of elem_bytes; none when no mode matches.
TmaSwizzle tma_mode_of(const CuteSwizzle& s, int elem_bytes);

// [SECTION] TileLayout
struct TileLayout {
    int rows = 32, cols = 32;           // elements
    int elem_bytes = 4;                 // 1, 2, 4, 8, 16
    int pad = 0;                        // elements added to each row (tile[rows][cols + pad])
    bool xor_rows = false;              // col' = col ^ (row mod P), P = largest power of two <= pitch
    int rotate = 0;                     // rotation: chunks of `rotate` elements, chunk c of row r -> (c + r) mod chunks; 0 = off
    CuteSwizzle swizzle;                // on the element offset row * pitch + col
    TmaSwizzle tma = TmaSwizzle::none;  // on the byte offset, as TMA writes the tile
    std::uint64_t base = 0;             // byte address of element (0, 0) in shared memory
    int pitch() const { return cols + pad; }
};
// Empty when usable; else "field: allowed range, got X" naming the request field (tile, pad, cute_swizzle, ...).
std::string check_tile_layout(const TileLayout& t);
// Byte address of element (row, col). Precondition: check_tile_layout(t) is empty.
std::uint64_t tile_byte_address(const TileLayout& t, int row, int col);

// [SECTION] TileAccess
enum class TileAccessKind : std::uint8_t {
    row,       // lane k of the block moves `bytes` at chunk k of the row-major tile (vector rows)
    column,    // lane l reads element (32 * block + l, c): threadIdx.x walks down a column
    ldmatrix,  // ldmatrix.sync.aligned.m8n8.xN{.trans}: 16-byte matrix rows
    stmatrix,  // stmatrix.sync.aligned.m8n8.xN{.trans}
    cp_async,  // cp.async.{ca,cg}.shared.global of `bytes` per lane, chunks as `row`
};
struct TileAccess {
    TileAccessKind kind = TileAccessKind::row;
    int bytes = 4;       // row / cp_async: bytes per lane; column: the element size; matrices: 16
    int matrices = 4;    // ldmatrix / stmatrix: 1, 2 or 4
    bool trans = false;  // .trans: changes which register gets which element, not the addresses
};
// "row", "column", "ldmatrix.x4", "ldmatrix.x2.trans", "stmatrix.x4", "cp_async"; bytes from `access_bytes`
// (column: elem_bytes). False on an unknown name.
bool parse_tile_access(std::string_view name, int access_bytes, int elem_bytes, TileAccess& out);
std::string tile_access_name(const TileAccess& a);  // the spelling parse_tile_access takes
// Empty when the access fits the layout (widths, alignment, tile divisible into the access's steps).
std::string check_tile_access(const TileLayout& t, const TileAccess& a);
// Warp instructions that cover the whole tile once.
int tile_access_warps(const TileLayout& t, const TileAccess& a);
// Shared-memory side of instruction `warp`. Precondition: both checks empty.
WarpAccess tile_warp_access(const TileLayout& t, const TileAccess& a, int warp);
// Global side (row, column, cp_async): the same lanes on a row-major global matrix whose rows are
// global_pitch elements apart, starting at byte address global_base.
WarpAccess tile_global_access(const TileLayout& t, const TileAccess& a, int warp, std::int64_t global_pitch, std::uint64_t global_base);

// [SECTION] Analysis
struct TileBankTotals {
    int warps = 0;
    std::int64_t wavefronts = 0, ideal_wavefronts = 0, conflicts = 0;
    int max_way = 0;
    int worst_warp = 0;  // most conflicts, first on ties
    // cp.async with a source: wavefronts its global sectors need (one per 4), and those beyond the bank
    // model's (already in wavefronts and conflicts).
    std::int64_t source_wavefronts = 0, source_extra = 0;
};
// Where a cp.async reads from: a row-major global matrix, rows global_pitch elements apart (0 = the
// tile's columns), element (0, 0) at byte address global_base.
struct TileSource {
    std::int64_t global_pitch = 0;
    std::uint64_t global_base = 0;
};
// Wavefronts the shared side of one cp.async needs for the global sectors it reads: ceil(sectors / 4).
int cp_async_source_wavefronts(int sectors);
// Shared side of every instruction; `keep` (optional) gets each instruction's BankResult. With a
// `source`, each cp.async instruction costs at least cp_async_source_wavefronts of its global side.
TileBankTotals tile_banks(const TileLayout& t, const TileAccess& a, std::vector<BankResult>* keep = nullptr,
                          const TileSource* source = nullptr);

// [SECTION] Solver
struct SwizzleSolution {
    bool zero = false;                     // a swizzle with zero conflicts on every access exists (this one)
    CuteSwizzle swizzle;                   // the smallest zero-conflict swizzle, else the least-conflict one
    std::int64_t conflicts = 0;            // over all accesses, with `swizzle`
    std::int64_t conflicts_plain = 0;      // over all accesses, plain row-major (no swizzle, no pad)
    std::vector<std::int64_t> per_access;  // with `swizzle`, in the order given
    std::vector<std::int64_t> per_access_plain;
    TmaSwizzle tma = TmaSwizzle::none;  // the TMA mode that writes this layout (rows <= its span), else none
    int candidates = 0;                 // swizzles tried
    std::string type, expression;       // cute_swizzle_type / swizzle_index_expression of `swizzle`
    std::string error;
    bool ok() const { return error.empty(); }
};
// For a rows x cols tile of elem_bytes and the accesses made to it, the smallest Swizzle<B,M,S>
// (fewest bits B, then smallest S, then smallest M) with zero conflicts on every access. Candidates
// keep every access's bytes together (2^M * elem_bytes >= widest access) and stay inside the tile.
SwizzleSolution solve_swizzle(int rows, int cols, int elem_bytes, std::span<const TileAccess> accesses);

}  // namespace occ
