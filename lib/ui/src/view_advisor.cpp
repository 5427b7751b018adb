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

#include "amd_ui.hpp"
#include "occ/advisor.hpp"
#include "occ/cluster.hpp"
#include "occ/explain.hpp"
#include "occ/format.hpp"
#include "occ/io/api.hpp"
#include "occ/io/schema.hpp"
#include "occ/text.hpp"
#include "occ/waves.hpp"
#include "plot.hpp"
#include "views.hpp"

namespace occ::ui {
namespace {

// [SECTION] Pieces (before/after tables, waves bar, GPC picture)
// One option of a before/after table, from either vendor's result; has = false: no such option.
struct Column {
    const char* title;
    bool has = false;
    std::int64_t threads = 0, regs = 0, smem = 0;
    int blocks = 0;
    double occupancy = 0;
    std::string limiters = "-";  // the limiters' titles ("Shared memory, Block slots")
    ImU32 color = 0;
};

std::string limiters_text(unsigned bits) {
    // The limiters' titles ("Shared memory, Block slots"), as the result's table heads its rows.
    std::string t;
    for (const LimiterInfo& e : kLimiters)
        if (bits & e.bit) join_into(t, ", ", e.title);
    return t.empty() ? "-" : t;
}

Column col(const char* title, const OccupancyResult* r, std::int64_t threads, std::int64_t regs, std::int64_t smem) {
    if (!r) return Column{title};
    return Column{title, true, threads, regs, smem, r->blocks_per_sm, r->occupancy, limiters_text(r->limiters), limiter_color(r->limiters)};
}
Column col(const char* title, const amd::AmdOccupancyResult* r, std::int64_t threads, std::int64_t regs, std::int64_t smem) {
    if (!r) return Column{title};
    const std::string lim = amd::amd_limiter_labels(r->limiters, ", ");
    return Column{
        title, true, threads, regs, smem, r->workgroups_per_cu, r->occupancy, lim.empty() ? "-" : lim, amd_limiter_color(r->limiters)};
}

// The rows' labels in a vendor's words.
struct Labels {
    const char* regs = "registers";
    const char* smem = "dynamic smem";
    const char* blocks = "blocks / SM";
};

// Where the table's columns cannot each hold their title on one line and their widest word (a phone,
// a narrow window with three options), each option is a line of its own instead, wrapped at blanks:
// "best: 512 threads, 32 registers, 0 B dynamic smem -> 4 blocks / SM, 100% (Warps)". A header cell
// does not wrap, so a title needs its whole width ("most, same blocks").
bool before_after_lines(const std::vector<Column>& cols, float label, const Labels& lb) {
    float need = label;
    for (const Column& c : cols)
        need += std::max(ImGui::CalcTextSize(c.title).x, c.has ? widest_word(c.limiters) : 0) + 2 * ImGui::GetStyle().CellPadding.x + 2;
    if (need <= ImGui::GetContentRegionAvail().x) return false;
    for (const Column& c : cols) {
        std::string line = std::string(c.title) + ": ";
        if (!c.has) line += "-";
        else
            line += std::to_string(c.threads) + " threads, " + std::to_string(c.regs) + " " + lb.regs + ", " + format_bytes(c.smem) + " " +
                    lb.smem + " -> " + std::to_string(c.blocks) + " " + lb.blocks + ", " + format_percent(c.occupancy) + " (" + c.limiters +
                    ")";
        text_wrapped(line);
    }
    return true;
}

void before_after(const char* id, const std::vector<Column>& cols, const Labels& lb = {}) {
    const char* rows[] = {"threads", lb.regs, lb.smem, lb.blocks, "occupancy", "limited by"};
    // The labels' column is as wide as their widest word, so they wrap at blanks only.
    float label = 0;
    for (const char* r : rows) label = std::max(label, widest_word(r) + 2);
    if (before_after_lines(cols, label + 2 * ImGui::GetStyle().CellPadding.x, lb)) return;
    if (!ImGui::BeginTable(id, static_cast<int>(cols.size()) + 1,
                           ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_BordersInnerV))
        return;
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_NoResize, label);
    // The values' columns share the rest in proportion to their widest words (the limiters' titles).
    for (const Column& c : cols)
        ImGui::TableSetupColumn(c.title, ImGuiTableColumnFlags_WidthStretch,
                                std::max(ImGui::CalcTextSize(c.title).x, c.has ? widest_word(c.limiters) : 0) + 2);
    ImGui::TableHeadersRow();
    ImGui::PushTextWrapPos(0);  // a narrow column wraps its cells instead of cutting them
    for (int r = 0; r < 6; ++r) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
        text_wrapped(rows[r]);
        ImGui::PopStyleColor();
        for (const Column& c : cols) {
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
                    ImGui::PushStyleColor(ImGuiCol_Text, c.color);
                    text_wrapped(c.limiters);
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
    const std::string grow = (w.block == "block" ? std::string("smem") : w.smem_short) + " bytes / thread";
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
void draw_advisor(AppState& s) {
    const AdvisorDerived& a = s.derived.advisor;
    AdvisorInputs& in = s.advisor;
    const LaunchConfig& l = s.req.launch;
    const KernelResources& k = s.req.kernel;
    const OccupancyResult& now = s.derived.result;
    if (!ImGui::BeginChild("advisor_scroll", ImVec2(0, 0), false)) {
        ImGui::EndChild();
        return;
    }

    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s, %d threads x %d registers, %s dynamic shared memory: %d blocks/SM, %s occupancy", s.req.device.name.c_str(),
                        l.threads, k.regs_per_thread, format_bytes(l.smem_dynamic).c_str(), now.blocks_per_sm,
                        format_percent(now.occupancy).c_str());
    advisor_inputs(s, AdviceWords{});

    // The three before/after tables side by side, or one under another on a narrow screen.
    const bool cols = ImGui::BeginTable("advisor_cols", ImGui::GetContentRegionAvail().x >= em(60) ? 3 : 1,
                                        ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_PadOuterX);
    if (cols) ImGui::TableNextColumn();
    section("Best block size");
    if (a.block.ok()) {
        before_after("ba_block", {col("now", &a.block.before, l.threads, k.regs_per_thread,
                                      in.smem_per_thread ? SmemGrowth{l.smem_dynamic, in.smem_per_thread}.at(l.threads) : l.smem_dynamic),
                                  col("best", &a.block.after, a.block.threads, k.regs_per_thread, a.block.smem_dynamic)});
        ImGui::TextWrapped(
            "Most active threads per SM; ties go to the larger block (cudaOccupancyMaxPotentialBlockSize). Min grid %lld blocks.",
            static_cast<long long>(a.block.min_grid_blocks));
        if (a.block.threads != l.threads && ImGui::SmallButton("Use this block size")) {
            s.block_3d = false;
            s.req.launch.threads = a.block.threads;
            if (in.smem_per_thread) s.req.launch.smem_dynamic = a.block.smem_dynamic;
            sync_block(s);
            mark_changed(s);
        }
    } else {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error_color()), "%s", a.block.error.c_str());
    }

    if (cols) ImGui::TableNextColumn();
    section("Registers");
    if (a.regs.ok()) {
        before_after("ba_regs", {col("now", &a.regs.before, l.threads, a.regs.now, l.smem_dynamic),
                                 col("most, same blocks", &a.regs.at_headroom, l.threads, a.regs.max_same_blocks, l.smem_dynamic),
                                 col("cut to gain a block", a.regs.to_gain_block >= 0 ? &a.regs.after_cut : nullptr, l.threads,
                                     a.regs.to_gain_block, l.smem_dynamic)});
        if (!a.regs.note.empty()) ImGui::TextWrapped("%s", a.regs.note.c_str());
    }

    if (cols) ImGui::TableNextColumn();
    section("Dynamic shared memory");
    if (a.smem.ok()) {
        before_after("ba_smem", {col("now", &a.smem.before, l.threads, k.regs_per_thread, a.smem.now),
                                 col("most, same blocks", &a.smem.at_headroom, l.threads, k.regs_per_thread, a.smem.max_same_blocks),
                                 col("cut to gain a block", a.smem.to_gain_block >= 0 ? &a.smem.after_cut : nullptr, l.threads,
                                     k.regs_per_thread, a.smem.to_gain_block)});
        if (!a.smem.note.empty()) ImGui::TextWrapped("%s", a.smem.note.c_str());
    }
    if (cols) ImGui::EndTable();
    if (a.at_target.ok())
        ImGui::Text("At %d blocks/SM a block may use up to %s of dynamic shared memory (cudaOccupancyAvailableDynamicSMemPerBlock).",
                    a.at_target.target_blocks, format_bytes(a.at_target.available).c_str());
    else ImGui::TextDisabled("%d blocks/SM: %s", a.at_target.target_blocks, a.at_target.error.c_str());

    draw_waves(a.waves, l.grid_blocks, AdviceWords{});

    draw_ptxas_import(s);
    draw_binary_import(s);
    draw_ncu(s);
    if (s.reveal_steady >= 3 || s.reveal == AppState::Reveal::none) {  // in place: the user scrolls from here
        s.reveal = AppState::Reveal::none;
        s.reveal_y = -1;
        s.reveal_steady = 0;
    }

    section("Thread block clusters");
    if (!a.has_clusters) {
        ImGui::TextDisabled("Clusters need compute capability 9.0 or later.");
        ImGui::PopTextWrapPos();
        ImGui::EndChild();
        return;
    }
    ImGui::PushItemWidth(em(6));
    bool cluster_changed = ImGui::SliderInt("cluster size", &in.cluster_size, 1,
                                            in.non_portable ? kMaxNonPortableClusterSize : kMaxPortableClusterSize);
    ImGui::PopItemWidth();
    same_line_if_fits(ImGui::GetFrameHeight() + ImGui::CalcTextSize("non-portable (up to 16)").x + ImGui::GetStyle().ItemInnerSpacing.x);
    cluster_changed |= ImGui::Checkbox("non-portable (up to 16)", &in.non_portable);
    if (!in.non_portable) in.cluster_size = std::min(in.cluster_size, kMaxPortableClusterSize);
    if (cluster_changed) mark_changed(s);
    const ClusterResult& c = a.clusters;
    if (c.ok())
        ImGui::Text("%d clusters active (like cudaOccupancyMaxActiveClusters): %lld of %lld block slots, %s; device occupancy %s.",
                    c.max_active_clusters, static_cast<long long>(c.active_blocks), static_cast<long long>(c.block_slots),
                    format_percent(c.cluster_occupancy).c_str(), format_percent(c.device_occupancy).c_str());
    else ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error_color()), "%s", c.error.c_str());
    ImGui::TextDisabled("GPC layout%s: %s", c.layout.assumed ? " (assumed)" : "", c.layout.source.c_str());
    if (!c.layout.sms_per_gpc.empty()) gpc_picture(c);
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
}

// An AMD GPU or target: the same parts over occ::amd (io::amd_advise, what `occ advise --gpu MI300X`
// prints), without the NVIDIA-only ones (clusters, the Nsight Compute import); the compiler-log
// import only once a log (an AMD one, a rocprof-compute analysis) was dropped or pasted.
void draw_amd_advisor(AppState& s) {
    const io::AmdAdviseAnswer& a = s.derived.advisor.amd;
    if (!ImGui::BeginChild("advisor_scroll", ImVec2(0, 0), false)) {
        ImGui::EndChild();
        return;
    }
    ImGui::PushTextWrapPos(0);
    if (!a.input.arch) {
        ImGui::PopTextWrapPos();
        ImGui::EndChild();
        return;
    }
    const AdviceWords w = amd::amd_words(a.now);
    const amd::AmdKernel& k = a.input.kernel;
    const amd::AmdLaunch& l = a.input.launch;
    const std::string name = a.input.gpu ? std::string(a.input.gpu->name) : std::string(a.input.arch->isa);
    ImGui::TextDisabled("%s, %d threads x %d VGPRs, %s dynamic LDS: %d workgroups/%s, %d of %d waves per SIMD, %s occupancy", name.c_str(),
                        l.threads, k.vgprs, format_bytes(l.lds_dynamic).c_str(), a.now.workgroups_per_cu, w.per.c_str(),
                        a.now.waves_per_simd, a.now.max_waves_per_simd, format_percent(a.now.occupancy).c_str());
    advisor_inputs(s, w);
    const Labels lb{"VGPRs", "dynamic LDS", w.per == "WGP" ? "workgroups / WGP" : "workgroups / CU"};

    const bool cols = ImGui::BeginTable("advisor_cols", ImGui::GetContentRegionAvail().x >= em(60) ? 3 : 1,
                                        ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_PadOuterX);
    if (cols) ImGui::TableNextColumn();
    section("Best workgroup size");
    if (a.block.ok()) {
        before_after("ba_block",
                     {col("now", &a.block.before, l.threads, k.vgprs, a.growth.at(l.threads)),
                      col("best", &a.block.after, a.block.threads, k.vgprs, a.block.smem_dynamic)},
                     lb);
        text_wrapped(amd::amd_best_block_sentence(a.block));
        if (a.block.threads != l.threads && ImGui::SmallButton("Use this workgroup size")) {
            s.amd_req.launch.threads = a.block.threads;
            s.amd_req.block = {a.block.threads, 1, 1};
            if (s.advisor.smem_per_thread) s.amd_req.launch.lds_dynamic = a.block.smem_dynamic;
            mark_changed(s);
        }
    } else {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(error_color()), "%s", a.block.error.c_str());
    }
    for (const amd::AmdResourceAdvice* r : {&a.vgprs, &a.lds}) {
        const bool regs = r->resource == Resource::registers;
        if (cols) ImGui::TableNextColumn();
        section(regs ? "VGPRs" : "Dynamic LDS");
        if (!r->ok()) continue;
        auto at = [&](const amd::AmdOccupancyResult* x, const char* title, std::int64_t v) {
            return col(title, x, l.threads, regs ? v : k.vgprs, regs ? l.lds_dynamic : v);
        };
        before_after(regs ? "ba_regs" : "ba_smem",
                     {at(&r->before, "now", r->now), at(&r->at_headroom, "most, same workgroups", r->max_same_blocks),
                      at(r->to_gain_block >= 0 ? &r->after_cut : nullptr, "cut to gain a workgroup", r->to_gain_block)},
                     lb);
        const std::string room = amd::amd_headroom_suggestion(*r);
        text_wrapped(room.empty() ? amd::amd_no_headroom_sentence(*r) : room);
        if (const std::string cut = amd::amd_cut_suggestion(*r, l.threads); !cut.empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(accent_color()));
            text_wrapped(cut);
            ImGui::PopStyleColor();
        }
        if (!r->note.empty()) text_wrapped(r->note);
    }
    if (cols) ImGui::EndTable();
    if (a.at_target.ok())
        text_wrapped("At " + std::to_string(a.at_target.target_blocks) + " workgroups/" + w.per + " a workgroup may use up to " +
                     format_bytes(a.at_target.available) + " of dynamic LDS.");
    else ImGui::TextDisabled("%d workgroups/%s: %s", a.at_target.target_blocks, w.per.c_str(), a.at_target.error.c_str());

    draw_waves(a.waves, a.grid, w);
    if (!s.ptxas_log.empty()) draw_ptxas_import(s);  // a dropped AMD log or rocprof-compute analysis
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
}

}  // namespace occ::ui
