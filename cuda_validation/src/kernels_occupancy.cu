// kernels_occupancy.cu — residency kernels with register counts from ~10 to 255 (templates and
// __launch_bounds__) and static shared memory from 0 to 48 KB. Real counts come from
// cudaFuncGetAttributes at run time; the template parameters only steer the compiler.
#include "residency.cuh"

namespace occv {

void add_residency_kernels_main(std::vector<ResidencyKernel>& v) {
    add<1, 0>(v, "", "template");
    add<8, 0>(v, "", "template");
    add<16, 0>(v, "", "template");
    add<24, 0>(v, "", "template");
    add<32, 0>(v, "", "template");
    add<40, 0>(v, "", "template");
    add<48, 0>(v, "", "template");
    add<56, 0>(v, "", "template");
    add<64, 0>(v, "", "template");
    add<80, 0>(v, "", "template");
    add<96, 0>(v, "", "template");
    add<112, 0>(v, "", "template");
    add<128, 0>(v, "", "template");
    add<160, 0>(v, "", "template");
    add<192, 0>(v, "", "template");
    add<232, 0>(v, "", "template");
    add<16, 1024>(v, "", "template");
    add<16, 6144>(v, "", "template");
    add<16, 12288>(v, "", "template");
    add<16, 24576>(v, "", "template");
    add<16, 40960>(v, "", "template");
    add<16, 49152>(v, "", "template");
    add<64, 12288>(v, "", "template");
    add<128, 24576>(v, "", "template");
    add<32, 32768>(v, "", "template");
    add_lb<128, 0, 256, 4>(v);
    add_lb<128, 0, 128, 8>(v);
    add_lb<96, 0, 1024, 1>(v);
    add_lb<160, 0, 512, 2>(v);
    add_lb<64, 0, 768, 1>(v);
    add_lb<200, 4096, 384, 3>(v);
}

}  // namespace occv
