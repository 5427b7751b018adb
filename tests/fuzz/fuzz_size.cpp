// fuzz_size.cpp — the size-string parser (occ/io/size.hpp): "48K", "0x400", "1.5MiB", ...
// Properties: never crashes; a success is in 0..2^40; a failure names the field; a success
// survives the canonical byte spelling; a value read through FieldReader::size agrees.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "occ/io/fields.hpp"
#include "occ/io/size.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto r = occ::io::parse_size(text, "smem_dynamic");
    if (!r) {
        FUZZ_CHECK(r.error.rfind("smem_dynamic: ", 0) == 0, r.error);
        FUZZ_CHECK(r.error.size() < 400, r.error);  // the input is quoted, but cut short
    } else {
        FUZZ_CHECK(*r >= 0 && *r <= (std::int64_t{1} << 40), std::to_string(*r));
        const auto again = occ::io::parse_size(std::to_string(*r));
        FUZZ_CHECK(again && *again == *r, text);
    }
    // The same text as a JSON string field.
    try {
        const occ::fuzz::json obj = {{"s", std::string(text)}};
        occ::io::FieldReader f(obj, "fuzz");
        const std::int64_t v = f.size("s", 0, std::int64_t{1} << 40, -1);
        FUZZ_CHECK(r && v == *r, text);
    } catch (const occ::io::RequestError& e) {
        FUZZ_CHECK(!r, e.what());
    }
    return 0;
}
