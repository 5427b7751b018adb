// view_memory_tile.cpp — the Memory tab's shared-memory tile (occ/smem_shapes.hpp): rows x columns of
// elements, a layout (row-major, padding, CuTe Swizzle<B,M,S>, a TMA swizzle mode, col ^ row), the
// accesses made to it (rows, columns, ldmatrix, cp.async) with their wavefronts and conflicts, and the
// swizzle solver's fix: the tile's 16-byte chunks coloured by bank group before and after it. The
// inputs are AppState::memory_tile (ui.memory_tile of the scenario); the counts come from the refresh step.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "occ/smem_shapes.hpp"
#include "plot.hpp"
#include "views.hpp"

namespace occ::ui {
namespace {

constexpr int kBytes[] = {1, 2, 4, 8, 16};
constexpr const char* kBytesText =
    "1\0"
    "2\0"
    "4\0"
    "8\0"
    "16\0";

int bytes_index(int b) {
    for (int i = 0; i < 5; ++i)
        if (kBytes[i] == b) return i;
    return 2;
}

// Swizzle<B,M,S> kept in check_swizzle's ranges (B 0..8, M 0..16, B <= |S| <= 16), as the scenario reads it.
void clamp_swizzle(int (&c)[3]) {
    c[0] = std::clamp(c[0], 0, kMaxSwizzleBits);
    c[1] = std::clamp(c[1], 0, kMaxSwizzleBase);
    c[2] = std::clamp(c[2], -kMaxSwizzleShift, kMaxSwizzleShift);
    if (std::abs(c[2]) < c[0]) c[2] = c[2] < 0 ? -c[0] : c[0];
}

// Rows 0..7, one cell per 16-byte chunk: its colour is the group of 4 banks the chunk starts in.
// Cells of one colour down a column are what the 8 rows of an ldmatrix phase collide on.
void chunk_grid(const char* id, const char* title, const TileLayout& L) {
    const int chunks = std::min(16, L.cols * L.elem_bytes / 16), rows = std::min(8, L.rows);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(title);
    ImGui::PopTextWrapPos();
    if (chunks < 1) {
        ImGui::TextDisabled("rows narrower than 16 bytes");
        return;
    }
    const float cell = std::min(em(1.6f), (ImGui::GetContentRegionAvail().x - 1) / static_cast<float>(chunks));
    plot::begin(id, ImVec2(cell * static_cast<float>(chunks), cell * static_cast<float>(rows)), plot::Axis{0, static_cast<double>(chunks)},
                plot::Axis{static_cast<double>(rows), 0}, plot::kNoAxes);
    for (int r = 0; r < rows; ++r)
        for (int k = 0; k < chunks; ++k) {
            const int group = static_cast<int>((tile_byte_address(L, r, k * 16 / L.elem_bytes) / 16) % 8);
            plot::rect(k, r, k + 1, r + 1, block_color(group, 0.85f), IM_COL32(0, 0, 0, 90));
            char num[4];
            std::snprintf(num, sizeof num, "%d", group);
            plot::text(k + 0.5, r + 0.5, num, IM_COL32(0, 0, 0, 230), ImVec2(0.5f, 0.5f));
        }
    plot::end();
}

}  // namespace

void memory_tile_panel(AppState& s) {
    MemoryTileInputs& in = s.memory_tile;
    bool changed = false;
    section("Shared-memory tile and swizzle solver");
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("A tile as CuTe lays it out and the accesses made to it (occ banks --tile).");
    ImGui::PopTextWrapPos();
    ImGui::SetNextItemWidth(em(9));
    int rc[2] = {in.rows, in.cols};
    if (ImGui::InputInt2("rows x cols##tile", rc)) {
        in.rows = std::clamp(rc[0], 1, kMaxTileDim);
        in.cols = std::clamp(rc[1], 1, kMaxTileDim);
        changed = true;
    }
    int eb = bytes_index(in.elem_bytes), ab = bytes_index(in.access_bytes);
    ImGui::SetNextItemWidth(em(4));
    if (ImGui::Combo("element bytes##tile", &eb, kBytesText)) {
        in.elem_bytes = kBytes[eb];
        changed = true;
    }
    ImGui::SetNextItemWidth(em(4));
    if (ImGui::Combo("row / cp.async bytes##tile", &ab, kBytesText)) {
        in.access_bytes = kBytes[ab];
        changed = true;
    }
    item_tooltip("Bytes each lane moves in a row write or a cp.async (8 and 16: vector rows).");
    changed |= ImGui::Checkbox("ldmatrix##tile", &in.ldmatrix);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(em(4));
    changed |= ImGui::Combo("##tile_x", &in.matrices, "x1\0x2\0x4\0");
    ImGui::SameLine();
    changed |= ImGui::Checkbox(".trans##tile", &in.trans);
    changed |= ImGui::Checkbox("row##tile", &in.row);
    ImGui::SameLine();
    changed |= ImGui::Checkbox("cp.async##tile", &in.cp_async);
    ImGui::SameLine();
    changed |= ImGui::Checkbox("column##tile", &in.column);
    ImGui::SetNextItemWidth(em(9));
    if (in.cp_async) {
        TypedField f{&io::fields::global_base, 0, io::fields::global_base.hi, 0, 0, "cp.async source address"};
        f.width = em(9);
        changed |= typed_input("##tile_global_base", f, in.global_base);
        item_tooltip(
            "Byte address of the global matrix the cp.async reads (global_base): off a 32-byte boundary its sectors cost "
            "extra shared wavefronts, one per 4 sectors.");
    }
    ImGui::SetNextItemWidth(em(9));
    changed |= ImGui::Combo("layout##tile", &in.layout, "row-major\0padded\0CuTe Swizzle\0TMA swizzle\0col ^ row\0rotation\0");
    if (in.layout == 1) {
        TypedField f{&io::fields::pad, 1, kMaxTilePad, 1, 8, "pad (elements)"};
        f.width = em(8);  // room for 1024 beside the - and + buttons
        changed |= typed_input("##tile_pad", f, in.pad);
    }
    if (in.layout == 2) {
        ImGui::SetNextItemWidth(em(9));
        if (ImGui::InputInt3("Swizzle<B,M,S>##tile", in.cute)) {
            clamp_swizzle(in.cute);
            changed = true;
        }
    }
    if (in.layout == 3) {
        ImGui::SetNextItemWidth(em(15));  // room for 128B_ATOM_32B_FLIP_8B beside the arrow
        int t = std::clamp(in.tma, 1, kTmaSwizzleModes - 1) - 1;
        if (ImGui::Combo(
                "mode##tile_tma", &t,
                [](void*, int i, const char** out) {
                    *out = tma_swizzle_name(static_cast<TmaSwizzle>(i + 1));
                    return true;
                },
                nullptr, kTmaSwizzleModes - 1)) {
            in.tma = t + 1;
            changed = true;
        }
        item_tooltip(
            "CU_TENSOR_MAP_SWIZZLE_*: the 128B_ATOM_* modes (CUDA 12.8+, Blackwell) move 32- or 64-byte chunks; FLIP_8B also "
            "swaps the 8-byte halves of each 16 bytes on odd rows.");
    }
    if (in.layout == 5) {
        TypedField f{&io::fields::rotate, 1, kMaxTileDim, 1, 8, "chunk (elements)"};
        f.width = em(8);
        changed |= typed_input("##tile_rot", f, in.rotate);
        item_tooltip("Rotation swizzle: chunk c of row r moves to (c + r) mod (columns / chunk).");
    }
    if (changed) mark_changed(s);

    // Counted in the refresh step when this panel shows (the solver may take a frame of its own).
    ImGui::Spacing();
    if (!ready(s, Part::memory_tile)) {
        ImGui::TextDisabled("Counting the tile...");
        return;
    }
    const MemoryTileDerived& v = s.derived.memory_tile;
    ImGui::PushTextWrapPos(0);
    if (!v.error.empty()) {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error_color()), "%s", v.error.c_str());
        ImGui::PopTextWrapPos();
        return;
    }
    for (std::size_t i = 0; i < v.accesses.size(); ++i) {
        const TileBankTotals& t = v.totals[i];
        ImGui::Text("%s: %lld wavefronts (ideal %lld), %lld conflicts, %d-way", tile_access_name(v.accesses[i]).c_str(),
                    static_cast<long long>(t.wavefronts), static_cast<long long>(t.ideal_wavefronts), static_cast<long long>(t.conflicts),
                    t.max_way);
        if (t.source_extra > 0)
            ImGui::TextDisabled("  %lld of them from the global source: its sectors need %lld wavefronts (one per 4)",
                                static_cast<long long>(t.source_extra), static_cast<long long>(t.source_wavefronts));
    }
    const SwizzleSolution& sol = v.solution;
    std::int64_t layout_conflicts = 0;  // the layout's own: cp.async's source share is no layout's doing
    for (const TileBankTotals& t : v.totals) layout_conflicts += t.conflicts - t.source_extra;
    if (sol.conflicts_plain == 0) ImGui::TextDisabled("Row-major already has no conflict: no swizzle needed.");
    else if (layout_conflicts == 0 &&
             v.layout.pad + v.layout.swizzle.bits + v.layout.rotate + v.layout.xor_rows + static_cast<int>(v.layout.tma) > 0)
        ImGui::TextDisabled("This layout has no bank conflict (row-major has %lld).", static_cast<long long>(sol.conflicts_plain));
    else
        ImGui::Text("%s %s  (%s)%s%s: %lld -> %lld conflicts",
                    sol.zero ? "Fix:" : "No swizzle reaches zero; least conflicts:", sol.type.c_str(), sol.expression.c_str(),
                    sol.tma != TmaSwizzle::none ? ", TMA " : "", sol.tma != TmaSwizzle::none ? tma_swizzle_name(sol.tma) : "",
                    static_cast<long long>(sol.conflicts_plain), static_cast<long long>(sol.conflicts));
    ImGui::PopTextWrapPos();
    chunk_grid("tile_before", "This layout: bank group (bank / 4) of each 16-byte chunk, rows 0-7", v.layout);
    if (sol.swizzle.bits > 0) {
        TileLayout fixed = v.layout;
        fixed.pad = 0;
        fixed.tma = TmaSwizzle::none;
        fixed.xor_rows = false;
        fixed.rotate = 0;
        fixed.swizzle = sol.swizzle;
        chunk_grid("tile_after", ("With " + sol.type).c_str(), fixed);
    }
}

}  // namespace occ::ui
