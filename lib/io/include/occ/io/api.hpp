// occ/io/api.hpp — the JSON contract shared by the CLI (--json, --batch) and the web JS API.
// A request is a JSON object; the response is the JSON object the CLI prints.
//
// Two layers, one error convention (occ::Result: a value or "field: what is allowed, what was
// given"); nothing here throws to its caller:
//   answer_<kind>(request) -> Result<KindAnswer>   typed: what the CLI printers and the app take
//   to_json(answer)                                 the JSON edge (--json, --batch, window.occ)
//   handle(kind, request)                           both, for the JSON faces
// Fields, ranges and defaults come from occ/io/schema.hpp.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "occ/advisor.hpp"
#include "occ/banks.hpp"
#include "occ/cluster.hpp"
#include "occ/coalescing.hpp"
#include "occ/device.hpp"
#include "occ/expr.hpp"
#include "occ/io/binding.hpp"
#include "occ/io/fields.hpp"
#include "occ/occupancy.hpp"
#include "occ/result.hpp"
#include "occ/roofline.hpp"
#include "occ/smem_shapes.hpp"
#include "occ/sweep.hpp"
#include "occ/waves.hpp"

namespace occ::io {

using json = nlohmann::ordered_json;

// Whose rules answer a request. Resolved in one place (request_vendor) by handle() and by the
// typed entry points that serve both vendors (occupancy_view); the kind's registry row then names
// the vendor's answer (KindSpec::answer, KindSpec::answer_amd).
enum class Vendor : std::uint8_t { nvidia, amd };
// AMD when the request gives `arch` (an LLVM target) or its `gpu` names an AMD GPU of the catalogue.
Vendor request_vendor(const json& request);
// An AMD request's target with every other field at its default, as the echo writes it (the page's
// base for a link to an AMD GPU); null for an NVIDIA device, whose defaults are the scenario's.
json target_defaults(const json& request);

// Dispatch by kind ("occupancy", "gpus", ...). Unknown kinds give an error object.
json handle(std::string_view kind, const json& request);
// Same, from JSON text (one --batch line, or a JS string). Parse errors give an error object.
json handle_text(std::string_view kind, std::string_view text);
// The kinds handle() knows, for help texts.
std::string known_kinds();

// --- Devices -------------------------------------------------------------------------------------
// Reads "gpu" (a name), "cc" ("8.0") or "device" (a custom device object with cudaDeviceProp field
// names) from a request. Default when none is given: `fallback_gpu`.
Device read_device(FieldReader& f, std::string_view fallback_gpu = kDefaultGpu);
// Custom device, fields named like cudaDeviceProp (major, minor, multiProcessorCount, ...).
// Fields left out take the value of the compute capability's table row.
Result<Device> device_from_json(const json& obj);
json device_to_json(const Device& d);
// `d` in the cudaDeviceProp field names that device_from_json reads back (every field written).
json device_props_json(const Device& d);
// How a request names `d`, so an echoed "input" reads back to the same device:
// {"gpu": name}, {"cc": "8.0"} or {"device": {cudaDeviceProp fields}} for a custom one.
json device_echo(const Device& d);
json gpus_json();                    // the whole database
json api_gpus(const json& request);  // gpus_json() for an empty request

// --- Occupancy -----------------------------------------------------------------------------------
struct OccupancyRequest {
    Device device;
    KernelResources kernel;
    LaunchConfig launch;
    int block[3] = {0, 1, 1};  // when given as a 3-D block
    // Register counts after setmaxnreg, one per warpgroup (empty: no plan); checked by
    // occ::register_pool (occ/register_pool.hpp). Never changes the occupancy.
    std::vector<int> warpgroup_regs;
};
// The launch's plain fields bound to the members they fill (kinds.cpp; occ/io/binding.hpp):
// the reader, the echo, the --batch fast path and the kinds' field lists iterate them.
std::span<const FieldBinding<OccupancyRequest>> launch_bindings();
// Whether occ::PreparedDevice answers the request's block count: every bound field the prepared
// path does not take (FieldBinding::fast) is at its default.
bool prepared_takes(const OccupancyRequest& r);
// Reads the device and launch fields from `request` (other keys are left for the caller: no
// unknown-field check). `context` names the object in messages.
Result<OccupancyRequest> read_occupancy_request(const json& request, std::string_view context = "occupancy request");
// For readers composed of several parts (io-internal; throws RequestError on bad fields).
OccupancyRequest read_occupancy_request(FieldReader& f);
json occupancy_request_to_json(const OccupancyRequest& r);
// The `block` field, [x], [x, y] or [x, y, z] (refused beside `threads`): each dimension 1..hi, z at
// most max_z, into `out` (dimensions not given keep its values); returns the threads (their
// product). Either vendor's request reader (io-internal; throws RequestError).
std::int64_t read_block(FieldReader& f, std::int64_t hi, std::int64_t max_z, std::span<int, 3> out);
// The "effective" object of an answer (null unless the kernel declares an effective limit: Tensor
// Memory) and the "register_pool" object (null without warpgroup_regs), as the occupancy answer has them.
json effective_to_json(const OccupancyResult& r, const KernelResources& k);
json register_pool_to_json(const OccupancyRequest& q);  // canonical echo (also the URL/scenario form)

struct OccupancyAnswer {
    OccupancyRequest input;
    OccupancyResult result;
    std::string sweep_input;  // "" (none), "threads", "regs" or "smem_dynamic"
    std::vector<SweepPoint> sweep;
    std::optional<json> id;
};
Result<OccupancyAnswer> answer_occupancy(const json& request);
// Whether a launch request's inputs are within its model's ranges, so that an answer's error is a
// launch that cannot run (an answer: 0 blocks and why), not inputs out of range (a refusal). The
// vendor is resolved here: AMD's out-of-range inputs are refused before an answer is made.
bool launch_in_range(const json& request);
json to_json(const OccupancyAnswer& a);
json api_occupancy(const json& request);

// --- Memory (api_memory.cpp): global coalescing and shared-memory banks --------------------------
// Request: gpu|cc|device, access_bytes, elem_bytes, op, active_lanes, and addresses (32 entries,
// null = inactive) or a pattern ("affine": base, offset, stride; "2d": block, order, pitch, pad,
// swizzle; "gather": seed, range). See docs/MEMORY.md.
// Pattern "tile" (api_memory_tile.cpp): a whole shared-memory tile, its layout and the accesses made
// to it; `pattern` is unused then.
struct TileRequest {
    TileLayout layout;
    std::vector<TileAccess> accesses;  // all are counted; the first is drawn (per_warp)
    std::int64_t global_pitch = 0;     // coalesce: elements between rows of the global matrix (0 = tile columns)
    std::uint64_t global_base = 0;     // coalesce: byte address of the global matrix (the request's base)
    // The field global_base: where the global matrix is when given (banks: cp_async's source; without it
    // banks takes 0, coalesce the base).
    std::optional<std::uint64_t> global_base_given;
    std::uint64_t coalesce_base() const { return global_base_given.value_or(global_base); }
    std::uint64_t source_base() const { return global_base_given.value_or(0); }
};
// Pattern "expr" (api_memory_expr.cpp): an index expression evaluated for one warp of one block;
// `pattern` then holds that warp's lanes (kind addresses).
struct ExprRequest {
    std::string expr, array, consts;  // as typed (occ/expr.hpp)
    ExprLaunch launch;                // launch.active_lanes is the mask asked for
};
struct MemoryRequest {
    Device device;
    AccessPattern pattern;
    std::optional<TileRequest> tile;
    std::optional<ExprRequest> expr;
};
Result<MemoryRequest> read_memory_request(const json& request, std::string_view context = "coalesce request");
MemoryRequest read_memory_request(FieldReader& f);    // io-internal; throws RequestError
json memory_request_to_json(const MemoryRequest& r);  // canonical echo (also the scenario's memory part)

// Pattern "tile": each access's totals, and (banks) the swizzle solver's answer and the padding alternative.
struct TileAccessCount {
    TileAccess access;
    int instructions = 0;
    std::int64_t wavefronts = 0, ideal_wavefronts = 0, conflicts = 0;  // banks
    int max_way = 0;
    std::int64_t source_wavefronts = 0, source_extra = 0;                         // banks, cp_async: its global side (TileBankTotals)
    std::int64_t sectors = 0, ideal_sectors = 0, lines = 0, bytes_requested = 0;  // coalesce
};
struct TileAnswer {
    std::vector<TileAccessCount> accesses;
    SwizzleSolution solution;  // banks only
    int pad_fix = 0;           // banks: elements of padding tried as the alternative (0 = none applies)
    std::int64_t pad_fix_conflicts = -1;
};
struct CoalesceAnswer {
    MemoryRequest input;
    GlobalBlockResult result;
    std::optional<TileAnswer> tile;
    std::optional<json> id;
};
struct BanksAnswer {
    MemoryRequest input;
    BankBlockResult result;
    std::optional<TileAnswer> tile;
    std::optional<json> id;
};
// The lanes of warp (or tile instruction) `warp` of a request: shared side for banks, global side for coalesce.
WarpAccess memory_warp_access(const MemoryRequest& r, int warp, bool global_side);
Result<CoalesceAnswer> answer_coalesce(const json& request);
Result<BanksAnswer> answer_banks(const json& request);
json to_json(const CoalesceAnswer& a);
json to_json(const BanksAnswer& a);
json api_coalesce(const json& request);
json api_banks(const json& request);

// --- Beyond occupancy (api_advisor.cpp, api_roofline.cpp, ptxas.cpp): see docs/ADVANCED.md --------
// The launch advisor: best block size, register and shared-memory headroom, dynamic shared memory
// at a target, waves, clusters (9.0+), and the suggestions worded in core (advisor.hpp).
struct AdviseAnswer {
    OccupancyRequest input;    // the launch (smem_dynamic = growth at its threads)
    SmemGrowth growth;         // dynamic shared memory: fixed + per_thread x threads
    int block_size_limit = 0;  // 0 = the device's maximum
    OccupancyResult now;       // the launch as it is
    BlockSizeAdvice block;
    ResourceAdvice registers, shared_memory;
    DynamicSmemAdvice at_target;  // target_blocks given, else the blocks the launch has now
    WaveResult waves;
    std::optional<ClusterResult> clusters;  // when cluster_size was given
    std::vector<std::string> suggestions;
    std::optional<json> id;
};
Result<AdviseAnswer> answer_advise(const json& request);
// The same for a request already read (the app's Advisor tab): target_blocks 0 = the blocks it has now;
// cluster_size 0 = no clusters; layout nullptr = the device's GPC layout (gpc_layout).
AdviseAnswer advise(const OccupancyRequest& in, SmemGrowth growth, int block_size_limit, int target_blocks, int cluster_size = 0,
                    bool non_portable = false, const GpcLayout* layout = nullptr);
json to_json(const AdviseAnswer& a);
json api_advise(const json& request);    // to_json(answer_advise(request))
json api_waves(const json& request);     // blocks per wave, waves, tail
json api_clusters(const json& request);  // thread block clusters (9.0+)
struct RooflineRow {
    std::optional<json> label;  // ops[i].label, echoed
    Operation op;
    RooflinePoint point;
};
struct RooflineComparison {
    std::string device;
    RooflinePoint point;
    double speedup = 0;  // attainable on the request's device over this one
};
struct RooflineAnswer {
    RooflineDevice device;  // with the request's overrides (single op), as given (ops)
    std::string memory;     // "dram" or "l2"
    bool many = false;      // the request gave "ops": every op is in `points`
    RooflineRow point;      // the single op
    std::vector<RooflineRow> points;
    bool has_compare = false;
    std::vector<RooflineComparison> compare;
    std::optional<json> id;
};
Result<RooflineAnswer> answer_roofline(const json& request);
json to_json(const RooflineAnswer& a);
json api_roofline(const json& request);  // roofline point(s) for an operation on a device
json api_roofline_devices(const json& request);
json api_ptxas(const json& request);  // occupancy for every kernel of an nvcc -Xptxas -v / cuobjdump log

}  // namespace occ::io
