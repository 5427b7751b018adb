// cmd_advise.cpp — `occ advise`: the launch advisor (best block size, register and shared-memory
// headroom, dynamic shared memory at a target occupancy), waves and tail, thread block clusters.
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli.hpp"
#include "occ/format.hpp"
#include "occ/io/api.hpp"

namespace occ::cli {
namespace {

struct Options {
    RequestFlags request;
    bool as_json = false, batch = false;
};

std::string cell(const json& snap, const char* what) {
    if (snap.is_null()) return "-";
    const json& v = snap[what];
    if (std::string(what) == "occupancy") return format_percent(v.get<double>());
    if (std::string(what) == "smem_dynamic") return format_bytes(v.get<long long>());
    if (std::string(what) == "limiters") {
        std::string s;
        for (const auto& l : v) s += (s.empty() ? "" : ", ") + l.get<std::string>();
        for (char& c : s) if (c == '_') c = ' ';
        return s.empty() ? "-" : s;
    }
    return v.dump();
}

// A before/after table: one column per snapshot.
void table(const char* title, std::initializer_list<std::pair<const char*, const json*>> cols) {
    std::printf("\n%s\n  %-16s", title, "");
    for (const auto& c : cols) std::printf(" %-22s", c.first);
    std::printf("\n");
    for (const char* row : {"threads", "regs", "smem_dynamic", "blocks_per_sm", "occupancy", "limiters"}) {
        std::string label = row;
        for (char& ch : label) if (ch == '_') ch = ' ';
        std::printf("  %-16s", label.c_str());
        for (const auto& c : cols) std::printf(" %-22s", cell(*c.second, row).c_str());
        std::printf("\n");
    }
}

void print_human(const json& r) {
    const json& d = r["device"];
    const json& now = r["occupancy"];
    const bool tty = stdout_is_tty();
    std::printf("%s%s%s  cc %s, %d SMs\n", tty ? "\033[1m" : "", d["name"].get<std::string>().c_str(), tty ? "\033[0m" : "",
                d["cc"].get<std::string>().c_str(), d["sm_count"].get<int>());
    std::printf("now: %d threads x %d regs, %s dynamic smem -> %d blocks/SM, %s occupancy (limited by %s)\n", now["threads"].get<int>(),
                now["regs"].get<int>(), format_bytes(now["smem_dynamic"].get<long long>()).c_str(), now["blocks_per_sm"].get<int>(),
                format_percent(now["occupancy"].get<double>()).c_str(), cell(now, "limiters").c_str());
    if (!now["error"].is_null()) std::printf("     %s\n", now["error"].get<std::string>().c_str());

    std::printf("\nSuggestions\n");
    for (const auto& s : r["suggestions"]) std::printf("  * %s\n", s.get<std::string>().c_str());

    const json& b = r["block_size"];
    if (b["error"].is_null()) {
        table("Best block size (cudaOccupancyMaxPotentialBlockSize order: most active threads, ties -> larger block)",
              {{"now", &b["before"]}, {"best", &b["after"]}});
        std::printf("  min grid to fill the GPU: %lld blocks (%d blocks/SM x %d SMs)\n", b["min_grid_blocks"].get<long long>(),
                    b["blocks_per_sm"].get<int>(), d["sm_count"].get<int>());
    } else {
        std::printf("\nBest block size: %s\n", b["error"].get<std::string>().c_str());
    }
    const json& g = r["registers"];
    if (g["error"].is_null()) {
        table("Registers", {{"now", &g["before"]}, {"most, same blocks", &g["at_headroom"]}, {"cut to gain a block", &g["after_cut"]}});
        std::printf("  headroom: +%d registers per thread before losing a block", g["headroom"].get<int>());
        if (!g["cut_to_gain"].is_null()) std::printf("; cut %d to gain one", g["cut_to_gain"].get<int>());
        std::printf("\n");
        if (!g["note"].is_null()) std::printf("  %s\n", g["note"].get<std::string>().c_str());
    }
    const json& s = r["shared_memory"];
    if (s["error"].is_null()) {
        table("Dynamic shared memory", {{"now", &s["before"]}, {"most, same blocks", &s["at_headroom"]}, {"cut to gain a block", &s["after_cut"]}});
        std::printf("  headroom: +%s per block before losing a block", format_bytes(s["headroom"].get<long long>()).c_str());
        if (!s["cut_to_gain"].is_null()) std::printf("; cut %s to gain one", format_bytes(s["cut_to_gain"].get<long long>()).c_str());
        std::printf("\n");
        if (!s["note"].is_null()) std::printf("  %s\n", s["note"].get<std::string>().c_str());
    }
    const json& t = r["dynamic_smem_at_target"];
    std::printf("\nDynamic shared memory available per block at %d blocks/SM (cudaOccupancyAvailableDynamicSMemPerBlock): ", t["target_blocks"].get<int>());
    if (t["error"].is_null()) std::printf("%s\n", format_bytes(t["available"].get<long long>()).c_str());
    else std::printf("none: %s\n", t["error"].get<std::string>().c_str());

    const json& w = r["waves"];
    std::printf("\nWaves%s\n", r["input"].contains("grid") ? "" : " (no --grid: one full wave shown)");
    if (w["error"].is_null()) {
        std::printf("  blocks per wave   %lld (%d blocks/SM x %d SMs)\n", w["blocks_per_wave"].get<long long>(), w["blocks_per_sm"].get<int>(),
                    w["sm_count"].get<int>());
        if (r["input"].contains("grid")) {
            std::printf("  grid              %lld blocks = %s waves (Nsight Compute \"Waves Per SM\")\n", w["grid"].get<long long>(),
                        format_number(w["waves"].get<double>(), 2).c_str());
            std::printf("  last wave         %lld blocks, %s full; busy block slots over the run %s\n", w["tail_blocks"].get<long long>(),
                        format_percent(w["last_wave_fill"].get<double>()).c_str(), format_percent(w["efficiency"].get<double>()).c_str());
            std::printf("  whole waves at    %lld or %lld blocks\n", w["suggested_grid_down"].get<long long>(), w["suggested_grid_up"].get<long long>());
        } else {
            std::printf("  suggested grid    %lld blocks (one full wave, e.g. for a grid-stride loop)\n", w["blocks_per_wave"].get<long long>());
        }
    } else {
        std::printf("  %s\n", w["error"].get<std::string>().c_str());
    }

    const json& c = r["clusters"];
    if (!c.is_null()) {
        std::printf("\nClusters of %d%s\n", c["cluster_size"].get<int>(), c["non_portable"].get<bool>() ? " (non-portable)" : "");
        std::string gpcs;
        for (const auto& x : c["gpc"]["sms_per_gpc"]) gpcs += (gpcs.empty() ? "" : ",") + x.dump();
        std::printf("  GPC layout        %d GPCs: %s SMs%s\n                    %s\n", c["gpc"]["count"].get<int>(), gpcs.c_str(),
                    c["gpc"]["assumed"].get<bool>() ? " (assumed)" : "", c["gpc"]["source"].get<std::string>().c_str());
        if (c["error"].is_null()) {
            std::printf("  max active        %d clusters (%lld blocks of %lld slots, %s; device occupancy %s)\n", c["max_active_clusters"].get<int>(),
                        c["active_blocks"].get<long long>(), c["block_slots"].get<long long>(), format_percent(c["cluster_occupancy"].get<double>()).c_str(),
                        format_percent(c["device_occupancy"].get<double>()).c_str());
        } else {
            std::printf("  %s\n", c["error"].get<std::string>().c_str());
        }
    }
}

}  // namespace

void add_advise(CLI::App& app, Outcome& out) {
    auto o = std::make_shared<Options>();
    auto* cmd = app.add_subcommand("advise", std::string(io::find_kind("advise")->summary));
    cmd->footer(
        "\nEvery suggestion shows occupancy before and after; all numbers come from the same model as\n"
        "`occ occupancy`. With --batch, each stdin line is a JSON object with the occupancy fields plus\n"
        "smem_per_thread, smem_fixed, block_size_limit, target_blocks, cluster_size, non_portable, gpc_sms.\n\n"
        "Examples:\n"
        "  occ advise --gpu A100 --threads 256 --regs 64 --grid 1000\n"
        "  occ advise --gpu A100 --regs 32 --smem-per-thread 128          # smem grows with the block\n"
        "  occ advise --gpu A100 --threads 256 --regs 32 --target-blocks 4  # smem available at 4 blocks/SM\n"
        "  occ advise --gpu H100 --threads 1024 --regs 64 --cluster-size 16 --non-portable");
    add_request_flags(cmd, *io::find_kind("advise"), o->request);
    add_mode_flags(cmd, o->as_json, o->batch);
    cmd->callback([o, &out] { out.code = run_json_kind("advise", o->request, o->as_json, o->batch, print_human); });
}

}  // namespace occ::cli
