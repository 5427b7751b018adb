// kernels_occupancy_rr32.cu — compiled with -maxrregcount=32 (CMakeLists.txt): the compiler caps
// the register count and spills the rest to local memory.
#include "residency.cuh"

namespace occv {

void add_residency_kernels_rr32(std::vector<ResidencyKernel>& v) {
    add<64, 0>(v, "rr32_", "-maxrregcount=32");
    add<128, 0>(v, "rr32_", "-maxrregcount=32");
    add<64, 8192>(v, "rr32_", "-maxrregcount=32");
}

}  // namespace occv
