// results.cpp — turning one measurement into one report case.
#include <cstdio>

#include "occ/validation/cases.hpp"
#include "occ/validation/tools.hpp"

namespace occ::validation {

std::string memory_kernel_name(const MemCase& c) {
    return std::string("occv_") + (c.kind == Kind::coalescing ? "g" : "s") + (c.store ? "st_" : "ld_") + std::to_string(c.elem_size);
}

std::vector<const NcuLaunch*> match_launches(const std::vector<NcuLaunch>& launches, std::size_t case_count) {
    std::vector<const NcuLaunch*> out(case_count, nullptr);
    for (const NcuLaunch& l : launches) {
        if (l.grid_x < 1) continue;
        const auto i = static_cast<std::size_t>(l.grid_x - 1);
        if (i < case_count && out[i] == nullptr) out[i] = &l;
    }
    return out;
}

namespace {

std::optional<std::int64_t> metric(const NcuLaunch* l, const std::string& name) {
    if (!l) return std::nullopt;
    const auto it = l->metrics.find(name);
    if (it == l->metrics.end()) return std::nullopt;
    return it->second;
}

}  // namespace

Case memory_result(const MemCase& c, const NcuLaunch* launch, std::optional<std::int64_t> sass_width, const ArchRules* arch) {
    Case r;
    r.kind = c.kind;
    r.id = c.id;
    r.description = c.description;
    r.inputs = c.inputs();
    r.inputs["kernel"] = memory_kernel_name(c);
    const std::string op = c.store ? "st" : "ld";
    if (c.kind == Kind::coalescing) {
        const GlobalPrediction p = predict_global(c);
        r.checks.push_back(
            {"requests", p.requests, std::nullopt, metric(launch, "l1tex__t_requests_pipe_lsu_mem_global_op_" + op + ".sum")});
        r.checks.push_back({"sectors", p.sectors, std::nullopt, metric(launch, "l1tex__t_sectors_pipe_lsu_mem_global_op_" + op + ".sum")});
    } else {
        const SharedPrediction p = predict_shared(c, arch);
        r.checks.push_back(
            {"instructions", p.instructions, std::nullopt, metric(launch, "smsp__sass_inst_executed_op_shared_" + op + ".sum")});
        r.checks.push_back(
            {"wavefronts", p.wavefronts, std::nullopt, metric(launch, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" + op + ".sum")});
        r.checks.push_back({"bank_conflicts", p.conflicts, std::nullopt,
                            metric(launch, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + op + ".sum")});
    }
    // Only meaningful when some lane accesses memory: with no active lane the instruction still exists.
    r.checks.push_back({"sass_width_bytes", expected_sass_width(c.elem_size), std::nullopt, sass_width});
    if (sass_width && *sass_width < 0) r.note = "cuobjdump: several access widths in " + memory_kernel_name(c);
    return r;
}

Case occupancy_result(const OccMeasurement& m) {
    Case r;
    r.kind = Kind::occupancy;
    char id[160];
    std::snprintf(id, sizeof id, "occ/%s/t%d/d%lld/c%d%s", m.kernel.c_str(), m.config.threads,
                  static_cast<long long>(m.config.dynamic_smem), m.config.carveout, m.config.optin ? "/optin" : "");
    r.id = id;
    r.inputs = json{{"kernel", m.kernel},
                    {"threads", m.config.threads},
                    {"regs", m.regs},
                    {"smem_static", m.static_smem},
                    {"smem_dynamic", m.config.dynamic_smem},
                    {"carveout", m.config.carveout},
                    {"optin", m.config.optin},
                    {"local_bytes", m.local_bytes},
                    {"max_threads_per_block", m.max_threads},
                    {"model_limiter", m.model_limiter}};
    if (!m.counters.empty()) r.inputs["counters"] = m.counters;
    Check k{"blocks_per_sm", m.model, std::nullopt, std::nullopt};
    if (m.runtime) k.runtime = *m.runtime;
    if (m.measured) k.measured = *m.measured;
    r.checks.push_back(k);
    r.note = m.note;
    return r;
}

Case device_constant(const std::string& name, std::int64_t occ_value, std::optional<std::int64_t> prop,
                     std::optional<std::int64_t> attribute, const std::string& description) {
    Case r;
    r.kind = Kind::device;
    r.id = "device/" + name;
    r.description = description;
    r.checks.push_back({name, occ_value, prop, attribute});
    return r;
}

}  // namespace occ::validation
