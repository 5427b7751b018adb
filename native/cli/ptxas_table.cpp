// ptxas_table.cpp — `occ occupancy --ptxas build.log`: occupancy for every kernel in a compiler log
// (nvcc -Xptxas -v or cuobjdump --dump-resource-usage), one row each with what limits it.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli.hpp"
#include "occ/format.hpp"
#include "occ/io/api.hpp"

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
        else if (s[i] == '(' && depth == 0) {
            s = s.substr(0, i);
            break;
        }
    }
    if (s.size() > width) s = s.substr(0, width - 3) + "...";
    return s;
}

void print_table(const json& r, const std::string& path) {
    const json& sum = r["summary"];
    const json& in = r["input"];
    std::printf("%s: %lld kernels, %lld device functions, %lld with spills; %s, %s threads/block\n", path == "-" ? "stdin" : path.c_str(),
                sum["kernels"].get<long long>(), sum["device_functions"].get<long long>(), sum["with_spills"].get<long long>(),
                r["device"].is_null() ? "each on its own compute capability" : r["device"].get<std::string>().c_str(),
                in.contains("threads") ? in["threads"].dump().c_str() : "?");
    std::printf("\n%-34s %-7s %4s %10s %13s %3s %6s %9s  %s\n", "kernel", "arch", "regs", "smem", "spill st/ld B", "bar", "blk/SM", "occupancy",
                "limited by");
    for (const json& k : r["kernels"]) {
        const std::string name = short_name(k["name"].get<std::string>(), 34);
        const std::string regs = k["registers"].is_null() ? "?" : k["registers"].dump();
        const std::string spill = std::to_string(k["spill_stores"].get<long long>()) + "/" + std::to_string(k["spill_loads"].get<long long>());
        if (k["occupancy"].is_null()) {
            std::printf("%-34s %-7s %4s %10s %13s %3d  %s\n", name.c_str(), k["arch"].get<std::string>().c_str(), regs.c_str(),
                        format_bytes(k["smem_static"].get<long long>()).c_str(), spill.c_str(), k["barriers"].get<int>(),
                        k["error"].get<std::string>().c_str());
            continue;
        }
        const json& o = k["occupancy"];
        std::string lim;
        for (const auto& l : o["limiters"]) lim += (lim.empty() ? "" : ", ") + l.get<std::string>();
        for (char& c : lim) if (c == '_') c = ' ';
        if (!k["error"].is_null()) lim = k["error"].get<std::string>();
        std::printf("%-34s %-7s %4s %10s %13s %3d %6d %9s  %s\n", name.c_str(), k["arch"].get<std::string>().c_str(), regs.c_str(),
                    format_bytes(k["smem_static"].get<long long>()).c_str(), spill.c_str(), k["barriers"].get<int>(), o["blocks_per_sm"].get<int>(),
                    format_percent(o["occupancy"].get<double>()).c_str(), lim.c_str());
    }
    if (!r["skipped"].empty()) {
        std::printf("\nskipped:\n");
        for (const json& s : r["skipped"])
            std::printf("  %-34s %-7s %s\n", short_name(s["name"].get<std::string>(), 34).c_str(), s["arch"].get<std::string>().c_str(),
                        s["reason"].get<std::string>().c_str());
    }
    if (!r["functions"].empty()) {
        std::printf("\ndevice functions (no launch of their own):");
        for (const json& f : r["functions"]) std::printf(" %s", short_name(f["name"].get<std::string>(), 40).c_str());
        std::printf("\n");
    }
    for (const json& d : r["diagnostics"]) std::printf("note: %s\n", d.get<std::string>().c_str());
    if (sum["skipped_lines"].get<int>() > 0)
        std::printf("(%d lines of other output were ignored)\n", sum["skipped_lines"].get<int>());
}

}  // namespace

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
    const json res = io::handle("ptxas", req);
    const bool failed = res.contains("error") && !res["error"].is_null();
    if (as_json) print_json(res);
    else if (failed) std::cerr << "error: " << res["error"].get<std::string>() << '\n';
    else print_table(res, path);
    return failed ? kExitUsage : kExitOk;
}

}  // namespace occ::cli
