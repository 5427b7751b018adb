// text_logs.cpp — which compiler or profiler text a file or a pasted log is (occ/io/ptxas.hpp).
#include "occ/io/amd_artefacts.hpp"
#include "occ/io/ptxas.hpp"
#include "occ/io/rocprof.hpp"

namespace occ::io {
namespace {

// The profilers' outputs first: their tests are exact (a table rule and a metric title, a CSV header
// naming the register columns). LLVM's AMDGPU text next (its remark or directive words), ptxas last.
constexpr TextLogFormat kTextLogs[] = {
    {TextLog::rocprof_compute, "rocprof-compute analysis", looks_like_rocprof_compute, parse_rocprof_compute, false,
     "rocprof-compute output without a metric table (Wavefront Launch Stats, Speed-of-Light, ...)"},
    {TextLog::rocprof_csv, kRocprofCsvFormat, looks_like_rocprof_csv, [](std::string_view t) { return parse_rocprof_csv(t); }, false,
     "pmc_perf.csv without a dispatch (a header only)"},
    {TextLog::amd_compiler, "AMD compiler output", looks_like_amd_text, parse_amd_text, true,
     "LLVM AMDGPU output without a kernel's resource block (-Rpass-analysis=kernel-resource-usage, or .amdhsa_kernel)"},
    {TextLog::ptxas, "ptxas log", nullptr, parse_ptxas_log, true,
     "no \"Used N registers\" lines from nvcc -Xptxas -v or cuobjdump --dump-resource-usage"},
};

}  // namespace

const TextLogFormat& text_log_format(std::string_view text) {
    for (const TextLogFormat& f : kTextLogs)
        if (!f.matches || f.matches(text)) return f;
    return kTextLogs[std::size(kTextLogs) - 1];
}

}  // namespace occ::io
