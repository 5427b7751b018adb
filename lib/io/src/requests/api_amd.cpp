// api_amd.cpp — the occupancy request and answer for AMD GPUs (occ/io/amd.hpp).
#include "occ/io/amd.hpp"

#include <algorithm>
#include <climits>

#include "occ/amd_advisor.hpp"
#include "occ/format.hpp"
#include "occ/io/schema.hpp"
#include "occ/text.hpp"

namespace occ::io {
namespace {

namespace F = fields;
using namespace occ::amd;

// The fields an AMD request takes: its target, threads or block, id and the bound fields (the
// AMD-only ones among them); every other field of the kind is NVIDIA-only.
bool amd_takes(const FieldSpec* spec) {
    for (const FieldSpec* s : {&F::gpu, &F::arch, &F::threads, &F::block, &F::id})
        if (s == spec) return true;
    for (const FieldBinding<AmdRequest>& b : amd_bindings())
        if (b.spec == spec) return true;
    return false;
}

int clamp_int(std::int64_t v) { return static_cast<int>(std::clamp<std::int64_t>(v, INT_MIN, INT_MAX)); }

std::string str(std::int64_t v) { return std::to_string(v); }

// echo_bound's writer into a JSON object.
struct JsonWriter {
    json& j;
    template <typename T>
    void field(std::string_view key, const T& v) {
        j[std::string(key)] = v;
    }
};

}  // namespace

AmdRequest amd_target(std::string_view name) {
    AmdRequest r;
    if (const GpuEntry* g = lookup_amd_gpu(name)) {
        r.gpu = g;
        r.arch = amd_arch_of(*g);
    } else {
        r.arch = find_amd_arch(name);
    }
    return r;
}

Vendor request_vendor(const json& request) {
    if (!request.is_object()) return Vendor::nvidia;
    if (auto it = request.find("arch"); it != request.end() && !it->is_null()) return Vendor::amd;
    auto it = request.find("gpu");
    const bool amd = it != request.end() && it->is_string() && amd_target(it->get<std::string>()).arch != nullptr;
    return amd ? Vendor::amd : Vendor::nvidia;
}

json target_defaults(const json& request) {
    if (request_vendor(request) != Vendor::amd) return nullptr;
    const auto arch = request.find("arch"), gpu = request.find("gpu");
    const json* name = arch != request.end() ? &*arch : gpu != request.end() ? &*gpu : nullptr;
    if (!name || !name->is_string()) return json::object();
    const AmdRequest t = amd_target(name->get<std::string>());
    return t.arch ? amd_request_to_json(t) : json::object();
}

std::string amd_target_name(const AmdRequest& r) { return r.gpu ? std::string(r.gpu->name) : std::string(r.arch->isa); }

std::string amd_device_words(const AmdRequest& r) {
    return r.gpu ? std::string(r.gpu->name) + " is an AMD GPU" : std::string(r.arch->isa) + " is an AMD target";
}

AmdRequest read_amd_target(FieldReader& f) {
    AmdRequest r;
    if (f.has(F::arch)) {
        if (f.has(F::gpu)) f.fail("arch", "give gpu or arch, not both");
        const std::string isa = f.string(F::arch);
        r = amd_target(isa);
        if (!r.arch || r.gpu) f.fail("arch", "unknown AMD target \"" + isa.substr(0, 40) + "\"; known: " + amd_target_list());
    } else {
        const std::string name = f.string(F::gpu);
        r = amd_target(name);
        if (!r.arch) f.fail("gpu", unknown_gpu_message(name));
    }
    return r;
}

AmdRequest read_amd_request(FieldReader& f, std::string_view kind, std::span<const FieldSpec* const> also) {
    AmdRequest r = read_amd_target(f);
    // The NVIDIA-only fields of the kind, by name; `also` are the kind's own fields the caller reads.
    auto in_also = [&also](std::string_view key) {
        for (const FieldSpec* s : also)
            if (s->key == key) return true;
        return false;
    };
    std::string takes = "threads or block";
    for (const FieldBinding<AmdRequest>& b : amd_bindings()) join_into(takes, ", ", b.spec->key);
    for (const FieldSpec* s : also) join_into(takes, ", ", s->key);
    for (const FieldSpec* s : find_kind(kind)->fields)
        if (!amd_takes(s) && !in_also(s->key) && f.has(*s))
            f.fail(s->key, "applies to NVIDIA GPUs only; " + amd_device_words(r) + " (AMD takes " + takes + ")");
    const AmdArch& a = *r.arch;
    // HIP's maxThreadsDim is the workgroup maximum in every dimension (z too, unlike CUDA's 64).
    if (f.has(F::block)) {
        r.block = {1, 1, 1};
        r.launch.threads = clamp_int(read_block(f, a.max_threads_per_workgroup, a.max_threads_per_workgroup, r.block));
    } else {
        r.launch.threads = clamp_int(f.integer(F::threads));
        r.block = {r.launch.threads, 1, 1};
    }
    read_bound(f, amd_bindings(), r);
    if (r.launch.cu_mode && !a.has_wgp_mode)
        f.fail("cu_mode", "applies to RDNA targets only (a WGP of two CUs); " + std::string(a.isa) + " runs a workgroup on one CU");
    return r;
}

void refuse_amd_fields(FieldReader& f, const std::string& device_name) {
    for (const FieldSpec* s : amd_only_fields())
        if (f.has(*s)) f.fail(s->key, "applies to AMD GPUs only (gpu MI300X, or arch gfx942); " + device_name + " is an NVIDIA GPU");
}

Result<AmdRequest> read_amd_request(const json& request, std::string_view context) {
    return read_with<AmdRequest>(request, context, [](FieldReader& f) { return read_amd_request(f); });
}

json amd_request_to_json(const AmdRequest& r) {
    json j;
    if (r.gpu) j["gpu"] = r.gpu->name;
    else j["arch"] = r.arch ? std::string(r.arch->isa) : std::string();
    if (r.block[1] > 1 || r.block[2] > 1) j["block"] = {r.block[0], r.block[1], r.block[2]};
    else j["threads"] = r.launch.threads;
    JsonWriter w{j};
    echo_bound(w, amd_bindings(), r);
    return j;
}

json amd_device_to_json(const AmdRequest& r) {
    const AmdArch& a = *r.arch;
    json d;
    d["name"] = amd_target_name(r);
    d["vendor"] = "AMD";
    d["isa"] = a.isa;
    d["family"] = a.family;
    d["compute_units"] = r.gpu ? json(r.gpu->sm_count) : json(nullptr);
    d["default_wave_size"] = a.default_wave_size;
    d["wave_sizes"] = a.wave32 ? json::array({32, 64}) : json::array({64});
    d["simds_per_cu"] = a.simds_per_cu;
    d["wgp_mode"] = a.has_wgp_mode;
    d["max_waves_per_simd"] = a.max_waves_per_simd;
    d["vgprs_per_simd_wave64"] = a.vgprs_wave64;
    d["vgprs_per_simd_wave32"] = a.wave32 ? json(a.vgprs_wave32) : json(nullptr);
    d["agprs"] = a.agprs == AgprFile::none ? "none" : a.agprs == AgprFile::unified ? "unified" : "separate";
    d["sgprs_limit_occupancy"] = a.sgprs == SgprRule::gfx9;
    d["lds_per_cu"] = a.lds_per_cu;
    d["lds_per_workgroup"] = a.lds_per_workgroup;
    d["lds_granule"] = a.lds_granule;
    d["barriers_per_cu"] = a.barriers_per_cu;
    d["max_threads_per_workgroup"] = a.max_threads_per_workgroup;
    d["source"] = r.gpu ? std::string(r.gpu->source) + "; rules: docs/AMD.md" : std::string("rules: docs/AMD.md");
    return d;
}

json amd_result_to_json(const AmdOccupancyResult& r) {
    json j;
    j["vendor"] = "AMD";
    j["blocks_per_sm"] = r.workgroups_per_cu;
    j["warps_per_sm"] = r.waves_per_cu;
    j["threads_per_sm"] = static_cast<std::int64_t>(r.waves_per_cu) * r.wave_size;
    j["occupancy"] = r.occupancy;
    j["warps_per_block"] = r.waves_per_workgroup;
    j["max_warps_per_sm"] = r.max_waves_per_simd * r.simds;
    j["unit"] = r.wgp_mode ? "WGP" : "CU";
    j["waves_per_simd"] = r.waves_per_simd;
    j["max_waves_per_simd"] = r.max_waves_per_simd;
    j["simds"] = r.simds;
    j["wave_size"] = r.wave_size;
    json limits = json::object();
    json limiters = json::array();
    for (const AmdLimiterInfo& li : amd_limiters()) {
        const int v = amd_limit_of(r, li.bit);
        limits[li.key] = v == kAmdUnlimited ? json(nullptr) : json(v);
        if (r.limiters & li.bit) limiters.push_back(li.key);
    }
    j["limits"] = limits;
    j["limiters"] = limiters;
    j["vgprs_allocated"] = r.vgprs_allocated;
    j["vgpr_file"] = r.vgpr_file;
    j["waves_per_simd_vgprs"] = r.waves_per_simd_vgprs;
    j["waves_per_simd_sgprs"] = r.waves_per_simd_sgprs;
    j["lds_per_workgroup_allocated"] = r.lds_allocated;
    j["lds_per_cu"] = r.lds_per_cu;
    j["llvm_waves_per_simd"] = r.ok() ? json(r.llvm_waves_per_simd) : json(nullptr);
    j["why"] = amd_explain(r);
    const std::string fix = amd_fix(r);
    j["fix"] = fix.empty() ? json(nullptr) : json(fix);
    j["error"] = r.ok() ? json(nullptr) : json(r.error_message);
    return j;
}

Result<AmdAnswer> answer_amd_occupancy(const json& request) {
    return answer_with<AmdAnswer>(request, "occupancy request", [](FieldReader& f, AmdAnswer& a) {
        a.input = read_amd_request(f);
        f.finish();
        a.result = compute_amd_occupancy(*a.input.arch, a.input.kernel, a.input.launch);
        // Out-of-range inputs are refused like the CUDA side's (a RequestError naming the field);
        // a launch that fails (registers that do not fit, more threads than the kernel's
        // max_flat_workgroup_size: amd_launch_fails) is an answer with its error.
        if (!a.result.ok() && !amd_launch_fails(a.result.error)) throw RequestError(a.result.error_message);
    });
}

json to_json(const AmdAnswer& a) {
    json j = amd_result_to_json(a.result);
    j["device"] = amd_device_to_json(a.input);
    j["input"] = amd_request_to_json(a.input);
    if (!a.id.is_null()) j["id"] = a.id;
    return j;
}

std::vector<TableRow> amd_occupancy_table(const AmdAnswer& a) {
    const AmdOccupancyResult& r = a.result;
    const std::string unit = r.wgp_mode ? "WGP" : "CU";
    std::vector<TableRow> rows;
    add_row(rows, RowKind::input, RowId::block, "Workgroup",
            format_count(a.input.launch.threads) + " threads (" + str(r.waves_per_workgroup) + " wave" +
                (r.waves_per_workgroup == 1 ? "" : "s") + " of " + str(r.wave_size) + ")");
    add_row(rows, RowKind::input, RowId::registers, "Registers",
            str(a.input.kernel.vgprs) + " VGPRs" + (a.input.kernel.agprs ? " + " + str(a.input.kernel.agprs) + " AGPRs" : std::string()) +
                " per lane, " + str(a.input.kernel.sgprs) + " SGPRs");
    add_row(rows, RowKind::input, RowId::shared_memory, "LDS per workgroup",
            format_bytes(a.input.kernel.lds_bytes) + " static + " + format_bytes(a.input.launch.lds_dynamic) + " dynamic");
    add_row(rows, RowKind::result, RowId::occupancy, "Occupancy",
            r.ok() ? str(r.waves_per_simd) + " of " + str(r.max_waves_per_simd) + " waves per SIMD (" + format_percent(r.occupancy) + ")"
                   : std::string("n/a"));
    add_row(rows, RowKind::result, RowId::active, "Active per " + unit,
            str(r.workgroups_per_cu) + " workgroups, " + str(r.waves_per_cu) + " waves over " + str(r.simds) + " SIMDs");
    add_row(rows, RowKind::result, RowId::summary, "Summary",
            r.ok() ? "limited by " + amd_limiter_list(r.limiters, ", ") : "launch fails: " + r.error_message);
    if (r.ok() && r.llvm_waves_per_simd != r.waves_per_simd)
        add_row(rows, RowKind::result, RowId::estimate, "LLVM's estimate", str(r.llvm_waves_per_simd) + " waves per SIMD",
                "llc's `; Occupancy:` counts LDS unrounded, registers per SIMD without whole workgroups, and SGPRs without the trap "
                "handler's (docs/AMD.md)");
    for (const AmdLimiterInfo& li : amd_limiters()) {
        const int v = amd_limit_of(r, li.bit);
        TableRow& row = add_row(rows, RowKind::limit, RowId::other, li.title,
                                v == kAmdUnlimited ? "no limit" : str(v) + (v == 1 ? " workgroup" : " workgroups"),
                                amd_limit_note(r, static_cast<AmdLimiter>(li.bit)));
        row.limiter = &li;
        row.hit = (r.limiters & li.bit) != 0;
        row.count = v == kAmdUnlimited ? "-" : str(v);
        row.per = "Workgroups per " + unit;
    }
    add_row(rows, RowKind::allocated, RowId::other, "VGPRs / lane",
            str(r.vgprs_allocated) + " of " + str(r.vgpr_file) + " per SIMD (" + str(r.waves_per_simd_vgprs) + " waves per SIMD)");
    add_row(rows, RowKind::allocated, RowId::other, "LDS / workgroup",
            format_bytes(r.lds_allocated) + " of " + format_bytes(r.lds_per_cu) + " per " + unit);
    if (const std::string fix = amd_fix(r); !fix.empty()) add_row(rows, RowKind::result, RowId::fix, "To fit more", fix);
    // The waves of the grid over the GPU's CUs (a bare target has no CU count).
    if (r.ok() && a.input.gpu)
        add_wave_rows(rows, amd_waves(r, a.input.gpu->sm_count, a.input.grid), a.input.grid, r.occupancy, amd_words(r));
    return rows;
}

std::string amd_target_list() {
    std::string s;
    for (const AmdArch& a : amd_archs()) join_into(s, ", ", a.isa);
    return s;
}

}  // namespace occ::io
