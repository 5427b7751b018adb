// amd_code_object.cpp — AMD kernels from binaries (occ/io/amd_artefacts.hpp):
//   code object: an ELF64 file for EM_AMDGPU (224). Its kernels and their resources are the
//     NT_AMDGPU_METADATA note (type 32, name "AMDGPU"): a MessagePack map whose "amdhsa.kernels" lists
//     each kernel's .name, .sgpr_count, .vgpr_count, .agpr_count, .group_segment_fixed_size,
//     .private_segment_fixed_size, .wavefront_size, .max_flat_workgroup_size, .sgpr_spill_count,
//     .vgpr_spill_count, .kernarg_segment_size, .uses_dynamic_stack, and "amdhsa.target" the target id
//     (LLVM AMDGPUUsage, "Code Object V3 Metadata" .. "V5", and "Note Records"). The processor also
//     sits in e_flags (EF_AMDGPU_MACH, "ELF Header"), read when the metadata has no target (V3).
//   offload bundle: clang-offload-bundler's container (clang docs, "Clang Offload Bundler", "Binary
//     Bundle File Layout"): "__CLANG_OFFLOAD_BUNDLE__", u64 entry count, then per entry u64 offset
//     (from the bundle's start), u64 size, u64 id length and the id ("hipv4-amdgcn-amd-amdhsa--gfx942"
//     or "host-x86_64-unknown-linux-gnu-"), all little-endian.
//   compressed bundle (clang/include/clang/Driver/OffloadBundler.h, CompressedOffloadBundle; LLVM PRs
//     88827 and 130284): "CCOB", u16 version, u16 method (llvm::compression::Format: 0 zlib, 1 zstd),
//     then V1: u32 uncompressed size; V2: u32 total size, u32 uncompressed size; V3: u64 total size,
//     u64 uncompressed size; then an 8-byte hash and the compressed bundle.
//   host files: the bundles sit in the .hip_fatbin section of executables, libraries and objects
//     (binary_source.cpp calls read_offload_bundles for it).
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#if OCC_HAVE_ZSTD
#include <zstd.h>
#endif
#if OCC_HAVE_ZLIB
#include <zlib.h>
#endif

#include "amd_read.hpp"
#include "binary_read.hpp"
#include "occ/amd.hpp"
#include "occ/io/amd_artefacts.hpp"
#include "occ/io/utf8.hpp"

namespace occ::io {

// [SECTION] shared record helpers
namespace amd_detail {

PtxasKernel make_kernel(std::string_view mangled, std::string_view format, std::string_view target) {
    PtxasKernel k;
    // Names and targets reach JSON: valid UTF-8 (a hostile note or log may hold anything).
    k.mangled = make_valid_utf8(mangled.substr(0, 4096));
    const std::string d = demangle(k.mangled);
    k.name = d.empty() ? k.mangled : make_valid_utf8(d);
    k.format = std::string(format);
    k.entry = format != "amdgpu asm";  // assembly: a kernel once its .amdhsa_kernel block is seen
    k.amd.emplace();
    k.amd->target = make_valid_utf8(target.substr(0, 200));
    k.arch = amd_processor(target);
    return k;
}

void note_unread(PtxasKernel& k, std::string_view where) {
    AmdResources& a = *k.amd;
    const std::string not_in = "not in " + std::string(where);
    auto miss = [&](bool absent, const char* field, std::string why) {
        if (absent) a.unread.emplace_back(field, std::move(why));
    };
    miss(!k.registers, "registers",
         a.vgprs_total && a.agprs.value_or(0) > 0
             ? "the code object gives VGPRs and AGPRs together (vgprs_total: arch VGPRs aligned to 4, plus "
               "AGPRs, on gfx90a+; the larger of the two on gfx908), not the arch VGPRs alone"
             : not_in);
    miss(!k.smem_static, "smem_static", not_in);
    miss(!k.stack_frame, "stack_frame", not_in);
    miss(true, "spill_stores", "LLVM reports spilled registers (sgpr_spills, vgpr_spills), not bytes");
    miss(true, "spill_loads", "LLVM reports spilled registers (sgpr_spills, vgpr_spills), not bytes");
    miss(true, "barriers", "AMD artefacts do not count barriers (every workgroup of 2+ waves holds one)");
    const amd::AmdArch* rules = amd::find_amd_arch(k.arch);
    miss(!a.agprs, "agprs", rules && rules->agprs == amd::AgprFile::none ? k.arch + " has no AGPRs" : not_in);
    miss(!a.vgprs_total, "vgprs_total", not_in);
    miss(!a.sgprs, "sgprs", not_in);
    miss(!a.sgpr_spills, "sgpr_spills", not_in);
    miss(!a.vgpr_spills, "vgpr_spills", not_in);
    miss(!a.dynamic_stack, "dynamic_stack", not_in);
    miss(!a.wave_size, "wave_size", not_in + " (the target's default is used)");
    miss(!a.max_workgroup_size, "max_workgroup_size", not_in);
    miss(!a.kernarg_bytes, "kernarg_bytes", not_in);
    miss(!a.llvm_occupancy, "llvm_occupancy", not_in);
    if (k.arch.empty()) a.unread.emplace_back("arch", std::string(where) + " does not name the gfx target; give gpu or arch");
}

}  // namespace amd_detail

// [SECTION] target names
std::string amd_processor(std::string_view id) {
    for (std::size_t p = id.rfind("gfx"); p != std::string_view::npos; p = p == 0 ? std::string_view::npos : id.rfind("gfx", p - 1)) {
        if (p > 0 && id[p - 1] != '-') continue;
        std::size_t e = p + 3;
        while (e < id.size() && std::isalnum(static_cast<unsigned char>(id[e]))) ++e;
        if (e > p + 3) return std::string(id.substr(p, e - p));
    }
    return {};
}

std::string amd_mach_name(std::uint32_t e_flags) {
    // EF_AMDGPU_MACH (LLVM AMDGPUUsage, "AMDGPU ELF Header"), the targets occ models; each value read
    // back from llc-19 -filetype=obj with llvm-readelf -h (gfx950: LLVM 20's table).
    static constexpr std::pair<std::uint32_t, const char*> kMach[] = {
        {0x030, "gfx908"},  {0x03f, "gfx90a"},  {0x04c, "gfx942"},  {0x04f, "gfx950"},  {0x036, "gfx1030"},
        {0x041, "gfx1100"}, {0x046, "gfx1101"}, {0x047, "gfx1102"}, {0x044, "gfx1103"}, {0x043, "gfx1150"},
        {0x04a, "gfx1151"}, {0x048, "gfx1200"}, {0x04e, "gfx1201"},
    };
    for (const auto& [mach, name] : kMach)
        if ((e_flags & 0xff) == mach) return name;
    return {};
}

namespace bin {
namespace {

constexpr std::uint32_t kShtNote = 7;
constexpr std::uint32_t kNtAmdgpuMetadata = 32;
constexpr std::uint64_t kMaxNoteBytes = 64ull << 20;
constexpr std::uint64_t kMaxBundleEntries = 4096;

template <typename T>
std::optional<T> num(const json& m, const char* key, std::int64_t hi) {
    const auto it = m.find(key);
    if (it == m.end() || !it->is_number_integer()) return std::nullopt;
    const std::int64_t v = it->get<std::int64_t>();
    if (v < 0 || v > hi) return std::nullopt;
    return static_cast<T>(v);
}

void read_metadata(const json& md, const std::string& elf_target, const CubinOrigin& origin, BinaryRead& out) {
    if (!md.is_object()) fail("the AMDGPU metadata note is not a map");
    std::string target = elf_target;
    if (auto t = md.find("amdhsa.target"); t != md.end() && t->is_string()) target = t->get<std::string>();
    const auto ks = md.find("amdhsa.kernels");
    if (ks == md.end() || !ks->is_array()) fail("the AMDGPU metadata has no amdhsa.kernels list");
    for (const json& m : *ks) {
        if (!m.is_object()) continue;
        const auto name = m.find(".name");
        if (name == m.end() || !name->is_string()) {
            add_diagnostic(out, origin.entry + ": a kernel without .name in amdhsa.kernels was skipped");
            continue;
        }
        PtxasKernel k = amd_detail::make_kernel(name->get<std::string>(), "code object", target);
        if (k.arch.empty()) k.arch = amd_processor(elf_target);
        AmdResources& a = *k.amd;
        const std::int64_t kBytes = std::int64_t{1} << 40;
        a.sgprs = num<int>(m, ".sgpr_count", 1 << 20);
        a.vgprs_total = num<int>(m, ".vgpr_count", 1 << 20);
        a.agprs = num<int>(m, ".agpr_count", 1 << 20);
        // .vgpr_count is the file the kernel occupies; with no AGPRs that is the arch VGPRs.
        // Targets without AGPRs (RDNA) write no .agpr_count.
        const amd::AmdArch* rules = amd::find_amd_arch(k.arch);
        if (a.vgprs_total && (a.agprs.value_or(-1) == 0 || (!a.agprs && rules && rules->agprs == amd::AgprFile::none)))
            k.registers = a.vgprs_total;
        k.smem_static = num<std::int64_t>(m, ".group_segment_fixed_size", kBytes);
        k.stack_frame = num<std::int64_t>(m, ".private_segment_fixed_size", kBytes);
        a.wave_size = num<int>(m, ".wavefront_size", 1024);
        a.max_workgroup_size = num<int>(m, ".max_flat_workgroup_size", 1 << 20);
        a.sgpr_spills = num<int>(m, ".sgpr_spill_count", 1 << 30);
        a.vgpr_spills = num<int>(m, ".vgpr_spill_count", 1 << 30);
        a.kernarg_bytes = num<std::int64_t>(m, ".kernarg_segment_size", kBytes);
        if (auto d = m.find(".uses_dynamic_stack"); d != m.end() && d->is_boolean()) a.dynamic_stack = d->get<bool>();
        amd_detail::note_unread(k, "the code object metadata");
        a.unread.erase(std::remove_if(a.unread.begin(), a.unread.end(), [](const auto& u) { return u.first == "llvm_occupancy"; }),
                       a.unread.end());
        a.unread.emplace_back("llvm_occupancy", "code objects do not record LLVM's estimate (llc's ; Occupancy: comment has it)");
        k.source_file = out.file;
        k.source_entry = origin.entry;
        out.kernels.push_back(std::move(k));
    }
}

}  // namespace

void read_amd_code_object(std::span<const unsigned char> bytes, const CubinOrigin& origin, BinaryRead& out) {
    const MemorySource src(bytes);
    const ElfFile elf = read_elf(src, 0, bytes.size());
    if (elf.header.machine != kEmAmdgpu) fail("ELF machine " + std::to_string(elf.header.machine) + " is not EM_AMDGPU (224)");
    ++out.code_objects;
    const std::string mach = amd_mach_name(elf.header.flags);
    bool found = false;
    for (const ElfSection& s : elf.sections) {
        if (s.type != kShtNote) continue;
        if (!s.in_file) fail("note section " + std::string(s.name) + " lies past the end of the code object");
        if (s.size > kMaxNoteBytes) fail("note section " + std::string(s.name) + " of " + std::to_string(s.size) + " bytes is too large");
        const auto n = bytes.subspan(static_cast<std::size_t>(s.offset), static_cast<std::size_t>(s.size));
        // Note records (gABI "Note Section"): u32 namesz, descsz, type; name and desc padded to 4.
        std::size_t i = 0;
        while (i + 12 <= n.size()) {
            const std::uint32_t namesz = u32(&n[i]), descsz = u32(&n[i + 4]), type = u32(&n[i + 8]);
            i += 12;
            const std::uint64_t name_pad = (std::uint64_t{namesz} + 3) & ~std::uint64_t{3};
            const std::uint64_t desc_pad = (std::uint64_t{descsz} + 3) & ~std::uint64_t{3};
            if (name_pad > n.size() - i || descsz > n.size() - i - name_pad) fail("a note record runs past its section");
            const std::string_view name(reinterpret_cast<const char*>(&n[i]), namesz ? namesz - 1 : 0);
            const auto desc = n.subspan(i + static_cast<std::size_t>(name_pad), descsz);
            i += static_cast<std::size_t>(std::min<std::uint64_t>(name_pad + desc_pad, n.size() - i));
            if (name == "AMD" && !found)
                add_diagnostic(out,
                               origin.entry + ": code object v2 metadata (\"AMD\" notes, YAML) is not read; recompile for code object v4+");
            if (name != "AMDGPU" || type != kNtAmdgpuMetadata) continue;
            const Result<json> md = parse_msgpack(desc);
            if (!md) fail("the AMDGPU metadata note: " + md.error);
            found = true;
            read_metadata(*md, mach, origin, out);
        }
    }
    if (!found)
        add_diagnostic(out, (origin.entry.empty() ? std::string("code object") : origin.entry) +
                                ": no NT_AMDGPU_METADATA note; its kernels' resources are not recorded");
}

namespace {

bool at(std::span<const unsigned char> b, std::size_t i, std::string_view magic) {
    return i <= b.size() && magic.size() <= b.size() - i &&
           std::equal(magic.begin(), magic.end(), b.begin() + static_cast<std::ptrdiff_t>(i));
}

std::size_t find_magic(std::span<const unsigned char> b, std::size_t from) {
    for (std::size_t i = from; i + 4 <= b.size(); ++i)
        if ((b[i] == '_' && at(b, i, kOffloadBundleMagic)) || (b[i] == 'C' && at(b, i, kCompressedBundleMagic))) return i;
    return b.size();
}

// One uncompressed bundle at b[0..]; returns its length (the furthest entry end).
std::size_t read_bundle(std::span<const unsigned char> b, const std::string& where, BinaryRead& out) {
    const std::size_t head = kOffloadBundleMagic.size();
    if (b.size() < head + 8) fail(where + ": offload bundle header truncated");
    const std::uint64_t count = u64(&b[head]);
    if (count > kMaxBundleEntries || count > (b.size() - head - 8) / 24)
        fail(where + ": offload bundle claims " + std::to_string(count) + " entries in " + std::to_string(b.size()) + " bytes");
    std::size_t i = head + 8, end = i;
    for (std::uint64_t e = 0; e < count; ++e) {
        if (b.size() - i < 24) fail(where + ": offload bundle entry " + std::to_string(e) + " truncated");
        const std::uint64_t off = u64(&b[i]), size = u64(&b[i + 8]), idlen = u64(&b[i + 16]);
        i += 24;
        if (idlen > 4096 || idlen > b.size() - i) fail(where + ": offload bundle entry " + std::to_string(e) + " has a bad id length");
        const std::string id(reinterpret_cast<const char*>(&b[i]), static_cast<std::size_t>(idlen));
        i += static_cast<std::size_t>(idlen);
        end = std::max(end, i);
        if (off > b.size() || size > b.size() - off)
            fail(where + ": offload bundle entry " + std::to_string(e) + " (" + id.substr(0, 80) + ") lies past the end");
        end = std::max<std::size_t>(end, static_cast<std::size_t>(off + size));
        if (id.rfind("host-", 0) == 0 || size == 0) continue;
        const auto obj = b.subspan(static_cast<std::size_t>(off), static_cast<std::size_t>(size));
        CubinOrigin o;
        o.format = "offload bundle";
        o.entry = make_valid_utf8(where + ", entry " + std::to_string(e) + " (" + id.substr(0, 120) + ")");
        if (!is_elf(obj.data(), obj.size()) || obj.size() < 20 || u16(&obj[18]) != kEmAmdgpu) {
            add_diagnostic(out, o.entry + ": not an AMDGPU code object; skipped");
            continue;
        }
        read_amd_code_object(obj, o, out);
    }
    return end;
}

// A compressed bundle at b[0..]: decompresses it into `buf`; returns its length in b.
std::size_t decompress_bundle(std::span<const unsigned char> b, const std::string& where,
                              [[maybe_unused]] std::vector<unsigned char>& buf) {
    if (b.size() < 8) fail(where + ": compressed bundle header truncated");
    const std::uint16_t version = u16(&b[4]), method = u16(&b[6]);
    std::uint64_t total = 0, full = 0;
    std::size_t hdr = 0;
    if (version == 1 && b.size() >= 20) full = u32(&b[8]), hdr = 20, total = b.size();
    else if (version == 2 && b.size() >= 24) total = u32(&b[8]), full = u32(&b[12]), hdr = 24;
    else if (version == 3 && b.size() >= 32) total = u64(&b[8]), full = u64(&b[16]), hdr = 32;
    else fail(where + ": compressed bundle version " + std::to_string(version) + " (this reader takes 1, 2 and 3) or truncated header");
    if (total < hdr || total > b.size()) fail(where + ": compressed bundle of " + std::to_string(total) + " bytes lies past the end");
    if (full == 0 || full > kMaxEntryBytes)
        fail(where + ": compressed bundle decompresses to " + std::to_string(full) + " bytes (at most 256 MiB read)");
    [[maybe_unused]] const auto data = b.subspan(hdr, static_cast<std::size_t>(total) - hdr);
    if (method == 1) {
#if OCC_HAVE_ZSTD
        buf.resize(static_cast<std::size_t>(full));
        const std::size_t r = ZSTD_decompress(buf.data(), buf.size(), data.data(), data.size());
        if (ZSTD_isError(r) || r != buf.size()) fail(where + ": Zstandard data of the compressed bundle is corrupt");
#else
        fail(where + ": compressed with Zstandard, and this build of occ was made without libzstd (the CLI reads it)");
#endif
    } else if (method == 0) {
#if OCC_HAVE_ZLIB
        buf.resize(static_cast<std::size_t>(full));
        uLongf n = static_cast<uLongf>(buf.size());
        if (uncompress(buf.data(), &n, data.data(), static_cast<uLong>(data.size())) != Z_OK || n != buf.size())
            fail(where + ": zlib data of the compressed bundle is corrupt");
#else
        fail(where + ": compressed with zlib, and this build of occ was made without zlib (the CLI reads it)");
#endif
    } else {
        fail(where + ": compressed bundle method " + std::to_string(method) + " (0 zlib and 1 zstd are known)");
    }
    return static_cast<std::size_t>(total);
}

}  // namespace

void read_offload_bundles(std::span<const unsigned char> b, const std::string& where, BinaryRead& out) {
    int n = 0;
    for (std::size_t pos = find_magic(b, 0); pos < b.size(); pos = find_magic(b, pos), ++n) {
        const std::string here = where + " bundle #" + std::to_string(n);
        const auto rest = b.subspan(pos);
        if (at(rest, 0, kCompressedBundleMagic)) {
            std::vector<unsigned char> buf;
            pos += decompress_bundle(rest, here, buf);
            if (!at(buf, 0, kOffloadBundleMagic)) fail(here + ": the compressed bundle does not hold an offload bundle");
            read_bundle(buf, here + " (compressed)", out);
        } else {
            pos += std::max<std::size_t>(read_bundle(rest, here, out), 1);
        }
        if (n > 100000) break;
    }
    if (n == 0) add_diagnostic(out, where + ": no offload bundle found");
}

}  // namespace bin
}  // namespace occ::io
