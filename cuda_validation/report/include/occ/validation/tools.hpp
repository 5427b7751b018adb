// occ/validation/tools.hpp — reading what NVIDIA's tools print: Nsight Compute CSV (`ncu --csv`)
// and cuobjdump SASS listings. Pure text parsing, so it is unit-tested on recorded samples.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace occ::validation {

// The counters read per memory case (MODEL.md "Hardware measurement").
std::vector<std::string> ncu_memory_metrics();

struct NcuRow {
    int id = -1;                        // ncu's result ID (launch order among profiled kernels)
    std::string kernel;                 // "Kernel Name"
    std::string grid;                   // "Grid Size", e.g. "(3, 1, 1)"
    std::string metric;                 // "Metric Name"
    std::optional<std::int64_t> value;  // integer value (thousands separators removed); nullopt for "n/a"
};
// Rows of `ncu --csv` output (the "details" page: one row per kernel × metric). Lines that are not
// CSV records (==PROF== messages, program output) are skipped. On a malformed header, returns
// nothing and sets *error.
std::vector<NcuRow> parse_ncu_csv(std::string_view text, std::string* error = nullptr);

// x of a "(x, y, z)" dimension string; -1 when malformed.
int parse_dim_x(std::string_view dim);

struct NcuLaunch {
    int id = -1;
    std::string kernel;
    int grid_x = -1;
    std::map<std::string, std::int64_t> metrics;
};
// Rows grouped per profiled launch, in ID order.
std::vector<NcuLaunch> group_ncu(const std::vector<NcuRow>& rows);

// Does this ncu output say the counters could not be read (permissions, unsupported GPU, ...)?
// Returns the reason, or empty.
std::string ncu_failure_reason(std::string_view output);

// --- CUPTI range profiler (in-process counters, cuda_validation/src/counters.hpp) -------------------
// The same memory counters as ncu_memory_metrics(). `sass_instructions` = false swaps the two
// smsp__sass_inst_executed_op_shared_{ld,st}.sum (SASS-patching metrics) for the hardware counters
// smsp__inst_executed_op_shared_{ld,st}.sum, the fallback when the first set cannot be configured.
std::vector<std::string> cupti_memory_metrics(bool sass_instructions = true);
// Per occupancy case (one pass on every chip CUPTI 13 knows): CTAs launched (exact), achieved
// occupancy and CTAs per active cycle (averages, recorded, never compared), and the per-SM peak rates
// of sm__ctas_active / sm__warps_active (the SM's CTA and warp slots, compared as device constants).
std::vector<std::string> cupti_occupancy_metrics();
// The chip CUPTI names for each SASS architecture the bundle carries (80 -> "GA100", 90 -> "GH100").
std::vector<std::pair<int, std::string>> cupti_bundle_chips();

// Range name of memory case i in a CUPTI session, and back (-1 when the name is not one of ours).
std::string counter_range_name(std::size_t case_index);
long counter_range_index(std::string_view name);

// One decoded CUPTI range: its name and the evaluated metric values.
struct CounterRange {
    std::string name;
    std::map<std::string, double> values;
};
// CUPTI ranges as NcuLaunch records (grid_x = case index + 1, as the ncu path maps them), so
// match_launches() and memory_result() serve both. Values are rounded to integers; the hardware
// fallback metric smsp__inst_executed_op_shared_* is stored under the smsp__sass_* name the report
// reads. Ranges with foreign names are skipped.
std::vector<NcuLaunch> launches_from_ranges(const std::vector<CounterRange>& ranges);

// One line for a CUPTI failure. `result` is the CUptiResult name ("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"),
// `call` the API that returned it. Privilege errors name the driver setting that causes them.
std::string cupti_failure_reason(std::string_view call, std::string_view result);
bool is_privilege_error(std::string_view result);

// --- cuobjdump -sass -------------------------------------------------------------------------------
struct SassFunction {
    std::string arch;                  // "sm_90"
    std::string name;                  // "occv_gld_16"
    std::vector<std::string> opcodes;  // "LDG.E.128", "STS.U8", ... (predicates stripped)
};
std::vector<SassFunction> parse_cuobjdump_sass(std::string_view text);

// Bytes per lane of a load/store opcode (LDG, STG, LDS, STS, LD, ST): .U8/.S8 = 1, .U16/.S16 = 2,
// none = 4, .64 = 8, .128 = 16. 0 when the opcode is not one of those.
int sass_access_width(std::string_view opcode);
// Widths used by opcodes starting with `op` ("LDG", "STG", "LDS", "STS") in one function.
std::set<int> sass_widths(const SassFunction& f, std::string_view op);
// The function for (arch, name), or nullptr. arch "" = the first one found.
const SassFunction* find_sass(const std::vector<SassFunction>& fns, std::string_view arch, std::string_view name);

}  // namespace occ::validation
