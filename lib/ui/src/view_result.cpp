// view_result.cpp — the headline figure, the per-resource limits with the limiter highlighted, and
// what is allocated: the rows of occ::io::occupancy_table (AppState::derived.table), the same the CLI
// prints and the page exports. Tooltips give the rule (occ::limit_rule, or the row's note).
#include <algorithm>
#include <string>
#include <vector>

#include "amd_ui.hpp"
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
    text_wrapped(value);
    item_tooltip(tip);
}

}  // namespace

void draw_result_headline(AppState& s) {
    if (s.amd) return draw_amd_result_headline(s);
    const OccupancyResult& r = s.derived.result;
    // The occupancy, large, in the limiter's colour; the counts and the limiter wrap beside it.
    ImGui::PushStyleColor(ImGuiCol_Text, r.ok() ? limiter_color(r.limiters) : error_color());
    push_big_font();
    ImGui::TextUnformatted(r.ok() ? format_percent(r.occupancy).c_str() : "n/a");
    ImGui::PopFont();
    ImGui::PopStyleColor();
    item_tooltip("Theoretical occupancy = resident warps per SM / maximum warps per SM.");
    ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(0);
    ImGui::Text("%d %s · %d of %d warps · %s threads per SM", r.blocks_per_sm, r.blocks_per_sm == 1 ? "block" : "blocks", r.warps_per_sm,
                r.max_warps_per_sm, format_count(r.threads_per_sm).c_str());
    if (r.ok()) ImGui::TextDisabled("%s", summarize(r).c_str());
    else ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error_color()), "%s", summarize(r).c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
}

void draw_result(AppState& s, bool headline) {
    if (s.amd) return draw_amd_result(s, headline);
    const OccupancyResult& r = s.derived.result;
    section("Result");
    if (headline) draw_result_headline(s);
    if (!r.ok()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error_color()), "%s", r.error_message().c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::Spacing();

    // The rows come from occ::io::occupancy_table (built in refresh), as the CLI and the page's
    // Markdown/CSV export print them; the input and result rows are the headline above.
    const std::vector<io::TableRow>& rows = s.derived.table;
    const ImGuiTableFlags tf = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
    // The Limit column fits the longest limiter shown (the swatch, a gap and its title).
    float limit_w = em(8);
    for (const io::TableRow& row : rows)
        if (row.kind == io::RowKind::limit)
            limit_w = std::max(
                limit_w, ImGui::GetTextLineHeight() * 0.6f + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(row.key.c_str()).x);
    if (ImGui::BeginTable("limits", 3, tf)) {
        ImGui::TableSetupColumn("Limit", ImGuiTableColumnFlags_WidthFixed, limit_w);
        ImGui::TableSetupColumn("Blocks / SM", ImGuiTableColumnFlags_WidthFixed, em(6));
        ImGui::TableSetupColumn("Why", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableHeadersRow();
        for (const io::TableRow& row : rows) {
            if (row.kind != io::RowKind::limit) continue;
            // The Why column is the row's note; the tooltips give the general rule.
            const char* rule = limit_rule(static_cast<Limiter>(row.limiter));
            ImGui::TableNextRow();
            if (row.hit) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, limiter_color(row.limiter, 0.30f));
            ImGui::TableSetColumnIndex(0);
            ImDrawList* dl = ImGui::GetWindowDrawList();
            const ImVec2 p = ImGui::GetCursorScreenPos();
            const float h = ImGui::GetTextLineHeight();
            dl->AddRectFilled(ImVec2(p.x, p.y + h * 0.2f), ImVec2(p.x + h * 0.6f, p.y + h * 0.8f), limiter_color(row.limiter), 2.0f);
            ImGui::Dummy(ImVec2(h * 0.6f, h));
            ImGui::SameLine();
            ImGui::TextUnformatted(row.key.c_str());
            item_tooltip(rule);
            ImGui::TableSetColumnIndex(1);
            if (limit_of(r, static_cast<Limiter>(row.limiter)) == kUnlimited) ImGui::TextDisabled("%s", row.value.c_str());
            else ImGui::TextUnformatted(row.value.c_str());
            item_tooltip(rule);
            ImGui::TableSetColumnIndex(2);
            text_wrapped(row.note);
            item_tooltip(rule);
        }
        ImGui::EndTable();
    }
    ImGui::Spacing();
    if (ImGui::BeginTable("allocated", 2, ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("k", ImGuiTableColumnFlags_WidthFixed, em(9.5f));
        ImGui::TableSetupColumn("v", ImGuiTableColumnFlags_WidthStretch);
        for (const io::TableRow& row : rows)
            if (row.kind == io::RowKind::allocated || row.kind == io::RowKind::waves || row.kind == io::RowKind::pool)
                kv(row.key.c_str(), row.value, row.note.c_str());
        ImGui::EndTable();
    }
}

}  // namespace occ::ui
