// ncu_parse.cpp — reading Nsight Compute reports (see occ/io/ncu.hpp).
//
// [SECTION] Values: printed text -> interval and best reading
// [SECTION] Labels: what ncu calls each quantity, in its text output and its raw metric names
// [SECTION] Text output (and Markdown pastes; kernel headers are read in ncu_header.cpp)
// [SECTION] CSV (--page details and --page raw)
#include "occ/io/ncu.hpp"

#include "ncu_header.hpp"
#include "occ/io/utf8.hpp"
#include "occ/text.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace occ::io {
namespace {

using ncu_detail::dims;
using ncu_detail::kernel_header;
using ncu_detail::read_cc;
using ncu_detail::trim;

using occ::lower;

bool starts_with_ci(std::string_view s, std::string_view prefix) {
    if (s.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[i])) != std::tolower(static_cast<unsigned char>(prefix[i]))) return false;
    return true;
}

}  // namespace

// [SECTION] Values

std::optional<NcuValue> ncu_value(std::string_view printed_in, std::string_view unit_in) {
    const std::string printed = trim(printed_in);
    if (printed.empty() || printed.size() > 40) return std::nullopt;
    // Digits with thousands separators and at most one decimal point; an optional sign.
    std::string digits;
    int decimals = -1;
    for (std::size_t i = 0; i < printed.size(); ++i) {
        const char c = printed[i];
        if (std::isdigit(static_cast<unsigned char>(c))) {
            digits += c;
            if (decimals >= 0) ++decimals;
        } else if (c == ',' && decimals < 0 && i > 0) {
            // a thousands separator: exactly three digits follow before the next separator or point
            auto digit = [&](std::size_t j) { return j < printed.size() && std::isdigit(static_cast<unsigned char>(printed[j])); };
            if (!digit(i + 1) || !digit(i + 2) || !digit(i + 3) || digit(i + 4)) return std::nullopt;
        } else if (c == '.' && decimals < 0) {
            decimals = 0;
            digits += '.';
        } else if ((c == '-' || c == '+') && i == 0) {
            digits += c;
        } else {
            return std::nullopt;
        }
    }
    if (digits.empty() || digits == "." || digits == "-" || digits == "+") return std::nullopt;
    char* end = nullptr;  // std::stod's reading without its exceptions: where it throws, no number
    errno = 0;
    const double v = std::strtod(digits.c_str(), &end);
    if (end == digits.c_str() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;

    NcuValue out;
    out.printed = printed;
    out.unit = trim(unit_in);
    // Size units are 1000-based in ncu; "/block" and similar suffixes do not scale.
    std::string u = lower(out.unit);
    if (auto slash = u.find('/'); slash != std::string::npos) u = u.substr(0, slash);
    double scale = 1;
    bool size = false;
    if (u == "byte" || u == "bytes" || u == "b") size = true;
    else if (u == "kbyte" || u == "kb") scale = 1e3, size = true;
    else if (u == "mbyte" || u == "mb") scale = 1e6, size = true;
    else if (u == "gbyte" || u == "gb") scale = 1e9, size = true;
    else if (u == "kib") scale = 1024, size = true;
    else if (u == "mib") scale = 1024.0 * 1024, size = true;
    const double half = decimals > 0 ? 0.5 * std::pow(10.0, -decimals) * scale : (scale > 1 ? 0.5 * scale : 0.0);
    out.value = v * scale;
    out.lo = out.value - half;
    out.hi = out.value + half;
    if (size && half > 0) {
        // The best reading: a whole number of KiB if one fits the printed digits, else of the
        // 128-byte allocation unit, else the nearest byte.
        for (double unit : {1024.0, 128.0, 1.0}) {
            const double k = std::round(out.value / unit) * unit;
            if (k >= out.lo && k < out.hi) {
                out.value = k;
                break;
            }
        }
    }
    return out;
}

namespace {

// [SECTION] Labels
struct Label {
    const char* text;    // as the text output and --page details print it
    const char* metric;  // the raw metric (--page raw)
    const char* key;     // kNcuKeys
};
// Longer labels first where one is a prefix of another ("Block Limit SM" / "Block Limit Shared Mem").
const Label kLabels[] = {
    {"Block Limit Shared Mem", "launch__occupancy_limit_shared_mem", "block_limit_shared_mem"},
    {"Block Limit Registers", "launch__occupancy_limit_registers", "block_limit_registers"},
    {"Block Limit Barriers", "launch__occupancy_limit_barriers", "block_limit_barriers"},
    {"Block Limit Warps", "launch__occupancy_limit_warps", "block_limit_warps"},
    {"Block Limit SM", "launch__occupancy_limit_blocks", "block_limit_sm"},
    {"Block Size", "launch__block_size", "block_size"},
    {"Grid Size", "launch__grid_size", "grid_size"},
    {"Registers Per Thread", "launch__registers_per_thread", "registers_per_thread"},
    {"Static Shared Memory Per Block", "launch__shared_mem_per_block_static", "static_shared_memory_per_block"},
    {"Dynamic Shared Memory Per Block", "launch__shared_mem_per_block_dynamic", "dynamic_shared_memory_per_block"},
    {"Driver Shared Memory Per Block", "launch__shared_mem_per_block_driver", "driver_shared_memory_per_block"},
    {"Shared Memory Configuration Size", "launch__shared_mem_config_size", "shared_memory_configuration_size"},
    {"# SMs", "launch__sm_count", "sms"},
    {"Waves Per SM", "launch__waves_per_multiprocessor", "waves_per_sm"},
    {"Theoretical Active Warps per SM", "sm__maximum_warps_avg_per_active_cycle", "theoretical_active_warps_per_sm"},
    {"Theoretical Occupancy", "sm__maximum_warps_per_active_cycle_pct", "theoretical_occupancy"},
    {"Achieved Occupancy", "sm__warps_active.avg.pct_of_peak_sustained_active", "achieved_occupancy"},
    {"Achieved Active Warps Per SM", "sm__warps_active.avg.per_cycle_active", "achieved_active_warps_per_sm"},
};

const Label* label_at(std::string_view text) {
    for (const Label& l : kLabels) {
        const std::size_t n = std::strlen(l.text);
        if (starts_with_ci(text, l.text) && (text.size() == n || std::isspace(static_cast<unsigned char>(text[n])))) return &l;
    }
    return nullptr;
}

const Label* label_named(std::string_view name) {
    for (const Label& l : kLabels)
        if (lower(name) == lower(l.text) || name == l.metric) return &l;
    return nullptr;
}

// A summary's minimum and maximum (`ncu --print-summary`), when the line has them.
struct MinMax {
    std::string min, max;
};

void put(NcuKernel& k, const Label& l, std::string_view printed, std::string_view unit, int line, const MinMax* range = nullptr) {
    if (k.values.count(l.key)) return;  // the first time a report prints a quantity wins
    auto v = ncu_value(printed, unit);
    std::optional<NcuValue> lo, hi;
    if (v && range && (!(lo = ncu_value(range->min, unit)) || !(hi = ncu_value(range->max, unit)))) v.reset();
    if (!v) {
        k.diagnostics.push_back("line " + std::to_string(line) + ": " + l.text + " \"" + utf8_prefix(trim(printed), 30) +
                                "\" is not a number");
        return;
    }
    if (range) {
        // One value over every invocation: the reading (and interval) of that value, not of an average.
        if (lo->printed == hi->printed) *v = *lo;
        v->summary = true;
        v->printed_min = lo->printed;
        v->printed_max = hi->printed;
        v->min = lo->value;
        v->max = hi->value;
    }
    k.values[l.key] = *v;
}

// [SECTION] Text output

// "| a |  | c |" -> {"a", "", "c"}
std::vector<std::string> md_cells(const std::string& line) {
    std::vector<std::string> cells;
    std::string cur;
    for (char c : line) {
        if (c == '|') {
            cells.push_back(trim(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    cells.push_back(trim(cur));
    if (!cells.empty() && cells.front().empty()) cells.erase(cells.begin());
    if (!cells.empty() && cells.back().empty()) cells.pop_back();
    return cells;
}

// A row of a Markdown table or a plain text line, as (label text, unit, value); a summary's line
// (`ncu --print-summary per-kernel`: "Block Limit Warps  block  6.00  6.00  6.00") also has the
// minimum and maximum before the average.
struct Row {
    std::string label, unit, value;
    std::optional<MinMax> range;
};

std::vector<std::string> words(std::string_view s) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        const std::size_t b = i;
        while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        if (i > b) out.emplace_back(s.substr(b, i - b));
    }
    return out;
}

std::optional<Row> split_row(const std::string& raw) {
    std::string line = trim(raw);
    if (line.empty()) return std::nullopt;
    if (line.find('|') != std::string::npos) {
        std::vector<std::string> cells = md_cells(line);
        cells.erase(std::remove(cells.begin(), cells.end(), std::string()), cells.end());
        if (cells.size() < 2) return std::nullopt;
        Row r{cells.front(), "", cells.back(), std::nullopt};
        for (std::size_t i = 1; i + 1 < cells.size(); ++i) r.unit += (r.unit.empty() ? "" : " ") + cells[i];
        return r;
    }
    const Label* l = label_at(line);
    if (!l) return std::nullopt;
    std::string rest = trim(std::string_view(line).substr(std::strlen(l->text)));
    // Three numbers at the end: a summary's minimum, maximum and average (a unit is never a number).
    if (const std::vector<std::string> w = words(rest);
        w.size() >= 3 && ncu_value(w[w.size() - 1], "") && ncu_value(w[w.size() - 2], "") && ncu_value(w[w.size() - 3], "")) {
        Row r{l->text, "", w.back(), MinMax{w[w.size() - 3], w[w.size() - 2]}};
        for (std::size_t i = 0; i + 3 < w.size(); ++i) r.unit += (r.unit.empty() ? "" : " ") + w[i];
        return r;
    }
    const auto sp = rest.find_last_of(" \t");
    Row r{l->text, "", rest, std::nullopt};
    if (sp != std::string::npos) {
        r.unit = trim(std::string_view(rest).substr(0, sp));
        r.value = trim(std::string_view(rest).substr(sp + 1));
    }
    return r;
}

// A report pasted inside a code comment, a quote or a string: each line may start with what the
// paste added, "> " (Markdown and mail quotes, ">>>" prompts), "//" or "#" (comments; "# SMs" is
// ncu's own label and stays), "/*" and a block comment's " * " margin, a Python string's triple
// quotes, or a line number ("12:") as editors and grep print it; and may end with "*/" or triple
// quotes. Markers are replaced by spaces, any number of them; a code fence line becomes empty.
void strip_paste_markers(std::string& line) {
    auto starts = [](std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; };
    std::size_t b = 0;
    bool stripped = false;
    for (;;) {
        std::size_t i = b;
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        const std::string_view rest = std::string_view(line).substr(i);
        std::size_t n = 0;
        if (starts(rest, "```") || starts(rest, "~~~")) {
            line.clear();
            return;
        }
        if (starts(rest, "///") || starts(rest, "//!")) n = 3;
        else if (starts(rest, "//") || starts(rest, "/*")) n = 2;
        else if (starts(rest, "\"\"\"") || starts(rest, "'''")) n = 3;
        else if (starts(rest, ">")) n = 1;
        else if (starts(rest, "#") && !label_at(rest)) n = 1;
        else if (starts(rest, "*") && (rest.size() == 1 || rest[1] == ' ' || rest[1] == '\t')) n = 1;
        else if (!rest.empty() && std::isdigit(static_cast<unsigned char>(rest[0]))) {
            std::size_t d = 0;
            while (d < rest.size() && d < 7 && std::isdigit(static_cast<unsigned char>(rest[d]))) ++d;
            if (d < rest.size() && rest[d] == ':' && (d + 1 == rest.size() || rest[d + 1] == ' ' || rest[d + 1] == '\t')) n = d + 1;
        }
        if (n == 0) break;
        b = i + n;
        stripped = true;
    }
    if (stripped) line = "  " + line.substr(b);
    std::size_t e = line.size();
    while (e > 0 && (line[e - 1] == ' ' || line[e - 1] == '\t' || line[e - 1] == '\r')) --e;
    const std::string_view body = std::string_view(line).substr(0, e);
    for (std::string_view end : {"*/", "\"\"\"", "'''"})
        if (body.size() >= end.size() && body.substr(body.size() - end.size()) == end) {
            line.resize(body.size() - end.size());
            break;
        }
}

// ncu's version where a paste shows it: "Version 2023.2.0.0 (build ...)" (ncu --version), an
// install path ".../nsight-compute/2021.2.5/...", ".../NVIDIA Nsight Compute/2026.2.0/Sections".
std::string version_in(std::string_view line_in) {
    const std::string line = lower(line_in);
    std::size_t from = std::string::npos;
    for (std::string_view m : {"nsight compute", "nsight-compute", "nsightcompute", "ncu"})
        if (auto p = line.find(m); p != std::string::npos) {
            from = p + m.size();
            break;
        }
    if (from == std::string::npos && trim(line).rfind("version 20", 0) == 0) from = line.find("version") + 7;
    if (from == std::string::npos) return {};
    for (std::size_t p = line.find("20", from); p != std::string::npos && p < from + 40; p = line.find("20", p + 1)) {
        std::size_t q = p;
        while (q < line.size() && std::isdigit(static_cast<unsigned char>(line[q]))) ++q;
        if (q - p != 4 || q + 1 >= line.size() || line[q] != '.' || !std::isdigit(static_cast<unsigned char>(line[q + 1]))) continue;
        if (p > 0 && std::isdigit(static_cast<unsigned char>(line[p - 1]))) continue;
        std::size_t e = q;
        while (e + 1 < line.size() && line[e] == '.' && std::isdigit(static_cast<unsigned char>(line[e + 1]))) {
            ++e;
            while (e < line.size() && std::isdigit(static_cast<unsigned char>(line[e]))) ++e;
        }
        return std::string(line_in.substr(p, e - p));
    }
    return {};
}

// A remark after a value ("  # what the driver configured").
void strip_remark(std::string& line) {
    const std::size_t first = line.find_first_not_of(" \t");
    for (std::size_t i = first == std::string::npos ? line.size() : first + 1; i + 1 < line.size(); ++i)
        if (line[i] == '#' && (line[i - 1] == ' ' || line[i - 1] == '\t') && i >= 2 && (line[i - 2] == ' ' || line[i - 2] == '\t')) {
            line.resize(i);
            break;
        }
}

void parse_text(std::string_view text, NcuReport& rep) {
    rep.format = "text";
    NcuKernel* cur = nullptr;
    std::vector<std::string> columns;  // kernels side by side in a Markdown table
    int line_no = 0;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string line(text.substr(pos, end - pos));
        pos = end + 1;
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        strip_remark(line);
        const std::string t = trim(line);
        if (t.empty() || t.rfind("==PROF==", 0) == 0 || t.rfind("----", 0) == 0 || t.rfind("Section:", 0) == 0) continue;
        // Rule lines (OPT, INF, WRN and their continuation) say things about the numbers, never numbers we read.
        if (t.rfind("OPT ", 0) == 0 || t.rfind("INF ", 0) == 0 || t.rfind("WRN ", 0) == 0 || t.rfind("Est. ", 0) == 0) continue;
        NcuKernel k;
        if (t.find('|') == std::string::npos && kernel_header(line, k)) {
            k.line = line_no;
            rep.kernels.push_back(std::move(k));
            cur = &rep.kernels.back();
            continue;
        }
        if (t.find('|') != std::string::npos) {
            // A Markdown table; "| Metric Name | Metric Unit | kernel A | kernel B |" holds one kernel per column.
            const std::vector<std::string> cells = md_cells(t);
            if (cells.size() >= 3 && lower(cells[0]) == "metric name") {
                columns.assign(cells.begin() + 2, cells.end());
                if (columns.size() == 1 && lower(columns[0]) == "metric value") columns.clear();
                continue;
            }
            if (!columns.empty()) {
                const Label* l = cells.empty() ? nullptr : label_named(cells[0]);
                if (!l) continue;
                for (std::size_t c = 0; c < columns.size() && c + 2 < cells.size(); ++c) {
                    auto it = std::find_if(rep.kernels.begin(), rep.kernels.end(),
                                           [&](const NcuKernel& k) { return k.name == columns[c]; });
                    if (it == rep.kernels.end()) {
                        NcuKernel k;
                        k.name = columns[c];
                        k.line = line_no;
                        rep.kernels.push_back(std::move(k));
                        it = rep.kernels.end() - 1;
                    }
                    put(*it, *l, cells[c + 2], cells[1], line_no);
                }
                cur = nullptr;
                continue;
            }
        } else {
            columns.clear();
        }
        const auto row = split_row(line);
        if (!row) continue;
        const Label* l = label_named(row->label);
        if (!l) {
            if (cur && lower(row->label) == "function cache configuration") cur->cache_config = row->value;
            continue;
        }
        if (!cur) {
            NcuKernel anon;
            anon.name = "(kernel " + std::to_string(rep.kernels.size() + 1) + ")";
            anon.line = line_no;
            anon.diagnostics.push_back("no kernel header line (\"name (grid)x(block), ..., CC x.y\") before line " +
                                       std::to_string(line_no) + ": name, compute capability and launch shape unknown");
            rep.kernels.push_back(std::move(anon));
            cur = &rep.kernels.back();
        }
        put(*cur, *l, row->value, row->unit, line_no, row->range ? &*row->range : nullptr);
    }
}

// [SECTION] CSV

std::vector<std::string> csv_cells(const std::string& line) {
    std::vector<std::string> out;
    std::string cur;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                cur += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                cur += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

std::vector<std::string> lines_of(std::string_view text) {
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string line(text.substr(pos, end - pos));
        if (!line.empty() && line.back() == '\r') line.pop_back();
        out.push_back(std::move(line));
        pos = end + 1;
    }
    return out;
}

int column(const std::vector<std::string>& header, std::string_view name) {
    for (std::size_t i = 0; i < header.size(); ++i)
        if (lower(trim(header[i])) == lower(name)) return static_cast<int>(i);
    return -1;
}

void launch_columns(NcuKernel& k, const std::vector<std::string>& header, const std::vector<std::string>& cells) {
    auto cell = [&](std::string_view name) -> std::string {
        const int c = column(header, name);
        return c >= 0 && static_cast<std::size_t>(c) < cells.size() ? trim(cells[static_cast<std::size_t>(c)]) : std::string();
    };
    k.name = cell("Kernel Name");
    k.device = cell("Device");
    if (k.device.empty()) k.device = cell("device__attribute_display_name");
    read_cc(cell("CC"), k.cc_major, k.cc_minor);
    k.block = dims(cell("Block Size"));
    k.grid = dims(cell("Grid Size"));
}

void parse_csv(const std::vector<std::string>& lines, std::size_t first, NcuReport& rep) {
    const std::vector<std::string> header = csv_cells(lines[first]);
    const int metric = column(header, "Metric Name"), unit = column(header, "Metric Unit");
    const int id = column(header, "ID");
    // `ncu --csv --print-summary per-kernel`: "Minimum","Maximum","Average" in place of "Metric Value",
    // and no ID: a kernel is its name, launch shape and process.
    const int lo = column(header, "Minimum"), hi = column(header, "Maximum");
    const bool summary = column(header, "Metric Value") < 0 && lo >= 0 && hi >= 0 && column(header, "Average") >= 0;
    const int value = summary ? column(header, "Average") : column(header, "Metric Value");
    if (metric >= 0 && value >= 0) {
        rep.format = summary ? "csv-summary" : "csv-details";
        std::map<std::string, std::size_t> by_id;
        for (std::size_t i = first + 1; i < lines.size(); ++i) {
            if (trim(lines[i]).empty()) continue;
            const auto cells = csv_cells(lines[i]);
            if (cells.size() <= static_cast<std::size_t>(std::max({metric, value, unit, id, lo, hi}))) {
                rep.diagnostics.push_back("line " + std::to_string(i + 1) + ": " + std::to_string(cells.size()) + " of " +
                                          std::to_string(header.size()) + " columns (cut short?)");
                continue;
            }
            auto at = [&](int c) { return c >= 0 ? cells[static_cast<std::size_t>(c)] : std::string(); };
            const std::string key = id >= 0   ? cells[static_cast<std::size_t>(id)]
                                    : summary ? at(column(header, "Process ID")) + "\n" + at(column(header, "Kernel Name")) + "\n" +
                                                    at(column(header, "Block Size")) + "\n" + at(column(header, "Grid Size")) + "\n" +
                                                    at(column(header, "Device"))
                                              : std::to_string(by_id.size());
            auto it = by_id.find(key);
            if (it == by_id.end()) {
                NcuKernel k;
                launch_columns(k, header, cells);
                if (summary)
                    k.invocations = static_cast<int>(std::clamp(std::atol(at(column(header, "Invocations")).c_str()), 0L, 1L << 30));
                k.line = static_cast<int>(i + 1);
                rep.kernels.push_back(std::move(k));
                it = by_id.emplace(key, rep.kernels.size() - 1).first;
            }
            NcuKernel& k = rep.kernels[it->second];
            const std::string& name = cells[static_cast<std::size_t>(metric)];
            if (const Label* l = label_named(name)) {
                const MinMax range{at(lo), at(hi)};
                put(k, *l, cells[static_cast<std::size_t>(value)], unit >= 0 ? cells[static_cast<std::size_t>(unit)] : "",
                    static_cast<int>(i + 1), summary ? &range : nullptr);
            } else if (lower(name) == "function cache configuration") {
                k.cache_config = cells[static_cast<std::size_t>(value)];
            }
        }
        return;
    }
    // --page raw: one kernel per row; an optional second row holds each column's unit.
    rep.format = "csv-raw";
    std::vector<std::string> units(header.size());
    std::size_t row = first + 1;
    if (row < lines.size()) {
        const auto cells = csv_cells(lines[row]);
        const bool unit_row = id >= 0 && static_cast<std::size_t>(id) < cells.size() && trim(cells[static_cast<std::size_t>(id)]).empty();
        if (unit_row) {
            for (std::size_t c = 0; c < cells.size() && c < units.size(); ++c) units[c] = cells[c];
            ++row;
        }
    }
    for (; row < lines.size(); ++row) {
        if (trim(lines[row]).empty()) continue;
        const auto cells = csv_cells(lines[row]);
        NcuKernel k;
        k.line = static_cast<int>(row + 1);
        if (cells.size() < header.size())
            k.diagnostics.push_back("line " + std::to_string(row + 1) + ": " + std::to_string(cells.size()) + " of " +
                                    std::to_string(header.size()) + " columns (cut short?)");
        launch_columns(k, header, cells);
        for (std::size_t c = 0; c < header.size() && c < cells.size(); ++c)
            if (const Label* l = label_named(trim(header[c]))) put(k, *l, cells[c], units[c], static_cast<int>(row + 1));
        const int sm_col = column(header, "device__attribute_multiprocessor_count");
        if (sm_col >= 0 && static_cast<std::size_t>(sm_col) < cells.size() && !k.values.count("sms"))
            if (auto v = ncu_value(cells[static_cast<std::size_t>(sm_col)], "")) k.values["sms"] = *v;
        rep.kernels.push_back(std::move(k));
    }
}

}  // namespace

NcuReport parse_ncu(std::string_view raw) {
    NcuReport rep;
    if (raw.size() > (std::size_t{64} << 20)) {
        rep.diagnostics.push_back("the report is larger than 64 MiB; not read");
        return rep;
    }
    // Names and printed values end up in JSON: read a pasted report as UTF-8, bad bytes replaced.
    std::vector<std::string> lines = lines_of(make_valid_utf8(raw));
    std::string cleaned;
    cleaned.reserve(raw.size());
    for (std::string& l : lines) {
        strip_paste_markers(l);
        if (rep.ncu_version.empty()) rep.ncu_version = version_in(l);
        cleaned += l;
        cleaned += '\n';
    }
    const std::string_view text = cleaned;
    // A CSV report starts (after ncu's own ==PROF== lines) with a quoted header row.
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string t = trim(lines[i]);
        if (t.empty() || t.rfind("==", 0) == 0) continue;
        if (t.rfind("\"ID\"", 0) == 0 ||
            (t.front() == '"' && t.find("\",\"") != std::string::npos && t.find("Kernel Name") != std::string::npos)) {
            parse_csv(lines, i, rep);
            break;
        }
        parse_text(text, rep);
        break;
    }
    if (rep.kernels.empty()) {
        rep.diagnostics.push_back(
            "no kernel found: expected ncu's text output (Launch Statistics and Occupancy sections), or ncu --csv --page details / raw");
        rep.format.clear();
    }
    for (NcuKernel& k : rep.kernels) {
        if (k.values.empty()) k.diagnostics.push_back("no Launch Statistics or Occupancy values were read for this kernel");
        if (k.cc_major == 0)
            k.diagnostics.push_back("compute capability not in the report (CC x.y in the kernel header): give --gpu or --cc");
    }
    return rep;
}

}  // namespace occ::io
