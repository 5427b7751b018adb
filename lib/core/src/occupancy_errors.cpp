// occupancy_errors.cpp — a refusal's words: OccupancyResult::error_message() turns the code and the
// numbers compute_occupancy stored (occupancy.cpp, record_error) into text, only when someone reads it.
#include <cstdio>

#include "occ/format.hpp"
#include "occ/occupancy.hpp"

namespace occ {

using Fail = OccupancyError;

std::string OccupancyResult::error_message() const {
    if (ok()) return {};
    char buf[512];
    std::int64_t v[kErrorArgs];
    for (int i = 0; i < kErrorArgs; ++i) v[i] = error_arg(i);
    const auto ll = [](std::int64_t x) { return static_cast<long long>(x); };
    const auto bytes = [](std::int64_t x) { return format_bytes(x); };
    switch (error_code) {
        case Fail::none: return {};
        case Fail::threads_range:
            std::snprintf(buf, sizeof buf, "threads must be 1..%lld (threads per block), got %lld", ll(v[0]), ll(v[1]));
            break;
        case Fail::threads_too_many:
            std::snprintf(buf, sizeof buf, "threads must be 1..%lld on compute capability %lld.%lld, got %lld: the launch would fail",
                          ll(v[0]), ll(v[1]), ll(v[2]), ll(v[3]));
            break;
        case Fail::threads_over_kernel_max:
            std::snprintf(buf, sizeof buf,
                          "threads: the kernel takes at most %lld threads per block (max_threads: its __launch_bounds__ or "
                          "cudaFuncAttributes::maxThreadsPerBlock), got %lld: the launch would fail",
                          ll(v[0]), ll(v[1]));
            break;
        case Fail::regs_range:
            std::snprintf(buf, sizeof buf, "regs must be 0..%lld (registers per thread), got %lld", ll(v[0]), ll(v[1]));
            break;
        case Fail::regs_per_block:
            std::snprintf(buf, sizeof buf,
                          "regs: %lld registers x %lld threads needs %lld registers per block (%lld per warp after rounding to %lld, "
                          "%lld warps counted as %lld across %lld sub-partitions); the limit is %lld per block: "
                          "use fewer registers (__launch_bounds__ / -maxrregcount) or a smaller block",
                          ll(v[0]), ll(v[1]), ll(v[2]), ll(v[3]), ll(v[4]), ll(v[5]), ll(v[6]), ll(v[7]), ll(v[8]));
            break;
        case Fail::smem_negative:
            std::snprintf(buf, sizeof buf, "%s must be >= 0 bytes, got %lld", v[0] ? "smem_static" : "smem_dynamic", ll(v[1]));
            break;
        case Fail::smem_over_block:
            std::snprintf(
                buf, sizeof buf,
                "shared memory per block is %s (static %s + dynamic %s + reserved %s, rounded to %lld B), over the %s a block may use%s",
                bytes(v[0]).c_str(), bytes(v[1]).c_str(), bytes(v[2]).c_str(), bytes(v[3]).c_str(), ll(v[4]), bytes(v[5]).c_str(),
                v[6] ? ": opt in (--optin, cudaFuncAttributeMaxDynamicSharedMemorySize) to raise it" : "");
            break;
        case Fail::smem_over_kernel_max:
            std::snprintf(buf, sizeof buf,
                          "smem_dynamic %s is above the kernel's max_dynamic_smem %s (cudaFuncAttributeMaxDynamicSharedMemorySize)",
                          bytes(v[0]).c_str(), bytes(v[1]).c_str());
            break;
        case Fail::max_dyn_range:
            std::snprintf(buf, sizeof buf, "max_dynamic_smem must be 0..%lld bytes (opt-in maximum %s minus static %s), got %lld", ll(v[0]),
                          bytes(v[1]).c_str(), bytes(v[2]).c_str(), ll(v[3]));
            break;
        case Fail::carveout_range:
            std::snprintf(buf, sizeof buf, "carveout must be -1 (default) or 0..100 percent, got %lld", ll(v[0]));
            break;
        case Fail::barriers_range:
            std::snprintf(buf, sizeof buf, "barriers must be 0..%d (named barriers per block), got %lld", kMaxNamedBarriers, ll(v[0]));
            break;
        case Fail::no_carveout_fits:
            std::snprintf(buf, sizeof buf, "no shared-memory carveout of this device holds one block of %s", bytes(v[0]).c_str());
            break;
        case Fail::virtual_range:
            std::snprintf(buf, sizeof buf, "virtual_resources must be >= 0 (virtual resources per block, 0 = none), got %lld", ll(v[0]));
            break;
        case Fail::virtual_too_many:
            std::snprintf(
                buf, sizeof buf,
                "virtual_resources: %lld per block is more than the %lld an SM has on compute capability %lld.%lld: no block fits",
                ll(v[0]), ll(v[1]), ll(v[2]), ll(v[3]));
            break;
    }
    return buf;
}

}  // namespace occ
