// view_ncu.cpp — a pasted (or dropped) Nsight Compute report next to occ's prediction: per kernel,
// every value ncu printed, what occ predicts for the same launch on the same device, and "=" or the
// reason they differ. The answer is occ::io::answer_ncu's (AppState::derived.ncu, computed in the
// refresh step); "Use" makes a kernel's launch the scenario, for what-if changes.
#include <string>

#include "occ/explain.hpp"
#include "scenario.hpp"
#include "views.hpp"

namespace occ::ui {
namespace {

void kernel_table(const io::NcuKernelAnswer& k) {
    const ImGuiTableFlags tf = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("ncu_rows", 4, tf)) return;
    ImGui::TableSetupColumn("field", ImGuiTableColumnFlags_WidthFixed, em(17));
    ImGui::TableSetupColumn("ncu printed", ImGuiTableColumnFlags_WidthFixed, em(10));
    ImGui::TableSetupColumn("occ predicts", ImGuiTableColumnFlags_WidthFixed, em(7));
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    for (const io::NcuRow& r : io::ncu_rows(k)) {
        ImGui::TableNextRow();
        // Only what no known behaviour of ncu or the driver explains is coloured; explained lines say why.
        if (r.difference && r.difference->status != io::NcuStatus::explained)
            ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, limiter_color(kLimitRegisters, 0.25f));
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.key.c_str());
        ImGui::TableNextColumn();
        if (r.measured) ImGui::TextUnformatted(r.printed.c_str());
        else ImGui::TextDisabled("-");
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.predicted.c_str());
        ImGui::TableNextColumn();
        ImGui::PushTextWrapPos(0);
        if (r.difference && r.difference->status == io::NcuStatus::explained)
            ImGui::TextDisabled("%s %s", r.mark(), r.difference->why.c_str());
        else if (r.difference) ImGui::Text("%s %s", r.mark(), r.difference->why.c_str());
        else if (r.not_compared) ImGui::TextDisabled("%s %s", r.mark(), r.not_compared->why.c_str());
        else if (*r.mark()) ImGui::TextDisabled("%s", r.mark());
        ImGui::PopTextWrapPos();
        if (!r.difference && r.bound && r.measured && r.predicts) item_tooltip(k.achieved.why.c_str());
    }
    ImGui::EndTable();
}

}  // namespace

void draw_ncu(AppState& s) {
    // A report just dropped or pasted: open the section and scroll it to the top of the tab.
    if (!reveal_header(s, AppState::Reveal::ncu, "Import an Nsight Compute report (ncu --section LaunchStats --section Occupancy, --csv)"))
        return;
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
    if (!n.answer.report.ncu_version.empty())
        ImGui::TextDisabled("ncu %s (the report's version line)", n.answer.report.ncu_version.c_str());
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
        if (k.launch) ImGui::TextDisabled("occ: %s", summarize(k.result).c_str());
        for (const std::string& b : k.ncu_behaviour) ImGui::TextDisabled("ncu: %s", b.c_str());
        if (!k.predicted.empty()) kernel_table(k);
        for (const std::string& d : k.diagnostics) ImGui::TextDisabled("note: %s", d.c_str());
        ImGui::PopID();
    }
}

}  // namespace occ::ui
