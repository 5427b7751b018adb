// tile_print.cpp — the human picture of pattern "tile" for `occ banks` and `occ coalesce`: the layout,
// each access's totals, the swizzle solver's answer and the tile's 16-byte chunks before and after it.
#include <cstdio>
#include <string>

#include "cli.hpp"
#include "occ/io/api.hpp"

namespace occ::cli {

void print_wrapped(const char* label, const std::string& text);
char index_char(int i);

std::string describe_tile(const io::TileRequest& t) {
    const TileLayout& L = t.layout;
    std::string s = "tile " + std::to_string(L.rows) + "x" + std::to_string(L.cols) + " of " + std::to_string(L.elem_bytes) +
                    "-byte elements";
    if (L.pad) s += " + pad " + std::to_string(L.pad);
    if (L.swizzle.bits) s += ", " + cute_swizzle_type(L.swizzle);
    if (L.tma != TmaSwizzle::none) s += std::string(", TMA ") + tma_swizzle_name(L.tma) + " swizzle";
    if (L.xor_rows) s += ", col ^ row";
    if (L.rotate) s += ", rotated in chunks of " + std::to_string(L.rotate);
    if (t.global_base_given) s += ", copied from global byte " + std::to_string(*t.global_base_given);
    s += "; accesses";
    for (std::size_t i = 0; i < t.accesses.size(); ++i) {
        const TileAccess& a = t.accesses[i];
        s += (i ? ", " : " ") + tile_access_name(a);
        if (a.kind == TileAccessKind::row || a.kind == TileAccessKind::cp_async) s += " (" + std::to_string(a.bytes) + " B/lane)";
    }
    return s;
}

namespace {

// Rows 0..7 of the tile, one character per 16-byte chunk of a row: which 16-byte group of banks
// (0-7: banks 0-3, 4-7, ...) the chunk's first element lands in. Equal characters down a column
// are what an 8-row ldmatrix phase collides on.
void print_chunk_map(const char* title, const TileLayout& L) {
    const int chunks = std::min(16, L.cols * L.elem_bytes / 16);
    if (chunks < 1) return;
    const int rows = std::min(8, L.rows);
    std::printf("\n  %s: bank group (bank / 4) per 16-byte chunk, rows 0-%d\n", title, rows - 1);
    for (int r = 0; r < rows; ++r) {
        std::string line;
        for (int k = 0; k < chunks; ++k) {
            const std::uint64_t a = tile_byte_address(L, r, k * 16 / L.elem_bytes);
            if (k) line += ' ';
            line += index_char(static_cast<int>((a / 16) % 8));
        }
        std::printf("  row %d   %s\n", r, line.c_str());
    }
}

}  // namespace

void print_tile_banks(const io::BanksAnswer& a) {
    const io::TileAnswer& t = *a.tile;
    const TileLayout& L = a.input.tile->layout;
    std::printf("\n  %-22s %6s %10s %8s %9s %5s\n", "access", "instr", "wavefronts", "ideal", "conflicts", "way");
    for (const io::TileAccessCount& c : t.accesses)
        std::printf("  %-22s %6d %10lld %8lld %9lld %5d\n", tile_access_name(c.access).c_str(), c.instructions,
                    static_cast<long long>(c.wavefronts), static_cast<long long>(c.ideal_wavefronts), static_cast<long long>(c.conflicts),
                    c.max_way);
    const SwizzleSolution& s = t.solution;
    std::printf("\n  solver  %s  %s\n", s.zero ? "zero conflicts with" : "no swizzle reaches zero; least conflicts with", s.type.c_str());
    std::printf("          index   %s\n", s.expression.c_str());
    std::printf("          TMA     %s\n", s.tma == TmaSwizzle::none ? "no TMA swizzle mode writes this layout" : tma_swizzle_name(s.tma));
    std::printf("          conflicts %lld (row-major: %lld), %d swizzles tried\n", static_cast<long long>(s.conflicts),
                static_cast<long long>(s.conflicts_plain), s.candidates);
    print_chunk_map("this layout", L);
    if (s.swizzle.bits > 0 && !(s.swizzle == L.swizzle)) {
        TileLayout fixed = L;
        fixed.pad = 0;
        fixed.xor_rows = false;
        fixed.rotate = 0;
        fixed.tma = TmaSwizzle::none;
        fixed.swizzle = s.swizzle;
        print_chunk_map(("with " + s.type).c_str(), fixed);
    }
}

void print_tile_coalesce(const io::CoalesceAnswer& a) {
    std::printf("\n  %-22s %6s %8s %8s %6s\n", "access", "instr", "sectors", "ideal", "lines");
    for (const io::TileAccessCount& c : a.tile->accesses)
        std::printf("  %-22s %6d %8lld %8lld %6lld\n", tile_access_name(c.access).c_str(), c.instructions,
                    static_cast<long long>(c.sectors), static_cast<long long>(c.ideal_sectors), static_cast<long long>(c.lines));
}

}  // namespace occ::cli
