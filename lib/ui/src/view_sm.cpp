// view_sm.cpp — a picture of one SM filled with the resident blocks: warp slots per sub-partition,
// the register file per sub-partition, the shared-memory carveout and the block slots, each cell
// coloured by the block that holds it, so the user sees which resource ran out.
//
// The picture is a plot::begin diagram whose data units are pixels from the top-left corner.
#include <algorithm>
#include <cstdio>
#include <string>

#include "amd_ui.hpp"
#include "occ/explain.hpp"
#include "occ/format.hpp"
#include "plot.hpp"
#include "views.hpp"

namespace occ::ui {
namespace {

struct Ctx {
    float w = 0;        // drawing width in pixels
    float y = 0;        // current row top
    float label_w = 0;  // left column for row labels
    int hovered_block = -1;
    ImU32 empty = 0, border = 0, text = 0, dim = 0;
};

// Both pictures draw the wave (warp) slots, registers, shared memory (LDS) and block (workgroup)
// slots; a limiter of another role (barriers, virtual resources, SGPRs) is named above the picture
// with its reason when it limits: the rows of the result's table.
bool pictured(LimiterRole r) {
    return r == LimiterRole::warps || r == LimiterRole::registers || r == LimiterRole::shared_memory || r == LimiterRole::blocks;
}
void unpictured_limiters(const std::vector<io::TableRow>& rows) {
    for (const io::TableRow& row : rows)
        if (row.limiter && row.hit && !pictured(row.limiter->role))
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(limiter_color(*row.limiter)), "%s limiting: %s (%s)", row.key.c_str(),
                               row.value.c_str(), row.note.c_str());
}

bool title_wraps(float w, const char* name, const std::string& figure) {
    return 8 + ImGui::CalcTextSize(name).x + ImGui::GetFontSize() + ImGui::CalcTextSize(figure.c_str()).x > w;
}

// A section title; a coloured bar on the left when this resource limits the block count.
void title(Ctx& c, const char* name, const std::string& figure, bool limiting, ImU32 colour) {
    const float h = ImGui::GetTextLineHeight();
    if (limiting) plot::rect(0, c.y + 1, 4, c.y + h - 1, colour);
    plot::text(limiting ? 8 : 0, c.y, name, c.text);
    const std::string f = figure + (limiting ? "   limiting" : "");
    // The figure goes under the name when both do not fit on one line.
    if (title_wraps(c.w, name, f)) c.y += h + 3;
    plot::text(c.w, c.y, f.c_str(), limiting ? colour : c.dim, ImVec2(1, 0));
    c.y += h + 3;
}

// A cell owned by `block` (-1 = free), with hover detection for the block tooltip.
void cell(Ctx& c, float x0, float y0, float x1, float y1, int block) {
    const ImU32 fill = block >= 0 ? block_color(block) : c.empty;
    plot::rect(x0, y0, x1, y1, fill, block >= 0 ? 0 : c.border, 2.0f);
    if (block >= 0) {
        const ImVec2 a = plot::to_screen(x0, y0), b = plot::to_screen(x1, y1);
        if (ImGui::IsMouseHoveringRect(ImVec2(std::min(a.x, b.x), std::min(a.y, b.y)), ImVec2(std::max(a.x, b.x), std::max(a.y, b.y))))
            c.hovered_block = block;
    }
}

}  // namespace

// An AMD CU (a WGP of two CUs in WGP mode): the SIMDs' wave slots, their VGPR files, the LDS pool and
// the workgroup (barrier) slots, each cell coloured by the workgroup that holds it. Waves are dealt
// to the SIMDs in turn (wave i of the CU on SIMD i mod SIMDs), as the model spreads them.
void draw_cu(AppState& s) {
    const amd::AmdOccupancyResult& r = s.derived.amd.result;
    if (!r.arch) return;
    const std::string unit = amd_unit(s);
    section(r.wgp_mode ? "One WGP (two CUs), filled with resident workgroups" : "One CU, filled with resident workgroups");
    ImGui::PushTextWrapPos(0);
    if (!r.ok()) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error_color()), "No workgroup fits: %s", r.error_message.c_str());
    unpictured_limiters(s.derived.view.rows);
    ImGui::PopTextWrapPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float fh = ImGui::GetTextLineHeight();
    const int simds = std::max(1, r.simds);
    const int groups = r.ok() ? r.workgroups_per_cu : 0;
    const int wpw = std::max(1, r.waves_per_workgroup);
    const int waves = groups * wpw;
    const bool barriers = r.limit_workgroups != amd::kAmdUnlimited;
    const int slots = barriers ? r.limit_workgroups : 0;
    const float w = std::max(avail.x, 200.0f);
    const std::string figs[4] = {
        std::to_string(r.waves_per_simd) + " of " + std::to_string(r.max_waves_per_simd) + " waves per SIMD",
        format_count(static_cast<std::int64_t>(r.vgprs_allocated) * r.waves_per_simd) + " of " + format_count(r.vgpr_file) + " (" +
            std::to_string(r.vgprs_allocated) + " a wave)",
        format_bytes(r.lds_allocated * groups) + " of " + format_bytes(r.lds_per_cu),
        barriers ? std::to_string(groups) + " of " + std::to_string(slots) + " workgroups" : "one-wave workgroups hold none"};
    const char* names[4] = {"Wave slots (per SIMD)", "VGPR file (per SIMD, per lane)", "LDS", "Workgroup slots (barriers)"};
    const unsigned bits[4] = {amd::kAmdLimitWaveSlots, amd::kAmdLimitVgprs, amd::kAmdLimitLds, amd::kAmdLimitWorkgroups};
    int title_lines = 4;
    for (int i = 0; i < 4; ++i) title_lines += title_wraps(w, names[i], figs[i] + ((r.limiters & bits[i]) ? "   limiting" : "")) ? 1 : 0;
    const float titles_h = title_lines * (fh + 3);
    const float cell_h = std::clamp((avail.y - titles_h - 3 * em(1.2f) - em(1.4f) - em(1.6f)) / (2.0f * simds), em(0.55f), em(1.0f));
    const float height = titles_h + simds * (cell_h + 2) * 2 + em(1.4f) + em(1.2f) + 3 * em(0.7f);

    Ctx c;
    c.w = w;
    c.empty = ImGui::GetColorU32(ImGuiCol_FrameBg);
    c.border = ImGui::GetColorU32(ImGuiCol_Border, 0.6f);
    c.text = ImGui::GetColorU32(ImGuiCol_Text);
    c.dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    plot::begin("cu", ImVec2(c.w, height), plot::Axis{0, c.w}, plot::Axis{height, 0}, plot::kNoAxes | plot::kNoBackground);
    const float label_w = ImGui::CalcTextSize("SIMD 0 ").x, gap = 2;
    auto simd_label = [&](int i) {
        char lab[16];
        std::snprintf(lab, sizeof lab, "SIMD %d", i);
        plot::text(0, c.y + (cell_h - fh) * 0.5f, lab, c.dim);
    };
    title(c, names[0], figs[0], (r.limiters & bits[0]) != 0, amd_limiter_color(bits[0]));
    const float slot_w = (c.w - label_w) / static_cast<float>(std::max(1, r.max_waves_per_simd));
    for (int sp = 0; sp < simds; ++sp) {
        simd_label(sp);
        for (int i = 0; i < r.max_waves_per_simd; ++i) {
            const int wave = i * simds + sp;
            const float x0 = label_w + i * slot_w;
            cell(c, x0, c.y, x0 + slot_w - gap, c.y + cell_h, wave < waves ? wave / wpw : -1);
        }
        c.y += cell_h + 2;
    }
    c.y += em(0.7f);
    title(c, names[1], figs[1], (r.limiters & bits[1]) != 0, amd_limiter_color(bits[1]));
    for (int sp = 0; sp < simds; ++sp) {
        simd_label(sp);
        plot::rect(label_w, c.y, c.w, c.y + cell_h, c.empty, c.border, 2.0f);
        const float ww = (c.w - label_w) * static_cast<float>(r.vgprs_allocated) / static_cast<float>(std::max(1, r.vgpr_file));
        float x = label_w;
        for (int wave = sp; wave < waves; wave += simds) {
            cell(c, x, c.y, std::min(c.w, x + ww) - (ww > 4 ? 1 : 0), c.y + cell_h, wave / wpw);
            x += ww;
        }
        c.y += cell_h + 2;
    }
    c.y += em(0.7f);
    title(c, names[2], figs[2], (r.limiters & bits[2]) != 0, amd_limiter_color(bits[2]));
    {
        const float bar_h = em(1.4f);
        plot::rect(0, c.y, c.w, c.y + bar_h, c.empty, c.border, 2.0f);
        const float bw = c.w * static_cast<float>(r.lds_allocated) / static_cast<float>(std::max<std::int64_t>(1, r.lds_per_cu));
        for (int g = 0; g < groups && r.lds_allocated > 0; ++g) cell(c, g * bw, c.y, (g + 1) * bw - (bw > 4 ? 1 : 0), c.y + bar_h, g);
        if (r.lds_allocated == 0) plot::text(c.w * 0.5, c.y + bar_h * 0.5, "no LDS used", c.dim, ImVec2(0.5f, 0.5f));
        c.y += bar_h + em(0.7f);
    }
    title(c, names[3], figs[3], (r.limiters & bits[3]) != 0, amd_limiter_color(bits[3]));
    if (slots > 0) {
        const float sw = c.w / static_cast<float>(slots);
        const float sh = std::min(em(1.2f), sw);
        for (int i = 0; i < slots; ++i) cell(c, i * sw, c.y, (i + 1) * sw - gap, c.y + sh, i < groups ? i : -1);
    }
    plot::end();
    if (c.hovered_block >= 0) {
        ImGui::BeginTooltip();
        ImGui::Text("Workgroup %d", c.hovered_block);
        ImGui::TextDisabled("%d waves of %d · %d VGPRs per lane · %s LDS", r.waves_per_workgroup, r.wave_size, r.vgprs_allocated,
                            format_bytes(r.lds_allocated).c_str());
        ImGui::EndTooltip();
    }
}

void draw_sm(AppState& s) {
    if (s.amd) return draw_cu(s);
    const OccupancyResult& r = s.derived.result;
    const ArchRules& a = s.req.device.arch;
    section("One SM, filled with resident blocks");
    // The notes come first, wrapped to the panel, so the picture takes the height they leave.
    ImGui::PushTextWrapPos(0);
    if (r.partitioned_gc_active) ImGui::TextDisabled("Partitioned global caching: each block is confined to half the SM.");
    if (!r.ok()) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error_color()), "No block fits: %s", r.error_message().c_str());
    unpictured_limiters(s.derived.view.rows);
    ImGui::PopTextWrapPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float fh = ImGui::GetTextLineHeight();
    const int subs = std::max(1, a.subpartitions);
    const int slots_per_sub = (a.max_warps_per_sm() + subs - 1) / subs;
    const int blocks = r.ok() ? r.blocks_per_sm : 0;
    const float w = std::max(avail.x, 200.0f);
    // The four titles and their figures, first, so the height counts the titles that wrap.
    const std::string figs[4] = {std::to_string(r.warps_per_sm) + " of " + std::to_string(r.max_warps_per_sm) + " warps",
                                 format_count(static_cast<std::int64_t>(r.regs_per_warp_allocated) * r.warps_per_sm) + " of " +
                                     format_count(a.regs_per_sm) + " regs",
                                 format_bytes(r.smem_per_block_allocated * blocks) + " of " + format_bytes(r.smem_per_sm_configured) +
                                     " carveout (array " + format_bytes(a.smem_per_sm) + ")",
                                 std::to_string(blocks) + " of " + std::to_string(a.max_blocks_per_sm) + " blocks"};
    static const char* const names[4] = {"Warp slots (per sub-partition)", "Register file (per sub-partition)", "Shared memory",
                                         "Block slots"};
    static const unsigned bits[4] = {kLimitWarps, kLimitRegisters, kLimitSharedMemory, kLimitBlocks};
    int title_lines = 4;
    for (int i = 0; i < 4; ++i) title_lines += title_wraps(w, names[i], figs[i] + ((r.limiters & bits[i]) ? "   limiting" : "")) ? 1 : 0;
    // Tensor Memory (10.0, 10.3, 11.0), where the kernel allocates columns: 512 per SM, each working block's share.
    const bool tmem = a.tmem_columns_per_sm > 0 && s.req.kernel.tmem_columns > 0 && r.ok();
    const int holding = tmem ? effective_blocks_per_sm(r) : 0;
    const std::string tmem_fig = std::to_string(holding * s.req.kernel.tmem_columns) + " of " + std::to_string(a.tmem_columns_per_sm) +
                                 " columns" + (blocks > holding ? ", " + std::to_string(blocks - holding) + " blocks wait" : "");
    const char* tmem_name = "Tensor Memory (columns)";
    if (tmem) title_lines += 1 + (title_wraps(w, tmem_name, tmem_fig + "   limiting") ? 1 : 0);
    const float tmem_h = tmem ? em(1.4f) + em(0.7f) : 0.0f;
    const float titles_h = title_lines * (fh + 3);
    const float cell_h = std::clamp((avail.y - titles_h - tmem_h - 3 * em(1.2f) - em(1.4f) - em(1.6f)) / (2.0f * subs), em(0.55f),
                                    em(1.0f));
    const float height = titles_h + tmem_h + subs * (cell_h + 2) * 2 + em(1.4f) + em(1.6f) + 3 * em(0.7f);

    Ctx c;
    c.w = w;
    c.empty = ImGui::GetColorU32(ImGuiCol_FrameBg);
    c.border = ImGui::GetColorU32(ImGuiCol_Border, 0.6f);
    c.text = ImGui::GetColorU32(ImGuiCol_Text);
    c.dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    plot::begin("sm", ImVec2(c.w, height), plot::Axis{0, c.w}, plot::Axis{height, 0}, plot::kNoAxes | plot::kNoBackground);

    const int wpb = std::max(1, r.warps_per_block);

    // Warp slots. Warps of the SM are dealt round-robin to the sub-partitions (warp i -> scheduler
    // i mod 4), which is why the register file is checked per sub-partition.
    title(c, names[0], figs[0], (r.limiters & kLimitWarps) != 0, limiter_color(kLimitWarps));
    const float sub_label = ImGui::CalcTextSize("SMSP 0 ").x;
    const float gap = 2;
    const float slot_w = (c.w - sub_label) / slots_per_sub;
    for (int sp = 0; sp < subs; ++sp) {
        char lab[16];
        std::snprintf(lab, sizeof lab, "SMSP %d", sp);
        plot::text(0, c.y + (cell_h - fh) * 0.5f, lab, c.dim);
        for (int i = 0; i < slots_per_sub; ++i) {
            const int warp = i * subs + sp;  // the SM-wide warp index in this slot
            const int block = warp < blocks * wpb ? warp / wpb : -1;
            const float x0 = sub_label + i * slot_w;
            cell(c, x0, c.y, x0 + slot_w - gap, c.y + cell_h, block);
        }
        c.y += cell_h + 2;
    }
    c.y += em(0.7f);

    // Register file, one bar per sub-partition, each warp's allocation in its block's colour.
    const int regs_sub = a.regs_per_sm / subs;
    title(c, names[1], figs[1], (r.limiters & kLimitRegisters) != 0, limiter_color(kLimitRegisters));
    for (int sp = 0; sp < subs; ++sp) {
        char lab[16];
        std::snprintf(lab, sizeof lab, "SMSP %d", sp);
        plot::text(0, c.y + (cell_h - fh) * 0.5f, lab, c.dim);
        const float bw = c.w - sub_label;
        plot::rect(sub_label, c.y, c.w, c.y + cell_h, c.empty, c.border, 2.0f);
        float x = sub_label;
        for (int warp = sp; warp < blocks * wpb; warp += subs) {
            const float ww = bw * static_cast<float>(r.regs_per_warp_allocated) / static_cast<float>(std::max(1, regs_sub));
            cell(c, x, c.y, std::min(c.w, x + ww) - (ww > 4 ? 1 : 0), c.y + cell_h, warp / wpb);
            x += ww;
        }
        c.y += cell_h + 2;
    }
    c.y += em(0.7f);

    // Shared memory: the full unified array, the carveout the driver picked, and each block's share
    // (its reserved 1 KiB drawn darker).
    title(c, names[2], figs[2], (r.limiters & kLimitSharedMemory) != 0, limiter_color(kLimitSharedMemory));
    {
        const float bar_h = em(1.4f);
        const double total = static_cast<double>(std::max<std::int64_t>(1, std::max(a.smem_per_sm, r.smem_per_sm_configured)));
        const float carve_x = static_cast<float>(c.w * static_cast<double>(r.smem_per_sm_configured) / total);
        plot::rect(0, c.y, c.w, c.y + bar_h, ImGui::GetColorU32(ImGuiCol_TableRowBgAlt), c.border, 2.0f);
        plot::rect(0, c.y, carve_x, c.y + bar_h, c.empty, c.border, 2.0f);
        if (carve_x < c.w - 40) plot::text((carve_x + c.w) * 0.5, c.y + bar_h * 0.5, "L1 cache", c.dim, ImVec2(0.5f, 0.5f));
        float x = 0;
        const float bw = static_cast<float>(c.w * static_cast<double>(r.smem_per_block_allocated) / total);
        const float rw = static_cast<float>(c.w * static_cast<double>(a.smem_reserved_per_block) / total);
        for (int b = 0; b < blocks && r.smem_per_block_allocated > 0; ++b) {
            cell(c, x, c.y, x + bw - (bw > 4 ? 1 : 0), c.y + bar_h, b);
            if (rw >= 1) plot::rect(x, c.y, x + rw, c.y + bar_h, IM_COL32(0, 0, 0, 90));
            x += bw;
        }
        if (r.smem_per_block_allocated == 0)
            plot::text(carve_x * 0.5, c.y + bar_h * 0.5, "no shared memory used", c.dim, ImVec2(0.5f, 0.5f));
        c.y += bar_h + em(0.7f);
    }

    // Block slots.
    title(c, names[3], figs[3], (r.limiters & kLimitBlocks) != 0, limiter_color(kLimitBlocks));
    {
        const float sw = c.w / static_cast<float>(std::max(1, a.max_blocks_per_sm));
        const float sh = std::min(em(1.2f), sw);
        for (int i = 0; i < a.max_blocks_per_sm; ++i) cell(c, i * sw, c.y, (i + 1) * sw - gap, c.y + sh, i < blocks ? i : -1);
        c.y += sh;
    }
    if (tmem) {
        c.y += em(0.7f);
        const bool limiting = holding < blocks;
        title(c, tmem_name, tmem_fig, limiting, limiter_color(kLimitTmem));
        const float bar_h = em(1.4f);
        plot::rect(0, c.y, c.w, c.y + bar_h, c.empty, c.border, 2.0f);
        const float bw = c.w * static_cast<float>(s.req.kernel.tmem_columns) / static_cast<float>(a.tmem_columns_per_sm);
        for (int b = 0; b < holding; ++b) cell(c, b * bw, c.y, (b + 1) * bw - (bw > 4 ? 1 : 0), c.y + bar_h, b);
        if (holding * bw < c.w - 40) plot::text((holding * bw + c.w) * 0.5, c.y + bar_h * 0.5, "free", c.dim, ImVec2(0.5f, 0.5f));
        c.y += bar_h;
    }
    plot::end();

    if (c.hovered_block >= 0) {
        ImGui::BeginTooltip();
        ImGui::Text("Block %d", c.hovered_block);
        ImGui::TextDisabled("%d warps · %s registers · %s shared memory", r.warps_per_block,
                            format_count(r.regs_per_block_allocated).c_str(), format_bytes(r.smem_per_block_allocated).c_str());
        ImGui::EndTooltip();
    }
}

}  // namespace occ::ui
