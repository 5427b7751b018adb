// view_memory_tile.cpp — the Memory tab's shared-memory tile (occ/smem_shapes.hpp): rows x columns of
// elements, a layout (row-major, padding, CuTe Swizzle<B,M,S>, a TMA swizzle mode), the accesses made
// to it (rows, columns, ldmatrix, cp.async) with their wavefronts and conflicts, and the swizzle
// solver's fix: the tile's 16-byte chunks coloured by bank group before and after it.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "occ/smem_shapes.hpp"
#include "plot.hpp"
#include "views.hpp"

namespace occ::ui {
namespace {

struct TileView {
    MemoryTileInputs in;
    bool valid = false;
    std::string error;
    TileLayout layout;
    std::vector<TileAccess> accesses;
    std::vector<TileBankTotals> totals;
    SwizzleSolution solution;
};

constexpr int kBytes[] = {1, 2, 4, 8, 16};
constexpr const char* kBytesText = "1\0" "2\0" "4\0" "8\0" "16\0";

int bytes_index(int b) {
    for (int i = 0; i < 5; ++i)
        if (kBytes[i] == b) return i;
    return 2;
}

// Recounted only when an input changes (a 128 x 128 tile with three accesses solves in a few ms).
const TileView& compute(const MemoryTileInputs& in) {
    static TileView v;
    if (v.valid && v.in == in) return v;
    v = TileView{};
    v.in = in;
    v.valid = true;
    TileLayout& L = v.layout;
    L.rows = in.rows;
    L.cols = in.cols;
    L.elem_bytes = in.elem_bytes;
    L.pad = in.layout == 1 ? in.pad : 0;
    if (in.layout == 2) L.swizzle = CuteSwizzle{in.cute[0], in.cute[1], in.cute[2]};
    if (in.layout == 3) L.tma = static_cast<TmaSwizzle>(std::clamp(in.tma, 1, 3));
    const char* mats[] = {"ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4"};
    std::vector<std::string> names;
    if (in.ldmatrix) names.push_back(std::string(mats[std::clamp(in.matrices, 0, 2)]) + (in.trans ? ".trans" : ""));
    if (in.row) names.push_back("row");
    if (in.cp_async) names.push_back("cp_async");
    if (in.column) names.push_back("column");
    for (const std::string& n : names) {
        TileAccess a;
        if (parse_tile_access(n, in.access_bytes, in.elem_bytes, a)) v.accesses.push_back(a);
    }
    if (v.accesses.empty()) { v.error = "tile_access: pick at least one access"; return v; }
    v.error = check_tile_layout(L);
    for (const TileAccess& a : v.accesses)
        if (v.error.empty()) v.error = check_tile_access(L, a);
    if (!v.error.empty()) return v;
    for (const TileAccess& a : v.accesses) v.totals.push_back(tile_banks(L, a));
    v.solution = solve_swizzle(L.rows, L.cols, L.elem_bytes, v.accesses);
    if (!v.solution.ok()) v.error = v.solution.error;
    return v;
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
    section("Shared-memory tile and swizzle solver");
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("A tile as CuTe lays it out and the accesses made to it (occ banks --tile).");
    ImGui::PopTextWrapPos();
    ImGui::SetNextItemWidth(em(9));
    int rc[2] = {in.rows, in.cols};
    if (ImGui::InputInt2("rows x cols##tile", rc)) {
        in.rows = std::clamp(rc[0], 1, 1024);
        in.cols = std::clamp(rc[1], 1, 1024);
    }
    int eb = bytes_index(in.elem_bytes), ab = bytes_index(in.access_bytes);
    ImGui::SetNextItemWidth(em(4));
    if (ImGui::Combo("element bytes##tile", &eb, kBytesText)) in.elem_bytes = kBytes[eb];
    ImGui::SetNextItemWidth(em(4));
    if (ImGui::Combo("row / cp.async bytes##tile", &ab, kBytesText)) in.access_bytes = kBytes[ab];
    item_tooltip("Bytes each lane moves in a row write or a cp.async (8 and 16: vector rows).");
    ImGui::Checkbox("ldmatrix##tile", &in.ldmatrix);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(em(4));
    ImGui::Combo("##tile_x", &in.matrices, "x1\0x2\0x4\0");
    ImGui::SameLine();
    ImGui::Checkbox(".trans##tile", &in.trans);
    ImGui::Checkbox("row##tile", &in.row);
    ImGui::SameLine();
    ImGui::Checkbox("cp.async##tile", &in.cp_async);
    ImGui::SameLine();
    ImGui::Checkbox("column##tile", &in.column);
    ImGui::SetNextItemWidth(em(9));
    ImGui::Combo("layout##tile", &in.layout, "row-major\0padded\0CuTe Swizzle\0TMA swizzle\0");
    if (in.layout == 1) {
        ImGui::SetNextItemWidth(em(6));
        if (ImGui::InputInt("pad (elements)##tile", &in.pad)) in.pad = std::clamp(in.pad, 0, 1024);
    }
    if (in.layout == 2) {
        ImGui::SetNextItemWidth(em(9));
        ImGui::InputInt3("Swizzle<B,M,S>##tile", in.cute);
    }
    if (in.layout == 3) {
        ImGui::SetNextItemWidth(em(6));
        int t = std::clamp(in.tma, 1, 3) - 1;
        if (ImGui::Combo("mode##tile_tma", &t, "32B\0" "64B\0" "128B\0")) in.tma = t + 1;
    }

    const TileView& v = compute(in);
    ImGui::Spacing();
    ImGui::PushTextWrapPos(0);
    if (!v.error.empty()) {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error_color()), "%s", v.error.c_str());
        ImGui::PopTextWrapPos();
        return;
    }
    for (std::size_t i = 0; i < v.accesses.size(); ++i) {
        const TileBankTotals& t = v.totals[i];
        ImGui::Text("%s: %lld wavefronts (ideal %lld), %lld conflicts, %d-way", tile_access_name(v.accesses[i]).c_str(), static_cast<long long>(t.wavefronts),
                    static_cast<long long>(t.ideal_wavefronts), static_cast<long long>(t.conflicts), t.max_way);
    }
    const SwizzleSolution& sol = v.solution;
    if (sol.conflicts_plain == 0) ImGui::TextDisabled("Row-major already has no conflict: no swizzle needed.");
    else
        ImGui::Text("%s %s  (%s)%s%s: %lld -> %lld conflicts", sol.zero ? "Fix:" : "No swizzle reaches zero; least conflicts:", sol.type.c_str(),
                    sol.expression.c_str(), sol.tma != TmaSwizzle::none ? ", TMA " : "", sol.tma != TmaSwizzle::none ? tma_swizzle_name(sol.tma) : "",
                    static_cast<long long>(sol.conflicts_plain), static_cast<long long>(sol.conflicts));
    ImGui::PopTextWrapPos();
    chunk_grid("tile_before", "This layout: bank group (bank / 4) of each 16-byte chunk, rows 0-7", v.layout);
    if (sol.swizzle.bits > 0) {
        TileLayout fixed = v.layout;
        fixed.pad = 0;
        fixed.tma = TmaSwizzle::none;
        fixed.swizzle = sol.swizzle;
        chunk_grid("tile_after", ("With " + sol.type).c_str(), fixed);
    }
}

}  // namespace occ::ui
