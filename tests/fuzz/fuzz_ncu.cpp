// fuzz_ncu.cpp — the Nsight Compute report reader (occ/io/ncu.hpp) and the ncu request kind, fed
// whatever a user pastes: any text, CSV with broken quoting, binary junk.
// Properties: never crashes or throws; every value read came from a number in the text (its
// interval holds its best reading); the JSON answer serialises as strict JSON.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "occ/io/ncu.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using occ::fuzz::json;
    if (size > 64 * 1024) return 0;
    const std::string text(reinterpret_cast<const char*>(data), size);
    const occ::io::NcuReport rep = occ::io::parse_ncu(text);
    for (const occ::io::NcuKernel& k : rep.kernels)
        for (const auto& [key, v] : k.values) {
            FUZZ_CHECK(!v.printed.empty(), key);
            FUZZ_CHECK(v.lo <= v.value && v.value <= v.hi, key + ": " + v.printed + " " + v.unit);
        }
    const json res = occ::io::handle("ncu", json{{"text", text}});
    FUZZ_CHECK(res.is_object(), "ncu");
    const std::string out = occ::fuzz::dump_strict(res);
    FUZZ_CHECK(!out.empty(), "ncu");
    return 0;
}
