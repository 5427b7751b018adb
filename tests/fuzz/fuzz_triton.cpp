// fuzz_triton.cpp — Triton's cache metadata reader (occ/io/binary.hpp: parse_triton_metadata,
// attach_triton) fed any text. Properties: never crashes; an error names the file; a launch read
// has 1..64 warps of 1..64 lanes, threads = warps x lanes, non-negative shared memory, 1..64 CTAs,
// 0..512 TMEM columns; attaching it to a read that does not hold the kernel says so.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_common.hpp"
#include "occ/io/binary.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 256 * 1024) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto m = occ::io::parse_triton_metadata(text, "cache/k.json");
    if (!m.value) {
        FUZZ_CHECK(m.error.rfind("cache/k.json: ", 0) == 0, m.error);
        return 0;
    }
    const occ::io::ArtefactLaunch& l = m->launch;
    FUZZ_CHECK(!m->name.empty(), "a kernel without a name");
    FUZZ_CHECK(l.num_warps >= 1 && l.num_warps <= 64 && l.warp_size >= 1 && l.warp_size <= 64, std::to_string(l.num_warps));
    FUZZ_CHECK(l.threads == l.num_warps * l.warp_size, std::to_string(l.threads));
    FUZZ_CHECK(l.smem_dynamic >= 0 && l.num_ctas >= 1 && l.num_ctas <= 64, std::to_string(l.smem_dynamic));
    FUZZ_CHECK(l.tmem_columns >= 0 && l.tmem_columns <= 512, std::to_string(l.tmem_columns));
    FUZZ_CHECK(!l.maxnreg || (*l.maxnreg >= 1 && *l.maxnreg <= 255), "maxnreg");
    occ::io::BinaryRead empty;
    occ::io::attach_triton(empty, *m);
    FUZZ_CHECK(!empty.diagnostics.empty(), "attached to a read without the kernel, silently");
    return 0;
}
