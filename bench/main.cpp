// occ-bench's main: Google Benchmark's run, then the ratios between cases measured in that same
// run (occ against NVIDIA's cuda_occupancy.h on the same queries), from CPU time per item, with
// the load average before and after (other processes share the machine; CPU time is less
// disturbed by them than wall time).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

class Collect : public benchmark::ConsoleReporter {
public:
    std::map<std::string, double> cpu_ns;  // benchmark name -> CPU ns per iteration

    // One figure per case: the median of its repetitions when there are several, else its run.
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const Run& r : runs) {
            const std::string name = r.run_name.str();
            const double ns = r.GetAdjustedCPUTime() * to_ns(r.time_unit);
            if (r.run_type == Run::RT_Aggregate && r.aggregate_name == "median") {
                cpu_ns[name] = ns;
                medians_.insert(name);
            } else if (r.run_type == Run::RT_Iteration && r.iterations > 0 && !medians_.count(name)) {
                cpu_ns[name] = ns;
            }
        }
        ConsoleReporter::ReportRuns(runs);
    }

private:
    std::set<std::string> medians_;
    static double to_ns(benchmark::TimeUnit u) {
        switch (u) {
            case benchmark::kNanosecond: return 1.0;
            case benchmark::kMicrosecond: return 1e3;
            case benchmark::kMillisecond: return 1e6;
            case benchmark::kSecond: return 1e9;
        }
        return 1.0;
    }
};

double load_average() {
    double l = -1;
    if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
        if (std::fscanf(f, "%lf", &l) != 1) l = -1;
        std::fclose(f);
    }
    return l;
}

// {what is measured, its case, the yardstick's case}: the ratio is yardstick time / case time.
struct Ratio {
    const char* what;
    const char* name;
    const char* yardstick;
};
constexpr Ratio kRatios[] = {
    {"occ::compute_occupancy (full answer)", "BM_occ_compute_occupancy_full", "BM_nvidia_cudaOccMaxActiveBlocksPerMultiprocessor"},
    {"  the same on a caller's Device copy", "BM_occ_compute_occupancy_full_copy", "BM_nvidia_cudaOccMaxActiveBlocksPerMultiprocessor"},
    {"occ::blocks_per_sm_fast", "BM_occ_blocks_per_sm", "BM_nvidia_cudaOccMaxActiveBlocksPerMultiprocessor"},
    {"  the same on a caller's ArchRules copy", "BM_occ_blocks_per_sm_copy", "BM_nvidia_cudaOccMaxActiveBlocksPerMultiprocessor"},
    {"occ::PreparedDevice::blocks_per_sm", "BM_occ_prepared_blocks_per_sm", "BM_nvidia_cudaOccMaxActiveBlocksPerMultiprocessor"},
};

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    const double load_before = load_average();
    Collect reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    const double load_after = load_average();
    std::printf("\nRatios in this run (CPU time per query; > 1 = faster than the yardstick); load average %.2f -> %.2f\n", load_before,
                load_after);
    for (const Ratio& r : kRatios) {
        const auto a = reporter.cpu_ns.find(r.name), b = reporter.cpu_ns.find(r.yardstick);
        if (a == reporter.cpu_ns.end() || b == reporter.cpu_ns.end()) continue;
        std::printf("  %-40s %7.2f ns  vs cudaOccMaxActiveBlocksPerMultiprocessor %7.2f ns: %5.2fx\n", r.what, a->second, b->second,
                    b->second / a->second);
    }
    benchmark::Shutdown();
    return 0;
}
