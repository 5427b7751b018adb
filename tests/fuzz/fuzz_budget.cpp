// fuzz_budget.cpp — `occ check`'s budget file reader (occ/io/check.hpp: parse_budget, TOML through
// toml++) fed any text. Properties: never crashes or hangs; an error names the file and a line; a
// budget read has at least one rule and every value inside the range the reader promises.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_common.hpp"
#include "occ/io/check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 64 * 1024) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto b = occ::io::parse_budget(text, "fuzz.toml");
    if (!b.value) {
        FUZZ_CHECK(b.error.rfind("fuzz.toml", 0) == 0, b.error);
        return 0;
    }
    FUZZ_CHECK(!b->rules.empty(), "a budget without rules was accepted");
    FUZZ_CHECK(!b->threads || (*b->threads >= 1 && *b->threads <= 1024), "threads");
    for (const auto& r : b->rules) {
        FUZZ_CHECK(r.line >= 1, r.kernels);
        FUZZ_CHECK(!r.threads || (*r.threads >= 1 && *r.threads <= 1024), r.kernels);
        FUZZ_CHECK(!r.max_registers || (*r.max_registers >= 0 && *r.max_registers <= 255), r.kernels);
        FUZZ_CHECK(!r.max_spill_bytes || *r.max_spill_bytes >= 0, r.kernels);
        FUZZ_CHECK(!r.max_stack || *r.max_stack >= 0, r.kernels);
        FUZZ_CHECK(!r.max_smem || *r.max_smem >= 0, r.kernels);
        FUZZ_CHECK(!r.min_occupancy || (*r.min_occupancy >= 0 && *r.min_occupancy <= 1), r.kernels);
        FUZZ_CHECK(!r.min_blocks_per_sm || (*r.min_blocks_per_sm >= 1 && *r.min_blocks_per_sm <= 64), r.kernels);
        occ::io::glob_match(r.kernels, "matmul_kernel");  // any pattern the file gives must be safe to match
    }
    return 0;
}
