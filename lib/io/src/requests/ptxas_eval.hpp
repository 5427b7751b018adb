// ptxas_eval.hpp — the evaluation the "ptxas" and "kernels" kinds share (ptxas_request.cpp): the
// launch fields of a request whose kernels come from an artefact, and the rows of its kernels.
#pragma once
#include <string>
#include <string_view>

#include "occ/io/fields.hpp"
#include "occ/io/ptxas.hpp"

namespace occ::io {

// Reads the device and launch fields into a.input and a.has_device; a field the artefact supplies
// (registers, static shared memory, barriers) is refused. `artefact` names it in that message.
void read_artefact_launch(FieldReader& f, PtxasAnswer& a, std::string_view artefact);
// Chooses the rows of a.log.kernels (every compilation, or with a device the build it loads) and
// evaluates each: a.rows, a.skipped, a.functions and the counts. Leaves a.error alone.
void evaluate_kernels(PtxasAnswer& a);
// The row note of a kernel whose artefact fixes its launch (Triton's num_warps x warp_size and
// `shared`): what it ran with, and which of the request's launch fields are not used for it.
std::string artefact_launch_note(const PtxasAnswer& a, const ArtefactLaunch& l);

// AMD (amd_eval.cpp). Reads the AMD target and launch when the request names an AMD GPU or target
// (false, reading nothing, otherwise); the fields the artefact supplies are refused.
bool read_amd_artefact_launch(FieldReader& f, PtxasAnswer& a, std::string_view artefact);
// Evaluates an AMD kernel's row (row.amd_result), or says why not (a CUDA device given, no target).
void evaluate_amd(const PtxasAnswer& a, PtxasRow& row);
// The row's AMD figures: resources beyond the CUDA ones, and "unread" (why each null is null).
void amd_kernel_json(const PtxasKernel& k, nlohmann::ordered_json& row);
// The answer's error when every row is a vendor mismatch ("" otherwise).
std::string vendor_mismatch_error(const PtxasAnswer& a);

}  // namespace occ::io
