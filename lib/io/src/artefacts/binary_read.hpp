// binary_read.hpp — what the cubin, fatbin and host-ELF readers share (binary_source.cpp,
// cubin_read.cpp, fatbin_read.cpp): a byte source that is either memory or a file read with pread,
// the ELF structures they check, and the error they throw (caught in read_binary* through
// occ::io::catching; never leaves lib/io).
#pragma once
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "occ/io/binary.hpp"
#include "occ/io/fields.hpp"

namespace occ::io::bin {

// A malformed binary: the message says what and where (the file name is added by the caller). A
// RequestError, so occ::io::catching (the one catch site the web build keeps) catches it.
struct BinaryError : RequestError {
    using RequestError::RequestError;
};
[[noreturn]] void fail(std::string what);

// Bytes by offset: a span held in memory, or a file read piece by piece.
class ByteSource {
public:
    virtual ~ByteSource() = default;
    virtual std::uint64_t size() const = 0;
    // Copies n bytes at off into dst; throws BinaryError (naming `what`) when out of range or unreadable.
    virtual void read(std::uint64_t off, void* dst, std::size_t n, std::string_view what) const = 0;
    // The bytes [off, off + n) without a copy when the source is memory, else an empty span.
    virtual std::span<const unsigned char> view(std::uint64_t off, std::uint64_t n) const = 0;
    // [off, off + n) as a span: a view, or a copy into `buf`. Checks the range first.
    std::span<const unsigned char> load(std::uint64_t off, std::uint64_t n, std::vector<unsigned char>& buf, std::string_view what) const;
    void check_range(std::uint64_t off, std::uint64_t n, std::string_view what) const;
};

class MemorySource final : public ByteSource {
public:
    explicit MemorySource(std::span<const unsigned char> b) : bytes_(b) {}
    std::uint64_t size() const override { return bytes_.size(); }
    void read(std::uint64_t off, void* dst, std::size_t n, std::string_view what) const override;
    std::span<const unsigned char> view(std::uint64_t off, std::uint64_t n) const override;

private:
    std::span<const unsigned char> bytes_;
};

// Little-endian loads from a span the caller has bounds-checked.
inline std::uint16_t u16(const unsigned char* p) { return static_cast<std::uint16_t>(p[0] | p[1] << 8); }
inline std::uint32_t u32(const unsigned char* p) {
    return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 | static_cast<std::uint32_t>(p[2]) << 16 |
           static_cast<std::uint32_t>(p[3]) << 24;
}
inline std::uint64_t u64(const unsigned char* p) {
    return static_cast<std::uint64_t>(u32(p)) | static_cast<std::uint64_t>(u32(p + 4)) << 32;
}

std::string hex(std::uint64_t v);

// [SECTION] ELF64 (System V gABI, "ELF Header" and "Sections")
inline constexpr std::uint16_t kEmCuda = 190;  // EM_CUDA (the gABI's machine list)
inline constexpr std::uint32_t kShtSymtab = 2, kShtNobits = 8;
// The fatbin container's magic (fatbinary's header; its first four bytes on disk are 50 ED 55 BA).
inline constexpr std::uint32_t kFatbinMagic = 0xBA55ED50;

struct ElfHeader {
    std::uint16_t type = 0, machine = 0;
    std::uint32_t flags = 0;
    std::uint8_t abi_version = 0;
    std::uint64_t shoff = 0;
    std::uint32_t shnum = 0, shstrndx = 0;
};
struct ElfSection {
    std::string_view name;  // into the ElfFile's name table
    std::uint32_t type = 0;
    std::uint64_t flags = 0, offset = 0, size = 0;
    std::uint32_t link = 0, info = 0;
    std::uint64_t entsize = 0;
    bool in_file = false;  // offset and size lie inside the file (NOBITS-like sections have no bytes there)
};
// The header and section table of an ELF64 little-endian file, read from `src` at `base`.
struct ElfFile {
    ElfHeader header;
    std::vector<ElfSection> sections;
    std::vector<unsigned char> names;  // the section-name table (a copy: the sections' names point into it)
};
bool is_elf(const unsigned char* p, std::size_t n);
// Throws BinaryError for a truncated or inconsistent header or section table; `limit` bounds the file.
ElfFile read_elf(const ByteSource& src, std::uint64_t base, std::uint64_t limit);

// [SECTION] Readers
// Where a cubin came from, for its kernels' source and arch.
struct CubinOrigin {
    std::string format = "cubin";  // "cubin" (a file) or "fatbin" (an entry)
    std::string entry;             // "" for a cubin file
    std::string arch_suffix;       // "a" / "f" from the fatbin entry's flags, "" when none
};
// Appends the entry kernels of the cubin `elf` to out.kernels. Throws BinaryError when malformed.
void read_cubin(std::span<const unsigned char> elf, const CubinOrigin& origin, BinaryRead& out);
// The names of the .entry functions of a PTX text, in order.
std::vector<std::string> ptx_entries(std::string_view ptx);
// Reads the fatbins in [off, off + n) of `src` (one or several, concatenated). Throws BinaryError.
void read_fatbins(const ByteSource& src, std::uint64_t off, std::uint64_t n, std::string_view where, BinaryRead& out);
// AMD (amd_code_object.cpp): one code object (ELF for EM_AMDGPU) and its metadata note; the clang
// offload bundles (plain or compressed) in b, one after another. Throw BinaryError when malformed.
void read_amd_code_object(std::span<const unsigned char> elf, const CubinOrigin& origin, BinaryRead& out);
void read_offload_bundles(std::span<const unsigned char> b, const std::string& where, BinaryRead& out);
// A cubin, a fatbin, an AMD code object, an offload bundle or a host ELF file, told apart by its first bytes.
void read_any(const ByteSource& src, BinaryRead& out);
void add_diagnostic(BinaryRead& out, std::string d);

// [SECTION] Triton (triton_read.cpp)
bool looks_like_triton_json(const std::string& path);
void read_triton_json(const std::string& path, BinaryRead& out);
void read_triton_dir(const std::string& path, BinaryRead& out);
void attach_sibling_triton(const std::string& cubin_path, BinaryRead& out);

}  // namespace occ::io::bin
