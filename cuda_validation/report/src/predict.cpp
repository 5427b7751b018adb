// predict.cpp — occ's predictions for the memory cases: the ONE place that asks the model about
// global-memory sectors (occ::analyze_global, coalescing.hpp) and shared-memory wavefronts
// (occ::analyze_banks, banks.hpp). The case's threads are cut into warps of 32 consecutive linear
// thread indices (x fastest), each warp is one WarpAccess, and the per-warp answers are summed.
#include <algorithm>

#include "occ/banks.hpp"
#include "occ/coalescing.hpp"
#include "occ/validation/cases.hpp"

namespace occ::validation {
namespace {

WarpAccess warp_of(const MemCase& c, int w) {
    WarpAccess a;
    a.access_bytes = c.elem_size;
    a.op = c.store ? AccessOp::store : AccessOp::load;
    a.active = 0;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
        const int t = w * kWarpLanes + lane;
        if (t >= c.threads()) break;
        // Offsets are relative to a 256-byte-aligned base (cudaMalloc / dynamic shared memory), so
        // sector and bank arithmetic on the offset equals arithmetic on the real address.
        a.addr[lane] = static_cast<std::uint64_t>(c.offsets[t]);
        if (c.active(t)) a.active |= 1u << lane;
    }
    return a;
}

int warps_of(const MemCase& c) { return (c.threads() + kWarpLanes - 1) / kWarpLanes; }

}  // namespace

const char* memory_predictor_name() { return "occ::analyze_global and occ::analyze_banks (occ::core)"; }

GlobalPrediction predict_global(const MemCase& c) {
    GlobalPrediction p;
    for (int w = 0; w < warps_of(c); ++w) {
        const GlobalAccessResult r = analyze_global(warp_of(c, w));
        p.requests += r.requests;
        p.sectors += r.sectors;
    }
    return p;
}

SharedPrediction predict_shared(const MemCase& c, const ArchRules* arch) {
    SharedPrediction p;
    for (int w = 0; w < warps_of(c); ++w) {
        const WarpAccess a = warp_of(c, w);
        const BankResult r = arch ? analyze_banks(a, *arch) : analyze_banks(a);
        if (a.active != 0) ++p.instructions;
        p.wavefronts += r.wavefronts;
        p.conflicts += r.conflicts;
    }
    return p;
}

}  // namespace occ::validation
