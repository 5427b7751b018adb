// occ/io/ncu.hpp — Nsight Compute reports as users paste them, and occ's prediction next to them.
//
// Reads the default text output (the kernel header "name (grid)x(block), Context 1, Stream 7,
// Device 0, CC 8.6" and the Launch Statistics / Occupancy sections), `ncu --csv --page details`
// (one metric per row), `ncu --csv --page raw` (one kernel per row, launch__* metrics), and the
// same lines pasted into Markdown tables or mixed with OPT/INF/WRN rule lines. ncu prints sizes in
// 1000-based units with two decimals ("32.77 Kbyte") and counts with thousands separators: every
// value keeps its printed text, the interval it can mean and one deterministic best reading.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "occ/io/api.hpp"

namespace occ::io {

// One number as the report printed it.
struct NcuValue {
    std::string printed;    // "32.77" as printed (thousands separators kept)
    std::string unit;       // "Kbyte", "%", "block", "register/thread", ...
    double value = 0;       // the best reading in the base unit (bytes for sizes)
    double lo = 0, hi = 0;  // every value the printed text can stand for (rounding), base unit
    // `ncu --print-summary per-kernel | per-gpu` prints three columns, minimum, maximum and average
    // over the invocations; `value` is then the average's reading.
    bool summary = false;
    std::string printed_min, printed_max;  // as printed ("16.38"); empty outside a summary
    double min = 0, max = 0;               // best readings, base unit
    // Not one value over the invocations (minimum and maximum printed differently).
    bool varies() const { return summary && printed_min != printed_max; }
};

// The report keys (also the keys of the JSON "measured" and "predicted" objects).
inline constexpr const char* kNcuKeys[] = {"block_size",
                                           "grid_size",
                                           "registers_per_thread",
                                           "static_shared_memory_per_block",
                                           "dynamic_shared_memory_per_block",
                                           "driver_shared_memory_per_block",
                                           "shared_memory_configuration_size",
                                           "sms",
                                           "waves_per_sm",
                                           "block_limit_sm",
                                           "block_limit_registers",
                                           "block_limit_shared_mem",
                                           "block_limit_warps",
                                           "block_limit_barriers",
                                           "theoretical_active_warps_per_sm",
                                           "theoretical_occupancy",
                                           "achieved_occupancy",
                                           "achieved_active_warps_per_sm"};

struct NcuKernel {
    std::string name;
    std::string device;                                      // as printed ("NVIDIA A100-SXM4-80GB", "Device 0"); may be empty
    int cc_major = 0, cc_minor = 0;                          // 0.0 when the report did not say
    std::optional<std::array<std::int64_t, 3>> grid, block;  // from the kernel header "(g)x(b)"
    std::map<std::string, NcuValue> values;                  // keys from kNcuKeys
    std::string cache_config;                                // "Function Cache Configuration" (CachePreferNone, ...)
    int line = 0;                                            // 1-based line where the kernel starts
    bool dated_header = false;             // the older header without the launch: "name, 2021-Mar-04 10:11:12, Context 1, Stream 7"
    int invocations = 0;                   // a summary's "..., CC 8.9, Invocations 12"; 0 when not a summary header
    std::vector<std::string> diagnostics;  // what could not be read, for this kernel
    const NcuValue* get(std::string_view key) const {
        auto it = values.find(std::string(key));
        return it == values.end() ? nullptr : &it->second;
    }
};

struct NcuReport {
    std::string format;       // "text", "csv-details", "csv-summary" (--csv --print-summary), "csv-raw" or "" (nothing read)
    std::string ncu_version;  // "2021.2.5" from a version line or an install path in the paste; "" when none
    std::vector<NcuKernel> kernels;
    std::vector<std::string> diagnostics;  // report-wide: unknown format, lines not understood
};

NcuReport parse_ncu(std::string_view text);
// ncu's own block count: the smallest of the block limits it printed (Block Limit Barriers when
// printed); -1 when one of the others is missing.
int ncu_block_count(const NcuKernel& k);

// [SECTION] The prediction next to a report

// The shared memory the driver configures for a launch ("Shared Memory Configuration Size") and the
// "Block Limit Shared Mem" ncu computes against it. cuda_occupancy.h and occ's main answer use the
// largest carveout instead (the driver may pick less: the block count is the same).
struct DriverSmem {
    std::int64_t config = -1;  // bytes; -1 when unknown
    int block_limit = -1;
    bool may_be_larger = false;  // ncu has been seen to show more (see occ::driver_smem_config)
    std::string rule;            // how config was chosen
};
DriverSmem predict_driver_smem(const Device& dev, const KernelResources& k, const OccupancyResult& r);

// What ncu's "Achieved Occupancy" can be at most for the grid: blocks spread over the SMs that run.
struct AchievedBound {
    double occupancy = -1;  // 0..1; -1 when unknown (no grid)
    std::string why;
};
AchievedBound achieved_bound(const Device& dev, const OccupancyResult& r, std::int64_t grid_blocks);

// What a line where ncu and occ differ comes to (ncu_explain.cpp):
//   explained      a known behaviour of ncu or of the driver accounts for ncu's number (the why says which)
//   mismatch       no known behaviour accounts for it (occ's rule and ncu's disagree)
//   contradiction  the report's own lines prove the device, or the launch read, is not the one that ran
enum class NcuStatus { explained, mismatch, contradiction };
const char* ncu_status_name(NcuStatus s);  // "explained", "mismatch", "contradiction"

struct NcuDifference {
    std::string field;
    std::optional<double> measured, predicted;
    std::string why;
    NcuStatus status = NcuStatus::mismatch;
};

// A line ncu printed that occ does not hold against its own value, and why (the SM count is unknown,
// the value varied over a summary's invocations, a summary's average above what one launch can reach).
struct NcuNotCompared {
    std::string field;
    std::string why;
};

struct NcuKernelAnswer {
    NcuKernel measured;
    std::optional<Device> device;  // identified (or given); none: no prediction
    std::string device_how;        // how the device was identified
    bool sm_count_known = false;   // the SM count is the report's (or the request's): waves are predicted
    std::string sm_count_unknown;  // when it is not: why, the SM counts the printed waves allow, the catalogue GPUs that fit
    std::optional<OccupancyRequest> launch;
    OccupancyResult result;  // occ's answer for the launch (header-compatible)
    DriverSmem driver;
    AchievedBound achieved;
    std::vector<std::pair<std::string, std::optional<double>>> predicted;  // kNcuKeys order, ncu's units
    std::vector<NcuDifference> differences;    // every line where ncu and occ differ, each with its status and why
    std::vector<NcuNotCompared> not_compared;  // printed lines occ does not compare, each with the reason (ncu_explain.cpp)
    std::vector<std::string> ncu_behaviour;    // the ncu version behaviours the report shows (ncu_explain.cpp)
    std::vector<std::string> diagnostics;
};
// `ncu_version`: the report's version line ("" when none), named in the explanations.
NcuKernelAnswer compare_ncu_kernel(const NcuKernel& k, const std::optional<Device>& given, const std::string& ncu_version = "");

// Fills a.differences (status and why for every line that differs) and a.ncu_behaviour.
void explain_ncu_kernel(NcuKernelAnswer& a, const std::string& ncu_version);

struct NcuAnswer {
    NcuReport report;
    std::vector<NcuKernelAnswer> kernels;
    std::optional<json> id;
};
// Request: {"text": "<report>", gpu|cc|device (optional: overrides the report's device)}.
Result<NcuAnswer> answer_ncu(const json& request);
json to_json(const NcuAnswer& a);
json api_ncu(const json& request);

// "32.77" "Kbyte" -> bytes 32768 in [32765, 32775); "2,048" "" -> 2048. nullopt when not a number.
std::optional<NcuValue> ncu_value(std::string_view printed, std::string_view unit);

// One line of a kernel's comparison, worded as every face shows it (occ ncu, the app's table).
struct NcuRow {
    std::string key;                               // a kNcuKeys name
    std::string printed;                           // what ncu printed, with its unit; "-" when it printed nothing
    std::string predicted;                         // occ's value in the key's unit ("4 KiB", "50 %"), "<= x" for an achieved
                                                   // bound; "-" when occ has none
    bool measured = false;                         // ncu printed the key
    bool predicts = false;                         // occ has a value for it
    bool bound = false;                            // an achieved_* key: occ gives the most it can be, not a value
    const NcuDifference* difference = nullptr;     // why they differ (into the answer), when they do
    const NcuNotCompared* not_compared = nullptr;  // why occ does not compare the line, when it does not
    // "=" when both are known and agree (a bound: "ok"); where they differ "~" explained, "<" a
    // mismatch, "!" the report contradicts the device or itself; "n/c" a printed line occ does not
    // compare (the reason in not_compared); "" otherwise.
    const char* mark() const;
};
std::vector<NcuRow> ncu_rows(const NcuKernelAnswer& k);

}  // namespace occ::io
