// occupancy_emit.hpp — the occupancy answer's fields, in their order, written once for two writers:
// a JSON tree (to_json, api_occupancy.cpp) and JSON text straight into a buffer (--batch, batch.cpp).
//
// A writer W offers: field(key, value) for integers, doubles, booleans, strings and nullptr;
// limit(key, int) (null when unlimited); value(key, const json&); begin_object(key)/end_object();
// begin_array(key)/item(string)/end_array(); result_device(d) ("device": the whole entry) and
// echo_device(d) (how the request named the device: "gpu", "cc" or "device").
#pragma once
#include "occ/io/api.hpp"
#include "occ/io/schema.hpp"
#include "occ/register_pool.hpp"
#include "occ/sweep.hpp"

namespace occ::io {

json sweep_to_json(const std::vector<SweepPoint>& pts, const std::string& input);

template <typename W>
void emit_limiters(W& w, unsigned limiters) {
    w.begin_array("limiters");
    for (const LimiterInfo& e : kLimiters)
        if (limiters & e.bit) w.item(e.key);
    w.end_array();
}

// The blocks that work at once, where the kernel declares an effective limit (Tensor Memory):
// "effective": {blocks_per_sm, warps_per_sm, occupancy, limiters, waiting_blocks}.
template <typename W>
void emit_effective(W& w, const OccupancyResult& r, const KernelResources& k) {
    bool declared = false;
    for (const LimiterInfo& e : kLimiters) declared |= e.effective && e.reported(k);
    if (!declared) return;
    const int b = effective_blocks_per_sm(r);
    w.begin_object("effective");
    w.field("blocks_per_sm", b);
    w.field("warps_per_sm", b * r.warps_per_block);
    w.field("occupancy", effective_occupancy(r));
    emit_limiters(w, effective_limiters(r));
    w.field("waiting_blocks", r.blocks_per_sm - b);
    w.end_object();
}

template <typename W>
void emit_occupancy_result(W& w, const OccupancyResult& r, const Device& d, const KernelResources& k) {
    w.field("blocks_per_sm", r.blocks_per_sm);
    w.field("warps_per_sm", r.warps_per_sm);
    w.field("threads_per_sm", r.threads_per_sm);
    w.field("occupancy", r.occupancy);
    w.field("warps_per_block", r.warps_per_block);
    w.field("max_warps_per_sm", r.max_warps_per_sm);
    w.begin_object("limits");
    // A limit the kernel must declare (virtual resources) only where it does, so answers without one keep their bytes.
    for (const LimiterInfo& e : kLimiters)
        if (e.reported(k)) w.limit(e.key, r.*e.limit);
    w.end_object();
    emit_limiters(w, r.limiters);
    emit_effective(w, r, k);
    w.field("regs_per_warp_allocated", r.regs_per_warp_allocated);
    w.field("regs_per_block_allocated", r.regs_per_block_allocated);
    w.field("smem_per_block_allocated", r.smem_per_block_allocated);
    w.field("smem_per_block_limit", r.smem_per_block_limit);
    w.field("smem_per_sm_configured", r.smem_per_sm_configured);
    // What the driver itself configures (Nsight Compute's "Shared Memory Configuration Size").
    const DriverSmemConfig c = driver_smem_config(d.arch, k, r);
    if (c.bytes < 0) {
        w.field("driver_smem", nullptr);
    } else {
        w.begin_object("driver_smem");
        w.field("configured", c.bytes);
        w.field("block_limit", c.block_limit);
        w.field("may_be_larger", c.may_be_larger);
        // Every size the public reports allow (one where they decide) and the block limit against each.
        w.begin_array("candidates");
        for (std::int64_t b : c.candidates) w.item(b);
        w.end_array();
        w.begin_array("candidate_block_limits");
        for (int b : c.candidate_block_limits) w.item(b);
        w.end_array();
        w.field("reports", c.reports);
        w.end_object();
    }
    w.field("partitioned_gc_active", r.partitioned_gc_active);
    if (r.ok()) w.field("error", nullptr);
    else w.field("error", r.error_message());
    w.result_device(d);
}

// The request as read, so that it reads back to the same request.
template <typename W>
void emit_occupancy_request(W& w, const OccupancyRequest& r) {
    w.echo_device(r.device);
    if (r.block[1] > 1 || r.block[2] > 1) {
        w.begin_array("block");
        for (int e : r.block) w.item(e);
        w.end_array();
    } else {
        w.field("threads", r.launch.threads);
    }
    echo_bound(w, launch_bindings(), r);
    if (!r.warpgroup_regs.empty()) {
        w.begin_array("warpgroup_regs");
        for (int v : r.warpgroup_regs) w.item(v);
        w.end_array();
    }
}

// The setmaxnreg plan against the block's register pool (occ/register_pool.hpp).
template <typename W>
void emit_register_pool(W& w, const OccupancyRequest& q) {
    const RegisterPoolAnswer p = register_pool(q.device.arch, q.kernel, q.launch, q.warpgroup_regs);
    w.begin_object("register_pool");
    if (!p.error.empty()) {
        w.field("error", p.error);
        w.end_object();
        return;
    }
    w.field("warpgroups", p.warpgroups);
    w.field("launch_regs", p.launch_regs);
    w.field("pool", p.pool);
    w.field("planned", p.planned);
    w.field("left", p.left);
    w.field("fits", p.fits);
    if (p.max_consumer_regs > 0) w.field("max_consumer_regs", p.max_consumer_regs);
    else w.field("max_consumer_regs", nullptr);
    w.begin_array("actions");
    for (const WarpgroupPlan& g : p.plan) w.item(std::string_view(g.action));
    w.end_array();
    w.field("summary", p.summary);
    w.field("error", nullptr);
    w.end_object();
}

template <typename W>
void emit_occupancy_answer(W& w, const OccupancyAnswer& a) {
    emit_occupancy_result(w, a.result, a.input.device, a.input.kernel);
    if (!a.input.warpgroup_regs.empty()) emit_register_pool(w, a.input);
    w.begin_object("input");
    emit_occupancy_request(w, a.input);
    w.end_object();
    if (!a.sweep_input.empty()) w.value("sweep", sweep_to_json(a.sweep, a.sweep_input));
    if (a.id) w.value("id", *a.id);
}

}  // namespace occ::io
