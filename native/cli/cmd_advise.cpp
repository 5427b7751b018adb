// cmd_advise.cpp — `occ advise`: the launch advisor (best block size, register and shared-memory
// headroom, dynamic shared memory at a target occupancy), waves and tail, thread block clusters.
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli.hpp"
#include "occ/explain.hpp"
#include "occ/format.hpp"
#include "occ/io/advice_view.hpp"
#include "occ/io/api.hpp"
#include "occ/text.hpp"

namespace occ::cli {
namespace {

using Options = RequestOptions;

// A before/after table (io::AdviceTable): one column per option, the labels in the target's words.
void print_table(const io::AdviceTable& t, const std::array<std::string, 6>& labels) {
    if (!t.error.empty()) {
        if (t.block) std::printf("\n%s: %s\n", t.title.c_str(), t.error.c_str());
        return;
    }
    // Columns as wide as their titles (22 at least); labels as wide as the widest (16 at least).
    int width = 22, label = 16;
    for (const io::AdviceOption& o : t.options) width = std::max(width, static_cast<int>(o.title.size()) + 1);
    for (const std::string& l : labels) label = std::max(label, static_cast<int>(l.size()));
    std::printf("\n%s%s%s%s\n  %-*s", t.title.c_str(), t.rule.empty() ? "" : " (", t.rule.c_str(), t.rule.empty() ? "" : ")", label, "");
    for (const io::AdviceOption& o : t.options) std::printf(" %-*s", width, o.title.c_str());
    std::printf("\n");
    for (int row = 0; row < 6; ++row) {
        std::printf("  %-*s", label, labels[row].c_str());
        for (const io::AdviceOption& o : t.options) {
            std::string cell = "-";
            if (o.has) switch (row) {
                    case 0: cell = std::to_string(o.threads); break;
                    case 1: cell = std::to_string(o.regs); break;
                    case 2: cell = format_bytes(o.smem); break;
                    case 3: cell = std::to_string(o.blocks); break;
                    case 4: cell = format_percent(o.occupancy); break;
                    default: cell = io::limiter_list(o.limiters, false);
                }
            std::printf(" %-*s", width, cell.c_str());
        }
        std::printf("\n");
    }
    for (const io::AdviceLine& l : t.lines) std::printf("  %s\n", l.text.c_str());
}

void print_waves(const WaveResult& w, bool grid_given, const AdviceWords& words) {
    std::printf("\nWaves%s\n", grid_given ? "" : " (no --grid: one full wave shown)");
    if (!w.ok()) {
        std::printf("  %s\n", w.error.c_str());
        return;
    }
    const char* bs = words.blocks.c_str();
    const char* per = words.per.c_str();
    std::printf("  %-17s %lld (%d %s/%s x %d %ss)\n", (words.blocks + " per wave").c_str(), static_cast<long long>(w.blocks_per_wave),
                w.blocks_per_sm, bs, per, w.sm_count, per);
    if (!grid_given) {
        std::printf("  suggested grid    %lld %s (one full wave, e.g. for a grid-stride loop)\n", static_cast<long long>(w.blocks_per_wave),
                    bs);
        return;
    }
    const std::string metric = words.waves_metric.empty() ? "" : " (" + words.waves_metric + ")";
    std::printf("  grid              %lld %s = %s waves%s\n", static_cast<long long>(w.grid_blocks), bs, format_number(w.waves, 2).c_str(),
                metric.c_str());
    std::printf("  last wave         %lld %s, %s full; busy %s slots over the run %s\n", static_cast<long long>(w.tail_blocks), bs,
                format_percent(w.last_wave_fill).c_str(), words.block.c_str(), format_percent(w.efficiency).c_str());
    std::printf("  whole waves at    %lld or %lld %s\n", static_cast<long long>(w.suggested_grid_down),
                static_cast<long long>(w.suggested_grid_up), bs);
}

void print_clusters(const ClusterResult& c) {
    std::printf("\nClusters of %d%s\n", c.cluster_size, c.non_portable ? " (non-portable)" : "");
    std::string gpcs;
    for (int x : c.layout.sms_per_gpc) join_into(gpcs, ",", std::to_string(x));
    std::printf("  GPC layout        %d GPCs: %s SMs%s\n                    %s\n", c.layout.gpc_count(), gpcs.c_str(),
                c.layout.assumed ? " (assumed)" : "", c.layout.source.c_str());
    if (c.ok())
        std::printf("  max active        %d clusters (%lld blocks of %lld slots, %s; device occupancy %s)\n", c.max_active_clusters,
                    static_cast<long long>(c.active_blocks), static_cast<long long>(c.block_slots),
                    format_percent(c.cluster_occupancy).c_str(), format_percent(c.device_occupancy).c_str());
    else std::printf("  %s\n", c.error.c_str());
}

// Either vendor's advice (io::advice_view): the same parts in the target's words.
void print_human(const io::AdviceView& v) {
    const bool tty = stdout_is_tty();
    std::printf("%s%s%s  %s\n", tty ? "\033[1m" : "", v.name.c_str(), tty ? "\033[0m" : "", v.device.c_str());
    std::printf("now: %s\n", v.now.c_str());
    std::printf("\nSuggestions\n");
    for (const std::string& s : v.suggestions) std::printf("  * %s\n", s.c_str());
    print_table(v.block, v.rows);
    for (const io::AdviceTable& t : v.resources) print_table(t, v.rows);
    std::printf("\n%s\n", v.at_target_error.empty() ? v.at_target.c_str() : v.at_target_error.c_str());
    print_waves(v.waves, v.grid_given, v.words);
    if (v.clusters) print_clusters(*v.clusters);
}

}  // namespace

void add_advise(CLI::App& app, Outcome& out) {
    auto o = std::make_shared<Options>();
    auto* cmd = add_request_command(app, "advise", R"help(
Every suggestion shows occupancy before and after; all numbers come from the same model as
`occ occupancy`. With --batch, each stdin line is a JSON object with the occupancy fields plus
smem_per_thread, smem_fixed, block_size_limit, target_blocks, cluster_size, non_portable, gpc_sms.

Examples:
  occ advise --gpu A100 --threads 256 --regs 64 --grid 1000
  occ advise --gpu A100 --regs 32 --smem-per-thread 128          # smem grows with the block
  occ advise --gpu A100 --threads 256 --regs 32 --target-blocks 4  # smem available at 4 blocks/SM
  occ advise --gpu H100 --threads 1024 --regs 64 --cluster-size 16 --non-portable)help",
                                    *o);
    cmd->callback([o, &out] {
        if (o->batch) {
            out.code = run_batch("advise", std::cin, std::cout, o->fields);
            return;
        }
        // Either vendor (--gpu A100, --gpu MI300X, --arch gfx942): io::advice_view resolves it.
        out.code = run_answer(
            o->request, o->as_json, [](const json& r) { return io::advice_view(r); }, print_human,
            [](const io::AdviceView& v) { return v.error; });
    });
}

}  // namespace occ::cli
