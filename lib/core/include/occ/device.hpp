// occ/device.hpp — per-compute-capability SM limits and the named-GPU database.
//
// [SECTION] ArchRules: what one compute capability's SM provides and how it allocates
// [SECTION] Device: a named GPU (or a custom one) = SM count + the rules of its compute capability
// [SECTION] Lookup: by name / alias / compute capability, with a "did you mean" suggestion
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace occ {

// Maximum number of shared-memory carveout sizes an architecture offers.
inline constexpr int kMaxCarveoutSteps = 10;

// Launch limits that are the same on every compute capability (CUDA C++ Programming Guide, "Technical
// Specifications per Compute Capability": block x and y up to 1024, z up to 64; "Synchronization
// Functions" / PTX ISA bar.sync: 16 named barriers per block). The occupancy model reads the threads
// per block from ArchRules::max_threads_per_block; patterns, which have no device, use kMaxBlockThreads.
inline constexpr int kMaxBlockThreads = 1024;
inline constexpr int kMaxBlockDimXY = 1024;
inline constexpr int kMaxBlockDimZ = 64;
inline constexpr int kMaxNamedBarriers = 16;

// How an SM's shared-memory capacity is set (the per-row source is cited in device_db.cpp).
enum class SmemConfig : std::uint8_t {
    dedicated,  // a fixed size, no preference (Maxwell, Pascal)
    l1_split,   // 64 KB split between L1 and shared memory by cudaFuncSetCacheConfig (Kepler)
    carveout,   // unified L1/shared array; the carveout is picked from a preference and the need (Volta+)
};

// What one compute capability's streaming multiprocessor provides and how it allocates. Every field
// is a documented per-architecture fact or behaviour; the code that uses a behaviour reads its field
// here instead of testing the compute capability, so adding a compute capability = adding a row
// (device_db.cpp, where each row cites its sources).
struct ArchRules {
    int cc_major = 0;
    int cc_minor = 0;
    const char* family = "";  // "Ampere", "Hopper", ...
    int warp_size = 32;
    int max_threads_per_block = 1024;
    int max_threads_per_sm = 2048;  // = max resident warps × warp size
    int max_blocks_per_sm = 32;
    int regs_per_sm = 65536;  // 32-bit registers
    int regs_per_block = 65536;
    int max_regs_per_thread = 255;
    int reg_alloc_unit = 256;  // registers per warp are rounded up to this
    int subpartitions = 4;     // SM sub-partitions (warp schedulers) sharing the register file
    // A kernel must also fit an SM with this many sub-partitions (0 = no such check): GP100 (2) runs
    // only what GP10x (4) can run, for forward compatibility within Pascal.
    int compat_subpartitions = 0;
    // Partitioned global caching (5.2, 5.3, 6.1, 6.2): a block lives in half an SM when enabled.
    bool partitioned_gc_supported = false;
    std::int64_t smem_per_sm = 0;               // bytes, largest carveout (cudaDeviceProp::sharedMemPerMultiprocessor)
    std::int64_t smem_per_block = 49152;        // bytes without opt-in (sharedMemPerBlock)
    std::int64_t smem_per_block_optin = 49152;  // sharedMemPerBlockOptin
    std::int64_t smem_reserved_per_block = 0;   // reservedSharedMemPerBlock (1 KB from 8.0)
    int smem_alloc_unit = 256;                  // bytes; shared memory per block is rounded up to this
    SmemConfig smem_config = SmemConfig::dedicated;
    // Volta+ carveout: the sizes (bytes, ascending) the unified L1/shared array can be split into.
    // Empty (count 0) unless smem_config is carveout.
    std::array<std::int64_t, kMaxCarveoutSteps> carveout_steps{};
    int carveout_step_count = 0;
    // A kernel may raise its dynamic shared memory above smem_per_block, up to smem_per_block_optin,
    // with cudaFuncAttributeMaxDynamicSharedMemorySize (7.0+).
    bool smem_optin = false;
    // The driver's reserve comes on top of what a block may use (8.0+: 163 KB + 1 KB on A100).
    bool smem_reserve_in_block_limit = false;
    // Named barriers limit resident blocks (9.0+): barriers_per_block_slot sets per block slot
    // (× max_blocks_per_sm = barriers per SM).
    bool barriers_limit_blocks = false;
    int barriers_per_block_slot = 2;
    bool clusters = false;  // thread block clusters (9.0+)
    // The largest cluster with cudaFuncAttributeNonPortableClusterSizeAllowed: 16 where NVIDIA
    // documents it (9.0: Hopper Tuning Guide, "Thread Block Clusters") or public
    // cudaOccupancyMaxActiveClusters results show it (10.0, 10.3: [BWCL] in gpu_db.cpp); else the
    // portable 8 (nothing published for 11.0 and 12.x).
    int max_cluster_size_nonportable = 8;
    // Virtual resources per SM that a kernel's virtual-resource count draws from (0 = the part has
    // none): blocks <= virtual_resources_per_sm / count when the kernel declares a count > 0.
    int virtual_resources_per_sm = 0;
    // Tensor Memory columns per SM (10.0, 10.3, 11.0: 512 columns x 128 lanes x 32 bits; 0 = none).
    // PTX ISA "Tensor Memory": tcgen05.alloc takes a power of two from 32 to 512 columns and blocks
    // while the columns are not free.
    int tmem_columns_per_sm = 0;
    // The memory models occ has: 32 banks of 4 bytes (5.0+); 32-byte sectors for global loads and
    // stores (6.0+).
    bool banks_model = false;
    bool sectors_model = false;
    // The widest global load or store one lane makes in one instruction: 16 bytes (ld.global.v4.b32),
    // 32 from 10.0 (ld/st.global .v8.b32 / .v4.b64, PTX ISA 8.8). Shared memory stays at 16 on every
    // architecture (those forms are .global only).
    int max_global_access_bytes = 16;
    // 8- and 16-byte shared loads whose lane pairs (t, t^1) or (t, t^2) ask for the same address
    // return two lanes' registers per wavefront: the phases halve (8-byte: 1 of 32 lanes, 16-byte:
    // 2 of 16). Loads only (banks.cpp cites the sources).
    bool smem_paired_load_merge = false;
    // The fields from here on are outside the occupancy tables' key (occupancy_tables.hpp checks
    // it at compile time): new rules go above this line. (The shared memory the driver configures
    // for a launch is fitted per compute capability in driver_smem.cpp.)
    const char* source = "";  // where these numbers come from

    int max_warps_per_sm() const { return max_threads_per_sm / warp_size; }
    std::span<const std::int64_t> carveouts() const { return {carveout_steps.data(), static_cast<std::size_t>(carveout_step_count)}; }
};

// The GPU every face starts with and a request without a device means.
inline constexpr std::string_view kDefaultGpu = "A100-SXM4-80GB";

enum class Segment { datacenter, workstation, consumer, embedded, custom };
const char* segment_name(Segment s);

// A GPU: its rules plus what differs between parts of the same compute capability.
struct Device {
    std::string name;  // canonical name, e.g. "A100-SXM4-80GB"
    int sm_count = 1;
    Segment segment = Segment::custom;
    ArchRules arch;  // copied so a custom device may override individual limits
};

// [SECTION] Database
// Every compute capability occ models, ascending.
std::span<const ArchRules> all_archs();

// Published dense peaks of a GPU for the roofline (TFLOP/s; TOP/s for int8; 0 = not published),
// one per occ::Precision, and its DRAM bandwidth. Sources are cited in gpu_db.cpp.
struct GpuPeaks {
    double fp64 = 0, fp64_tensor = 0, fp32 = 0, tf32 = 0, fp16 = 0, bf16 = 0, fp8 = 0, int8 = 0;
    double dram_gbps = 0;          // GB/s (10^9 B/s)
    bool matrix_units = true;      // fp64_tensor, tf32, fp16, bf16, fp8 and int8 figures are tensor-core / matrix-unit figures
    int list_position = 0;         // place in roofline_devices(), 1-based (the order links, messages and lists show)
    const char* source = nullptr;  // nullptr: no roofline figures for this GPU
};

// How a GPU's SMs sit in GPU Processing Clusters (for thread block clusters, cluster.hpp).
struct GpcSplit {
    int gpcs = 0;             // GPCs with at least one enabled TPC; 0 = unknown (an even split is assumed)
    int max_sms_per_gpc = 0;  // SMs in a full GPC of this die
    const char* source = nullptr;
    // SMs of each GPC (gpcs entries, adding up to the SM count) where public measurements of
    // cudaOccupancyMaxActiveClusters pin the split down; empty = the TPCs are spread evenly.
    std::span<const int> sms{};
    bool measured = false;  // sms was derived from measurements (not assumed)
};

// One GPU: everything occ knows about it. Adding a GPU = adding one entry in gpu_db.cpp.
struct GpuEntry {
    const char* name = "";  // canonical
    const char* vendor = "NVIDIA";
    int cc_major = 0, cc_minor = 0;  // 0.0: not a CUDA device (a roofline reference device)
    int sm_count = 0;
    Segment segment = Segment::custom;
    const char* aliases = "";  // comma-separated, matched after normalisation
    // The names the driver prints for this GPU (nvidia-smi, torch.cuda.get_device_name(), deviceQuery,
    // cudaDeviceProp::name), '|'-separated, as printed; matched after normalisation like the aliases.
    const char* driver_names = "";
    const char* source = "";  // where the SM count comes from
    // AMD GPUs (vendor "AMD"): the LLVM target ("gfx942") whose rules occ::amd models (amd_arch.cpp);
    // sm_count is then the compute-unit count. "" for every other entry.
    const char* isa = "";
    GpuPeaks peaks{};
    GpcSplit gpc{};
};
// Named CUDA GPUs, in release order.
std::span<const GpuEntry> all_gpus();
// Named AMD GPUs (vendor "AMD", isa set, no compute capability), in release order; the entries
// live beside the AMD target rules in amd_arch.cpp.
std::span<const GpuEntry> amd_gpus();
// Other vendors' devices, for roofline comparisons only (no compute capability, no occupancy model).
std::span<const GpuEntry> reference_devices();
// The entry of all_gpus() or reference_devices() with exactly this canonical name, or nullptr.
const GpuEntry* find_gpu_entry(std::string_view canonical_name);
// The entry of all_gpus() that find_gpu(name) would pick: the one entry whose name, an alias or a
// driver-printed name equals `name` after normalisation (case, spaces, dashes, "NVIDIA", "GeForce",
// "Tesla"); nullptr when none does or the name is ambiguous (ambiguous_gpu).
const GpuEntry* lookup_gpu(std::string_view name);

// The entry of amd_gpus() a name means ("MI300X", "AMD Instinct MI300X", "mi300x"), or nullptr;
// names are matched as lookup_gpu matches them.
const GpuEntry* lookup_amd_gpu(std::string_view name);

// Rules for an exact compute capability, or nullptr.
const ArchRules* find_arch(int cc_major, int cc_minor);

// A named GPU as a Device. Accepts canonical names and aliases in any case, with or without
// spaces, dashes, "NVIDIA", "GeForce", "Tesla".
std::optional<Device> find_gpu(std::string_view name);

// The closest known name when find_gpu fails (empty when nothing is reasonably close).
std::string suggest_gpu(std::string_view name);

// A name several catalogue entries answer to (e.g. "Orin", "Xavier", "NVIDIA Tegra X1": the device
// name every Jetson module of that family reports; "rtx6000": Turing, Ada and Blackwell cards), or a
// family name with members outside the catalogue ("thor", "m2"), so find_gpu refuses it: the entries
// it may mean, in catalogue order; empty when the name is not one of those.
std::vector<const GpuEntry*> ambiguous_gpu(std::string_view name);
// For a family name with members outside the catalogue ("thor", "m2"): those members, in words; else "".
std::string gpu_family_outside(std::string_view name);
// The refusal for such a name, listing each choice with its SM count ("" when not ambiguous).
std::string ambiguous_gpu_message(std::string_view name);
// The refusal for a name no entry answers to: the whole name (up to 200 characters) and the closest
// known name when one is close.
std::string unknown_gpu_message(std::string_view name);

// A generic device for a compute capability ("8.0"), SM count 1, named "cc 8.0".
std::optional<Device> device_for_cc(int cc_major, int cc_minor);

// Parses "8.0", "80", "sm_80", "sm80", "compute_90" into major/minor. False if malformed.
bool parse_cc(std::string_view text, int& major, int& minor);

// Binary compatibility ([PG] "Binary Compatibility"): a cubin for sm_XY runs on devices of compute
// capability X.Z with Z >= Y.
// Whether SASS built for sm_<code_major><code_minor><suffix> loads on the device: the same major
// and a minor not above the device's ([PG] "Binary Compatibility"); an architecture-specific build
// (suffix 'a', sm_90a) only on exactly that compute capability, a family build ('f', sm_100f) on
// the family's later minors ([PG] "Feature Availability", CUDA 13.0). Code for 10.1 (CUDA 12.8/12.9's
// number for Thor) is code for 11.0.
bool cubin_runs_on(int code_major, int code_minor, const ArchRules& device, char suffix = 0);
// 'a' or 'f' when an architecture name ends in one ("sm_90a", "compute_100f"), else 0.
char arch_suffix(std::string_view arch);
// True when compute capability a is older than b (to pick the newest of several compatible builds).
bool cc_older(int a_major, int a_minor, int b_major, int b_minor);

// Lists the compute capabilities as "3.5, 3.7, ..." for messages.
std::string supported_cc_list();

}  // namespace occ
