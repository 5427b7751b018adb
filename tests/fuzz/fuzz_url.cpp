// fuzz_url.cpp — the URL-hash scenario decoder (occ/io/url.hpp), as a pasted link reaches it.
// Properties: never crashes; a decoded scenario is a JSON object; encode(decode(x)) decodes to the
// same object (so a shared link survives a reload); percent_decode(percent_encode(s)) == s for
// UTF-8 text (other bytes are refused with a message); messages are valid UTF-8.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "occ/io/api.hpp"
#include "occ/io/url.hpp"
#include "occ/io/utf8.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using occ::fuzz::json;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto r = occ::io::decode_url_query(text);
    if (r) {
        FUZZ_CHECK(r->is_object(), text);
        const std::string dumped = occ::fuzz::dump_strict(*r);
        const std::string enc = occ::io::encode_url_query(*r);
        const auto back = occ::io::decode_url_query(enc);
        FUZZ_CHECK(back && *back == *r, dumped + " -> " + enc + " -> " + (back ? back->dump() : back.error));
        // The web page hands a decoded scenario to the occupancy request parser.
        occ::fuzz::dump_strict(occ::io::handle("occupancy", *r));
    } else {
        FUZZ_CHECK(!r.error.empty(), text);
        // The page shows the message in its notice, and may pass it on as JSON.
        FUZZ_CHECK(occ::io::valid_utf8(r.error), r.error);
    }
    const std::string raw(text);
    const auto pd = occ::io::percent_decode(occ::io::percent_encode(raw), true);
    if (occ::io::valid_utf8(raw)) FUZZ_CHECK(pd && *pd == raw, raw);
    else FUZZ_CHECK(!pd, raw);
    return 0;
}
