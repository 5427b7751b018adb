// cmd_ncu.cpp — `occ ncu REPORT`: each kernel of an Nsight Compute report next to occ's prediction.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli.hpp"
#include "occ/explain.hpp"
#include "occ/io/ncu.hpp"

namespace occ::cli {
namespace {

struct Options : RequestOptions {
    std::string file;
};

void print_human(const io::NcuAnswer& a) {
    if (a.kernels.empty())
        for (const std::string& d : a.report.diagnostics) std::printf("note: %s\n", d.c_str());
    if (!a.report.ncu_version.empty()) std::printf("ncu %s (the report's version line)\n\n", a.report.ncu_version.c_str());
    for (const io::NcuKernelAnswer& k : a.kernels) {
        std::printf("%s%s\n", k.measured.name.c_str(),
                    k.measured.cc_major
                        ? (" (cc " + std::to_string(k.measured.cc_major) + "." + std::to_string(k.measured.cc_minor) + ")").c_str()
                        : "");
        if (k.device) std::printf("  device: %s, %d SMs (%s)\n", k.device->name.c_str(), k.device->sm_count, k.device_how.c_str());
        if (k.launch) std::printf("  occ: %s\n", summarize(k.result).c_str());
        std::printf("\n  %-34s %18s %18s\n", "", "ncu printed", "occ predicts");
        for (const io::NcuRow& r : io::ncu_rows(k))
            std::printf("  %-34s %18s %18s %s\n", r.key.c_str(), r.printed.c_str(), r.predicted.c_str(), r.mark());
        if (!k.predicted.empty() && k.achieved.occupancy >= 0) std::printf("\n  achieved at most: %s\n", k.achieved.why.c_str());
        for (const std::string& b : k.ncu_behaviour) std::printf("  ncu: %s\n", b.c_str());
        for (const io::NcuRow& r : io::ncu_rows(k))
            if (r.difference) std::printf("  %s %s: %s\n", r.mark(), r.key.c_str(), r.difference->why.c_str());
            else if (r.not_compared) std::printf("  %s %s: not compared: %s\n", r.mark(), r.key.c_str(), r.not_compared->why.c_str());
        for (const std::string& d : k.diagnostics) std::printf("  note: %s\n", d.c_str());
        std::printf("\n");
    }
}

}  // namespace

void add_ncu(CLI::App& app, Outcome& out) {
    auto o = std::make_shared<Options>();
    auto* cmd = add_request_command(app, "ncu", R"help(
Reads ncu's text output (Launch Statistics and Occupancy sections), ncu --csv --page details
and --page raw, also pasted into Markdown. The device comes from the report (CC and # SMs);
--gpu / --cc override it. Each line: what ncu printed, what occ predicts, '=' when they agree,
'~' where they differ for a known reason of ncu or the driver (said below the table), '<' where
no known reason explains it, '!' where the report's own lines contradict the device, 'n/c' where
occ does not compare the line (the reason below: no SM count, a value that varied over a
--print-summary's invocations). See docs/NCU.md.

Examples:
  ncu --section LaunchStats --section Occupancy ./app > report.txt; occ ncu report.txt
  occ ncu report.csv --json
  echo '{"text": "..."}' | occ ncu --batch)help",
                                    *o);
    cmd->add_option("report", o->file, "The report file, or - for stdin");
    cmd->callback([o, &out] {
        if (o->batch) {
            out.code = run_batch("ncu", std::cin, std::cout, o->fields);
            return;
        }
        if (o->file.empty()) {
            out.code = print_error("report: give a report file, or - for stdin", o->as_json);
            return;
        }
        std::stringstream ss;
        if (o->file == "-") {
            ss << std::cin.rdbuf();
        } else {
            std::ifstream f(o->file, std::ios::binary);
            if (!f) {
                out.code = print_error("report: cannot read \"" + o->file + "\"", o->as_json);
                return;
            }
            ss << f.rdbuf();
        }
        Result<json> req = request_from(o->request);
        if (req) (*req)["text"] = ss.str();
        const Result<io::NcuAnswer> a = req ? io::answer_ncu(*req) : Result<io::NcuAnswer>::fail(req.error);
        out.code = emit(
            a, o->as_json, [](const io::NcuAnswer& x) { return io::to_json(x); }, print_human);
        if (a && a->kernels.empty()) out.code = kExitUsage;
    });
}

}  // namespace occ::cli
