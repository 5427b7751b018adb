// amd_read.hpp — io-internal: what the AMD readers share (amd_text.cpp, amd_code_object.cpp,
// amd_eval.cpp).
#pragma once
#include <string>
#include <string_view>

#include "occ/io/ptxas.hpp"

namespace occ::io::amd_detail {

// A new AMD kernel record: name (demangled when mangled), format, arch from the target id.
PtxasKernel make_kernel(std::string_view mangled, std::string_view format, std::string_view target);
// Records, for each figure still empty, why (`where` names the artefact: "the remark", "the code
// object metadata"); the figures every AMD artefact lacks get their own reason.
void note_unread(PtxasKernel& k, std::string_view where);

}  // namespace occ::io::amd_detail
