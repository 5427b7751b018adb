// view_advisor.cpp — the launch advisor with before/after numbers (best block size, register and
// shared-memory headroom, dynamic shared memory at a target occupancy), the waves of the grid with
// its tail, and thread block clusters per GPC. Every number comes from occ::core (advisor.hpp,
// waves.hpp, cluster.hpp) through AppState::derived.advisor; the inputs are AppState::advisor.
//
// [SECTION] Pieces
// [SECTION] View
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "occ/advisor.hpp"
#include "occ/cluster.hpp"
#include "occ/explain.hpp"
#include "occ/format.hpp"
#include "occ/io/advice_view.hpp"
#include "occ/io/api.hpp"
#include "occ/io/schema.hpp"
#include "occ/text.hpp"
#include "occ/waves.hpp"
#include "plot.hpp"
#include "views.hpp"

namespace occ::ui {
namespace {

// [SECTION] Pieces (before/after tables, waves bar, GPC picture)
// An option's colour: its first limiter's (the one the result panel heads with).
ImU32 option_color(const io::AdviceOption& o) {
    const LimiterKey* pick = nullptr;
    for (const LimiterKey* e : o.limiters) pick = first_limiter(pick, e);
    return mask_color(pick);
}

// Where the table's columns cannot each hold their title on one line and their widest word (a phone,
// a narrow window with three options), each option is a line of its own instead, wrapped at blanks:
// "best: 512 threads, 32 regs, 0 B smem dynamic -> 4 blocks per SM, 100% (Warps)". A header cell
// does not wrap, so a title needs its whole width ("most, same blocks").
bool before_after_lines(const std::vector<io::AdviceOption>& cols, float label, const std::array<std::string, 6>& rows) {
    float need = label;
    for (const io::AdviceOption& c : cols)
        need += std::max(ImGui::CalcTextSize(c.title.c_str()).x, c.has ? widest_word(io::limiter_list(c.limiters, true)) : 0) +
                2 * ImGui::GetStyle().CellPadding.x + 2;
    if (need <= ImGui::GetContentRegionAvail().x) return false;
    for (const io::AdviceOption& c : cols) {
        std::string line = c.title + ": ";
        if (!c.has) line += "-";
        else
            line += std::to_string(c.threads) + " threads, " + std::to_string(c.regs) + " " + rows[1] + ", " + format_bytes(c.smem) + " " +
                    rows[2] + " -> " + std::to_string(c.blocks) + " " + rows[3] + ", " + format_percent(c.occupancy) + " (" +
                    io::limiter_list(c.limiters, true) + ")";
        text_wrapped(line);
    }
    return true;
}

void before_after(const char* id, const std::vector<io::AdviceOption>& cols, const std::array<std::string, 6>& rows) {
    // The labels' column is as wide as their widest word, so they wrap at blanks only.
    float label = 0;
    for (const std::string& r : rows) label = std::max(label, widest_word(r) + 2);
    if (before_after_lines(cols, label + 2 * ImGui::GetStyle().CellPadding.x, rows)) return;
    if (!ImGui::BeginTable(id, static_cast<int>(cols.size()) + 1,
                           ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_BordersInnerV))
        return;
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_NoResize, label);
    // The values' columns share the rest in proportion to their widest words (the limiters' titles).
    for (const io::AdviceOption& c : cols)
        ImGui::TableSetupColumn(
            c.title.c_str(), ImGuiTableColumnFlags_WidthStretch,
            std::max(ImGui::CalcTextSize(c.title.c_str()).x, c.has ? widest_word(io::limiter_list(c.limiters, true)) : 0) + 2);
    ImGui::TableHeadersRow();
    ImGui::PushTextWrapPos(0);  // a narrow column wraps its cells instead of cutting them
    for (int r = 0; r < 6; ++r) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
        text_wrapped(rows[static_cast<std::size_t>(r)]);
        ImGui::PopStyleColor();
        for (const io::AdviceOption& c : cols) {
            ImGui::TableNextColumn();
            if (!c.has) {
                ImGui::TextDisabled("-");
                continue;
            }
            switch (r) {
                case 0: ImGui::Text("%lld", static_cast<long long>(c.threads)); break;
                case 1: ImGui::Text("%lld", static_cast<long long>(c.regs)); break;
                case 2: ImGui::Text("%s", format_bytes(c.smem).c_str()); break;
                case 3: ImGui::Text("%d", c.blocks); break;
                case 4: ImGui::Text("%s", format_percent(c.occupancy).c_str()); break;
                default:
                    ImGui::PushStyleColor(ImGuiCol_Text, option_color(c));
                    text_wrapped(io::limiter_list(c.limiters, true));
                    ImGui::PopStyleColor();
            }
        }
    }
    ImGui::PopTextWrapPos();
    ImGui::EndTable();
}

// One bar per wave; the last one filled to its tail.
void waves_bar(const WaveResult& w) {
    const double total = static_cast<double>(std::max<std::int64_t>(1, w.total_waves));
    const double shown = std::min(total, 64.0);
    plot::begin("waves", ImVec2(-1, em(2.2f)), plot::Axis{0, shown, ""}, plot::Axis{0, 1, ""}, plot::kNoAxes);
    for (int i = 0; i < static_cast<int>(shown); ++i) {
        const bool last = i == static_cast<int>(total) - 1;
        const double fill = last ? w.last_wave_fill : 1.0;
        plot::rect(i + 0.04, 0.08, i + 0.96, 0.92, ImGui::GetColorU32(ImGuiCol_FrameBgHovered), ImGui::GetColorU32(ImGuiCol_Border));
        plot::rect(i + 0.04, 0.08, i + 0.04 + 0.92 * fill, 0.92, last && fill < 1.0 ? limiter_color(kLimitBlocks) : accent_color());
    }
    double hx = 0;
    if (plot::hovered(&hx, nullptr)) {
        const std::int64_t i = static_cast<std::int64_t>(hx);
        ImGui::BeginTooltip();
        const bool last = i == w.total_waves - 1;
        ImGui::Text("wave %lld of %lld: %lld blocks%s", static_cast<long long>(i + 1), static_cast<long long>(w.total_waves),
                    static_cast<long long>(last && w.tail_blocks > 0 ? w.tail_blocks : w.blocks_per_wave),
                    last && w.tail_blocks > 0 ? " (the tail)" : "");
        ImGui::EndTooltip();
    }
    plot::end();
}

// GPCs as rows of SM cells; each cluster's blocks share a colour.
void gpc_picture(const ClusterResult& c) {
    const int gpcs = c.layout.gpc_count();
    int widest = 1;
    for (int sms : c.layout.sms_per_gpc) widest = std::max(widest, sms);
    plot::begin("gpcs", ImVec2(-1, em(1.4f) * static_cast<float>(gpcs) + em(0.4f)), plot::Axis{0, static_cast<double>(widest), ""},
                plot::Axis{static_cast<double>(gpcs), 0, ""}, plot::kNoAxes);
    int cluster = 0;
    for (int g = 0; g < gpcs; ++g) {
        const int sms = c.layout.sms_per_gpc[static_cast<std::size_t>(g)];
        const int slots = sms * std::max(1, c.blocks_per_sm);
        const int used = c.clusters_per_gpc.empty() ? 0 : c.clusters_per_gpc[static_cast<std::size_t>(g)] * c.cluster_size;
        for (int b = 0; b < slots; ++b) {
            const double x0 = static_cast<double>(b) / std::max(1, c.blocks_per_sm);
            const double x1 = static_cast<double>(b + 1) / std::max(1, c.blocks_per_sm);
            const ImU32 fill = b < used ? block_color(cluster + b / std::max(1, c.cluster_size)) : ImGui::GetColorU32(ImGuiCol_FrameBg);
            plot::rect(x0 + 0.03, g + 0.12, x1 - 0.03, g + 0.88, fill, ImGui::GetColorU32(ImGuiCol_Border, 0.4f));
        }
        cluster += c.clusters_per_gpc.empty() ? 0 : c.clusters_per_gpc[static_cast<std::size_t>(g)];
    }
    double hx = 0, hy = 0;
    if (plot::hovered(&hx, &hy)) {
        const int g = std::clamp(static_cast<int>(hy), 0, gpcs - 1);
        ImGui::BeginTooltip();
        ImGui::Text("GPC %d: %d SMs x %d blocks = %d slots, %d clusters of %d", g, c.layout.sms_per_gpc[static_cast<std::size_t>(g)],
                    c.blocks_per_sm, c.layout.sms_per_gpc[static_cast<std::size_t>(g)] * c.blocks_per_sm,
                    c.clusters_per_gpc.empty() ? 0 : c.clusters_per_gpc[static_cast<std::size_t>(g)], c.cluster_size);
        ImGui::EndTooltip();
    }
    plot::end();
}

// The advise request's inputs (occ/io/schema.hpp ranges; target 0 = the current blocks per SM), in
// a vendor's words.
void advisor_inputs(AppState& s, const AdviceWords& w) {
    namespace F = io::fields;
    AdvisorInputs& in = s.advisor;
    const AdvisorInputs before = in;
    const std::string grow = w.smem_abbrev + " bytes / thread";
    const std::string limit = w.block + " size limit", target = "target " + w.blocks + " / " + w.per;
    auto typed = [&](const io::FieldSpec& spec, const std::string& label) {
        TypedField f{&spec, spec.lo, spec.hi, 0, 0, label.c_str()};
        f.width = em(6);
        return f;
    };
    // The app's target 0 means the current count (the request leaves the field out).
    static const io::FieldSpec target_or_now = [] {
        io::FieldSpec t = F::target_blocks;
        t.lo = 0;
        return t;
    }();
    typed_input("##smem_per_thread", typed(F::smem_per_thread, grow), in.smem_per_thread);
    std::string what = w.smem;
    what[0] = static_cast<char>(what[0] - 'a' + 'A');  // "Dynamic shared memory", "Dynamic LDS"
    item_tooltip(
        (what + " that grows with the " + w.block + " (on top of the scenario's " + w.smem + "), for the " + w.block + "-size search.")
            .c_str());
    const float field = em(7) + ImGui::GetStyle().ItemInnerSpacing.x;
    same_line_if_fits(field + ImGui::CalcTextSize(limit.c_str()).x);
    typed_input("##block_size_limit", typed(F::block_size_limit, limit), in.block_size_limit);
    item_tooltip(("The largest " + w.block + " the kernel supports (0 = the device maximum).").c_str());
    same_line_if_fits(field + ImGui::CalcTextSize(target.c_str()).x);
    typed_input("##target_blocks", typed(target_or_now, target), in.target_blocks);
    item_tooltip(("For the " + w.smem + " available per " + w.block + " (0 = the current " + w.blocks + " per " + w.per + ").").c_str());
    if (in.smem_per_thread != before.smem_per_thread || in.block_size_limit != before.block_size_limit ||
        in.target_blocks != before.target_blocks)
        mark_changed(s);
}

}  // namespace

// The Waves section of both vendors' advice, in their nouns (blocks per SM, workgroups per CU).
static void draw_waves(const WaveResult& w, std::int64_t grid, const AdviceWords& words) {
    section("Waves");
    if (!w.ok()) {
        ImGui::TextDisabled("%s", w.error.c_str());
        return;
    }
    const char* n = words.blocks.c_str();
    const char* per = words.per.c_str();
    if (grid > 0)
        ImGui::Text("%lld %s = %s waves of %lld (%d/%s x %d %ss); last wave %s full; %lld or %lld %s end on whole waves.",
                    static_cast<long long>(grid), n, format_number(w.waves, 2).c_str(), static_cast<long long>(w.blocks_per_wave),
                    w.blocks_per_sm, per, w.sm_count, per, format_percent(w.last_wave_fill).c_str(),
                    static_cast<long long>(w.suggested_grid_down), static_cast<long long>(w.suggested_grid_up), n);
    else
        ImGui::Text("One wave = %lld %s (%d/%s x %d %ss). Give a grid size in the inputs to see the tail.",
                    static_cast<long long>(w.blocks_per_wave), n, w.blocks_per_sm, per, w.sm_count, per);
    waves_bar(w);
}

// [SECTION] View
// Either vendor's advice (io::advice_view, what `occ advise` prints), in the target's words; the
// NVIDIA-only parts (clusters, the Nsight Compute and binary imports) where the target has them.
void draw_advisor(AppState& s) {
    const AdvisorDerived& a = s.derived.advisor;
    const io::AdviceView& v = a.view;
    AdvisorInputs& in = s.advisor;
    if (!ImGui::BeginChild("advisor_scroll", ImVec2(0, 0), false)) {
        ImGui::EndChild();
        return;
    }
    ImGui::PushTextWrapPos(0);
    if (v.name.empty()) {  // an AMD target not yet picked
        ImGui::PopTextWrapPos();
        ImGui::EndChild();
        return;
    }
    ImGui::TextDisabled("%s: %s", v.name.c_str(), v.now.c_str());
    advisor_inputs(s, v.words);

    // The three before/after tables side by side, or one under another on a narrow screen.
    const bool cols = ImGui::BeginTable("advisor_cols", ImGui::GetContentRegionAvail().x >= em(60) ? 3 : 1,
                                        ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_PadOuterX);
    static const char* const ids[] = {"ba_block", "ba_regs", "ba_smem"};
    int part = 0;
    for (const io::AdviceTable* t : {&v.block, &v.resources[0], &v.resources[1]}) {
        if (cols) ImGui::TableNextColumn();
        section(t->title.c_str());
        const char* id = ids[part++];
        if (!t->error.empty()) {
            if (t->block) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error_color()), "%s", t->error.c_str());
            continue;
        }
        before_after(id, t->options, v.rows);
        for (const io::AdviceLine& l : t->lines) {
            if (l.emphasis) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(accent_color()));
            text_wrapped(l.text);
            if (l.emphasis) ImGui::PopStyleColor();
        }
        const io::AdviceOption& best = t->options.back();
        if (t->block && best.threads != t->options.front().threads && ImGui::SmallButton(("Use this " + v.words.block + " size").c_str())) {
            use_block_size(s, static_cast<int>(best.threads), in.smem_per_thread ? best.smem : -1);
            mark_changed(s);
        }
    }
    if (cols) ImGui::EndTable();
    if (v.at_target_error.empty()) text_wrapped(v.at_target);
    else ImGui::TextDisabled("%s", v.at_target_error.c_str());

    draw_waves(v.waves, v.grid_given ? v.waves.grid_blocks : 0, v.words);

    if (v.cuda_imports) {
        draw_ptxas_import(s);
        draw_binary_import(s);
        draw_ncu(s);
    } else if (!s.ptxas_log.empty()) {
        draw_ptxas_import(s);  // a dropped AMD log or rocprof-compute analysis
    }
    if (s.reveal_steady >= 3 || s.reveal == AppState::Reveal::none) {  // in place: the user scrolls from here
        s.reveal = AppState::Reveal::none;
        s.reveal_y = -1;
        s.reveal_steady = 0;
    }

    if (!v.has_clusters) {
        if (!v.clusters_absent.empty()) {
            section("Thread block clusters");
            ImGui::TextDisabled("%s", v.clusters_absent.c_str());
        }
        ImGui::PopTextWrapPos();
        ImGui::EndChild();
        return;
    }
    section("Thread block clusters");
    ImGui::PushItemWidth(em(6));
    bool cluster_changed = ImGui::SliderInt("cluster size", &in.cluster_size, 1,
                                            in.non_portable ? kMaxNonPortableClusterSize : kMaxPortableClusterSize);
    ImGui::PopItemWidth();
    same_line_if_fits(ImGui::GetFrameHeight() + ImGui::CalcTextSize("non-portable (up to 16)").x + ImGui::GetStyle().ItemInnerSpacing.x);
    cluster_changed |= ImGui::Checkbox("non-portable (up to 16)", &in.non_portable);
    if (!in.non_portable) in.cluster_size = std::min(in.cluster_size, kMaxPortableClusterSize);
    if (cluster_changed) mark_changed(s);
    if (v.clusters) {
        const ClusterResult& c = *v.clusters;
        if (c.ok())
            ImGui::Text("%d clusters active (like cudaOccupancyMaxActiveClusters): %lld of %lld block slots, %s; device occupancy %s.",
                        c.max_active_clusters, static_cast<long long>(c.active_blocks), static_cast<long long>(c.block_slots),
                        format_percent(c.cluster_occupancy).c_str(), format_percent(c.device_occupancy).c_str());
        else ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error_color()), "%s", c.error.c_str());
        ImGui::TextDisabled("GPC layout%s: %s", c.layout.assumed ? " (assumed)" : "", c.layout.source.c_str());
        if (!c.layout.sms_per_gpc.empty()) gpc_picture(c);
    }
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
}

}  // namespace occ::ui
