// cubin_read.cpp — the kernels of one cubin (an ELF64 file for EM_CUDA) and their resources.
//
// [SECTION] index
//   attribute ids ..... the EIATTR numbers this reader uses, each checked against `ptxas -v`
//   nv.info records ... the record walk (format byte, attribute byte, then a value or a sized blob)
//   read_cubin ........ kernels, their symbols, sections and attributes
//
// The EIATTR numbering is not published; each id below was found by compiling kernels with and
// without the feature (nvcc 13.0, sm_75..sm_120), diffing the records and checking the value against
// the same compile's `-Xptxas -v` line. tests/fixtures/binaries/make_corpus.sh rebuilds that corpus
// and tests/unit/test_binary.cpp holds every kernel of it to its ptxas log.
#include <algorithm>
#include <cctype>
#include <string>
#include <unordered_map>
#include <vector>

#include "binary_read.hpp"
#include "occ/io/utf8.hpp"

namespace occ::io::bin {
namespace {

// [SECTION] attribute ids
// .nv.info (global), SVAL {u32 symbol index, u32 value}:
constexpr std::uint8_t kAttrFrameSize = 0x11;     // EIATTR_FRAME_SIZE: "N bytes stack frame"
constexpr std::uint8_t kAttrMinStackSize = 0x12;  // EIATTR_MIN_STACK_SIZE: "N bytes cumulative stack size"
constexpr std::uint8_t kAttrRegcount = 0x2f;      // EIATTR_REGCOUNT: "Used N registers"
// .nv.info.<kernel>:
constexpr std::uint8_t kAttrMaxThreads = 0x05;      // EIATTR_MAX_THREADS: SVAL {x, y, z} of __launch_bounds__ / .maxntid
constexpr std::uint8_t kAttrMaxregCount = 0x1b;     // EIATTR_MAXREG_COUNT: HVAL, the register cap ptxas worked to (255 = none)
constexpr std::uint8_t kAttrCtaPerCluster = 0x3d;   // EIATTR_CTA_PER_CLUSTER: SVAL {x, y, z} of __cluster_dims__
constexpr std::uint8_t kAttrMaxClusterRank = 0x3f;  // EIATTR_MAX_CLUSTER_RANK: SVAL u32, __launch_bounds__'s third argument
constexpr std::uint8_t kAttrNumBarriers = 0x4c;     // barriers: BVAL, "used N barriers" (absent when 0)
// .nv.compat, BVAL: 1 for an architecture-specific ("sm_90a") cubin.
constexpr std::uint8_t kCompatArchSpecific = 0x09;
// EIFMT: how a record's value is held.
constexpr std::uint8_t kFmtNval = 0x01, kFmtBval = 0x02, kFmtHval = 0x03, kFmtSval = 0x04;
// Figures beyond these are not from a compiler (255 registers per thread is the ISA's limit; shared
// memory and constant banks are KiB): a hostile file's, not read.
constexpr std::uint32_t kMaxRegisters = 65535;
constexpr std::uint64_t kMaxSectionFigure = 1ull << 32;
constexpr std::uint8_t kStoEntry = 0x10;            // st_other of a __global__ function's symbol
constexpr std::uint32_t kShtCudaInfo = 0x70000000;  // SHT_LOPROC + 0: .nv.info sections

// [SECTION] nv.info records
struct Record {
    std::uint8_t format = 0, attr = 0;
    std::uint32_t value = 0;              // BVAL / HVAL value
    std::span<const unsigned char> blob;  // SVAL bytes
};

// Calls f(record) for each record of an .nv.info-style section; stops at a malformed one.
template <typename F>
void walk_records(std::span<const unsigned char> s, std::string_view where, BinaryRead& out, F f) {
    std::size_t i = 0;
    while (i + 4 <= s.size()) {
        Record r;
        r.format = s[i];
        r.attr = s[i + 1];
        const std::uint16_t v = u16(&s[i + 2]);
        i += 4;
        switch (r.format) {
            case kFmtNval: break;
            case kFmtBval: r.value = v & 0xff; break;
            case kFmtHval: r.value = v; break;
            case kFmtSval:
                if (v > s.size() - i) {
                    add_diagnostic(out, std::string(where) + ": attribute " + hex(r.attr) + " of " + std::to_string(v) +
                                            " bytes runs past the section; the rest of it was not read");
                    return;
                }
                r.blob = s.subspan(i, v);
                i += v;
                break;
            default:
                add_diagnostic(out, std::string(where) + ": unknown attribute format " + hex(r.format) + " at byte " +
                                        std::to_string(i - 4) + "; the rest of it was not read");
                return;
        }
        f(r);
    }
}

struct Kernel {
    std::uint32_t symbol = 0;
    std::uint32_t text = 0;  // section index of .text.<name>
    std::string_view name;
    PtxasKernel k;
};

// A kernel's notes, capped as a log's are (a hostile .nv.info may repeat a record without end).
void note(PtxasKernel& k, std::string text) {
    if (k.diagnostics.size() < 20) k.diagnostics.push_back(std::move(text));
}

std::string_view after(std::string_view s, std::string_view prefix) { return s.substr(prefix.size()); }
bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

}  // namespace

// [SECTION] read_cubin
void read_cubin(std::span<const unsigned char> bytes, const CubinOrigin& origin, BinaryRead& out) {
    const MemorySource src(bytes);
    const ElfFile elf = read_elf(src, 0, bytes.size());
    if (elf.header.machine != kEmCuda) fail("ELF machine " + std::to_string(elf.header.machine) + " is not EM_CUDA (190): not a cubin");
    ++out.cubins;
    const auto section = [&](const ElfSection& s) -> std::span<const unsigned char> {
        if (s.type == kShtNobits) return {};
        if (!s.in_file)
            fail("section " + std::string(s.name) + " (" + std::to_string(s.size) + " bytes at " + hex(s.offset) +
                 ") lies past the end of the cubin (" + std::to_string(bytes.size()) + " bytes)");
        return bytes.subspan(static_cast<std::size_t>(s.offset), static_cast<std::size_t>(s.size));
    };
    const std::vector<ElfSection>& secs = elf.sections;

    // The architecture: e_flags holds the SM number (bits 8..15 from ELF ABI version 8, the low byte before).
    const std::uint32_t sm = elf.header.abi_version >= 8 ? (elf.header.flags >> 8) & 0xff : elf.header.flags & 0xff;
    std::string suffix = origin.arch_suffix;
    for (const ElfSection& s : secs)
        if (s.name == ".nv.compat" && suffix.empty())
            walk_records(section(s), ".nv.compat", out, [&](const Record& r) {
                if (r.format == kFmtBval && r.attr == kCompatArchSpecific && r.value == 1) suffix = "a";
            });
    const std::string arch = "sm_" + std::to_string(sm) + suffix;

    // Entry symbols: STT_FUNC with STO_ENTRY, defined in their own .text.<name> section.
    std::vector<Kernel> kernels;
    std::vector<std::int32_t> by_symbol;  // symbol index -> kernels index, -1 when not a kernel
    std::uint64_t reserved_cap = 0;       // the .nv.reservedSmem.cap symbol's value (sm_100+), 0 when absent
    for (const ElfSection& st : secs) {
        if (st.type != kShtSymtab) continue;
        if (st.link >= secs.size()) fail(".symtab links to string table " + std::to_string(st.link) + ", which does not exist");
        const auto syms = section(st);
        const auto strs = section(secs[st.link]);
        const std::size_t n = syms.size() / 24;
        by_symbol.assign(n, -1);
        for (std::size_t i = 0; i < n; ++i) {
            const unsigned char* p = syms.data() + i * 24;
            const std::uint32_t name = u32(p);
            const std::uint8_t info = p[4], other = p[5];
            const std::uint16_t shndx = u16(p + 6);
            if (name >= strs.size()) continue;
            const auto tail = strs.subspan(name);
            const auto end = std::find(tail.begin(), tail.end(), 0);
            const std::string_view nm(reinterpret_cast<const char*>(tail.data()), static_cast<std::size_t>(end - tail.begin()));
            if (nm == ".nv.reservedSmem.cap") reserved_cap = u64(p + 8);
            if ((info & 0xf) != 2 || !(other & kStoEntry)) continue;  // STT_FUNC, entry
            if (shndx == 0 || shndx >= secs.size()) continue;
            if (nm.empty() || !starts(secs[shndx].name, ".text.") || after(secs[shndx].name, ".text.") != nm) continue;
            by_symbol[i] = static_cast<std::int32_t>(kernels.size());
            Kernel kn;
            kn.symbol = static_cast<std::uint32_t>(i);
            kn.text = shndx;
            kn.name = nm;
            kernels.push_back(std::move(kn));
        }
        break;
    }
    if (kernels.empty()) return;
    for (Kernel& kn : kernels) {
        PtxasKernel& k = kn.k;
        k.mangled = make_valid_utf8(kn.name);
        k.name = make_valid_utf8(demangle(kn.name));
        if (k.name.empty()) k.name = k.mangled;
        k.arch = arch;
        k.cc_major = static_cast<int>(sm / 10);
        k.cc_minor = static_cast<int>(sm % 10);
        k.format = origin.format;
        k.source_file = make_valid_utf8(out.file);
        k.source_entry = origin.entry;
        k.smem_static = 0;  // no .nv.shared.<name> section: no static shared memory
        k.barriers = 0;     // no barrier attribute: none used
    }
    std::unordered_map<std::uint32_t, std::size_t> text_index;
    std::unordered_map<std::string_view, std::size_t> name_index;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        text_index.emplace(kernels[i].text, i);
        name_index.emplace(kernels[i].name, i);
    }
    const auto kernel_of_text = [&](std::uint32_t text) -> Kernel* {
        const auto it = text_index.find(text);
        return it == text_index.end() ? nullptr : &kernels[it->second];
    };
    const auto kernel_named = [&](std::string_view name) -> Kernel* {
        const auto it = name_index.find(name);
        return it == name_index.end() ? nullptr : &kernels[it->second];
    };

    bool has_reserved = false;
    for (std::size_t si = 0; si < secs.size(); ++si) {
        const ElfSection& s = secs[si];
        if (s.name == ".nv.info" && s.type == kShtCudaInfo) {
            walk_records(section(s), ".nv.info", out, [&](const Record& r) {
                if (r.format != kFmtSval || r.blob.size() < 8) return;
                const std::uint32_t sym = u32(r.blob.data()), v = u32(r.blob.data() + 4);
                if (sym >= by_symbol.size() || by_symbol[sym] < 0) return;
                PtxasKernel& k = kernels[static_cast<std::size_t>(by_symbol[sym])].k;
                if (r.attr == kAttrRegcount) {
                    if (v <= kMaxRegisters) k.registers = static_cast<int>(v);
                    else note(k, "register count " + std::to_string(v) + " is impossible: not read");
                } else if (r.attr == kAttrFrameSize) k.stack_frame = v;
                else if (r.attr == kAttrMinStackSize) k.cumulative_stack = v;
            });
        } else if (starts(s.name, ".nv.info.") && s.type == kShtCudaInfo) {
            Kernel* kn = kernel_of_text(s.info);
            if (!kn) continue;
            PtxasKernel& k = kn->k;
            walk_records(section(s), s.name, out, [&](const Record& r) {
                const auto dims = [&](std::string_view what) {
                    if (r.blob.size() < 12) return;
                    note(k, std::string(what) + " " + std::to_string(u32(r.blob.data())) + "x" + std::to_string(u32(r.blob.data() + 4)) +
                                "x" + std::to_string(u32(r.blob.data() + 8)));
                };
                if (r.attr == kAttrNumBarriers && (r.format == kFmtBval || r.format == kFmtHval)) k.barriers = static_cast<int>(r.value);
                else if (r.attr == kAttrMaxThreads && r.format == kFmtSval) dims("__launch_bounds__: at most");
                else if (r.attr == kAttrCtaPerCluster && r.format == kFmtSval) dims("__cluster_dims__:");
                else if (r.attr == kAttrMaxregCount && r.format == kFmtHval && r.value != 255)
                    note(k, "compiled under a cap of " + std::to_string(r.value) +
                                " registers (__launch_bounds__ min blocks, __maxnreg__ or -maxrregcount)");
                else if (r.attr == kAttrMaxClusterRank && r.format == kFmtSval && r.blob.size() >= 4)
                    note(k, "__launch_bounds__: at most " + std::to_string(u32(r.blob.data())) + " blocks per cluster");
            });
        } else if (starts(s.name, ".nv.shared.reserved.")) {
            has_reserved = true;
        } else if (starts(s.name, ".nv.shared.")) {
            if (Kernel* kn = kernel_named(after(s.name, ".nv.shared."))) {
                if (s.size <= kMaxSectionFigure) kn->k.smem_static = static_cast<std::int64_t>(s.size);
                else {
                    kn->k.smem_static.reset();
                    note(kn->k, "shared memory section of " + std::to_string(s.size) + " bytes is impossible: not read");
                }
            }
        } else if (starts(s.name, ".nv.constant")) {
            // .nv.constant<bank>.<kernel>
            const std::string_view rest = after(s.name, ".nv.constant");
            const std::size_t dot = rest.find('.');
            if (dot == std::string_view::npos || dot == 0 || dot > 2) continue;
            int bank = 0;
            for (char c : rest.substr(0, dot)) bank = c >= '0' && c <= '9' ? bank * 10 + (c - '0') : -1000;
            if (bank < 0) continue;
            if (Kernel* kn = kernel_named(rest.substr(dot + 1)); kn && s.size <= kMaxSectionFigure)
                kn->k.cmem.emplace_back(bank, static_cast<std::int64_t>(s.size));
        }
    }
    // sm_90 and later: a cubin with a reserved shared-memory window (.nv.shared.reserved.N) lays each
    // kernel's shared memory out after it, and .nv.shared.<name> counts the window too: 1 KiB, the
    // per-block reserve (cudaDevAttrReservedSharedMemoryPerBlock; .nv.reservedSmem.cap when given).
    // ptxas -v's "bytes smem" and the occupancy model (which adds the reserve itself) exclude it.
    const std::int64_t reserve = static_cast<std::int64_t>(reserved_cap && reserved_cap <= kMaxSectionFigure ? reserved_cap : 1024);
    for (Kernel& kn : kernels) {
        PtxasKernel& k = kn.k;
        if (has_reserved && k.smem_static.value_or(0) > 0) {
            if (*k.smem_static >= reserve) k.smem_static = *k.smem_static - reserve;
            else note(k, "shared memory section smaller than the " + std::to_string(reserve) + "-byte reserved window: taken as is");
        }
        // Older cubins also keep the register count in the top byte of the .text section's sh_info.
        if (!k.registers) {
            if (const std::uint32_t r = secs[kn.text].info >> 24; r) k.registers = static_cast<int>(r);
            else note(k, "the cubin has no register count for this kernel (no EIATTR_REGCOUNT record)");
        }
        if (!k.stack_frame) note(k, "the cubin has no stack frame size for this kernel (no EIATTR_FRAME_SIZE record)");
        std::sort(k.cmem.begin(), k.cmem.end());
        out.kernels.push_back(std::move(k));
    }
}

std::vector<std::string> ptx_entries(std::string_view ptx) {
    std::vector<std::string> names;
    std::size_t pos = 0;
    while ((pos = ptx.find(".entry", pos)) != std::string_view::npos) {
        const bool word_start = pos == 0 || ptx[pos - 1] == ' ' || ptx[pos - 1] == '\t' || ptx[pos - 1] == '\n';
        pos += 6;
        if (!word_start || pos >= ptx.size() || (ptx[pos] != ' ' && ptx[pos] != '\t')) continue;
        while (pos < ptx.size() && (ptx[pos] == ' ' || ptx[pos] == '\t')) ++pos;
        const std::size_t b = pos;
        while (pos < ptx.size() && pos - b < 4096 &&
               (std::isalnum(static_cast<unsigned char>(ptx[pos])) || ptx[pos] == '_' || ptx[pos] == '$' || ptx[pos] == '.'))
            ++pos;
        if (pos > b) names.emplace_back(ptx.substr(b, pos - b));
    }
    return names;
}

}  // namespace occ::io::bin
