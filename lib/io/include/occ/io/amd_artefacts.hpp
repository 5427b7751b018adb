// occ/io/amd_artefacts.hpp — AMD kernels read from what LLVM and HIP write, as the same kernel records
// (PtxasKernel, with its `amd` part) the CUDA readers produce (docs/AMD.md, "Readers"):
//   - LLVM's -Rpass-analysis=kernel-resource-usage remarks (clang/hipcc stderr, llc
//     -pass-remarks-analysis=kernel-resource-usage): "remark: f.hip:12:0: Function Name: _Z1kPf",
//     then "    SGPRs: 32", "    VGPRs: 64", "    AGPRs: 0", "    ScratchSize [bytes/lane]: 0",
//     "    Dynamic Stack: False", "    Occupancy [waves/SIMD]: 8", "    SGPRs Spill: 0",
//     "    VGPRs Spill: 0", "    LDS Size [bytes/block]: 0" (amd_text.cpp);
//   - AMDGPU assembly (llc, clang --save-temps): the "; NumSgprs: 47" comments after each kernel and
//     the .amdhsa_kernel directives (amd_text.cpp);
//   - code objects (ELF, EM_AMDGPU) and their NT_AMDGPU_METADATA note (MessagePack "amdhsa.kernels"),
//     alone or in clang offload bundles (__CLANG_OFFLOAD_BUNDLE__, or compressed: CCOB), themselves in
//     the .hip_fatbin section of host executables, libraries and objects (amd_code_object.cpp).
// A figure the artefact does not hold is empty (null in JSON) with the reason in AmdResources::unread.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "occ/io/fields.hpp"
#include "occ/io/ptxas.hpp"

namespace occ::io {

// Whether a compiler log is LLVM's AMDGPU output (a kernel-resource-usage remark, or AMDGPU
// assembly with its kernel comments or .amdhsa_kernel directives) rather than ptxas's.
bool looks_like_amd_text(std::string_view text);
// The kernels of that text: one PtxasKernel per remark block or assembled kernel, `amd` set,
// `registers` the arch VGPRs, `smem_static` the LDS bytes, `stack_frame` the scratch bytes per lane.
PtxasLog parse_amd_text(std::string_view text);

// MessagePack (msgpack.org spec) as JSON: maps with string keys, arrays, strings, integers, floats,
// booleans and nil; bin and ext values become null. At most `max_depth` levels; every length is
// checked against the bytes left. Error: what was wrong and at which byte.
Result<json> parse_msgpack(std::span<const unsigned char> bytes, int max_depth = 32);

// The LLVM processor name ("gfx942") of an AMDGPU ELF e_flags value (EF_AMDGPU_MACH), for the
// targets occ models; "" when not one of them.
std::string amd_mach_name(std::uint32_t e_flags);
// The processor of a target id: "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-" and
// "hipv4-amdgcn-amd-amdhsa--gfx90a" give "gfx942" / "gfx90a"; "" when none.
std::string amd_processor(std::string_view target_id);

// Magic numbers: the clang offload bundle (uncompressed) and the compressed one.
inline constexpr std::string_view kOffloadBundleMagic = "__CLANG_OFFLOAD_BUNDLE__";
inline constexpr std::string_view kCompressedBundleMagic = "CCOB";
inline constexpr std::uint16_t kEmAmdgpu = 224;  // EM_AMDGPU (LLVM AMDGPUUsage, "ELF Code Object")

}  // namespace occ::io
