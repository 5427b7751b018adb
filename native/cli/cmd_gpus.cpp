// cmd_gpus.cpp — `occ gpus`: the device database.
#include <cstdio>
#include <iostream>

#include "cli.hpp"
#include "occ/format.hpp"
#include "occ/io/api.hpp"

namespace occ::cli {

void add_gpus(CLI::App& app, Outcome& out) {
    auto* cmd = app.add_subcommand("gpus", "List the GPUs and compute capabilities occ knows");
    static bool as_json_v = false;
    bool* as_json = &as_json_v;
    static bool archs_v = false;
    bool* archs = &archs_v;
    cmd->add_flag("--json", *as_json, "Print the database as one JSON object");
    cmd->add_flag("--archs", *archs, "List the per-compute-capability limits instead of named GPUs");
    cmd->callback([&out, as_json, archs] {
        const json db = io::gpus_json();
        out.code = emit_response(db, *as_json, [&](const json& j) {
            if (*archs) {
                std::printf("%-5s %-9s %7s %6s %7s %8s %9s %9s %8s %s\n", "cc", "family", "thr/SM", "blk/SM", "regs/SM", "regs/blk",
                            "smem/SM", "optin/blk", "reserve", "carveouts");
                for (const auto& a : j["archs"]) {
                    std::string carve;
                    for (const auto& c : a["carveouts"]) carve += (carve.empty() ? "" : ",") + std::to_string(c.get<long long>() / 1024);
                    std::printf("%2d.%-2d %-9s %7d %6d %7s %8s %9s %9s %8s %s\n", a["cc_major"].get<int>(), a["cc_minor"].get<int>(),
                                a["family"].get<std::string>().c_str(), a["max_threads_per_sm"].get<int>(),
                                a["max_blocks_per_sm"].get<int>(), format_count(a["regs_per_sm"].get<int>()).c_str(),
                                format_count(a["regs_per_block"].get<int>()).c_str(),
                                format_bytes(a["smem_per_sm"].get<long long>()).c_str(),
                                format_bytes(a["smem_per_block_optin"].get<long long>()).c_str(),
                                format_bytes(a["smem_reserved_per_block"].get<long long>()).c_str(),
                                carve.empty() ? "-" : (carve + " KiB").c_str());
                }
                return;
            }
            std::printf("%-24s %-5s %-10s %4s  %-11s %s\n", "name", "cc", "family", "SMs", "segment", "aliases");
            for (const auto& g : j["gpus"]) {
                std::string aliases;
                for (const auto& a : g["aliases"]) aliases += (aliases.empty() ? "" : ", ") + a.get<std::string>();
                std::printf("%-24s %-5s %-10s %4d  %-11s %s\n", g["name"].get<std::string>().c_str(), g["cc"].get<std::string>().c_str(),
                            g["family"].get<std::string>().c_str(), g["sm_count"].get<int>(), g["segment"].get<std::string>().c_str(),
                            aliases.c_str());
            }
            std::printf(
                "\n%zu GPUs, %zu compute capabilities (occ gpus --archs). Names match in any case, with or without\n"
                "spaces or dashes; --cc 8.0 gives a generic device; --device FILE.json a custom one.\n",
                j["gpus"].size(), j["archs"].size());
        });
    });
}

}  // namespace occ::cli
