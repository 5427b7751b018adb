// main.cpp — occ-validate: checks occ's predictions against NVIDIA's runtime and a real GPU.
//
//   occ-validate [--quick] [--out DIR] [--only device,occupancy,coalescing,banks] [--no-cupti] [--no-ncu]
//                [--ncu PATH] [--cuobjdump PATH] [--spin-us N] [--device N] [--raw DIR]
//   occ-validate --dry-run [--quick]         the plan: cases, counter configuration per chip, tools,
//                                            and whether a CUDA device is there (no measurement)
//   occ-validate --list-cases [--quick]      case counts, no GPU needed
//   occ-validate --memory-run [--quick]      internal: what Nsight Compute profiles
//
// Prints one row per compared value (occ, NVIDIA runtime, hardware; mismatches marked) and writes
// DIR/<gpu>.json and DIR/<gpu>.md (DIR defaults to cuda_validation/results) after each part, so a run
// cut short still leaves what it measured. Exit status: 0 when nothing mismatched, 1 when something
// did, 2 for bad arguments, 3 when a CUDA call failed, 4 when there is no usable CUDA device (no GPU,
// no driver, or a driver older than the CUDA 13 runtime), 6 when the watchdog ended a process stuck in
// a CUDA call after a launch that never completed (run_regpool.cpp). --dry-run: 0 device found, 4 none, 1 when
// the plan itself is broken (a case table error, a metric CUPTI cannot configure).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "counters.hpp"
#include "gpu.hpp"
#include "harness.hpp"
#include "occ/validation/cases.hpp"

#ifndef OCC_RESULTS_DIR
#define OCC_RESULTS_DIR "cuda_validation/results"
#endif
#ifndef OCC_VERSION
#define OCC_VERSION "unknown"
#endif

namespace occv {
namespace vl = occ::validation;

void check_cuda(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return;
    std::fprintf(stderr, "occ-validate: %s failed: %s (%s)\n", what, cudaGetErrorName(e), cudaGetErrorString(e));
    std::exit(kExitCudaError);
}

void save_raw(const std::string& dir, const std::string& name, const std::string& text) {
    if (dir.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    std::ofstream(dir + "/" + name) << text;
}

int run_command(const std::string& cmd, std::string& output) {
    output.clear();
    FILE* p = ::popen(cmd.c_str(), "r");
    if (!p) return -1;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) output.append(buf, n);
    const int st = ::pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

std::string find_tool(const std::string& explicit_path, const char* env, const char* name) {
    namespace fs = std::filesystem;
    auto ok = [](const std::string& p) { return !p.empty() && ::access(p.c_str(), X_OK) == 0; };
    if (!explicit_path.empty()) return ok(explicit_path) ? explicit_path : std::string();
    if (const char* e = std::getenv(env); e && ok(e)) return e;
    std::string out;
    if (run_command(std::string("command -v ") + name + " 2>/dev/null", out) == 0) {
        while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
        if (ok(out)) return out;
    }
    std::vector<std::string> dirs;
    if (const char* h = std::getenv("CUDA_HOME")) dirs.push_back(std::string(h) + "/bin");
    dirs.push_back("/usr/local/cuda/bin");
    for (const char* root : {"/opt/nvidia/nsight-compute", "/usr/local/cuda"}) {
        std::error_code ec;
        for (const auto& d : fs::directory_iterator(root, ec))
            if (d.path().filename().string().find("nsight-compute") != std::string::npos ||
                std::string(root).find("nsight") != std::string::npos)
                dirs.push_back(d.path().string());
    }
    for (const std::string& d : dirs)
        if (ok(d + "/" + name)) return d + "/" + name;
    return {};
}

namespace {

int usage(const char* msg) {
    if (msg) std::fprintf(stderr, "occ-validate: %s\n", msg);
    std::fprintf(stderr,
                 "usage: occ-validate [--quick] [--out DIR] [--only device,occupancy,coalescing,banks] [--no-cupti] [--no-ncu]\n"
                 "                    [--ncu PATH] [--cuobjdump PATH] [--spin-us N] [--device N] [--raw DIR]\n"
                 "       occ-validate --dry-run [--quick]\n"
                 "       occ-validate --list-cases [--quick]\n"
                 "exit: 0 no mismatch, 1 mismatches, 2 bad arguments, 3 CUDA error, 4 no usable CUDA device, 6 stuck device (watchdog)\n");
    return kExitUsage;
}

bool parse(int argc, char** argv, Options& o, std::string& err) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](std::string& dst) {
            if (i + 1 >= argc) {
                err = a + " needs a value";
                return false;
            }
            dst = argv[++i];
            return true;
        };
        std::string v;
        if (a == "--quick") o.quick = true;
        else if (a == "--list-cases") o.list_cases = true;
        else if (a == "--memory-run") o.memory_run = true;
        else if (a == "--no-ncu") o.use_ncu = false;
        else if (a == "--no-cupti") o.use_cupti = false;
        else if (a == "--dry-run") o.dry_run = true;
        else if (a == "--out") {
            if (!value(o.out_dir)) return false;
        } else if (a == "--raw") {
            if (!value(o.raw_dir)) return false;
        } else if (a == "--ncu") {
            if (!value(o.ncu)) return false;
        } else if (a == "--cuobjdump") {
            if (!value(o.cuobjdump)) return false;
        } else if (a == "--spin-us" || a == "--device") {
            if (!value(v)) return false;
            char* end = nullptr;
            const long n = std::strtol(v.c_str(), &end, 10);
            if (*end || n < 0 || n > 1000000) {
                err = a + ": expected a non-negative integer, got '" + v + "'";
                return false;
            }
            (a == "--spin-us" ? o.spin_us : o.device_index) = static_cast<int>(n);
        } else if (a == "--only") {
            if (!value(v)) return false;
            o.device = o.occupancy = o.coalescing = o.banks = false;
            std::size_t p = 0;
            while (p <= v.size()) {
                const std::size_t q = std::min(v.find(',', p), v.size());
                const std::string k = v.substr(p, q - p);
                if (k == "device") o.device = true;
                else if (k == "occupancy") o.occupancy = true;
                else if (k == "coalescing") o.coalescing = true;
                else if (k == "banks") o.banks = true;
                else {
                    err = "--only: unknown part '" + k + "' (device, occupancy, coalescing, banks)";
                    return false;
                }
                p = q + 1;
            }
        } else if (a == "-h" || a == "--help") {
            err = "";
            return false;
        } else {
            err = "unknown argument '" + a + "'";
            return false;
        }
    }
    return true;
}

std::string utc_now() {
    const std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// <out>/<gpu>.json and .md; `progress` says which parts are in (a run cut short keeps what it measured).
std::string write_report(vl::Report& r, const Options& opt, const std::string& progress) {
    r.tools["progress"] = progress;
    std::error_code ec;
    std::filesystem::create_directories(opt.out_dir, ec);
    const std::string stem = opt.out_dir + "/" + r.gpu.slug;
    std::ofstream(stem + ".json") << vl::to_json(r).dump(1) << '\n';
    std::ofstream(stem + ".md") << vl::format_markdown(r);
    return stem;
}

}  // namespace
}  // namespace occv

int main(int argc, char** argv) {
    using namespace occv;
    Options opt;
    std::string err;
    if (!parse(argc, argv, opt, err)) return usage(err.empty() ? nullptr : err.c_str());
    if (opt.list_cases) return list_cases(opt);
    if (opt.dry_run) return dry_run(opt);
    if (opt.memory_run) {
        check_cuda(cudaSetDevice(opt.device_index), "cudaSetDevice");
        return memory_run(opt);
    }
    {
        std::error_code ec;
        opt.self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
        if (opt.self.empty()) opt.self = argv[0];
    }
    if (opt.out_dir.empty()) opt.out_dir = OCC_RESULTS_DIR;

    const auto t_start = std::chrono::steady_clock::now();
    int count = 0;
    if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess || count == 0) {
        std::fprintf(stderr, "occ-validate: no CUDA device: %s (%s)\n",
                     e == cudaSuccess ? "cudaGetDeviceCount returned 0" : cudaGetErrorName(e),
                     e == cudaSuccess ? "no GPU visible" : cudaGetErrorString(e));
        return kExitNoDevice;
    }
    if (opt.device_index >= count) return usage("--device: no such GPU");
    check_cuda(cudaSetDevice(opt.device_index), "cudaSetDevice");

    Context ctx;
    ctx.opt = opt;
    check_cuda(cudaGetDeviceProperties(&ctx.prop, opt.device_index), "cudaGetDeviceProperties");
    const cudaDeviceProp& p = ctx.prop;
    if (auto named = occ::find_gpu(p.name); named && named->arch.cc_major == p.major && named->arch.cc_minor == p.minor) {
        ctx.model_device = *named;
        ctx.named = true;
    } else if (auto generic = occ::device_for_cc(p.major, p.minor)) {
        ctx.model_device = *generic;
        ctx.model_device.sm_count = p.multiProcessorCount;
    } else {
        std::fprintf(stderr, "occ-validate: occ has no rules for compute capability %d.%d (%s); supported: %s\n", p.major, p.minor, p.name,
                     occ::supported_cc_list().c_str());
        return 3;
    }

    vl::Report r;
    r.gpu.name = p.name;
    r.gpu.slug = vl::gpu_slug(p.name);
    r.gpu.occ_gpu = ctx.named ? ctx.model_device.name : "";
    r.gpu.cc_major = p.major;
    r.gpu.cc_minor = p.minor;
    r.gpu.sm_count = p.multiProcessorCount;
    cudaDriverGetVersion(&r.gpu.driver_version);
    cudaRuntimeGetVersion(&r.gpu.runtime_version);
    r.mode = opt.quick ? "quick" : "full";
    r.date = utc_now();
    r.occ_version = OCC_VERSION;
    r.predictor_memory = vl::memory_predictor_name();
    std::printf("occ-validate: %s (cc %d.%d, %d SMs), occ entry %s, %s run\n", p.name, p.major, p.minor, p.multiProcessorCount,
                ctx.named ? ctx.model_device.name.c_str() : "(generic)", r.mode.c_str());
    std::fflush(stdout);

    if (opt.device) {
        run_device_constants(ctx, r.cases);
        write_report(r, opt, "device constants done; occupancy and memory pending");
    }
    if (opt.occupancy) {
        const auto t0 = std::chrono::steady_clock::now();
        const std::size_t before = r.cases.size();
        std::printf("occupancy: running...\n");
        std::fflush(stdout);
        run_occupancy(ctx, r.cases, r.tools);
        std::printf("occupancy: %zu cases in %.1f s\n", r.cases.size() - before, seconds_since(t0));
        std::fflush(stdout);
        write_report(r, opt, "device constants and occupancy done; memory pending");
    }
    if (opt.coalescing || opt.banks) {
        const auto t0 = std::chrono::steady_clock::now();
        const std::size_t before = r.cases.size();
        std::printf("memory: running...\n");
        std::fflush(stdout);
        run_memory(ctx, r.cases, r.tools);
        std::printf("memory: %zu cases in %.1f s\n", r.cases.size() - before, seconds_since(t0));
        std::fflush(stdout);
        write_report(r, opt, "device constants, occupancy and memory done; tiles pending");
        const auto t1 = std::chrono::steady_clock::now();
        const std::size_t before_tiles = r.cases.size();
        run_tiles(ctx, r.cases, r.tools);
        std::printf("tiles: %zu cases in %.1f s\n", r.cases.size() - before_tiles, seconds_since(t1));
    }
    counters_shutdown();
    if (opt.occupancy) {
        // Last of all: the setmaxnreg plan that does not fit may leave the device stuck (run_regpool.cpp).
        const auto t0 = std::chrono::steady_clock::now();
        const std::size_t before = r.cases.size();
        std::printf("setmaxnreg plans and Tensor Memory: running...\n");
        std::fflush(stdout);
        run_regpool(ctx, r.cases, r.tools, [&] {
            write_report(r, opt, "every part done; the setmaxnreg plan that does not fit is running (its case provisional)");
        });
        std::printf("setmaxnreg plans and Tensor Memory: %zu cases in %.1f s\n", r.cases.size() - before, seconds_since(t0));
        std::fflush(stdout);
    }
    char took[64];
    std::snprintf(took, sizeof took, "%.1f s", seconds_since(t_start));
    r.tools["run_time"] = took;

    std::fputs(vl::format_table(r).c_str(), stdout);
    std::printf("\n%s\n", vl::format_summary_line(r).c_str());

    const std::string stem = write_report(r, opt, "complete");
    std::printf("wrote %s.json and %s.md (%s)\n", stem.c_str(), stem.c_str(), took);
    const vl::Tally t = r.tally();
    if (t.mismatched) std::printf("%d case(s) MISMATCHED: see the rows marked MISMATCH above\n", t.mismatched);
    const int status = t.mismatched ? kExitMismatch : kExitOk;
    if (ctx.device_stuck) {
        // A kernel never completed: no cudaDeviceReset or runtime teardown (either could wait on it);
        // the driver ends the context when the process exits.
        std::printf("occ-validate: a launch never completed (see the HANG row); leaving without CUDA teardown\n");
        std::fflush(stdout);
        std::fflush(stderr);
        std::_Exit(status);
    }
    return status;
}
