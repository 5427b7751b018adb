// occ/validation/regpool.hpp — the setmaxnreg register-plan cases and the Tensor Memory cases of
// cuda_validation (README sections 6 and 7): which plans and column counts are run, what occ predicts
// for them (occ::register_pool, occ::compute_occupancy with tmem_columns), and how a measurement
// becomes a report case. Host-only, so tests/validation checks the table against occ's model
// without a GPU; the kernels are src/kernels_regpool.cu (sm_90a) and src/kernels_tmem.cu (sm_100a).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "occ/device.hpp"
#include "occ/register_pool.hpp"
#include "occ/validation/report.hpp"

namespace occ::validation {

// --- setmaxnreg plans (kind occupancy, ids "regpool/...") ----------------------------------------------
struct RegPlanCase {
    std::string id;           // "regpool/t384/24-240-240"
    std::string kernel;       // extern "C" name in kernels_regpool.cu: "occv_regpool_384_24_240_240"
    std::string source;       // where the plan comes from
    int threads = 0;          // __launch_bounds__(threads, 1)
    std::vector<int> plan;    // one count per warpgroup of 128 threads, warpgroup 0 the producer
    int launch_regs() const;  // what ptxas gives at entry: 65536 / threads rounded down to 8, at most 255
};
// The plans, in launch order: the one that does not fit is LAST (the hang guard, README section 6).
std::vector<RegPlanCase> regpool_cases();
// The compute capability the kernels' SASS runs on (sm_90a: 9.0 only) and the GPUs that have it.
inline constexpr int kRegPoolCcMajor = 9, kRegPoolCcMinor = 0;
inline constexpr const char* kRegPoolNeeds = "needs an H100/H200 (compute capability 9.0: the kernels are sm_90a SASS)";

struct RegPlanPrediction {
    RegisterPoolAnswer pool;  // occ::register_pool at the launch count
    int blocks_per_sm = 0;    // occ::compute_occupancy at `regs` registers (0 = cannot launch)
    std::string limiter;
};
// occ's answers for case c on device d when the kernel has `regs` registers (cudaFuncAttributes::numRegs;
// the case's launch_regs() before a GPU says otherwise).
RegPlanPrediction predict_regpool(const RegPlanCase& c, const Device& d, int regs);

struct RegPlanMeasurement {
    int regs = 0;                 // cudaFuncAttributes::numRegs (nullopt-like 0: not read)
    std::optional<int> runtime;   // cudaOccupancyMaxActiveBlocksPerMultiprocessor
    std::optional<int> resident;  // peak blocks on one SM
    long long blocks = 0;         // grid
    long long completed = 0;      // blocks whose done flag was set
    long long overlapped = 0;     // completed blocks in which every warpgroup held its count at once
    bool timed_out = false;       // not every block completed in time (a hang)
    double seconds = 0;           // launch to completion (or to the timeout)
    std::string note;
};
// A block held the whole plan at once when every warpgroup's acquisition came before every release.
bool held_at_once(const std::vector<unsigned long long>& acq, const std::vector<unsigned long long>& rel);
// Checks: launch_regs (occ's entry count vs numRegs), blocks_per_sm (occ vs runtime vs resident),
// fits (occ::register_pool vs observed: every block completed and held its plan at once).
// `m` nullopt: not run on this GPU (`skipped` says why): occ's answers only, status unverified.
Case regpool_result(const RegPlanCase& c, const Device& d, const std::optional<RegPlanMeasurement>& m, const std::string& skipped = "");

// --- Tensor Memory (kind occupancy, ids "tmem/...") ----------------------------------------------------
struct TmemCase {
    std::string id;      // "tmem/c128"
    std::string kernel;  // "occv_tmem_128"
    int columns = 0;     // tcgen05.alloc per block
    int threads = 32;    // one warp
};
std::vector<TmemCase> tmem_cases();  // 32, 64, 128, 256, 512 columns
inline constexpr int kTmemCcMajor = 10, kTmemCcMinor = 0;
inline constexpr const char* kTmemNeeds = "needs a B200 (compute capability 10.0: the kernels are sm_100a SASS)";
// occ's effective blocks per SM (Tensor Memory included) on device d for a kernel of `regs` registers.
int predict_tmem(const TmemCase& c, const Device& d, int regs);
struct TmemMeasurement {
    int regs = 0;
    std::optional<int> runtime;  // cudaOccupancyMaxActiveBlocksPerMultiprocessor (knows nothing of Tensor Memory)
    std::optional<int> holding;  // most blocks holding columns at once on one SM (from the timestamps)
    long long blocks = 0, completed = 0;
    bool timed_out = false;
    std::string note;
};
// Most intervals [acq, rel) open at once among blocks with the same SM id.
int max_concurrent(const std::vector<unsigned>& sm, const std::vector<unsigned long long>& acq, const std::vector<unsigned long long>& rel);
// Check tmem_blocks_per_sm: occ's effective count vs the blocks seen holding columns at once (the
// runtime's count, which ignores Tensor Memory, goes into inputs). `m` nullopt: skipped.
Case tmem_result(const TmemCase& c, const Device& d, const std::optional<TmemMeasurement>& m, const std::string& skipped = "");

}  // namespace occ::validation
