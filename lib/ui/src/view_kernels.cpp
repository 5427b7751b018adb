// view_kernels.cpp — kernels imported into the Advisor tab, a row each with its occupancy on the
// scenario's device and launch and a "Use" button: compiler output pasted as text (AppState::ptxas_log,
// answered by io::answer_ptxas as `occ occupancy --ptxas` does) and binaries dropped on the window
// (AppState::binaries, answered by io::answer_kernels as `occ kernels` does). Both draw one table.
#include <string>

#include "occ/explain.hpp"
#include "occ/format.hpp"
#include "occ/io/binary.hpp"
#include "scenario.hpp"
#include "views.hpp"

namespace occ::ui {
namespace {

// A figure as the log or binary gave it; "not read" when it did not hold it (never shown as 0).
template <typename T, typename Text>
void figure(const std::optional<T>& v, Text text) {
    if (v) ImGui::TextUnformatted(text(*v).c_str());
    else ImGui::TextDisabled("not read");
}

std::string bytes_text(std::int64_t v) { return format_bytes(v); }

// The rows of a ptxas or kernels answer. Binaries hold no spills but a stack frame, and say where
// each kernel came from; "Use" loads what the row was evaluated with (io::PtxasRow::request). On a
// narrow screen the name, arch, registers, shared memory and occupancy stay (the rest in the name's
// tooltip), so the names keep room.
void kernel_table(AppState& s, const io::PtxasAnswer& a, bool binary) {
    const ImVec4 err = ImGui::ColorConvertU32ToFloat4(error_color());
    const bool wide = ImGui::GetContentRegionAvail().x >= em(40);
    const bool from = binary && wide, stack = binary && wide, spills = !binary && wide, barriers = !binary && wide;
    const int columns = 6 + from + stack + spills + barriers + wide;
    if (!ImGui::BeginTable(binary ? "binary_rows" : "ptxas_rows", columns, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp))
        return;
    // Binaries: room for the names and a fixed column for the button.
    const auto column = [&](const char* h, float weight) {
        if (binary) ImGui::TableSetupColumn(h, ImGuiTableColumnFlags_WidthStretch, weight);
        else ImGui::TableSetupColumn(h);
    };
    column("kernel", 3.0f);
    for (const char* h : {"arch", "regs", "smem"}) column(h, 1.0f);
    if (stack) column("stack", 1.0f);
    if (spills) column("spills st/ld", 1.0f);
    if (barriers) column("barriers", 1.0f);
    if (wide) column("blocks/SM", 1.0f);
    column("occupancy", 2.0f);
    if (from) column("from", 1.5f);
    if (binary)
        ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("Use").x + 2 * ImGui::GetStyle().FramePadding.x);
    else ImGui::TableSetupColumn("");
    ImGui::TableHeadersRow();
    const auto count = [](auto v) { return std::to_string(v); };
    int id = 0;
    for (const io::PtxasRow& row : a.rows) {
        const io::PtxasKernel& k = a.log.kernels[row.kernel];
        ImGui::PushID(id++);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        if (k.format == io::kZstdEntryFormat) ImGui::TextDisabled("(compressed entry)");
        else ImGui::TextUnformatted(k.name.c_str());
        std::string tip = k.mangled;
        if (binary) tip += (tip.empty() ? "" : "\n") + k.source_file + (k.source_entry.empty() ? "" : ", " + k.source_entry);
        if (!wide && binary && k.stack_frame) tip += "\nstack frame " + bytes_text(*k.stack_frame);
        if (!tip.empty()) item_tooltip(tip.c_str());
        ImGui::TableNextColumn();
        if (k.arch.empty()) ImGui::TextDisabled("not read");
        else ImGui::TextUnformatted(k.arch.c_str());
        ImGui::TableNextColumn();
        figure(k.registers, count);
        ImGui::TableNextColumn();
        figure(k.smem_static, bytes_text);
        if (stack) {
            ImGui::TableNextColumn();
            figure(k.stack_frame, bytes_text);
        }
        if (spills) {
            ImGui::TableNextColumn();
            if (k.spill_stores || k.spill_loads)
                ImGui::Text("%s/%s", k.spill_stores ? count(*k.spill_stores).c_str() : "?",
                            k.spill_loads ? count(*k.spill_loads).c_str() : "?");
            else ImGui::TextDisabled("not read");
        }
        if (barriers) {
            ImGui::TableNextColumn();
            figure(k.barriers, count);
        }
        if (wide) {
            ImGui::TableNextColumn();
            if (row.result) ImGui::Text("%d", row.result->blocks_per_sm);
        }
        ImGui::TableNextColumn();
        ImGui::PushTextWrapPos(0);
        if (row.result) {
            const OccupancyResult& o = *row.result;
            const std::string lim = limiter_labels(o.limiters, ", ");
            ImGui::Text("%s (%s)", format_percent(o.occupancy).c_str(), lim.c_str());
            std::string notes;
            for (const std::string& n : row.notes) notes += (notes.empty() ? "" : "\n") + n;
            if (!notes.empty()) item_tooltip(notes.c_str());
        } else {
            ImGui::TextColored(err, "%s", row.error.c_str());
        }
        ImGui::PopTextWrapPos();
        if (from) {
            ImGui::TableNextColumn();
            ImGui::PushTextWrapPos(0);
            ImGui::TextDisabled("%s", k.source_file.c_str());
            ImGui::PopTextWrapPos();
        }
        ImGui::TableNextColumn();
        if (row.request && ImGui::SmallButton("Use")) {
            std::string error;
            if (!use_request(s, *row.request, &error)) s.notice = "This kernel could not be used: " + error;
        }
        if (row.request)
            item_tooltip(k.launch ? "Make this kernel's resources and its launch (threads, dynamic shared memory) the scenario."
                                  : "Copy this kernel's registers, static shared memory and barriers into the inputs.");
        ImGui::PopID();
    }
    ImGui::EndTable();
    if (!a.skipped.empty()) ImGui::TextDisabled("%zu builds skipped (other architectures or older builds).", a.skipped.size());
}

}  // namespace

void draw_ptxas_import(AppState& s) {
    const bool reveal = s.reveal == AppState::Reveal::ptxas;
    if (reveal) ImGui::SetNextItemOpen(true);
    if (!ImGui::CollapsingHeader("Import compiler output (nvcc -Xptxas -v, cuobjdump --dump-resource-usage)")) return;
    if (reveal) ImGui::SetScrollHereY(0.0f);
    ImGui::TextDisabled(
        "Paste the log; every kernel gets its occupancy with this device and launch. \"Use\" copies a kernel's resources into the inputs.");
    if (input_text_multiline("##ptxas_log", s.ptxas_log, ImVec2(-1, em(7)))) mark_changed(s);
    const Result<io::PtxasAnswer>& r = s.derived.advisor.ptxas;
    if (s.ptxas_log.empty() || (!r && r.error.empty())) return;
    const ImVec4 err = ImGui::ColorConvertU32ToFloat4(error_color());
    if (!r) {
        ImGui::TextColored(err, "%s", r.error.c_str());
        return;
    }
    if (!r->error.empty()) ImGui::TextColored(err, "%s", r->error.c_str());
    kernel_table(s, *r, false);
}

void draw_binary_import(AppState& s) {
    const bool reveal = s.reveal == AppState::Reveal::binaries;
    if (reveal) ImGui::SetNextItemOpen(true);
    if (!ImGui::CollapsingHeader("Import binaries (cubin, fatbin, .o, .so, executable, Triton cache)")) return;
    if (reveal) ImGui::SetScrollHereY(0.0f);
    ImGui::TextDisabled(
        "Drop the files on the window (a Triton cache as a .zip, or its .cubin and .json files together): they are read here, not "
        "uploaded. Every kernel gets its occupancy with this device and launch; \"Use\" copies its resources into the inputs.");
    if (s.binaries.empty()) return;
    const ImVec4 err = ImGui::ColorConvertU32ToFloat4(error_color());
    for (const io::BinaryRead& f : s.binaries) {
        if (!f.error.empty()) ImGui::TextColored(err, "%s", f.error.c_str());
        else ImGui::TextDisabled("%s: %s, %d cubins, %d PTX", f.file.c_str(), f.format.c_str(), f.cubins, f.ptx);
    }
    if (s.binaries_skipped > 0)
        ImGui::TextDisabled("%d other files skipped (only binaries and Triton's <name>.json metadata are read).", s.binaries_skipped);
    if (ImGui::SmallButton("Clear")) {
        s.binaries.clear();
        s.binaries_skipped = 0;
        mark_changed(s);
        return;
    }
    const Result<io::KernelsAnswer>& r = s.derived.advisor.kernels;
    if (!r) {
        if (!r.error.empty()) ImGui::TextColored(err, "%s", r.error.c_str());
        return;
    }
    const io::PtxasAnswer& a = r->rows;
    if (!a.error.empty() && r->file_errors == 0) ImGui::TextColored(err, "%s", a.error.c_str());  // else the files say it
    if (!a.rows.empty()) kernel_table(s, a, true);
    int shown = 0;
    for (const std::string& d : a.log.diagnostics) {
        bool file_error = false;
        for (const io::BinaryRead& f : s.binaries) file_error = file_error || d == f.error;
        if (!file_error && ++shown <= 4) ImGui::TextDisabled("note: %s", d.c_str());
    }
    if (shown > 4) ImGui::TextDisabled("and %d more notes (occ kernels prints them all).", shown - 4);
}

}  // namespace occ::ui
