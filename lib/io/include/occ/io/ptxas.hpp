// occ/io/ptxas.hpp — resource usage from compiler output, for occupancy of every kernel at once.
//
// Reads what `nvcc -Xptxas -v` (ptxas --verbose) and `cuobjdump --dump-resource-usage` print:
//   ptxas info    : Compiling entry function '_Z14transpose_tilePfPKfii' for 'sm_80'
//   ptxas info    : Function properties for _Z14transpose_tilePfPKfii
//       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//   ptxas info    : Used 26 registers, used 1 barriers, 4224 bytes smem, 376 bytes cmem[0]
// and
//   arch = sm_80
//    Function _Z6kernelPf:
//     REG:8 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:360 TEXTURE:0 SURFACE:0 SAMPLER:0
// Lines it does not know (make, host compilers, other tools) are skipped and counted; malformed
// numbers never crash it. The fixtures in tests/fixtures/ptxas are real nvcc 13 logs.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace occ::io {

struct PtxasKernel {
    std::string name;                  // demangled (as c++filt prints it), else the name as printed
    std::string mangled;               // as printed by the tool
    std::string arch;                  // "sm_80", "sm_90a"; empty when the log never said
    int cc_major = 0, cc_minor = 0;    // from arch (0.0 when unknown)
    bool entry = true;                 // a __global__ kernel; false for a device function ("Function properties" only)
    int registers = -1;                // -1 when the log has no "Used N registers" for it
    std::int64_t smem_static = 0;      // bytes
    int barriers = 0;                  // named barriers used ("used N barriers"); 0 when not printed
    std::int64_t stack_frame = 0;      // bytes per thread
    std::int64_t spill_stores = 0;     // bytes
    std::int64_t spill_loads = 0;      // bytes
    std::int64_t cumulative_stack = 0; // bytes ("cumulative stack size", recursion / calls)
    std::int64_t local = 0;            // bytes of local memory per thread (cuobjdump LOCAL)
    std::vector<std::pair<int, std::int64_t>> cmem;   // constant bank -> bytes
    std::string format;                // "ptxas" or "cuobjdump"
    int line = 0;                      // 1-based line of the log where the kernel first appears
};

struct PtxasLog {
    std::vector<PtxasKernel> kernels;  // in log order; entries and device functions
    std::int64_t gmem = 0;             // "N bytes gmem" (last seen)
    int lines = 0;                     // lines read
    int recognised_lines = 0;          // lines that carried resource information
    int skipped_lines = 0;             // lines not understood (other tools' output), ignored
    std::vector<std::string> diagnostics;   // ptxas warning/error lines, verbatim (first 50)
};

PtxasLog parse_ptxas_log(std::string_view text);

// The Itanium C++ ABI name of a function as c++filt prints it (from the C++ runtime's demangler),
// without clone suffixes (.constprop.0). Returns "" when the name is not a mangled function or
// variable name (_Z...), is malformed, or is longer than 4096 bytes.
std::string demangle(std::string_view mangled);

// The JSON contract: {"log": "...", gpu|cc|device (optional), threads, smem_dynamic, carveout, ...}
// -> {"kernels": [...rows with occupancy...], "functions": [...], "skipped": [...], "summary": {...}}.
// Without a device each kernel is evaluated on its own compute capability (one SM).
nlohmann::ordered_json api_ptxas(const nlohmann::ordered_json& request);

}  // namespace occ::io
