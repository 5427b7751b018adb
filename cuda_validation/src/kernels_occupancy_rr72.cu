// kernels_occupancy_rr72.cu — compiled with -maxrregcount=72 (CMakeLists.txt).
#include "residency.cuh"

namespace occv {

void add_residency_kernels_rr72(std::vector<ResidencyKernel>& v) {
    add<128, 0>(v, "rr72_", "-maxrregcount=72");
    add<232, 0>(v, "rr72_", "-maxrregcount=72");
}

}  // namespace occv
