// occ/validation/tools.hpp — reading what NVIDIA's tools print: Nsight Compute CSV (`ncu --csv`)
// and cuobjdump SASS listings. Pure text parsing, so it is unit-tested on recorded samples.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace occ::validation {

// The counters read per memory case (MODEL.md "Hardware measurement").
std::vector<std::string> ncu_memory_metrics();

struct NcuRow {
    int id = -1;                         // ncu's result ID (launch order among profiled kernels)
    std::string kernel;                  // "Kernel Name"
    std::string grid;                    // "Grid Size", e.g. "(3, 1, 1)"
    std::string metric;                  // "Metric Name"
    std::optional<std::int64_t> value;   // integer value (thousands separators removed); nullopt for "n/a"
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

// --- cuobjdump -sass -------------------------------------------------------------------------------
struct SassFunction {
    std::string arch;                    // "sm_90"
    std::string name;                    // "occv_gld_16"
    std::vector<std::string> opcodes;    // "LDG.E.128", "STS.U8", ... (predicates stripped)
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
