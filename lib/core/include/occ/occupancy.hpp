// occ/occupancy.hpp — theoretical occupancy of one kernel launch on one SM.
//
// The model, rule by rule (each rule is cited in occupancy.cpp):
//   warps      blocks ≤ max_warps_per_sm / ceil(threads / 32)
//   registers  per-warp allocation rounded to 256; warps fit per sub-partition; per-block checks
//   shared     static + dynamic + reserved, rounded to the unit; carveout chosen by the driver
//   blocks     max resident blocks per SM
//   barriers   (9.0+) named barriers per SM / barriers per block
//   virtual    (10.x+) virtual resources per SM / the kernel's virtual-resource count (cuda_occupancy.h)
//   tmem       (10.0, 10.3, 11.0) effective only: 512 Tensor Memory columns / columns per block
#pragma once
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "occ/device.hpp"
#include "occ/limiter.hpp"

namespace occ {

// Kepler-era cache preference (cudaFuncSetCacheConfig); on Volta+ it maps to a carveout when the
// carveout is left at its default.
enum class CacheConfig : std::uint8_t { none, prefer_shared, prefer_l1, prefer_equal };
// Partitioned global caching request (cc 5.2, 5.3, 6.1, 6.2). Ignored on other parts.
enum class PartitionedGC : std::uint8_t { off, on, strict };

// What the compiler and cudaFuncSetAttribute decided about the kernel.
struct KernelResources {
    int regs_per_thread = 32;            // from ptxas -v / cudaFuncAttributes::numRegs
    std::int64_t smem_static = 0;        // bytes of __shared__ arrays
    int barriers = 1;                    // named barriers used (barrier 0 is used by __syncthreads)
    bool optin = false;                  // dynamic smem limit raised to the device's opt-in maximum
    std::int64_t max_dynamic_smem = -1;  // cudaFuncAttributeMaxDynamicSharedMemorySize; -1 = from optin
    PartitionedGC partitioned_gc = PartitionedGC::off;
    // cuda_occupancy.h's cudaOccFuncAttributes::virtualResourceCount (CUDA 13): virtual resources one
    // block uses; 0 = none declared (the default, no limit).
    int virtual_resources = 0;
    // cudaFuncAttributes::maxThreadsPerBlock: the most threads per block the kernel can be
    // launched with (its __launch_bounds__, or what its registers allow), "beyond which a launch
    // of the function would fail" (CUDA Runtime API); 0 = not given (the device's maximum).
    int max_threads = 0;
    // Tensor Memory columns each block allocates with tcgen05.alloc (10.0, 10.3, 11.0); 0 = none.
    // A power of two from 32 to 512 (PTX ISA, "Tensor Memory Allocation"). Never changes the
    // header-compatible block count: blocks beyond the columns wait in tcgen05.alloc (the
    // effective occupancy, kLimitTmem).
    int tmem_columns = 0;
};

// Whether a block's Tensor Memory allocation is one tcgen05.alloc can make: 0 (none) or a power
// of two from 32 to 512 columns.
constexpr bool tmem_columns_valid(std::int64_t c) { return c == 0 || (c >= 32 && c <= 512 && (c & (c - 1)) == 0); }

// How it is launched.
struct LaunchConfig {
    int threads = 256;              // threads per block (x*y*z)
    std::int64_t smem_dynamic = 0;  // bytes, third <<< >>> argument
    int carveout = -1;              // cudaFuncAttributePreferredSharedMemoryCarveout, -1 = default
    CacheConfig cache_config = CacheConfig::none;
    std::int64_t grid_blocks = 0;  // optional, for wave figures; 0 = not given
};

// Each limit: how many blocks that resource alone would allow. kUnlimited = it does not limit.
inline constexpr int kUnlimited = 0x7fffffff;

// What sets the block count. The bits are cuda_occupancy.h's OCC_LIMIT_* limiting factors
// (OCC_LIMIT_WARPS = 0x01 ... OCC_LIMIT_VIRTUAL_RESOURCES = 0x20), in the order kLimiters lists them.
enum Limiter : unsigned {
    kLimitWarps = 1u << 0,
    kLimitRegisters = 1u << 1,
    kLimitSharedMemory = 1u << 2,
    kLimitBlocks = 1u << 3,
    kLimitBarriers = 1u << 4,
    kLimitVirtualResources = 1u << 5,  // limits only kernels that declare a count (CUDA 13, 10.x+)
    // Not a cuda_occupancy.h factor: limits the *effective* occupancy only (blocks that hold their
    // Tensor Memory at once); the resident block count above never includes it.
    kLimitTmem = 1u << 6,
};

// Why compute_occupancy refuses: an input outside its range, or a launch that would fail.
enum class OccupancyError : std::uint8_t {
    none,
    threads_range,     // threads < 1 (invalid input)
    threads_too_many,  // threads > max per block (launch fails)
    regs_range,        // regs < 0 or > max per thread
    regs_per_block,    // block's register total over the per-block limit
    smem_negative,
    smem_over_block,       // static + dynamic + reserved over what one block may use
    smem_over_kernel_max,  // dynamic above the kernel's max_dynamic_smem attribute
    max_dyn_range,         // max_dynamic_smem above what the device allows
    carveout_range,
    barriers_range,
    no_carveout_fits,         // custom device: no carveout step holds one block
    virtual_range,            // virtual_resources < 0 (invalid input)
    virtual_too_many,         // more virtual resources per block than the SM has (launch fails)
    threads_over_kernel_max,  // threads > the kernel's max_threads (launch fails)
};

struct OccupancyResult {
    // Blocks each resource alone allows (kUnlimited when that resource places no bound).
    int limit_warps = 0;
    int limit_registers = 0;
    int limit_shared_memory = 0;
    int limit_blocks = 0;
    int limit_barriers = kUnlimited;
    int limit_virtual_resources = kUnlimited;  // kUnlimited unless the kernel declares a count (10.x+)
    // Blocks whose Tensor Memory columns fit the SM's 512 at once (kUnlimited unless the kernel
    // allocates columns on a part that has them); an effective limit, outside blocks_per_sm.
    int limit_tmem = kUnlimited;
    unsigned limiters = 0;  // Limiter bits of the limits equal to the final block count (never kLimitTmem)

    int blocks_per_sm = 0;
    int warps_per_block = 0;
    int warps_per_sm = 0;
    int threads_per_sm = 0;
    int max_warps_per_sm = 0;
    double occupancy = 0.0;  // warps_per_sm / max_warps_per_sm, 0..1

    int regs_per_warp_allocated = 0;
    int regs_per_block_allocated = 0;
    std::int64_t smem_per_block_allocated = 0;  // incl. the driver reserve, rounded to the unit
    std::int64_t smem_per_sm_configured = 0;    // the carveout the driver picks
    std::int64_t smem_per_block_limit = 0;      // what one block may use (incl. reserve)
    bool partitioned_gc_active = false;

    // Why the launch is refused or an input is out of range: a code and the numbers its message
    // quotes (which ones depends on the code), worded only when read (error_message()), so the
    // query path neither formats nor allocates.
    OccupancyError error_code = OccupancyError::none;
    bool ok() const { return error_code == OccupancyError::none; }
    std::string error_message() const;  // "" when ok()

    // The numbers the message quotes, stored with the code (their count and meaning depend on
    // it); raw bytes, left unset when ok(), so a result is built without clearing them.
    static constexpr int kErrorArgs = 9;
    std::int64_t error_arg(int i) const;
    void set_error_arg(int i, std::int64_t v);
    alignas(8) unsigned char error_args_[kErrorArgs * sizeof(std::int64_t)];
};

inline std::int64_t OccupancyResult::error_arg(int i) const {
    std::int64_t v;
    std::memcpy(&v, error_args_ + i * sizeof v, sizeof v);
    return v;
}
inline void OccupancyResult::set_error_arg(int i, std::int64_t v) { std::memcpy(error_args_ + i * sizeof v, &v, sizeof v); }

// The full calculation, with a readable reason when the launch is impossible.
OccupancyResult compute_occupancy(const Device& dev, const KernelResources& k, const LaunchConfig& l);

// Blocks per SM only, no strings: for sweeps and benchmarks. Returns 0 for an impossible launch
// and -1 for invalid input.
int blocks_per_sm_fast(const ArchRules& a, const KernelResources& k, const LaunchConfig& l);

namespace detail {
// compute_occupancy() without the per-architecture tables it builds for rules it has seen several
// times (occupancy.cpp, [SECTION] Tables): every rule read from ArchRules on each call. The same
// answer; tests hold the two paths to each other.
OccupancyResult compute_occupancy_untabled(const Device& dev, const KernelResources& k, const LaunchConfig& l);
// Whether compute_occupancy() and blocks_per_sm_fast() now answer these rules from tables; whether
// the process has built all the tables it will (later rules keep the general path).
bool occupancy_tables_ready(const ArchRules& a);
bool occupancy_tables_full();
// Promises that the rules at this address never change for the life of the process (the devices
// find_gpu_cached keeps): their tables are then found by address, without comparing the rules.
void occupancy_rules_fixed(const ArchRules& a);
}  // namespace detail

// What one block may use of shared memory under the kernel's opt-in setting: 48 KB, or up to the
// opt-in maximum after cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize) where the
// architecture has one ([PG] "Shared Memory", 7.x+), plus the driver's reserve where it counts
// (ArchRules::smem_reserve_in_block_limit). The one place this rule lives: the model, the prepared
// tables, the sweeps and the messages all ask SmemLimitRule.
struct BlockSmemLimit {
    bool optin = false;                   // the opt-in applies: the device has one and the kernel asked
    std::int64_t device_max_dynamic = 0;  // the most dynamic bytes the device lets this block ask for (>= 0)
    std::int64_t max_dynamic = 0;         // with optin: the kernel's maximum (max_dynamic_smem, else the device's)
    std::int64_t bytes = 0;               // the most one block may allocate (static + dynamic + reserve, rounded)
};

// The rule for one architecture, its constants taken once (PreparedDevice keeps one per device).
class SmemLimitRule {
public:
    explicit SmemLimitRule(const ArchRules& a)
        : optin_supported_(a.smem_optin),
          per_block_(a.smem_per_block),
          optin_max_(a.smem_per_block_optin),
          reserved_(a.smem_reserved_per_block),
          plain_bytes_(a.smem_per_block + (a.smem_reserve_in_block_limit ? a.smem_reserved_per_block : 0)),
          optin_bytes_(a.smem_per_block_optin + (a.smem_reserve_in_block_limit ? a.smem_reserved_per_block : 0)) {}

    // optin_requested: the kernel set optin or max_dynamic_smem; max_dynamic_smem < 0 = the device's maximum.
    BlockSmemLimit operator()(std::int64_t smem_static, bool optin_requested, std::int64_t max_dynamic_smem) const {
        BlockSmemLimit r;
        r.optin = optin_supported_ && optin_requested;
        const std::int64_t ceiling = r.optin ? optin_max_ : per_block_;
        r.device_max_dynamic = ceiling > smem_static ? ceiling - smem_static : 0;
        if (r.optin) r.max_dynamic = max_dynamic_smem >= 0 ? max_dynamic_smem : r.device_max_dynamic;
        // The opt-in raises the limit only when the block may need more than the plain maximum.
        const bool above = r.optin && smem_static + reserved_ + r.max_dynamic > per_block_;
        r.bytes = above ? optin_bytes_ : plain_bytes_;
        return r;
    }
    std::int64_t plain_bytes() const { return plain_bytes_; }  // the limit without opt-in
    std::int64_t optin_bytes() const { return optin_bytes_; }  // the limit after opting in to the maximum
    bool optin_supported() const { return optin_supported_; }

private:
    bool optin_supported_;
    std::int64_t per_block_, optin_max_, reserved_, plain_bytes_, optin_bytes_;
};

inline BlockSmemLimit block_smem_limit(const ArchRules& a, std::int64_t smem_static, bool optin_requested, std::int64_t max_dynamic_smem) {
    return SmemLimitRule(a)(smem_static, optin_requested, max_dynamic_smem);
}

// The carveout (bytes of shared memory per SM) for a preference and a per-block need.
// Returns -1 when no supported size can hold one block.
std::int64_t configured_smem_per_sm(const ArchRules& a, int carveout, CacheConfig cache, std::int64_t smem_per_block_allocated);

// The shared memory the driver configures for this launch, as Nsight Compute reports it ("Shared
// Memory Configuration Size"), and the "Block Limit Shared Mem" ncu computes against it. The block
// count does not depend on it (every public report agrees): occupancy uses the largest carveout,
// as cuda_occupancy.h does. The rule is fitted on public reports (driver_smem.cpp, docs/MODEL.md):
// where they cannot tell rules apart, `candidates` lists every size those rules give.
struct DriverSmemConfig {
    std::int64_t bytes = -1;                  // occ's answer; -1 when the launch does not fit
    int block_limit = -1;                     // bytes / each block's allocation (the slot limit when a block needs none)
    std::vector<std::int64_t> candidates;     // every size the evidence allows, ascending (bytes is one of them)
    std::vector<int> candidate_block_limits;  // the block limit against each candidate
    bool may_be_larger = false;               // a candidate is larger than bytes
    int reports = 0;                          // the public reports the rule for this launch was fitted on (0: none of its cc)
    std::string rule;                         // the rule in words, with what it rests on
};
DriverSmemConfig driver_smem_config(const ArchRules& a, const KernelResources& k, const OccupancyResult& r);

// [SECTION] Limiters: the one list every face iterates (JSON "limits" and "limiters", the CLI and
// app tables, advice notes, ptxas rows, sweeps, Python). Adding a limiter means adding an entry here;
// the faces follow, and the tables indexed by its order (the app's colours) fail to compile until
// they have one more entry.

// Why one limit allows what it does, worded for these inputs (explain.cpp; see occ/explain.hpp).
using LimitExplainer = std::string (*)(const Device& dev, const KernelResources& k, const LaunchConfig& l, const OccupancyResult& r);
namespace limit_explainers {
std::string warps(const Device& dev, const KernelResources& k, const LaunchConfig& l, const OccupancyResult& r);
std::string registers(const Device& dev, const KernelResources& k, const LaunchConfig& l, const OccupancyResult& r);
std::string shared_memory(const Device& dev, const KernelResources& k, const LaunchConfig& l, const OccupancyResult& r);
std::string blocks(const Device& dev, const KernelResources& k, const LaunchConfig& l, const OccupancyResult& r);
std::string barriers(const Device& dev, const KernelResources& k, const LaunchConfig& l, const OccupancyResult& r);
std::string virtual_resources(const Device& dev, const KernelResources& k, const LaunchConfig& l, const OccupancyResult& r);
std::string tmem(const Device& dev, const KernelResources& k, const LaunchConfig& l, const OccupancyResult& r);
}  // namespace limit_explainers

// A CUDA limiter (occ/limiter.hpp's key, words and rule) and where its limit is held.
struct LimiterInfo : LimiterKey {
    int OccupancyResult::*limit;  // the blocks per SM it alone allows
    // Reported (a "limits" entry, a table row) only when the kernel declares this resource
    // (k.*declared > 0); nullptr: always reported.
    int KernelResources::*declared;
    LimitExplainer explain;  // the rule worked through for one launch
    bool reported(const KernelResources& k) const { return declared == nullptr || k.*declared > 0; }
};

inline constexpr LimiterInfo kLimiters[] = {
    {{kLimitWarps, "warps", "warps", "Warps",
      "Warp slots: an SM holds a fixed number of resident warps; a block takes ceil(threads / 32) of them.", LimiterRole::warps},
     &OccupancyResult::limit_warps,
     nullptr,
     limit_explainers::warps},
    {{kLimitRegisters, "registers", "registers", "Registers",
      "Registers: allocated per warp (regs x 32, rounded up to 256); each of the SM's sub-partitions has its own quarter of the "
      "register file, so warps that fit = floor(regs_per_sm / sub-partitions / regs_per_warp) x sub-partitions.",
      LimiterRole::registers},
     &OccupancyResult::limit_registers,
     nullptr,
     limit_explainers::registers},
    {{kLimitSharedMemory, "shared_memory", "shared memory", "Shared memory",
      "Shared memory: static + dynamic + the driver's 1 KB reserve (8.0+), rounded to 128 B (256 B before 8.0), out of the carveout "
      "the driver configures for the SM.",
      LimiterRole::shared_memory},
     &OccupancyResult::limit_shared_memory,
     nullptr,
     limit_explainers::shared_memory},
    {{kLimitBlocks, "blocks", "blocks", "Block slots",
      "Block slots: an SM holds at most 16, 24 or 32 resident blocks depending on the architecture.", LimiterRole::blocks},
     &OccupancyResult::limit_blocks,
     nullptr,
     limit_explainers::blocks},
    {{kLimitBarriers, "barriers", "barriers", "Barriers",
      "Named barriers (9.0+): each block slot carries 1 or 2 sets of hardware barriers; a kernel using more barriers fits fewer "
      "blocks.",
      LimiterRole::barriers},
     &OccupancyResult::limit_barriers,
     nullptr,
     limit_explainers::barriers},
    // cuda_occupancy.h (CUDA 13): blockLimitVirtual = virtual resources per SM / cudaOccFuncAttributes::virtualResourceCount,
    // only when the kernel declares a count.
    {{kLimitVirtualResources, "virtual_resources", "virtual resources", "Virtual resources",
      "Virtual resources (10.x+, CUDA 13): an SM has a fixed number; a kernel that declares a count per block fits that many fewer "
      "blocks.",
      LimiterRole::virtual_resources},
     &OccupancyResult::limit_virtual_resources,
     &KernelResources::virtual_resources,
     limit_explainers::virtual_resources},
    // PTX ISA "Tensor Memory Allocation": 512 columns per SM; tcgen05.alloc "blocks if the requested amount of Tensor
    // Memory is not available and unblocks as soon as [it] becomes available".
    {{kLimitTmem, "tmem", "Tensor Memory", "Tensor Memory",
      "Tensor Memory (10.0, 10.3, 11.0): 512 columns per SM; blocks whose tcgen05.alloc cannot be met stay resident but wait until "
      "columns are freed, so they limit the effective occupancy, not the resident block count.",
      LimiterRole::tmem, true},
     &OccupancyResult::limit_tmem,
     &KernelResources::tmem_columns,
     limit_explainers::tmem},
};
inline constexpr std::size_t kLimiterCount = std::size(kLimiters);

static_assert(detail::bits_in_order(kLimiters), "kLimiters: entry i must be bit 1 << i");

// Every Limiter, in the table's order (the order "limiters" lists them in answers).
inline constexpr auto kAllLimiters = [] {
    std::array<Limiter, kLimiterCount> a{};
    for (std::size_t i = 0; i < kLimiterCount; ++i) a[i] = static_cast<Limiter>(kLimiters[i].bit);
    return a;
}();

// The entry of one Limiter, and its position in kLimiters (for tables indexed by the same order).
constexpr std::size_t limiter_index(unsigned l) { return static_cast<std::size_t>(std::countr_zero(l)); }
constexpr const LimiterInfo& limiter_info(unsigned l) { return kLimiters[limiter_index(l)]; }
// Short names in JSON order: "warps", "registers", "shared_memory", "blocks", "barriers", "virtual_resources", "tmem".
constexpr const char* limiter_name(unsigned l) { return limiter_info(l).key; }
// The blocks per SM that one limiter allows (kUnlimited when it does not limit).
inline int limit_of(const OccupancyResult& r, unsigned l) { return r.*limiter_info(l).limit; }

// The blocks that work at once: the resident blocks, less those waiting for Tensor Memory.
inline int effective_blocks_per_sm(const OccupancyResult& r) { return r.limit_tmem < r.blocks_per_sm ? r.limit_tmem : r.blocks_per_sm; }
// The fraction of the SM's warps in those blocks (0 when the launch cannot run).
inline double effective_occupancy(const OccupancyResult& r) {
    return r.max_warps_per_sm > 0 ? static_cast<double>(effective_blocks_per_sm(r) * r.warps_per_block) / r.max_warps_per_sm : 0.0;
}
// The limiters of effective_blocks_per_sm(): the resident ones where it equals blocks_per_sm, and
// each effective limit equal to it.
inline unsigned effective_limiters(const OccupancyResult& r) {
    const int e = effective_blocks_per_sm(r);
    return (e == r.blocks_per_sm ? r.limiters : 0u) | (r.limit_tmem == e ? static_cast<unsigned>(kLimitTmem) : 0u);
}

}  // namespace occ
