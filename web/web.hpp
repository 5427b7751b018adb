// web.hpp — what the web face's files share: the exported C functions (called from index.html's
// window.occ glue) and the result-table export. Nothing here is used outside web/.
#pragma once
#include <string>
#include <string_view>

#include "occ/io/api.hpp"

namespace occ::web {

// The result table of one occupancy response (the JSON the CLI prints) as GitHub Markdown or CSV.
// Unknown format or an error response gives a one-line explanation instead of a table.
std::string result_table(const io::json& response, std::string_view format);

// The occupancy request inside a scenario: the scenario's fields that an occupancy request knows
// (a scenario also stores view flags and the theme, which a request would reject as unknown).
io::json request_from_scenario(const io::json& scenario);

// Hands a string to JS: the returned pointer stays valid until the next call that returns one.
const char* to_js(std::string s);

}  // namespace occ::web
