// view_result.cpp — the headline figure, the per-resource limits with the limiter highlighted, and
// what is allocated. Every explanation string comes from occ::explain_limit / limit_rule.
#include <cstdio>
#include <string>

#include "occ/explain.hpp"
#include "occ/format.hpp"
#include "views.hpp"

namespace occ::ui {
namespace {

void kv(const char* key, const std::string& value, const char* tip) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextDisabled("%s", key);
    item_tooltip(tip);
    ImGui::TableSetColumnIndex(1);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(value.c_str());
    ImGui::PopTextWrapPos();
    item_tooltip(tip);
}

}  // namespace

void draw_result(AppState& s) {
    const OccupancyResult& r = s.derived.result;
    const Device& dev = s.req.device;
    section("Result");

    // Headline: the occupancy, large, in the limiter's colour.
    ImGui::PushStyleColor(ImGuiCol_Text, r.ok() ? limiter_color(r.limiters) : error_color());
    push_big_font();
    ImGui::TextUnformatted(r.ok() ? format_percent(r.occupancy).c_str() : "n/a");
    ImGui::PopFont();
    ImGui::PopStyleColor();
    item_tooltip("Theoretical occupancy = resident warps per SM / maximum warps per SM.");
    ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::Text("%d blocks · %d of %d warps · %s threads per SM", r.blocks_per_sm, r.warps_per_sm, r.max_warps_per_sm,
                format_count(r.threads_per_sm).c_str());
    if (r.ok()) ImGui::TextDisabled("%s", summarize(r).c_str());
    else ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error_color()), "%s", summarize(r).c_str());
    ImGui::EndGroup();
    if (!r.ok()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error_color()), "%s", r.error.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::Spacing();

    const ImGuiTableFlags tf = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
    if (ImGui::BeginTable("limits", 3, tf)) {
        ImGui::TableSetupColumn("Limit", ImGuiTableColumnFlags_WidthFixed, em(8));
        ImGui::TableSetupColumn("Blocks / SM", ImGuiTableColumnFlags_WidthFixed, em(6));
        ImGui::TableSetupColumn("Why", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableHeadersRow();
        for (Limiter l : kAllLimiters) {
            const int v = limit_of(r, l);
            const bool hit = (r.limiters & l) != 0;
            ImGui::TableNextRow();
            if (hit) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, limiter_color(l, 0.30f));
            ImGui::TableSetColumnIndex(0);
            ImDrawList* dl = ImGui::GetWindowDrawList();
            const ImVec2 p = ImGui::GetCursorScreenPos();
            const float h = ImGui::GetTextLineHeight();
            dl->AddRectFilled(ImVec2(p.x, p.y + h * 0.2f), ImVec2(p.x + h * 0.6f, p.y + h * 0.8f), limiter_color(l), 2.0f);
            ImGui::Dummy(ImVec2(h * 0.6f, h));
            ImGui::SameLine();
            ImGui::TextUnformatted(limiter_title(l));
            item_tooltip(limit_rule(l));
            ImGui::TableSetColumnIndex(1);
            if (v == kUnlimited) ImGui::TextDisabled("no limit");
            else ImGui::Text("%d blocks", v);
            item_tooltip(limit_rule(l));
            ImGui::TableSetColumnIndex(2);
            const std::string why = explain_limit(l, dev, s.req.kernel, s.req.launch, r);
            ImGui::PushTextWrapPos(0);
            ImGui::TextUnformatted(why.c_str());
            ImGui::PopTextWrapPos();
            item_tooltip(limit_rule(l));
        }
        ImGui::EndTable();
    }
    ImGui::Spacing();
    if (ImGui::BeginTable("allocated", 2, ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("k", ImGuiTableColumnFlags_WidthFixed, em(9.5f));
        ImGui::TableSetupColumn("v", ImGuiTableColumnFlags_WidthStretch);
        const ArchRules& a = dev.arch;
        char buf[160];
        std::snprintf(buf, sizeof buf, "%s regs (%d x 32, rounded up to %d)", format_count(r.regs_per_warp_allocated).c_str(),
                      s.req.kernel.regs_per_thread, a.reg_alloc_unit);
        kv("Registers / warp", buf, limit_rule(kLimitRegisters));
        std::snprintf(buf, sizeof buf, "%s regs (limit %s)", format_count(r.regs_per_block_allocated).c_str(), format_count(a.regs_per_block).c_str());
        kv("Registers / block", buf, limit_rule(kLimitRegisters));
        std::snprintf(buf, sizeof buf, "%s (incl. %s reserved, %d B unit; limit %s)", format_bytes(r.smem_per_block_allocated).c_str(),
                      format_bytes(a.smem_reserved_per_block).c_str(), a.smem_alloc_unit, format_bytes(r.smem_per_block_limit).c_str());
        kv("Shared mem / block", buf, limit_rule(kLimitSharedMemory));
        std::snprintf(buf, sizeof buf, "%s carveout of %s", format_bytes(r.smem_per_sm_configured).c_str(), format_bytes(a.smem_per_sm).c_str());
        kv("Shared mem / SM", buf, "The carveout the driver configures: the preference rounded up to a supported size, or the smallest size that holds one block.");
        const WaveResult& w = s.derived.waves;
        if (w.ok() && w.blocks_per_wave > 0) {
            std::snprintf(buf, sizeof buf, "%s blocks (%d / SM x %d SMs)", format_count(w.blocks_per_wave).c_str(), w.blocks_per_sm, w.sm_count);
            kv("Blocks / wave", buf, "One wave = the blocks the whole GPU holds at once: blocks per SM x SM count.");
            if (s.req.launch.grid_blocks > 0) {
                if (w.tail_blocks > 0)
                    std::snprintf(buf, sizeof buf, "%s waves: %lld full + a tail of %s blocks (%s full); grid %s or %s ends on a whole wave",
                                  format_number(w.waves, 2).c_str(), static_cast<long long>(w.full_waves), format_count(w.tail_blocks).c_str(),
                                  format_percent(w.last_wave_fill).c_str(),
                                  // plain digits: ImGui's word wrap may break after a thousands comma
                                  std::to_string(w.suggested_grid_down).c_str(), std::to_string(w.suggested_grid_up).c_str());
                else
                    std::snprintf(buf, sizeof buf, "%s waves, no tail", format_number(w.waves, 2).c_str());
                ImGui::TableNextRow();
                ImGui::TableSetColumnIndex(0);
                ImGui::TextDisabled("Waves");
                ImGui::TableSetColumnIndex(1);
                ImGui::PushTextWrapPos(0);
                ImGui::TextUnformatted(buf);
                ImGui::PopTextWrapPos();
                item_tooltip("Nsight Compute's \"Waves Per SM\" = grid / blocks per wave. A partial last wave (the tail) leaves SMs idle.");
            }
        }
        if (r.partitioned_gc_active) kv("Partitioned caching", "active: each block gets half an SM", "Partitioned global caching (5.2, 5.3, 6.x).");
        ImGui::EndTable();
    }
}

}  // namespace occ::ui
