// compute_occupancy's refusals are a code plus numbers, worded by error_message(): the wording of
// each is the one the answers have always carried (these strings are the answers of the version
// that formatted them on the query path, and the regress corpus holds the rest byte for byte).
#include <doctest/doctest.h>

#include <string>

#include "occ/device.hpp"
#include "occ/occupancy.hpp"

namespace {

occ::OccupancyResult a100(int threads, int regs, std::int64_t dyn, std::int64_t max_dyn = -1) {
    occ::KernelResources k;
    k.regs_per_thread = regs;
    k.max_dynamic_smem = max_dyn;
    occ::LaunchConfig l;
    l.threads = threads;
    l.smem_dynamic = dyn;
    return occ::compute_occupancy(*occ::find_gpu("A100-SXM4-80GB"), k, l);
}

}  // namespace

TEST_CASE("refusals: code and message, each worded as before") {
    const auto regs = a100(1024, 255, 0);
    CHECK(regs.error_code == occ::OccupancyError::regs_per_block);
    CHECK(regs.blocks_per_sm == 0);
    CHECK(regs.error_message() ==
          "regs: 255 registers x 1024 threads needs 262144 registers per block (8192 per warp after rounding to 256, 32 warps counted "
          "as 32 across 4 sub-partitions); the limit is 65536 per block: use fewer registers (__launch_bounds__ / -maxrregcount) or a "
          "smaller block");
    const auto smem = a100(256, 32, 60000);
    CHECK(smem.error_code == occ::OccupancyError::smem_over_block);
    CHECK(smem.error_message() ==
          "shared memory per block is 59.625 KiB (static 0 B + dynamic 58.594 KiB + reserved 1 KiB, rounded to 128 B), over the 49 KiB a "
          "block may use: opt in (--optin, cudaFuncAttributeMaxDynamicSharedMemorySize) to raise it");
    CHECK(a100(256, 32, 60000, 50000).error_message() ==
          "smem_dynamic 58.594 KiB is above the kernel's max_dynamic_smem 48.828 KiB (cudaFuncAttributeMaxDynamicSharedMemorySize)");
    CHECK(a100(256, 32, 0, 170000).error_message() ==
          "max_dynamic_smem must be 0..166912 bytes (opt-in maximum 163 KiB minus static 0 B), got 170000");
    const auto threads = a100(2048, 32, 0);
    CHECK(threads.error_code == occ::OccupancyError::threads_too_many);
    CHECK(threads.error_message() == "threads must be 1..1024 on compute capability 8.0, got 2048: the launch would fail");
    CHECK(a100(256, 32, -5).error_message() == "smem_dynamic must be >= 0 bytes, got -5");
    // A launch that fits has no code and no message.
    const auto fits = a100(256, 64, 4096);
    CHECK(fits.ok());
    CHECK(fits.error_code == occ::OccupancyError::none);
    CHECK(fits.error_message().empty());
    CHECK(fits.blocks_per_sm == 4);
    // A copy carries the numbers with the code.
    const occ::OccupancyResult copy = regs;
    CHECK(copy.error_message() == regs.error_message());
}

TEST_CASE("carveout steps ascend on every architecture (the model scans them from the top)") {
    for (const occ::ArchRules& a : occ::all_archs()) {
        const auto steps = a.carveouts();
        for (std::size_t i = 1; i < steps.size(); ++i) CHECK_MESSAGE(steps[i - 1] < steps[i], a.cc_major << "." << a.cc_minor);
    }
}
