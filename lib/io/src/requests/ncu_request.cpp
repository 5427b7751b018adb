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
    bool sm_count_known = false;  // from the report (# SMs, or its waves), a GPU it names, or the request
};

}  // namespace

int ncu_block_count(const NcuKernel& k) {
    int n = -1;
    for (const char* key :
         {"block_limit_sm", "block_limit_registers", "block_limit_shared_mem", "block_limit_warps", "block_limit_barriers"}) {
        const auto v = whole(k, key);
        if (!v) {
            if (std::string_view(key) == "block_limit_barriers") continue;  // printed from cc 9.0 by newer ncu only
            return -1;
        }
        n = n < 0 ? static_cast<int>(*v) : std::min(n, static_cast<int>(*v));
    }
    return n;
}

namespace {

double grid_of(const NcuKernel& k) {
    return k.grid               ? static_cast<double>((*k.grid)[0]) * static_cast<double>((*k.grid)[1]) * static_cast<double>((*k.grid)[2])
           : k.get("grid_size") ? k.get("grid_size")->value
                                : 0.0;
}

// Older ncu prints no "# SMs": waves = grid / (blocks per SM x SMs) gives it, with ncu's own block
// count, when one whole number of SMs reproduces the printed waves. 0 when none does.
std::int64_t sms_from_waves(const NcuKernel& k) {
    const NcuValue* w = k.get("waves_per_sm");
    const int blocks = ncu_block_count(k);
    const double grid = grid_of(k);
    if (!w || blocks <= 0 || !(w->value > 0) || grid < 1 || grid > 1e15) return 0;
    const double sms = std::round(grid / (w->value * blocks));
    auto gives = [&](double n) {
        const double again = grid / (blocks * n);
        return n >= 1 && again >= w->lo - 1e-9 && again < w->hi + 1e-9;
    };
    // One count only: a small grid's waves (0.07) fit several.
    return sms <= 4096 && gives(sms) && !gives(sms - 1) && !gives(sms + 1) ? static_cast<std::int64_t>(sms) : 0;
}

// Where the SM count is unknown: the counts the printed waves allow with ncu's own block count, and
// the catalogue GPUs of the compute capability among them, in words.
std::string sm_counts_from_waves(const NcuKernel& k, int cc_major, int cc_minor) {
    const NcuValue* w = k.get("waves_per_sm");
    const int blocks = ncu_block_count(k);
    const double grid = grid_of(k);
    std::string why = "the report prints no # SMs";
    if (!w || blocks <= 0 || !(w->hi > 0) || grid < 1 || grid > 1e15)
        return why + (w ? " and its Waves Per SM cannot be turned into one (no grid or block limits)" : " nor Waves Per SM");
    // waves = grid / (blocks x SMs) stands for [lo, hi): SMs in (grid / (blocks x hi), grid / (blocks x lo)].
    const double per = grid / blocks;
    const double first = std::max(1.0, std::floor(per / w->hi) + 1);
    const double last = w->lo > 0 ? std::min(4096.0, std::ceil(per / w->lo) - 1) : 4096.0;
    auto fits = [&](int n) {
        const double again = per / n;
        return again >= w->lo - 1e-9 && again < w->hi + 1e-9;
    };
    int lo_n = 0, hi_n = 0;
    for (int n = static_cast<int>(first) - 1; n <= static_cast<int>(last) + 1; ++n)
        if (n >= 1 && fits(n)) {
            if (!lo_n) lo_n = n;
            hi_n = n;
        }
    why += ", and Waves Per SM " + w->printed + " = " + format_count(static_cast<std::int64_t>(grid)) + " blocks / (" +
           std::to_string(blocks) + " blocks per SM x SMs)";
    if (!lo_n) return why + " fits no whole number of SMs";
    why += " fits " + (lo_n == hi_n ? std::to_string(lo_n) + " SMs only" : std::to_string(lo_n) + " to " + std::to_string(hi_n) + " SMs");
    if (hi_n - lo_n > 64) return why + ": too many to name a GPU; give --gpu";
    std::string names;
    int n_names = 0;
    for (const GpuEntry& g : all_gpus())
        if (g.cc_major == cc_major && g.cc_minor == cc_minor && g.sm_count >= lo_n && g.sm_count <= hi_n && n_names++ < 8)
            names += (names.empty() ? "" : ", ") + std::string(g.name) + " (" + std::to_string(g.sm_count) + " SMs)";
    const std::string cc = std::to_string(cc_major) + "." + std::to_string(cc_minor);
    return why + "; " +
           (names.empty() ? "no GPU of cc " + cc + " in occ's catalogue has that many"
                          : "GPUs of cc " + cc + " in occ's catalogue that fit: " + names + (n_names > 8 ? ", ..." : "")) +
           "; give --gpu (or a device with its SM count) to compare";
}

// A device that is only a compute capability (--cc, or {"cc": "8.6"}): it has no SM count of its own.
bool cc_only(const Device& d) {
    const auto g = device_for_cc(d.arch.cc_major, d.arch.cc_minor);
    return d.segment == Segment::custom && g && g->name == d.name && g->sm_count == d.sm_count;
}

Identified identify(const NcuKernel& k, const std::optional<Device>& given) {
    Identified id;
    std::int64_t sms = whole(k, "sms").value_or(0);  // 0: not in the report
    if (sms < 1 || sms > 4096) sms = 0;
    const bool derived = sms == 0 && (sms = sms_from_waves(k)) > 0;
    const std::string sm_source = derived ? "; the SM count from Waves Per SM: grid / (waves x ncu's block count)" : "";
    id.sm_count_known = sms > 0 || (given && !cc_only(*given));
    if (given) {
        id.device = *given;
        id.how = "given in the request" + sm_source +
                 (id.sm_count_known ? "" : "; a compute capability only, and the report prints no SM count: waves not predicted");
        if (sms > 0) id.device->sm_count = static_cast<int>(sms);
        return id;
    }
    if (k.cc_major == 0) return id;
    if (!k.device.empty() && k.device.rfind("Device ", 0) != 0) {
        if (auto d = find_gpu(k.device);
            d && d->arch.cc_major == k.cc_major && d->arch.cc_minor == k.cc_minor && (sms == 0 || d->sm_count == sms)) {
            id.device = *d;
            id.how = "by name (\"" + k.device + "\")";
            id.sm_count_known = true;
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
                     (names.size() > 1 ? " (also " + std::to_string(names.size() - 1) + " other GPU(s) with the same figures)" : "") +
                     sm_source;
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
                     std::to_string(id.device->sm_count) + " SMs: a device of that compute capability with the report's SM count" +
                     sm_source;
        } else {
            id.how = "compute capability only (the report has no # SMs and its waves fit several SM counts): waves not predicted";
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
        for (const NcuKernel& k : a.report.kernels) a.kernels.push_back(compare_ncu_kernel(k, given, a.report.ncu_version));
    });
}

namespace {

// Older ncu prints no compute capability. Its numbers pin it down: each compute capability ncu
// profiles (7.0 on) is tried, and the ones under which every line agrees or is explained are kept.
std::optional<NcuKernelAnswer> infer_cc(const NcuKernel& k, const std::string& ncu_version) {
    if (!k.get("block_limit_sm") || !k.get("block_limit_warps") || !k.get("registers_per_thread")) return std::nullopt;
    std::vector<NcuKernelAnswer> fits;
    std::string names;
    for (const ArchRules& a : all_archs()) {
        if (a.smem_config != SmemConfig::carveout) continue;
        NcuKernel c = k;
        c.cc_major = a.cc_major;
        c.cc_minor = a.cc_minor;
        NcuKernelAnswer x = compare_ncu_kernel(c, std::nullopt, ncu_version);
        if (!x.launch || !x.result.ok()) continue;
        if (std::any_of(x.differences.begin(), x.differences.end(),
                        [](const NcuDifference& d) { return d.status != NcuStatus::explained; }))
            continue;
        names += (names.empty() ? "" : ", ") + std::to_string(a.cc_major) + "." + std::to_string(a.cc_minor);
        fits.push_back(std::move(x));
    }
    if (fits.empty()) return std::nullopt;
    NcuKernelAnswer out = std::move(fits.front());
    out.measured.cc_major = 0;  // what the report said
    out.measured.cc_minor = 0;
    std::erase_if(out.diagnostics, [](const std::string& d) { return d.rfind("compute capability not in the report", 0) == 0; });
    out.diagnostics.push_back(
        "compute capability inferred from the report's numbers (block slots, warps per SM, the driver's reserve, "
        "the limits): " +
        (fits.size() == 1
             ? names + ", the only one that gives every line"
             : names.substr(0, names.find(',')) + "; also consistent: " + names.substr(names.find(',') + 2) + " (give --cc to choose)"));
    return out;
}

}  // namespace

NcuKernelAnswer compare_ncu_kernel(const NcuKernel& k, const std::optional<Device>& given, const std::string& ncu_version) {
    if (k.cc_major == 0 && !given)
        if (auto inferred = infer_cc(k, ncu_version)) return std::move(*inferred);
    NcuKernelAnswer out;
    out.measured = k;
    out.diagnostics = k.diagnostics;
    const Identified id = identify(k, given);
    if (!id.device) {
        out.diagnostics.push_back("no prediction: the compute capability is unknown");
        explain_ncu_kernel(out, ncu_version);
        return out;
    }
    out.device = id.device;
    out.device_how = id.how;
    out.sm_count_known = id.sm_count_known;
    if (!out.sm_count_known) out.sm_count_unknown = sm_counts_from_waves(k, id.device->arch.cc_major, id.device->arch.cc_minor);
    // A summary whose launch inputs varied over the invocations describes no one launch to predict.
    std::string varied;
    for (const char* key :
         {"block_size", "grid_size", "registers_per_thread", "static_shared_memory_per_block", "dynamic_shared_memory_per_block"})
        if (const NcuValue* v = k.get(key); v && v->varies())
            varied += (varied.empty() ? "" : ", ") + std::string(key) + " " + v->printed_min + " to " + v->printed_max;
    if (!varied.empty()) {
        out.diagnostics.push_back("no prediction: the summary's launch varied over its " +
                                  (k.invocations > 0 ? std::to_string(k.invocations) + " " : std::string()) + "invocations (" + varied +
                                  "): profile the launches apart (ncu without --print-summary) to compare each");
        explain_ncu_kernel(out, ncu_version);
        return out;
    }
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
        explain_ncu_kernel(out, ncu_version);
        return out;
    }
    const auto regs = whole(k, "registers_per_thread");
    if (!regs) {
        out.diagnostics.push_back("no prediction: Registers Per Thread is not in the report");
        explain_ncu_kernel(out, ncu_version);
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
    const double grid = grid_of(k);
    if (grid >= 1 && grid <= 1e15) req.launch.grid_blocks = static_cast<std::int64_t>(grid);
    else if (grid > 1e15) out.diagnostics.push_back("grid size too large to be a launch: waves and achieved occupancy not predicted");
    out.result = compute_occupancy(req.device, req.kernel, req.launch);
    // ncu reads the kernel's named barriers from the binary; the report prints only the limit they
    // give. A limit below the block slots that slots x barriers-per-slot / b gives for one b is that
    // kernel's count (a cc 10.0 CUTLASS kernel: 9 = 64 / 7); occ assumes 1 otherwise.
    if (const auto bar = whole(k, "block_limit_barriers");
        bar && out.result.ok() && req.device.arch.barriers_limit_blocks && *bar >= 1 && *bar < out.result.limit_blocks) {
        const int sets = out.result.limit_blocks * req.device.arch.barriers_per_block_slot;
        for (int b = 2; b <= 16; ++b)
            if (sets / b == *bar) {
                req.kernel.barriers = b;
                out.result = compute_occupancy(req.device, req.kernel, req.launch);
                out.diagnostics.push_back("named barriers per block: " + std::to_string(b) + ", read from Block Limit Barriers (" +
                                          std::to_string(sets) + " barriers per SM / " + std::to_string(b) + " = " + std::to_string(*bar) +
                                          "; the report does not print the count)");
                break;
            }
    }
    out.launch = req;
    out.driver = predict_driver_smem(req.device, req.kernel, out.result);
    out.achieved = achieved_bound(req.device, out.result, req.launch.grid_blocks);
    if (!out.sm_count_known && out.result.ok())
        out.achieved = {out.result.occupancy, "the SM count is unknown: at most the theoretical occupancy"};
    fill_predicted(out);
    explain_ncu_kernel(out, ncu_version);
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
    if (ok && a.sm_count_known && q.launch.grid_blocks > 0 && r.blocks_per_sm > 0)
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
        {"sms", a.sm_count_known ? std::optional<double>(d.sm_count) : std::nullopt},
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
            if (v && v->summary) {  // --print-summary: the average above, and the range over the invocations
                printed[key]["minimum"] = v->printed_min;
                printed[key]["maximum"] = v->printed_max;
            }
        }
        for (const auto& [key, v] : k.predicted) predicted[key] = number_or_null(v);
        json diffs = json::array();
        for (const NcuDifference& d : k.differences)
            diffs.push_back(json{{"field", d.field},
                                 {"measured", number_or_null(d.measured)},
                                 {"predicted", number_or_null(d.predicted)},
                                 {"status", ncu_status_name(d.status)},
                                 {"why", d.why}});
        // Every line: "agrees", "within_bound" (achieved), "not_compared", or its difference's status.
        json lines = json::object();
        for (const auto& [key, p] : k.predicted) {
            const NcuValue* v = k.measured.get(key);
            const char* st = !v || !p ? "not_compared" : key.rfind("achieved_", 0) == 0 ? "within_bound" : "agrees";
            for (const NcuNotCompared& n : k.not_compared)
                if (n.field == key) st = "not_compared";
            for (const NcuDifference& d : k.differences)
                if (d.field == key) st = ncu_status_name(d.status);
            lines[key] = st;
        }
        json not_compared = json::array();
        for (const NcuNotCompared& n : k.not_compared) not_compared.push_back(json{{"field", n.field}, {"why", n.why}});
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
            {"lines", lines},
            {"differences", diffs},
            {"not_compared", not_compared},
            {"invocations", k.measured.invocations > 0 ? json(k.measured.invocations) : json(nullptr)},
            {"ncu_behaviour", k.ncu_behaviour},
            {"input", launch},
            {"error", k.launch && !k.result.ok() ? json(k.result.error_message()) : json(nullptr)},
            {"diagnostics", k.diagnostics}});
    }
    json out{{"format", a.report.format.empty() ? json(nullptr) : json(a.report.format)},
             {"ncu_version", a.report.ncu_version.empty() ? json(nullptr) : json(a.report.ncu_version)},
             {"kernels", kernels},
             {"diagnostics", a.report.diagnostics},
             {"error", nullptr}};
    if (a.id) out["id"] = *a.id;
    return out;
}

json api_ncu(const json& request) { return json_or_throw(answer_ncu(request)); }

}  // namespace occ::io
