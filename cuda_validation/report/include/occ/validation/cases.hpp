// occ/validation/cases.hpp — the case tables cuda_validation runs, and occ's predictions for them.
// Host-only and deterministic, so the same tables are unit-tested here and replayed under ncu.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "occ/device.hpp"
#include "occ/validation/report.hpp"

namespace occ::validation {

// --- Memory cases (coalescing and banks) ----------------------------------------------------------
// One block of block_x × block_y threads (≤ 64, so one or two warps). Each active thread does ONE
// load or store of elem_size bytes at byte offset offsets[t] from an aligned base (256 B for global,
// the start of dynamic shared memory for banks). Table mode: offsets come from a constant-memory
// table. 2-D mode: the kernel computes base + threadIdx.y * pitch + threadIdx.x * elem_size itself,
// and `offsets` holds the same values in the lane order occ assumes (x fastest, then y).
struct MemCase {
    std::string id;
    std::string description;
    Kind kind = Kind::coalescing;  // coalescing (global) or banks (shared)
    bool store = false;
    int elem_size = 4;  // 1, 2, 4, 8, 16
    int block_x = 32, block_y = 1;
    bool two_d = false;
    std::int64_t base = 0;                   // 2-D mode: first element's byte offset
    std::int64_t pitch = 0;                  // 2-D mode: bytes between rows
    std::vector<std::int64_t> offsets;       // one per linear thread, bytes, multiples of elem_size
    std::uint64_t mask = ~std::uint64_t{0};  // bit t = thread t is active
    int threads() const { return block_x * block_y; }
    bool active(int t) const { return ((mask >> t) & 1u) != 0; }
    json inputs() const;  // for the report
};

inline constexpr int kMaxMemThreads = 64;
inline constexpr std::int64_t kGlobalBufferBytes = 8 << 20;   // what the harness allocates
inline constexpr std::int64_t kSharedBufferBytes = 48 << 10;  // dynamic smem of a bank kernel

std::vector<MemCase> coalescing_cases(bool quick);
std::vector<MemCase> bank_cases(bool quick);
// Empty when the case is well-formed; otherwise what is wrong (alignment, range, size).
std::string validate_case(const MemCase& c);

// --- Predictions -----------------------------------------------------------------------------------
struct GlobalPrediction {
    std::int64_t requests = 0;  // warp-level instructions with at least one active lane
    std::int64_t sectors = 0;   // distinct 32-byte sectors per instruction, summed over warps
};
struct SharedPrediction {
    std::int64_t instructions = 0;  // warp-level instructions executed (warps with an active lane)
    std::int64_t wavefronts = 0;
    std::int64_t conflicts = 0;  // wavefronts − ideal (Nsight Compute's definition)
};
GlobalPrediction predict_global(const MemCase& c);
// `arch`: the GPU's rules (the paired-load merge, banks.hpp); nullptr = the phase model alone.
SharedPrediction predict_shared(const MemCase& c, const ArchRules* arch = nullptr);
// Names the code that made the two predictions above (printed in every report).
const char* memory_predictor_name();
// The SASS opcode suffix width (bytes) the compiler should emit for one access of elem_size.
int expected_sass_width(int elem_size);

// --- Occupancy cases -------------------------------------------------------------------------------
// What a residency kernel is (known at compile time; the harness adds the real register count).
struct OccKernel {
    std::string name;        // "r64_s0", "lb256x4_r128", "rr32_r64", ...
    int max_threads = 1024;  // cudaFuncAttributes::maxThreadsPerBlock (from the harness)
    std::int64_t static_smem = 0;
};
struct OccConfig {
    int threads = 256;
    std::int64_t dynamic_smem = 0;
    int carveout = -1;   // cudaFuncAttributePreferredSharedMemoryCarveout, -1 = default
    bool optin = false;  // raise cudaFuncAttributeMaxDynamicSharedMemorySize to dynamic_smem
};
// The configurations one kernel is launched with: block sizes 32..1024 (odd ones too), dynamic
// shared memory with and without opt-in, carveout preferences. Deterministic in (kernel_index, quick).
// optin_max: the device's sharedMemPerBlockOptin. Mostly launchable cases, a few that must fail.
std::vector<OccConfig> occupancy_configs(const OccKernel& k, int kernel_index, bool quick, std::int64_t optin_max);

}  // namespace occ::validation

// --- Result builders (prediction + what NVIDIA said + what the hardware did -> one report case) -----
namespace occ::validation {

struct NcuLaunch;

// A memory case's report entry. `launch`: its Nsight Compute counters (nullptr: not measured).
// `sass_width`: bytes per lane of the kernel's LDG/STG/LDS/STS per cuobjdump (nullopt: not checked;
// -1: several widths found).
Case memory_result(const MemCase& c, const NcuLaunch* launch, std::optional<std::int64_t> sass_width, const ArchRules* arch = nullptr);

// The ncu launch of each case (nullptr where none): the harness launches case i with gridDim.x = i + 1
// (only block 0 does the access), so the mapping survives skipped or reordered kernels.
std::vector<const NcuLaunch*> match_launches(const std::vector<NcuLaunch>& launches, std::size_t case_count);

// The kernel (extern "C" name) the harness runs for a memory case: occv_{g,s}{ld,st}_{size}.
std::string memory_kernel_name(const MemCase& c);

struct OccMeasurement {
    std::string kernel;  // OccKernel::name
    OccConfig config;
    int regs = 0;                    // cudaFuncAttributes::numRegs
    std::int64_t static_smem = 0;    // cudaFuncAttributes::sharedSizeBytes
    std::int64_t local_bytes = 0;    // cudaFuncAttributes::localSizeBytes (spills)
    int max_threads = 1024;          // cudaFuncAttributes::maxThreadsPerBlock
    int model = 0;                   // occ::compute_occupancy blocks_per_sm (0 = cannot launch)
    std::string model_limiter;       // "registers", "shared_memory+warps", ... or the model's error
    std::optional<int> runtime;      // cudaOccupancyMaxActiveBlocksPerMultiprocessor (nullopt: call failed)
    std::optional<int> measured;     // peak resident blocks on one SM (0 = launch failed)
    std::string note;                // launch error text, grid used, ...
    json counters = json::object();  // CUPTI values for this launch (recorded in inputs, not compared)
};
Case occupancy_result(const OccMeasurement& m);

// One device constant: occ's table value vs cudaDeviceProp (runtime) vs cudaDeviceGetAttribute
// (hardware column). Either may be absent.
Case device_constant(const std::string& name, std::int64_t occ_value, std::optional<std::int64_t> prop,
                     std::optional<std::int64_t> attribute, const std::string& description);

}  // namespace occ::validation
