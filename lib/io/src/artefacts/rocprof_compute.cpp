// rocprof_compute.cpp — rocprof-compute (Omniperf) `analyze` output as AMD kernel rows (occ/io/rocprof.hpp).
//
// The tables (fixtures and their sources: tests/fixtures/rocprof/SOURCES.md):
//   - "0.1 Top Kernels" ("0. Top Stat" in Omniperf 2.0): column "KernelName" / "Kernel_Name"; a long name
//     wraps onto rows whose first cell is empty (the wrapped piece keeps its leading space);
//   - "0.2 Dispatch List": "Dispatch_ID", "Kernel_Name", "GPU_ID";
//   - metric tables: "Index" / "Metric_ID", "Metric", then "Avg", "Min", "Max", "Unit", or (Speed-of-Light)
//     "Avg", "Unit", "Peak", "Pct of Peak".
// Rows are matched by their "Metric" title, not their id: ids move between versions ("in ROCm 7.2
// Wavefront Occupancy is in block 2.1.16 and not 2.1.15", amd/HPCTrainingExamples 2-LDSOccupancyLimit).
// What the launch-stats rows are computed from (ROCm/omniperf analysis_configs/gfx90a/0700_wavefront-
// launch.yaml): VGPRs = Arch_VGPR, AGPRs = Accum_VGPR, SGPRs = SGPR, LDS Allocation = LDS_Per_Workgroup,
// Scratch Allocation = Scratch_Per_Workitem, Workgroup Size, Grid Size: the dispatch's own figures,
// averaged over the dispatches analysed. A figure is read only when every dispatch had the same (Min ==
// Max): otherwise it is null with that reason.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "amd_read.hpp"
#include "occ/io/rocprof.hpp"
#include "occ/io/utf8.hpp"
#include "ptxas_lines.hpp"

namespace occ::io {
namespace {

using ptxas_detail::starts_with;
using ptxas_detail::trim;

constexpr std::string_view kFormat = "rocprof-compute analysis";
constexpr std::string_view kFrom = "rocprof-compute analyze";
constexpr std::string_view kBar = "\u2502";  // │: the cell separator of a table row
constexpr std::size_t kMaxAnalyses = 10000;  // bounds a hostile text
constexpr std::size_t kMaxRows = 100000;

constexpr RocprofMetric kMeasured[] = {
    {"Wavefront Occupancy", "Avg", "wavefront_occupancy", "2.1", "",
     "wavefronts resident on the whole GPU, averaged over the kernel's run (SQ_ACCUM_PREV_HIRES / GRBM_GUI_ACTIVE)"},
    {"Wavefront Occupancy", "Peak", "wavefront_occupancy_peak", "2.1", "",
     "the most wavefronts the GPU holds, as rocprof-compute states it"},
    {"Wavefront Occupancy", "Pct of Peak", "wavefront_occupancy_pct", "2.1", "", "Avg / Peak, in percent"},
    {"Total Wavefronts", "Avg", "total_wavefronts", "7.1", "SPI_CSN_WAVE", "wavefronts launched (SPI_CSN_WAVE)"},
    {"Saved Wavefronts", "Avg", "saved_wavefronts", "7.1", "SQ_WAVES_SAVED", "wavefronts saved by context switches (SQ_WAVES_SAVED)"},
    {"Restored Wavefronts", "Avg", "restored_wavefronts", "7.1", "SQ_WAVES_RESTORED", "wavefronts restored (SQ_WAVES_RESTORED)"},
    {"Not-scheduled Rate (Workgroup Manager)", "Avg", "not_scheduled_workgroup_manager_pct", "6.2", "",
     "percent of scheduler-pipe cycles the workgroup manager scheduled no workgroup"},
    {"Not-scheduled Rate (Scheduler-Pipe)", "Avg", "not_scheduled_scheduler_pipe_pct", "6.2", "",
     "percent of cycles the scheduler pipe scheduled no workgroup"},
    {"Scheduler-Pipe Stall Rate", "Avg", "scheduler_pipe_stall_pct", "6.2", "",
     "percent of cycles the scheduler pipe waited for resources"},
    {"Scratch Stall Rate", "Avg", "scratch_stall_pct", "6.2", "", "percent of cycles stalled waiting for scratch"},
    {"Insufficient SIMD Waveslots", "Avg", "insufficient_simd_waveslots_pct", "6.2", "", "how often no SIMD had a free wave slot"},
    {"Insufficient SIMD VGPRs", "Avg", "insufficient_simd_vgprs_pct", "6.2", "", "how often no SIMD had the VGPRs a wave needs"},
    {"Insufficient SIMD SGPRs", "Avg", "insufficient_simd_sgprs_pct", "6.2", "", "how often no SIMD had the SGPRs a wave needs"},
    {"Insufficient CU LDS", "Avg", "insufficient_cu_lds_pct", "6.2", "", "how often no CU had the LDS a workgroup needs"},
    {"Insufficient CU Barriers", "Avg", "insufficient_cu_barriers_pct", "6.2", "", "how often no CU had a free barrier"},
    {"Reached CU Workgroup Limit", "Avg", "reached_cu_workgroup_limit_pct", "6.2", "", "how often the CU held its most workgroups"},
    {"Reached CU Wavefront Limit", "Avg", "reached_cu_wavefront_limit_pct", "6.2", "", "how often the CU held its most wavefronts"},
    {"Kernel Time (Nanosec)", "Avg", "kernel_time_ns", "7.2", "", "the kernel's duration, nanoseconds"},
};

using Columns = std::map<std::string, double, std::less<>>;  // "Avg" -> 415.52

// One `analyze` run: what its tables said.
struct Analysis {
    std::map<std::string, Columns, std::less<>> metrics;     // row title -> its numeric columns
    std::map<std::string, std::string, std::less<>> tables;  // row title -> the heading of the table it came from
    std::vector<std::string> top_kernels, dispatch_kernels;
    int line = 0;
    bool comparison = false;  // `analyze -p A -p B`: each column twice (A's, then B's with its change)
    bool empty() const { return metrics.empty() && top_kernels.empty() && dispatch_kernels.empty() && !comparison; }
};

// The cells of "│ a │ b │" as written (padding kept): {" a ", " b "}.
std::vector<std::string_view> cells(std::string_view row) {
    std::vector<std::string_view> out;
    std::size_t p = row.find(kBar);
    while (p != std::string_view::npos && out.size() < 64) {
        const std::size_t q = row.find(kBar, p + kBar.size());
        if (q == std::string_view::npos) break;
        out.push_back(row.substr(p + kBar.size(), q - p - kBar.size()));
        p = q;
    }
    return out;
}

// A cell without tabulate's one-space padding on the left, trimmed on the right.
std::string_view unpadded(std::string_view c) {
    if (!c.empty() && c.front() == ' ') c.remove_prefix(1);
    while (!c.empty() && (c.back() == ' ' || c.back() == '\t')) c.remove_suffix(1);
    return c;
}

struct Parser {
    std::vector<Analysis> done;
    Analysis cur;
    std::string heading;              // the last "7.1 Wavefront Launch Stats" line
    std::vector<std::string> header;  // the current table's column names (empty: the next row is the header)
    enum class Kind { other, metrics, kernels, dispatches } kind = Kind::other;
    std::size_t name_col = 0, rows = 0;
    int line_no = 0;
    PtxasLog* log = nullptr;

    void finish() {
        if (!cur.empty() && done.size() < kMaxAnalyses) done.push_back(std::move(cur));
        cur = Analysis{};
        cur.line = line_no;
    }

    void header_row(const std::vector<std::string_view>& cs) {
        for (std::string_view c : cs) header.emplace_back(trim(c));
        const auto col = [&](std::string_view n) { return std::find(header.begin(), header.end(), n) - header.begin(); };
        const std::size_t metric = static_cast<std::size_t>(col("Metric"));
        const std::size_t kname = std::min(col("Kernel_Name"), col("KernelName"));
        for (std::size_t i = 0; i < header.size(); ++i)
            if (!header[i].empty() &&
                std::find(header.begin() + static_cast<std::ptrdiff_t>(i) + 1, header.end(), header[i]) != header.end())
                cur.comparison = true;
        if (metric < header.size() && cur.comparison) {
            kind = Kind::other;  // two workloads' figures side by side: neither is read
        } else if (metric < header.size()) {
            kind = Kind::metrics;
            name_col = metric;
        } else if (kname < header.size()) {
            kind = static_cast<std::size_t>(col("Dispatch_ID")) < header.size() ? Kind::dispatches : Kind::kernels;
            name_col = static_cast<std::size_t>(kname);
        } else {
            kind = Kind::other;
        }
    }

    void metric_row(const std::vector<std::string_view>& cs) {
        const std::string title(trim(cs[name_col]));
        if (title.empty()) return;
        // The same row again from the same table: a second analysis pasted without its "Top Stats".
        if (auto t = cur.tables.find(title); t != cur.tables.end() && t->second == heading) finish();
        Columns& cols = cur.metrics[title];
        cur.tables.emplace(title, heading);
        for (std::size_t i = 0; i < cs.size() && i < header.size(); ++i) {
            if (i == name_col) continue;
            if (const auto v = ptxas_detail::whole_number(cs[i])) cols.emplace(header[i], *v);  // the first table's value stays
        }
    }

    void name_row(const std::vector<std::string_view>& cs) {
        std::vector<std::string>& names = kind == Kind::kernels ? cur.top_kernels : cur.dispatch_kernels;
        const std::string_view piece = unpadded(cs[name_col]);
        if (!names.empty() && trim(cs[0]).empty()) {  // a wrapped name's next piece
            if (names.back().size() < 4096) names.back() += piece;
        } else {
            names.emplace_back(trim(piece));
        }
    }

    void line(std::string_view raw) {
        const std::string_view l = trim(raw);
        if (starts_with(l, kBar)) {
            ++log->recognised_lines;
            const std::vector<std::string_view> cs = cells(l);
            if (cs.empty()) return;
            if (header.empty()) {
                header_row(cs);
                return;
            }
            if (kind == Kind::other || name_col >= cs.size() || ++rows > kMaxRows) return;
            if (kind == Kind::metrics) metric_row(cs);
            else name_row(cs);
            return;
        }
        // ╒ opens a table (its header row follows), ╘ closes it; ╞ and ├ separate rows.
        if (starts_with(l, "\u2552") || starts_with(l, "\u2558")) {
            header.clear();
            kind = Kind::other;
            ++log->recognised_lines;
            return;
        }
        if (starts_with(l, "\u255e") || starts_with(l, "\u251c")) {
            ++log->recognised_lines;
            return;
        }
        // "0. Top Stat(s)", the analyze command or its "Analysis mode" line: a new analysis.
        if (starts_with(l, "0. Top Stat") || l.find("Analysis mode") != std::string_view::npos ||
            l.find("omniperf analyze") != std::string_view::npos || l.find("rocprof-compute analyze") != std::string_view::npos) {
            if (!cur.empty()) finish();
            if (cur.empty()) cur.line = line_no;
            heading = std::string(l.substr(0, 200));
            ++log->recognised_lines;
            return;
        }
        // "7.1 Wavefront Launch Stats": the heading of the tables below it.
        if (!l.empty() && l[0] >= '0' && l[0] <= '9' && l.find(' ') != std::string_view::npos) {
            heading = std::string(l.substr(0, 200));
            ++log->recognised_lines;
            return;
        }
        ++log->skipped_lines;
    }
};

std::string strip_kd(std::string name) {
    for (std::string_view suffix : {" [clone .kd]", " (.kd)", ".kd"})
        if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
            name.resize(name.size() - suffix.size());
            break;
        }
    return name;
}

std::string figure(double v) {
    std::string s = std::to_string(v);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
}

void set_reason(std::vector<std::pair<std::string, std::string>>& unread, std::string_view field, std::string why) {
    for (auto& u : unread)
        if (u.first == field) {
            u.second = std::move(why);
            return;
        }
    unread.emplace_back(std::string(field), std::move(why));
}

// A launch figure of "Wavefront Launch Stats": the Avg when every dispatch had the same (Min == Max)
// and it is a whole number in [0, max]; empty with the reason otherwise.
template <typename T>
std::optional<T> launch_figure(const Analysis& a, std::string_view title, std::int64_t max, std::string_view field,
                               std::vector<std::pair<std::string, std::string>>& unread) {
    const auto it = a.metrics.find(title);
    if (it == a.metrics.end() || !it->second.count("Avg")) {
        set_reason(unread, field,
                   "not in the analysis: rocprof-compute analyze -b 7.1 prints \"" + std::string(title) + "\" (Wavefront Launch Stats)");
        return std::nullopt;
    }
    const Columns& c = it->second;
    const double v = c.find("Avg")->second;
    const auto mn = c.find("Min"), mx = c.find("Max");
    if ((mn != c.end() && mn->second != v) || (mx != c.end() && mx->second != v)) {
        set_reason(unread, field,
                   "the dispatches analysed differ (" + std::string(title) + " min " + figure(mn != c.end() ? mn->second : v) + ", max " +
                       figure(mx != c.end() ? mx->second : v) + "): analyze one dispatch (--dispatch N)");
        return std::nullopt;
    }
    if (v < 0 || v > static_cast<double>(max) || v != std::floor(v)) {
        set_reason(unread, field,
                   "\"" + std::string(title) + "\" is " + figure(v) + ", not a whole number from 0 to " + std::to_string(max));
        return std::nullopt;
    }
    return static_cast<T>(v);
}

PtxasKernel kernel_of(const Analysis& a) {
    // The kernel: the Dispatch List's, else Top Kernels'; several means the figures cover them all.
    std::vector<std::string> names;
    for (const std::string& n : a.dispatch_kernels.empty() ? a.top_kernels : a.dispatch_kernels)
        if (std::find(names.begin(), names.end(), strip_kd(n)) == names.end()) names.push_back(strip_kd(n));
    PtxasKernel k = amd_detail::make_kernel(names.size() == 1 ? names[0] : std::string(), kFormat, "");
    k.line = a.line;
    if (a.comparison)
        k.diagnostics.push_back(
            "a comparison of two workloads (rocprof-compute analyze -p A -p B): its figures are not read; "
            "analyze one workload");
    if (names.empty()) k.diagnostics.push_back("the analysis has no Top Kernels or Dispatch List table: the kernel is not named");
    else if (names.size() > 1) {
        k.name = "(" + std::to_string(names.size()) + " kernels)";
        k.diagnostics.push_back("the analysis covers " + std::to_string(names.size()) + " kernels (" + utf8_prefix(names[0], 80) +
                                ", ...): its figures are over all their dispatches; analyze one (--dispatch N)");
    }
    AmdResources& r = *k.amd;
    AmdProfile& p = r.profile.emplace();
    p.from = std::string(kFrom);
    if (!a.dispatch_kernels.empty()) p.dispatches = static_cast<int>(std::min<std::size_t>(a.dispatch_kernels.size(), 1 << 30));
    else p.unread.emplace_back("dispatches", "not in the analysis (its Dispatch List table)");
    constexpr std::int64_t kBytes = std::int64_t{1} << 40;
    amd_detail::note_unread(k, "the rocprof-compute analysis");
    k.registers = launch_figure<int>(a, "VGPRs", 1 << 20, "registers", r.unread);
    r.agprs = launch_figure<int>(a, "AGPRs", 1 << 20, "agprs", r.unread);
    r.sgprs = launch_figure<int>(a, "SGPRs", 1 << 20, "sgprs", r.unread);
    k.smem_static = launch_figure<std::int64_t>(a, "LDS Allocation", kBytes, "smem_static", r.unread);
    k.stack_frame = launch_figure<std::int64_t>(a, "Scratch Allocation", kBytes, "stack_frame", r.unread);
    p.workgroup_size = launch_figure<int>(a, "Workgroup Size", 1 << 20, "workgroup_size", p.unread);
    p.grid_size = launch_figure<std::int64_t>(a, "Grid Size", kBytes, "grid_size", p.unread);
    // What was read is no longer unread; note_unread named everything empty before the reading.
    const auto read = [&](const std::string& field) {
        return (field == "registers" && k.registers) || (field == "agprs" && r.agprs) || (field == "sgprs" && r.sgprs) ||
               (field == "smem_static" && k.smem_static) || (field == "stack_frame" && k.stack_frame);
    };
    r.unread.erase(std::remove_if(r.unread.begin(), r.unread.end(), [&](const auto& u) { return read(u.first); }), r.unread.end());
    set_reason(r.unread, "vgprs_total", "rocprof-compute reports VGPRs and AGPRs apart (vgprs, agprs)");
    for (const RocprofMetric& m : kMeasured) {
        const auto it = a.metrics.find(m.title);
        const Columns* cols = it == a.metrics.end() ? nullptr : &it->second;
        const auto v = cols ? cols->find(m.column) : Columns::const_iterator{};
        if (cols && v != cols->end()) p.measured.emplace_back(std::string(m.key), v->second);
        else
            p.unread.emplace_back(std::string(m.key),
                                  "not in the analysis: rocprof-compute analyze -b " + std::string(m.block) + " prints \"" +
                                      std::string(m.title) + "\"" +
                                      (m.column == "Avg" ? std::string() : " (its " + std::string(m.column) + " column)"));
    }
    return k;
}

}  // namespace

std::span<const RocprofMetric> rocprof_measured_metrics() { return kMeasured; }

bool looks_like_rocprof_compute(std::string_view text) {
    const std::string_view head = text.substr(0, std::min<std::size_t>(text.size(), 1 << 20));
    if (head.find(kBar) == std::string_view::npos) return false;
    for (std::string_view s :
         {"Wavefront Launch Stats", "Workgroup Manager - Resource Allocation", "Wavefront Occupancy", "Speed-of-Light"})
        if (head.find(s) != std::string_view::npos) return true;
    return false;
}

PtxasLog parse_rocprof_compute(std::string_view text) {
    PtxasLog log;
    Parser p;
    p.log = &log;
    p.cur.line = 1;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t nl = text.find('\n', pos);
        if (nl == std::string_view::npos) nl = text.size();
        std::string_view raw = text.substr(pos, nl - pos);
        if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
        pos = nl + 1;
        ++p.line_no;
        ++log.lines;
        if (!trim(raw).empty()) p.line(raw);
    }
    p.finish();
    for (const Analysis& a : p.done)
        if (!a.metrics.empty() || a.comparison) log.kernels.push_back(kernel_of(a));
    ptxas_detail::number_occurrences(log.kernels);
    return log;
}

json rocprof_profile_json(const AmdProfile& p) {
    const auto opt = [](const auto& v) { return v ? json(*v) : json(nullptr); };
    json measured = json::object();
    for (const RocprofMetric& m : kMeasured) {
        const auto it = std::find_if(p.measured.begin(), p.measured.end(), [&](const auto& kv) { return kv.first == m.key; });
        measured[std::string(m.key)] = it == p.measured.end() ? json(nullptr) : json(it->second);
    }
    json unread = json::object();
    for (const auto& u : p.unread) unread[u.first] = u.second;
    return json{{"from", p.from},
                {"workgroup_size", opt(p.workgroup_size)},
                {"grid_size", opt(p.grid_size)},
                {"dispatches", opt(p.dispatches)},
                {"measured", measured},
                {"unread", unread}};
}

}  // namespace occ::io
