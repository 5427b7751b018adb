// api_advisor.cpp — the "advise", "waves" and "clusters" request kinds.
//
// All three take the occupancy request's fields (gpu|cc|device, threads|block, regs, smem_static,
// smem_dynamic, carveout, cache_config, optin, max_dynamic_smem, barriers, partitioned_gc, grid) plus:
//   advise    smem_per_thread, smem_fixed: dynamic shared memory that grows with the block
//             (fixed + per_thread x threads; instead of smem_dynamic), for every section; block_size_limit; target_blocks (for the dynamic
//             shared memory available per block); cluster_size, non_portable, gpc_sms (optional)
//   waves     (grid: blocks in the grid; 0 or absent = one full wave)
//   clusters  cluster_size [required], non_portable, gpc_sms (SMs per GPC, overrides the assumed layout)

#include "occ/advisor.hpp"
#include "occ/cluster.hpp"
#include "occ/io/amd.hpp"
#include "occ/io/api.hpp"
#include "occ/io/fields.hpp"
#include "occ/io/schema.hpp"
#include "occ/waves.hpp"

namespace occ::io {
namespace {

json limiters_json(unsigned mask) {
    json a = json::array();
    for (const LimiterInfo& e : kLimiters)
        if (mask & e.bit) a.push_back(e.key);
    return a;
}

// A compact snapshot: the numbers a before/after pair needs.
struct AdviceKeys {
    const char* now;
    const char* max_same;
    const char* to_gain;
};

// One part of an answer: `head`, then only the error when the part was refused, else `body`'s keys
// in order and "error" (null when `error` is empty).
json answer_part(json head, bool refused, const std::string& error, const json& body) {
    if (!refused) head.update(body);
    head["error"] = error.empty() ? json(nullptr) : json(error);
    return head;
}

// A ResourceAdvice (either vendor's) in JSON; snap_at(result, value) describes the launch with the resource at value.
template <typename R, typename SnapAt>
json advice_json(const BasicResourceAdvice<R>& a, AdviceKeys keys, SnapAt snap_at) {
    if (!a.ok()) return answer_part(json{{keys.now, a.now}}, true, a.error, {});
    const bool gain = a.to_gain_block >= 0;
    return answer_part(json{{keys.now, a.now}}, false, a.error,
                       json{{"blocks_per_sm", a.blocks_per_sm},
                            {keys.max_same, a.max_same_blocks},
                            {"headroom", a.headroom},
                            {keys.to_gain, gain ? json(a.to_gain_block) : json(nullptr)},
                            {"cut_to_gain", gain ? json(a.cut_to_gain) : json(nullptr)},
                            {"before", snap_at(a.before, a.now)},
                            {"at_headroom", snap_at(a.at_headroom, a.max_same_blocks)},
                            {"after_cut", gain ? snap_at(a.after_cut, a.to_gain_block) : json(nullptr)},
                            {"note", a.note.empty() ? json(nullptr) : json(a.note)}});
}

json snap(const OccupancyResult& r, int threads, int regs, std::int64_t smem_dynamic) {
    return json{{"threads", threads},
                {"regs", regs},
                {"smem_dynamic", smem_dynamic},
                {"blocks_per_sm", r.blocks_per_sm},
                {"warps_per_sm", r.warps_per_sm},
                {"occupancy", r.occupancy},
                {"limiters", limiters_json(r.limiters)},
                {"error", r.ok() ? json(nullptr) : json(r.error_message())}};
}

// The block-size part in both vendors' answers; snap_at(result, threads, smem_dynamic).
template <typename Advice, typename SnapAt>
json block_json(const Advice& b, const SmemGrowth& growth, int block_size_limit, int threads_now, const std::string& rule, SnapAt snap_at) {
    json bj{{"rule", rule}, {"smem_fixed", growth.fixed}, {"smem_per_thread", growth.per_thread}, {"block_size_limit", block_size_limit}};
    if (!b.ok()) {
        bj["error"] = b.error;
        return bj;
    }
    bj.update(json{{"threads", b.threads}, {"smem_dynamic", b.smem_dynamic}, {"blocks_per_sm", b.blocks_per_sm}});
    bj.update(json{{"occupancy", b.after.occupancy},
                   {"min_grid_blocks", b.min_grid_blocks >= 0 ? json(b.min_grid_blocks) : json(nullptr)},
                   {"candidates", b.candidates}});
    bj["before"] = snap_at(b.before, threads_now, growth.at(threads_now));
    bj["after"] = snap_at(b.after, b.threads, b.smem_dynamic);
    bj["error"] = nullptr;
    return bj;
}

// The dynamic shared memory (LDS) available per block at a target; snap_at(result, bytes).
template <typename Advice, typename SnapAt>
json target_json(const Advice& da, SnapAt snap_at) {
    return json{{"target_blocks", da.target_blocks},
                {"available", da.available >= 0 ? json(da.available) : json(nullptr)},
                {"at_available", snap_at(da.at_available, da.available >= 0 ? da.available : 0)},
                {"error", da.ok() ? json(nullptr) : json(da.error)}};
}

json waves_json(const WaveResult& w) {
    // [low, high]: the range the reports fall in (docs/MODEL.md, "Achieved occupancy"); null with achieved_occupancy.
    const json range = w.achieved_occupancy >= 0 ? json::array({w.achieved_occupancy_low, w.achieved_occupancy_high}) : json(nullptr);
    return answer_part(json{{"blocks_per_sm", w.blocks_per_sm}, {"sm_count", w.sm_count}, {"grid", w.grid_blocks}}, !w.ok(), w.error,
                       json{{"blocks_per_wave", w.blocks_per_wave},
                            {"waves", w.waves},
                            {"full_waves", w.full_waves},
                            {"total_waves", w.total_waves},
                            {"tail_blocks", w.tail_blocks},
                            {"last_wave_fill", w.last_wave_fill},
                            {"efficiency", w.efficiency},
                            {"suggested_grid_down", w.suggested_grid_down},
                            {"suggested_grid_up", w.suggested_grid_up},
                            // Predicted (docs/MODEL.md, "Achieved occupancy"); null with the reason without a grid.
                            {"achieved_occupancy", w.achieved_occupancy >= 0 ? json(w.achieved_occupancy) : json(nullptr)},
                            {"achieved_occupancy_range", range},
                            {"achieved_occupancy_unknown", w.achieved_occupancy >= 0 ? json(nullptr) : json(w.achieved_unknown)}});
}

json clusters_json(const ClusterResult& c) {
    const json gpc{
        {"sms_per_gpc", c.layout.sms_per_gpc}, {"count", c.layout.gpc_count()}, {"assumed", c.layout.assumed}, {"source", c.layout.source}};
    // Refused outright (no figures at all), or figures with the reason the launch cannot run.
    const bool refused = !c.error.empty() && c.blocks_per_sm == 0 && c.max_active_clusters == 0 && c.clusters_per_gpc.empty();
    return answer_part(json{{"cluster_size", c.cluster_size}, {"non_portable", c.non_portable}, {"gpc", gpc}}, refused, c.error,
                       json{{"blocks_per_sm", c.blocks_per_sm},
                            {"max_active_clusters", c.max_active_clusters},
                            {"clusters_per_gpc", c.clusters_per_gpc},
                            {"active_blocks", c.active_blocks},
                            {"block_slots", c.block_slots},
                            {"idle_block_slots", c.idle_block_slots},
                            {"cluster_occupancy", c.cluster_occupancy},
                            {"device_occupancy", c.device_occupancy}});
}

struct ClusterInput {
    int size = 0;
    bool non_portable = false;
    bool has_layout = false;
    GpcLayout layout;
};

ClusterInput read_cluster(FieldReader& f, const Device& dev, bool required) {
    ClusterInput c;
    c.size = static_cast<int>(required ? f.integer_required(fields::cluster_size_required) : f.integer(fields::cluster_size));
    c.non_portable = f.boolean(fields::non_portable);
    if (c.size > kMaxPortableClusterSize && !c.non_portable)
        f.fail("cluster_size", "must be 1..8 (portable); 9..16 need non_portable (cudaFuncAttributeNonPortableClusterSizeAllowed), got " +
                                   std::to_string(c.size));
    if (f.raw("gpc_sms")) {
        c.layout.sms_per_gpc = read_int_list(f, fields::gpc_sms, 64);
        int sum = 0;
        for (const int n : c.layout.sms_per_gpc) sum += n;
        if (sum != dev.sm_count)
            f.fail("gpc_sms", "must add up to the device's " + std::to_string(dev.sm_count) + " SMs, got " + std::to_string(sum));
        c.layout.source = "given in the request";
        c.layout.assumed = false;
        c.has_layout = true;
    } else {
        c.layout = gpc_layout(dev);
    }
    return c;
}

// An AMD launch's snapshot: the CUDA keys read as AMD's words (blocks = workgroups per CU or WGP,
// warps = waves), plus waves per SIMD; limiters are amd_limiters()' keys.
json amd_snap(const amd::AmdOccupancyResult& r, int threads, int regs, std::int64_t lds_dynamic) {
    json lim = json::array();
    for (const amd::AmdLimiterInfo& li : amd::amd_limiters())
        if (r.limiters & li.bit) lim.push_back(li.key);
    return json{{"threads", threads},
                {"regs", regs},
                {"smem_dynamic", lds_dynamic},
                {"blocks_per_sm", r.workgroups_per_cu},
                {"warps_per_sm", r.waves_per_cu},
                {"waves_per_simd", r.waves_per_simd},
                {"occupancy", r.occupancy},
                {"limiters", lim},
                {"error", r.ok() ? json(nullptr) : json(r.error_message)}};
}

// The fields the AMD advise and waves kinds read besides the occupancy kind's.
// (grid is read with the occupancy fields: AmdRequest::grid.)
constexpr const FieldSpec* kAmdAdviseFields[] = {&fields::smem_per_thread, &fields::smem_fixed, &fields::block_size_limit,
                                                 &fields::target_blocks};

json device_brief(const Device& d) {
    return json{
        {"name", d.name}, {"cc", std::to_string(d.arch.cc_major) + "." + std::to_string(d.arch.cc_minor)}, {"sm_count", d.sm_count}};
}

}  // namespace

json api_waves(const json& request) {
    FieldReader f(request, "waves request");
    const json* id = f.raw("id");
    const OccupancyRequest req = read_occupancy_request(f);
    refuse_amd_fields(f, req.device.name);
    f.finish();
    const OccupancyResult r = compute_occupancy(req.device, req.kernel, req.launch);
    json out = waves_json(compute_waves(r, req.device.sm_count, req.launch.grid_blocks, req.kernel.regs_per_thread));
    out["device"] = device_brief(req.device);
    out["input"] = occupancy_request_to_json(req);
    if (id) out["id"] = *id;
    return out;
}

json api_clusters(const json& request) {
    FieldReader f(request, "clusters request");
    const json* id = f.raw("id");
    const OccupancyRequest req = read_occupancy_request(f);
    const ClusterInput ci = read_cluster(f, req.device, /*required=*/true);
    f.finish();
    json out = clusters_json(compute_clusters(req.device, req.kernel, req.launch, ci.size, ci.non_portable, ci.layout));
    out["device"] = device_brief(req.device);
    out["input"] = occupancy_request_to_json(req);
    if (id) out["id"] = *id;
    return out;
}

Result<AdviseAnswer> answer_advise(const json& request) {
    return answer_with<AdviseAnswer>(request, "advise request", [](FieldReader& f, AdviseAnswer& a) {
        OccupancyRequest& req = a.input;
        req = read_occupancy_request(f);
        const Device& dev = req.device;
        // Dynamic shared memory is either a constant (smem_dynamic) or grows with the block
        // (smem_fixed + smem_per_thread x threads); the launch as it is now uses the same rule.
        const bool grows = f.has("smem_per_thread") || f.has("smem_fixed");
        if (grows && f.has("smem_dynamic"))
            f.fail("smem_dynamic", "give smem_dynamic (a constant) or smem_fixed + smem_per_thread (growing with the block), not both");
        a.growth.per_thread = f.size(fields::smem_per_thread);
        a.growth.fixed = f.size(fields::smem_fixed, grows ? 0 : req.launch.smem_dynamic);
        req.launch.smem_dynamic = a.growth.at(req.launch.threads);
        a.block_size_limit = static_cast<int>(f.integer(fields::block_size_limit));
        const bool has_target = f.has("target_blocks");
        const int target_in = static_cast<int>(f.integer(fields::target_blocks));
        const ClusterInput ci = read_cluster(f, dev, /*required=*/false);
        refuse_amd_fields(f, dev.name);
        f.finish();

        AdviseAnswer done = advise(req, a.growth, a.block_size_limit, has_target ? target_in : 0, ci.size, ci.non_portable, &ci.layout);
        done.id = std::move(a.id);
        a = std::move(done);
    });
}

AdviseAnswer advise(const OccupancyRequest& in, SmemGrowth growth, int block_size_limit, int target_blocks, int cluster_size,
                    bool non_portable, const GpcLayout* layout) {
    AdviseAnswer a;
    a.input = in;
    a.growth = growth;
    a.block_size_limit = block_size_limit;
    const Device& dev = a.input.device;
    const KernelResources& k = a.input.kernel;
    const LaunchConfig& l = a.input.launch;
    a.now = compute_occupancy(dev, k, l);
    // The suggestions are worded in core (advisor.hpp); an empty one has nothing to suggest.
    auto say = [&](const std::string& s) {
        if (!s.empty()) a.suggestions.push_back(s);
    };
    a.block = advise_block_size(dev, k, l, a.growth, a.block_size_limit);
    if (a.block.ok()) say(block_size_suggestion(a.block, l.threads));
    a.registers = advise_registers(dev, k, l);
    a.shared_memory = advise_shared_memory(dev, k, l);
    for (const ResourceAdvice* adv : {&a.registers, &a.shared_memory})
        if (adv->ok()) {
            say(cut_suggestion(*adv));
            say(headroom_suggestion(*adv));
        }
    a.at_target = available_dynamic_smem(dev, k, l, target_blocks > 0 ? target_blocks : std::max(1, a.now.blocks_per_sm));
    if (target_blocks > 0) say(target_suggestion(a.at_target));
    a.waves = compute_waves(a.now, dev.sm_count, l.grid_blocks, k.regs_per_thread);
    say(waves_suggestion(a.waves));
    if (cluster_size > 0) {
        a.clusters = compute_clusters(dev, k, l, cluster_size, non_portable, layout ? *layout : gpc_layout(dev));
        say(clusters_suggestion(*a.clusters));
    }
    if (a.suggestions.empty()) say(no_change_suggestion(a.now));
    return a;
}

json to_json(const AdviseAnswer& a) {
    const KernelResources& k = a.input.kernel;
    const LaunchConfig& l = a.input.launch;
    const json bj = block_json(
        a.block, a.growth, a.block_size_limit, l.threads,
        "largest active threads per SM (blocks x threads); ties go to the larger block (cudaOccupancyMaxPotentialBlockSize order)",
        [&](const OccupancyResult& r, int threads, std::int64_t smem) { return snap(r, threads, k.regs_per_thread, smem); });
    // Registers, then dynamic shared memory: one advice shape, each under its own key names.
    const json rj = advice_json(
        a.registers, {"regs", "max_regs_same_blocks", "regs_to_gain_block"},
        [&](const OccupancyResult& r, std::int64_t v) { return snap(r, l.threads, static_cast<int>(v), l.smem_dynamic); });
    const json sj = advice_json(a.shared_memory, {"smem_dynamic", "max_dynamic_same_blocks", "dynamic_to_gain_block"},
                                [&](const OccupancyResult& r, std::int64_t v) { return snap(r, l.threads, k.regs_per_thread, v); });
    const json dj = target_json(a.at_target,
                                [&](const OccupancyResult& r, std::int64_t v) { return snap(r, l.threads, k.regs_per_thread, v); });
    json now = snap(a.now, l.threads, k.regs_per_thread, l.smem_dynamic);
    if (json e = effective_to_json(a.now, k); !e.is_null()) now["effective"] = std::move(e);
    json out{{"device", device_brief(a.input.device)},
             {"occupancy", now},
             {"block_size", bj},
             {"registers", rj},
             {"shared_memory", sj},
             {"dynamic_smem_at_target", dj},
             {"waves", waves_json(a.waves)},
             {"clusters", a.clusters ? clusters_json(*a.clusters) : json(nullptr)},
             {"suggestions", a.suggestions},
             {"input", occupancy_request_to_json(a.input)},
             {"error", a.now.ok() ? json(nullptr) : json(a.now.error_message())}};
    if (json p = register_pool_to_json(a.input); !p.is_null()) {
        if (p["error"].is_null()) {
            const int producer = a.input.warpgroup_regs.front();
            out["suggestions"].push_back(p["max_consumer_regs"].is_null()
                                             ? "register plan: " + p["summary"].get<std::string>()
                                             : "register plan: with warpgroup 0 at " + std::to_string(producer) +
                                                   " registers, the other warpgroups can each take up to " +
                                                   std::to_string(p["max_consumer_regs"].get<int>()) + " (setmaxnreg.inc); " +
                                                   p["summary"].get<std::string>());
        }
        out["register_pool"] = std::move(p);
    }
    if (a.id) out["id"] = *a.id;
    return out;
}

json api_advise(const json& request) { return json_or_throw(answer_advise(request)); }
json api_amd_advise(const json& request) { return json_or_throw(answer_amd_advise(request)); }

// [SECTION] AMD GPUs: the same parts over occ::amd's model (occ/amd_advisor.hpp)

namespace {
// The request's GPU's CUs; 0 for a bare target.
int compute_units(const AmdRequest& r) { return r.gpu ? r.gpu->sm_count : 0; }

// Out-of-range inputs are refused as the AMD occupancy kind refuses them (a RequestError naming the
// field); a launch that fails (amd_launch_fails) is an answer with its error.
void refuse_out_of_range(const amd::AmdOccupancyResult& r) {
    if (!r.ok() && !amd::amd_launch_fails(r.error)) throw RequestError(r.error_message);
}
}  // namespace

Result<AmdAdviseAnswer> answer_amd_advise(const json& request) {
    return answer_with<AmdAdviseAnswer>(request, "advise request", [](FieldReader& f, AmdAdviseAnswer& a) {
        a.input = read_amd_request(f, "advise", kAmdAdviseFields);
        const bool grows = f.has("smem_per_thread") || f.has("smem_fixed");
        if (grows && f.has("smem_dynamic"))
            f.fail("smem_dynamic", "give smem_dynamic (a constant) or smem_fixed + smem_per_thread (growing with the block), not both");
        a.growth.per_thread = f.size(fields::smem_per_thread);
        a.growth.fixed = f.size(fields::smem_fixed, grows ? 0 : a.input.launch.lds_dynamic);
        a.input.launch.lds_dynamic = a.growth.at(a.input.launch.threads);
        a.block_size_limit = static_cast<int>(f.integer(fields::block_size_limit));
        const bool has_target = f.has("target_blocks");
        const int target_in = static_cast<int>(f.integer(fields::target_blocks));
        a.grid = a.input.grid;
        f.finish();

        const AmdAdviseAnswer done = amd_advise(a.input, a.growth, a.block_size_limit, has_target ? target_in : 0, a.grid);
        refuse_out_of_range(done.now);
        json id = std::move(a.id);
        a = done;
        a.id = std::move(id);
    });
}

AmdAdviseAnswer amd_advise(const AmdRequest& in, SmemGrowth growth, int block_size_limit, int target_blocks, std::int64_t grid) {
    AmdAdviseAnswer a;
    a.input = in;
    a.growth = growth;
    a.block_size_limit = block_size_limit;
    a.grid = grid;
    const amd::AmdArch& arch = *a.input.arch;
    const amd::AmdKernel& k = a.input.kernel;
    const amd::AmdLaunch& l = a.input.launch;
    a.now = amd::compute_amd_occupancy(arch, k, l);
    auto say = [&](const std::string& s) {
        if (!s.empty()) a.suggestions.push_back(s);
    };
    a.block = amd::amd_advise_block_size(arch, k, l, a.growth, a.block_size_limit, compute_units(a.input));
    say(amd::amd_block_size_suggestion(a.block, l.threads));
    a.vgprs = amd::amd_advise_vgprs(arch, k, l);
    a.lds = amd::amd_advise_lds(arch, k, l);
    for (const amd::AmdResourceAdvice* adv : {&a.vgprs, &a.lds}) {
        say(amd::amd_cut_suggestion(*adv, l.threads));
        say(amd::amd_headroom_suggestion(*adv));
    }
    a.at_target = amd::amd_available_lds(arch, k, l, target_blocks > 0 ? target_blocks : std::max(1, a.now.workgroups_per_cu));
    if (target_blocks > 0) say(amd::amd_target_suggestion(a.at_target));
    a.waves = amd::amd_waves(a.now, compute_units(a.input), a.grid);
    say(amd::amd_waves_suggestion(a.waves, a.now));
    if (a.suggestions.empty()) say(no_change_suggestion(a.now.ok() ? std::string() : a.now.error_message));
    return a;
}

json to_json(const AmdAdviseAnswer& a) {
    const amd::AmdKernel& k = a.input.kernel;
    const amd::AmdLaunch& l = a.input.launch;
    const std::string unit = a.now.wgp_mode ? "WGP" : "CU";
    const json bj = block_json(
        a.block, a.growth, a.block_size_limit, l.threads,
        "largest active threads per " + unit +
            " (workgroups x threads); ties go to the larger workgroup (CUDA's block-size search, on the AMD model)",
        [&](const amd::AmdOccupancyResult& r, int threads, std::int64_t lds) { return amd_snap(r, threads, k.vgprs, lds); });
    json rj = advice_json(
        a.vgprs, {"regs", "max_regs_same_blocks", "regs_to_gain_block"},
        [&](const amd::AmdOccupancyResult& r, std::int64_t v) { return amd_snap(r, l.threads, static_cast<int>(v), l.lds_dynamic); });
    // How to ask LLVM for the cut: __launch_bounds__'s second argument = amdgpu-waves-per-eu (amd_advisor.cpp).
    if (a.vgprs.ok()) rj["amdgpu_waves_per_eu"] = a.vgprs.to_gain_block >= 0 ? json(a.vgprs.after_cut.waves_per_simd) : json(nullptr);
    const json sj = advice_json(a.lds, {"smem_dynamic", "max_dynamic_same_blocks", "dynamic_to_gain_block"},
                                [&](const amd::AmdOccupancyResult& r, std::int64_t v) { return amd_snap(r, l.threads, k.vgprs, v); });
    const json dj = target_json(a.at_target,
                                [&](const amd::AmdOccupancyResult& r, std::int64_t v) { return amd_snap(r, l.threads, k.vgprs, v); });
    json wj = waves_json(a.waves);
    wj["unit"] = unit;
    json input = amd_request_to_json(a.input);
    input["grid"] = a.grid;
    json out{{"device", amd_device_to_json(a.input)},
             {"vendor", "AMD"},
             {"occupancy", amd_snap(a.now, l.threads, k.vgprs, l.lds_dynamic)},
             {"block_size", bj},
             {"registers", rj},
             {"shared_memory", sj},
             {"dynamic_smem_at_target", dj},
             {"waves", wj},
             {"suggestions", a.suggestions},
             {"input", input},
             {"error", a.now.ok() ? json(nullptr) : json(a.now.error_message)}};
    if (!a.id.is_null()) out["id"] = a.id;
    return out;
}

json api_amd_waves(const json& request) {
    FieldReader f(request, "waves request");
    const json* id = f.raw("id");
    const AmdRequest req = read_amd_request(f, "waves");
    const std::int64_t grid = req.grid;
    f.finish();
    const amd::AmdOccupancyResult r = amd::compute_amd_occupancy(*req.arch, req.kernel, req.launch);
    refuse_out_of_range(r);
    json out = waves_json(amd::amd_waves(r, compute_units(req), grid));
    out["unit"] = r.wgp_mode ? "WGP" : "CU";
    out["device"] = amd_device_to_json(req);
    json input = amd_request_to_json(req);
    input["grid"] = grid;
    out["input"] = std::move(input);
    if (id) out["id"] = *id;
    return out;
}

}  // namespace occ::io
