// run_regpool.cpp — the setmaxnreg register-plan cases (kernels_regpool.cu, sm_90a) and the Tensor
// Memory cases (kernels_tmem.cu, sm_100a); README sections 6 and 7.
//
// Hang guard (README section 6). A setmaxnreg.inc that the block's pool cannot meet blocks, and a
// blocked instruction polls nothing, so:
//  1. the kernel is built not to hang: warpgroups take their counts in order (producer's .dec first,
//     then each consumer only once the previous one holds its count), and every consumer that
//     increased gives its extra registers back after a fixed hold. A plan that does not fit then
//     SERIALISES (the waiting .inc is met by an earlier consumer's give-back) and the block ends;
//     "fits" is observed as "every warpgroup held its count at the same time" (timestamps);
//  2. if the hardware still never meets the .inc (the pool does not work as the PTX ISA reads), the
//     host never waits on the device: the launch goes to its own non-blocking stream, completion is
//     polled with cudaEventQuery against a timeout, and the per-block flags and timestamps live in
//     mapped pinned memory that the host reads without a CUDA call;
//  3. the plan that occ says does not fit runs LAST, after every other case (and the CUPTI session)
//     is done, with the report written first (its case provisionally "did not complete"); after a
//     timeout the harness makes no further CUDA call, writes the report, and main() leaves with
//     std::_Exit (no cudaDeviceReset, no runtime teardown that could wait on the stuck kernel);
//  4. a watchdog thread ends the process (std::_Exit, exit 6; run.sh does not rerun after 6) if the harness itself is stuck in a CUDA
//     call past the timeout; the report on disk then holds the provisional result of step 3.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "gpu.hpp"
#include "harness.hpp"
#include "occ/validation/regpool.hpp"

namespace occv {
namespace vl = occ::validation;

namespace {

using clock_type = std::chrono::steady_clock;

// Pinned host memory mapped into the device: the kernel writes it, the host reads it with no CUDA call.
template <typename T>
struct Mapped {
    T* host = nullptr;
    T* dev = nullptr;
    std::size_t n = 0;
    explicit Mapped(std::size_t count) : n(count) {
        check_cuda(cudaHostAlloc(reinterpret_cast<void**>(&host), sizeof(T) * n, cudaHostAllocMapped), "cudaHostAlloc(mapped)");
        check_cuda(cudaHostGetDevicePointer(reinterpret_cast<void**>(&dev), host, 0), "cudaHostGetDevicePointer");
        clear();
    }
    void clear() { std::memset(host, 0, sizeof(T) * n); }
    T get(std::size_t i) const { return reinterpret_cast<volatile const T*>(host)[i]; }
    void release() {  // only while the device is healthy
        if (host) cudaFreeHost(host);
        host = dev = nullptr;
    }
};

// Polls the event until it completes or the timeout passes. Returns cudaSuccess, cudaErrorNotReady
// (timed out) or the error the event reported.
cudaError_t wait_for(cudaEvent_t ev, double timeout_s, double& seconds) {
    const auto t0 = clock_type::now();
    for (;;) {
        const cudaError_t e = cudaEventQuery(ev);
        seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
        if (e != cudaErrorNotReady) return e;
        if (seconds > timeout_s) return cudaErrorNotReady;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
}

constexpr double kTimeoutS = 10.0;        // a wave of these blocks takes well under a millisecond
constexpr double kWatchdogGraceS = 20.0;  // beyond the timeout: the harness itself is stuck

// One guarded launch: the kernel with one argument struct on `stream`, then a wait of at most
// kTimeoutS. `launched` false: the launch failed (note says why). `timed_out`: no completion in
// time; the device is marked stuck and the caller must return at once, making no further CUDA call.
struct Guarded {
    bool launched = false;
    bool timed_out = false;
    double seconds = 0;
    std::string note;
};
template <typename Args>
Guarded launch_guarded(Context& ctx, const void* func, long long blocks, int threads, Args& args, cudaStream_t stream,
                       const std::string& what) {
    Guarded g;
    void* params[] = {&args};
    cudaEvent_t ev = nullptr;
    check_cuda(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming), "cudaEventCreate");
    const cudaError_t launch = cudaLaunchKernel(func, dim3(static_cast<unsigned>(blocks)), dim3(static_cast<unsigned>(threads)), params, 0,
                                                stream);
    if (launch != cudaSuccess) {
        (void)cudaGetLastError();
        g.note = std::string("launch failed: ") + cudaGetErrorString(launch);
    } else {
        g.launched = true;
        check_cuda(cudaEventRecord(ev, stream), "cudaEventRecord");
        const cudaError_t e = wait_for(ev, kTimeoutS, g.seconds);
        if (e == cudaErrorNotReady) {
            g.timed_out = true;  // no further CUDA call in this process (main() leaves with _Exit)
            ctx.device_stuck = true;
            g.note = "no completion within " + std::to_string(static_cast<int>(kTimeoutS)) + " s: the harness stopped using the device";
            return g;
        }
        check_cuda(e, what.c_str());
    }
    cudaEventDestroy(ev);
    return g;
}

class Watchdog {
public:
    explicit Watchdog(double after_s) {
        thread_ = std::thread([this, after_s] {
            const auto end = clock_type::now() + std::chrono::duration<double>(after_s);
            while (!done_.load()) {
                if (clock_type::now() > end) {
                    std::fprintf(stderr,
                                 "occ-validate: watchdog: still inside a CUDA call %.0f s after the setmaxnreg launch; exiting "
                                 "(the report on disk holds this case as provisionally not completed)\n",
                                 after_s);
                    std::fflush(stdout);
                    std::fflush(stderr);
                    std::_Exit(kExitStuck);
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
        });
    }
    ~Watchdog() {
        done_ = true;
        thread_.join();
    }

private:
    std::atomic<bool> done_{false};
    std::thread thread_;
};

std::string cc_text(const cudaDeviceProp& p) { return std::to_string(p.major) + "." + std::to_string(p.minor); }

occ::Device model_for(const Context& ctx, int major, int minor) {
    if (ctx.prop.major == major && ctx.prop.minor == minor) return ctx.model_device;
    return occ::device_for_cc(major, minor).value_or(ctx.model_device);
}

vl::RegPlanMeasurement run_plan(Context& ctx, const vl::RegPlanCase& c, const RegPoolKernel& k, const occ::Device& d, cudaStream_t stream) {
    vl::RegPlanMeasurement m;
    const int sms = ctx.prop.multiProcessorCount;
    cudaFuncAttributes fa{};
    check_cuda(cudaFuncGetAttributes(&fa, k.func), ("cudaFuncGetAttributes(" + k.name + ")").c_str());
    m.regs = fa.numRegs;
    int rt = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&rt, k.func, c.threads, 0) == cudaSuccess) m.runtime = rt;
    (void)cudaGetLastError();
    const int model = vl::predict_regpool(c, d, fa.numRegs).blocks_per_sm;
    m.blocks = static_cast<long long>(std::max({1, model, rt})) * sms * 3;
    const auto nb = static_cast<std::size_t>(m.blocks);

    Mapped<unsigned long long> acq(nb * kRegPoolMaxWarpgroups), rel(nb * kRegPoolMaxWarpgroups);
    Mapped<unsigned> sm(nb), done(nb);
    unsigned* count = nullptr;
    unsigned* peak = nullptr;
    check_cuda(cudaMalloc(&count, sizeof(unsigned) * kMaxSms), "cudaMalloc(count)");
    check_cuda(cudaMalloc(&peak, sizeof(unsigned) * kMaxSms), "cudaMalloc(peak)");
    check_cuda(cudaMemset(count, 0, sizeof(unsigned) * kMaxSms), "cudaMemset");
    check_cuda(cudaMemset(peak, 0, sizeof(unsigned) * kMaxSms), "cudaMemset");
    RegPoolArgs a{acq.dev, rel.dev, sm.dev, done.dev, count, peak, 200'000ull /* hold 200 us */, 2'000'000ull /* wait <= 2 ms */};
    const Guarded g = launch_guarded(ctx, k.func, m.blocks, c.threads, a, stream, "setmaxnreg kernel " + k.name);
    m.seconds = g.seconds;
    if (!g.launched) {
        m.note = g.note;
        m.completed = 0;
        m.resident = 0;
    } else {
        for (std::size_t b = 0; b < nb; ++b) m.completed += done.get(b) != 0;
        if (g.timed_out) {
            m.timed_out = true;
            m.note = g.note;
            return m;
        }
        std::vector<unsigned> host_peak(kMaxSms);
        check_cuda(cudaMemcpy(host_peak.data(), peak, sizeof(unsigned) * kMaxSms, cudaMemcpyDeviceToHost), "cudaMemcpy(peak)");
        m.resident = static_cast<int>(*std::max_element(host_peak.begin(), host_peak.end()));
        const std::size_t wgs = static_cast<std::size_t>(c.threads / kWarpgroupThreads);
        for (std::size_t b = 0; b < nb; ++b) {
            if (!done.get(b)) continue;
            std::vector<unsigned long long> ba, br;
            for (std::size_t w = 0; w < wgs; ++w) {
                ba.push_back(acq.get(b * kRegPoolMaxWarpgroups + w));
                br.push_back(rel.get(b * kRegPoolMaxWarpgroups + w));
            }
            m.overlapped += vl::held_at_once(ba, br);
        }
        m.note = "grid " + std::to_string(m.blocks) + ", hold 200 us";
    }
    cudaFree(count);
    cudaFree(peak);
    for (auto* p : {&acq, &rel}) p->release();
    sm.release();
    done.release();
    return m;
}

vl::TmemMeasurement run_tmem(Context& ctx, const vl::TmemCase& c, const TmemKernel& k, cudaStream_t stream) {
    vl::TmemMeasurement m;
    cudaFuncAttributes fa{};
    check_cuda(cudaFuncGetAttributes(&fa, k.func), ("cudaFuncGetAttributes(" + k.name + ")").c_str());
    m.regs = fa.numRegs;
    int rt = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&rt, k.func, c.threads, 0) == cudaSuccess) m.runtime = rt;
    (void)cudaGetLastError();
    // Enough blocks for three rounds of the columns on every SM.
    m.blocks = static_cast<long long>(std::max(1, 512 / c.columns)) * ctx.prop.multiProcessorCount * 3;
    const auto nb = static_cast<std::size_t>(m.blocks);
    Mapped<unsigned long long> acq(nb), rel(nb);
    Mapped<unsigned> sm(nb), done(nb);
    TmemArgs a{acq.dev, rel.dev, sm.dev, done.dev, 100'000ull /* hold 100 us */};
    const Guarded g = launch_guarded(ctx, k.func, m.blocks, c.threads, a, stream, "Tensor Memory kernel " + k.name);
    if (!g.launched) {
        m.note = g.note;
    } else {
        for (std::size_t b = 0; b < nb; ++b) m.completed += done.get(b) != 0;
        if (g.timed_out) {
            m.timed_out = true;
            return m;
        }
        std::vector<unsigned> s(nb);
        std::vector<unsigned long long> ta(nb), tr(nb);
        for (std::size_t b = 0; b < nb; ++b) {
            s[b] = sm.get(b);
            ta[b] = acq.get(b);
            tr[b] = rel.get(b);
        }
        m.holding = vl::max_concurrent(s, ta, tr);
        m.note = "grid " + std::to_string(m.blocks) + ", hold 100 us";
    }
    acq.release();
    rel.release();
    sm.release();
    done.release();
    return m;
}

}  // namespace

void run_regpool(Context& ctx, std::vector<vl::Case>& out, vl::json& tools, const std::function<void()>& checkpoint) {
    const cudaDeviceProp& p = ctx.prop;
    const bool hopper = p.major == vl::kRegPoolCcMajor && p.minor == vl::kRegPoolCcMinor;
    const bool b200 = p.major == vl::kTmemCcMajor && p.minor == vl::kTmemCcMinor;
    const std::string here = " — skipped on this GPU (cc " + cc_text(p) + ")";
    cudaStream_t stream = nullptr;
    if (hopper || b200) check_cuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");

    // Tensor Memory first: every block gives its columns back, so these cannot hang.
    const occ::Device tmem_dev = model_for(ctx, vl::kTmemCcMajor, vl::kTmemCcMinor);
    const auto tk = tmem_kernels();
    for (const vl::TmemCase& c : vl::tmem_cases()) {
        const auto k = std::find_if(tk.begin(), tk.end(), [&](const TmemKernel& x) { return x.name == c.kernel; });
        if (!b200 || k == tk.end() || ctx.device_stuck) {
            out.push_back(vl::tmem_result(c, tmem_dev, std::nullopt,
                                          ctx.device_stuck ? "not run: the device is stuck" : std::string(vl::kTmemNeeds) + here));
            continue;
        }
        out.push_back(vl::tmem_result(c, tmem_dev, run_tmem(ctx, c, *k, stream)));
    }
    tools["tmem"] = b200 ? "tcgen05.alloc residency measured (sm_100a kernels)" : std::string(vl::kTmemNeeds) + here;

    // setmaxnreg plans, the one occ says does not fit last.
    const occ::Device pool_dev = model_for(ctx, vl::kRegPoolCcMajor, vl::kRegPoolCcMinor);
    const auto rk = regpool_kernels();
    for (const vl::RegPlanCase& c : vl::regpool_cases()) {
        const auto k = std::find_if(rk.begin(), rk.end(), [&](const RegPoolKernel& x) { return x.name == c.kernel; });
        if (!hopper || k == rk.end() || ctx.device_stuck) {
            out.push_back(vl::regpool_result(c, pool_dev, std::nullopt,
                                             ctx.device_stuck ? "not run: the device is stuck" : std::string(vl::kRegPoolNeeds) + here));
            continue;
        }
        const bool fits = vl::predict_regpool(c, pool_dev, c.launch_regs()).pool.fits;
        if (fits) {
            out.push_back(vl::regpool_result(c, pool_dev, run_plan(ctx, c, *k, pool_dev, stream)));
            continue;
        }
        // Provisional result on disk before the launch that may not come back.
        vl::RegPlanMeasurement provisional;
        provisional.timed_out = true;
        provisional.note = "PROVISIONAL row, written before the launch: if it is still here, the watchdog ended the process during it";
        out.push_back(vl::regpool_result(c, pool_dev, provisional));
        checkpoint();
        std::printf("setmaxnreg: launching %s (occ: does not fit; timeout %.0f s)\n", c.kernel.c_str(), kTimeoutS);
        std::fflush(stdout);
        vl::RegPlanMeasurement m;
        {
            Watchdog w(kTimeoutS + kWatchdogGraceS);
            m = run_plan(ctx, c, *k, pool_dev, stream);
        }
        out.back() = vl::regpool_result(c, pool_dev, m);
    }
    tools["setmaxnreg"] = hopper ? (ctx.device_stuck ? "measured; the plan that does not fit never completed (device left stuck, process "
                                                       "ended with _Exit)"
                                                     : "measured (sm_90a kernels)")
                                 : std::string(vl::kRegPoolNeeds) + here;
    if (stream && !ctx.device_stuck) cudaStreamDestroy(stream);
}

}  // namespace occv
