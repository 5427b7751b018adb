// ptxas_request.cpp — the "ptxas" request kind: occupancy for every kernel of a compiler log, as
// the JSON answer that `occ occupancy --ptxas`, --batch and window.occ share.
#include <algorithm>
#include <string>
#include <vector>

#include "occ/device.hpp"
#include "occ/io/api.hpp"
#include "occ/io/fields.hpp"
#include "occ/io/ptxas.hpp"
#include "occ/occupancy.hpp"

namespace occ::io {

namespace {

json cmem_json(const PtxasKernel& k) {
    json j = json::object();
    for (const auto& [bank, bytes] : k.cmem) j[std::to_string(bank)] = bytes;
    return j;
}

json kernel_json(const PtxasKernel& k) {
    return json{
        {"name", k.name},
        {"mangled", k.mangled},
        {"arch", k.arch},
        {"entry", k.entry},
        {"registers", k.registers < 0 ? json(nullptr) : json(k.registers)},
        {"smem_static", k.smem_static},
        {"barriers", k.barriers},
        {"stack_frame", k.stack_frame},
        {"spill_stores", k.spill_stores},
        {"spill_loads", k.spill_loads},
        {"cumulative_stack", k.cumulative_stack},
        {"local", k.local},
        {"cmem", cmem_json(k)},
        {"format", k.format},
        {"line", k.line},
    };
}

bool runs_on(const PtxasKernel& k, const ArchRules& a) { return cubin_runs_on(k.cc_major, k.cc_minor, a); }

}  // namespace

json api_ptxas(const json& request) {
    FieldReader f(request, "ptxas request");
    const json* id = f.raw("id");
    const json* log_field = f.raw("log");
    if (!log_field || !log_field->is_string())
        f.fail("log", "required: the text printed by nvcc -Xptxas -v or cuobjdump --dump-resource-usage");
    for (const char* from_log : {"regs", "smem_static", "barriers"})
        if (f.has(from_log)) f.fail(from_log, "comes from the log for each kernel; leave it out");
    const bool has_device = f.has("gpu") || f.has("cc") || f.has("device");
    const OccupancyRequest base = read_occupancy_request(f);
    f.finish();

    const std::string& text = log_field->get_ref<const std::string&>();
    const PtxasLog log = parse_ptxas_log(text);

    // With a device: for each kernel keep the highest compatible arch (what the runtime loads).
    std::vector<const PtxasKernel*> chosen;
    json skipped = json::array();
    for (const PtxasKernel& k : log.kernels) {
        if (!k.entry) continue;
        if (has_device && !runs_on(k, base.device.arch)) {
            skipped.push_back(json{{"name", k.name}, {"arch", k.arch},
                                   {"reason", "compiled for " + (k.arch.empty() ? std::string("an unknown arch") : k.arch) + ", which does not run on cc " +
                                                  std::to_string(base.device.arch.cc_major) + "." + std::to_string(base.device.arch.cc_minor)}});
            continue;
        }
        auto same = std::find_if(chosen.begin(), chosen.end(), [&](const PtxasKernel* c) {
            return c->mangled == k.mangled && (has_device || c->arch == k.arch);
        });
        if (same == chosen.end()) chosen.push_back(&k);
        else if (has_device && cc_older((*same)->cc_major, (*same)->cc_minor, k.cc_major, k.cc_minor)) {
            skipped.push_back(json{{"name", (*same)->name}, {"arch", (*same)->arch}, {"reason", "a newer compatible build (" + k.arch + ") is used"}});
            *same = &k;
        } else if (has_device) {
            skipped.push_back(json{{"name", k.name}, {"arch", k.arch}, {"reason", "a newer compatible build (" + (*same)->arch + ") is used"}});
        }
    }

    json rows = json::array();
    int with_spills = 0, failed = 0;
    for (const PtxasKernel* kp : chosen) {
        const PtxasKernel& k = *kp;
        json row = kernel_json(k);
        Device dev = base.device;
        if (!has_device) {
            auto d = device_for_cc(k.cc_major, k.cc_minor);
            if (!d) {
                row["occupancy"] = nullptr;
                row["error"] = k.arch.empty() ? std::string("the log does not say which architecture this kernel was compiled for; give gpu or cc")
                                              : "compute capability of " + k.arch + " is not modelled (known: " + supported_cc_list() + ")";
                ++failed;
                rows.push_back(row);
                continue;
            }
            dev = *d;
        }
        KernelResources kr = base.kernel;
        kr.regs_per_thread = k.registers < 0 ? 0 : std::min(k.registers, dev.arch.max_regs_per_thread);
        kr.smem_static = k.smem_static;
        kr.barriers = std::clamp(k.barriers, 0, 16);
        const OccupancyResult r = compute_occupancy(dev, kr, base.launch);
        json limiters = json::array();
        for (Limiter l : kAllLimiters)
            if (r.limiters & l) limiters.push_back(limiter_name(l));
        row["device"] = dev.name;
        row["occupancy"] = json{
            {"blocks_per_sm", r.blocks_per_sm},
            {"warps_per_sm", r.warps_per_sm},
            {"occupancy", r.occupancy},
            {"limiters", limiters},
            {"smem_per_block_allocated", r.smem_per_block_allocated},
            {"regs_per_block_allocated", r.regs_per_block_allocated},
        };
        row["error"] = r.ok() ? json(nullptr) : json(r.error);
        if (!r.ok()) ++failed;
        if (k.spill_stores > 0 || k.spill_loads > 0) {
            ++with_spills;
            row["note"] = "spills " + std::to_string(k.spill_stores) + " B stores / " + std::to_string(k.spill_loads) +
                          " B loads to local memory per thread";
        }
        rows.push_back(row);
    }
    json functions = json::array();
    for (const PtxasKernel& k : log.kernels)
        if (!k.entry) functions.push_back(kernel_json(k));

    json input = occupancy_request_to_json(base);
    for (const char* k : {"regs", "smem_static", "barriers"}) input.erase(k);
    if (!has_device) {
        input.erase("gpu");
        input.erase("cc");
    }
    json out{
        {"kernels", rows},
        {"functions", functions},
        {"skipped", skipped},
        {"summary",
         {{"kernels", rows.size()},
          {"device_functions", functions.size()},
          {"with_spills", with_spills},
          {"failed", failed},
          {"gmem", log.gmem},
          {"lines", log.lines},
          {"recognised_lines", log.recognised_lines},
          {"skipped_lines", log.skipped_lines}}},
        {"diagnostics", log.diagnostics},
        {"device", has_device ? json(base.device.name) : json(nullptr)},
        {"input", input},
    };
    if (rows.empty())
        out["error"] = log.kernels.empty() ? "no kernels found in the log: expected the output of nvcc -Xptxas -v or cuobjdump --dump-resource-usage"
                                           : "no kernel in the log runs on " + base.device.name;
    else out["error"] = nullptr;
    if (id) out["id"] = *id;
    return out;
}

}  // namespace occ::io
