// cmd_gpus.cpp — `occ gpus`: the device database.
#include <cstdio>
#include <iostream>

#include "cli.hpp"
#include "occ/format.hpp"
#include "occ/io/api.hpp"
#include "occ/text.hpp"

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
                    for (const auto& c : a["carveouts"]) join_into(carve, ",", std::to_string(c.get<long long>() / 1024));
                    std::printf("%2d.%-2d %-9s %7d %6d %7s %8s %9s %9s %8s %s\n", a["cc_major"].get<int>(), a["cc_minor"].get<int>(),
                                a["family"].get<std::string>().c_str(), a["max_threads_per_sm"].get<int>(),
                                a["max_blocks_per_sm"].get<int>(), format_count(a["regs_per_sm"].get<int>()).c_str(),
                                format_count(a["regs_per_block"].get<int>()).c_str(),
                                format_bytes(a["smem_per_sm"].get<long long>()).c_str(),
                                format_bytes(a["smem_per_block_optin"].get<long long>()).c_str(),
                                format_bytes(a["smem_reserved_per_block"].get<long long>()).c_str(),
                                carve.empty() ? "-" : (carve + " KiB").c_str());
                }
                std::printf("\n%-8s %-8s %4s %5s %6s %13s %6s %9s %8s %s\n", "AMD", "family", "wave", "SIMDs", "waves", "VGPRs/SIMD",
                            "AGPRs", "SGPRs", "LDS/CU", "LDS/WG");
                for (const auto& a : j["amd_targets"]) {
                    const std::string wave = a["wave_sizes"].size() > 1 ? "32/64" : "64";
                    const std::string vgprs = a["vgprs_per_simd_wave32"].is_null()
                                                  ? std::to_string(a["vgprs_per_simd_wave64"].get<int>())
                                                  : std::to_string(a["vgprs_per_simd_wave32"].get<int>()) + "/" +
                                                        std::to_string(a["vgprs_per_simd_wave64"].get<int>());
                    std::printf("%-8s %-8s %4s %5d %6d %13s %6s %9s %8s %s\n", a["isa"].get<std::string>().c_str(),
                                a["family"].get<std::string>().c_str(), wave.c_str(), a["simds_per_cu"].get<int>(),
                                a["max_waves_per_simd"].get<int>(), vgprs.c_str(), a["agprs"].get<std::string>().c_str(),
                                a["sgprs_limit_occupancy"].get<bool>() ? "limit" : "own/wave",
                                format_bytes(a["lds_per_cu"].get<long long>()).c_str(),
                                format_bytes(a["lds_per_workgroup"].get<long long>()).c_str());
                }
                std::printf("\nRDNA targets run a workgroup on a WGP (two CUs: 4 SIMDs, twice the LDS) unless --cu-mode.\n");
                return;
            }
            std::printf("%-24s %-5s %-10s %4s  %-11s %s\n", "name", "cc", "family", "SMs", "segment", "aliases");
            for (const auto& g : j["gpus"]) {
                std::string aliases;
                for (const auto& a : g["aliases"]) join_into(aliases, ", ", a.get<std::string>());
                std::printf("%-24s %-5s %-10s %4d  %-11s %s\n", g["name"].get<std::string>().c_str(), g["cc"].get<std::string>().c_str(),
                            g["family"].get<std::string>().c_str(), g["sm_count"].get<int>(), g["segment"].get<std::string>().c_str(),
                            aliases.c_str());
            }
            std::printf("\n%-24s %-8s %-10s %4s  %-11s %s\n", "AMD", "target", "family", "CUs", "segment", "aliases");
            for (const auto& g : j["amd_gpus"]) {
                std::string aliases;
                for (const auto& a : g["aliases"]) join_into(aliases, ", ", a.get<std::string>());
                std::printf("%-24s %-8s %-10s %4d  %-11s %s\n", g["name"].get<std::string>().c_str(), g["isa"].get<std::string>().c_str(),
                            g["family"].get<std::string>().c_str(), g["compute_units"].get<int>(), g["segment"].get<std::string>().c_str(),
                            aliases.c_str());
            }
            std::printf(
                "\n%zu NVIDIA GPUs, %zu compute capabilities, %zu AMD GPUs, %zu AMD targets (occ gpus --archs). Names match in\n"
                "any case, with or without spaces or dashes; --cc 8.0 gives a generic device, --arch gfx942 an AMD target;\n"
                "--device FILE.json a custom NVIDIA one.\n",
                j["gpus"].size(), j["archs"].size(), j["amd_gpus"].size(), j["amd_targets"].size());
        });
    });
}

}  // namespace occ::cli
