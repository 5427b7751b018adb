// view_kernels.cpp — kernels imported into the Advisor tab, a row each with its occupancy on the
// scenario's device and launch and a "Use" button: compiler output pasted as text (AppState::ptxas_log,
// answered by io::answer_ptxas as `occ occupancy --ptxas` does) and binaries dropped on the window
// (AppState::binaries, answered by io::answer_kernels as `occ kernels` does). Both draw one table.
#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "occ/amd.hpp"
#include "occ/explain.hpp"
#include "occ/format.hpp"
#include "occ/io/binary.hpp"
#include "occ/io/rocprof.hpp"
#include "occ/text.hpp"
#include "scenario.hpp"
#include "views.hpp"

namespace occ::ui {
namespace {

// What a profiler measured for the rows that have a profile (rocprof-compute, AmdResources::profile),
// under the table and apart from occ's theoretical figures in it, in io::rocprof_measured_metrics()'s
// titles: the wavefront occupancy against occ's theoretical occupancy, the largest "Insufficient ..."
// rate and the kernel time on lines under the kernel's name, every metric in the name's tooltip. A
// figure the output lacks is "not in the output", its reason in the line's tooltip.
void measured_block(const io::PtxasAnswer& a) {
    bool header = false;
    for (const io::PtxasRow& row : a.rows) {
        const io::PtxasKernel& k = a.log.kernels[row.kernel];
        if (!k.amd || !k.amd->profile) continue;
        const io::AmdProfile& p = *k.amd->profile;
        const auto find = [](const auto& v, std::string_view key) {
            const auto it = std::find_if(v.begin(), v.end(), [&](const auto& kv) { return kv.first == key; });
            return it == v.end() ? nullptr : &it->second;
        };
        const auto value = [&](const io::RocprofMetric& m) {  // as printed, or what stands for it
            const double* v = find(p.measured, m.key);
            if (!v) return std::string("not in the output");
            char b[32];
            std::snprintf(b, sizeof b, "%.2f%s", *v, m.key.ends_with("_pct") ? "%" : "");
            return std::string(b);
        };
        const auto why = [&](const io::RocprofMetric& m) {
            const std::string* r = find(p.unread, m.key);
            return std::string(m.title) + " " + std::string(m.column) + ": " + (r ? *r : std::string(m.what));
        };
        if (!header) {
            ImGui::Spacing();
            std::string head = io::rocprof_measured_heading(p.from) + ":";
            head[0] = 'M';
            text_wrapped(head);
        }
        header = true;
        std::string all;
        for (const io::RocprofMetric& m : io::rocprof_measured_metrics())
            join_into(all, "\n", std::string(m.title) + " " + std::string(m.column) + ": " + value(m));
        ImGui::Bullet();
        text_wrapped(k.name.empty() ? "(line " + std::to_string(k.line) + ")" : k.name);
        item_tooltip(all.c_str());
        ImGui::Indent();
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
        // A line of the metrics that pass `pick` (title: column value, ...), or of the largest one only.
        const auto line = [&](bool largest, auto pick) {
            std::string text, tip;
            const io::RocprofMetric* top = nullptr;
            double most = -1;
            for (const io::RocprofMetric& m : io::rocprof_measured_metrics()) {
                if (!pick(m)) continue;
                const double* v = find(p.measured, m.key);
                if (largest && v && *v > most) most = *v, top = &m;
                if (!largest) text += (text.empty() ? std::string(m.title) + ": " : ", ") + std::string(m.column) + " " + value(m);
                if (!largest || !v) join_into(tip, "\n", why(m));
            }
            if (largest)
                text = top ? std::string(top->title) + " " + value(*top) + ", the largest \"Insufficient\" rate"
                           : "\"Insufficient\" rates: not in the output";
            if (top) tip = why(*top) + (tip.empty() ? "" : "\n") + tip;
            return std::pair(text, tip);
        };
        auto [occ, occ_tip] = line(false, [](const io::RocprofMetric& m) { return m.title == "Wavefront Occupancy"; });
        if (row.amd_result) occ += "; occ's theoretical occupancy " + format_percent(row.amd_result->occupancy);
        text_wrapped(occ);
        item_tooltip(occ_tip.c_str());
        for (const auto& [text, tip] : {line(true, [](const io::RocprofMetric& m) { return m.title.starts_with("Insufficient"); }),
                                        line(false, [](const io::RocprofMetric& m) { return m.key == "kernel_time_ns"; })}) {
            text_wrapped(text);
            if (!tip.empty()) item_tooltip(tip.c_str());
        }
        ImGui::PopStyleColor();
        ImGui::Unindent();
    }
}

// The rows of a ptxas or kernels answer. Binaries hold no spills but a stack frame, and say where
// each kernel came from; "Use" loads what the row was evaluated with (io::PtxasRow::request). Every
// column but the name's is as wide as its texts (or their widest words when that does not fit), so
// cells wrap at blanks only; where the name would have less than its widest word, only the name and
// the occupancy keep columns: the arch, registers and shared memory go on a line under the name, the
// rest to its tooltip. A PTX-only row's reason is said once, above the table.
void kernel_table(AppState& s, const io::PtxasAnswer& a, bool binary) {
    enum { kName, kArch, kRegs, kSmem, kStack, kSpills, kBarriers, kBlocks, kOcc, kFrom, kCols };
    static constexpr const char* kHeads[kCols] = {"kernel",       "arch",     "regs",      "smem",      "stack",
                                                  "spills st/ld", "barriers", "blocks/SM", "occupancy", "from"};
    // Each row's cells as text and style (0 text, 1 disabled, 2 error).
    const std::size_t n = a.rows.size();
    std::vector<std::string> text(n * kCols);
    std::vector<unsigned char> style(n * kCols);
    const auto put = [&](std::size_t i, int j, const std::string& t, unsigned char st) {
        text[i * kCols + j] = t;
        style[i * kCols + j] = st;
    };
    const auto figure = [&](std::size_t i, int j, const std::optional<std::int64_t>& v, bool bytes) {
        if (v) put(i, j, bytes ? format_bytes(*v) : std::to_string(*v), 0);
        else put(i, j, "not read", 1);
    };
    bool ptx = false;
    for (std::size_t i = 0; i < n; ++i) {
        const io::PtxasRow& row = a.rows[i];
        const io::PtxasKernel& k = a.log.kernels[row.kernel];
        const bool zstd = k.format == io::kZstdEntryFormat;
        put(i, kName, zstd ? "(compressed entry)" : k.name, zstd);
        put(i, kArch, k.arch.empty() ? "not read" : k.arch, k.arch.empty());
        figure(i, kRegs, k.registers, false);
        figure(i, kSmem, k.smem_static, true);
        figure(i, kStack, k.stack_frame, true);
        figure(i, kBarriers, k.barriers, false);
        if (k.spill_stores || k.spill_loads)
            put(i, kSpills,
                (k.spill_stores ? std::to_string(*k.spill_stores) : "?") + "/" + (k.spill_loads ? std::to_string(*k.spill_loads) : "?"), 0);
        else put(i, kSpills, "not read", 1);
        if (row.result) {
            put(i, kBlocks, std::to_string(row.result->blocks_per_sm), 0);
            put(i, kOcc, format_percent(row.result->occupancy) + " (" + limiter_labels(row.result->limiters, ", ") + ")", 0);
        } else if (row.amd_result) {  // workgroups per CU (or WGP), and occ::amd's limiters
            const std::string lim = amd::amd_limiter_labels(row.amd_result->limiters, ", ");
            put(i, kBlocks, std::to_string(row.amd_result->workgroups_per_cu), 0);
            put(i, kOcc, format_percent(row.amd_result->occupancy) + (lim.empty() ? "" : " (" + lim + ")"), 0);
        } else {
            const bool p = k.format == "ptx";
            ptx |= p;
            put(i, kOcc, p ? "PTX" : row.error, p ? 1 : 2);
        }
        put(i, kFrom, k.source_file.substr(k.source_file.find_last_of("/\\") + 1), 1);
    }
    // Widths: whole texts, else widest words; the name keeps at least its widest word.
    const unsigned all = ((1u << kCols) - 1) & ~(binary ? 1u << kSpills | 1u << kBarriers : 1u << kStack | 1u << kFrom);
    const unsigned narrow = 1u << kName | 1u << kOcc;
    float whole[kCols], word[kCols];
    for (int j = 0; j < kCols; ++j) whole[j] = word[j] = ImGui::CalcTextSize(kHeads[j]).x + 2;
    for (std::size_t c = 0; c < text.size(); ++c) {
        whole[c % kCols] = std::max(whole[c % kCols], ImGui::CalcTextSize(text[c].c_str()).x + 2);
        word[c % kCols] = std::max(word[c % kCols], widest_word(text[c]) + 2);
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
            ImGui::PushStyleColor(ImGuiCol_Text, colors[style[i * kCols + j]]);
            ImGui::BeginGroup();
            text_wrapped(text[i * kCols + j]);
            ImGui::PopStyleColor();
            if (j == kName && shown == narrow) {  // the arch and the figures read, on a line under the name
                std::string line = k.arch;
                if (k.registers) join_into(line, ", ", text[i * kCols + kRegs] + " regs");
                if (k.smem_static) join_into(line, ", ", text[i * kCols + kSmem] + " smem");
                ImGui::PushStyleColor(ImGuiCol_Text, colors[1]);
                text_wrapped(line);
                ImGui::PopStyleColor();
            }
            ImGui::EndGroup();
            std::string tip;
            if (j == kName) {
                tip = k.mangled;
                if (binary) join_into(tip, "\n", k.source_file + (k.source_entry.empty() ? "" : ", " + k.source_entry));
                for (int h = 1; h < kCols; ++h)
                    if ((all & ~shown) >> h & 1) tip += std::string("\n") + kHeads[h] + " " + text[i * kCols + h];
            } else if (j == kOcc) {
                for (const std::string& n : row.notes) join_into(tip, "\n", n);
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
    measured_block(a);
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
