// cmd_occupancy.cpp — `occ occupancy`.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli.hpp"
#include "occ/explain.hpp"
#include "occ/format.hpp"
#include "occ/io/amd.hpp"
#include "occ/io/api.hpp"
#include "occ/io/table.hpp"
#include "occ/waves.hpp"

namespace occ::cli {
namespace {

struct Options : RequestOptions {
    std::string ptxas;  // --ptxas FILE: see ptxas_table.cpp
};

// The step function of a sweep: one row per range of the swept input with the same answer.
void print_sweep(const io::OccupancyAnswer& a) {
    const std::string& input = a.sweep_input;
    const bool bytes = input == "smem_dynamic";
    std::printf("\n  sweep of %s (each row holds until the next)\n", input.c_str());
    std::printf("  %12s %9s %9s   %s\n", input.c_str(), "blocks/SM", "occupancy", "limited by");
    const auto& pts = a.sweep;
    for (std::size_t i = 0; i < pts.size(); ++i) {
        const bool change = i == 0 || pts[i].blocks_per_sm != pts[i - 1].blocks_per_sm || pts[i].limiters != pts[i - 1].limiters;
        if (!change && i + 1 != pts.size()) continue;
        const std::string lim = limiter_labels(pts[i].limiters, ", ");
        const long long x = pts[i].x;
        std::printf("  %12s %9d %9s   %s\n", bytes ? format_bytes(x).c_str() : std::to_string(x).c_str(), pts[i].blocks_per_sm,
                    format_percent(pts[i].occupancy).c_str(), lim.c_str());
    }
}

void print_human(const io::OccupancyAnswer& ans) {
    const io::OccupancyRequest& req = ans.input;
    const OccupancyResult& r = ans.result;
    const Device& d = req.device;
    const bool tty = stdout_is_tty();
    const char* bold = tty ? "\033[1m" : "";
    const char* reset = tty ? "\033[0m" : "";
    const WaveResult waves = compute_waves(r, d.sm_count, req.launch.grid_blocks, req.kernel.regs_per_thread);
    const std::vector<io::TableRow> rows = io::occupancy_table(req, r, &waves);
    auto value = [&](std::string_view key) {
        for (const io::TableRow& row : rows)
            if (row.key == key) return row.value;
        return std::string();
    };

    std::printf("%s%s%s  cc %d.%d %s, %d SMs\n", bold, d.name.c_str(), reset, d.arch.cc_major, d.arch.cc_minor, d.arch.family, d.sm_count);
    std::printf("kernel: %s, %d regs/thread, smem %s, carveout %s\n\n", value("Block").c_str(), req.kernel.regs_per_thread,
                value("Shared memory per block").c_str(), value("Carveout").c_str());
    std::printf("  %sOccupancy        %s%s\n", bold, value("Occupancy").c_str(), reset);
    std::printf("  Active per SM    %s\n", value("Active per SM").c_str());
    if (const std::string e = value("Effective"); !e.empty()) std::printf("  Effective        %s\n", e.c_str());
    std::printf("  %s\n\n", value("Summary").c_str());
    // The name column fits the longest row shown ("Virtual resources" only where the kernel declares them).
    int width = 14;
    for (const io::TableRow& row : rows)
        if (row.kind == io::RowKind::limit) width = std::max(width, static_cast<int>(row.key.size()));
    std::printf("  %-*s %9s   %s\n", width, "limit", "blocks/SM", "how");
    for (const io::TableRow& row : rows) {
        if (row.kind != io::RowKind::limit) continue;
        const int v = limit_of(r, row.limiter);
        std::printf("  %-*s %9s %s %s\n", width, row.key.c_str(), v == kUnlimited ? "-" : std::to_string(v).c_str(),
                    row.hit ? (tty ? "\u25c0" : "<") : " ", row.note.c_str());
    }
    std::printf("\n  allocated\n");
    for (const io::TableRow& row : rows)
        if (row.kind == io::RowKind::allocated || row.kind == io::RowKind::waves)
            std::printf("  %-19s %s\n", row.key.c_str(), row.value.c_str());
    bool pool = false;
    for (const io::TableRow& row : rows)
        if (row.kind == io::RowKind::pool) {
            if (!pool) std::printf("\n  register plan (setmaxnreg)\n");
            pool = true;
            std::printf("  %-19s %s\n", row.key.c_str(), row.value.c_str());
        }
    if (!ans.sweep_input.empty()) print_sweep(ans);
}

// An AMD GPU's answer: the same layout, in AMD's words (workgroups per CU, waves per SIMD).
void print_amd_human(const io::AmdAnswer& ans) {
    const std::vector<io::TableRow> rows = io::amd_occupancy_table(ans);
    const amd::AmdArch& a = *ans.input.arch;
    const bool tty = stdout_is_tty();
    const char* bold = tty ? "\033[1m" : "";
    const char* reset = tty ? "\033[0m" : "";
    auto value = [&](std::string_view key) {
        for (const io::TableRow& row : rows)
            if (row.key == key) return row.value;
        return std::string();
    };
    const std::string unit = ans.result.wgp_mode ? "WGP" : "CU";
    if (ans.input.gpu)
        std::printf("%s%s%s  AMD %s %s, %d CUs\n", bold, ans.input.gpu->name, reset, std::string(a.isa).c_str(),
                    std::string(a.family).c_str(), ans.input.gpu->sm_count);
    else std::printf("%s%s%s  AMD %s (one %s)\n", bold, std::string(a.isa).c_str(), reset, std::string(a.family).c_str(), unit.c_str());
    std::printf("kernel: %s, %s, LDS %s\n\n", value("Workgroup").c_str(), value("Registers").c_str(), value("LDS per workgroup").c_str());
    std::printf("  %sOccupancy        %s%s\n", bold, value("Occupancy").c_str(), reset);
    std::printf("  Active per %-5s %s\n", unit.c_str(), value("Active per " + unit).c_str());
    std::printf("  %s\n", value("Summary").c_str());
    if (const std::string llvm = value("LLVM's estimate"); !llvm.empty())
        std::printf("  LLVM's estimate  %s (llc `; Occupancy:`)\n", llvm.c_str());
    std::printf("\n  %-16s %12s   %s\n", "limit", ("groups/" + unit).c_str(), "how");
    for (const io::TableRow& row : rows)
        if (row.kind == io::RowKind::limit)
            std::printf("  %-16s %12s %s %s\n", row.key.c_str(), row.value.c_str(), row.hit ? (tty ? "\u25c0" : "<") : " ",
                        row.note.c_str());
    std::printf("\n  allocated\n");
    for (const io::TableRow& row : rows)
        if (row.kind == io::RowKind::allocated || row.kind == io::RowKind::waves)
            std::printf("  %-19s %s\n", row.key.c_str(), row.value.c_str());
    if (const std::string fix = value("To fit more"); !fix.empty()) std::printf("\n  %s\n", fix.c_str());
}

}  // namespace

void add_occupancy(CLI::App& app, Outcome& out) {
    auto o = std::make_shared<Options>();
    auto* cmd = add_request_command(app, "occupancy", R"help(
Sizes accept bytes or K/M suffixes: 49152, 48K, 48KiB. Every flag is a JSON field of a
--batch line with '-' turned into '_' (--smem-dynamic = "smem_dynamic"); docs/INPUTS.md
lists each field's range. The device defaults to A100-SXM4-80GB.

Examples:
  occ occupancy --gpu A100 --threads 256 --regs 64
  occ occupancy --gpu h100 --threads 128 --regs 96 --smem-dynamic 100K --optin --json
  occ occupancy --gpu A100 --regs 64 --sweep threads
  occ occupancy --gpu A100 --ptxas build.log        # every kernel of a compiler log
  occ occupancy --gpu MI300X --threads 256 --regs 128 --sgprs 40   # AMD: regs = VGPRs
  occ occupancy --arch gfx1100 --threads 256 --regs 96 --smem-static 32K --cu-mode
  echo '{"gpu":"A100","threads":256,"regs":64}' | occ occupancy --batch)help",
                                    *o);
    cmd->add_option("--ptxas", o->ptxas,
                    "Occupancy of every kernel in an nvcc -Xptxas -v / cuobjdump --dump-resource-usage log (- = stdin)");
    cmd->callback([o, &out] {
        if (!o->ptxas.empty()) {
            out.code = run_ptxas_table(o->ptxas, request_from(o->request), o->as_json);
            return;
        }
        if (o->batch) {
            out.code = run_batch("occupancy", std::cin, std::cout);
            return;
        }
        const Result<json> req = request_from(o->request);
        if (req && io::is_amd_request(*req)) {
            const Result<io::AmdAnswer> a = io::answer_amd_occupancy(*req);
            // A launch the model refuses: its JSON answer still holds every limit; the table, only the error.
            if (a && !a->result.ok() && !o->as_json) {
                out.code = print_error(a->result.error_message, false);
                return;
            }
            out.code = emit(
                a, o->as_json, [](const io::AmdAnswer& x) { return io::to_json(x); }, print_amd_human);
            if (a && !a->result.ok()) out.code = kExitUsage;
            return;
        }
        const Result<io::OccupancyAnswer> a = req ? io::answer_occupancy(*req) : Result<io::OccupancyAnswer>::fail(req.error);
        // A launch the model refuses still has an answer (every limit, and why) in its JSON; the
        // table of a refused launch would show zeros, so the human output is the error alone.
        if (a && !a->result.ok() && !o->as_json) {
            out.code = print_error(a->result.error_message(), false);
            return;
        }
        out.code = emit(
            a, o->as_json, [](const io::OccupancyAnswer& x) { return io::to_json(x); }, print_human);
        if (a && !a->result.ok()) out.code = kExitUsage;
    });
}

}  // namespace occ::cli
