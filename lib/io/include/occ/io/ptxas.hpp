// occ/io/ptxas.hpp — resource usage from compiler output, for occupancy of every kernel at once.
//
// Reads what `nvcc -Xptxas -v` (ptxas --verbose), nvrtc / the JIT linker and
// `cuobjdump --dump-resource-usage` print, as users paste it (docs/ADVANCED.md lists every layout):
//   ptxas info    : Compiling entry function '_Z14transpose_tilePfPKfii' for 'sm_80'
//   ptxas info    : Function properties for _Z14transpose_tilePfPKfii
//       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//   ptxas info    : Used 26 registers, used 1 barriers, 4224 bytes smem, 376 bytes cmem[0]
// and
//   arch = sm_80
//    Function _Z6kernelPf:
//     REG:8 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:360 TEXTURE:0 SURFACE:0 SAMPLER:0
// with any prefix before the tool's tag (MSBuild "1>", log timestamps), CRLF line ends, blank lines,
// wrapped lines, typographic quotes and the sm_1x "N+M bytes smem" form.
//
// The rule: a field the log did not give is empty (null in JSON), never 0, and a line inside a
// kernel's record that the parser does not understand becomes a diagnostic on that kernel. Lines
// outside any record (make, host compilers, other tools) are skipped and counted.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "occ/amd.hpp"
#include "occ/device.hpp"
#include "occ/io/amd.hpp"
#include "occ/io/api.hpp"
#include "occ/occupancy.hpp"
#include "occ/result.hpp"

namespace occ::io {

// The launch an artefact fixes for its kernel: Triton's metadata (<name>.json beside the cubin) says
// how many warps the kernel was compiled for and how much dynamic shared memory it is launched with.
struct ArtefactLaunch {
    std::string from;               // what gave it: "Triton metadata (matmul_kernel.json)"
    int num_warps = 0;              // Triton's num_warps (after warp specialisation: the total)
    int warp_size = 32;             // target.warp_size
    int threads = 0;                // num_warps x warp_size
    std::int64_t smem_dynamic = 0;  // Triton's `shared`: bytes, the launch's dynamic shared memory
    int num_ctas = 1;               // CTAs per cluster (num_ctas > 1: a cluster launch, sm_90+)
    int tmem_columns = 0;           // Triton's tmem_size (Tensor Memory columns), 0 = none
    std::optional<int> maxnreg;     // Triton's maxnreg option, when set
    std::string triton_version;     // "" when the metadata does not say
};

// One compilation of one function, as the log reported it.
// The format of a record made from a spill warning alone ("ptxas warning : Registers are spilled to
// local memory in function 'f', N bytes spill stores, M bytes spill loads", what XLA and JAX logs
// print): its spills are read, every other figure is null, for this reason.
inline constexpr const char* kSpillWarningFormat = "ptxas warning";
inline constexpr const char* kSpillOnlyReason =
    "only a spill warning names this compilation: the log gives its spills, not its registers, shared memory or "
    "architecture (the output of -Xptxas -v has them)";

// A kernel a binary holds as PTX only (format "ptx"): its row has no occupancy, for this reason.
inline constexpr const char* kPtxOnlyReason = "PTX only: JIT-compiled at load, occupancy unknown until compiled";

// A fatbin entry compressed with Zstandard, read by a build of occ without libzstd (the web page): one
// row per entry (its architecture and place; its kernels' names and figures null), for this reason.
inline constexpr const char* kZstdEntryFormat = "zstd entry";
#ifdef __EMSCRIPTEN__
inline constexpr const char* kZstdEntryReason = "Zstandard entry: read it with the CLI (`occ kernels`)";
#else
inline constexpr const char* kZstdEntryReason = "Zstandard entry: this build of occ was made without libzstd";
#endif

// What a profiler saw when the kernel ran (rocprof-compute analyze, occ/io/rocprof.hpp): the launch of
// the profiled dispatch(es) and the measured metrics, kept apart from occ's theoretical answer. Each
// figure is empty when the output does not hold it, with the reason in `unread`.
struct AmdProfile {
    std::string from;                                         // "rocprof-compute analyze"
    std::optional<int> workgroup_size;                        // work-items per workgroup ("Workgroup Size")
    std::optional<std::int64_t> grid_size;                    // work-items ("Grid Size")
    std::optional<int> dispatches;                            // rows of the "Dispatch List"
    std::vector<std::pair<std::string, double>> measured;     // key (rocprof_measured_metrics()) -> value as printed
    std::vector<std::pair<std::string, std::string>> unread;  // field -> why it is null
};

// What an AMD artefact (occ/io/amd_artefacts.hpp) reports besides the arch VGPRs (PtxasKernel::
// registers), the LDS bytes (smem_static) and the scratch bytes per lane (stack_frame). Each figure
// is empty when the artefact does not hold it, with the reason in `unread` (JSON: null, and the
// reason under "unread").
struct AmdResources {
    std::string target;              // the target id as written: "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-" ("" when not given)
    std::optional<int> agprs;        // accumulation VGPRs per lane
    std::optional<int> vgprs_total;  // what occupies the VGPR file per lane (TotalNumVgprs, .vgpr_count, next_free_vgpr)
    std::optional<int> sgprs;        // SGPRs incl. VCC, flat scratch, XNACK mask
    std::optional<int> sgpr_spills;  // registers spilled (LLVM counts registers, not bytes)
    std::optional<int> vgpr_spills;
    std::optional<bool> dynamic_stack;                        // the scratch size is a lower bound (recursion, indirect calls)
    std::optional<int> wave_size;                             // what the kernel was compiled for
    std::optional<int> max_workgroup_size;                    // .max_flat_workgroup_size: the launch may not exceed it
    std::optional<std::int64_t> kernarg_bytes;                // .kernarg_segment_size
    std::optional<int> llvm_occupancy;                        // LLVM's own waves per SIMD ("; Occupancy:", the remark)
    std::optional<AmdProfile> profile;                        // a profiler's run (rocprof-compute); none for compiler artefacts
    std::vector<std::pair<std::string, std::string>> unread;  // field -> why it is null
};

struct PtxasKernel {
    std::string name;                          // demangled (as c++filt prints it), else the name as printed
    std::string mangled;                       // as printed by the tool
    std::string arch;                          // "sm_80", "sm_90a"; empty when the log never said
    int cc_major = 0, cc_minor = 0;            // from arch (0.0 when unknown or not a compute capability)
    bool entry = true;                         // a __global__ kernel; false for a device function
    int occurrence = 1;                        // the n-th compilation of this name for this arch in the log (autotuning, repeated builds)
    int occurrences = 1;                       // how many compilations of this name for this arch the log holds
    std::optional<int> registers;              // "Used N registers", REG:N
    std::optional<std::int64_t> smem_static;   // bytes; sm_1x "N+M bytes smem" is the sum
    std::optional<int> barriers;               // "used N barriers" (printed by recent ptxas only)
    std::optional<std::int64_t> stack_frame;   // bytes per thread
    std::optional<std::int64_t> spill_stores;  // bytes
    std::optional<std::int64_t> spill_loads;   // bytes
    std::optional<std::int64_t> cumulative_stack;    // bytes ("cumulative stack size": calls, recursion)
    std::optional<std::int64_t> local;               // bytes of local memory per thread (old "lmem", cuobjdump LOCAL)
    std::optional<int> textures;                     // old ptxas "N textures", cuobjdump TEXTURE
    std::vector<std::pair<int, std::int64_t>> cmem;  // constant bank -> bytes, as listed (empty: none listed)
    std::string format;        // "ptxas", "cuobjdump" or "culink" (the JIT linker's info log); binaries: "cubin", "fatbin", "ptx"
    std::string source_file;   // binaries: the file it was read from ("" for a log)
    std::string source_entry;  // binaries: where inside it (".nv_fatbin #0, entry 2 (sm_90)"; "" for a cubin file)
    int line = 0;              // 1-based line of the log where the record starts
    std::optional<ArtefactLaunch> launch;  // the launch the artefact fixes (Triton), used instead of the request's
    std::vector<std::string> diagnostics;  // what the log said about it that is not a number read here
    std::optional<AmdResources> amd;       // an AMD kernel (arch "gfx942"): the rest of what LLVM reported
};

struct PtxasLog {
    std::vector<PtxasKernel> kernels;      // in log order; entries and device functions
    std::optional<std::int64_t> gmem;      // "N bytes gmem" (last seen)
    int lines = 0;                         // lines read
    int recognised_lines = 0;              // lines that carried resource information or known tool chatter
    int skipped_lines = 0;                 // lines outside any record that were not understood (other tools), ignored
    int unknown_lines = 0;                 // lines inside a record that were not understood (each a diagnostic on it)
    std::vector<std::string> diagnostics;  // ptxas warning/error lines and notes, from the tool's tag on (first 50)
    // "(C7508) Potential Performance Loss: 'setmaxnreg' ignored; unable to determine register count at
    // entry." and its kin: each reason as printed after "ignored" (ptxas names no function: the whole
    // compilation's setmaxnreg are dropped, every warp keeps its launch count).
    std::vector<std::string> setmaxnreg_ignored;
};
// What to do about a setmaxnreg_ignored reason (the ptxas message's cause, in a sentence).
std::string setmaxnreg_advice(std::string_view reason);

PtxasLog parse_ptxas_log(std::string_view text);

// The compiler and profiler texts occ reads kernels from, one table for `occ kernels`, the ptxas
// kind (--ptxas) and `occ check`: tried in order, the first whose test matches reads the text;
// ptxas's log, last, takes any text (text_logs.cpp).
enum class TextLog : std::uint8_t { rocprof_compute, rocprof_csv, amd_compiler, ptxas };
struct TextLogFormat {
    TextLog kind;
    std::string_view name;                     // BinaryRead::format: "ptxas log"
    bool (*matches)(std::string_view text);    // nullptr: any text
    PtxasLog (*parse)(std::string_view text);  // the kernels (none: not this format after all)
    bool compiler_log;                         // a compiler's output: `occ check` merges it into the binaries it built
    std::string_view empty;                    // the error for a text this format's test matched but that holds no kernel
};
const TextLogFormat& text_log_format(std::string_view text);

// The Itanium C++ ABI name of a function as c++filt prints it (from the C++ runtime's demangler),
// without clone suffixes (.constprop.0). Returns "" when the name is not a mangled function or
// variable name (_Z...), is malformed, or is longer than 4096 bytes.
std::string demangle(std::string_view mangled);

// --- The "ptxas" request kind ---------------------------------------------------------------------
// {"log": "...", gpu|cc|device (optional), threads, smem_dynamic, carveout, ...}. The log may also be
// LLVM's AMDGPU output (occ/io/amd_artefacts.hpp); its kernels are evaluated on the AMD GPU or target
// the request names (gpu "MI300X" or arch "gfx942"), or on their own target. Without a device
// each kernel is evaluated on its own compute capability (one SM). With one, a kernel's builds that
// cannot run on it are skipped, and of those that can the newest architecture is used (what the
// runtime loads); every compilation of that architecture is a row.
struct PtxasRow {
    std::size_t kernel = 0;                   // index into PtxasAnswer::log.kernels
    std::optional<Device> device;             // what it was evaluated on (none when it was not)
    std::optional<OccupancyResult> result;    // none when the log lacks what occupancy needs
    std::optional<OccupancyRequest> request;  // what `result` was computed from (the app's "Use" makes it the scenario)
    std::string error;                        // why there is no result, or the model's own refusal
    std::vector<std::string> notes;           // what the evaluation assumed (e.g. named barriers not in the log)
    // An AMD kernel's answer (occ/amd.hpp) and the GPU or target it was evaluated on.
    std::optional<amd::AmdOccupancyResult> amd_result;
    std::string amd_device;
    bool vendor_mismatch = false;  // an AMD kernel with an NVIDIA device given, or the reverse
};
struct PtxasSkipped {
    std::size_t kernel = 0;  // index into PtxasAnswer::log.kernels
    std::string reason;
};
struct PtxasAnswer {
    OccupancyRequest input;  // the launch; the device only when has_device
    bool has_device = false;
    std::optional<AmdRequest> amd;  // the request named an AMD GPU or target (gpu "MI300X", arch "gfx942"): AMD kernels run on it
    bool threads_given = false;     // the request set threads or block (a kernel's own launch still wins: noted)
    bool smem_dynamic_given = false;
    PtxasLog log;
    std::vector<PtxasRow> rows;  // chosen compilations, in log order
    std::vector<PtxasSkipped> skipped;
    std::vector<std::size_t> functions;  // device functions (no launch of their own)
    int compilations = 0;                // entry records in the log
    int with_spills = 0;                 // rows whose log reports spill stores or loads
    int failed = 0;                      // rows without an occupancy
    std::string error;                   // the log as a whole gave nothing to evaluate ("" otherwise)
    std::optional<nlohmann::ordered_json> id;
};
Result<PtxasAnswer> answer_ptxas(const nlohmann::ordered_json& request);
nlohmann::ordered_json to_json(const PtxasAnswer& a);
// The device the rows ran on: the request's GPU or AMD target, else how each row chose its own.
std::string rows_device(const PtxasAnswer& a);
// to_json(answer_ptxas(request)), or {"error": ...} for a bad request.
nlohmann::ordered_json api_ptxas(const nlohmann::ordered_json& request);

}  // namespace occ::io
