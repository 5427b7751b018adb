// cmd_occupancy.cpp — `occ occupancy`.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli.hpp"
#include "occ/explain.hpp"
#include "occ/format.hpp"
#include "occ/io/api.hpp"
#include "occ/io/fields.hpp"

namespace occ::cli {
namespace {

struct Options {
    std::string gpu, cc, device, threads, block, regs, smem_static, smem_dynamic, carveout, cache_config, max_dyn, barriers, pgc, grid, sweep;
    bool optin = false, as_json = false, batch = false;
    std::string ptxas;   // --ptxas FILE (issue 6): see ptxas_table.cpp
};

// Flags become the same JSON request a --batch line would carry, so both paths share one parser.
json request_from(const Options& o) {
    json r = json::object();
    if (!o.gpu.empty()) r["gpu"] = o.gpu;
    if (!o.cc.empty()) r["cc"] = o.cc;
    if (!o.device.empty()) {
        std::string text = o.device;
        if (text.find('{') == std::string::npos) {
            std::ifstream f(o.device);
            if (!f) throw io::RequestError("device: cannot read file \"" + o.device + "\" (give a JSON file or inline JSON)");
            std::stringstream ss;
            ss << f.rdbuf();
            text = ss.str();
        }
        json d = json::parse(text, nullptr, false);
        if (d.is_discarded()) throw io::RequestError("device: not valid JSON");
        r["device"] = d;
    }
    if (!o.threads.empty()) r["threads"] = o.threads;
    if (!o.block.empty()) {
        json b = json::array();
        std::stringstream ss(o.block);
        std::string part;
        while (std::getline(ss, part, part.find('x') != std::string::npos ? 'x' : ',')) {
            try {
                std::size_t pos = 0;
                long v = std::stol(part, &pos);
                if (pos != part.size()) throw 0;
                b.push_back(v);
            } catch (...) {
                throw io::RequestError("block: must be X[,Y[,Z]] with integers, e.g. 32,8 (got \"" + o.block + "\")");
            }
        }
        r["block"] = b;
    }
    auto put = [&](const char* k, const std::string& v) { if (!v.empty()) r[k] = v; };
    put("regs", o.regs);
    put("smem_static", o.smem_static);
    put("smem_dynamic", o.smem_dynamic);
    put("carveout", o.carveout);
    put("cache_config", o.cache_config);
    put("max_dynamic_smem", o.max_dyn);
    put("barriers", o.barriers);
    put("partitioned_gc", o.pgc);
    put("grid", o.grid);
    put("sweep", o.sweep);
    if (o.optin) r["optin"] = true;
    return r;
}

// The step function of a sweep: one row per range of the swept input with the same answer.
void print_sweep(const json& sw) {
    const std::string input = sw["input"].get<std::string>();
    const bool bytes = input == "smem_dynamic";
    std::printf("\n  sweep of %s (each row holds until the next)\n", input.c_str());
    std::printf("  %12s %9s %9s   %s\n", input.c_str(), "blocks/SM", "occupancy", "limited by");
    for (const auto& p : sw["points"]) {
        std::string lim;
        for (const auto& l : p["limiters"]) lim += (lim.empty() ? "" : ", ") + l.get<std::string>();
        const long long x = p["x"].get<long long>();
        std::printf("  %12s %9d %9s   %s\n", bytes ? format_bytes(x).c_str() : std::to_string(x).c_str(), p["blocks_per_sm"].get<int>(),
                    format_percent(p["occupancy"].get<double>()).c_str(), lim.c_str());
    }
}

void print_human(const json& res) {
    // Re-read the echoed input so the explanations use exactly what was computed.
    json in = res["input"];
    io::FieldReader f(in, "input");
    io::OccupancyRequest req = io::read_occupancy_request(f);
    const OccupancyResult r = compute_occupancy(req.device, req.kernel, req.launch);
    const Device& d = req.device;
    const ArchRules& a = d.arch;
    const bool tty = stdout_is_tty();
    const char* bold = tty ? "\033[1m" : "";
    const char* reset = tty ? "\033[0m" : "";

    std::printf("%s%s%s  cc %d.%d %s, %d SMs\n", bold, d.name.c_str(), reset, a.cc_major, a.cc_minor, a.family, d.sm_count);
    std::printf("kernel: %d threads (%d warps), %d regs/thread, smem %s static + %s dynamic%s, carveout %s\n\n", req.launch.threads,
                r.warps_per_block, req.kernel.regs_per_thread, format_bytes(req.kernel.smem_static).c_str(),
                format_bytes(req.launch.smem_dynamic).c_str(), req.kernel.optin ? " (opt-in)" : "",
                req.launch.carveout < 0 ? "default" : (std::to_string(req.launch.carveout) + "%").c_str());
    std::printf("  %sOccupancy        %s%s  (%d of %d warps per SM)\n", bold, format_percent(r.occupancy).c_str(), reset, r.warps_per_sm,
                r.max_warps_per_sm);
    std::printf("  Active per SM    %d blocks, %d warps, %d threads\n", r.blocks_per_sm, r.warps_per_sm, r.threads_per_sm);
    std::printf("  %s\n\n", summarize(r).c_str());
    std::printf("  %-14s %9s   %s\n", "limit", "blocks/SM", "how");
    for (Limiter l : kAllLimiters) {
        int v = 0;
        switch (l) {
            case kLimitWarps: v = r.limit_warps; break;
            case kLimitRegisters: v = r.limit_registers; break;
            case kLimitSharedMemory: v = r.limit_shared_memory; break;
            case kLimitBlocks: v = r.limit_blocks; break;
            case kLimitBarriers: v = r.limit_barriers; break;
        }
        std::string name = limiter_name(l);
        for (char& c : name) if (c == '_') c = ' ';
        const bool hit = (r.limiters & l) != 0;
        std::printf("  %-14s %9s %s %s\n", name.c_str(), v == kUnlimited ? "-" : std::to_string(v).c_str(), hit ? (tty ? "\u25c0" : "<") : " ",
                    explain_limit(l, d, req.kernel, req.launch, r).c_str());
    }
    std::printf("\n  allocated\n");
    std::printf("  %-18s %s (%d x 32 rounded up to %d)\n", "registers/warp", format_count(r.regs_per_warp_allocated).c_str(),
                req.kernel.regs_per_thread, a.reg_alloc_unit);
    std::printf("  %-18s %s\n", "registers/block", format_count(r.regs_per_block_allocated).c_str());
    std::printf("  %-18s %s (static + dynamic + %s reserved, rounded to %d B; limit %s)\n", "shared mem/block",
                format_bytes(r.smem_per_block_allocated).c_str(), format_bytes(a.smem_reserved_per_block).c_str(), a.smem_alloc_unit,
                format_bytes(r.smem_per_block_limit).c_str());
    std::printf("  %-18s %s (carveout the driver picks)\n", "shared mem/SM", format_bytes(r.smem_per_sm_configured).c_str());
    if (res.contains("sweep")) print_sweep(res["sweep"]);
}

}  // namespace

void add_occupancy(CLI::App& app, Outcome& out) {
    auto o = std::make_shared<Options>();
    auto* cmd = app.add_subcommand("occupancy", "Theoretical occupancy of a kernel launch on one SM");
    cmd->footer(
        "\nSizes accept bytes or K/M suffixes: 49152, 48K, 48KiB.\n"
        "The device defaults to A100-SXM4-80GB. With --batch, each stdin line is a JSON object with the\n"
        "fields gpu|cc|device, threads|block, regs, smem_static, smem_dynamic, carveout, cache_config,\n"
        "optin, max_dynamic_smem, barriers, partitioned_gc, grid, sweep, id; one JSON line is written per line.\n\n"
        "Example:\n  occ occupancy --gpu A100-SXM4-80GB --threads 256 --regs 64 --smem-dynamic 48K --optin");
    cmd->add_option("--gpu,-g", o->gpu, "GPU name or alias (see `occ gpus`), e.g. A100, h100, RTX-4090");
    cmd->add_option("--cc", o->cc, "Compute capability instead of a GPU, e.g. 8.0 or sm_90");
    cmd->add_option("--device", o->device, "Custom device: JSON file or inline JSON with cudaDeviceProp field names");
    cmd->add_option("--threads,-t", o->threads, "Threads per block (1..1024) [256]");
    cmd->add_option("--block", o->block, "3-D block instead of --threads, e.g. 32,8 or 16x16x4");
    cmd->add_option("--regs,-r", o->regs, "Registers per thread (0..255) [32]");
    cmd->add_option("--smem-static", o->smem_static, "Static shared memory per block (bytes or 48K) [0]");
    cmd->add_option("--smem-dynamic,-s", o->smem_dynamic, "Dynamic shared memory per block [0]");
    cmd->add_option("--carveout", o->carveout, "Preferred shared-memory carveout in percent, -1 = default [-1]");
    cmd->add_option("--cache-config", o->cache_config, "Cache preference: none, shared, l1, equal [none]");
    cmd->add_flag("--optin", o->optin, "Kernel raised its dynamic shared-memory limit to the device's opt-in maximum");
    cmd->add_option("--max-dynamic-smem", o->max_dyn, "Explicit cudaFuncAttributeMaxDynamicSharedMemorySize");
    cmd->add_option("--barriers", o->barriers, "Named barriers per block (0..16) [1]");
    cmd->add_option("--partitioned-gc", o->pgc, "Partitioned global caching on 5.2/5.3/6.1/6.2: off, on, strict [off]");
    cmd->add_option("--grid", o->grid, "Blocks in the grid (for wave figures)");
    cmd->add_option("--sweep", o->sweep, "Also show occupancy against one input: threads, regs or smem");
    cmd->add_option("--ptxas", o->ptxas, "Occupancy of every kernel in an nvcc -Xptxas -v / cuobjdump --dump-resource-usage log (- = stdin)");
    cmd->add_flag("--json", o->as_json, "Print one JSON object");
    cmd->add_flag("--batch", o->batch, "Read JSON Lines on stdin, write one JSON line per input line");
    cmd->callback([o, &out] {
        if (!o->ptxas.empty()) {
            out.code = run_ptxas_table(o->ptxas, [o] { return request_from(*o); }, o->as_json);
            return;
        }
        if (o->batch) {
            out.code = run_batch("occupancy", std::cin, std::cout);
            return;
        }
        json res;
        try {
            res = io::handle("occupancy", request_from(*o));
        } catch (const io::RequestError& e) {
            res = json{{"error", e.what()}};
        }
        out.code = emit(res, o->as_json, print_human);
    });
}

}  // namespace occ::cli
