// occ/io/rocprof.hpp — rocprof-compute (formerly Omniperf) `analyze` output as AMD kernel rows
// (docs/AMD.md, "Readers"). The CLI prints box-drawing tables, one per block:
//   7.1 Wavefront Launch Stats
//   ╒═════════╤════════════════╤══════════╤══════════╤══════════╤═══════════╕
//   │ Index   │ Metric         │      Avg │      Min │      Max │ Unit      │
//   ╞═════════╪════════════════╪══════════╪══════════╪══════════╪═══════════╡
//   │ 7.1.8   │ LDS Allocation │ 65536.00 │ 65536.00 │ 65536.00 │ Bytes     │
// (the first column is "Metric_ID" in rocprof-compute 2.x+). One analysis (one `rocprof-compute
// analyze` run, usually `--dispatch N`) is one kernel row: its name from "Dispatch List" or "Top
// Kernels", its resources from "Wavefront Launch Stats" (VGPRs, AGPRs, SGPRs, LDS Allocation, Scratch
// Allocation, Workgroup Size, Grid Size) so that occ computes the theoretical occupancy with its AMD
// model, and what the run measured (Wavefront Occupancy, the Workgroup Manager's "Insufficient ..."
// rates, ...) in AmdResources::profile, never mixed with occ's figures. The tables do not name the
// GPU: the row has no arch, and the request gives gpu or arch.
#pragma once
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "occ/io/ptxas.hpp"

namespace occ::io {

// Whether a text is rocprof-compute / Omniperf `analyze` output (one of its occupancy tables).
bool looks_like_rocprof_compute(std::string_view text);
// One kernel per analysis in the text (several pasted one after another are several rows), format
// "rocprof-compute analysis", `amd` and `amd->profile` set.
PtxasLog parse_rocprof_compute(std::string_view text);

// rocprof-compute's raw counters, workloads/<name>/<GPU>/pmc_perf.csv (also rocprof's counter CSV):
// a header naming Kernel_Name, Arch_VGPR (or vgpr) and SGPR. One row per dispatch, format
// "rocprof-compute pmc_perf.csv", arch `gpu_arch` (from sysinfo.csv beside it; "" when unknown).
inline constexpr std::string_view kRocprofCsvFormat = "rocprof-compute pmc_perf.csv";
bool looks_like_rocprof_csv(std::string_view text);
PtxasLog parse_rocprof_csv(std::string_view text, std::string_view gpu_arch = "");
// sysinfo.csv's gpu_arch ("gfx942"; gpu_soc in older workloads), "" when it has none.
std::string rocprof_sysinfo_arch(std::string_view sysinfo_csv);

// A measured metric occ reads: its row title in the tables, the column, the JSON key under
// profile.measured, and the block that prints it (the reason when absent).
struct RocprofMetric {
    std::string_view title;    // "Insufficient CU LDS"
    std::string_view column;   // "Avg", "Peak", "Pct of Peak"
    std::string_view key;      // "insufficient_cu_lds_pct"
    std::string_view block;    // "6.2"
    std::string_view counter;  // the pmc_perf.csv column that is the same figure ("SPI_CSN_WAVE"); "" when derived
    std::string_view what;     // one line for docs and the table
};
std::span<const RocprofMetric> rocprof_measured_metrics();

// The heading of what a profiler measured, shown apart from occ's theoretical figures (the CLI's
// "measured by ..." section, the kernels view's block under its table).
inline std::string rocprof_measured_heading(std::string_view from) {
    return "measured by " + std::string(from) + " (the table above is occ's theoretical answer)";
}

// The row's "profile" object: from, the dispatch's launch, every measured metric (null with its
// reason under "unread" when the output lacks it).
nlohmann::ordered_json rocprof_profile_json(const AmdProfile& p);

}  // namespace occ::io
