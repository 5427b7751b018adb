// cmd_validation.cpp — `occ validation`: which GPUs occ's predictions have been checked on.
// Reads the committed hardware results (cuda_validation/results/*.json, written by `make validate`)
// and prints one line per GPU with cases and matches. SYNTHETIC files (test fixtures) are listed
// separately and never counted as validated.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"

namespace occ::cli {
namespace {

namespace fs = std::filesystem;

// Where the results are: --dir, $OCC_VALIDATION_DIR, the source tree this binary was built from,
// ./cuda_validation/results. The first existing directory wins.
std::string results_dir(const std::string& flag) {
    if (!flag.empty()) return flag;
    if (const char* e = std::getenv("OCC_VALIDATION_DIR"); e && *e) return e;
    std::error_code ec;
    const fs::path here = fs::path(__FILE__).parent_path();  // <repo>/native/cli
    const fs::path from_source = here.parent_path().parent_path() / "cuda_validation" / "results";
    if (here.is_absolute() && fs::is_directory(from_source, ec)) return from_source.string();
    return "cuda_validation/results";
}

json int_or(const json& j, const char* key) { return j.contains(key) && j.at(key).is_number_integer() ? j.at(key) : json(0); }

// One results file -> a summary row (or {"file", "error"}).
json summarize(const fs::path& p) {
    json row{{"file", p.filename().string()}};
    std::ifstream in(p);
    json j;
    try {
        j = json::parse(in);
    } catch (const json::exception& e) {
        row["error"] = std::string("not valid JSON: ") + e.what();
        return row;
    }
    if (!j.is_object() || j.value("schema", "") != "occ-validation/1" || !j.contains("gpu") || !j["gpu"].is_object()) {
        row["error"] = "not an occ-validation/1 results file";
        return row;
    }
    const json& g = j["gpu"];
    row["gpu"] = g.value("name", "?");
    row["cc"] = g.value("cc", "?");
    row["sm_count"] = int_or(g, "sm_count");
    row["mode"] = j.value("mode", "");
    row["date"] = j.value("date", "");
    row["synthetic"] = j.value("synthetic", false);
    json s = j.contains("summary") && j["summary"].is_object() ? j["summary"] : json::object();
    if (s.empty() && j.contains("cases") && j["cases"].is_array()) {  // no summary block: count
        int cases = 0, matched = 0, mismatched = 0, explained = 0, unverified = 0;
        for (const json& c : j["cases"]) {
            ++cases;
            const std::string st = c.is_object() ? c.value("status", "") : "";
            matched += st == "match";
            mismatched += st == "mismatch";
            explained += st == "explained";
            unverified += st == "unverified";
        }
        s = json{{"cases", cases}, {"matched", matched}, {"mismatched", mismatched}, {"explained", explained}, {"unverified", unverified}};
    }
    for (const char* k : {"cases", "matched", "mismatched", "explained", "unverified"}) row[k] = int_or(s, k);
    if (s.contains("by_kind")) row["by_kind"] = s["by_kind"];
    return row;
}

}  // namespace

void add_validation(CLI::App& app, Outcome& out) {
    auto* cmd = app.add_subcommand("validation", "Which GPUs occ has been checked on (cuda_validation results)");
    static bool as_json_v = false;
    static std::string dir_v;
    bool* as_json = &as_json_v;
    std::string* dir = &dir_v;
    cmd->add_flag("--json", *as_json, "Print one JSON object");
    cmd->add_option("--dir", *dir, "Results directory (default: cuda_validation/results of this source tree)");
    cmd->callback([&out, as_json, dir] {
        const std::string d = results_dir(*dir);
        std::vector<fs::path> files;
        std::error_code ec;
        if (fs::is_directory(d, ec))
            for (const auto& e : fs::directory_iterator(d, ec))
                if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        json rows = json::array();
        int validated = 0, errors = 0;
        for (const auto& f : files) {
            json r = summarize(f);
            if (r.contains("error")) ++errors;
            else if (!r["synthetic"].get<bool>()) ++validated;
            rows.push_back(std::move(r));
        }
        out.code = errors ? kExitBatchErrors : kExitOk;
        if (*as_json) {
            json j{{"results_dir", d}, {"validated_gpus", validated}, {"results", rows}};
            if (validated == 0) j["message"] = "no hardware results committed yet; run make validate on a GPU";
            std::cout << j.dump(2) << '\n';
            return;
        }
        if (validated == 0) std::printf("occ: no hardware results committed yet; run make validate on a GPU\n");
        else std::printf("occ has been validated on %d GPU%s (%s):\n", validated, validated == 1 ? "" : "s", d.c_str());
        bool header = false;
        for (const json& r : rows) {
            if (r.contains("error") || r["synthetic"].get<bool>()) continue;
            if (!header) {
                std::printf("  %-28s %-5s %4s  %-5s %-20s %6s %8s %10s %9s %10s\n", "gpu", "cc", "SMs", "mode", "date", "cases", "matched",
                            "mismatched", "explained", "unverified");
                header = true;
            }
            std::printf("  %-28s %-5s %4d  %-5s %-20s %6d %8d %10d %9d %10d\n", r["gpu"].get<std::string>().c_str(),
                        r["cc"].get<std::string>().c_str(), r["sm_count"].get<int>(), r["mode"].get<std::string>().c_str(),
                        r["date"].get<std::string>().c_str(), r["cases"].get<int>(), r["matched"].get<int>(), r["mismatched"].get<int>(),
                        r["explained"].get<int>(), r["unverified"].get<int>());
        }
        for (const json& r : rows) {
            if (r.contains("error")) {
                std::fprintf(stderr, "occ: %s/%s: %s\n", d.c_str(), r["file"].get<std::string>().c_str(),
                             r["error"].get<std::string>().c_str());
            } else if (r["synthetic"].get<bool>()) {
                std::printf("  (ignored: %s is a SYNTHETIC fixture, not a hardware result)\n", r["file"].get<std::string>().c_str());
            }
        }
        if (validated > 0) std::printf("Details: %s/<gpu>.md; rerun with make validate on a GPU.\n", d.c_str());
    });
}

}  // namespace occ::cli
