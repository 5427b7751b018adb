// export.cpp — the result table as Markdown or CSV (the page's "Copy as Markdown/CSV" buttons).
// Numbers are formatted by occ/format.hpp, like the CLI's table and the GUI.
#include <string>
#include <utility>
#include <vector>

#include "occ/format.hpp"
#include "web.hpp"

namespace occ::web {
namespace {

using io::json;
using Row = std::pair<std::string, std::string>;

constexpr const char* kRequestFields[] = {"gpu", "cc", "device", "threads", "block", "regs", "smem_static", "smem_dynamic", "carveout",
                                          "cache_config", "optin", "max_dynamic_smem", "barriers", "partitioned_gc", "grid"};

bool has_request_field(const json& obj) {
    if (!obj.is_object()) return false;
    for (const char* k : kRequestFields)
        if (obj.contains(k)) return true;
    return false;
}

std::int64_t num(const json& v) { return v.is_number() ? v.get<std::int64_t>() : 0; }
std::string count(const json& v) { return v.is_number() ? format_count(v.get<std::int64_t>()) : "–"; }
std::string bytes(const json& v) { return v.is_number() ? format_bytes(v.get<std::int64_t>()) : "–"; }
std::string text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::vector<Row> rows_of(const json& r) {
    std::vector<Row> rows;
    const json& in = r.contains("input") ? r["input"] : json::object();
    const json& dev = r.contains("device") ? r["device"] : json::object();
    rows.emplace_back("GPU", text(dev.value("name", json("?"))) + " (cc " + std::to_string(num(dev.value("cc_major", json(0)))) + "." +
                                 std::to_string(num(dev.value("cc_minor", json(0)))) + ")");
    if (in.contains("block")) {
        std::string b;
        for (const json& e : in["block"]) b += (b.empty() ? "" : " × ") + text(e);
        rows.emplace_back("Block", b + " threads");
    } else {
        rows.emplace_back("Threads per block", count(in.value("threads", json(nullptr))));
    }
    rows.emplace_back("Registers per thread", count(in.value("regs", json(nullptr))));
    rows.emplace_back("Shared memory per block", bytes(in.value("smem_static", json(0))) + " static + " +
                                                     bytes(in.value("smem_dynamic", json(0))) + " dynamic" +
                                                     (in.value("optin", false) ? " (opt-in)" : ""));
    rows.emplace_back("Occupancy", format_percent(r.value("occupancy", 0.0)));
    rows.emplace_back("Active blocks per SM", count(r["blocks_per_sm"]));
    rows.emplace_back("Active warps per SM", count(r["warps_per_sm"]) + " of " + count(r["max_warps_per_sm"]));
    rows.emplace_back("Active threads per SM", count(r["threads_per_sm"]));
    std::string lim;
    for (const json& l : r.value("limiters", json::array())) lim += (lim.empty() ? "" : ", ") + text(l);
    rows.emplace_back("Limited by", lim.empty() ? "–" : lim);
    const json& limits = r.contains("limits") ? r["limits"] : json::object();
    for (auto it = limits.begin(); it != limits.end(); ++it) {
        std::string name = it.key();
        for (char& c : name)
            if (c == '_') c = ' ';
        rows.emplace_back("Blocks per SM allowed by " + name, it->is_null() ? "no limit" : count(*it));
    }
    rows.emplace_back("Registers per warp (allocated)", count(r["regs_per_warp_allocated"]));
    rows.emplace_back("Registers per block (allocated)", count(r["regs_per_block_allocated"]));
    rows.emplace_back("Shared memory per block (allocated)", bytes(r["smem_per_block_allocated"]));
    rows.emplace_back("Shared memory per block (limit)", bytes(r["smem_per_block_limit"]));
    rows.emplace_back("Shared memory per SM (configured)", bytes(r["smem_per_sm_configured"]));
    return rows;
}

std::string csv_cell(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string o = "\"";
    for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
    return o + "\"";
}

std::string md_cell(const std::string& s) {
    std::string o;
    for (char c : s) o += c == '|' ? std::string("\\|") : std::string(1, c);
    return o;
}

}  // namespace

json request_from_scenario(const json& scenario) {
    if (!scenario.is_object()) return json::object();
    const json* src = &scenario;
    for (const char* nest : {"input", "request", "occupancy"})
        if (scenario.contains(nest) && has_request_field(scenario[nest])) src = &scenario[nest];
    json req = json::object();
    for (const char* k : kRequestFields)
        if (src->contains(k) && !(*src)[k].is_null()) req[k] = (*src)[k];
    return req;
}

std::string result_table(const json& response, std::string_view format) {
    if (!response.is_object()) return "no result";
    if (response.contains("error") && response["error"].is_string()) return "error: " + response["error"].get<std::string>();
    const std::vector<Row> rows = rows_of(response);
    std::string out;
    if (format == "csv") {
        out = "quantity,value\n";
        for (const auto& [k, v] : rows) out += csv_cell(k) + "," + csv_cell(v) + "\n";
    } else if (format == "markdown" || format == "md") {
        out = "| Quantity | Value |\n|---|---|\n";
        for (const auto& [k, v] : rows) out += "| " + md_cell(k) + " | " + md_cell(v) + " |\n";
    } else {
        out = "unknown export format \"" + std::string(format.substr(0, 20)) + "\" (markdown or csv)";
    }
    return out;
}

}  // namespace occ::web
