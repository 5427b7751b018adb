// api_memory_tile.hpp — io-internal: pattern "tile" of the coalesce and banks requests (api_memory_tile.cpp).
#pragma once
#include "occ/io/api.hpp"

namespace occ::io {

// Reads the tile fields into r.tile; `base` is the request's base (shared tile for banks, global
// matrix for coalesce). Throws RequestError naming the field.
void read_tile_request(FieldReader& f, MemoryRequest& r, std::uint64_t base);
json tile_request_to_json(const MemoryRequest& r);  // the echo's tile fields
// The tile's totals over all its accesses; warps = the first access's instructions.
BankBlockResult analyze_tile_banks(const MemoryRequest& r, TileAnswer& t);
GlobalBlockResult analyze_tile_global(const MemoryRequest& r, TileAnswer& t);
json tile_answer_json(const MemoryRequest& r, const TileAnswer& t, bool banks);
// The fields only pattern "tile" reads (any of them selects the pattern).
inline constexpr const char* kTileKeys[] = {"tile",        "tile_access", "ldmatrix",     "cute_swizzle",
                                            "tma_swizzle", "rotate",      "global_pitch", "global_base"};
// Instructions listed in per_warp at most (a tile can take thousands).
inline constexpr int kTilePerWarpMax = 64;

}  // namespace occ::io
