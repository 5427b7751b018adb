// occ/io/ptx_memory.hpp — kind "memory": a kernel's PTX read (occ/io/ptx.hpp), chosen warps run
// lane by lane (occ/warp_interp.hpp), every global and shared access costed by the coalescing and
// bank models, per instruction and per source line. One typed answer, one JSON writer and one table
// builder, for the CLI (`occ memory`), --batch, Python (`occ.memory()`) and the page.
//
// [SECTION] Request: the PTX, the entry, the launch, the arguments, the warps to run
// [SECTION] Answer: the report, each site's reason and fix, the order worst first
// [SECTION] Table: the rows a face prints (worst first), worded and formatted here
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "occ/device.hpp"
#include "occ/ptx_program.hpp"
#include "occ/result.hpp"
#include "occ/warp_interp.hpp"

namespace occ::io {

using json = nlohmann::ordered_json;

// [SECTION] Request
struct PtxMemoryRequest {
    Device device;
    std::string kernel;                   // as asked ("" = the only entry)
    std::vector<std::string> params;      // as given, "NAME=VALUE" (the echo)
    std::vector<std::string> warps_text;  // as given ("first", "last", "3", "1.0.0:2")
    InterpOptions options;                // block, grid, params resolved to .param names, warps, bounds
    std::string launch_from;              // "Triton metadata (k.json): block 128 threads" when it gave the block
};

// [SECTION] Answer
struct PtxMemoryAnswer {
    PtxMemoryRequest input;
    std::string target;                // the PTX's .target ("sm_80")
    std::string entry;                 // the entry that ran
    std::vector<std::string> entries;  // every .entry of the PTX
    std::vector<std::string> diagnostics;
    std::vector<ptx::FileEntry> files;  // the PTX's .file table (for the callers of inlined lines)
    InterpReport report;
    std::vector<SiteExplanation> explanations;  // one per report.sites
    std::vector<int> order;                     // indices into report.sites, worst first
    std::optional<json> id;
};

// The PTX text travels in the request's "ptx" field; the answer is an error value for bad fields,
// a PTX the reader refuses (its message names the line), no such entry (the entries are listed),
// a launch or warp the interpreter refuses.
Result<PtxMemoryAnswer> answer_ptx_memory(const json& request);
json to_json(const PtxMemoryAnswer& a);
json api_ptx_memory(const json& request);

// Per-request figures of a site over its costed executions (mean), null when not applicable to its
// space or never costed; `why` says why not ("" when there is a number).
struct PerRequest {
    std::optional<double> value;
    std::string why;
};
PerRequest sectors_per_request(const AccessSite& s);
PerRequest ideal_sectors_per_request(const AccessSite& s);
PerRequest wavefronts_per_request(const AccessSite& s);
PerRequest ideal_wavefronts_per_request(const AccessSite& s);
PerRequest bank_conflicts_per_request(const AccessSite& s);
// What makes the site's figures incomplete: never run (and why, when a warp of `r` stopped early),
// not costed (with the reason), listed only; "" when every execution was costed.
std::string site_unknown(const AccessSite& s, const InterpReport& r);

// [SECTION] Table
struct MemoryTableRow {
    std::string where;        // "kernels.cu:8" (PTX line when there is no .loc: "ptx:44")
    std::string instruction;  // "ld.global.nc.f32" (+ " (global side)" for cp.async)
    std::string executions;   // "2"
    std::string sectors;      // "8 / 4" (per request / ideal), "-" for shared, "?" unknown
    std::string wavefronts;   // "32 / 1", "-" for global
    std::string fix;          // the model's fix, else its reason, else why it is unknown
};
// The rows in answer order (worst first), the header first.
std::vector<MemoryTableRow> memory_table(const PtxMemoryAnswer& a);
// The lines under the table: what ran, the assumptions, the unmodelled instructions.
std::vector<std::string> memory_summary(const PtxMemoryAnswer& a);

}  // namespace occ::io
