// ncu_request.cpp — the "ncu" request kind: each kernel of a report next to occ's prediction for
// the same launch on the same device (see occ/io/ncu.hpp).
//
// [SECTION] The device: from the report's compute capability and SM count, or the request
// [SECTION] The prediction, in ncu's terms
// [SECTION] Differences, each with its reason
// [SECTION] JSON
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "occ/format.hpp"
#include "occ/io/fields.hpp"
#include "occ/io/ncu.hpp"
#include "occ/io/schema.hpp"
#include "occ/waves.hpp"

namespace occ::io {
namespace {

// [SECTION] The device

std::optional<std::int64_t> whole(const NcuKernel& k, const char* key);

struct Identified {
    std::optional<Device> device;
    std::string how;
};

Identified identify(const NcuKernel& k, const std::optional<Device>& given) {
    Identified id;
    std::int64_t sms = whole(k, "sms").value_or(0);  // 0: not in the report
    if (sms < 1 || sms > 4096) sms = 0;
    if (given) {
        id.device = *given;
        id.how = "given in the request";
        if (sms > 0) id.device->sm_count = static_cast<int>(sms);
        return id;
    }
    if (k.cc_major == 0) return id;
    if (!k.device.empty() && k.device.rfind("Device ", 0) != 0) {
        if (auto d = find_gpu(k.device);
            d && d->arch.cc_major == k.cc_major && d->arch.cc_minor == k.cc_minor && (sms == 0 || d->sm_count == sms)) {
            id.device = *d;
            id.how = "by name (\"" + k.device + "\")";
            return id;
        }
    }
    if (sms > 0) {
        std::vector<std::string> names;
        for (const GpuEntry& g : all_gpus())
            if (g.cc_major == k.cc_major && g.cc_minor == k.cc_minor && g.sm_count == sms) names.emplace_back(g.name);
        if (!names.empty()) {
            id.device = find_gpu(names.front());
            id.how = "cc " + std::to_string(k.cc_major) + "." + std::to_string(k.cc_minor) + " with " +
                     std::to_string(names.front().empty() ? 0 : id.device->sm_count) + " SMs" +
                     (names.size() > 1 ? " (also " + std::to_string(names.size() - 1) + " other GPU(s) with the same figures)" : "");
            return id;
        }
    }
    if (auto d = device_for_cc(k.cc_major, k.cc_minor)) {
        id.device = *d;
        if (sms > 0) {
            id.device->sm_count = static_cast<int>(sms);
            id.device->name = "cc " + std::to_string(k.cc_major) + "." + std::to_string(k.cc_minor) + " with " +
                              std::to_string(id.device->sm_count) + " SMs";
            id.how = "no GPU in occ's list has cc " + std::to_string(k.cc_major) + "." + std::to_string(k.cc_minor) + " and " +
                     std::to_string(id.device->sm_count) + " SMs: a device of that compute capability with the report's SM count";
        } else {
            id.how = "compute capability only (the report has no # SMs): waves use one SM";
        }
    }
    return id;
}

// [SECTION] The prediction

std::optional<std::int64_t> whole(const NcuKernel& k, const char* key) {
    const NcuValue* v = k.get(key);
    if (!v || !(std::fabs(v->value) < 1e15)) return std::nullopt;  // no count in a report is this large
    return static_cast<std::int64_t>(std::llround(v->value));
}

void fill_predicted(NcuKernelAnswer& a);
void fill_differences(NcuKernelAnswer& a);

}  // namespace

DriverSmem predict_driver_smem(const Device& dev, const KernelResources& k, const OccupancyResult& r) {
    DriverSmem d;
    const DriverSmemConfig c = driver_smem_config(dev.arch, k, r);
    d.config = c.bytes;
    d.block_limit = c.block_limit;
    d.may_be_larger = c.may_be_larger;
    if (c.bytes < 0) return d;
    d.rule = c.rule;  // the fitted rule in words (occ::driver_smem_config)
    return d;
}

AchievedBound achieved_bound(const Device& dev, const OccupancyResult& r, std::int64_t grid) {
    AchievedBound b;
    if (!r.ok() || grid <= 0 || r.blocks_per_sm <= 0 || r.max_warps_per_sm <= 0) return b;
    const std::int64_t per_wave = static_cast<std::int64_t>(r.blocks_per_sm) * dev.sm_count;
    if (grid >= per_wave) {
        b.occupancy = r.occupancy;
        b.why = "the grid fills every SM (" + format_count(grid) + " blocks, " + format_count(per_wave) +
                " per wave): at most the theoretical occupancy, less for a partial last wave and uneven block run times";
        return b;
    }
    const std::int64_t busy = std::min<std::int64_t>(grid, dev.sm_count);
    const std::int64_t per_sm = std::min<std::int64_t>((grid + busy - 1) / busy, r.blocks_per_sm);
    const std::int64_t warps = per_sm * r.warps_per_block;
    b.occupancy = static_cast<double>(warps) / r.max_warps_per_sm;
    b.why = format_count(grid) + " blocks on " + std::to_string(dev.sm_count) + " SMs: each busy SM holds at most " +
            std::to_string(per_sm) + (per_sm == 1 ? " block" : " blocks") + " of " + std::to_string(r.warps_per_block) +
            " warps = " + std::to_string(warps) + " of " + std::to_string(r.max_warps_per_sm) + " warps, " + format_percent(b.occupancy);
    return b;
}

Result<NcuAnswer> answer_ncu(const json& request) {
    return answer_with<NcuAnswer>(request, "ncu request", [](FieldReader& f, NcuAnswer& a) {
        const json* text = f.raw(fields::ncu_text);
        if (!text || !text->is_string())
            f.fail("text", "required: the text of an Nsight Compute report (ncu output, --csv --page details or raw)");
        std::optional<Device> given;
        if (f.has(fields::gpu) || f.has(fields::cc) || f.has(fields::device)) given = read_device(f);
        f.finish();
        a.report = parse_ncu(text->get_ref<const std::string&>());
        for (const NcuKernel& k : a.report.kernels) a.kernels.push_back(compare_ncu_kernel(k, given));
    });
}

NcuKernelAnswer compare_ncu_kernel(const NcuKernel& k, const std::optional<Device>& given) {
    NcuKernelAnswer out;
    out.measured = k;
    out.diagnostics = k.diagnostics;
    const Identified id = identify(k, given);
    if (!id.device) {
        out.diagnostics.push_back("no prediction: the compute capability is unknown");
        return out;
    }
    out.device = id.device;
    out.device_how = id.how;
    OccupancyRequest req;
    req.device = *id.device;
    const auto block = whole(k, "block_size");
    if (k.block) {
        for (int i = 0; i < 3; ++i)
            req.block[i] = static_cast<int>(std::clamp<std::int64_t>((*k.block)[static_cast<std::size_t>(i)], 1, 1 << 20));
        req.launch.threads = req.block[0] * req.block[1] * req.block[2];
    } else if (block) {
        req.launch.threads = static_cast<int>(std::clamp<std::int64_t>(*block, 1, 1 << 20));
        req.block[0] = req.launch.threads;
    } else {
        out.diagnostics.push_back("no prediction: the block size is not in the report");
        return out;
    }
    const auto regs = whole(k, "registers_per_thread");
    if (!regs) {
        out.diagnostics.push_back("no prediction: Registers Per Thread is not in the report");
        return out;
    }
    req.kernel.regs_per_thread = static_cast<int>(std::clamp<std::int64_t>(*regs, 0, 1 << 16));
    req.kernel.smem_static = whole(k, "static_shared_memory_per_block").value_or(0);
    req.launch.smem_dynamic = whole(k, "dynamic_shared_memory_per_block").value_or(0);
    if (!k.get("static_shared_memory_per_block")) out.diagnostics.push_back("Static Shared Memory Per Block not in the report: 0 assumed");
    if (!k.get("dynamic_shared_memory_per_block"))
        out.diagnostics.push_back("Dynamic Shared Memory Per Block not in the report: 0 assumed");
    // A kernel with more than 48 KB per block has opted in: ncu only shows launches that ran.
    req.kernel.optin = req.kernel.smem_static + req.launch.smem_dynamic > req.device.arch.smem_per_block;
    // The grid in blocks, within what occ accepts for a launch (2^31 x 65535 x 65535 would overflow).
    const double grid = k.grid ? static_cast<double>((*k.grid)[0]) * static_cast<double>((*k.grid)[1]) * static_cast<double>((*k.grid)[2])
                        : k.get("grid_size") ? k.get("grid_size")->value
                                             : 0.0;
    if (grid >= 1 && grid <= 1e15) req.launch.grid_blocks = static_cast<std::int64_t>(grid);
    else if (grid > 1e15) out.diagnostics.push_back("grid size too large to be a launch: waves and achieved occupancy not predicted");
    out.launch = req;
    out.result = compute_occupancy(req.device, req.kernel, req.launch);
    out.driver = predict_driver_smem(req.device, req.kernel, out.result);
    out.achieved = achieved_bound(req.device, out.result, req.launch.grid_blocks);
    fill_predicted(out);
    fill_differences(out);
    return out;
}

// [SECTION] Differences
namespace {

void fill_predicted(NcuKernelAnswer& a) {
    const OccupancyResult& r = a.result;
    const OccupancyRequest& q = *a.launch;
    const Device& d = q.device;
    auto opt_limit = [](int v) { return v == kUnlimited ? std::optional<double>() : std::optional<double>(v); };
    const bool ok = r.ok();
    std::optional<double> waves;
    if (ok && q.launch.grid_blocks > 0 && r.blocks_per_sm > 0)
        waves = static_cast<double>(q.launch.grid_blocks) / (static_cast<double>(r.blocks_per_sm) * d.sm_count);
    auto when_ok = [&](double v) { return ok ? std::optional<double>(v) : std::nullopt; };
    a.predicted = {
        {"block_size", q.launch.threads},
        {"grid_size", q.launch.grid_blocks > 0 ? std::optional<double>(static_cast<double>(q.launch.grid_blocks)) : std::nullopt},
        {"registers_per_thread", q.kernel.regs_per_thread},
        {"static_shared_memory_per_block", static_cast<double>(q.kernel.smem_static)},
        {"dynamic_shared_memory_per_block", static_cast<double>(q.launch.smem_dynamic)},
        {"driver_shared_memory_per_block", static_cast<double>(d.arch.smem_reserved_per_block)},
        {"shared_memory_configuration_size",
         a.driver.config >= 0 ? std::optional<double>(static_cast<double>(a.driver.config)) : std::nullopt},
        {"sms", d.sm_count},
        {"waves_per_sm", waves},
        {"block_limit_sm", ok ? opt_limit(r.limit_blocks) : std::nullopt},
        {"block_limit_registers", ok ? opt_limit(r.limit_registers) : std::nullopt},
        {"block_limit_shared_mem", a.driver.block_limit >= 0 ? std::optional<double>(a.driver.block_limit) : std::nullopt},
        {"block_limit_warps", ok ? opt_limit(r.limit_warps) : std::nullopt},
        {"block_limit_barriers", ok ? opt_limit(r.limit_barriers) : std::nullopt},
        {"theoretical_active_warps_per_sm", when_ok(r.warps_per_sm)},
        {"theoretical_occupancy", when_ok(r.occupancy * 100)},
        {"achieved_occupancy", a.achieved.occupancy >= 0 ? std::optional<double>(a.achieved.occupancy * 100) : std::nullopt},
        {"achieved_active_warps_per_sm",
         a.achieved.occupancy >= 0 ? std::optional<double>(a.achieved.occupancy * r.max_warps_per_sm) : std::nullopt},
    };
}

// Does the printed value stand for the predicted one (ncu rounds to the digits it prints)?
bool agrees(const NcuValue& m, double p) {
    if (m.lo == m.hi) return std::fabs(m.value - p) < 1e-9;
    return p >= m.lo - 1e-9 && p < m.hi + 1e-9;
}

std::string why(const NcuKernelAnswer& a, const std::string& field, double measured, double predicted) {
    const OccupancyResult& r = a.result;
    if (field == "shared_memory_configuration_size")
        return "the driver configured " + format_bytes(static_cast<std::int64_t>(measured)) + "; occ predicts " +
               format_bytes(static_cast<std::int64_t>(predicted)) + " (" + a.driver.rule +
               "). The driver may keep a larger configuration " +
               "from an earlier launch; the block count does not change: occ's carveout for the limit is " +
               format_bytes(r.smem_per_sm_configured) + ", as cuda_occupancy.h computes it";
    if (field == "block_limit_shared_mem")
        return "ncu divides the configured shared memory by each block's " + format_bytes(r.smem_per_block_allocated) +
               "; with the driver's configuration differing from occ's prediction, so does this limit. It did not set the block count: "
               "occ's header-compatible limit is " +
               (r.limit_shared_memory == kUnlimited ? std::string("none") : std::to_string(r.limit_shared_memory));
    if (field == "achieved_occupancy" || field == "achieved_active_warps_per_sm")
        return measured > predicted
                   ? "above occ's bound (" + a.achieved.why + "): the grid size or SM count read from the report may be wrong"
                   : a.achieved.why;
    if (field == "waves_per_sm") return "waves = grid / (blocks per SM x SMs): the SM count or the block count differs";
    if (field == "sms") return "the device occ used (" + a.device->name + ", " + a.device_how + ") has another SM count";
    return "occ's model and ncu disagree on the launch read from the report: check the device (" + a.device->name + ", " + a.device_how +
           ")";
}

void fill_differences(NcuKernelAnswer& a) {
    for (const auto& [key, p] : a.predicted) {
        const NcuValue* m = a.measured.get(key);
        if (!m || !p) continue;
        const bool achieved = key == "achieved_occupancy" || key == "achieved_active_warps_per_sm";
        // Achieved occupancy is bounded, not predicted: only a value above the bound is a difference.
        if (achieved ? m->value <= *p + 0.5 : agrees(*m, *p)) continue;
        a.differences.push_back(NcuDifference{key, m->value, *p, why(a, key, m->value, *p)});
    }
}

json number_or_null(const std::optional<double>& v) {
    if (!v) return nullptr;
    if (std::fabs(*v - std::round(*v)) < 1e-9 && std::fabs(*v) < 9e15) return static_cast<std::int64_t>(std::llround(*v));
    return *v;
}

json value_json(const NcuValue* v) { return v ? number_or_null(v->value) : json(nullptr); }

}  // namespace

json to_json(const NcuAnswer& a) {
    json kernels = json::array();
    for (const NcuKernelAnswer& k : a.kernels) {
        json measured = json::object(), printed = json::object(), predicted = json::object();
        for (const char* key : kNcuKeys) {
            const NcuValue* v = k.measured.get(key);
            measured[key] = value_json(v);
            if (v) printed[key] = json{{"printed", v->printed}, {"unit", v->unit}, {"lo", v->lo}, {"hi", v->hi}};
        }
        for (const auto& [key, v] : k.predicted) predicted[key] = number_or_null(v);
        json diffs = json::array();
        for (const NcuDifference& d : k.differences)
            diffs.push_back(json{
                {"field", d.field}, {"measured", number_or_null(d.measured)}, {"predicted", number_or_null(d.predicted)}, {"why", d.why}});
        json device = nullptr;
        if (k.device)
            device = json{{"name", k.device->name},
                          {"cc", std::to_string(k.device->arch.cc_major) + "." + std::to_string(k.device->arch.cc_minor)},
                          {"sm_count", k.device->sm_count},
                          {"identified", k.device_how}};
        json launch = k.launch ? occupancy_request_to_json(*k.launch) : json(nullptr);
        // What limits occ's prediction, by the keys occupancy answers use (occ::kLimiters).
        json limiters = nullptr;
        if (k.launch && k.result.ok()) {
            limiters = json::array();
            for (const LimiterInfo& e : kLimiters)
                if (k.result.limiters & e.bit) limiters.push_back(e.key);
        }
        kernels.push_back(json{
            {"name", k.measured.name},
            {"line", k.measured.line},
            {"device", device},
            {"reported_device", k.measured.device.empty() ? json(nullptr) : json(k.measured.device)},
            {"cc",
             k.measured.cc_major ? json(std::to_string(k.measured.cc_major) + "." + std::to_string(k.measured.cc_minor)) : json(nullptr)},
            {"measured", measured},
            {"printed", printed},
            {"predicted", predicted},
            {"header_shared_memory",
             k.launch
                 ? json{{"carveout", k.result.smem_per_sm_configured},
                        {"block_limit", k.result.limit_shared_memory == kUnlimited ? json(nullptr) : json(k.result.limit_shared_memory)}}
                 : json(nullptr)},
            {"limiters", limiters},
            {"achieved_bound", k.achieved.occupancy >= 0 ? json(k.achieved.why) : json(nullptr)},
            {"differences", diffs},
            {"input", launch},
            {"error", k.launch && !k.result.ok() ? json(k.result.error_message()) : json(nullptr)},
            {"diagnostics", k.diagnostics}});
    }
    json out{{"format", a.report.format.empty() ? json(nullptr) : json(a.report.format)},
             {"kernels", kernels},
             {"diagnostics", a.report.diagnostics},
             {"error", nullptr}};
    if (a.id) out["id"] = *a.id;
    return out;
}

json api_ncu(const json& request) { return json_or_throw(answer_ncu(request)); }

}  // namespace occ::io
