// cmd_advise.cpp — `occ advise`: the launch advisor (best block size, register and shared-memory
// headroom, dynamic shared memory at a target occupancy), waves and tail, thread block clusters.
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli.hpp"
#include "occ/explain.hpp"
#include "occ/format.hpp"
#include "occ/io/api.hpp"

namespace occ::cli {
namespace {

using Options = RequestOptions;

// One column of a before/after table: a launch (threads, registers, dynamic shared memory) and its
// occupancy; without a result every row shows "-".
struct Snap {
    const OccupancyResult* r = nullptr;
    std::int64_t threads = 0, regs = 0, smem_dynamic = 0;
};

std::string limiters(unsigned mask) {
    const std::string s = limiter_labels(mask, ", ");
    return s.empty() ? "-" : s;
}

std::string cell(const Snap& s, std::string_view row) {
    if (!s.r) return "-";
    if (row == "threads") return std::to_string(s.threads);
    if (row == "regs") return std::to_string(s.regs);
    if (row == "smem_dynamic") return format_bytes(s.smem_dynamic);
    if (row == "blocks_per_sm") return std::to_string(s.r->blocks_per_sm);
    if (row == "occupancy") return format_percent(s.r->occupancy);
    return limiters(s.r->limiters);
}

// A before/after table: one column per snapshot.
void table(const char* title, std::initializer_list<std::pair<const char*, Snap>> cols) {
    std::printf("\n%s\n  %-16s", title, "");
    for (const auto& c : cols) std::printf(" %-22s", c.first);
    std::printf("\n");
    for (const char* row : {"threads", "regs", "smem_dynamic", "blocks_per_sm", "occupancy", "limiters"}) {
        std::string label = row;
        for (char& ch : label)
            if (ch == '_') ch = ' ';
        std::printf("  %-16s", label.c_str());
        for (const auto& c : cols) std::printf(" %-22s", cell(c.second, row).c_str());
        std::printf("\n");
    }
}

// Registers or dynamic shared memory: now, the most that keeps the blocks, the cut that gains one.
void advice_table(const char* title, const ResourceAdvice& a, Snap now, std::int64_t Snap::*resource) {
    if (!a.ok()) return;
    const bool gain = a.to_gain_block >= 0;
    Snap most = now, cut = now;
    now.r = &a.before;
    most.r = &a.at_headroom;
    most.*resource = a.max_same_blocks;
    cut.r = gain ? &a.after_cut : nullptr;
    cut.*resource = a.to_gain_block;
    table(title, {{"now", now}, {"most, same blocks", most}, {"cut to gain a block", cut}});
    // The sentences are core's (occ/advisor.hpp), the ones the app's hints show.
    const std::string room = headroom_suggestion(a);
    std::printf("  %s\n", (room.empty() ? no_headroom_sentence(a.resource, a.before) : room).c_str());
    if (gain) std::printf("  %s\n", cut_suggestion(a).c_str());
    if (!a.note.empty()) std::printf("  %s\n", a.note.c_str());
}

void print_waves(const WaveResult& w, bool grid_given) {
    std::printf("\nWaves%s\n", grid_given ? "" : " (no --grid: one full wave shown)");
    if (!w.ok()) {
        std::printf("  %s\n", w.error.c_str());
        return;
    }
    std::printf("  blocks per wave   %lld (%d blocks/SM x %d SMs)\n", static_cast<long long>(w.blocks_per_wave), w.blocks_per_sm,
                w.sm_count);
    if (!grid_given) {
        std::printf("  suggested grid    %lld blocks (one full wave, e.g. for a grid-stride loop)\n",
                    static_cast<long long>(w.blocks_per_wave));
        return;
    }
    std::printf("  grid              %lld blocks = %s waves (Nsight Compute \"Waves Per SM\")\n", static_cast<long long>(w.grid_blocks),
                format_number(w.waves, 2).c_str());
    std::printf("  last wave         %lld blocks, %s full; busy block slots over the run %s\n", static_cast<long long>(w.tail_blocks),
                format_percent(w.last_wave_fill).c_str(), format_percent(w.efficiency).c_str());
    std::printf("  whole waves at    %lld or %lld blocks\n", static_cast<long long>(w.suggested_grid_down),
                static_cast<long long>(w.suggested_grid_up));
}

void print_clusters(const ClusterResult& c) {
    std::printf("\nClusters of %d%s\n", c.cluster_size, c.non_portable ? " (non-portable)" : "");
    std::string gpcs;
    for (int x : c.layout.sms_per_gpc) gpcs += (gpcs.empty() ? "" : ",") + std::to_string(x);
    std::printf("  GPC layout        %d GPCs: %s SMs%s\n                    %s\n", c.layout.gpc_count(), gpcs.c_str(),
                c.layout.assumed ? " (assumed)" : "", c.layout.source.c_str());
    if (c.ok())
        std::printf("  max active        %d clusters (%lld blocks of %lld slots, %s; device occupancy %s)\n", c.max_active_clusters,
                    static_cast<long long>(c.active_blocks), static_cast<long long>(c.block_slots),
                    format_percent(c.cluster_occupancy).c_str(), format_percent(c.device_occupancy).c_str());
    else std::printf("  %s\n", c.error.c_str());
}

void print_human(const io::AdviseAnswer& a) {
    const Device& d = a.input.device;
    const KernelResources& k = a.input.kernel;
    const LaunchConfig& l = a.input.launch;
    const bool tty = stdout_is_tty();
    std::printf("%s%s%s  cc %d.%d, %d SMs\n", tty ? "\033[1m" : "", d.name.c_str(), tty ? "\033[0m" : "", d.arch.cc_major, d.arch.cc_minor,
                d.sm_count);
    std::printf("now: %d threads x %d regs, %s dynamic smem -> %d blocks/SM, %s occupancy (limited by %s)\n", l.threads, k.regs_per_thread,
                format_bytes(l.smem_dynamic).c_str(), a.now.blocks_per_sm, format_percent(a.now.occupancy).c_str(),
                limiters(a.now.limiters).c_str());

    std::printf("\nSuggestions\n");
    for (const std::string& s : a.suggestions) std::printf("  * %s\n", s.c_str());

    const BlockSizeAdvice& b = a.block;
    if (b.ok()) {
        table("Best block size (cudaOccupancyMaxPotentialBlockSize order: most active threads, ties -> larger block)",
              {{"now", Snap{&b.before, l.threads, k.regs_per_thread, a.growth.at(l.threads)}},
               {"best", Snap{&b.after, b.threads, k.regs_per_thread, b.smem_dynamic}}});
        std::printf("  %s\n", best_block_sentence(b.threads, b.after.occupancy).c_str());
        std::printf("  min grid to fill the GPU: %lld blocks (%d blocks/SM x %d SMs)\n", static_cast<long long>(b.min_grid_blocks),
                    b.blocks_per_sm, d.sm_count);
    } else {
        std::printf("\nBest block size: %s\n", b.error.c_str());
    }
    const Snap now{nullptr, l.threads, k.regs_per_thread, l.smem_dynamic};
    advice_table("Registers", a.registers, now, &Snap::regs);
    advice_table("Dynamic shared memory", a.shared_memory, now, &Snap::smem_dynamic);
    const DynamicSmemAdvice& t = a.at_target;
    std::printf("\nDynamic shared memory available per block at %d blocks/SM (cudaOccupancyAvailableDynamicSMemPerBlock): ",
                t.target_blocks);
    if (t.ok()) std::printf("%s\n", format_bytes(t.available).c_str());
    else std::printf("none: %s\n", t.error.c_str());
    print_waves(a.waves, l.grid_blocks > 0);
    if (a.clusters) print_clusters(*a.clusters);
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
        if (o->batch) out.code = run_batch("advise", std::cin, std::cout);
        else
            out.code = run_answer(o->request, o->as_json, io::answer_advise, print_human,
                                  [](const io::AdviseAnswer& a) { return a.now.error_message(); });
    });
}

}  // namespace occ::cli
