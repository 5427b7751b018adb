// occ/validation/tiles.hpp — cases for the tile kernels (src/kernels_tiles.cu): ONE ldmatrix, stmatrix
// or cp.async warp instruction of a shared-memory tile laid out as occ/smem_shapes.hpp describes it
// (row-major, padded, CuTe Swizzle<B,M,S>, TMA swizzle mode). The per-lane byte offsets AND the
// expected counter values both come from occ: tile_warp_access / tile_global_access give the
// addresses, analyze_banks / analyze_global the wavefronts, conflicts and sectors.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "occ/smem_shapes.hpp"
#include "occ/validation/report.hpp"

namespace occ::validation {

struct NcuLaunch;

struct TileCase {
    std::string id;  // "tile/ldmatrix.x4/64x64h/swizzle333/w0"
    std::string description;
    Kind kind = Kind::banks;  // banks: ldmatrix/stmatrix; coalescing: cp.async (global sectors + shared wavefronts)
    TileLayout layout;
    TileAccess access;
    int warp = 0;                     // which of the tile's warp instructions is measured
    std::int64_t global_pitch = 0;    // cp.async: elements between rows of the global matrix
    int global_base = 0;              // cp.async: byte offset of the global matrix in the buffer (its 32-byte alignment counts)
    std::array<int, 32> smem{};       // byte offset per lane from the start of dynamic shared memory
    std::array<int, 32> gmem{};       // cp.async source: byte offset per lane in the global buffer
    std::uint32_t mask = 0;           // lanes occ counts (ldmatrix .xN: lanes 0..8N-1; cp.async: lanes with a chunk)
    std::string kernel() const;       // extern "C" name in kernels_tiles.cu, e.g. "occv_ldmatrix_x4_trans"
    int min_cc() const;               // 75 ldmatrix, 80 cp.async, 90 stmatrix
    std::int64_t smem_bytes() const;  // dynamic shared memory the launch needs
    json inputs() const;
};

struct TilePrediction {
    std::int64_t instructions = 0;                                     // warp instructions with an active lane (0 or 1)
    std::int64_t wavefronts = 0, ideal_wavefronts = 0, conflicts = 0;  // shared side
    int max_way = 0;
    std::int64_t requests = 0, sectors = 0;  // global side (cp.async)
    std::int64_t source_extra = 0;           // cp.async: shared wavefronts its global sectors add (tile_banks)
};

// The quick set is a subset of the full one. Every case passes validate_tile_case.
std::vector<TileCase> tile_cases(bool quick);
// Empty when the case is well-formed; otherwise what is wrong.
std::string validate_tile_case(const TileCase& c);
TilePrediction predict_tile(const TileCase& c);

// Counters for one kind of tile instruction on a chip of SASS architecture `sm` (80, 86, 89, 90, 100,
// 120), in the order of tile_result's checks: instructions, then wavefronts and bank conflicts (matrices)
// or requests, sectors, wavefronts and bank conflicts (cp.async). "" where that chip has no such counter
// (STSM instructions anywhere; STSM and LDGSTS global counters before sm_90). `--dry-run` configures them.
std::vector<std::string> tile_metrics(const TileAccess& a, int sm);
// The union for one chip: one CUPTI configuration.
std::vector<std::string> cupti_tile_metrics(int sm);

// A tile case's report entry; `launch` nullptr: not measured (every check has only occ's value).
Case tile_result(const TileCase& c, const NcuLaunch* launch, int sm);

}  // namespace occ::validation
