// amd_eval.cpp — AMD kernels in the "ptxas" and "kernels" kinds (ptxas_eval.hpp): the AMD target and
// launch of the request, each AMD kernel's occupancy (occ/amd.hpp compute_amd_occupancy) on it or on
// its own target, and the row's AMD figures. A CUDA GPU with an AMD kernel, or an AMD GPU with a CUDA
// kernel, is a row error naming both (and the answer's error when every row is one).
#include <string>

#include "occ/io/amd.hpp"
#include "occ/io/rocprof.hpp"
#include "occ/io/schema.hpp"
#include "occ/text.hpp"
#include "ptxas_eval.hpp"

namespace occ::io {
namespace {

namespace F = fields;

template <typename T>
json opt(const std::optional<T>& v) {
    return v ? json(*v) : json(nullptr);
}

}  // namespace

bool read_amd_artefact_launch(FieldReader& f, PtxasAnswer& a, std::string_view artefact) {
    const json* gpu = f.has(F::gpu) ? f.raw(F::gpu) : nullptr;
    const bool amd_gpu = gpu && gpu->is_string() && amd_target(gpu->get<std::string>()).arch;
    if (!f.has(F::arch) && !amd_gpu) return false;
    for (const FieldSpec* s : {&F::regs, &F::smem_static, &F::agprs, &F::sgprs, &F::max_threads})
        if (f.has(*s)) f.fail(s->key, "comes from the " + std::string(artefact) + " for each kernel; leave it out");
    a.amd = read_amd_request(f);
    a.has_device = true;
    a.threads_given = f.has(F::threads) || f.has(F::block);
    a.smem_dynamic_given = f.has(F::smem_dynamic);
    a.input.launch.threads = a.amd->launch.threads;
    a.input.launch.smem_dynamic = a.amd->launch.lds_dynamic;
    return true;
}

void evaluate_amd(const PtxasAnswer& a, PtxasRow& row) {
    const PtxasKernel& k = a.log.kernels[row.kernel];
    if (!k.amd) {  // a CUDA kernel, an AMD device
        row.vendor_mismatch = true;
        row.error = "compiled for " + (k.arch.empty() ? std::string("an NVIDIA GPU") : k.arch + " (NVIDIA)") + ", but " +
                    amd_target_name(*a.amd) + " is an AMD GPU: give an NVIDIA gpu or cc, or leave the device out";
        return;
    }
    const std::string arch = k.arch.empty() ? std::string("an AMD target") : k.arch;
    if (a.has_device && !a.amd) {
        row.vendor_mismatch = true;
        row.error = "compiled for " + arch + " (AMD), but " + a.input.device.name +
                    " is an NVIDIA GPU: give an AMD gpu (MI300X) or arch (gfx942), or leave the device out";
        return;
    }
    AmdRequest target;
    if (a.amd) {
        target = *a.amd;
        if (!k.arch.empty() && k.arch != target.arch->isa) {
            row.error = "compiled for " + k.arch + ", which " + amd_target_name(target) + " (" + std::string(target.arch->isa) +
                        ") does not run (a code object runs on its own target only): give arch " + k.arch + ", or leave the device out";
            return;
        }
    } else {
        if (k.arch.empty()) {
            row.error = "the " + k.format +
                        " does not say which gfx target this kernel was compiled for; give gpu (MI300X) or arch (gfx942)";
            return;
        }
        target = amd_target(k.arch);
        if (!target.arch) {
            row.error = "occupancy not modelled for " + k.arch + " (occ models " + amd_target_list() + ")";
            return;
        }
        target.launch.threads = a.input.launch.threads;
        target.launch.lds_dynamic = a.input.launch.smem_dynamic;
    }
    const amd::AmdArch& arch_rules = *target.arch;
    const AmdResources& r = *k.amd;
    amd::AmdKernel kk;
    kk.agprs = r.agprs.value_or(0);
    if (k.registers) {
        kk.vgprs = *k.registers;
    } else if (r.vgprs_total) {
        // The file the kernel occupies: VGPRs aligned to 4, then AGPRs (gfx90a+); the larger (gfx908).
        kk.vgprs = arch_rules.agprs == amd::AgprFile::unified ? *r.vgprs_total - kk.agprs : *r.vgprs_total;
        row.notes.push_back("VGPRs from the total the artefact gives (" + std::to_string(*r.vgprs_total) + " with " +
                            std::to_string(kk.agprs) + " AGPRs)");
    } else {
        row.error = "the " + k.format + " gives no VGPR count for this kernel";
        return;
    }
    if (!r.agprs && arch_rules.agprs != amd::AgprFile::none)
        row.notes.push_back("the " + k.format + " gives no AGPR count: 0 AGPRs assumed");
    if (arch_rules.agprs == amd::AgprFile::none) kk.agprs = 0;
    if (r.sgprs) kk.sgprs = *r.sgprs;
    else if (arch_rules.sgprs == amd::SgprRule::none) kk.sgprs = 0;  // they never limit from gfx10
    else {
        row.error = "the " + k.format +
                    " gives no SGPR count (the assembly's ; NumSgprs: comment or the remark's SGPRs line), and SGPRs limit waves on " +
                    std::string(arch_rules.isa);
        return;
    }
    if (!k.smem_static) {
        row.error = "the " + k.format + " gives no LDS size for this kernel";
        return;
    }
    kk.lds_bytes = *k.smem_static;
    amd::AmdLaunch launch = target.launch;
    if (k.launch) {  // Triton (HIP backend): num_warps x warp_size work-items, `shared` bytes of dynamic LDS
        row.notes.push_back(artefact_launch_note(a, *k.launch));
        launch.threads = k.launch->threads;
        launch.lds_dynamic = k.launch->smem_dynamic;
    } else if (r.profile && r.profile->workgroup_size) {  // the profiled dispatch's workgroup; its LDS figure is the whole
        std::string note = "launch from the " + r.profile->from + ": workgroups of " + std::to_string(*r.profile->workgroup_size) +
                           " work-items, and its LDS figure is the dispatch's whole LDS (static and dynamic)";
        if (a.threads_given && launch.threads != *r.profile->workgroup_size)
            note += " (the request's " + std::to_string(launch.threads) + " threads are not used for it)";
        if (a.smem_dynamic_given && launch.lds_dynamic != 0)
            note += " (the request's smem_dynamic " + std::to_string(launch.lds_dynamic) + " B is not added)";
        row.notes.push_back(note);
        launch.threads = *r.profile->workgroup_size;
        launch.lds_dynamic = 0;
    } else if (r.profile) {
        row.notes.push_back(
            "the " + r.profile->from + " output does not give the workgroup size (rocprof-compute analyze -b 7.1 prints it): " +
            std::to_string(launch.threads) + " threads" + (a.threads_given ? " as the request says" : ", the default: give threads"));
    }
    if (r.wave_size && (*r.wave_size == 32 || *r.wave_size == 64)) {
        if (launch.wave_size != 0 && launch.wave_size != *r.wave_size)
            row.notes.push_back("compiled for wave" + std::to_string(*r.wave_size) + ": the request's wave_size " +
                                std::to_string(launch.wave_size) + " is not used for it");
        launch.wave_size = *r.wave_size;
    }
    if (r.max_workgroup_size) kk.max_threads = *r.max_workgroup_size;
    amd::AmdOccupancyResult res = amd::compute_amd_occupancy(arch_rules, kk, launch);
    row.amd_device = amd_target_name(target);
    if (!res.ok()) {
        row.error = res.error_message;
        return;
    }
    if (r.llvm_occupancy && *r.llvm_occupancy != res.waves_per_simd)
        row.notes.push_back("LLVM's estimate in the " + k.format + ": " + std::to_string(*r.llvm_occupancy) +
                            " waves per SIMD; occ: " + std::to_string(res.waves_per_simd) + " (docs/AMD.md says where they differ)");
    row.amd_result = std::move(res);
}

void amd_kernel_json(const PtxasKernel& k, json& row) {
    if (!k.amd) return;
    const AmdResources& r = *k.amd;
    json& res = row["resources"];
    res["vgprs"] = opt(k.registers);
    res["agprs"] = opt(r.agprs);
    res["vgprs_total"] = opt(r.vgprs_total);
    res["sgprs"] = opt(r.sgprs);
    res["lds"] = opt(k.smem_static);
    res["scratch"] = opt(k.stack_frame);
    res["sgpr_spills"] = opt(r.sgpr_spills);
    res["vgpr_spills"] = opt(r.vgpr_spills);
    res["dynamic_stack"] = opt(r.dynamic_stack);
    res["wave_size"] = opt(r.wave_size);
    res["max_workgroup_size"] = opt(r.max_workgroup_size);
    res["kernarg_bytes"] = opt(r.kernarg_bytes);
    res["llvm_occupancy"] = opt(r.llvm_occupancy);
    res["cmem"] = nullptr;
    json unread = json::object();
    for (const auto& [field, why] : r.unread) unread[field] = why;
    row["unread"] = unread;
    if (r.profile) row["profile"] = rocprof_profile_json(*r.profile);  // measured: never mixed with "occupancy"
    row["target"] = r.target.empty() ? json(nullptr) : json(r.target);
    row["vendor"] = "AMD";
}

std::string vendor_mismatch_error(const PtxasAnswer& a) {
    if (a.rows.empty()) return {};
    for (const PtxasRow& row : a.rows)
        if (!row.vendor_mismatch) return {};
    return a.rows.front().error;
}

}  // namespace occ::io
