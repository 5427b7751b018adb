// occ's AMD model on stdin/stdout, for the differential test against llc (amd_oracle.py).
// Each input line: isa wave_size cu_mode threads vgprs agprs sgprs lds_bytes
// Each output line: waves_per_simd llvm19_estimate llvm14_estimate llvm19_estimate_lds_rounded total_vgprs lds_allocated workgroups_per_cu
// sgpr_waves llvm_sgpr_waves
// (or "error <message>").
#include <iostream>
#include <sstream>
#include <string>

#include "occ/amd.hpp"

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string isa;
        int wave = 0, cu = 0;
        occ::amd::AmdKernel k;
        occ::amd::AmdLaunch l;
        if (!(in >> isa >> wave >> cu >> l.threads >> k.vgprs >> k.agprs >> k.sgprs >> k.lds_bytes)) {
            std::cout << "error bad line\n";
            continue;
        }
        const auto* a = occ::amd::find_amd_arch(isa);
        if (!a) {
            std::cout << "error unknown isa " << isa << "\n";
            continue;
        }
        l.wave_size = wave;
        l.cu_mode = cu != 0;
        const auto r = occ::amd::compute_amd_occupancy(*a, k, l);
        if (!r.ok()) {
            std::cout << "error " << r.error_message << "\n";
            continue;
        }
        occ::amd::AmdKernel kr = k;  // the same kernel with its LDS rounded to the granule
        kr.lds_bytes = r.lds_allocated;
        const int rounded = occ::amd::amd_llvm_occupancy(*a, kr, l, 19);
        std::cout << r.waves_per_simd << ' ' << r.llvm_waves_per_simd << ' ' << occ::amd::amd_llvm_occupancy(*a, k, l, 14) << ' ' << rounded
                  << ' ' << occ::amd::amd_total_vgprs(*a, k.vgprs, k.agprs) << ' ' << r.lds_allocated << ' ' << r.workgroups_per_cu << ' '
                  << r.waves_per_simd_sgprs << ' ' << occ::amd::amd_llvm_waves_per_simd_sgprs(*a, k.sgprs) << '\n';
    }
    return 0;
}
