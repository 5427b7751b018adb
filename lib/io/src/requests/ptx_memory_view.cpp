// ptx_memory_view.cpp — kind "memory"'s answer as JSON (the --json / --batch / Python shape) and as
// table rows (occ/io/ptx_memory.hpp). Numbers through occ/format.hpp; reasons and fixes are the
// coalescing and bank models' own (occ::site_explanation).
#include <algorithm>
#include <string>

#include "occ/format.hpp"
#include "occ/io/api.hpp"
#include "occ/io/ptx_memory.hpp"

namespace occ::io {
namespace {

PerRequest per(const AccessSite& s, const CostStat& c, SiteModel wants, const char* what) {
    PerRequest r;
    if (s.model == SiteModel::listed) r.why = s.listed_reason.empty() ? "listed, not costed" : s.listed_reason;
    else if (s.model != wants)
        r.why = std::string(what) + (wants == SiteModel::global ? " count global accesses only" : " count shared-memory accesses only");
    else if (s.executions == 0) r.why = "never executed by the warps run";
    else if (c.count == 0) r.why = s.unknown_reason.empty() ? "not costed" : s.unknown_reason;
    else r.value = c.mean();
    return r;
}

json number_or_null(const PerRequest& p) {
    if (!p.value) return nullptr;
    const double v = *p.value;
    if (v == static_cast<double>(static_cast<std::int64_t>(v))) return static_cast<std::int64_t>(v);
    return v;
}

json range_json(const CostStat& c) { return c.count ? json::array({c.min, c.max}) : json(nullptr); }

std::string where_text(const std::string& file, int line, int ptx_line) {
    if (line <= 0) return "ptx:" + std::to_string(ptx_line);
    const auto slash = file.find_last_of('/');
    return (file.empty() ? std::string("?") : slash == std::string::npos ? file : file.substr(slash + 1)) + ":" + std::to_string(line);
}

std::string ratio(const PerRequest& v, const PerRequest& ideal, bool applies) {
    if (!applies) return "-";
    if (!v.value || !ideal.value) return "?";
    return format_number(*v.value, 2) + " / " + format_number(*ideal.value, 2);
}

// The path of the site's innermost .loc file, as the line totals name it.
std::string file_of(const InterpReport& r, const AccessSite& s) {
    for (const LineCost& l : r.lines)
        if (l.loc.file == s.loc.file && l.loc.line == s.loc.line) return l.file;
    return {};
}

// The caller an inlined access was inlined into (the outermost .loc), or null when not inlined.
json inlined_json(const PtxMemoryAnswer& a, const AccessSite& s) {
    if (s.outer == s.loc || s.outer.line <= 0) return nullptr;
    std::string path;
    for (const ptx::FileEntry& f : a.files)
        if (f.index == s.outer.file) path = f.path;
    return {{"file", path}, {"line", s.outer.line}};
}

json warp_json(const WarpSelect& w) { return {{"block", json::array({w.block[0], w.block[1], w.block[2]})}, {"warp", w.warp}}; }

json worst_json(const AccessSite& s) {
    if (!s.has_worst) return nullptr;
    json addrs = json::array();
    for (int lane = 0; lane < kWarpLanes; ++lane)
        if (s.worst.lane_active(lane)) addrs.push_back(s.worst.addr[static_cast<std::size_t>(lane)]);
        else addrs.push_back(nullptr);
    json j = warp_json(s.worst_warp);
    j["access_bytes"] = s.worst.access_bytes;
    j["addresses"] = std::move(addrs);
    j["addresses_are"] = s.model == SiteModel::global ? "bytes from a 4 KiB boundary" : "shared-memory byte offsets";
    return j;
}

}  // namespace

PerRequest sectors_per_request(const AccessSite& s) { return per(s, s.sectors, SiteModel::global, "sectors"); }
PerRequest ideal_sectors_per_request(const AccessSite& s) { return per(s, s.ideal_sectors, SiteModel::global, "sectors"); }
PerRequest wavefronts_per_request(const AccessSite& s) { return per(s, s.wavefronts, SiteModel::shared, "wavefronts"); }
PerRequest ideal_wavefronts_per_request(const AccessSite& s) { return per(s, s.ideal_wavefronts, SiteModel::shared, "wavefronts"); }
PerRequest bank_conflicts_per_request(const AccessSite& s) { return per(s, s.conflicts, SiteModel::shared, "bank conflicts"); }

std::string site_unknown(const AccessSite& s, const InterpReport& r) {
    if (s.model == SiteModel::listed) return "listed, not costed: " + (s.listed_reason.empty() ? s.opcode : s.listed_reason);
    if (s.executions == 0) {
        for (const WarpRun& w : r.warps)
            if (!w.stopped.empty()) return "never executed: a warp run stopped before it (" + w.stopped + ")";
        return "never executed by the warps run";
    }
    if (s.unknown == 0) return {};
    const std::string why = s.unknown_reason.empty() ? "not costed" : s.unknown_reason;
    if (s.costed == 0) return why;
    return std::to_string(s.unknown) + " of " + std::to_string(s.executions) + " executions not costed: " + why;
}

json to_json(const PtxMemoryAnswer& a) {
    const InterpReport& r = a.report;
    const PtxMemoryRequest& q = a.input;
    json input = device_echo(q.device);
    input["kernel"] = a.entry;
    input["block"] = json::array({q.options.block[0], q.options.block[1], q.options.block[2]});
    input["grid"] = json::array({q.options.grid[0], q.options.grid[1], q.options.grid[2]});
    input["params"] = q.params;
    input["warps"] = q.warps_text.empty() ? json::array({"first", "last"}) : json(q.warps_text);
    input["max_visits"] = q.options.max_visits;
    input["launch_from"] = q.launch_from.empty() ? json(nullptr) : json(q.launch_from);
    const UnknownBranch ub = q.options.unknown_branch;
    input["unknown_branch"] = ub == UnknownBranch::taken ? "taken" : ub == UnknownBranch::not_taken ? "not_taken" : "stop";

    json rows = json::array();
    for (int i : a.order) {
        const AccessSite& s = r.sites[static_cast<std::size_t>(i)];
        const SiteExplanation& x = a.explanations[static_cast<std::size_t>(i)];
        const std::string unknown = site_unknown(s, r);
        rows.push_back({
            {"file", s.loc.line > 0 ? json(file_of(r, s)) : json(nullptr)},
            {"line", s.loc.line > 0 ? json(s.loc.line) : json(nullptr)},
            {"column", s.loc.line > 0 ? json(s.loc.column) : json(nullptr)},
            {"inlined_at", inlined_json(a, s)},
            {"ptx_line", s.ptx_line},
            {"instruction", s.opcode},
            {"side", s.side.empty() ? json(nullptr) : json(s.side)},
            {"space", site_model_name(s.model)},
            {"access_bytes", s.access_bytes ? json(s.access_bytes) : json(nullptr)},
            {"executions", s.executions},
            {"costed", s.costed},
            {"active_lanes", s.active_lanes.count ? json(s.active_lanes.mean()) : json(nullptr)},
            {"sectors_per_request", number_or_null(sectors_per_request(s))},
            {"ideal_sectors_per_request", number_or_null(ideal_sectors_per_request(s))},
            {"wavefronts_per_request", number_or_null(wavefronts_per_request(s))},
            {"ideal_wavefronts_per_request", number_or_null(ideal_wavefronts_per_request(s))},
            {"bank_conflicts_per_request", number_or_null(bank_conflicts_per_request(s))},
            {"range",
             {{"sectors", range_json(s.sectors)}, {"wavefronts", range_json(s.wavefronts)}, {"bank_conflicts", range_json(s.conflicts)}}},
            {"unknown", unknown.empty() ? json(nullptr) : json(unknown)},
            {"reason", x.reason.empty() ? json(nullptr) : json(x.reason)},
            {"fix", x.fix.empty() ? json(nullptr) : json(x.fix)},
            {"notes", s.notes},
            {"worst", worst_json(s)},
        });
    }
    json lines = json::array();
    for (const LineCost& l : r.lines) {
        json sites = json::array(), instrs = json::array();
        std::int64_t global_costed = 0, shared_costed = 0;
        for (int i : l.sites) {
            const AccessSite& s = r.sites[static_cast<std::size_t>(i)];
            sites.push_back(s.ptx_line);
            instrs.push_back(s.side.empty() ? s.opcode : s.opcode + " (" + s.side + ")");
            if (s.model == SiteModel::global) global_costed += s.costed;
            if (s.model == SiteModel::shared) shared_costed += s.costed;
        }
        auto mean = [](std::int64_t sum, std::int64_t n) -> json {
            if (n == 0) return nullptr;
            const double v = static_cast<double>(sum) / static_cast<double>(n);
            if (v == static_cast<double>(static_cast<std::int64_t>(v))) return static_cast<std::int64_t>(v);
            return v;
        };
        lines.push_back({
            {"file", l.loc.line > 0 ? json(l.file) : json(nullptr)},
            {"line", l.loc.line > 0 ? json(l.loc.line) : json(nullptr)},
            {"ptx_lines", std::move(sites)},
            {"instructions", std::move(instrs)},
            {"executions", l.executions},
            {"unknown_executions", l.unknown},
            {"global_requests", global_costed},
            {"sectors", l.sectors},
            {"ideal_sectors", l.ideal_sectors},
            {"sectors_per_request", mean(l.sectors, global_costed)},
            {"ideal_sectors_per_request", mean(l.ideal_sectors, global_costed)},
            {"shared_requests", shared_costed},
            {"wavefronts", l.wavefronts},
            {"ideal_wavefronts", l.ideal_wavefronts},
            {"bank_conflicts", l.conflicts},
            {"wavefronts_per_request", mean(l.wavefronts, shared_costed)},
            {"ideal_wavefronts_per_request", mean(l.ideal_wavefronts, shared_costed)},
            {"bank_conflicts_per_request", mean(l.conflicts, shared_costed)},
        });
    }
    json warps = json::array();
    for (const WarpRun& w : r.warps) {
        json j = warp_json(w.warp);
        j["steps"] = w.steps;
        j["finished"] = w.finished;
        j["stopped"] = w.stopped.empty() ? json(nullptr) : json(w.stopped);
        warps.push_back(std::move(j));
    }
    json out = {
        {"kernel", a.entry},          {"kernels", a.entries}, {"target", a.target},           {"device", q.device.name},
        {"input", std::move(input)},  {"warps", warps},       {"instructions", rows},         {"lines", lines},
        {"unmodelled", r.unmodelled}, {"notes", r.notes},     {"diagnostics", a.diagnostics},
    };
    if (a.id) out["id"] = *a.id;
    return out;
}

std::vector<MemoryTableRow> memory_table(const PtxMemoryAnswer& a) {
    std::vector<MemoryTableRow> rows;
    rows.push_back({"where", "instruction", "runs", "sectors/req (ideal)", "wavefronts/req (ideal)", "fix (or why)"});
    for (int i : a.order) {
        const AccessSite& s = a.report.sites[static_cast<std::size_t>(i)];
        const SiteExplanation& x = a.explanations[static_cast<std::size_t>(i)];
        MemoryTableRow row;
        row.where = where_text(file_of(a.report, s), s.loc.line, s.ptx_line);
        if (const json in = inlined_json(a, s); !in.is_null())
            row.where += " (in " + where_text(in["file"].get<std::string>(), in["line"].get<int>(), s.ptx_line) + ")";
        row.instruction = s.side.empty() ? s.opcode : s.opcode + " (" + s.side + ")";
        row.executions = format_count(s.executions);
        row.sectors = ratio(sectors_per_request(s), ideal_sectors_per_request(s), s.model == SiteModel::global);
        row.wavefronts = ratio(wavefronts_per_request(s), ideal_wavefronts_per_request(s), s.model == SiteModel::shared);
        const std::string unknown = site_unknown(s, a.report);
        if (s.costed > 0 && s.sectors.varies())
            row.sectors += " (" + format_count(s.sectors.min) + ".." + format_count(s.sectors.max) + ")";
        if (s.costed > 0 && s.wavefronts.varies())
            row.wavefronts += " (" + format_count(s.wavefronts.min) + ".." + format_count(s.wavefronts.max) + ")";
        row.fix = !x.fix.empty() ? x.fix : !unknown.empty() ? "unknown: " + unknown : x.reason;
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<std::string> memory_summary(const PtxMemoryAnswer& a) {
    std::vector<std::string> out;
    const InterpOptions& o = a.input.options;
    std::string ran;
    for (const WarpRun& w : a.report.warps) {
        ran += ran.empty() ? "" : "; ";
        ran += "block (" + std::to_string(w.warp.block[0]) + "," + std::to_string(w.warp.block[1]) + "," + std::to_string(w.warp.block[2]) +
               ") warp " + std::to_string(w.warp.warp) + ": " + format_count(w.steps) + " instructions" +
               (w.finished ? "" : ", stopped: " + w.stopped);
    }
    out.push_back(a.entry + " (" + a.target + ") on " + a.input.device.name + ", block " + std::to_string(o.block[0]) + "," +
                  std::to_string(o.block[1]) + "," + std::to_string(o.block[2]) + ", grid " + std::to_string(o.grid[0]) + "," +
                  std::to_string(o.grid[1]) + "," + std::to_string(o.grid[2]));
    if (!a.input.launch_from.empty()) out.push_back("launch from " + a.input.launch_from);
    out.push_back("ran " + ran);
    for (const std::string& n : a.report.notes) out.push_back("assumed: " + n);
    std::vector<std::string> seen;  // each site's assumption once, with the PTX lines it applies to
    for (const AccessSite& s : a.report.sites)
        for (const std::string& n : s.notes)
            if (std::find(seen.begin(), seen.end(), n) == seen.end()) seen.push_back(n);
    for (const std::string& n : seen) {
        std::string lines;
        for (const AccessSite& s : a.report.sites)
            if (std::find(s.notes.begin(), s.notes.end(), n) != s.notes.end())
                lines += (lines.empty() ? "" : ", ") + std::to_string(s.ptx_line);
        out.push_back("note: " + n + " (PTX lines " + lines + ")");
    }
    for (const std::string& u : a.report.unmodelled) out.push_back("unmodelled: " + u);
    for (const std::string& d : a.diagnostics) out.push_back("ptx: " + d);
    return out;
}

}  // namespace occ::io
