// run_occupancy.cpp — for each residency kernel and launch configuration: occ's model,
// cudaOccupancyMaxActiveBlocksPerMultiprocessor, and the residency the hardware really reached.
//
// Measurement (MODEL.md "Hardware measurement"): thread 0 of every block reads %smid, increments a
// per-SM counter and keeps a running maximum; all threads spin on %globaltimer, then thread 0
// decrements. The grid is ~3 waves of the larger prediction (so every SM fills up even when both
// predictions are low); the maximum over SMs is the resident blocks per SM.
//
// Counters (CUPTI range profiler, one range per launch, one pass): sm__ctas_launched.sum (exact),
// achieved occupancy and CTAs per active cycle (averages over the whole ~4-wave grid, so recorded in
// the case's inputs, never compared), and the SM's peak CTA and warp rates, compared as device constants.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "counters.hpp"
#include "gpu.hpp"
#include "harness.hpp"
#include "occ/occupancy.hpp"
#include "occ/validation/cases.hpp"

namespace occv {
namespace vl = occ::validation;

namespace {

std::string limiter_names(const occ::OccupancyResult& r) {
    std::string s;
    if (!r.ok()) {
        s = "error: ";
        s += r.error_message();
        return s;
    }
    for (occ::Limiter l : occ::kAllLimiters) {
        if (!(r.limiters & l)) continue;
        if (!s.empty()) s += '+';
        s += occ::limiter_name(l);
    }
    return s;
}

double round2(double v) { return std::isfinite(v) ? std::round(v * 100.0) / 100.0 : -1.0; }

// The counters recorded with one occupancy case.
vl::json counters_json(const vl::CounterRange& r) {
    vl::json j = vl::json::object();
    auto get = [&](const char* m) {
        const auto it = r.values.find(m);
        return it == r.values.end() ? NAN : it->second;
    };
    if (const double v = get("sm__ctas_launched.sum"); std::isfinite(v)) j["ctas_launched"] = std::llround(v);
    j["achieved_occupancy_pct"] = round2(get("sm__warps_active.avg.pct_of_peak_sustained_active"));
    j["ctas_per_active_cycle_busiest_sm"] = round2(get("sm__ctas_active.max.per_cycle_active"));
    return j;
}

}  // namespace

void note_counters_denied(Context& ctx, const std::string& why) {
    if (!ctx.counters_denied.empty()) return;
    ctx.counters_denied = "counters unavailable: " + why +
                          ". Memory cases fall back to timing estimates (unverified); residency and timing checks still run.";
    std::printf("occ-validate: %s\n", ctx.counters_denied.c_str());
    std::fflush(stdout);
}

void run_occupancy(Context& ctx, std::vector<vl::Case>& out, vl::json& tools) {
    const int sms = ctx.prop.multiProcessorCount;
    const auto spin_ns = static_cast<unsigned long long>(ctx.opt.spin_us > 0 ? ctx.opt.spin_us : (ctx.opt.quick ? 300 : 500)) * 1000ull;
    unsigned* count = nullptr;
    unsigned* peak = nullptr;
    float* sink = nullptr;
    check_cuda(cudaMalloc(&count, sizeof(unsigned) * kMaxSms), "cudaMalloc(count)");
    check_cuda(cudaMalloc(&peak, sizeof(unsigned) * kMaxSms), "cudaMalloc(peak)");
    check_cuda(cudaMalloc(&sink, sizeof(float) * 1024), "cudaMalloc(sink)");
    std::vector<unsigned> host_peak(kMaxSms);

    const auto kernels = residency_kernels();
    struct Planned {
        const ResidencyKernel* k;
        cudaFuncAttributes fa;
        std::vector<vl::OccConfig> configs;
    };
    std::vector<Planned> plan;
    std::size_t total = 0;
    int index = 0;
    for (const ResidencyKernel& k : kernels) {
        cudaFuncAttributes fa{};
        check_cuda(cudaFuncGetAttributes(&fa, k.func), "cudaFuncGetAttributes");
        const vl::OccKernel desc{k.name, fa.maxThreadsPerBlock, static_cast<std::int64_t>(fa.sharedSizeBytes)};
        plan.push_back(
            {&k, fa, vl::occupancy_configs(desc, index++, ctx.opt.quick, static_cast<std::int64_t>(ctx.prop.sharedMemPerBlockOptin))});
        total += plan.back().configs.size();
    }

    // Counters: only with a one-pass configuration, so every launch is measured exactly once.
    std::unique_ptr<CounterSession> session;
    const auto metrics = vl::cupti_occupancy_metrics();
    CounterSetup setup;
    if (!ctx.opt.use_cupti) {
        tools["occupancy_counters"] = "--no-cupti given";
    } else if (!ctx.counters_denied.empty()) {
        tools["occupancy_counters"] = ctx.counters_denied;
    } else {
        session = CounterSession::open(ctx.opt.device_index, metrics, total, setup);
        if (!session) {
            if (setup.no_privileges) note_counters_denied(ctx, setup.error);
            tools["occupancy_counters"] = "not read: " + setup.error;
        } else if (setup.passes != 1) {
            tools["occupancy_counters"] = "not read: CUPTI needs " + std::to_string(setup.passes) + " passes on " + setup.chip +
                                          " (one launch per case is measured only once)";
            session.reset();
        } else {
            std::printf("CUPTI: chip %s, %zu occupancy metrics in 1 pass, %zu ranges\n", setup.chip.c_str(), metrics.size(), total);
            std::fflush(stdout);
        }
    }

    std::vector<vl::OccMeasurement> measured;
    bool measured_once = false;
    auto measure_all = [&] {
        if (measured_once) return;  // a second replay pass would repeat every launch: never measure twice
        measured_once = true;
        std::size_t case_index = 0;
        for (const Planned& pl : plan) {
            const ResidencyKernel& k = *pl.k;
            const cudaFuncAttributes& fa = pl.fa;
            for (const vl::OccConfig& c : pl.configs) {
                vl::OccMeasurement m;
                m.kernel = k.name;
                m.config = c;
                m.regs = fa.numRegs;
                m.static_smem = static_cast<std::int64_t>(fa.sharedSizeBytes);
                m.local_bytes = static_cast<std::int64_t>(fa.localSizeBytes);
                m.max_threads = fa.maxThreadsPerBlock;
                std::string note = k.how;

                // The kernel's attributes persist between launches: set both on every case.
                const int default_max_dyn = std::max(0, 48 * 1024 - static_cast<int>(fa.sharedSizeBytes));
                const int max_dyn = c.optin ? static_cast<int>(c.dynamic_smem) : default_max_dyn;
                cudaError_t e = cudaFuncSetAttribute(k.func, cudaFuncAttributeMaxDynamicSharedMemorySize, max_dyn);
                if (e != cudaSuccess) {
                    note += "; MaxDynamicSharedMemorySize=";
                    note += std::to_string(max_dyn);
                    note += ": ";
                    note += cudaGetErrorString(e);
                }
                (void)cudaGetLastError();
                e = cudaFuncSetAttribute(k.func, cudaFuncAttributePreferredSharedMemoryCarveout, c.carveout);
                if (e != cudaSuccess) note += std::string("; carveout: ") + cudaGetErrorString(e);
                (void)cudaGetLastError();

                // occ's model.
                occ::KernelResources kr;
                kr.regs_per_thread = fa.numRegs;
                kr.smem_static = static_cast<std::int64_t>(fa.sharedSizeBytes);
                if (c.optin) {
                    kr.optin = true;
                    kr.max_dynamic_smem = c.dynamic_smem;
                }
                occ::LaunchConfig lc;
                lc.threads = c.threads;
                lc.smem_dynamic = c.dynamic_smem;
                lc.carveout = c.carveout;
                const occ::OccupancyResult r = occ::compute_occupancy(ctx.model_device, kr, lc);
                m.model = r.ok() ? r.blocks_per_sm : 0;
                m.model_limiter = limiter_names(r);

                // NVIDIA's runtime answer.
                int rt = 0;
                e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&rt, k.func, c.threads, static_cast<std::size_t>(c.dynamic_smem));
                if (e == cudaSuccess) {
                    m.runtime = rt;
                } else {
                    note += std::string("; cudaOccupancyMaxActiveBlocksPerMultiprocessor: ") + cudaGetErrorString(e);
                    (void)cudaGetLastError();
                }

                // The hardware.
                const int want = std::max({1, m.model, rt});
                const long long grid = std::min<long long>(static_cast<long long>(want) * sms * 3 + sms, 1 << 20);
                check_cuda(cudaMemset(count, 0, sizeof(unsigned) * kMaxSms), "cudaMemset");
                check_cuda(cudaMemset(peak, 0, sizeof(unsigned) * kMaxSms), "cudaMemset");
                ResidencyArgs args{count, peak, spin_ns, sink, 1.0001f, 0};
                void* params[] = {&args};
                if (session) session->push(vl::counter_range_name(case_index));
                e = cudaLaunchKernel(k.func, dim3(static_cast<unsigned>(grid)), dim3(static_cast<unsigned>(c.threads)), params,
                                     static_cast<std::size_t>(c.dynamic_smem), nullptr);
                if (e != cudaSuccess) {
                    (void)cudaGetLastError();
                    m.measured = 0;
                    note += std::string("; launch failed: ") + cudaGetErrorString(e);
                } else {
                    check_cuda(cudaDeviceSynchronize(), "residency kernel");
                    check_cuda(cudaMemcpy(host_peak.data(), peak, sizeof(unsigned) * kMaxSms, cudaMemcpyDeviceToHost), "cudaMemcpy");
                    m.measured = static_cast<int>(*std::max_element(host_peak.begin(), host_peak.end()));
                    note += "; grid ";
                    note += std::to_string(grid);
                }
                if (session) session->pop();
                m.note = note;
                measured.push_back(std::move(m));
                ++case_index;
            }
        }
    };

    if (session) {
        std::string err;
        std::vector<vl::CounterRange> ranges;
        const bool ok = session->run(measure_all, err) && session->collect(ranges, err);
        if (!ok && vl::is_privilege_error(err)) note_counters_denied(ctx, err);
        const vl::CounterRange* peak_range = nullptr;
        std::size_t attached = 0;
        for (const vl::CounterRange& r : ranges) {
            const long i = vl::counter_range_index(r.name);
            if (i < 0 || static_cast<std::size_t>(i) >= measured.size()) continue;
            measured[static_cast<std::size_t>(i)].counters = counters_json(r);
            ++attached;
            const auto it = r.values.find("sm__ctas_launched.sum");
            if (!peak_range && it != r.values.end() && it->second > 0) peak_range = &r;
        }
        tools["occupancy_counters"] = "CUPTI range profiler: chip " + setup.chip + ", " + std::to_string(metrics.size()) + " metrics, " +
                                      std::to_string(session->passes_run()) + " pass(es), counters for " + std::to_string(attached) +
                                      " of " + std::to_string(measured.size()) + " launches" + (err.empty() ? "" : "; " + err);
        if (peak_range) {
            // The counters' peak rates per SM: its CTA slots and warp slots.
            const occ::ArchRules& a = ctx.model_device.arch;
            auto peak = [&](const char* metric) -> std::optional<std::int64_t> {
                const auto it = peak_range->values.find(metric);
                if (it == peak_range->values.end() || !std::isfinite(it->second)) return std::nullopt;
                return std::llround(it->second);
            };
            out.push_back(vl::device_constant(
                "sm__ctas_active.avg.peak_sustained", a.max_blocks_per_sm, ctx.prop.maxBlocksPerMultiProcessor,
                peak("sm__ctas_active.avg.peak_sustained"),
                "resident blocks per SM: occ vs cudaDeviceProp vs CUPTI sm__ctas_active.avg.peak_sustained (the counter's most "
                "per SM per cycle, read as the SM's block slots)"));
            out.push_back(
                vl::device_constant("sm__warps_active.avg.peak_sustained", a.max_warps_per_sm(),
                                    ctx.prop.maxThreadsPerMultiProcessor / ctx.prop.warpSize, peak("sm__warps_active.avg.peak_sustained"),
                                    "resident warps per SM: occ vs cudaDeviceProp vs CUPTI sm__warps_active.avg.peak_sustained (the "
                                    "denominator of ncu's achieved occupancy)"));
        }
        session.reset();
    }
    measure_all();  // no-op when the session already ran it
    for (const vl::OccMeasurement& m : measured) out.push_back(vl::occupancy_result(m));
    // Leave the kernels' attributes as they were.
    for (const ResidencyKernel& k : kernels) {
        (void)cudaFuncSetAttribute(k.func, cudaFuncAttributePreferredSharedMemoryCarveout, -1);
    }
    (void)cudaGetLastError();
    cudaFree(count);
    cudaFree(peak);
    cudaFree(sink);
}

}  // namespace occv
