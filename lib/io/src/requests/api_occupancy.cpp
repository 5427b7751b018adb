// api_occupancy.cpp — the occupancy request/response.
#include <climits>

#include "occ/io/amd.hpp"
#include "occ/io/api.hpp"
#include "occ/io/fields.hpp"
#include "occ/io/schema.hpp"
#include "occ/sweep.hpp"
#include "occupancy_emit.hpp"

namespace occ::io {

OccupancyRequest read_occupancy_request(FieldReader& f) {
    namespace F = fields;
    OccupancyRequest r;
    r.device = read_device(f);
    if (f.has(F::block)) {
        // maxThreadsDim: 1024 in x and y, 64 in z on every compute capability (CUDA Programming Guide,
        // "Technical Specifications per Compute Capability").
        r.launch.threads = static_cast<int>(std::min<std::int64_t>(read_block(f, F::block.hi, 64, r.block), INT_MAX));
    } else {
        r.launch.threads = static_cast<int>(f.integer(F::threads));
        r.block[0] = r.launch.threads;
    }
    read_bound(f, launch_bindings(), r);
    r.warpgroup_regs = read_int_list(f, F::warpgroup_regs, 8);  // at most 1024 threads: 8 warpgroups
    return r;
}

std::int64_t read_block(FieldReader& f, std::int64_t hi, std::int64_t max_z, std::span<int, 3> out) {
    if (f.has(fields::threads)) f.fail("threads", "give threads or block, not both");
    const json* b = f.raw(fields::block);
    if (!b->is_array() || b->empty() || b->size() > 3) f.fail("block", "must be [x], [x, y] or [x, y, z], got " + b->dump().substr(0, 40));
    std::int64_t total = 1;
    for (std::size_t i = 0; i < b->size(); ++i) {
        const json& e = (*b)[i];
        if (!e.is_number_integer() || e.get<std::int64_t>() < 1 || e.get<std::int64_t>() > hi)
            f.fail("block", "each dimension must be an integer 1.." + std::to_string(hi) + ", got " + e.dump().substr(0, 20));
        out[i] = static_cast<int>(e.get<std::int64_t>());
        total *= out[i];
    }
    if (b->size() > 2 && out[2] > max_z) f.fail("block", "z must be 1.." + std::to_string(max_z) + ", got " + std::to_string(out[2]));
    return total;
}

Result<OccupancyRequest> read_occupancy_request(const json& request, std::string_view context) {
    return read_with<OccupancyRequest>(request, context, [](FieldReader& f) { return read_occupancy_request(f); });
}

namespace {

// occupancy_emit.hpp's writer that builds the JSON tree.
class TreeWriter {
public:
    explicit TreeWriter(json& root) : stack_{&root} {}
    template <typename T>
    void field(std::string_view k, const T& v) {
        top()[std::string(k)] = v;
    }
    void limit(std::string_view k, int v) { field(k, v == kUnlimited ? json(nullptr) : json(v)); }
    void value(std::string_view k, const json& v) { top()[std::string(k)] = v; }
    void begin_object(std::string_view k) { open(k, json::object()); }
    void begin_array(std::string_view k) { open(k, json::array()); }
    template <typename T>
    void item(const T& v) {
        top().push_back(v);
    }
    void end_object() { stack_.pop_back(); }
    void end_array() { stack_.pop_back(); }
    void result_device(const Device& d) { value("device", device_to_json(d)); }
    void echo_device(const Device& d) { top().update(device_echo(d)); }

private:
    json& top() { return *stack_.back(); }
    void open(std::string_view k, json v) {
        json& child = top()[std::string(k)] = std::move(v);
        stack_.push_back(&child);
    }
    std::vector<json*> stack_;  // the object or array being written, innermost last
};

template <typename Emit>
json tree(Emit emit) {
    json out = json::object();
    TreeWriter w(out);
    emit(w);
    return out;
}

}  // namespace

json effective_to_json(const OccupancyResult& r, const KernelResources& k) {
    const json j = tree([&](TreeWriter& w) { emit_effective(w, r, k); });
    return j.contains("effective") ? j["effective"] : json(nullptr);
}

json register_pool_to_json(const OccupancyRequest& q) {
    if (q.warpgroup_regs.empty()) return nullptr;
    return tree([&](TreeWriter& w) { emit_register_pool(w, q); })["register_pool"];
}

json occupancy_request_to_json(const OccupancyRequest& r) {
    return tree([&](TreeWriter& w) { emit_occupancy_request(w, r); });
}

json sweep_to_json(const std::vector<SweepPoint>& pts, const std::string& input) {
    // Only the points where the answer changes (plus the last one): a step function, compact.
    json points = json::array();
    for (std::size_t i = 0; i < pts.size(); ++i) {
        const bool change = i == 0 || pts[i].blocks_per_sm != pts[i - 1].blocks_per_sm || pts[i].limiters != pts[i - 1].limiters;
        if (!change && i + 1 != pts.size()) continue;
        json lim = json::array();
        for (const LimiterInfo& e : kLimiters)
            if (pts[i].limiters & e.bit) lim.push_back(e.key);
        points.push_back(
            json{{"x", pts[i].x}, {"blocks_per_sm", pts[i].blocks_per_sm}, {"occupancy", pts[i].occupancy}, {"limiters", lim}});
    }
    return json{{"input", input}, {"points", points}};
}

bool launch_in_range(const json& request) {
    if (request_vendor(request) == Vendor::amd) return true;
    const Result<OccupancyRequest> r = read_occupancy_request(request);
    // blocks_per_sm_fast is -1 only for inputs outside the model's ranges.
    return r && blocks_per_sm_fast(r->device.arch, r->kernel, r->launch) >= 0;
}

Result<OccupancyAnswer> answer_occupancy(const json& request) {
    return answer_with<OccupancyAnswer>(request, "occupancy request", [](FieldReader& f, OccupancyAnswer& a) {
        a.input = read_occupancy_request(f);
        // The AMD-only fields, by name (an AMD GPU's request is answered by answer_amd_occupancy).
        refuse_amd_fields(f, a.input.device.name);
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
    return tree([&](TreeWriter& w) { emit_occupancy_answer(w, a); });
}

json api_occupancy(const json& request) { return json_or_throw(answer_occupancy(request)); }
json api_amd_occupancy(const json& request) { return json_or_throw(answer_amd_occupancy(request)); }

}  // namespace occ::io
