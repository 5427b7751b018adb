// occ::core's public headers compile with nvcc, so CUDA code (cuda_validation) can use them.
#include <occ/device.hpp>
#include <occ/format.hpp>
#include <occ/occupancy.hpp>
#include <occ/prepared.hpp>
#include <occ/sweep.hpp>

__global__ void touch(int* out) { out[threadIdx.x] = occ::kUnlimited > 0 ? 1 : 0; }

int host_side() {
    occ::KernelResources k;
    occ::LaunchConfig l;
    return l.threads + k.regs_per_thread;
}
