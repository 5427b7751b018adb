// run_device.cpp — device constants: occ's table entry vs cudaDeviceProp vs cudaDeviceGetAttribute.
#include <optional>

#include "harness.hpp"
#include "occ/validation/cases.hpp"

namespace occv {
namespace vl = occ::validation;

namespace {

std::optional<std::int64_t> attr(cudaDeviceAttr a, int dev) {
    int v = 0;
    if (cudaDeviceGetAttribute(&v, a, dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return std::nullopt;
    }
    return v;
}

}  // namespace

void run_device_constants(Context& ctx, std::vector<vl::Case>& out) {
    const cudaDeviceProp& p = ctx.prop;
    const occ::ArchRules& a = ctx.model_device.arch;
    const int d = ctx.opt.device_index;
    auto add = [&](const char* name, std::int64_t model, std::optional<std::int64_t> prop, std::optional<std::int64_t> at,
                   const char* what) { out.push_back(vl::device_constant(name, model, prop, at, what)); };

    if (ctx.named) {
        add("multiProcessorCount", ctx.model_device.sm_count, p.multiProcessorCount, attr(cudaDevAttrMultiProcessorCount, d),
            "SMs on this GPU (occ's named-GPU table)");
    } else {
        vl::Case c = vl::device_constant("multiProcessorCount", p.multiProcessorCount, p.multiProcessorCount,
                                         attr(cudaDevAttrMultiProcessorCount, d), "SMs on this GPU");
        c.note = std::string("occ has no named entry for '") + p.name + "': the generic cc device was used";
        c.checks[0].runtime.reset();
        c.checks[0].measured.reset();
        out.push_back(c);
    }
    add("warpSize", a.warp_size, p.warpSize, attr(cudaDevAttrWarpSize, d), "threads per warp");
    add("maxThreadsPerBlock", a.max_threads_per_block, p.maxThreadsPerBlock, attr(cudaDevAttrMaxThreadsPerBlock, d), "threads per block");
    add("maxThreadsPerMultiProcessor", a.max_threads_per_sm, p.maxThreadsPerMultiProcessor, attr(cudaDevAttrMaxThreadsPerMultiProcessor, d),
        "resident threads per SM");
    add("maxWarpsPerMultiProcessor", a.max_warps_per_sm(), p.maxThreadsPerMultiProcessor / p.warpSize, std::nullopt,
        "resident warps per SM (threads / warp size)");
    add("maxBlocksPerMultiProcessor", a.max_blocks_per_sm, p.maxBlocksPerMultiProcessor, attr(cudaDevAttrMaxBlocksPerMultiprocessor, d),
        "resident blocks per SM");
    add("regsPerMultiprocessor", a.regs_per_sm, p.regsPerMultiprocessor, attr(cudaDevAttrMaxRegistersPerMultiprocessor, d),
        "32-bit registers per SM");
    add("regsPerBlock", a.regs_per_block, p.regsPerBlock, attr(cudaDevAttrMaxRegistersPerBlock, d), "registers per block");
    add("sharedMemPerMultiprocessor", a.smem_per_sm, static_cast<std::int64_t>(p.sharedMemPerMultiprocessor),
        attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor, d), "shared memory per SM, largest carveout (bytes)");
    add("sharedMemPerBlock", a.smem_per_block, static_cast<std::int64_t>(p.sharedMemPerBlock), attr(cudaDevAttrMaxSharedMemoryPerBlock, d),
        "shared memory per block without opt-in (bytes)");
    add("sharedMemPerBlockOptin", a.smem_per_block_optin, static_cast<std::int64_t>(p.sharedMemPerBlockOptin),
        attr(cudaDevAttrMaxSharedMemoryPerBlockOptin, d), "opt-in maximum per block (bytes)");
    add("reservedSharedMemPerBlock", a.smem_reserved_per_block, static_cast<std::int64_t>(p.reservedSharedMemPerBlock),
        attr(cudaDevAttrReservedSharedMemoryPerBlock, d), "shared memory the driver reserves per block (bytes)");
    const auto carve = a.carveouts();
    if (!carve.empty())
        add("largestCarveout", carve.back(), static_cast<std::int64_t>(p.sharedMemPerMultiprocessor), std::nullopt,
            "occ's largest carveout step vs sharedMemPerMultiprocessor (bytes)");
}

}  // namespace occv
