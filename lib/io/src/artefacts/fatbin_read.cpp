// fatbin_read.cpp — the fatbin container: a header, then entries (a cubin or PTX for one
// architecture each), optionally compressed.
//
// The layout, as fatbinary (CUDA 13.0) writes it; found by compiling the same kernels for several
// architectures and with each -compress-mode (tests/fixtures/binaries/make_corpus.sh):
//   header (16 bytes): u32 magic 0xBA55ED50, u16 version (1), u16 header size, u64 size of the entries
//   entry: u16 kind (1 PTX, 2 ELF), u16 version, u32 header size (>= 64), u64 payload size (padded),
//          +0x10 u32 compressed size (0 when stored), +0x1c u32 SM number (80, 90, 100),
//          +0x28 u64 flags, +0x38 u64 size once decompressed; the payload follows the header.
//   flags: 0x2000 LZ4 block (-compress-mode=speed), 0x8000 Zstandard frame (default, size,
//          balance), 0x100000 architecture-specific ("sm_90a"), 0x200000 family ("sm_100f").
// LZ4 goes through liblz4, or lz4_block.cpp where occ is built without it (the web page); without
// libzstd a Zstandard entry becomes one row of format kZstdEntryFormat (occ/io/ptxas.hpp).
#include <algorithm>
#include <string>
#include <vector>

#if OCC_HAVE_LZ4
#include <lz4.h>
#endif
#if OCC_HAVE_ZSTD
#include <zstd.h>
#endif

#include "binary_read.hpp"
#include "occ/io/utf8.hpp"

namespace occ::io::bin {
namespace {

constexpr std::uint16_t kKindPtx = 1, kKindElf = 2;
constexpr std::uint64_t kFlagLz4 = 0x2000, kFlagZstd = 0x8000;
constexpr std::uint64_t kFlagArchSpecific = 0x100000, kFlagFamily = 0x200000;
constexpr std::uint32_t kMinEntryHeader = 64, kMaxEntryHeader = 4096;
constexpr int kMaxEntries = 1 << 20;  // per fatbin: far beyond any real build, bounds a hostile header loop

std::string mib(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// The payload as stored, decompressed into `buf` when the flags say so.
std::span<const unsigned char> payload(std::span<const unsigned char> stored, std::uint64_t flags, std::uint64_t full_size,
                                       std::vector<unsigned char>& buf, const std::string& where) {
    const bool lz4 = flags & kFlagLz4, zstd = flags & kFlagZstd;
    if (!lz4 && !zstd) return stored;
    const char* codec = lz4 ? "LZ4" : "Zstandard";
    if (full_size == 0) fail(where + ": compressed (" + codec + ") but its decompressed size is 0");
    if (full_size > kMaxEntryBytes)
        fail(where + ": decompresses to " + std::to_string(full_size) + " bytes, more than the " + mib(kMaxEntryBytes) +
             " this reader allows for one entry");
    buf.resize(static_cast<std::size_t>(full_size));
    long long got = -1;
    if (lz4) {
#if OCC_HAVE_LZ4
        if (stored.size() > 0x7fffffff) fail(where + ": LZ4 block larger than 2 GiB");
        got = LZ4_decompress_safe(reinterpret_cast<const char*>(stored.data()), reinterpret_cast<char*>(buf.data()),
                                  static_cast<int>(stored.size()), static_cast<int>(buf.size()));
#else
        got = lz4_block_decode(stored, buf);  // this build has no liblz4 (the web page)
#endif
    } else {
#if OCC_HAVE_ZSTD
        const unsigned long long declared = ZSTD_getFrameContentSize(stored.data(), stored.size());
        if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != ZSTD_CONTENTSIZE_ERROR && declared > buf.size())
            fail(where + ": its Zstandard frame declares " + std::to_string(declared) + " bytes, more than the entry header's " +
                 std::to_string(full_size));
        const std::size_t r = ZSTD_decompress(buf.data(), buf.size(), stored.data(), stored.size());
        if (ZSTD_isError(r)) fail(where + ": Zstandard data is corrupt (" + ZSTD_getErrorName(r) + ")");
        got = static_cast<long long>(r);
#else
        fail(where + ": compressed with Zstandard, and this build of occ was made without libzstd");  // read_fatbins lists it instead
#endif
    }
    if (got < 0) fail(where + ": " + codec + " data is corrupt");
    if (static_cast<std::uint64_t>(got) != full_size)
        fail(where + ": decompressed to " + std::to_string(got) + " bytes, but its header says " + std::to_string(full_size));
    return {buf.data(), buf.size()};
}

}  // namespace

void read_fatbins(const ByteSource& src, std::uint64_t off, std::uint64_t n, std::string_view where, BinaryRead& out) {
    src.check_range(off, n, where);
    const std::uint64_t end = off + n;
    int fatbin = 0;
    std::vector<unsigned char> stored_buf, full_buf;
    std::uint64_t pos = off;
    while (pos < end) {
        // Fatbins in one section follow one another, 8-byte aligned: skip zero padding.
        if (end - pos < 16) {
            unsigned char tail[16] = {};
            src.read(pos, tail, static_cast<std::size_t>(end - pos), where);
            if (std::all_of(tail, tail + (end - pos), [](unsigned char c) { return c == 0; })) break;
            fail(std::string(where) + ": " + std::to_string(end - pos) + " stray bytes at offset " + hex(pos));
        }
        unsigned char h[16];
        src.read(pos, h, sizeof h, where);
        if (u32(h) != kFatbinMagic) {
            if (u64(h) == 0) {  // padding: skip its zero words a block at a time
                unsigned char block[4096];
                const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(sizeof block, (end - pos) & ~std::uint64_t{7}));
                src.read(pos, block, n, where);
                std::size_t z = 8;
                while (z + 8 <= n && u64(block + z) == 0) z += 8;
                pos += z;
                continue;
            }
            fail(std::string(where) + ": no fatbin header at offset " + hex(pos) + " (found " + hex(u32(h)) + ", expected 0xba55ed50)");
        }
        const std::uint16_t header_size = u16(h + 6);
        const std::uint64_t size = u64(h + 8);
        const std::string fb = std::string(where) + " fatbin #" + std::to_string(fatbin);
        if (header_size < 16 || header_size > end - pos) fail(fb + ": header size " + std::to_string(header_size) + " is impossible");
        if (size > end - pos - header_size)
            fail(fb + ": says it holds " + std::to_string(size) + " bytes, but only " + std::to_string(end - pos - header_size) +
                 " follow");
        std::uint64_t e = pos + header_size;
        const std::uint64_t fb_end = e + size;
        for (int index = 0; e < fb_end; ++index) {
            if (index >= kMaxEntries) fail(fb + ": more than " + std::to_string(kMaxEntries) + " entries");
            const std::string at = fb + ", entry " + std::to_string(index);
            if (fb_end - e < kMinEntryHeader) fail(at + ": truncated entry header (" + std::to_string(fb_end - e) + " bytes left)");
            unsigned char eh[kMinEntryHeader];
            src.read(e, eh, sizeof eh, at);
            const std::uint16_t kind = u16(eh);
            const std::uint32_t ehs = u32(eh + 4);
            const std::uint64_t psize = u64(eh + 8);
            const std::uint32_t csize = u32(eh + 0x10);
            const std::uint32_t sm = u32(eh + 0x1c);
            const std::uint64_t flags = u64(eh + 0x28);
            const std::uint64_t full = u64(eh + 0x38);
            if (ehs < kMinEntryHeader || ehs > kMaxEntryHeader || ehs > fb_end - e)
                fail(at + ": entry header size " + std::to_string(ehs) + " is impossible");
            if (psize > fb_end - e - ehs)
                fail(at + ": payload of " + std::to_string(psize) + " bytes runs past the fatbin (" + std::to_string(fb_end - e - ehs) +
                     " bytes left)");
            const std::uint64_t body = e + ehs;
            const std::uint64_t stored_size = csize && csize <= psize ? csize : psize;
            const std::string suffix = flags & kFlagArchSpecific ? "a" : flags & kFlagFamily ? "f" : "";
            const std::string arch = (kind == kKindPtx ? "compute_" : "sm_") + std::to_string(sm) + suffix;
            const std::string entry_name = (where == "file" ? "entry " + std::to_string(index) : at) + " (" + arch +
                                           (kind == kKindPtx ? " PTX)" : ")");
            e = body + psize;
            if (kind != kKindElf && kind != kKindPtx) {
                add_diagnostic(out, at + ": unknown entry kind " + std::to_string(kind) + " skipped");
                continue;
            }
            if (stored_size > kMaxEntryBytes)
                fail(at + ": " + std::to_string(stored_size) + " bytes, more than the " + mib(kMaxEntryBytes) +
                     " this reader allows for one entry");
#if !OCC_HAVE_ZSTD
            if ((flags & kFlagZstd) && !(flags & kFlagLz4)) {  // no decoder here: the entry is a row with the reason
                PtxasKernel k;
                k.arch = arch;
                if (kind == kKindElf) {
                    k.cc_major = static_cast<int>(sm / 10);
                    k.cc_minor = static_cast<int>(sm % 10);
                }
                k.format = kZstdEntryFormat;
                k.source_file = make_valid_utf8(out.file);
                k.source_entry = entry_name;
                out.kernels.push_back(std::move(k));
                continue;
            }
#endif
            const auto stored = src.load(body, stored_size, stored_buf, at);
            const auto bytes = payload(stored, flags, full, full_buf, at);
            if (kind == kKindElf) {
                if (!is_elf(bytes.data(), bytes.size())) fail(at + ": an ELF entry that does not start with an ELF header");
                CubinOrigin origin{.format = "fatbin", .entry = entry_name, .arch_suffix = suffix};
                std::string why;  // the entry's place before the cubin's own message
                if (catching(&why, /*all=*/false, [&] { read_cubin(bytes, origin, out); }) != Caught::nothing) fail(at + ": " + why);
                continue;
            }
            ++out.ptx;
            const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
            if (out.keep_ptx) {
                const auto len = text.find_last_not_of('\0');  // the entry is padded with NULs
                out.ptx_texts.push_back({arch, entry_name, std::string(text.substr(0, len == std::string_view::npos ? 0 : len + 1))});
            }
            for (const std::string& name : ptx_entries(text)) {
                PtxasKernel k;
                k.mangled = make_valid_utf8(name);
                k.name = demangle(name);
                if (k.name.empty()) k.name = name;
                k.arch = arch;  // compute_XX: not a cubin, so no compute capability to evaluate on
                k.format = "ptx";
                k.source_file = make_valid_utf8(out.file);
                k.source_entry = entry_name;
                out.kernels.push_back(std::move(k));
            }
        }
        ++fatbin;
        pos = fb_end;
    }
}

}  // namespace occ::io::bin
