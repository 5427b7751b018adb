// api_occupancy.cpp — the occupancy request/response.
#include <climits>

#include "occ/io/api.hpp"
#include "occ/io/fields.hpp"
#include "occ/io/schema.hpp"
#include "occ/sweep.hpp"

namespace occ::io {

// The echo's spelling of each value (the schema's choices), in enum order; batch.cpp writes them too.
const char* cache_name(CacheConfig c) {
    static constexpr const char* kNames[] = {"none", "shared", "l1", "equal"};
    return kNames[static_cast<std::size_t>(c)];
}
const char* pgc_name(PartitionedGC p) {
    static constexpr const char* kNames[] = {"off", "on", "strict"};
    return kNames[static_cast<std::size_t>(p)];
}

namespace {

json limit_json(int v) { return v == kUnlimited ? json(nullptr) : json(v); }

}  // namespace

OccupancyRequest read_occupancy_request(FieldReader& f) {
    namespace F = fields;
    OccupancyRequest r;
    r.device = read_device(f);
    if (f.has(F::block)) {
        if (f.has(F::threads)) f.fail("threads", "give threads or block, not both");
        const json* b = f.raw(F::block);
        if (!b->is_array() || b->empty() || b->size() > 3) f.fail("block", "must be [x], [x, y] or [x, y, z], got " + b->dump().substr(0, 40));
        std::int64_t total = 1;
        for (std::size_t i = 0; i < b->size(); ++i) {
            const json& e = (*b)[i];
            if (!e.is_number_integer() || e.get<std::int64_t>() < F::block.lo || e.get<std::int64_t>() > F::block.hi)
                f.fail("block", "each dimension must be an integer 1..1024, got " + e.dump().substr(0, 20));
            r.block[i] = static_cast<int>(e.get<std::int64_t>());
            total *= r.block[i];
        }
        if (b->size() > 2 && r.block[2] > 64) f.fail("block", "z must be 1..64, got " + std::to_string(r.block[2]));
        r.launch.threads = static_cast<int>(std::min<std::int64_t>(total, INT_MAX));
    } else {
        r.launch.threads = static_cast<int>(f.integer(F::threads));
        r.block[0] = r.launch.threads;
    }
    r.kernel.regs_per_thread = static_cast<int>(f.integer(F::regs));
    r.kernel.smem_static = f.size(F::smem_static);
    r.launch.smem_dynamic = f.size(F::smem_dynamic);
    r.launch.carveout = static_cast<int>(f.integer(F::carveout));
    const std::string cache = f.choice(F::cache_config);
    r.launch.cache_config = cache == "shared" ? CacheConfig::prefer_shared : cache == "l1" ? CacheConfig::prefer_l1
                          : cache == "equal" ? CacheConfig::prefer_equal : CacheConfig::none;
    r.kernel.optin = f.boolean(F::optin);
    r.kernel.max_dynamic_smem = f.size(F::max_dynamic_smem);
    r.kernel.barriers = static_cast<int>(f.integer(F::barriers));
    const std::string pgc = f.choice(F::partitioned_gc);
    r.kernel.partitioned_gc = pgc == "on" ? PartitionedGC::on : pgc == "strict" ? PartitionedGC::strict : PartitionedGC::off;
    r.launch.grid_blocks = f.integer(F::grid);
    r.kernel.virtual_resources = static_cast<int>(f.integer(F::virtual_resources));
    return r;
}

Result<OccupancyRequest> read_occupancy_request(const json& request, std::string_view context) {
    return read_with<OccupancyRequest>(request, context, [](FieldReader& f) { return read_occupancy_request(f); });
}

json occupancy_request_to_json(const OccupancyRequest& r) {
    json j;
    j.update(device_echo(r.device));
    if (r.block[1] > 1 || r.block[2] > 1) j["block"] = {r.block[0], r.block[1], r.block[2]};
    else j["threads"] = r.launch.threads;
    j["regs"] = r.kernel.regs_per_thread;
    j["smem_static"] = r.kernel.smem_static;
    j["smem_dynamic"] = r.launch.smem_dynamic;
    j["carveout"] = r.launch.carveout;
    j["cache_config"] = cache_name(r.launch.cache_config);
    j["optin"] = r.kernel.optin;
    if (r.kernel.max_dynamic_smem >= 0) j["max_dynamic_smem"] = r.kernel.max_dynamic_smem;
    j["barriers"] = r.kernel.barriers;
    j["partitioned_gc"] = pgc_name(r.kernel.partitioned_gc);
    if (r.launch.grid_blocks > 0) j["grid"] = r.launch.grid_blocks;
    // Echoed only when a kernel declares one, so answers without it keep their exact bytes.
    if (r.kernel.virtual_resources != fields::virtual_resources.int_default) j["virtual_resources"] = r.kernel.virtual_resources;
    return j;
}

// What the driver itself configures (Nsight Compute's "Shared Memory Configuration Size").
json driver_json(const ArchRules& a, const KernelResources& k, const OccupancyResult& r) {
    const DriverSmemConfig c = driver_smem_config(a, k, r);
    if (c.bytes < 0) return nullptr;
    return json{{"configured", c.bytes}, {"block_limit", c.block_limit}, {"may_be_larger", c.may_be_larger}};
}

json occupancy_to_json(const OccupancyResult& r, const Device& d, const KernelResources& k) {
    json limiters = json::array();
    for (Limiter l : kAllLimiters)
        if (r.limiters & l) limiters.push_back(limiter_name(l));
    if (r.limiters & kLimitVirtualResources) limiters.push_back("virtual_resources");
    json out = json{
        {"blocks_per_sm", r.blocks_per_sm},
        {"warps_per_sm", r.warps_per_sm},
        {"threads_per_sm", r.threads_per_sm},
        {"occupancy", r.occupancy},
        {"warps_per_block", r.warps_per_block},
        {"max_warps_per_sm", r.max_warps_per_sm},
        {"limits",
         {{"warps", limit_json(r.limit_warps)},
          {"registers", limit_json(r.limit_registers)},
          {"shared_memory", limit_json(r.limit_shared_memory)},
          {"blocks", limit_json(r.limit_blocks)},
          {"barriers", limit_json(r.limit_barriers)}}},
        {"limiters", limiters},
        {"regs_per_warp_allocated", r.regs_per_warp_allocated},
        {"regs_per_block_allocated", r.regs_per_block_allocated},
        {"smem_per_block_allocated", r.smem_per_block_allocated},
        {"smem_per_block_limit", r.smem_per_block_limit},
        {"smem_per_sm_configured", r.smem_per_sm_configured},
        {"driver_smem", driver_json(d.arch, k, r)},
        {"partitioned_gc_active", r.partitioned_gc_active},
        {"error", r.ok() ? json(nullptr) : json(r.error_message())},
        {"device", device_to_json(d)},
    };
    // The virtual-resource limit only where the kernel declares a count (answers without one keep their bytes).
    if (k.virtual_resources > 0) out["limits"]["virtual_resources"] = limit_json(r.limit_virtual_resources);
    return out;
}

json sweep_to_json(const std::vector<SweepPoint>& pts, const std::string& input) {
    // Only the points where the answer changes (plus the last one): a step function, compact.
    json points = json::array();
    for (std::size_t i = 0; i < pts.size(); ++i) {
        const bool change = i == 0 || pts[i].blocks_per_sm != pts[i - 1].blocks_per_sm || pts[i].limiters != pts[i - 1].limiters;
        if (!change && i + 1 != pts.size()) continue;
        json lim = json::array();
        for (Limiter l : kAllLimiters)
            if (pts[i].limiters & l) lim.push_back(limiter_name(l));
        if (pts[i].limiters & kLimitVirtualResources) lim.push_back("virtual_resources");
        points.push_back(json{{"x", pts[i].x}, {"blocks_per_sm", pts[i].blocks_per_sm}, {"occupancy", pts[i].occupancy}, {"limiters", lim}});
    }
    return json{{"input", input}, {"points", points}};
}

Result<OccupancyAnswer> answer_occupancy(const json& request) {
    return answer_with<OccupancyAnswer>(request, "occupancy request", [](FieldReader& f, OccupancyAnswer& a) {
        a.input = read_occupancy_request(f);
        const std::string sweep = f.choice(fields::sweep);
        f.finish();
        const OccupancyRequest& r = a.input;
        a.result = compute_occupancy(r.device, r.kernel, r.launch);
        if (sweep == "threads") a.sweep = sweep_block_size(r.device, r.kernel, r.launch);
        if (sweep == "regs") a.sweep = sweep_registers(r.device, r.kernel, r.launch);
        if (sweep == "smem") a.sweep = sweep_shared_memory(r.device, r.kernel, r.launch);
        a.sweep_input = sweep == "smem" ? "smem_dynamic" : sweep == "none" ? "" : sweep;
    });
}

json to_json(const OccupancyAnswer& a) {
    json out = occupancy_to_json(a.result, a.input.device, a.input.kernel);
    out["input"] = occupancy_request_to_json(a.input);
    if (!a.sweep_input.empty()) out["sweep"] = sweep_to_json(a.sweep, a.sweep_input);
    if (a.id) out["id"] = *a.id;
    return out;
}

json api_occupancy(const json& request) { return json_or_throw(answer_occupancy(request)); }

}  // namespace occ::io
