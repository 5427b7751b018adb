// swizzle_solver.cpp — the smallest CuTe swizzle that leaves no bank conflict on a tile's accesses
// (see occ/smem_shapes.hpp). Every candidate is counted by the bank model itself (tile_banks).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>

#include "occ/smem_shapes.hpp"

namespace occ {

namespace {

// Conflicts of every access on layout t, stopping once the total passes `limit`.
std::int64_t total_conflicts(const TileLayout& t, std::span<const TileAccess> accesses, std::int64_t limit,
                             std::vector<std::int64_t>* per) {
    std::int64_t sum = 0;
    for (const TileAccess& a : accesses) {
        const std::int64_t c = tile_banks(t, a).conflicts;
        sum += c;
        if (per) per->push_back(c);
        if (sum > limit) return sum;
    }
    return sum;
}

int widest_bytes(int elem_bytes, std::span<const TileAccess> accesses) {
    int v = elem_bytes;
    for (const TileAccess& a : accesses)
        v = std::max(v, a.kind == TileAccessKind::column                                           ? elem_bytes
                        : a.kind == TileAccessKind::ldmatrix || a.kind == TileAccessKind::stmatrix ? 16
                                                                                                   : a.bytes);
    return v;
}

}  // namespace

SwizzleSolution solve_swizzle(int rows, int cols, int elem_bytes, std::span<const TileAccess> accesses) {
    SwizzleSolution s;
    TileLayout plain;
    plain.rows = rows;
    plain.cols = cols;
    plain.elem_bytes = elem_bytes;
    if (std::string e = check_tile_layout(plain); !e.empty()) {
        s.error = std::move(e);
        return s;
    }
    if (accesses.empty()) {
        s.error = "access: give at least one access to the tile (row, column, ldmatrix.x4, ...)";
        return s;
    }
    for (const TileAccess& a : accesses)
        if (std::string e = check_tile_access(plain, a); !e.empty()) {
            s.error = std::move(e);
            return s;
        }

    s.conflicts_plain = total_conflicts(plain, accesses, std::numeric_limits<std::int64_t>::max(), &s.per_access_plain);
    s.swizzle = {};
    s.conflicts = s.conflicts_plain;
    s.candidates = 1;
    if (s.conflicts_plain > 0) {
        // Candidates keep each access's bytes together (2^M * elem_bytes >= the widest access), change
        // only bits whose aligned blocks tile the tile (M + B <= the tile's trailing zero bits), and read
        // bits that some offset of the tile has (M + S + B <= bit width of rows * cols).
        const std::int64_t elems = std::int64_t{rows} * cols;
        const int tz = std::countr_zero(static_cast<std::uint64_t>(elems));
        const int width = std::bit_width(static_cast<std::uint64_t>(elems - 1));
        const int m0 = std::countr_zero(static_cast<unsigned>(widest_bytes(elem_bytes, accesses) / elem_bytes));
        bool done = false;
        for (int b = 1; b <= 8 && !done; ++b)
            for (int sh = b; sh <= 16 && !done; ++sh)
                for (int m = m0; m + b <= tz && m + sh + b <= width && !done; ++m) {
                    TileLayout t = plain;
                    t.swizzle = CuteSwizzle{b, m, sh};
                    ++s.candidates;
                    const std::int64_t c = total_conflicts(t, accesses, s.conflicts - 1, nullptr);
                    if (c < s.conflicts) {
                        s.conflicts = c;
                        s.swizzle = t.swizzle;
                        done = c == 0;
                    }
                }
    }
    s.zero = s.conflicts == 0;
    TileLayout best = plain;
    best.swizzle = s.swizzle;
    total_conflicts(best, accesses, std::numeric_limits<std::int64_t>::max(), &s.per_access);
    const TmaSwizzle tma = tma_mode_of(s.swizzle, elem_bytes);
    if (tma != TmaSwizzle::none && std::int64_t{cols} * elem_bytes <= tma_swizzle_span(tma)) s.tma = tma;
    s.type = cute_swizzle_type(s.swizzle);
    s.expression = swizzle_index_expression(s.swizzle);
    return s;
}

}  // namespace occ
