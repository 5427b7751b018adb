// fuzz_binary.cpp — the cubin / fatbin / host-ELF reader (occ/io/binary.hpp) fed any bytes (the
// seeds are small real cubins and fatbins, stored and LZ4/Zstandard-compressed). Properties: never
// crashes, hangs or allocates without bound (decompression is capped); an error names the file;
// no figure is negative; a kernel read from a cubin has an architecture; the typed answer and its
// JSON (through the same evaluation as the ptxas kind) serialise as strict JSON. The same bytes as
// an LZ4 block for occ's own decoder (lz4_block.cpp, the web page's: native builds read fatbins with
// liblz4): it writes only inside its output and says how much it wrote.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "occ/io/binary.hpp"

namespace {

template <typename T>
bool non_negative(const std::optional<T>& v) {
    return !v || *v >= 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 1024 * 1024) return 0;
    occ::io::BinaryRead r = occ::io::read_binary("fuzz.bin", std::span<const unsigned char>(data, size));
    FUZZ_CHECK(r.error.empty() || r.error.rfind("fuzz.bin: ", 0) == 0, r.error);
    FUZZ_CHECK(r.diagnostics.size() <= 50, std::to_string(r.diagnostics.size()));
    FUZZ_CHECK(r.cubins >= 0 && r.ptx >= 0, "counts");
    for (const auto& k : r.kernels) {
        FUZZ_CHECK(non_negative(k.registers) && non_negative(k.barriers) && non_negative(k.smem_static), k.mangled);
        FUZZ_CHECK(non_negative(k.stack_frame) && non_negative(k.cumulative_stack), k.mangled);
        FUZZ_CHECK(!k.spill_stores && !k.spill_loads, "a spill figure read from a binary");
        if (k.amd) {  // an AMD code object (fuzz_amd.cpp holds these to their own properties)
            FUZZ_CHECK(k.format == "code object", k.format);
            FUZZ_CHECK(k.arch.empty() || k.arch.rfind("gfx", 0) == 0, k.arch);
        } else {
            FUZZ_CHECK(k.format == "cubin" || k.format == "fatbin" || k.format == "ptx" || k.format == occ::io::kZstdEntryFormat, k.format);
            FUZZ_CHECK(k.format == "ptx" || k.format == occ::io::kZstdEntryFormat || k.arch.rfind("sm_", 0) == 0, k.arch);
        }
        FUZZ_CHECK(k.source_file == "fuzz.bin", k.source_file);
        FUZZ_CHECK(k.diagnostics.size() <= 20, k.mangled);
        for (const auto& [bank, bytes] : k.cmem) FUZZ_CHECK(bank >= 0 && bytes >= 0, k.mangled);
    }
    std::vector<occ::io::BinaryRead> files;
    files.push_back(std::move(r));
    const auto a = occ::io::answer_kernels(occ::fuzz::json{{"gpu", "H100"}}, std::move(files));
    FUZZ_CHECK(a.value.has_value(), "answer_kernels refused a request with only a device: " + a.error);
    for (const auto& row : a->rows.rows) {
        FUZZ_CHECK(row.kernel < a->rows.log.kernels.size(), "row index");
        FUZZ_CHECK(!row.result || (row.result->ok() && row.error.empty()), "an occupancy with an error");
        FUZZ_CHECK(row.result || row.amd_result || !row.error.empty(), "a row with neither occupancy nor reason");
    }
    occ::fuzz::dump_strict(occ::io::to_json(*a));

    // The output size from the first two bytes (up to 64 KiB), the block after them.
    if (size >= 2) {
        std::vector<unsigned char> out(static_cast<std::size_t>(data[0] | data[1] << 8));
        const long long n = occ::io::lz4_block_decode(std::span<const unsigned char>(data + 2, size - 2), out);
        FUZZ_CHECK(n >= -1 && n <= static_cast<long long>(out.size()), std::to_string(n));
    }
    return 0;
}
