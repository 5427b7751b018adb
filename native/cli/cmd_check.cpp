// cmd_check.cpp — `occ check`: resource budgets in CI (occ/io/check.hpp). Reads the budget file
// (io::read_budget), the artefacts, and writes the report as a table, JSON, JUnit XML, SARIF 2.1.0
// or GitHub Actions annotations. Exit 0: every check passed; 1: a violation; 2: bad input.
// [SECTION] output writers · the subcommand
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli.hpp"
#include "occ/io/check.hpp"

namespace occ::cli {
namespace {

constexpr int kExitViolations = 1;

// [SECTION] output writers
std::string xml_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        switch (c) {
            case '&': o += "&amp;"; break;
            case '<': o += "&lt;"; break;
            case '>': o += "&gt;"; break;
            case '"': o += "&quot;"; break;
            case '\'': o += "&apos;"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') o += ' ';
                else o += c;
        }
    }
    return o;
}

std::string label(const io::CheckResult& r) { return r.kernel + " (" + (r.arch.empty() ? "?" : r.arch) + ")"; }

void write_junit(std::ostream& os, const io::CheckReport& rep) {
    os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    os << "<testsuites name=\"occ check\" tests=\"" << rep.results.size() << "\" failures=\"" << rep.failed << "\" skipped=\""
       << rep.unknown << "\" errors=\"0\">\n";
    os << "  <testsuite name=\"occ check (" << rep.mode << ")\" tests=\"" << rep.results.size() << "\" failures=\"" << rep.failed
       << "\" skipped=\"" << rep.unknown << "\" errors=\"0\">\n";
    for (const io::CheckResult& r : rep.results) {
        // A memory check names the access's source line (file and line, as pytest's JUnit XML writes them).
        os << "    <testcase classname=\"occ." << r.check << "\" name=\"" << xml_escape(label(r) + " " + r.check) << "\" file=\""
           << xml_escape(r.source_line > 0 ? r.source : r.file) << "\"";
        if (r.source_line > 0) os << " line=\"" << r.source_line << "\"";
        if (r.verdict == io::Verdict::pass) {
            os << "/>\n";
            continue;
        }
        os << ">\n";
        if (r.verdict == io::Verdict::fail)
            os << "      <failure type=\"" << r.check << "\" message=\"" << xml_escape(r.message) << "\">"
               << xml_escape(label(r) + ": " + r.message) << "</failure>\n";
        else os << "      <skipped message=\"unknown: " << xml_escape(r.message) << "\"/>\n";
        os << "    </testcase>\n";
    }
    os << "  </testsuite>\n</testsuites>\n";
}

std::string uri_of(const std::string& path) {
    if (!path.empty() && path[0] == '/') return "file://" + path;
    return path.rfind("./", 0) == 0 ? path.substr(2) : path;
}

// A source file named by the PTX's .file: relative to the working directory when under it (the
// checkout, where code scanning resolves relative URIs: SARIF 2.1.0, 3.4.3), else as uri_of.
std::string source_uri(const std::string& path) {
    std::error_code ec;
    const std::string cwd = std::filesystem::current_path(ec).string();
    if (!ec && !cwd.empty() && path.size() > cwd.size() + 1 && path.compare(0, cwd.size(), cwd) == 0 && path[cwd.size()] == '/')
        return path.substr(cwd.size() + 1);
    return uri_of(path);
}

json sarif(const io::CheckReport& rep) {
    json rules = json::array();
    std::map<std::string, int> index;
    for (const io::CheckKind& k : io::check_kinds()) {
        index[k.key] = static_cast<int>(rules.size());
        rules.push_back(json{{"id", std::string("occ/") + k.key},
                             {"name", k.key},
                             {"shortDescription", {{"text", k.title}}},
                             {"fullDescription", {{"text", k.help}}},
                             {"defaultConfiguration", {{"level", "error"}}}});
    }
    json results = json::array();
    for (const io::CheckResult& r : rep.results) {
        if (r.verdict == io::Verdict::pass) continue;
        json loc{{"physicalLocation", {{"artifactLocation", {{"uri", uri_of(r.file)}}}}}};
        if (!r.entry.empty()) loc["message"] = json{{"text", r.entry}};
        json related = nullptr;
        if (r.source_line > 0) {
            // A memory check's offending access: its source line (the PTX's .loc) is the result's
            // location (SARIF 2.1.0, 3.28 location and 3.30 region: startLine), the artefact a
            // related location (3.27.22 relatedLocations).
            loc["id"] = 1;
            related = json::array({loc});
            loc = json{
                {"physicalLocation", {{"artifactLocation", {{"uri", source_uri(r.source)}}}, {"region", {{"startLine", r.source_line}}}}},
                {"message", {{"text", r.instruction}}}};
        }
        json res{
            {"ruleId", std::string("occ/") + r.check},
            {"ruleIndex", index[r.check]},
            {"level", r.verdict == io::Verdict::fail ? "error" : "warning"},
            {"message", {{"text", label(r) + ": " + (r.verdict == io::Verdict::unknown ? "unknown: " : "") + r.message}}},
            {"locations", json::array({loc})},
            {"properties", {{"kernel", r.kernel}, {"mangled", r.mangled}, {"arch", r.arch}, {"verdict", io::verdict_name(r.verdict)}}}};
        if (!related.is_null()) res["relatedLocations"] = related;
        results.push_back(std::move(res));
    }
    return json{{"version", "2.1.0"},
                {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                {"runs", json::array({json{{"tool", {{"driver", {{"name", "occ"}, {"rules", rules}}}}}, {"results", results}}})}};
}

// GitHub Actions workflow commands: data escapes % CR LF; properties also : and ,.
std::string gh_data(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '%') o += "%25";
        else if (c == '\r') o += "%0D";
        else if (c == '\n') o += "%0A";
        else o += c;
    }
    return o;
}
std::string gh_prop(const std::string& s) {
    std::string o;
    for (char c : gh_data(s)) {
        if (c == ':') o += "%3A";
        else if (c == ',') o += "%2C";
        else o += c;
    }
    return o;
}

void write_github(const io::CheckReport& rep) {
    for (const io::CheckResult& r : rep.results) {
        if (r.verdict == io::Verdict::pass) continue;
        const std::string file = r.source_line > 0 ? gh_prop(r.source) + ",line=" + std::to_string(r.source_line) : gh_prop(r.file);
        std::printf("::%s file=%s,title=%s::%s\n", r.verdict == io::Verdict::fail ? "error" : "warning", file.c_str(),
                    gh_prop("occ " + r.check).c_str(),
                    gh_data(label(r) + ": " + (r.verdict == io::Verdict::unknown ? "unknown: " : "") + r.message).c_str());
    }
}

void print_human(const io::CheckReport& rep, const std::string& budget, bool all) {
    std::printf("occ check (%s%s): %d kernels, %zu checks: %d passed, %d failed, %d unknown\n", rep.mode.c_str(),
                budget.empty() ? "" : (", " + budget).c_str(), rep.kernels, rep.results.size(), rep.passed, rep.failed, rep.unknown);
    const bool any = all ? !rep.results.empty() : rep.failed + rep.unknown > 0;
    int cw = 17;  // the check column: as wide as its longest key (max_bank_conflicts_per_request)
    for (const io::CheckResult& r : rep.results)
        if (all || r.verdict != io::Verdict::pass) cw = std::max(cw, static_cast<int>(r.check.size()));
    if (any) std::printf("\n%-7s %-*s %-34s %-8s %s\n", "verdict", cw, "check", "kernel", "arch", "why");
    for (const io::CheckResult& r : rep.results) {
        if (!all && r.verdict == io::Verdict::pass) continue;
        std::string name = r.kernel;
        if (name.size() > 34) name = name.substr(0, 31) + "...";
        std::string why = r.message;
        if (r.budget_line > 0) why += " (" + budget + ":" + std::to_string(r.budget_line) + ")";
        std::printf("%-7s %-*s %-34s %-8s %s\n",
                    r.verdict == io::Verdict::pass   ? "pass"
                    : r.verdict == io::Verdict::fail ? "FAIL"
                                                     : "unknown",
                    cw, r.check.c_str(), name.c_str(), r.arch.c_str(), why.c_str());
    }
    for (const std::string& n : rep.notes) std::printf("note: %s\n", n.c_str());
}

bool write_file(const std::string& path, const std::string& text) {
    std::ofstream f(path, std::ios::binary);
    f << text;
    return static_cast<bool>(f);
}

// [SECTION] the subcommand
struct Options {
    std::vector<std::string> paths, base, head;
    std::string budget, junit, sarif, gpu;
    int threads = 256;
    bool as_json = false, github = false, fail_on_unknown = false, all = false;
};

int run(const Options& o) {
    const bool compare = !o.base.empty() || !o.head.empty();
    if (compare && (o.base.empty() || o.head.empty()))
        return print_error("check: --base and --head go together (the old and the new build)", o.as_json);
    if (compare && !o.paths.empty()) return print_error("check: with --base/--head, give the builds there, not as paths", o.as_json);
    if (!compare && o.budget.empty())
        return print_error("check: give --budget FILE (the rules), or --base OLD --head NEW to compare builds", o.as_json);
    if (!compare && o.paths.empty())
        return print_error("check: give the artefacts to check (cubins, fatbins, .o, .so, Triton caches, ptxas logs)", o.as_json);
    Result<io::CheckReport> rep;
    if (compare) {
        std::vector<io::CheckInput> base, head;
        for (const std::string& p : o.base) base.push_back(io::read_check_input(p));
        for (const std::string& p : o.head) head.push_back(io::read_check_input(p));
        rep = io::check_compare(std::move(base), std::move(head), o.gpu.empty() ? std::nullopt : std::optional<std::string>(o.gpu),
                                o.threads);
    } else {
        Result<io::Budget> budget = io::read_budget(o.budget);
        if (!budget) return print_error(budget.error, o.as_json);
        if (!o.gpu.empty()) (*budget).gpu = o.gpu;
        std::vector<io::CheckInput> inputs;
        for (const std::string& p : o.paths) inputs.push_back(io::read_check_input(p));
        rep = io::check_budget(*budget, std::move(inputs));
    }
    if (!rep) return print_error(rep.error, o.as_json);
    if (!o.junit.empty()) {
        std::ostringstream os;
        write_junit(os, *rep);
        if (!write_file(o.junit, os.str())) return print_error("check: cannot write " + o.junit, o.as_json);
    }
    if (!o.sarif.empty() && !write_file(o.sarif, sarif(*rep).dump(2) + "\n"))
        return print_error("check: cannot write " + o.sarif, o.as_json);
    if (o.as_json) print_json(io::to_json(*rep));
    else if (o.github) write_github(*rep);
    if (!o.as_json) print_human(*rep, o.budget, o.all);
    const bool bad = rep->failed > 0 || (o.fail_on_unknown && rep->unknown > 0);
    return bad ? kExitViolations : kExitOk;
}

}  // namespace

void add_check(CLI::App& app, Outcome& out) {
    auto o = std::make_shared<Options>();
    auto* cmd = app.add_subcommand("check", "Resource budgets for CI: registers, spills, stack, shared memory, occupancy, memory accesses");
    cmd->footer(R"help(
Checks every kernel of the artefacts (whatever `occ kernels` reads, or an nvcc -Xptxas -v log)
against the rules of a budget file (TOML, docs/CHECK.md):
  gpu = "H100"                 # optional: where occupancy is evaluated
  [[rule]]
  kernels = "gemm_*"           # glob over the kernel's name
  max_registers = 128
  max_spill_bytes = 0          # spill stores + loads; 0 = no spills
  min_occupancy = 0.5          # at `threads` (default 256)
  [[rule]]                     # memory: the kernel's PTX run as `occ memory` runs it
  kernels = "transpose*"
  block = [32, 32]             # the launch (grid, params = {2 = 128} too); Triton: its own block
  max_sectors_per_request_ratio = 1.0    # worst global access over its ideal (1 = coalesced)
  max_bank_conflicts_per_request = 0     # worst shared access
  max_uncoalesced_accesses = 0
Memory checks need the PTX (a .ptx, or a fatbin built with code=compute_XX; -lineinfo for lines).
A value the artefact does not hold (spills in a binary) is "unknown", never a pass.
--base OLD --head NEW compares two builds instead: registers up, spills appearing, occupancy down.
Exit status: 0 every check passed, 1 a violation (or an unknown with --fail-on-unknown), 2 bad input.

Examples:
  occ check --budget occ-budget.toml build/libkernels.so
  occ check --budget occ-budget.toml build.log --sarif occ.sarif --junit occ.xml --github
  occ check --base old/libk.so --head new/libk.so --gpu H100)help");
    cmd->add_option("paths", o->paths, "Artefacts: cubins, fatbins, .o, .so, executables, Triton caches, ptxas logs, .ptx");
    cmd->add_option("--budget,-b", o->budget, "Budget file (TOML)");
    cmd->add_option("--base", o->base, "Compare: the old build (repeat for several files)")->expected(1);
    cmd->add_option("--head", o->head, "Compare: the new build (repeat for several files)")->expected(1);
    cmd->add_option("--gpu", o->gpu, "GPU for the occupancy checks (overrides the budget's)");
    cmd->add_option("--threads", o->threads, "Block size for comparisons (budget rules set their own)")->check(CLI::Range(1, 1024));
    cmd->add_flag("--json", o->as_json, "Print the report as one JSON object");
    cmd->add_option("--junit", o->junit, "Also write a JUnit XML report to FILE");
    cmd->add_option("--sarif", o->sarif, "Also write a SARIF 2.1.0 report to FILE (GitHub code scanning)");
    cmd->add_flag("--github", o->github, "Print GitHub Actions annotations (::error file=...::) for violations");
    cmd->add_flag("--fail-on-unknown", o->fail_on_unknown, "Exit 1 when a check is unknown too");
    cmd->add_flag("--all", o->all, "List the checks that passed too (the table lists failures and unknowns)");
    cmd->callback([o, &out] { out.code = run(*o); });
}

}  // namespace occ::cli
