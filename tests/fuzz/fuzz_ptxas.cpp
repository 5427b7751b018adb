// fuzz_ptxas.cpp — the ptxas -v / nvrtc / JIT-linker / cuobjdump --dump-resource-usage log parser
// (occ/io/ptxas.hpp) and abi::__cxa_demangle, fed whatever a user pastes (other compilers' logs,
// binary junk). Properties: never crashes; line counts add up; diagnostics are capped; no figure is
// negative; occurrence numbers count up to their total; the typed answer only carries occupancies
// the model accepted; the JSON answer for the same text (made valid UTF-8, as any JSON request is)
// serialises as strict JSON.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "occ/io/ptxas.hpp"
#include "occ/io/utf8.hpp"

namespace {

template <typename T>
bool non_negative(const std::optional<T>& v) {
    return !v || *v >= 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using occ::fuzz::json;
    if (size > 256 * 1024) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const occ::io::PtxasLog log = occ::io::parse_ptxas_log(text);
    FUZZ_CHECK(log.lines >= 0 && log.recognised_lines >= 0 && log.skipped_lines >= 0 && log.unknown_lines >= 0, "negative count");
    FUZZ_CHECK(log.recognised_lines + log.skipped_lines + log.unknown_lines <= log.lines, std::to_string(log.lines));
    FUZZ_CHECK(log.diagnostics.size() <= 50, std::to_string(log.diagnostics.size()));
    FUZZ_CHECK(non_negative(log.gmem), "gmem");
    for (const auto& k : log.kernels) {
        FUZZ_CHECK(non_negative(k.registers) && non_negative(k.barriers) && non_negative(k.textures), k.mangled);
        FUZZ_CHECK(non_negative(k.smem_static) && non_negative(k.stack_frame) && non_negative(k.spill_stores) &&
                       non_negative(k.spill_loads) && non_negative(k.cumulative_stack) && non_negative(k.local),
                   k.mangled);
        FUZZ_CHECK(k.occurrence >= 1 && k.occurrence <= k.occurrences, k.mangled);
        FUZZ_CHECK(k.diagnostics.size() <= 20, k.mangled);
        for (const auto& [bank, bytes] : k.cmem) FUZZ_CHECK(bank >= 0 && bytes >= 0, k.mangled);
        occ::io::demangle(k.mangled);
    }
    occ::io::demangle(text.substr(0, 512));
    const json req = {{"log", occ::io::make_valid_utf8(text)}};
    const auto a = occ::io::answer_ptxas(req);
    FUZZ_CHECK(a.value.has_value(), "answer_ptxas refused a request with only a log: " + a.error);
    for (const auto& row : a->rows) {
        FUZZ_CHECK(row.kernel < a->log.kernels.size(), "row index");
        FUZZ_CHECK(!row.result || (row.result->ok() && row.error.empty()), "an occupancy with an error");
        FUZZ_CHECK(row.result || row.amd_result || !row.error.empty(), "a row with neither occupancy nor reason");
    }
    FUZZ_CHECK(a->rows.empty() != a->error.empty(), "rows and the log's error disagree");
    occ::fuzz::dump_strict(occ::io::to_json(*a));
    occ::fuzz::dump_strict(occ::io::api_ptxas(req));
    return 0;
}
