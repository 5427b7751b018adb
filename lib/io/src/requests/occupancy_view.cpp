// occupancy_view.cpp — an occupancy answer of either vendor in the one shape the printing faces
// take (occ/io/table.hpp, OccupancyView). The vendor is resolved here once (request_vendor); each
// vendor's rules keep their own answer (answer_occupancy, answer_amd_occupancy) and table builder.
#include "occ/explain.hpp"
#include "occ/format.hpp"
#include "occ/io/amd.hpp"
#include "occ/io/table.hpp"

namespace occ::io {
namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

}  // namespace

OccupancyView occupancy_view(const OccupancyAnswer& a) {
    const OccupancyRequest& q = a.input;
    const OccupancyResult& r = a.result;
    const Device& d = q.device;
    OccupancyView v;
    v.name = d.name;
    v.device = "cc " + str(d.arch.cc_major) + "." + str(d.arch.cc_minor) + " " + d.arch.family + ", " + str(d.sm_count) + " SMs";
    const WaveResult waves = compute_waves(r, d.sm_count, q.launch.grid_blocks, q.kernel.regs_per_thread);
    v.rows = occupancy_table(q, r, &waves);
    v.kernel = row_value(v.rows, RowId::block) + ", " + str(q.kernel.regs_per_thread) + " regs/thread, smem " +
               row_value(v.rows, RowId::shared_memory) + ", carveout " + row_value(v.rows, RowId::carveout);
    v.per = "SM";
    v.limit_column = "blocks/SM";
    if (!r.ok()) v.error = r.error_message();
    v.ok = r.ok();
    v.occupancy = r.occupancy;
    v.what = "Theoretical occupancy = resident warps per SM / maximum warps per SM.";
    v.counts = str(r.blocks_per_sm) + (r.blocks_per_sm == 1 ? " block" : " blocks") + " · " + str(r.warps_per_sm) + " of " +
               str(r.max_warps_per_sm) + " warps · " + format_count(r.threads_per_sm) + " threads per SM";
    v.summary = summarize(r);
    // The step function of a sweep: one line per range of the swept input with the same answer.
    v.sweep_input = a.sweep_input;
    const bool bytes = a.sweep_input == "smem_dynamic";
    const auto& pts = a.sweep;
    for (std::size_t i = 0; i < pts.size(); ++i) {
        const bool change = i == 0 || pts[i].blocks_per_sm != pts[i - 1].blocks_per_sm || pts[i].limiters != pts[i - 1].limiters;
        if (!change && i + 1 != pts.size()) continue;
        v.sweep.push_back({bytes ? format_bytes(pts[i].x) : str(pts[i].x), str(pts[i].blocks_per_sm), format_percent(pts[i].occupancy),
                           limiter_labels(pts[i].limiters, ", ")});
    }
    v.answer = to_json(a);
    return v;
}

OccupancyView occupancy_view(const AmdAnswer& a) {
    OccupancyView v;
    if (!a.input.arch) return v;
    const amd::AmdArch& arch = *a.input.arch;
    const amd::AmdOccupancyResult& r = a.result;
    v.per = r.wgp_mode ? "WGP" : "CU";
    if (a.input.gpu) {
        v.name = a.input.gpu->name;
        v.device = "AMD " + std::string(arch.isa) + " " + std::string(arch.family) + ", " + str(a.input.gpu->sm_count) + " CUs";
    } else {
        v.name = arch.isa;
        v.device = "AMD " + std::string(arch.family) + " (one " + v.per + ")";
    }
    v.rows = amd_occupancy_table(a);
    v.kernel = row_value(v.rows, RowId::block) + ", " + row_value(v.rows, RowId::registers) + ", LDS " +
               row_value(v.rows, RowId::shared_memory);
    v.limit_column = "groups/" + v.per;
    if (!r.ok()) v.error = r.error_message;
    v.ok = r.ok();
    v.occupancy = r.occupancy;
    v.what = "Occupancy = resident waves per SIMD / the most a SIMD holds (what AMD's tools call occupancy).";
    const TableRow* active = find_row(v.rows, RowId::active);
    if (r.ok())
        v.counts = str(r.waves_per_simd) + " of " + str(r.max_waves_per_simd) + " waves per SIMD · " +
                   (active ? active->key + ": " + active->value : std::string());
    v.summary = row_value(v.rows, RowId::summary);
    v.answer = to_json(a);
    return v;
}

Result<OccupancyView> occupancy_view(const json& request) {
    auto view = [](const auto& a) { return a ? Result<OccupancyView>::ok(occupancy_view(*a)) : Result<OccupancyView>::fail(a.error); };
    if (request_vendor(request) == Vendor::amd) return view(answer_amd_occupancy(request));
    return view(answer_occupancy(request));
}

json to_json(const OccupancyView& v) { return v.answer; }

}  // namespace occ::io
