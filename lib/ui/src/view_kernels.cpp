// view_kernels.cpp — kernels imported into the Advisor tab, a row each with its occupancy on the
// scenario's device and launch and a "Use" button: compiler output pasted as text (AppState::ptxas_log,
// answered by io::answer_ptxas as `occ occupancy --ptxas` does) and binaries dropped on the window
// (AppState::binaries, answered by io::answer_kernels as `occ kernels` does). Both draw one table.
#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <vector>

#include "occ/explain.hpp"
#include "occ/format.hpp"
#include "occ/io/binary.hpp"
#include "scenario.hpp"
#include "views.hpp"

namespace occ::ui {
namespace {

// The rows of a ptxas or kernels answer. Binaries hold no spills but a stack frame, and say where
// each kernel came from; "Use" loads what the row was evaluated with (io::PtxasRow::request). Every
// column but the name's is as wide as its texts (or their widest words when that does not fit), so
// cells wrap at blanks only; where the name would have less than its widest word, the arch, stack,
// spills, barriers, blocks/SM and file go to the name's tooltip. A PTX-only row's reason is said
// once, above the table.
void kernel_table(AppState& s, const io::PtxasAnswer& a, bool binary) {
    enum { kName, kArch, kRegs, kSmem, kStack, kSpills, kBarriers, kBlocks, kOcc, kFrom, kCols };
    static constexpr const char* kHeads[kCols] = {"kernel",       "arch",     "regs",      "smem",      "stack",
                                                  "spills st/ld", "barriers", "blocks/SM", "occupancy", "from"};
    struct Cell {
        std::string text;
        int style = 0;  // 0 text, 1 disabled, 2 error
    };
    const auto count = [](auto v) { return std::to_string(v); };
    const auto figure = [](const auto& v, auto text) { return v ? Cell{text(*v)} : Cell{"not read", 1}; };
    std::vector<std::array<Cell, kCols>> cells(a.rows.size());
    bool ptx = false;
    for (std::size_t i = 0; i < a.rows.size(); ++i) {
        const io::PtxasRow& row = a.rows[i];
        const io::PtxasKernel& k = a.log.kernels[row.kernel];
        std::array<Cell, kCols>& c = cells[i];
        c[kName] = k.format == io::kZstdEntryFormat ? Cell{"(compressed entry)", 1} : Cell{k.name};
        c[kArch] = k.arch.empty() ? Cell{"not read", 1} : Cell{k.arch};
        c[kRegs] = figure(k.registers, count);
        c[kSmem] = figure(k.smem_static, format_bytes);
        c[kStack] = figure(k.stack_frame, format_bytes);
        c[kSpills] = k.spill_stores || k.spill_loads
                         ? Cell{(k.spill_stores ? count(*k.spill_stores) : "?") + "/" + (k.spill_loads ? count(*k.spill_loads) : "?")}
                         : Cell{"not read", 1};
        c[kBarriers] = figure(k.barriers, count);
        if (row.result) {
            c[kBlocks] = {count(row.result->blocks_per_sm)};
            c[kOcc] = {format_percent(row.result->occupancy) + " (" + limiter_labels(row.result->limiters, ", ") + ")"};
        } else {
            ptx |= k.format == "ptx";
            c[kOcc] = k.format == "ptx" ? Cell{"PTX", 1} : Cell{row.error, 2};
        }
        c[kFrom] = {k.source_file.substr(k.source_file.find_last_of("/\\") + 1), 1};
    }
    // Widths: whole texts, else widest words; the name keeps at least its widest word.
    const unsigned all = ((1u << kCols) - 1) & ~(binary ? 1u << kSpills | 1u << kBarriers : 1u << kStack | 1u << kFrom);
    const unsigned narrow = 1u << kName | 1u << kOcc;
    float whole[kCols], word[kCols];
    for (int j = 0; j < kCols; ++j) whole[j] = word[j] = ImGui::CalcTextSize(kHeads[j]).x + 2;
    for (const auto& c : cells)
        for (int j = 0; j < kCols; ++j) {
            whole[j] = std::max(whole[j], ImGui::CalcTextSize(c[j].text.c_str()).x + 2);
            word[j] = std::max(word[j], widest_word(c[j].text) + 2);
        }
    const float pad = 2 * ImGui::GetStyle().CellPadding.x, use = ImGui::CalcTextSize("Use").x + 2 * ImGui::GetStyle().FramePadding.x;
    const auto room = [&](unsigned shown, const float* w) {  // what the name keeps
        float r = ImGui::GetContentRegionAvail().x - use - pad * 2;
        for (int j = 1; j < kCols; ++j)
            if (shown >> j & 1) r -= w[j] + pad;
        return r;
    };
    const unsigned shown = room(all, word) >= word[kName] ? all : narrow;
    const float* width = room(shown, whole) >= word[kName] ? whole : word;
    const ImU32 colors[] = {ImGui::GetColorU32(ImGuiCol_Text), ImGui::GetColorU32(ImGuiCol_TextDisabled), error_color()};
    ImGui::PushStyleColor(ImGuiCol_Text, colors[1]);
    if (ptx) text_wrapped(std::string(io::kPtxOnlyReason) + " (the rows marked PTX).");
    ImGui::PopStyleColor();
    if (!ImGui::BeginTable(binary ? "binary_rows" : "ptxas_rows", std::popcount(shown) + 1, ImGuiTableFlags_RowBg)) return;
    constexpr ImGuiTableColumnFlags kFixed = ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_NoResize;
    ImGui::TableSetupColumn(kHeads[kName], ImGuiTableColumnFlags_WidthStretch);
    for (int j = 1; j < kCols; ++j)
        if (shown >> j & 1) ImGui::TableSetupColumn(kHeads[j], kFixed, width[j]);
    ImGui::TableSetupColumn("", kFixed, use);
    ImGui::TableHeadersRow();
    for (std::size_t i = 0; i < a.rows.size(); ++i) {
        const io::PtxasRow& row = a.rows[i];
        const io::PtxasKernel& k = a.log.kernels[row.kernel];
        ImGui::PushID(static_cast<int>(i));
        ImGui::TableNextRow();
        for (int j = 0; j < kCols; ++j) {
            if (!(shown >> j & 1)) continue;
            ImGui::TableNextColumn();
            ImGui::PushStyleColor(ImGuiCol_Text, colors[cells[i][j].style]);
            ImGui::BeginGroup();
            text_wrapped(cells[i][j].text);
            ImGui::PopStyleColor();
            if (j == kName && shown == narrow) {  // the arch and the figures read, on a line under the name
                std::string line = k.arch;
                if (k.registers) line += ", " + cells[i][kRegs].text + " regs";
                if (k.smem_static) line += ", " + cells[i][kSmem].text + " smem";
                ImGui::PushStyleColor(ImGuiCol_Text, colors[1]);
                text_wrapped(line);
                ImGui::PopStyleColor();
            }
            ImGui::EndGroup();
            std::string tip;
            if (j == kName) {
                tip = k.mangled;
                if (binary) tip += (tip.empty() ? "" : "\n") + k.source_file + (k.source_entry.empty() ? "" : ", " + k.source_entry);
                for (int h = 1; h < kCols; ++h)
                    if ((all & ~shown) >> h & 1) tip += std::string("\n") + kHeads[h] + " " + cells[i][h].text;
            } else if (j == kOcc) {
                for (const std::string& n : row.notes) tip += (tip.empty() ? "" : "\n") + n;
                if (k.format == "ptx") tip = row.error;
            }
            if (!tip.empty()) item_tooltip(tip.c_str());
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
    if (!reveal_header(s, AppState::Reveal::ptxas, "Import compiler output (nvcc -Xptxas -v, cuobjdump --dump-resource-usage)")) return;
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
    if (!reveal_header(s, AppState::Reveal::binaries, "Import binaries (cubin, fatbin, .o, .so, executable, Triton cache)")) return;
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
