// view_ncu.cpp — a pasted (or dropped) Nsight Compute report next to occ's prediction: per kernel,
// every value ncu printed, what occ predicts for the same launch on the same device, and "=" or the
// reason they differ. The answer is occ::io::answer_ncu's (AppState::derived.ncu, computed in the
// refresh step); "Use" makes a kernel's launch the scenario, for what-if changes.
#include <cmath>
#include <string>

#include "occ/format.hpp"
#include "scenario.hpp"
#include "views.hpp"

namespace occ::ui {
namespace {

std::string printed(const io::NcuValue* v) { return v ? v->printed + (v->unit.empty() ? "" : " " + v->unit) : "-"; }

// occ's value in the unit the key has (sizes in bytes, occupancy in %), worded like `occ ncu`.
std::string predicted(const std::string& key, const std::optional<double>& v) {
    if (!v) return "-";
    if (key.find("shared_memory") != std::string::npos) return format_bytes(static_cast<std::int64_t>(*v));
    if (key.find("occupancy") != std::string::npos) return format_number(*v, 4) + " %";
    if (key == "waves_per_sm" || key == "achieved_active_warps_per_sm") return format_number(*v, 3);
    return format_count(static_cast<std::int64_t>(std::llround(*v)));
}

void kernel_table(const io::NcuKernelAnswer& k) {
    const ImGuiTableFlags tf = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("ncu_rows", 4, tf)) return;
    ImGui::TableSetupColumn("field", ImGuiTableColumnFlags_WidthFixed, em(17));
    ImGui::TableSetupColumn("ncu printed", ImGuiTableColumnFlags_WidthFixed, em(10));
    ImGui::TableSetupColumn("occ predicts", ImGuiTableColumnFlags_WidthFixed, em(7));
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    for (const auto& [key, p] : k.predicted) {
        const io::NcuValue* m = k.measured.get(key);
        const io::NcuDifference* diff = nullptr;
        for (const io::NcuDifference& d : k.differences)
            if (d.field == key) diff = &d;
        const bool bound = key.rfind("achieved_", 0) == 0;  // occ gives the most it can be, not a value
        ImGui::TableNextRow();
        if (diff) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, limiter_color(kLimitRegisters, 0.25f));
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(key.c_str());
        ImGui::TableNextColumn();
        if (m) ImGui::TextUnformatted(printed(m).c_str());
        else ImGui::TextDisabled("-");
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(((bound && p ? "<= " : "") + predicted(key, p)).c_str());
        ImGui::TableNextColumn();
        ImGui::PushTextWrapPos(0);
        if (diff) ImGui::TextUnformatted(diff->why.c_str());
        else if (m && p) ImGui::TextDisabled("%s", bound ? "ok" : "=");
        ImGui::PopTextWrapPos();
        if (!diff && bound && m && p) item_tooltip(k.achieved.why.c_str());
    }
    ImGui::EndTable();
}

}  // namespace

void draw_ncu(AppState& s) {
    // A report just dropped or pasted: open the section and scroll it to the top of the tab.
    const bool reveal = s.reveal == AppState::Reveal::ncu;
    if (reveal) ImGui::SetNextItemOpen(true);
    if (!ImGui::CollapsingHeader("Import an Nsight Compute report (ncu --section LaunchStats --section Occupancy, --csv)")) return;
    if (reveal) ImGui::SetScrollHereY(0.0f);
    ImGui::TextDisabled(
        "Paste the report (or drop its file on the window): each kernel's values next to occ's prediction for the same launch. "
        "\"Use\" makes a kernel's launch the scenario.");
    // Smaller once a report is in: the kernels' tables are what matters then.
    if (input_text_multiline("##ncu_text", s.ncu_text, ImVec2(-1, em(s.ncu_text.empty() ? 7.0f : 4.0f)))) mark_changed(s);
    const NcuDerived& n = s.derived.ncu;
    if (s.ncu_text.empty() || n.text != s.ncu_text) return;
    const ImVec4 err = ImGui::ColorConvertU32ToFloat4(error_color());
    if (!n.error.empty()) {
        ImGui::TextColored(err, "%s", n.error.c_str());
        return;
    }
    for (const std::string& d : n.answer.report.diagnostics) ImGui::TextDisabled("note: %s", d.c_str());
    int i = 0;
    for (const io::NcuKernelAnswer& k : n.answer.kernels) {
        ImGui::PushID(i++);
        ImGui::Spacing();
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(k.measured.name.c_str());
        ImGui::SameLine();
        if (k.device) ImGui::TextDisabled("%s, %d SMs (%s)", k.device->name.c_str(), k.device->sm_count, k.device_how.c_str());
        else ImGui::TextDisabled("device unknown: no prediction");
        ImGui::SameLine();
        ImGui::BeginDisabled(!k.launch);
        if (ImGui::SmallButton("Use")) {
            std::string error;
            if (!use_request(s, *k.launch, &error)) s.notice = "This kernel's launch could not be used: " + error;
        }
        ImGui::EndDisabled();
        item_tooltip(
            "Make this kernel's launch (device, block, registers, shared memory, grid) the scenario, to try changes on the other tabs.");
        if (!k.predicted.empty()) kernel_table(k);
        for (const std::string& d : k.diagnostics) ImGui::TextDisabled("note: %s", d.c_str());
        ImGui::PopID();
    }
}

}  // namespace occ::ui
