// ptxas_table.cpp — `occ occupancy --ptxas build.log`: occupancy for every kernel in a compiler log
// (nvcc -Xptxas -v, nvrtc, the JIT linker or cuobjdump --dump-resource-usage), one row per
// compilation with what limits it, printed from the typed answer (io::answer_ptxas). A figure the
// log did not give prints as "?".
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "cli.hpp"
#include "occ/explain.hpp"
#include "occ/format.hpp"
#include "occ/io/ptxas.hpp"
#include "occ/io/rocprof.hpp"
#include "occ/text.hpp"

namespace occ::cli {
namespace {

// "void block_reduce<double, 512>(double const*, double*, int)" -> "block_reduce<double, 512>"
std::string short_name(const std::string& name, std::size_t width) {
    std::string s = name;
    if (s.rfind("void ", 0) == 0) s = s.substr(5);
    int depth = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '<') ++depth;
        else if (s[i] == '>') --depth;
        else if (s[i] == '(' && depth == 0 && i > 0) {
            s = s.substr(0, i);
            break;
        }
    }
    if (s.size() > width) s = s.substr(0, width - 3) + "...";
    return s;
}

// The name as the table shows it: the n-th compilation of a name carries "#n".
std::string row_name(const io::PtxasKernel& k, std::size_t width) {
    if (k.occurrences <= 1) return short_name(k.name, width);
    const std::string tag = " #" + std::to_string(k.occurrence);
    return short_name(k.name, width - tag.size()) + tag;
}

template <typename T>
std::string or_unknown(const std::optional<T>& v) {
    return v ? std::to_string(*v) : std::string("?");
}

std::string arch_of(const io::PtxasKernel& k) { return k.arch.empty() ? std::string("?") : k.arch; }

// Where a row came from, for its notes: the log's line, or the binary and the entry inside it.
std::string origin_of(const io::PtxasKernel& k) {
    if (k.source_file.empty()) return "line " + std::to_string(k.line);
    return k.source_entry.empty() ? k.source_file : k.source_file + " " + k.source_entry;
}

void print_table(const io::PtxasAnswer& a, const std::string& path) {
    std::printf("%s: %zu kernels (%d compilations), %zu device functions, %d with spills; %s, %d threads/block\n",
                path == "-" ? "stdin" : path.c_str(), a.rows.size(), a.compilations, a.functions.size(), a.with_spills,
                io::rows_device(a).c_str(), a.input.launch.threads);
    print_kernel_table(a);
    if (a.log.unknown_lines > 0) std::printf("(%d lines of compiler output were not understood: see the notes)\n", a.log.unknown_lines);
    if (a.log.skipped_lines > 0) std::printf("(%d lines of other output were ignored)\n", a.log.skipped_lines);
}

}  // namespace

void print_kernel_table(const io::PtxasAnswer& a) {
    const std::vector<io::PtxasKernel>& ks = a.log.kernels;
    int aw = 7;  // the arch column: "sm_90a", or a PTX entry's "compute_90"
    for (const io::PtxasRow& row : a.rows) aw = std::max(aw, static_cast<int>(arch_of(ks[row.kernel]).size()));
    std::printf("\n%-34s %-*s %4s %10s %7s %13s %3s %6s %9s  %s\n", "kernel", aw, "arch", "regs", "smem", "stack B", "spill st/ld B", "bar",
                "blk/SM", "occupancy", "limited by");
    std::set<std::string> shown;
    for (const io::PtxasRow& row : a.rows) {
        const io::PtxasKernel& k = ks[row.kernel];
        const std::string smem = k.smem_static ? format_bytes(*k.smem_static) : "?";
        const std::string spill = or_unknown(k.spill_stores) + "/" + or_unknown(k.spill_loads);
        std::string blocks = "-", occ = "-", lim;
        if (row.amd_result) {  // AMD: workgroups per CU (WGP), waves per SIMD over the maximum
            const amd::AmdOccupancyResult& r = *row.amd_result;
            blocks = std::to_string(r.workgroups_per_cu);
            occ = format_percent(r.occupancy);
            lim = amd::amd_limiter_labels(r.limiters, ", ");
            lim += " (" + std::to_string(r.waves_per_simd) + "/" + std::to_string(r.max_waves_per_simd) + " waves per SIMD, " +
                   row.amd_device + ")";
        } else if (row.result) {
            blocks = std::to_string(row.result->blocks_per_sm);
            occ = format_percent(row.result->occupancy);
            lim = limiter_labels(row.result->limiters, ", ");
        } else {
            lim = row.error;
        }
        std::printf("%-34s %-*s %4s %10s %7s %13s %3s %6s %9s  %s\n", row_name(k, 34).c_str(), aw, arch_of(k).c_str(),
                    or_unknown(k.registers).c_str(), smem.c_str(), or_unknown(k.stack_frame).c_str(), spill.c_str(),
                    or_unknown(k.barriers).c_str(), blocks.c_str(), occ.c_str(), lim.c_str());
    }
    bool header = false;
    for (const io::PtxasRow& row : a.rows) {
        const io::PtxasKernel& k = ks[row.kernel];
        std::vector<std::string> lines = row.notes;
        lines.insert(lines.end(), k.diagnostics.begin(), k.diagnostics.end());
        for (const std::string& d : lines) {
            if (!header) std::printf("\nnotes:\n");
            header = true;
            shown.insert(d);
            std::printf("  %s (%s, %s): %s\n", row_name(k, 40).c_str(), arch_of(k).c_str(), origin_of(k).c_str(), d.c_str());
        }
    }
    // What a profiler measured (rocprof-compute): shown apart from occ's theoretical figures above.
    bool measured_header = false;
    for (const io::PtxasRow& row : a.rows) {
        const io::PtxasKernel& k = ks[row.kernel];
        if (!k.amd || !k.amd->profile || k.amd->profile->measured.empty()) continue;
        if (!measured_header) std::printf("\n%s:\n", io::rocprof_measured_heading(k.amd->profile->from).c_str());
        measured_header = true;
        std::string line;
        for (const auto& m : k.amd->profile->measured) {
            char v[64];
            std::snprintf(v, sizeof v, "%.2f", m.second);
            join_into(line, ", ", m.first + " " + v);
        }
        const std::string name = k.name.empty() ? "(line " + std::to_string(k.line) + ")" : row_name(k, 40);
        std::printf("  %s: %s\n", name.c_str(), line.c_str());
    }
    if (!a.skipped.empty()) {
        std::printf("\nskipped:\n");
        for (const io::PtxasSkipped& s : a.skipped)
            std::printf("  %-34s %-7s %s\n", row_name(ks[s.kernel], 34).c_str(), arch_of(ks[s.kernel]).c_str(), s.reason.c_str());
    }
    if (!a.functions.empty()) {
        std::printf("\ndevice functions (no launch of their own):");
        std::set<std::string> names;
        for (std::size_t i : a.functions)
            if (names.insert(ks[i].name).second) std::printf(" %s", short_name(ks[i].name, 40).c_str());
        std::printf("\n");
    }
    for (const std::string& d : a.log.diagnostics)
        if (!shown.count(d)) std::printf("note: %s\n", d.c_str());
    for (const std::string& r : a.log.setmaxnreg_ignored)
        std::printf("setmaxnreg ignored (%s): every warp keeps its launch register count. %s.\n", r.c_str(),
                    io::setmaxnreg_advice(r).c_str());
}

int run_ptxas_table(const std::string& path, const Result<json>& base_request, bool as_json) {
    if (!base_request) return print_error(base_request.error, as_json);
    json req = *base_request;
    std::stringstream ss;
    if (path == "-") {
        ss << std::cin.rdbuf();
    } else {
        std::ifstream f(path, std::ios::binary);
        if (!f) return print_error("ptxas: cannot read \"" + path + "\" (give a log file, or - for stdin)", as_json);
        ss << f.rdbuf();
    }
    req["log"] = ss.str();
    const Result<io::PtxasAnswer> a = io::answer_ptxas(req);
    if (!a) return print_error(a.error, as_json);
    if (as_json) print_json(io::to_json(*a));
    else if (!a->error.empty()) std::cerr << "error: " << a->error << '\n';
    else print_table(*a, path);
    return a->error.empty() ? kExitOk : kExitUsage;
}

}  // namespace occ::cli
