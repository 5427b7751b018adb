// cmd_advise.cpp — `occ advise`: the launch advisor (best block size, register and shared-memory
// headroom, dynamic shared memory at a target occupancy), waves and tail, thread block clusters.
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli.hpp"
#include "occ/explain.hpp"
#include "occ/format.hpp"
#include "occ/io/amd.hpp"
#include "occ/io/api.hpp"
#include "occ/text.hpp"

namespace occ::cli {
namespace {

using Options = RequestOptions;

// One column of a before/after table: a launch (threads, registers, dynamic shared memory or LDS) and
// its occupancy, from either vendor's result; without a result every row shows "-".
struct Snap {
    bool has = false;
    std::int64_t threads = 0, regs = 0, smem_dynamic = 0;
    int blocks = 0;
    double occupancy = 0;
    std::string limiters;
};

std::string limiters(unsigned mask) {
    const std::string s = limiter_labels(mask, ", ");
    return s.empty() ? "-" : s;
}

Snap snap(const OccupancyResult* r, std::int64_t threads, std::int64_t regs, std::int64_t smem) {
    if (!r) return {};
    return Snap{true, threads, regs, smem, r->blocks_per_sm, r->occupancy, limiters(r->limiters)};
}
Snap snap(const amd::AmdOccupancyResult* r, std::int64_t threads, std::int64_t regs, std::int64_t smem) {
    if (!r) return {};
    return Snap{true, threads, regs, smem, r->workgroups_per_cu, r->occupancy, r->ok() ? amd::amd_limiter_list(r->limiters, ", ") : "-"};
}

// The rows' labels in a vendor's words.
struct Rows {
    const char* regs = "regs";
    const char* smem = "smem dynamic";
    std::string blocks = "blocks per sm";
    const char* same = "most, same blocks";  // the resource tables' column titles
    const char* cut = "cut to gain a block";
};

std::string cell(const Snap& s, int row) {
    if (!s.has) return "-";
    switch (row) {
        case 0: return std::to_string(s.threads);
        case 1: return std::to_string(s.regs);
        case 2: return format_bytes(s.smem_dynamic);
        case 3: return std::to_string(s.blocks);
        case 4: return format_percent(s.occupancy);
        default: return s.limiters;
    }
}

// A before/after table: one column per snapshot.
void table(const char* title, std::initializer_list<std::pair<const char*, Snap>> cols, const Rows& rows = {}) {
    std::printf("\n%s\n  %-16s", title, "");
    for (const auto& c : cols) std::printf(" %-22s", c.first);
    std::printf("\n");
    const std::string labels[] = {"threads", rows.regs, rows.smem, rows.blocks, "occupancy", "limiters"};
    for (int row = 0; row < 6; ++row) {
        std::printf("  %-16s", labels[row].c_str());
        for (const auto& c : cols) std::printf(" %-22s", cell(c.second, row).c_str());
        std::printf("\n");
    }
}

// Registers (VGPRs) or dynamic shared memory (LDS): now, the most that keeps the blocks, the cut that
// gains one; make(result, value) is the column with the resource at value.
template <typename R, typename Make>
void advice_table(const char* title, const BasicResourceAdvice<R>& a, Make make, const Rows& rows) {
    if (!a.ok()) return;
    const bool gain = a.to_gain_block >= 0;
    table(title,
          {{"now", make(&a.before, a.now)},
           {rows.same, make(&a.at_headroom, a.max_same_blocks)},
           {rows.cut, make(gain ? &a.after_cut : nullptr, a.to_gain_block)}},
          rows);
}

void resource_lines(const std::string& room, const std::string& no_room, const std::string& cut, const std::string& note) {
    // The sentences are core's (occ/advisor.hpp, occ/amd_advisor.hpp), the ones the app's hints show.
    std::printf("  %s\n", (room.empty() ? no_room : room).c_str());
    if (!cut.empty()) std::printf("  %s\n", cut.c_str());
    if (!note.empty()) std::printf("  %s\n", note.c_str());
}

void print_waves(const WaveResult& w, bool grid_given, const AdviceWords& words = {}) {
    std::printf("\nWaves%s\n", grid_given ? "" : " (no --grid: one full wave shown)");
    if (!w.ok()) {
        std::printf("  %s\n", w.error.c_str());
        return;
    }
    if (words.block == "block")
        std::printf("  blocks per wave   %lld (%d blocks/SM x %d SMs)\n", static_cast<long long>(w.blocks_per_wave), w.blocks_per_sm,
                    w.sm_count);
    else
        std::printf("  %s per wave %lld (%d %s/%s x %d %ss)\n", words.blocks.c_str(), static_cast<long long>(w.blocks_per_wave),
                    w.blocks_per_sm, words.blocks.c_str(), words.per.c_str(), w.sm_count, words.per.c_str());
    const char* bs = words.blocks.c_str();
    if (!grid_given) {
        std::printf("  suggested grid    %lld %s (one full wave, e.g. for a grid-stride loop)\n", static_cast<long long>(w.blocks_per_wave),
                    bs);
        return;
    }
    std::printf("  grid              %lld %s = %s waves%s\n", static_cast<long long>(w.grid_blocks), bs, format_number(w.waves, 2).c_str(),
                words.block == "block" ? " (Nsight Compute \"Waves Per SM\")" : "");
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
              {{"now", snap(&b.before, l.threads, k.regs_per_thread, a.growth.at(l.threads))},
               {"best", snap(&b.after, b.threads, k.regs_per_thread, b.smem_dynamic)}});
        std::printf("  %s\n", best_block_sentence(b.threads, b.after.occupancy).c_str());
        std::printf("  min grid to fill the GPU: %lld blocks (%d blocks/SM x %d SMs)\n", static_cast<long long>(b.min_grid_blocks),
                    b.blocks_per_sm, d.sm_count);
    } else {
        std::printf("\nBest block size: %s\n", b.error.c_str());
    }
    for (const ResourceAdvice* r : {&a.registers, &a.shared_memory}) {
        const bool regs = r->resource == Resource::registers;
        advice_table(
            regs ? "Registers" : "Dynamic shared memory", *r,
            [&](const OccupancyResult* x, std::int64_t v) {
                return snap(x, l.threads, regs ? v : k.regs_per_thread, regs ? l.smem_dynamic : v);
            },
            Rows{});
        if (r->ok()) resource_lines(headroom_suggestion(*r), no_headroom_sentence(r->resource, r->before), cut_suggestion(*r), r->note);
    }
    const DynamicSmemAdvice& t = a.at_target;
    std::printf("\nDynamic shared memory available per block at %d blocks/SM (cudaOccupancyAvailableDynamicSMemPerBlock): ",
                t.target_blocks);
    if (t.ok()) std::printf("%s\n", format_bytes(t.available).c_str());
    else std::printf("none: %s\n", t.error.c_str());
    print_waves(a.waves, l.grid_blocks > 0);
    if (a.clusters) print_clusters(*a.clusters);
}

// An AMD GPU's advice: the same parts in AMD's words (occ/amd_advisor.hpp), without the NVIDIA-only ones.
void print_amd_human(const io::AmdAdviseAnswer& a) {
    const amd::AmdArch& arch = *a.input.arch;
    const amd::AmdKernel& k = a.input.kernel;
    const amd::AmdLaunch& l = a.input.launch;
    const AdviceWords w = amd::amd_words(a.now);
    const bool tty = stdout_is_tty();
    std::printf("%s%s%s  %.*s %.*s", tty ? "\033[1m" : "", a.input.gpu ? a.input.gpu->name : std::string(arch.isa).c_str(),
                tty ? "\033[0m" : "", static_cast<int>(arch.isa.size()), arch.isa.data(), static_cast<int>(arch.family.size()),
                arch.family.data());
    if (a.input.gpu) std::printf(", %d CUs", a.input.gpu->sm_count);
    std::printf("\nnow: %d threads x %d VGPRs, %s dynamic LDS -> %d workgroups/%s, %d of %d waves per SIMD, %s occupancy (limited by %s)\n",
                l.threads, k.vgprs, format_bytes(l.lds_dynamic).c_str(), a.now.workgroups_per_cu, w.per.c_str(), a.now.waves_per_simd,
                a.now.max_waves_per_simd, format_percent(a.now.occupancy).c_str(),
                a.now.ok() ? amd::amd_limiter_list(a.now.limiters, ", ").c_str() : a.now.error_message.c_str());
    std::printf("\nSuggestions\n");
    for (const std::string& s : a.suggestions) std::printf("  * %s\n", s.c_str());
    const Rows rows{"VGPRs", "LDS dynamic", "groups per " + w.per, "most, same groups", "to gain a workgroup"};
    const amd::AmdBlockSizeAdvice& b = a.block;
    if (b.ok()) {
        table("Best workgroup size (most active threads, ties -> larger workgroup)",
              {{"now", snap(&b.before, l.threads, k.vgprs, a.growth.at(l.threads))},
               {"best", snap(&b.after, b.threads, k.vgprs, b.smem_dynamic)}},
              rows);
        std::printf("  %s\n", amd::amd_best_block_sentence(b).c_str());
        if (b.min_grid_blocks > 0)
            std::printf("  min grid to fill the GPU: %lld workgroups (%d per %s x %d %ss)\n", static_cast<long long>(b.min_grid_blocks),
                        b.blocks_per_sm, w.per.c_str(), amd::amd_units(b.after, a.input.gpu->sm_count), w.per.c_str());
    } else {
        std::printf("\nBest workgroup size: %s\n", b.error.c_str());
    }
    for (const amd::AmdResourceAdvice* r : {&a.vgprs, &a.lds}) {
        const bool regs = r->resource == Resource::registers;
        advice_table(
            regs ? "VGPRs (arch VGPRs per lane)" : "Dynamic LDS", *r,
            [&](const amd::AmdOccupancyResult* x, std::int64_t v) {
                return snap(x, l.threads, regs ? v : k.vgprs, regs ? l.lds_dynamic : v);
            },
            rows);
        if (r->ok())
            resource_lines(amd::amd_headroom_suggestion(*r), amd::amd_no_headroom_sentence(*r), amd::amd_cut_suggestion(*r, l.threads),
                           r->note);
    }
    const amd::AmdLdsAdvice& t = a.at_target;
    std::printf("\nDynamic LDS available per workgroup at %d workgroups/%s: ", t.target_blocks, w.per.c_str());
    if (t.ok()) std::printf("%s\n", format_bytes(t.available).c_str());
    else std::printf("none: %s\n", t.error.c_str());
    print_waves(a.waves, a.grid > 0, w);
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
        // An AMD GPU or target (--gpu MI300X, --arch gfx942): occ::amd's advice, in the same shape.
        if (const Result<json> req = request_from(o->request); req && io::request_vendor(*req) == io::Vendor::amd) {
            out.code = run_answer(o->request, o->as_json, io::answer_amd_advise, print_amd_human,
                                  [](const io::AmdAdviseAnswer& a) { return a.now.error_message; });
            return;
        }
        out.code = run_answer(o->request, o->as_json, io::answer_advise, print_human,
                              [](const io::AdviseAnswer& a) { return a.now.error_message(); });
    });
}

}  // namespace occ::cli
