// tools.cpp — Nsight Compute CSV and cuobjdump SASS parsing.
#include "occ/validation/tools.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace occ::validation {

std::vector<std::string> ncu_memory_metrics() {
    return {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
            "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
            "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
            "smsp__sass_inst_executed_op_shared_ld.sum",
            "smsp__sass_inst_executed_op_shared_st.sum"};
}

namespace {

// One CSV record (RFC 4180 quoting: "" inside quotes is a quote).
std::vector<std::string> split_csv(std::string_view line) {
    std::vector<std::string> f;
    std::string cur;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char ch = line[i];
        if (quoted) {
            if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                cur += '"';
                ++i;
            } else if (ch == '"') {
                quoted = false;
            } else {
                cur += ch;
            }
        } else if (ch == '"') {
            quoted = true;
        } else if (ch == ',') {
            f.push_back(cur);
            cur.clear();
        } else if (ch != '\r') {
            cur += ch;
        }
    }
    f.push_back(cur);
    return f;
}

std::optional<std::int64_t> parse_value(std::string s) {
    s.erase(std::remove(s.begin(), s.end(), ','), s.end());
    s.erase(std::remove_if(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); }), s.end());
    if (s.empty()) return std::nullopt;
    char* end = nullptr;
    const double d = std::strtod(s.c_str(), &end);
    if (end == s.c_str() || *end != '\0' || !std::isfinite(d)) return std::nullopt;
    return static_cast<std::int64_t>(std::llround(d));
}

}  // namespace

std::vector<NcuRow> parse_ncu_csv(std::string_view text, std::string* error) {
    std::vector<NcuRow> rows;
    int c_id = -1, c_kernel = -1, c_grid = -1, c_metric = -1, c_value = -1;
    bool have_header = false;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t nl = text.find('\n', pos);
        if (nl == std::string_view::npos) nl = text.size();
        const std::string_view line = text.substr(pos, nl - pos);
        pos = nl + 1;
        if (line.empty() || line.front() != '"') continue;
        const auto f = split_csv(line);
        if (!have_header) {
            for (int i = 0; i < static_cast<int>(f.size()); ++i) {
                if (f[i] == "ID") c_id = i;
                else if (f[i] == "Kernel Name") c_kernel = i;
                else if (f[i] == "Grid Size") c_grid = i;
                else if (f[i] == "Metric Name") c_metric = i;
                else if (f[i] == "Metric Value") c_value = i;
            }
            if (c_id < 0 || c_kernel < 0 || c_metric < 0 || c_value < 0) {
                if (error) *error = "ncu CSV header lacks ID / Kernel Name / Metric Name / Metric Value";
                return {};
            }
            have_header = true;
            continue;
        }
        const int need = std::max({c_id, c_kernel, c_grid, c_metric, c_value});
        if (static_cast<int>(f.size()) <= need) continue;
        NcuRow r;
        r.id = std::atoi(f[c_id].c_str());
        r.kernel = f[c_kernel];
        if (c_grid >= 0) r.grid = f[c_grid];
        r.metric = f[c_metric];
        r.value = parse_value(f[c_value]);
        rows.push_back(std::move(r));
    }
    if (!have_header && error) *error = "no ncu CSV output found";
    return rows;
}

int parse_dim_x(std::string_view dim) {
    std::size_t i = 0;
    while (i < dim.size() && (dim[i] == '(' || dim[i] == ' ')) ++i;
    if (i >= dim.size() || !std::isdigit(static_cast<unsigned char>(dim[i]))) return -1;
    long v = 0;
    while (i < dim.size() && std::isdigit(static_cast<unsigned char>(dim[i]))) {
        v = v * 10 + (dim[i] - '0');
        if (v > 0x7fffffff) return -1;
        ++i;
    }
    return static_cast<int>(v);
}

std::vector<NcuLaunch> group_ncu(const std::vector<NcuRow>& rows) {
    std::map<int, NcuLaunch> by_id;
    for (const NcuRow& r : rows) {
        NcuLaunch& l = by_id[r.id];
        l.id = r.id;
        l.kernel = r.kernel;
        l.grid_x = parse_dim_x(r.grid);
        if (r.value) l.metrics[r.metric] = *r.value;
    }
    std::vector<NcuLaunch> out;
    for (auto& [id, l] : by_id) out.push_back(std::move(l));
    return out;
}

std::string ncu_failure_reason(std::string_view out) {
    if (out.find("ERR_NVGPUCTRPERM") != std::string_view::npos) return "no permission to read GPU performance counters (ERR_NVGPUCTRPERM)";
    if (out.find("No kernels were profiled") != std::string_view::npos) return "ncu profiled no kernels";
    if (out.find("is not supported") != std::string_view::npos && out.find("==ERROR==") != std::string_view::npos)
        return "ncu does not support this GPU";
    if (out.find("==ERROR==") != std::string_view::npos) {
        const auto p = out.find("==ERROR==");
        const auto e = out.find('\n', p);
        return std::string(out.substr(p, e == std::string_view::npos ? std::string_view::npos : e - p));
    }
    return {};
}

// --- CUPTI -----------------------------------------------------------------------------------------
std::vector<std::string> cupti_memory_metrics(bool sass_instructions) {
    std::vector<std::string> m = ncu_memory_metrics();
    if (!sass_instructions)
        for (std::string& s : m)
            if (const auto p = s.find("smsp__sass_inst_executed"); p != std::string::npos) s.replace(p, 11, "smsp__");
    return m;
}

std::vector<std::string> cupti_occupancy_metrics() {
    return {"sm__ctas_launched.sum", "sm__warps_active.avg.pct_of_peak_sustained_active", "sm__ctas_active.max.per_cycle_active",
            "sm__ctas_active.avg.peak_sustained", "sm__warps_active.avg.peak_sustained"};
}

std::vector<std::pair<int, std::string>> cupti_bundle_chips() {
    return {{80, "GA100"}, {86, "GA102"}, {89, "AD102"}, {90, "GH100"}, {100, "GB100"}, {120, "GB202"}};
}

std::string counter_range_name(std::size_t case_index) { return "case-" + std::to_string(case_index); }

long counter_range_index(std::string_view name) {
    constexpr std::string_view prefix = "case-";
    if (name.substr(0, prefix.size()) != prefix || name.size() == prefix.size() || name.size() > prefix.size() + 9) return -1;
    long v = 0;
    for (char ch : name.substr(prefix.size())) {
        if (!std::isdigit(static_cast<unsigned char>(ch))) return -1;
        v = v * 10 + (ch - '0');
    }
    return v;
}

std::vector<NcuLaunch> launches_from_ranges(const std::vector<CounterRange>& ranges) {
    std::vector<NcuLaunch> out;
    int id = 0;
    for (const CounterRange& r : ranges) {
        const long i = counter_range_index(r.name);
        if (i < 0) continue;
        NcuLaunch l;
        l.id = id++;
        l.kernel = r.name;
        l.grid_x = static_cast<int>(i + 1);
        for (const auto& [name, value] : r.values) {
            if (!std::isfinite(value)) continue;
            std::string key = name;
            if (key.rfind("smsp__inst_executed_op_shared_", 0) == 0) key.replace(0, 6, "smsp__sass_");
            l.metrics[key] = static_cast<std::int64_t>(std::llround(value));
        }
        out.push_back(std::move(l));
    }
    return out;
}

bool is_privilege_error(std::string_view result) { return result.find("INSUFFICIENT_PRIVILEGES") != std::string_view::npos; }

std::string cupti_failure_reason(std::string_view call, std::string_view result) {
    std::string s;
    if (is_privilege_error(result)) {
        s = "GPU performance counters are restricted to administrators (";
        s += result;
        s += " from ";
        s += call;
        s += "; the driver runs with NVreg_RestrictProfilingToAdminUsers=1): run as root or load nvidia with "
             "NVreg_RestrictProfilingToAdminUsers=0";
        return s;
    }
    s = "CUPTI ";
    s += call;
    s += " failed: ";
    s += result;
    return s;
}

// --- SASS ------------------------------------------------------------------------------------------
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

}  // namespace

std::vector<SassFunction> parse_cuobjdump_sass(std::string_view text) {
    std::vector<SassFunction> fns;
    std::string arch;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t nl = text.find('\n', pos);
        if (nl == std::string_view::npos) nl = text.size();
        const std::string_view line = trim(text.substr(pos, nl - pos));
        pos = nl + 1;
        if (line.rfind("arch = ", 0) == 0) {
            arch = std::string(trim(line.substr(7)));
        } else if (line.rfind("code for ", 0) == 0) {
            arch = std::string(trim(line.substr(9)));
        } else if (line.rfind("Function : ", 0) == 0) {
            fns.push_back(SassFunction{arch, std::string(trim(line.substr(11))), {}});
        } else if (line.rfind("/*", 0) == 0 && !fns.empty()) {
            // "/*00b0*/   @!P0 LDG.E.128 R4, desc[UR4][R2.64] ;   /* 0x... */"
            const auto close = line.find("*/");
            if (close == std::string_view::npos) continue;
            std::string_view rest = trim(line.substr(close + 2));
            if (rest.empty() || rest.front() == '/') continue;  // encoding-only line
            if (rest.front() == '@') {
                const auto sp = rest.find(' ');
                if (sp == std::string_view::npos) continue;
                rest = trim(rest.substr(sp));
            }
            const auto end = rest.find_first_of(" ;");
            fns.back().opcodes.emplace_back(rest.substr(0, end));
        }
    }
    return fns;
}

int sass_access_width(std::string_view op) {
    const auto dot = op.find('.');
    const std::string_view base = op.substr(0, dot);
    if (base != "LDG" && base != "STG" && base != "LDS" && base != "STS" && base != "LD" && base != "ST") return 0;
    int width = 4;
    std::string_view rest = dot == std::string_view::npos ? std::string_view{} : op.substr(dot + 1);
    while (!rest.empty()) {
        const auto d = rest.find('.');
        const std::string_view mod = rest.substr(0, d);
        if (mod == "U8" || mod == "S8") width = 1;
        else if (mod == "U16" || mod == "S16") width = 2;
        else if (mod == "64") width = 8;
        else if (mod == "128") width = 16;
        else if (mod == "256") width = 32;
        rest = d == std::string_view::npos ? std::string_view{} : rest.substr(d + 1);
    }
    return width;
}

std::set<int> sass_widths(const SassFunction& f, std::string_view op) {
    std::set<int> w;
    for (const std::string& o : f.opcodes) {
        const auto dot = o.find('.');
        if (std::string_view(o).substr(0, dot) == op) w.insert(sass_access_width(o));
    }
    return w;
}

const SassFunction* find_sass(const std::vector<SassFunction>& fns, std::string_view arch, std::string_view name) {
    for (const SassFunction& f : fns)
        if ((arch.empty() || f.arch == arch) && f.name == name) return &f;
    return nullptr;
}

}  // namespace occ::validation
