// view_amd.cpp — an AMD GPU's result panel, its headline and the picked target's summary, drawn from
// the rows of occ::io::amd_occupancy_table (AppState::derived.table, the CLI's table), and the note
// the views that model NVIDIA GPUs only show instead of numbers.
#include <algorithm>
#include <string>
#include <vector>

#include "amd_ui.hpp"
#include "occ/format.hpp"
#include "views.hpp"

namespace occ::ui {
namespace {

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

}  // namespace

void draw_amd_picker_summary(AppState& s) {
    const io::AmdRequest& r = s.amd_req;
    if (!r.arch) return;
    const amd::AmdArch& a = *r.arch;
    const std::string name = r.gpu ? r.gpu->name : std::string(a.isa);
    if (r.gpu)
        ImGui::TextWrapped("%s: %.*s %.*s, %d CUs", name.c_str(), static_cast<int>(a.isa.size()), a.isa.data(),
                           static_cast<int>(a.family.size()), a.family.data(), r.gpu->sm_count);
    else
        ImGui::TextWrapped("%s: %.*s, one %s", name.c_str(), static_cast<int>(a.family.size()), a.family.data(),
                           a.has_wgp_mode && !r.launch.cu_mode ? "WGP" : "CU");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    // RDNA: a WGP is two CUs (docs/AMD.md, rule 7).
    ImGui::TextWrapped("%d SIMDs and %s LDS per CU%s · %d waves/SIMD · wave%s", a.simds_per_cu, format_bytes(a.lds_per_cu).c_str(),
                       a.has_wgp_mode ? ", WGP of two CUs" : "", a.max_waves_per_simd,
                       a.wave32 && a.wave64 ? "32/64"
                       : a.wave32           ? "32"
                                            : "64");
    ImGui::PopStyleColor();
    item_tooltip(r.gpu ? r.gpu->source : "The target's rules: docs/AMD.md");
}

void draw_amd_result_headline(AppState& s) {
    const amd::AmdOccupancyResult& r = s.derived.amd.result;
    ImGui::PushStyleColor(ImGuiCol_Text, r.ok() ? amd_limiter_color(r.limiters) : error_color());
    push_big_font();
    ImGui::TextUnformatted(r.ok() ? format_percent(r.occupancy).c_str() : "n/a");
    ImGui::PopFont();
    ImGui::PopStyleColor();
    item_tooltip("Occupancy = resident waves per SIMD / the most a SIMD holds (what AMD's tools call occupancy).");
    ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(0);
    const std::string active = "Active per " + amd_unit(s);
    if (r.ok())
        ImGui::Text("%d of %d waves per SIMD · %s: %s", r.waves_per_simd, r.max_waves_per_simd, active.c_str(),
                    io::row_value(s.derived.table, io::RowId::active).c_str());
    const std::string summary = io::row_value(s.derived.table, io::RowId::summary);
    if (r.ok()) ImGui::TextDisabled("%s", summary.c_str());
    else ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error_color()), "%s", summary.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
}

void draw_amd_result(AppState& s, bool headline) {
    const amd::AmdOccupancyResult& r = s.derived.amd.result;
    section("Result");
    if (headline) draw_amd_result_headline(s);
    ImGui::Spacing();
    const std::vector<io::TableRow>& rows = s.derived.table;
    const ImGuiTableFlags tf = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
    float limit_w = em(7);
    for (const io::TableRow& row : rows)
        if (row.kind == io::RowKind::limit)
            limit_w = std::max(
                limit_w, ImGui::GetTextLineHeight() * 0.6f + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(row.key.c_str()).x);
    const std::string per = "Groups / " + amd_unit(s);
    if (ImGui::BeginTable("limits", 3, tf)) {
        ImGui::TableSetupColumn("Limit", ImGuiTableColumnFlags_WidthFixed, limit_w);
        ImGui::TableSetupColumn(per.c_str(), ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize(per.c_str()).x);
        ImGui::TableSetupColumn("How", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableHeadersRow();
        for (const io::TableRow& row : rows) {
            const amd::AmdLimiterInfo* li = amd_limiter_of(row);
            if (!li) continue;
            ImGui::TableNextRow();
            if (row.hit) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, amd_limiter_color(li->bit, 0.30f));
            ImGui::TableSetColumnIndex(0);
            const ImVec2 p = ImGui::GetCursorScreenPos();
            const float h = ImGui::GetTextLineHeight();
            ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + h * 0.2f), ImVec2(p.x + h * 0.6f, p.y + h * 0.8f),
                                                      amd_limiter_color(li->bit), 2.0f);
            ImGui::Dummy(ImVec2(h * 0.6f, h));
            ImGui::SameLine();
            ImGui::TextUnformatted(row.key.c_str());
            ImGui::TableSetColumnIndex(1);
            if (row.value == "-") ImGui::TextDisabled("%s", "no limit");
            else ImGui::TextUnformatted(row.value.c_str());
            ImGui::TableSetColumnIndex(2);
            text_wrapped(row.note);
        }
        ImGui::EndTable();
    }
    ImGui::Spacing();
    if (ImGui::BeginTable("allocated", 2, ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("k", ImGuiTableColumnFlags_WidthFixed, em(8.5f));
        ImGui::TableSetupColumn("v", ImGuiTableColumnFlags_WidthStretch);
        for (const io::TableRow& row : rows)
            if (row.kind == io::RowKind::allocated || row.kind == io::RowKind::waves || row.id == io::RowId::estimate)
                kv(row, row.kind == io::RowKind::result);
        ImGui::EndTable();
    }
    if (!r.ok()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error_color()), "%s", r.error_message.c_str());
        ImGui::PopTextWrapPos();
    }
    if (const io::TableRow* fix = io::find_row(s.derived.table, io::RowId::fix)) {
        ImGui::Spacing();
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(accent_color()));
        text_wrapped(fix->value);
        ImGui::PopStyleColor();
    }
}

void draw_amd_note(const char* view, const char* instead) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped(std::string(view) + ": NVIDIA GPUs only, so nothing is drawn for an AMD GPU rather than wrong numbers. " + instead);
    ImGui::PopStyleColor();
}

}  // namespace occ::ui
