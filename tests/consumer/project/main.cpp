// A program outside the tree using the installed occ::core.
#include <cstdio>

#include <occ/device.hpp>
#include <occ/occupancy.hpp>

int main() {
    const auto dev = occ::find_gpu("A100");
    occ::KernelResources k;
    k.regs_per_thread = 64;
    occ::LaunchConfig l;
    l.threads = 256;
    const auto r = occ::compute_occupancy(*dev, k, l);
    std::printf("blocks_per_sm=%d occupancy=%.2f\n", r.blocks_per_sm, r.occupancy);
    return r.blocks_per_sm == 4 ? 0 : 1;
}
