// run_occupancy.cpp — for each residency kernel and launch configuration: occ's model,
// cudaOccupancyMaxActiveBlocksPerMultiprocessor, and the residency the hardware really reached.
//
// Measurement (MODEL.md "Hardware measurement"): thread 0 of every block reads %smid, increments a
// per-SM counter and keeps a running maximum; all threads spin on %globaltimer, then thread 0
// decrements. The grid is ~3 waves of the larger prediction (so every SM fills up even when both
// predictions are low); the maximum over SMs is the resident blocks per SM.
#include <algorithm>
#include <cstdio>

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
        s += r.error;
        return s;
    }
    for (occ::Limiter l : occ::kAllLimiters) {
        if (!(r.limiters & l)) continue;
        if (!s.empty()) s += '+';
        s += occ::limiter_name(l);
    }
    return s;
}

}  // namespace

void run_occupancy(Context& ctx, std::vector<vl::Case>& out) {
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
    int index = 0;
    for (const ResidencyKernel& k : kernels) {
        cudaFuncAttributes fa{};
        check_cuda(cudaFuncGetAttributes(&fa, k.func), "cudaFuncGetAttributes");
        const vl::OccKernel desc{k.name, fa.maxThreadsPerBlock, static_cast<std::int64_t>(fa.sharedSizeBytes)};
        const auto configs = vl::occupancy_configs(desc, index++, ctx.opt.quick,
                                                   static_cast<std::int64_t>(ctx.prop.sharedMemPerBlockOptin));
        for (const vl::OccConfig& c : configs) {
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
            m.note = note;
            out.push_back(vl::occupancy_result(m));
        }
    }
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
