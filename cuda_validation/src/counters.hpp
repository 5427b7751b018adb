// counters.hpp — hardware counters read inside occ-validate through CUPTI's range profiler
// (cupti_range_profiler.h + cupti_profiler_host.h, CUDA 12.6 and later), so Nsight Compute is optional.
//
// One session = one set of metrics, user ranges, user replay: the caller's body launches the work and
// names one range per case; run() repeats the body once per replay pass until CUPTI has every pass,
// collect() decodes the counter data and evaluates each metric per range. Plain types only, so the
// harness does not need CUPTI's headers; counters_stub.cpp replaces counters_cupti.cpp in builds
// without CUPTI (every call then says so).
#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "occ/validation/tools.hpp"

namespace occv {

// Which CUPTI this process loaded (nothing needs a GPU).
struct CuptiInfo {
    bool built_in = false;  // compiled with CUPTI (OCC_HAVE_CUPTI)
    std::string version;    // cuptiGetVersion, e.g. "130001" ("" when the call failed)
    std::string error;
};
CuptiInfo cupti_info();

// Shared objects of the counter stack loaded in this process (libcupti, libnvperf_*, libcuda), with paths.
std::vector<std::string> loaded_counter_libraries();

// Host-only plan (no GPU, no driver): can these metrics be configured for `chip`, and in how many passes?
struct HostPlan {
    bool ok = false;
    std::size_t passes = 0;
    std::string error;  // the CUPTI call and result that failed
};
HostPlan plan_on_chip(const std::string& chip, const std::vector<std::string>& metrics);

// What opening a session on the GPU found.
struct CounterSetup {
    bool ok = false;
    bool no_privileges = false;  // CUPTI_ERROR_INSUFFICIENT_PRIVILEGES somewhere on the way
    std::string error;           // one line (cupti_failure_reason), "" when ok
    std::string chip;            // cuptiDeviceGetChipName, e.g. "GH100"
    std::size_t passes = 0;      // cuptiProfilerHostGetNumOfPasses for the metric set
};

class CounterSession {
public:
    // device: CUDA device ordinal, already current in this thread (cudaSetDevice). max_ranges: the most
    // ranges the body pushes per pass. Returns nullptr and fills `setup` when counters cannot be read.
    static std::unique_ptr<CounterSession> open(int device, const std::vector<std::string>& metrics, std::size_t max_ranges,
                                                CounterSetup& setup);
    ~CounterSession();
    CounterSession(const CounterSession&) = delete;
    CounterSession& operator=(const CounterSession&) = delete;

    // Runs body() once per replay pass (start ... stop) until every pass is submitted. The body must
    // push the same ranges in the same order every time. False (and err) on a CUPTI error.
    bool run(const std::function<void()>& body, std::string& err);
    // Inside body(): one range around the work of one case. Errors are kept and reported by run().
    void push(const std::string& name);
    void pop();
    // After run(): every range with its metric values.
    bool collect(std::vector<occ::validation::CounterRange>& out, std::string& err);
    std::size_t passes_run() const;

    struct Impl;

private:
    explicit CounterSession(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

// cuptiProfilerDeInitialize once at the end of the process (harmless when nothing was opened).
void counters_shutdown();

}  // namespace occv
