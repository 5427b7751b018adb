// amd_text.cpp — AMD kernels from LLVM's text output (occ/io/amd_artefacts.hpp):
//
// 1. -Rpass-analysis=kernel-resource-usage remarks (AMDGPUAsmPrinter::emitResourceUsageRemarks, LLVM
//    15+). One remark per line, each kernel a block that starts with "Function Name:"; the variants
//    users paste (fixtures in tests/fixtures/amd/, each citing where it was seen):
//      llc:    "remark: <unknown>:0:0: Function Name: k"          (llc-19 -pass-remarks-analysis=...)
//      hipcc:  "remark: k.cpp:37:0:     VGPRs: 233 [-Rpass-analysis=kernel-resource-usage]"
//      clang:  "k.hip:15:1: remark:     TotalSGPRs: 27 [-Rpass-analysis=kernel-resource-usage]",
//              with clang's source echo ("   15 |     const int* in, ..." and "      | ^") between;
//      pasted: "VGPRs: 165" with the prefix and tag cut off. LLVM 20+ says "TotalSGPRs" for "SGPRs".
// 2. AMDGPU assembly (llc, clang --save-temps): after each kernel, AMDGPUAsmPrinter's comments
//    "; NumSgprs: 47", "; NumVgprs: 64", "; NumAgprs: 0", "; TotalNumVgprs: 64", "; ScratchSize: 0",
//    "; LDSByteSize: 3000 bytes/workgroup (compile time only)", "; Occupancy: 8"; the kernel is named
//    by "; -- Begin function NAME" or ".amdhsa_kernel NAME"; the .amdhsa_kernel block's
//    .amdhsa_group_segment_fixed_size, .amdhsa_private_segment_fixed_size, .amdhsa_next_free_vgpr,
//    .amdhsa_accum_offset and .amdhsa_wavefront_size32 directives (LLVM AMDGPUUsage, "Code Object V3
//    and Above Directives") stand in where the comments are missing; the target is
//    `.amdgcn_target "amdgcn-amd-amdhsa--gfx942"`, and the .amdgpu_metadata YAML gives each kernel's
//    .max_flat_workgroup_size, .wavefront_size and .kernarg_segment_size.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "amd_read.hpp"
#include "occ/io/amd_artefacts.hpp"
#include "occ/io/utf8.hpp"
#include "ptxas_lines.hpp"

namespace occ::io {
namespace {

using ptxas_detail::leading_number;
using ptxas_detail::starts_with;
using ptxas_detail::trim;

constexpr std::string_view kRemarkFormat = "llvm remark", kAsmFormat = "amdgpu asm";
constexpr std::string_view kTag = "[-Rpass-analysis=kernel-resource-usage]";
constexpr std::size_t kMaxKernels = 100000;  // a log larger than any build: bounds a hostile one

std::optional<int> small(std::string_view s) {
    std::size_t used = 0;
    const auto v = leading_number(trim(s), &used);
    if (!v || *v > 1'000'000'000) return std::nullopt;
    return static_cast<int>(*v);
}
std::optional<std::int64_t> bytes(std::string_view s) {
    const auto v = leading_number(trim(s));
    if (!v || *v > (std::int64_t{1} << 40)) return std::nullopt;
    return v;
}

// The remark's text after its prefix ("remark: loc:" or "loc: remark:") and without clang's tag;
// nullopt when the line is no remark.
std::optional<std::string_view> remark_text(std::string_view line) {
    const std::size_t r = line.find("remark:");
    if (r == std::string_view::npos) return std::nullopt;
    std::string_view rest = line.substr(r + 7);
    if (const std::size_t t = rest.rfind(kTag); t != std::string_view::npos) rest = rest.substr(0, t);
    // "remark: file:12:0: text": skip the location (a name, then ":N:N:").
    const std::string_view lead = trim(rest);
    const std::size_t space = lead.find(' ');  // the location is one word
    for (std::size_t c = lead.find(':'); c < space && c != std::string_view::npos; c = lead.find(':', c + 1)) {
        std::size_t used = 0;
        if (!leading_number(lead.substr(c + 1), &used) || used == 0) continue;
        const std::size_t c2 = c + 1 + used;
        if (c2 >= lead.size() || lead[c2] != ':') continue;
        std::size_t used2 = 0;
        if (!leading_number(lead.substr(c2 + 1), &used2) || used2 == 0) continue;
        const std::size_t c3 = c2 + 1 + used2;
        if (c3 < lead.size() && lead[c3] == ':') return trim(lead.substr(c3 + 1));
        break;
    }
    return trim(rest);
}

struct Parser {
    PtxasLog log;
    std::string target;  // .amdgcn_target / amdhsa.target
    std::map<std::string, std::size_t, std::less<>> by_name;
    std::optional<std::size_t> cur;  // the kernel lines now belong to
    bool in_kernel_block = false;    // between .amdhsa_kernel and .end_amdhsa_kernel
    std::optional<int> next_free_vgpr, accum_offset;
    // The YAML metadata's current kernel item (indent 4 keys of an "  - " item).
    std::map<std::string, std::string, std::less<>> item;
    bool in_metadata = false;
    int line_no = 0;

    PtxasKernel* kernel() { return cur ? &log.kernels[*cur] : nullptr; }
    PtxasKernel* open(std::string_view name, std::string_view format) {
        if (auto it = by_name.find(name); it != by_name.end() && format == kAsmFormat) {
            cur = it->second;
            return kernel();
        }
        if (log.kernels.size() >= kMaxKernels) return nullptr;
        log.kernels.push_back(amd_detail::make_kernel(name, format, target));
        log.kernels.back().line = line_no;
        cur = log.kernels.size() - 1;
        if (format == kAsmFormat) by_name.emplace(std::string(name), *cur);
        return kernel();
    }

    // One "Key: value" of a remark block.
    bool remark(std::string_view text) {
        const std::size_t colon = text.rfind(": ");
        if (starts_with(text, "Function Name:")) {
            open(trim(text.substr(14)), kRemarkFormat);
            return true;
        }
        if (colon == std::string_view::npos) return false;
        const std::string_view key = trim(text.substr(0, colon)), value = trim(text.substr(colon + 2));
        static constexpr std::string_view keys[] = {"SGPRs",
                                                    "TotalSGPRs",
                                                    "VGPRs",
                                                    "AGPRs",
                                                    "ScratchSize [bytes/lane]",
                                                    "Dynamic Stack",
                                                    "Occupancy [waves/SIMD]",
                                                    "SGPRs Spill",
                                                    "VGPRs Spill",
                                                    "LDS Size [bytes/block]"};
        if (std::find(std::begin(keys), std::end(keys), key) == std::end(keys)) return false;
        PtxasKernel* k = kernel();
        if (!k || k->format != kRemarkFormat) k = open("", kRemarkFormat);  // a pasted block without its name
        if (!k) return true;
        AmdResources& a = *k->amd;
        if (key == "SGPRs" || key == "TotalSGPRs") a.sgprs = small(value);
        else if (key == "VGPRs") k->registers = small(value);
        else if (key == "AGPRs") a.agprs = small(value);
        else if (key == "ScratchSize [bytes/lane]") k->stack_frame = bytes(value);
        else if (key == "Dynamic Stack") a.dynamic_stack = value == "True" || value == "true";
        else if (key == "Occupancy [waves/SIMD]") a.llvm_occupancy = small(value);
        else if (key == "SGPRs Spill") a.sgpr_spills = small(value);
        else if (key == "VGPRs Spill") a.vgpr_spills = small(value);
        else if (key == "LDS Size [bytes/block]") k->smem_static = bytes(value);
        return true;
    }

    // One "; Key: value" comment of the assembly's kernel info.
    bool comment(std::string_view text) {
        PtxasKernel* k = kernel();
        const std::size_t colon = text.find(':');
        if (!k || !k->amd || colon == std::string_view::npos) return false;
        const std::string_view key = trim(text.substr(0, colon)), value = trim(text.substr(colon + 1));
        AmdResources& a = *k->amd;
        if (key == "NumSgprs") a.sgprs = small(value);
        else if (key == "NumVgprs") k->registers = small(value);
        else if (key == "NumAgprs") a.agprs = small(value);
        else if (key == "TotalNumVgprs") a.vgprs_total = small(value);
        else if (key == "ScratchSize") k->stack_frame = bytes(value);
        else if (key == "LDSByteSize") k->smem_static = bytes(value);
        else if (key == "Occupancy") a.llvm_occupancy = small(value);
        else return false;
        return true;
    }

    void directive(std::string_view d) {
        PtxasKernel* k = kernel();
        if (!k || !in_kernel_block) return;
        const std::size_t sp = d.find_first_of(" \t");
        if (sp == std::string_view::npos) return;
        const std::string_view key = d.substr(0, sp), value = trim(d.substr(sp));
        if (key == ".amdhsa_group_segment_fixed_size" && !k->smem_static) k->smem_static = bytes(value);
        else if (key == ".amdhsa_private_segment_fixed_size" && !k->stack_frame) k->stack_frame = bytes(value);
        else if (key == ".amdhsa_next_free_vgpr") next_free_vgpr = small(value);
        else if (key == ".amdhsa_accum_offset") accum_offset = small(value);
        else if (key == ".amdhsa_wavefront_size32") k->amd->wave_size = value == "1" ? 32 : 64;
    }

    // .amdhsa_next_free_vgpr is the file the kernel occupies (VGPRs, then AGPRs from
    // .amdhsa_accum_offset); used when the comments do not say.
    void end_kernel_block() {
        PtxasKernel* k = kernel();
        in_kernel_block = false;
        if (k && k->amd) {
            AmdResources& a = *k->amd;
            if (next_free_vgpr && !a.vgprs_total) a.vgprs_total = next_free_vgpr;
            if (next_free_vgpr && accum_offset && !a.agprs && *next_free_vgpr >= *accum_offset) a.agprs = *next_free_vgpr - *accum_offset;
        }
        next_free_vgpr.reset();
        accum_offset.reset();
    }

    void flush_item() {
        const auto name = item.find(".name");
        if (name != item.end())
            if (auto it = by_name.find(name->second); it != by_name.end()) {
                AmdResources& a = *log.kernels[it->second].amd;
                if (auto v = item.find(".max_flat_workgroup_size"); v != item.end()) a.max_workgroup_size = small(v->second);
                if (auto v = item.find(".wavefront_size"); v != item.end()) a.wave_size = small(v->second);
                if (auto v = item.find(".kernarg_segment_size"); v != item.end()) a.kernarg_bytes = bytes(v->second);
                if (auto v = item.find(".sgpr_spill_count"); v != item.end()) a.sgpr_spills = small(v->second);
                if (auto v = item.find(".vgpr_spill_count"); v != item.end()) a.vgpr_spills = small(v->second);
            }
        item.clear();
    }

    // A line of the .amdgpu_metadata YAML: kernel items start "  - .", their keys are indented 4.
    void metadata(std::string_view raw) {
        std::string_view body;
        if (starts_with(raw, "  - .")) {
            flush_item();
            body = raw.substr(4);
        } else if (starts_with(raw, "    .")) {
            body = raw.substr(4);
        } else {
            if (starts_with(raw, "amdhsa.target:") && target.empty()) target = std::string(trim(raw.substr(14)));
            return;
        }
        const std::size_t colon = body.find(':');
        if (colon == std::string_view::npos || item.size() > 64) return;
        std::string_view v = trim(body.substr(colon + 1));
        if (starts_with(v, "!str ")) v = trim(v.substr(5));
        item[std::string(body.substr(0, colon))] = std::string(v);
    }

    void line(std::string_view raw) {
        const std::string_view l = trim(raw);
        if (in_metadata) {
            if (starts_with(l, ".end_amdgpu_metadata")) {
                flush_item();
                in_metadata = false;
            } else {
                metadata(raw);
            }
            ++log.recognised_lines;
            return;
        }
        if (auto r = remark_text(l)) {
            if (remark(*r)) {
                ++log.recognised_lines;
                return;
            }
        }
        // "\t.globl\tk ; -- Begin function k" (llc writes it after the directive): each function's
        // comments belong to it from here, device functions' "; Function info:" too.
        if (const std::size_t bf = l.find("; -- Begin function "); bf != std::string_view::npos) {
            open(trim(l.substr(bf + 20)), kAsmFormat);
            ++log.recognised_lines;
            return;
        }
        if (starts_with(l, ";")) {
            const std::string_view c = trim(l.substr(1));
            if (starts_with(c, "-- End function")) {  // its "; Kernel info:" / "; Function info:" follow
                ++log.recognised_lines;
            } else if (comment(c)) {
                ++log.recognised_lines;
            }
            return;
        }
        if (starts_with(l, ".amdgcn_target")) {
            const std::size_t q = l.find('"'), q2 = l.rfind('"');
            if (q != std::string_view::npos && q2 > q) target = std::string(l.substr(q + 1, q2 - q - 1));
            ++log.recognised_lines;
            return;
        }
        if (starts_with(l, ".amdhsa_kernel ")) {
            PtxasKernel* k = open(trim(l.substr(15)), kAsmFormat);
            if (k) k->entry = true;
            in_kernel_block = true;
            ++log.recognised_lines;
            return;
        }
        if (starts_with(l, ".end_amdhsa_kernel")) {
            end_kernel_block();
            ++log.recognised_lines;
            return;
        }
        if (starts_with(l, ".amdgpu_metadata")) {
            in_metadata = true;
            return;
        }
        if (starts_with(l, ".amdhsa_")) {
            directive(l);
            return;
        }
        // A bare "VGPRs: 165" (a pasted remark block).
        if (!starts_with(l, ".") && remark(l)) {
            ++log.recognised_lines;
            return;
        }
        ++log.skipped_lines;
    }
};

}  // namespace

bool looks_like_amd_text(std::string_view text) {
    const std::string_view head = text.substr(0, std::min<std::size_t>(text.size(), 1 << 20));
    for (std::string_view s : {"kernel-resource-usage", "Function Name:", ".amdhsa_kernel", "amdgcn-amd-amdhsa",
                               "; NumVgprs:", "Occupancy [waves/SIMD]:", "ScratchSize [bytes/lane]:"})
        if (head.find(s) != std::string_view::npos) return true;
    return false;
}

PtxasLog parse_amd_text(std::string_view text) {
    Parser p;
    // The target first: .amdgcn_target opens the assembly, but kernels may come before it in a paste.
    if (const std::size_t t = text.find(".amdgcn_target"); t != std::string_view::npos) {
        const std::size_t q = text.find('"', t), q2 = q == std::string_view::npos ? q : text.find('"', q + 1);
        if (q2 != std::string_view::npos && q2 - q < 200 && text.substr(q, q2 - q).find('\n') == std::string_view::npos)
            p.target = std::string(text.substr(q + 1, q2 - q - 1));
    }
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t nl = text.find('\n', pos);
        if (nl == std::string_view::npos) nl = text.size();
        std::string_view raw = text.substr(pos, nl - pos);
        if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
        pos = nl + 1;
        ++p.line_no;
        ++p.log.lines;
        if (!trim(raw).empty()) p.line(raw);
    }
    if (p.in_metadata) p.flush_item();
    // Assembly functions without an .amdhsa_kernel block are device functions.
    for (PtxasKernel& k : p.log.kernels) {
        if (k.format == kAsmFormat && !k.entry) continue;
        if (k.amd->target.empty() && !p.target.empty()) {
            k.amd->target = make_valid_utf8(std::string_view(p.target).substr(0, 200));
            k.arch = amd_processor(p.target);
        }
        amd_detail::note_unread(k, k.format == kRemarkFormat ? "the remark" : "the assembly");
    }
    // The n-th compilation of a name for a target (a log of several builds), as the ptxas reader counts.
    ptxas_detail::number_occurrences(p.log.kernels);
    return p.log;
}

}  // namespace occ::io
