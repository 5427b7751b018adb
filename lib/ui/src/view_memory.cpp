// view_memory.cpp — global-memory coalescing and shared-memory bank conflicts, as pictures.
//
// [SECTION] Inputs: one access pattern (affine, 2-D tile, gather; explicit addresses from a
//                   scenario), with padding/swizzle toggles, in the coalesce request's ranges
// [SECTION] Global: the warp's 32 lanes -> the 32-byte sectors they touch, sectors filled by use
// [SECTION] Banks: 32 banks with the lanes that hit each one stacked, conflicting lanes marked
//
// Numbers come from occ::analyze_global_block / analyze_banks_block (AppState::derived.memory).
#include <algorithm>
#include <cstdio>
#include <string>

#include "amd_ui.hpp"
#include "occ/format.hpp"
#include "occ/io/schema.hpp"
#include "plot.hpp"
#include "views.hpp"

namespace occ::ui {

void memory_expr_inputs(AppState& s);  // view_memory_expr.cpp
void memory_tile_panel(AppState& s);   // view_memory_tile.cpp

namespace {

// [SECTION] Inputs
// A pattern of explicit lane addresses (only a scenario or a pasted request gives one): listed.
void lane_addresses(const AccessPattern& p) {
    std::string text;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
        text += lane ? ", " : "";
        text += (p.active_lanes >> lane) & 1u ? std::to_string(p.addresses[static_cast<std::size_t>(lane)]) : std::string("-");
    }
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("Byte address per lane (- = inactive): %s", text.c_str());
    ImGui::PopTextWrapPos();
}

void memory_inputs(AppState& s) {
    namespace F = io::fields;
    AccessPattern& p = s.memory.pattern;
    bool changed = false;
    section("Access pattern");
    int kind = s.memory.use_expr                  ? 4
               : p.kind == PatternKind::index_2d  ? 1
               : p.kind == PatternKind::gather    ? 2
               : p.kind == PatternKind::addresses ? 3
                                                  : 0;
    const int before = kind;
    ImGui::RadioButton("Strided", &kind, 0);
    item_tooltip("addr = base + offset + thread * stride * element size (thread = linear thread index)");
    ImGui::SameLine();
    ImGui::RadioButton("2-D tile", &kind, 1);
    item_tooltip("addr = (row * pitch + col) * element size; row order: row = threadIdx.y, column order: row = threadIdx.x");
    ImGui::SameLine();
    ImGui::RadioButton("Gather", &kind, 2);
    item_tooltip("Each thread reads a random element (a permutation of the block's threads, or uniform in a range).");
    if (before == 3) {
        ImGui::SameLine();
        ImGui::RadioButton("Addresses", &kind, 3);
        item_tooltip("32 explicit byte addresses, one per lane (from the scenario's ui.memory.addresses).");
    }
    ImGui::RadioButton("Expression", &kind, 4);
    item_tooltip("Type the kernel's own subscript, e.g. tile[threadIdx.y][threadIdx.x ^ threadIdx.y], with the array's declaration.");
    if (kind != before) {
        s.memory.use_expr = kind == 4;
        if (kind == 3) s.memory.use_expr = false;
        else if (kind != 4) p.kind = kind == 1 ? PatternKind::index_2d : kind == 2 ? PatternKind::gather : PatternKind::affine;
        changed = true;
    }
    if (s.memory.use_expr) {
        if (changed) mark_changed(s);
        memory_expr_inputs(s);
        return;
    }
    if (!ImGui::BeginTable("mem_inputs", 2, ImGuiTableFlags_SizingStretchProp)) return;
    ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthFixed, em(8.5f));
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);

    input_row("Bytes / lane",
              "What each lane loads or stores in one instruction: 1, 2, 4 (float), 8 (float2, double), 16 (float4) or 32 "
              "(double4_32a: global memory on compute capability 10.0 and newer only; shared memory has no 32-byte access).");
    static const int widths[] = {1, 2, 4, 8, 16, 32};
    int wi = 2;
    for (int i = 0; i < 6; ++i)
        if (widths[i] == p.access_bytes) wi = i;
    if (ImGui::Combo("##access_bytes", &wi,
                     "1 B\0"
                     "2 B\0"
                     "4 B (float)\0"
                     "8 B (float2, double)\0"
                     "16 B (float4)\0"
                     "32 B (double4_32a, cc 10.0+)\0")) {
        p.access_bytes = widths[wi];
        p.elem_bytes = 0;
        p.offset -= p.offset % p.access_bytes;  // keep lanes naturally aligned
        changed = true;
    }
    if (p.kind == PatternKind::addresses) {
        ImGui::EndTable();
        lane_addresses(p);
        if (changed) mark_changed(s);
        return;
    }
    input_row("Block", "blockDim.x, y, z: lanes are numbered threadIdx.x fastest, so a block with x < 32 puts several rows in one warp.");
    int b3[3] = {p.block[0], p.block[1], p.block[2]};
    if (ImGui::InputInt3("##mblock", b3)) {
        const int most = static_cast<int>(F::mem_block.hi);
        p.block[0] = std::clamp(b3[0], 1, most);
        p.block[1] = std::clamp(b3[1], 1, std::max(1, most / p.block[0]));
        p.block[2] = std::clamp(b3[2], 1, std::max(1, most / (p.block[0] * p.block[1])));
        changed = true;
    }
    if (p.kind == PatternKind::affine) {
        input_row("Stride", "Elements between consecutive threads (1 = consecutive).");
        changed |= typed_input("##stride", TypedField{&F::stride, F::stride.lo, F::stride.hi, 1, 8, "elements"}, p.stride);
    }
    if (p.kind == PatternKind::index_2d) {
        input_row("Order", "Row: row = threadIdx.y, col = threadIdx.x (consecutive lanes walk along a row). Column: the transpose.");
        int order = p.order == IndexOrder::column ? 1 : 0;
        if (ImGui::Combo("##order", &order, "row (tile[ty][tx])\0column (tile[tx][ty])\0")) {
            p.order = order ? IndexOrder::column : IndexOrder::row;
            changed = true;
        }
        input_row("Pitch", "Elements per row of the array; 0 = the block's extent.");
        changed |= typed_input("##pitch", TypedField{&F::pitch, F::pitch.lo, F::pitch.hi, 1, 32, "elements"}, p.pitch);
    }
    if (p.kind == PatternKind::gather) {
        input_row("Range", "Random elements in [0, range); 0 = a permutation of the block's threads.");
        changed |= typed_input("##range", TypedField{&F::range, F::range.lo, F::range.hi, 32, 1024, "elements"}, p.range);
        input_row("Seed", "Random seed (splitmix64).");
        const std::uint64_t seed_step = 1;
        if (ImGui::InputScalar("##seed", ImGuiDataType_U64, &p.seed, &seed_step)) changed = true;
    }
    input_row("Offset", "Bytes added to every address (whole elements; shifts the access off a 32-byte boundary).");
    {
        const int width = p.access_bytes;
        TypedField f{&F::offset, F::offset.lo, F::offset.hi, width, 32 / width * width, "bytes"};
        // The request refuses a misaligned lane (the coalesce answer's message says the same).
        f.ctx = &width;
        f.check = [](const void* c, std::int64_t off) {
            const int w = *static_cast<const int*>(c);
            return off % w == 0 ? std::string()
                                : "offset: " + std::to_string(off) + " is not a multiple of access_bytes (" + std::to_string(w) +
                                      "); CUDA requires naturally aligned accesses (shift by whole elements to model misalignment)";
        };
        changed |= typed_input("##offset", f, p.offset);
    }
    input_row("Warp", "Which warp of the block the pictures show (totals cover every warp).");
    {
        int w = s.memory.warp;
        if (ImGui::SliderInt("##warp", &w, 0, std::max(0, p.warps() - 1), "warp %d")) {
            s.memory.warp = w;
            changed = true;
        }
    }
    ImGui::EndTable();

    ImGui::Spacing();
    section("Fixes (2-D tiles)");
    ImGui::BeginDisabled(p.kind != PatternKind::index_2d);
    bool pad = p.pad > 0;
    if (ImGui::Checkbox("Pad each row by one element", &pad)) {
        p.pad = pad ? 1 : 0;
        changed = true;
    }
    item_tooltip("tile[32][33] instead of tile[32][32]: a column's elements land in different banks.");
    if (ImGui::Checkbox("XOR swizzle the column", &p.swizzle)) changed = true;
    item_tooltip("col' = col ^ (row mod P): permutes each row's columns so a column spreads over all banks, with no padding.");
    ImGui::EndDisabled();
    if (changed) mark_changed(s);
}

// [SECTION] Global
void global_picture(AppState& s) {
    const MemoryDerived& m = s.derived.memory;
    const GlobalBlockResult& g = m.global;
    section("Global memory: lanes -> 32-byte sectors");
    if (!m.global_unsupported.empty()) {
        ImGui::TextWrapped("%s", m.global_unsupported.c_str());
        return;
    }
    if (!g.ok() || g.warps.empty()) {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error_color()), "%s", g.error.c_str());
        return;
    }
    const int wi = std::clamp(s.memory.warp, 0, static_cast<int>(g.warps.size()) - 1);
    const GlobalAccessResult& r = g.warps[static_cast<std::size_t>(wi)];
    ImGui::PushTextWrapPos(0);  // a narrow panel wraps the figures instead of cutting them
    ImGui::Text("Warp %d: %d request, %d sectors (ideal %d), %s of moved bytes used", s.memory.use_expr ? s.memory.warp : wi, r.requests,
                r.sectors, r.ideal_sectors, format_percent(r.efficiency).c_str());
    item_tooltip(
        "A sector is 32 bytes; a warp's request moves every sector any active lane touches (Best Practices Guide, "
        "\"Coalesced Access to Global Memory\").");
    if (!s.memory.use_expr)  // an expression is evaluated for one warp: there is no block total
        ImGui::TextDisabled("Block: %s sectors for %s requests (ideal %s), %s efficiency; consecutive elements would need %s.",
                            format_count(g.sectors).c_str(), format_count(g.requests).c_str(), format_count(g.ideal_sectors).c_str(),
                            format_percent(g.efficiency).c_str(), format_count(g.contiguous_sectors).c_str());
    ImGui::Text("%s: %s", global_verdict_name(g.verdict), g.reason.c_str());
    if (!g.fix.empty()) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(accent_color()), "Fix: %s", g.fix.c_str());
    ImGui::PopTextWrapPos();

    const float w = std::max(ImGui::GetContentRegionAvail().x, 200.0f);
    const float fh = ImGui::GetTextLineHeight();
    const float h = std::max(em(9), ImGui::GetContentRegionAvail().y);
    plot::begin("lanes_sectors", ImVec2(w, h), plot::Axis{0, w}, plot::Axis{h, 0}, plot::kNoAxes | plot::kNoBackground);
    const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const ImU32 empty = ImGui::GetColorU32(ImGuiCol_FrameBg), border = ImGui::GetColorU32(ImGuiCol_Border);
    const float lane_w = w / kWarpLanes;
    const float lane_y0 = fh + 2, lane_y1 = lane_y0 + em(1.3f);
    plot::text(0, 0, "lanes", dim);
    const int shown_sectors = std::max(r.sectors, 1);
    const float sec_w = w / std::max(shown_sectors, 8);
    const float sec_y0 = h - em(2.6f) - fh, sec_y1 = h - fh - 2;
    // Links first, so the boxes draw over their ends.
    for (int lane = 0; lane < kWarpLanes; ++lane) {
        const int sec = r.lane_sector[static_cast<std::size_t>(lane)];
        if (sec == kNoSector) continue;
        const ImVec2 a = plot::to_screen(lane * lane_w + lane_w * 0.5, lane_y1);
        const ImVec2 b = plot::to_screen(sec * sec_w + sec_w * 0.5, sec_y0);
        plot::draw_list()->AddLine(a, b, block_color(sec, 0.55f), 1.5f);
    }
    for (int lane = 0; lane < kWarpLanes; ++lane) {
        const int sec = r.lane_sector[static_cast<std::size_t>(lane)];
        plot::rect(lane * lane_w + 1, lane_y0, (lane + 1) * lane_w - 1, lane_y1, sec == kNoSector ? empty : block_color(sec), 0, 2.0f);
        if (lane % 4 == 0 || lane_w > em(1.6f)) {
            char num[8];
            std::snprintf(num, sizeof num, "%d", lane);
            plot::text(lane * lane_w + lane_w * 0.5, (lane_y0 + lane_y1) * 0.5, num, IM_COL32(20, 20, 20, 255), ImVec2(0.5f, 0.5f));
        }
    }
    for (int i = 0; i < r.sectors; ++i) {
        const float x0 = i * sec_w + 1, x1 = (i + 1) * sec_w - 1;
        const float used = r.sector_used_bytes[static_cast<std::size_t>(i)] / static_cast<float>(kSectorBytes);
        plot::rect(x0, sec_y0, x1, sec_y1, empty, border, 2.0f);
        plot::rect(x0, sec_y1 - (sec_y1 - sec_y0) * used, x1, sec_y1, block_color(i), 0, 2.0f);
    }
    char label[96];
    std::snprintf(label, sizeof label, "%d sectors of 32 B, filled by the bytes the lanes use (ideal %d)", r.sectors, r.ideal_sectors);
    if (ImGui::CalcTextSize(label).x > w) std::snprintf(label, sizeof label, "%d sectors of 32 B (ideal %d)", r.sectors, r.ideal_sectors);
    plot::text(0, h - fh, label, dim);
    plot::end();
}

// [SECTION] Banks
void bank_picture(AppState& s) {
    const MemoryDerived& m = s.derived.memory;
    const BankBlockResult& b = m.banks;
    section("Shared memory: 32 banks");
    if (!m.banks_unsupported.empty()) {
        ImGui::TextWrapped("%s", m.banks_unsupported.c_str());
        return;
    }
    if (!b.ok() || b.warps.empty()) {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error_color()), "%s", b.error.c_str());
        return;
    }
    const int wi = std::clamp(s.memory.warp, 0, static_cast<int>(b.warps.size()) - 1);
    const BankResult& r = b.warps[static_cast<std::size_t>(wi)];
    ImGui::PushTextWrapPos(0);
    ImGui::Text("Warp %d: %d wavefronts (ideal %d), %d conflicts, worst bank %d-way", s.memory.use_expr ? s.memory.warp : wi, r.wavefronts,
                r.ideal_wavefronts, r.conflicts, r.max_way);
    item_tooltip(
        "bank = (byte address / 4) mod 32. Lanes asking for different words in one bank are served one after another "
        "(one wavefront each); lanes reading the same word share it (broadcast).");
    std::string fixes;
    if (b.conflicts_padded >= 0) fixes += "  padded: " + format_count(b.conflicts_padded) + " conflicts";
    if (b.conflicts_swizzled >= 0) fixes += "  swizzled: " + format_count(b.conflicts_swizzled) + " conflicts";
    if (!s.memory.use_expr)
        ImGui::TextDisabled("Block: %s wavefronts (ideal %s), %s conflicts.%s", format_count(b.wavefronts).c_str(),
                            format_count(b.ideal_wavefronts).c_str(), format_count(b.conflicts).c_str(), fixes.c_str());
    if (!b.reason.empty()) ImGui::TextUnformatted(b.reason.c_str());
    if (!b.fix.empty()) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(accent_color()), "Fix: %s", b.fix.c_str());
    ImGui::PopTextWrapPos();

    int rows = 1;
    std::array<std::int8_t, kWarpLanes> lanes{};
    for (int bank = 0; bank < kBanks; ++bank) rows = std::max(rows, bank_lane_list(r, bank, lanes));
    const float w = std::max(ImGui::GetContentRegionAvail().x, 200.0f);
    const float fh = ImGui::GetTextLineHeight();
    // Leave room for the caption under the picture.
    const float avail_h = std::max(
        em(8), ImGui::GetContentRegionAvail().y - ImGui::GetTextLineHeightWithSpacing() - ImGui::GetStyle().ItemSpacing.y);
    const float cell_h = std::clamp((avail_h - 2 * fh - 8) / rows, 3.0f, em(1.25f));
    const float h = 2 * fh + 8 + rows * cell_h;
    plot::begin("banks", ImVec2(w, h), plot::Axis{0, w}, plot::Axis{h, 0}, plot::kNoAxes | plot::kNoBackground);
    const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled), empty = ImGui::GetColorU32(ImGuiCol_FrameBg);
    const ImU32 ok = IM_COL32(89, 161, 79, 255), bad = IM_COL32(225, 87, 89, 255);
    const float bw = w / kBanks;
    for (int bank = 0; bank < kBanks; ++bank) {
        char num[8];
        std::snprintf(num, sizeof num, "%d", bank);
        if (bank % 2 == 0 || bw > em(1.6f)) plot::text(bank * bw + bw * 0.5, 0, num, dim, ImVec2(0.5f, 0));
        const float y0 = fh + 4;
        plot::rect(bank * bw + 1, y0, (bank + 1) * bw - 1, y0 + rows * cell_h, empty, 0, 2.0f);
        const int n = bank_lane_list(r, bank, lanes);
        for (int i = 0; i < n; ++i) {
            const int lane = lanes[static_cast<std::size_t>(i)];
            const bool conflict = (r.conflict_lanes >> lane) & 1u;
            const float cy = y0 + i * cell_h;
            plot::rect(bank * bw + 2, cy + 1, (bank + 1) * bw - 2, cy + cell_h - 1, conflict ? bad : ok, 0, 2.0f);
            if (cell_h >= fh * 0.9f) {
                std::snprintf(num, sizeof num, "%d", lane);
                plot::text(bank * bw + bw * 0.5, cy + cell_h * 0.5, num, IM_COL32(20, 20, 20, 255), ImVec2(0.5f, 0.5f));
            }
        }
        const int way = r.bank_way[static_cast<std::size_t>(bank)];
        if (way > 1) {
            std::snprintf(num, sizeof num, "%dx", way);
            const float tw = ImGui::CalcTextSize(num).x;  // kept inside the picture at the edges
            plot::text(std::clamp(bank * bw + (bw - tw) * 0.5f, 0.0f, w - tw), h - fh, num, bad);
        }
    }
    plot::end();
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("Cells: the lanes that hit each bank (red = waits for another wavefront). Below: distinct words per bank.");
    ImGui::PopTextWrapPos();
}

// The inputs column: the pattern, its error, the device.
void memory_inputs_panel(AppState& s) {
    memory_inputs(s);
    const MemoryDerived& m = s.derived.memory;
    if (!m.error.empty()) {
        ImGui::Spacing();
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error_color()), "%s", m.error.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::Spacing();
    ImGui::TextDisabled("Device: %s (cc %d.%d)", s.req.device.name.c_str(), s.req.device.arch.cc_major, s.req.device.arch.cc_minor);
    ImGui::Spacing();
    memory_tile_panel(s);
}

}  // namespace

void draw_memory(AppState& s) {
    if (s.amd) {
        return panel("mem_amd_panel", ImVec2(0, 0), [] {
            section("Memory");
            draw_amd_note("The Memory tab (global-memory sectors, shared-memory banks, the tile panel)", "Pick an NVIDIA GPU to use it.");
        });
    }
    const ImGuiStyle& st = ImGui::GetStyle();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    if (avail.x < em(60)) {  // phones, tablets upright: one scrolling column
        scroll_region("mem_page", avail, [&] {
            const float w = ImGui::GetContentRegionAvail().x;
            panel("mem_inputs_panel", ImVec2(w, 0), [&] { memory_inputs_panel(s); });
            panel("global_panel", ImVec2(w, em(26)), [&] { global_picture(s); });
            panel("banks_panel", ImVec2(w, em(26)), [&] { bank_picture(s); });
        });
        return;
    }
    const float left_w = std::clamp(avail.x * 0.27f, em(22), em(28));
    panel(
        "mem_inputs_panel", ImVec2(left_w, avail.y), [&] { memory_inputs_panel(s); }, /*scroll=*/true);
    ImGui::SameLine();
    ImGui::BeginGroup();
    const float right_w = avail.x - left_w - st.ItemSpacing.x;
    const float top_h = (avail.y - st.ItemSpacing.y) * 0.5f;
    if (ImGui::BeginChild("global_panel", ImVec2(right_w, top_h), true, ImGuiWindowFlags_NavFlattened)) global_picture(s);
    ImGui::EndChild();
    if (ImGui::BeginChild("banks_panel", ImVec2(right_w, avail.y - top_h - st.ItemSpacing.y), true, ImGuiWindowFlags_NavFlattened))
        bank_picture(s);
    ImGui::EndChild();
    ImGui::EndGroup();
}

}  // namespace occ::ui
