// view_result.cpp — the headline figure, the per-resource limits with the limiter highlighted, and
// what is allocated, for either vendor: Derived::headline (the target's words) and the rows of the
// vendor's table builder (occ::io::occupancy_table, io::amd_occupancy_table: Derived::table), the
// same the CLI prints and the page exports. Tooltips give each limiter's rule (LimiterKey::rule).
#include <algorithm>
#include <string>
#include <vector>

#include "occ/format.hpp"
#include "views.hpp"

namespace occ::ui {
namespace {

// A row of the allocated table; `note_shown`: its note also under the value (not only as a tooltip).
void kv(const io::TableRow& row, bool note_shown) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextDisabled("%s", row.key.c_str());
    if (!row.note.empty()) item_tooltip(row.note.c_str());
    ImGui::TableSetColumnIndex(1);
    text_wrapped(row.value);
    if (!row.note.empty()) item_tooltip(row.note.c_str());
    if (note_shown && !row.note.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        text_wrapped(row.note);
        ImGui::PopStyleColor();
    }
}

void error_text(const std::string& text) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error_color()), "%s", text.c_str());
    ImGui::PopTextWrapPos();
}

}  // namespace

void draw_result_headline(AppState& s) {
    const io::OccupancyView& h = s.derived.view;
    // The occupancy, large, in the limiter's colour; the counts and the limiter wrap beside it.
    ImGui::PushStyleColor(ImGuiCol_Text, h.ok ? rows_color(h.rows) : error_color());
    push_big_font();
    ImGui::TextUnformatted(h.ok ? format_percent(h.occupancy).c_str() : "n/a");
    ImGui::PopFont();
    ImGui::PopStyleColor();
    item_tooltip(h.what.c_str());
    ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(0);
    if (!h.counts.empty()) ImGui::TextUnformatted(h.counts.c_str());
    if (h.ok) ImGui::TextDisabled("%s", h.summary.c_str());
    else ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error_color()), "%s", h.summary.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
}

void draw_result(AppState& s, bool headline) {
    const io::OccupancyView& h = s.derived.view;
    section("Result");
    if (headline) draw_result_headline(s);
    if (!h.error.empty()) error_text(h.error);
    ImGui::Spacing();

    const std::vector<io::TableRow>& rows = h.rows;
    const ImGuiTableFlags tf = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
    // The Limit column fits the longest limiter shown (the swatch, a gap and its title).
    // The count column fits its header and the longest count ("12 workgroups").
    std::string per = h.limit_column;  // "Blocks/SM", "Groups/CU": a heading, capitalised
    if (!per.empty() && per[0] >= 'a' && per[0] <= 'z') per[0] = static_cast<char>(per[0] - 'a' + 'A');
    float limit_w = em(7), count_w = std::max(em(5), ImGui::CalcTextSize(per.c_str()).x);
    for (const io::TableRow& row : rows)
        if (row.limiter) {
            limit_w = std::max(
                limit_w, ImGui::GetTextLineHeight() * 0.6f + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(row.key.c_str()).x);
            count_w = std::max(count_w, ImGui::CalcTextSize(row.value.c_str()).x);
        }
    if (ImGui::BeginTable("limits", 3, tf)) {
        ImGui::TableSetupColumn("Limit", ImGuiTableColumnFlags_WidthFixed, limit_w);
        ImGui::TableSetupColumn(per.c_str(), ImGuiTableColumnFlags_WidthFixed, count_w);
        ImGui::TableSetupColumn("Why", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableHeadersRow();
        for (const io::TableRow& row : rows) {
            if (!row.limiter) continue;
            // The Why column is the row's note (the rule worked through); the tooltips give the general rule.
            const char* rule = row.limiter->rule;
            ImGui::TableNextRow();
            if (row.hit) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, limiter_color(*row.limiter, 0.30f));
            ImGui::TableSetColumnIndex(0);
            const ImVec2 p = ImGui::GetCursorScreenPos();
            const float lh = ImGui::GetTextLineHeight();
            ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + lh * 0.2f), ImVec2(p.x + lh * 0.6f, p.y + lh * 0.8f),
                                                      limiter_color(*row.limiter), 2.0f);
            ImGui::Dummy(ImVec2(lh * 0.6f, lh));
            ImGui::SameLine();
            ImGui::TextUnformatted(row.key.c_str());
            item_tooltip(rule);
            ImGui::TableSetColumnIndex(1);
            if (row.count == "-") ImGui::TextDisabled("%s", row.value.c_str());  // "no limit"
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
            if (row.kind == io::RowKind::allocated || row.kind == io::RowKind::waves || row.kind == io::RowKind::pool ||
                row.id == io::RowId::estimate)
                kv(row, row.id == io::RowId::estimate);
        ImGui::EndTable();
    }
    // The table's advice, where the vendor's builder gives one (AMD's "To fit more").
    if (const io::TableRow* fix = io::find_row(rows, io::RowId::fix)) {
        ImGui::Spacing();
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(accent_color()));
        text_wrapped(fix->value);
        ImGui::PopStyleColor();
    }
}

}  // namespace occ::ui
