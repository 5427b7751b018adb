// rocprof_csv.cpp — rocprof-compute's raw counters, pmc_perf.csv (workloads/<name>/<GPU>/), as AMD
// kernel rows (occ/io/rocprof.hpp): one row per dispatch. The columns (ROCm/omniperf
// tests/workloads/*/pmc_perf.csv; fixtures in tests/fixtures/rocprof/SOURCES.md): Dispatch_ID,
// Kernel_Name, Grid_Size, Workgroup_Size, LDS_Per_Workgroup, Scratch_Per_Workitem, Arch_VGPR,
// Accum_VGPR, SGPR, Wave_Size (wave_size in older workloads), then one column per counter. rocprof
// v1's names (KernelName, grd, wgr, lds, scr, arch_vgpr, accum_vgpr, vgpr, sgpr) are the same
// columns (ROCm/rocprofiler CHANGELOG, "File plugin version 1 output header"). The counters read
// are those a Wavefront table row is made of (analysis_configs/gfx90a/0700_wavefront-launch.yaml):
// SPI_CSN_WAVE, SQ_WAVES_SAVED, SQ_WAVES_RESTORED, End_Timestamp - Start_Timestamp, and
// SQ_ACCUM_PREV_HIRES / GRBM_GUI_ACTIVE when both are columns; the Workgroup Manager rates are
// derived by rocprof-compute analyze and are null here. The GPU: sysinfo.csv beside the file
// (gpu_arch, gpu_soc in older workloads).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "amd_read.hpp"
#include "occ/io/rocprof.hpp"
#include "occ/io/utf8.hpp"
#include "occ/text.hpp"
#include "ptxas_lines.hpp"

namespace occ::io {
namespace {

constexpr std::size_t kMaxRows = 100000;  // bounds a hostile file
constexpr std::size_t kMaxCells = 20000;  // pmc_perf.csv has ~3000 columns

// One CSV record's fields (RFC 4180 quoting; a quoted field may not span lines here).
std::vector<std::string> fields_of(std::string_view line) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size() && out.size() <= kMaxCells; ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
            else if (c == '"') quoted = false;
            else out.back() += c;
        } else if (c == '"') quoted = true;
        else if (c == ',') out.emplace_back();
        else out.back() += c;
    }
    return out;
}

std::vector<std::string_view> lines_of(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t pos = 0;
    while (pos < text.size() && out.size() <= kMaxRows) {
        std::size_t nl = text.find('\n', pos);
        if (nl == std::string_view::npos) nl = text.size();
        std::string_view l = text.substr(pos, nl - pos);
        if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
        out.push_back(l);
        pos = nl + 1;
    }
    return out;
}

// The columns of the header, by lower-case name; each figure has its spellings.
struct Columns {
    std::map<std::string, std::size_t, std::less<>> at;
    std::optional<std::size_t> find(std::initializer_list<std::string_view> names) const {
        for (std::string_view n : names)
            if (auto it = at.find(n); it != at.end()) return it->second;
        return std::nullopt;
    }
};

Columns header_of(std::string_view line) {
    Columns c;
    const std::vector<std::string> h = fields_of(line);
    for (std::size_t i = 0; i < h.size(); ++i) c.at.emplace(lower(ptxas_detail::trim(h[i])), i);
    return c;
}

}  // namespace

bool looks_like_rocprof_csv(std::string_view text) {
    const std::string_view first = text.substr(0, std::min(text.find('\n'), std::size_t{1} << 20));
    const Columns c = header_of(first);
    return c.find({"kernel_name", "kernelname"}) && c.find({"arch_vgpr", "vgpr"}) && c.find({"sgpr"});
}

PtxasLog parse_rocprof_csv(std::string_view text, std::string_view gpu_arch) {
    PtxasLog log;
    const std::vector<std::string_view> lines = lines_of(text);
    if (lines.empty()) return log;
    const Columns c = header_of(lines[0]);
    log.lines = static_cast<int>(lines.size());
    log.recognised_lines = 1;
    const auto col = [&](std::initializer_list<std::string_view> names) { return c.find(names); };
    const auto name_col = col({"kernel_name", "kernelname"}), dispatch_col = col({"dispatch_id", "index"});
    for (std::size_t li = 1; li < lines.size(); ++li) {
        if (ptxas_detail::trim(lines[li]).empty()) continue;
        const std::vector<std::string> f = fields_of(lines[li]);
        const auto cell = [&](std::optional<std::size_t> i) -> std::optional<double> {
            return i && *i < f.size() ? ptxas_detail::whole_number(f[*i]) : std::nullopt;
        };
        std::string name = name_col && *name_col < f.size() ? f[*name_col] : std::string();
        for (std::string_view suffix : {" [clone .kd]", " (.kd)", ".kd"})
            if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
                name.resize(name.size() - suffix.size());
                break;
            }
        PtxasKernel k = amd_detail::make_kernel(name, kRocprofCsvFormat, gpu_arch);
        k.line = static_cast<int>(li + 1);
        if (const auto d = cell(dispatch_col); d && *d >= 0 && *d < 1e15)
            k.source_entry = "Dispatch_ID " + std::to_string(static_cast<long long>(*d));
        AmdResources& r = *k.amd;
        AmdProfile& p = r.profile.emplace();
        p.from = std::string(kRocprofCsvFormat);
        p.dispatches = 1;
        amd_detail::note_unread(k, "pmc_perf.csv");
        // A figure of the dispatch: a whole number in [0, max], else null with the reason.
        const auto whole = [&](std::initializer_list<std::string_view> names, std::int64_t max, std::string_view field,
                               std::vector<std::pair<std::string, std::string>>& unread) -> std::optional<std::int64_t> {
            const auto v = cell(col(names));
            std::string why;
            if (!v) why = "not in pmc_perf.csv (no " + std::string(*names.begin()) + " column, or not a number)";
            else if (*v < 0 || *v > static_cast<double>(max) || *v != std::floor(*v))
                why = std::string(*names.begin()) + " is not a whole number from 0 to " + std::to_string(max);
            for (auto& u : unread)
                if (u.first == field) u.second = why;
            if (!why.empty()) {
                if (std::none_of(unread.begin(), unread.end(), [&](const auto& u) { return u.first == field; }))
                    unread.emplace_back(std::string(field), why);
                return std::nullopt;
            }
            unread.erase(std::remove_if(unread.begin(), unread.end(), [&](const auto& u) { return u.first == field; }), unread.end());
            return static_cast<std::int64_t>(*v);
        };
        constexpr std::int64_t kBytes = std::int64_t{1} << 40, kRegs = 1 << 20;
        if (const auto v = whole({"arch_vgpr", "vgpr"}, kRegs, "registers", r.unread)) k.registers = static_cast<int>(*v);
        if (const auto v = whole({"accum_vgpr"}, kRegs, "agprs", r.unread)) r.agprs = static_cast<int>(*v);
        if (const auto v = whole({"sgpr"}, kRegs, "sgprs", r.unread)) r.sgprs = static_cast<int>(*v);
        if (const auto v = whole({"wave_size"}, 1024, "wave_size", r.unread)) r.wave_size = static_cast<int>(*v);
        k.smem_static = whole({"lds_per_workgroup", "lds"}, kBytes, "smem_static", r.unread);
        k.stack_frame = whole({"scratch_per_workitem", "scr"}, kBytes, "stack_frame", r.unread);
        if (const auto v = whole({"workgroup_size", "wgr"}, kRegs, "workgroup_size", p.unread)) p.workgroup_size = static_cast<int>(*v);
        p.grid_size = whole({"grid_size", "grd"}, kBytes, "grid_size", p.unread);
        for (auto& u : r.unread)
            if (u.first == "vgprs_total") u.second = "pmc_perf.csv gives VGPRs and AGPRs apart (Arch_VGPR, Accum_VGPR)";
        // The measured figures one dispatch's counters give.
        const auto start = cell(col({"start_timestamp", "beginns"})), end = cell(col({"end_timestamp", "endns"}));
        const auto accum = cell(col({"sq_accum_prev_hires"})), active = cell(col({"grbm_gui_active"}));
        for (const RocprofMetric& m : rocprof_measured_metrics()) {
            std::optional<double> v;
            std::string why;
            if (m.key == "kernel_time_ns") {
                if (start && end && *end >= *start) v = *end - *start;
                else why = "not in pmc_perf.csv (Start_Timestamp, End_Timestamp)";
            } else if (m.key == "wavefront_occupancy") {
                if (accum && active && *active > 0) v = *accum / *active;
                else
                    why =
                        "needs SQ_ACCUM_PREV_HIRES and GRBM_GUI_ACTIVE in one file (rocprof-compute collects SQ_ACCUM_PREV_HIRES apart, in "
                        "SQ_LEVEL_WAVES.csv): read rocprof-compute analyze's output";
            } else if (!m.counter.empty()) {
                v = cell(col({lower(m.counter)}));
                if (!v) why = "not in pmc_perf.csv (no " + std::string(m.counter) + " column)";
            } else {
                why = "rocprof-compute analyze derives it (block " + std::string(m.block) + "): read its output";
            }
            if (v) p.measured.emplace_back(std::string(m.key), *v);
            else p.unread.emplace_back(std::string(m.key), why);
        }
        log.kernels.push_back(std::move(k));
        ++log.recognised_lines;
        if (log.kernels.size() >= kMaxRows) break;
    }
    ptxas_detail::number_occurrences(log.kernels);
    return log;
}

std::string rocprof_sysinfo_arch(std::string_view sysinfo) {
    const std::vector<std::string_view> lines = lines_of(sysinfo.substr(0, std::min<std::size_t>(sysinfo.size(), 1 << 20)));
    if (lines.size() < 2) return {};
    const Columns c = header_of(lines[0]);
    const std::vector<std::string> f = fields_of(lines[1]);
    const auto i = c.find({"gpu_arch", "gpu_soc"});
    if (!i || *i >= f.size()) return {};
    const std::string a = lower(ptxas_detail::trim(f[*i]));
    return a.rfind("gfx", 0) == 0 && a.size() <= 16 ? a : std::string();
}

}  // namespace occ::io
