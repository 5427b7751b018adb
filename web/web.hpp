// web.hpp — what the web face's files share: the exported C functions (called from index.html's
// window.occ glue). Nothing here is used outside web/.
#pragma once
#include <string>

#include <vector>

#include "occ/io/api.hpp"
#include "occ/io/binary.hpp"

namespace occ::web {

// Hands a string to JS: the returned pointer stays valid until the next call that returns one.
const char* to_js(std::string s);
// The files staged by occ_web_stage_file since the last call (api.cpp), handed over.
std::vector<io::NamedBytes> take_staged_files();

}  // namespace occ::web
