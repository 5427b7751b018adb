// fuzz_ptxas.cpp — the ptxas -v / cuobjdump --dump-resource-usage log parser (occ/io/ptxas.hpp)
// and abi::__cxa_demangle, fed whatever a user pastes (other compilers' logs, binary junk).
// Properties: never crashes; line counts add up; diagnostics are capped; the JSON answer for the
// same text (made valid UTF-8, as any JSON request is) serialises as strict JSON.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "occ/io/fields.hpp"
#include "occ/io/ptxas.hpp"
#include "occ/io/utf8.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using occ::fuzz::json;
    if (size > 256 * 1024) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const occ::io::PtxasLog log = occ::io::parse_ptxas_log(text);
    FUZZ_CHECK(log.lines >= 0 && log.recognised_lines >= 0 && log.skipped_lines >= 0, "negative count");
    FUZZ_CHECK(log.recognised_lines + log.skipped_lines <= log.lines, std::to_string(log.lines));
    FUZZ_CHECK(log.diagnostics.size() <= 50, std::to_string(log.diagnostics.size()));
    for (const auto& k : log.kernels) {
        FUZZ_CHECK(k.registers >= -1, k.mangled);
        FUZZ_CHECK(k.smem_static >= 0 && k.stack_frame >= 0 && k.spill_stores >= 0 && k.spill_loads >= 0, k.mangled);
        occ::io::demangle(k.mangled);
    }
    occ::io::demangle(text.substr(0, 512));
    const json req = {{"log", occ::io::make_valid_utf8(text)}};
    try {
        occ::fuzz::dump_strict(occ::io::api_ptxas(req));
    } catch (const occ::io::RequestError& e) {
        FUZZ_CHECK(false, std::string("api_ptxas refused a request with only a log: ") + e.what());
    }
    return 0;
}
