// counters_cupti.cpp — counters.hpp on CUPTI's range profiler (CUDA 13: libcupti.so.13, which loads
// libnvperf_host.so and libnvperf_target.so). Host code, compiled by the host compiler.
//
// Session (per metric set):
//   cuptiProfilerInitialize                                   once per process
//   cuptiProfilerDeviceSupported                              clear reasons (vGPU, CC, CMP, WSL, ...)
//   cuptiDeviceGetChipName, cuptiProfilerGetCounterAvailability
//   cuptiProfilerHostInitialize(chip, availability)           metric scheduling (NVPerf host)
//   cuptiProfilerHostConfigAddMetrics, ...GetConfigImageSize, ...GetConfigImage, ...GetNumOfPasses
//   cuptiRangeProfilerEnable(ctx)                             ctx = the runtime's primary context
//   cuptiRangeProfilerGetCounterDataSize, ...CounterDataImageInitialize
//   cuptiRangeProfilerSetConfig(CUPTI_UserRange, CUPTI_UserReplay)
//   repeat { cuptiRangeProfilerStart; body: PushRange/launch/PopRange per case; cuptiRangeProfilerStop }
//     until isAllPassSubmitted
//   cuptiRangeProfilerDecodeData, ...GetCounterDataInfo, ...CounterDataGetRangeInfo,
//   cuptiProfilerHostEvaluateToGpuValues                      metric values per range
//   cuptiRangeProfilerDisable, cuptiProfilerHostDeinitialize
#include <link.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <cupti_version.h>

#include "counters.hpp"

namespace occv {
namespace vl = occ::validation;

namespace {

// CUPTI's parameter structs: zeroed, with their size set (the API checks it for compatibility).
template <class P>
P params(std::size_t struct_size) {
    P p{};
    p.structSize = struct_size;
    return p;
}

std::string result_name(CUptiResult r) {
    const char* s = nullptr;
    if (cuptiGetResultString(r, &s) == CUPTI_SUCCESS && s) return s;
    return "CUptiResult " + std::to_string(static_cast<int>(r));
}

// "call: result" as one line; also flags privilege errors.
struct Failure {
    std::string line;
    bool privileges = false;
};
Failure failure(const char* call, CUptiResult r) {
    const std::string name = result_name(r);
    return {vl::cupti_failure_reason(call, name), vl::is_privilege_error(name) || r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES};
}

bool g_profiler_initialized = false;

// Host object with a metric configuration: NVPerf host side, needs no GPU.
struct HostConfig {
    CUpti_Profiler_Host_Object* host = nullptr;
    std::vector<std::uint8_t> image;
    std::size_t passes = 0;
    ~HostConfig() {
        if (host) {
            CUpti_Profiler_Host_Deinitialize_Params p = params<CUpti_Profiler_Host_Deinitialize_Params>(
                CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
            p.pHostObject = host;
            (void)cuptiProfilerHostDeinitialize(&p);
        }
    }
    // Returns "" or the failure.
    Failure build(const std::string& chip, const std::uint8_t* availability, const std::vector<const char*>& metrics) {
        CUpti_Profiler_Host_Initialize_Params ip = params<CUpti_Profiler_Host_Initialize_Params>(
            CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
        ip.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
        ip.pChipName = chip.c_str();
        ip.pCounterAvailabilityImage = availability;
        if (CUptiResult r = cuptiProfilerHostInitialize(&ip); r != CUPTI_SUCCESS) return failure("cuptiProfilerHostInitialize", r);
        host = ip.pHostObject;

        CUpti_Profiler_Host_ConfigAddMetrics_Params ap = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
            CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
        ap.pHostObject = host;
        ap.ppMetricNames = const_cast<const char**>(metrics.data());
        ap.numMetrics = metrics.size();
        if (CUptiResult r = cuptiProfilerHostConfigAddMetrics(&ap); r != CUPTI_SUCCESS)
            return failure("cuptiProfilerHostConfigAddMetrics", r);

        CUpti_Profiler_Host_GetConfigImageSize_Params sp = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
            CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
        sp.pHostObject = host;
        if (CUptiResult r = cuptiProfilerHostGetConfigImageSize(&sp); r != CUPTI_SUCCESS)
            return failure("cuptiProfilerHostGetConfigImageSize", r);
        image.assign(sp.configImageSize, 0);

        CUpti_Profiler_Host_GetConfigImage_Params gp = params<CUpti_Profiler_Host_GetConfigImage_Params>(
            CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
        gp.pHostObject = host;
        gp.configImageSize = image.size();
        gp.pConfigImage = image.data();
        if (CUptiResult r = cuptiProfilerHostGetConfigImage(&gp); r != CUPTI_SUCCESS) return failure("cuptiProfilerHostGetConfigImage", r);

        CUpti_Profiler_Host_GetNumOfPasses_Params np = params<CUpti_Profiler_Host_GetNumOfPasses_Params>(
            CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
        np.configImageSize = image.size();
        np.pConfigImage = image.data();
        if (CUptiResult r = cuptiProfilerHostGetNumOfPasses(&np); r != CUPTI_SUCCESS) return failure("cuptiProfilerHostGetNumOfPasses", r);
        passes = np.numOfPasses;
        return {};
    }
};

std::vector<const char*> c_names(const std::vector<std::string>& v) {
    std::vector<const char*> out;
    for (const std::string& s : v) out.push_back(s.c_str());
    return out;
}

const char* level_name(CUpti_Profiler_Support_Level l) {
    switch (l) {
        case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED: return "unsupported";
        case CUPTI_PROFILER_CONFIGURATION_DISABLED: return "disabled";
        case CUPTI_PROFILER_CONFIGURATION_SUPPORTED: return "supported";
        default: return "unknown";
    }
}

// The runtime's current (primary) context as a CUcontext, without linking libcuda: the driver entry
// point comes through the runtime.
CUcontext current_context() {
    using Fn = CUresult (*)(CUcontext*);
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult q{};
    if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &q) != cudaSuccess || !fn) {
        (void)cudaGetLastError();
        return nullptr;
    }
    CUcontext ctx = nullptr;
    if (reinterpret_cast<Fn>(fn)(&ctx) != CUDA_SUCCESS) return nullptr;
    return ctx;
}

}  // namespace

CuptiInfo cupti_info() {
    CuptiInfo i;
    i.built_in = true;
    std::uint32_t v = 0;
    if (CUptiResult r = cuptiGetVersion(&v); r == CUPTI_SUCCESS) i.version = std::to_string(v);
    else i.error = result_name(r);
    return i;
}

std::vector<std::string> loaded_counter_libraries() {
    std::vector<std::string> out;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* data) {
            const char* n = info->dlpi_name;
            if (n && (std::strstr(n, "libcupti") || std::strstr(n, "libnvperf") || std::strstr(n, "libcuda.so")))
                static_cast<std::vector<std::string>*>(data)->push_back(n);
            return 0;
        },
        &out);
    return out;
}

HostPlan plan_on_chip(const std::string& chip, const std::vector<std::string>& metrics) {
    HostPlan p;
    HostConfig h;
    const auto names = c_names(metrics);
    const Failure f = h.build(chip, nullptr, names);
    if (!f.line.empty()) {
        p.error = f.line;
        return p;
    }
    p.ok = true;
    p.passes = h.passes;
    return p;
}

struct CounterSession::Impl {
    std::vector<std::string> metrics;
    std::vector<const char*> metric_ptrs;
    std::size_t max_ranges = 0;
    HostConfig config;
    std::vector<std::uint8_t> availability;
    std::vector<std::uint8_t> counter_data;
    CUpti_RangeProfiler_Object* rp = nullptr;
    std::size_t passes_run = 0;
    std::string first_error;

    void note(const char* call, CUptiResult r) {
        if (r != CUPTI_SUCCESS && first_error.empty()) first_error = failure(call, r).line;
    }
    ~Impl() {
        if (rp) {
            CUpti_RangeProfiler_Disable_Params p = params<CUpti_RangeProfiler_Disable_Params>(
                CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
            p.pRangeProfilerObject = rp;
            (void)cuptiRangeProfilerDisable(&p);
        }
    }
};

CounterSession::CounterSession(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CounterSession::~CounterSession() = default;

std::unique_ptr<CounterSession> CounterSession::open(int device, const std::vector<std::string>& metrics, std::size_t max_ranges,
                                                     CounterSetup& setup) {
    setup = CounterSetup{};
    auto fail = [&](const Failure& f) -> std::unique_ptr<CounterSession> {
        setup.error = f.line;
        setup.no_privileges = f.privileges;
        return nullptr;
    };
    // The runtime creates the primary context; CUPTI profiles it.
    if (cudaError_t e = cudaFree(nullptr); e != cudaSuccess) {
        setup.error = std::string("cudaFree(0) failed before CUPTI: ") + cudaGetErrorName(e);
        return nullptr;
    }
    const CUcontext ctx = current_context();
    if (!ctx) {
        setup.error = "no current CUDA context for CUPTI (cuCtxGetCurrent through cudaGetDriverEntryPointByVersion failed)";
        return nullptr;
    }
    if (!g_profiler_initialized) {
        CUpti_Profiler_Initialize_Params p = params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
        if (CUptiResult r = cuptiProfilerInitialize(&p); r != CUPTI_SUCCESS) return fail(failure("cuptiProfilerInitialize", r));
        g_profiler_initialized = true;
    }
    {
        CUpti_Profiler_DeviceSupported_Params p = params<CUpti_Profiler_DeviceSupported_Params>(
            CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
        p.cuDevice = device;
        p.api = CUPTI_PROFILER_RANGE_PROFILING;
        if (CUptiResult r = cuptiProfilerDeviceSupported(&p); r != CUPTI_SUCCESS) return fail(failure("cuptiProfilerDeviceSupported", r));
        // "unknown" goes on: the calls below then say what is wrong, if anything.
        if (p.isSupported == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED || p.isSupported == CUPTI_PROFILER_CONFIGURATION_DISABLED) {
            char buf[320];
            std::snprintf(buf, sizeof buf,
                          "CUPTI: range profiling %s on this device (architecture %s, SLI %s, vGPU %s, confidential compute %s, "
                          "CMP %s, WSL %s)",
                          level_name(p.isSupported), level_name(p.architecture), level_name(p.sli), level_name(p.vGpu),
                          level_name(p.confidentialCompute), level_name(p.cmp), level_name(p.wsl));
            setup.error = buf;
            return nullptr;
        }
    }
    {
        CUpti_Device_GetChipName_Params p = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
        p.deviceIndex = static_cast<std::size_t>(device);
        if (CUptiResult r = cuptiDeviceGetChipName(&p); r != CUPTI_SUCCESS) return fail(failure("cuptiDeviceGetChipName", r));
        setup.chip = p.pChipName ? p.pChipName : "";
    }
    auto impl = std::make_unique<Impl>();
    impl->metrics = metrics;
    impl->metric_ptrs = c_names(impl->metrics);
    impl->max_ranges = max_ranges;
    {
        CUpti_Profiler_GetCounterAvailability_Params p = params<CUpti_Profiler_GetCounterAvailability_Params>(
            CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
        p.ctx = ctx;
        if (CUptiResult r = cuptiProfilerGetCounterAvailability(&p); r != CUPTI_SUCCESS)
            return fail(failure("cuptiProfilerGetCounterAvailability", r));
        impl->availability.assign(p.counterAvailabilityImageSize, 0);
        p.pCounterAvailabilityImage = impl->availability.data();
        if (CUptiResult r = cuptiProfilerGetCounterAvailability(&p); r != CUPTI_SUCCESS)
            return fail(failure("cuptiProfilerGetCounterAvailability", r));
    }
    if (Failure f = impl->config.build(setup.chip, impl->availability.data(), impl->metric_ptrs); !f.line.empty()) return fail(f);
    setup.passes = impl->config.passes;
    {
        CUpti_RangeProfiler_Enable_Params p = params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
        p.ctx = ctx;
        if (CUptiResult r = cuptiRangeProfilerEnable(&p); r != CUPTI_SUCCESS) return fail(failure("cuptiRangeProfilerEnable", r));
        impl->rp = p.pRangeProfilerObject;
    }
    {
        CUpti_RangeProfiler_GetCounterDataSize_Params p = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
            CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
        p.pRangeProfilerObject = impl->rp;
        p.pMetricNames = impl->metric_ptrs.data();
        p.numMetrics = impl->metric_ptrs.size();
        p.maxNumOfRanges = max_ranges;
        p.maxNumRangeTreeNodes = static_cast<std::uint32_t>(max_ranges);
        if (CUptiResult r = cuptiRangeProfilerGetCounterDataSize(&p); r != CUPTI_SUCCESS)
            return fail(failure("cuptiRangeProfilerGetCounterDataSize", r));
        impl->counter_data.assign(p.counterDataSize, 0);
    }
    {
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params p = params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
            CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
        p.pRangeProfilerObject = impl->rp;
        p.counterDataSize = impl->counter_data.size();
        p.pCounterData = impl->counter_data.data();
        if (CUptiResult r = cuptiRangeProfilerCounterDataImageInitialize(&p); r != CUPTI_SUCCESS)
            return fail(failure("cuptiRangeProfilerCounterDataImageInitialize", r));
    }
    {
        CUpti_RangeProfiler_SetConfig_Params p = params<CUpti_RangeProfiler_SetConfig_Params>(
            CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
        p.pRangeProfilerObject = impl->rp;
        p.configSize = impl->config.image.size();
        p.pConfig = impl->config.image.data();
        p.counterDataImageSize = impl->counter_data.size();
        p.pCounterDataImage = impl->counter_data.data();
        p.range = CUPTI_UserRange;
        p.replayMode = CUPTI_UserReplay;
        p.maxRangesPerPass = max_ranges;
        p.numNestingLevels = 1;
        p.minNestingLevel = 1;
        p.passIndex = 0;
        p.targetNestingLevel = 1;
        if (CUptiResult r = cuptiRangeProfilerSetConfig(&p); r != CUPTI_SUCCESS) return fail(failure("cuptiRangeProfilerSetConfig", r));
    }
    setup.ok = true;
    return std::unique_ptr<CounterSession>(new CounterSession(std::move(impl)));
}

void CounterSession::push(const std::string& name) {
    CUpti_RangeProfiler_PushRange_Params p = params<CUpti_RangeProfiler_PushRange_Params>(CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE);
    p.pRangeProfilerObject = impl_->rp;
    p.pRangeName = name.c_str();
    impl_->note("cuptiRangeProfilerPushRange", cuptiRangeProfilerPushRange(&p));
}

void CounterSession::pop() {
    CUpti_RangeProfiler_PopRange_Params p = params<CUpti_RangeProfiler_PopRange_Params>(CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE);
    p.pRangeProfilerObject = impl_->rp;
    impl_->note("cuptiRangeProfilerPopRange", cuptiRangeProfilerPopRange(&p));
}

bool CounterSession::run(const std::function<void()>& body, std::string& err) {
    // A pass count above the plan means CUPTI never reported completion: stop rather than loop.
    const std::size_t limit = impl_->config.passes + 4;
    bool all = false;
    while (!all && impl_->passes_run < limit) {
        CUpti_RangeProfiler_Start_Params sp = params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
        sp.pRangeProfilerObject = impl_->rp;
        if (CUptiResult r = cuptiRangeProfilerStart(&sp); r != CUPTI_SUCCESS) {
            err = failure("cuptiRangeProfilerStart", r).line;
            return false;
        }
        body();
        (void)cudaDeviceSynchronize();
        CUpti_RangeProfiler_Stop_Params tp = params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
        tp.pRangeProfilerObject = impl_->rp;
        if (CUptiResult r = cuptiRangeProfilerStop(&tp); r != CUPTI_SUCCESS) {
            err = failure("cuptiRangeProfilerStop", r).line;
            return false;
        }
        ++impl_->passes_run;
        all = tp.isAllPassSubmitted != 0;
        if (!impl_->first_error.empty()) {
            err = impl_->first_error;
            return false;
        }
    }
    if (!all) {
        err = "CUPTI did not report all passes submitted after " + std::to_string(impl_->passes_run) +
              " passes (plan: " + std::to_string(impl_->config.passes) + ")";
        return false;
    }
    return true;
}

bool CounterSession::collect(std::vector<vl::CounterRange>& out, std::string& err) {
    {
        CUpti_RangeProfiler_DecodeData_Params p = params<CUpti_RangeProfiler_DecodeData_Params>(
            CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
        p.pRangeProfilerObject = impl_->rp;
        if (CUptiResult r = cuptiRangeProfilerDecodeData(&p); r != CUPTI_SUCCESS) {
            err = failure("cuptiRangeProfilerDecodeData", r).line;
            return false;
        }
        if (p.numOfRangeDropped) err = std::to_string(p.numOfRangeDropped) + " range(s) dropped by CUPTI";
    }
    CUpti_RangeProfiler_GetCounterDataInfo_Params ip = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
        CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
    ip.pCounterDataImage = impl_->counter_data.data();
    ip.counterDataImageSize = impl_->counter_data.size();
    if (CUptiResult r = cuptiRangeProfilerGetCounterDataInfo(&ip); r != CUPTI_SUCCESS) {
        err = failure("cuptiRangeProfilerGetCounterDataInfo", r).line;
        return false;
    }
    std::vector<double> values(impl_->metric_ptrs.size());
    for (std::size_t i = 0; i < ip.numTotalRanges; ++i) {
        CUpti_RangeProfiler_CounterData_GetRangeInfo_Params rp = params<CUpti_RangeProfiler_CounterData_GetRangeInfo_Params>(
            CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE);
        rp.pCounterDataImage = impl_->counter_data.data();
        rp.counterDataImageSize = impl_->counter_data.size();
        rp.rangeIndex = i;
        rp.rangeDelimiter = "/";
        if (CUptiResult r = cuptiRangeProfilerCounterDataGetRangeInfo(&rp); r != CUPTI_SUCCESS) {
            err = failure("cuptiRangeProfilerCounterDataGetRangeInfo", r).line;
            return false;
        }
        CUpti_Profiler_Host_EvaluateToGpuValues_Params ep = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
            CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
        ep.pHostObject = impl_->config.host;
        ep.pCounterDataImage = impl_->counter_data.data();
        ep.counterDataImageSize = impl_->counter_data.size();
        ep.rangeIndex = i;
        ep.ppMetricNames = impl_->metric_ptrs.data();
        ep.numMetrics = impl_->metric_ptrs.size();
        ep.pMetricValues = values.data();
        if (CUptiResult r = cuptiProfilerHostEvaluateToGpuValues(&ep); r != CUPTI_SUCCESS) {
            err = failure("cuptiProfilerHostEvaluateToGpuValues", r).line;
            return false;
        }
        vl::CounterRange range;
        range.name = rp.rangeName ? rp.rangeName : "";
        for (std::size_t m = 0; m < impl_->metrics.size(); ++m) range.values[impl_->metrics[m]] = values[m];
        out.push_back(std::move(range));
    }
    return true;
}

std::size_t CounterSession::passes_run() const { return impl_->passes_run; }

void counters_shutdown() {
    if (!g_profiler_initialized) return;
    CUpti_Profiler_DeInitialize_Params p = params<CUpti_Profiler_DeInitialize_Params>(CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
    (void)cuptiProfilerDeInitialize(&p);
    g_profiler_initialized = false;
}

}  // namespace occv
