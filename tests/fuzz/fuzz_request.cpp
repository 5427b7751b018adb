// fuzz_request.cpp — the JSON request parser, for every request kind occ::io::known_kinds() lists.
// The same bytes go to handle_text() for each kind (a --batch line, or a JS API string).
// Properties: never crashes or throws; the answer is a JSON object that serialises as strict
// JSON; an error is a non-empty string; a successful answer's canonical "input" echo, fed back,
// gives the same answer for occupancy (what the URL scenario, the GUI and the CLI's table rely on).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "occ/io/api.hpp"

namespace {

const std::vector<std::string>& kinds() {
    static const std::vector<std::string> k = occ::fuzz::split_list(occ::io::known_kinds());
    return k;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using occ::fuzz::json;
    if (size > 64 * 1024) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const std::string& kind : kinds()) {
        const json res = occ::io::handle_text(kind, text);
        FUZZ_CHECK(res.is_object(), kind);
        const std::string out = occ::fuzz::dump_strict(res);
        const bool failed = res.contains("error") && !res["error"].is_null();
        if (failed) FUZZ_CHECK(res["error"].is_string() && !res["error"].get<std::string>().empty(), kind + ": " + out);
        // Round trip through the canonical echo (occupancy: documented as the scenario form; the
        // memory kinds' echoes are not promised to read back yet, see docs/FUZZING.md).
        if (kind == "occupancy" && !failed && res.contains("input") && res["input"].is_object()) {
            json again = occ::io::handle(kind, res["input"]);
            json first = res;
            first.erase("id");
            FUZZ_CHECK(again == first, kind + ": " + out + " vs " + occ::fuzz::dump_strict(again));
        }
    }
    return 0;
}
