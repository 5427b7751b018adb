// binary_source.cpp — byte sources (memory, or a file read with pread), the ELF64 header and section
// table, and the entry points read_binary / read_binary_file that tell a cubin, a fatbin and a host
// ELF file apart.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binary_read.hpp"
#include "occ/io/amd_artefacts.hpp"
#include "occ/io/rocprof.hpp"

namespace occ::io::bin {

void fail(std::string what) { throw BinaryError{std::move(what)}; }

std::string hex(std::uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
}

void add_diagnostic(BinaryRead& out, std::string d) {
    if (out.diagnostics.size() < 50) out.diagnostics.push_back(std::move(d));
}

void ByteSource::check_range(std::uint64_t off, std::uint64_t n, std::string_view what) const {
    const std::uint64_t total = size();
    if (off > total || n > total - off)
        fail(std::string(what) + " (" + std::to_string(n) + " bytes at offset " + std::to_string(off) +
             ") lies past the end of the file (" + std::to_string(total) + " bytes)");
}

std::span<const unsigned char> ByteSource::load(std::uint64_t off, std::uint64_t n, std::vector<unsigned char>& buf,
                                                std::string_view what) const {
    check_range(off, n, what);
    if (auto v = view(off, n); v.size() == n) return v;
    buf.resize(static_cast<std::size_t>(n));
    read(off, buf.data(), static_cast<std::size_t>(n), what);
    return {buf.data(), buf.size()};
}

void MemorySource::read(std::uint64_t off, void* dst, std::size_t n, std::string_view what) const {
    check_range(off, n, what);
    if (n) std::memcpy(dst, bytes_.data() + off, n);
}

std::span<const unsigned char> MemorySource::view(std::uint64_t off, std::uint64_t n) const {
    if (off > bytes_.size() || n > bytes_.size() - off) return {};
    return bytes_.subspan(static_cast<std::size_t>(off), static_cast<std::size_t>(n));
}

namespace {

class FileSource final : public ByteSource {
public:
    FileSource(int fd, std::uint64_t size) : fd_(fd), size_(size) {}
    ~FileSource() override { ::close(fd_); }
    FileSource(const FileSource&) = delete;
    FileSource& operator=(const FileSource&) = delete;
    std::uint64_t size() const override { return size_; }
    void read(std::uint64_t off, void* dst, std::size_t n, std::string_view what) const override {
        check_range(off, n, what);
        auto* p = static_cast<unsigned char*>(dst);
        while (n > 0) {
            const ssize_t got = ::pread(fd_, p, n, static_cast<off_t>(off));
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) fail("cannot read " + std::string(what) + ": " + (got < 0 ? std::strerror(errno) : "unexpected end of file"));
            p += got;
            off += static_cast<std::uint64_t>(got);
            n -= static_cast<std::size_t>(got);
        }
    }
    std::span<const unsigned char> view(std::uint64_t, std::uint64_t) const override { return {}; }

private:
    int fd_;
    std::uint64_t size_;
};

void read_host_elf(const ByteSource& src, const ElfFile& elf, BinaryRead& out) {
    int found = 0;
    for (std::size_t i = 0; i < elf.sections.size(); ++i) {
        const ElfSection& s = elf.sections[i];
        // HIP: clang offload bundles of AMDGPU code objects.
        if (s.name == ".hip_fatbin" && s.type != kShtNobits && s.size > 0) {
            ++found;
            if (s.size > kMaxEntryBytes)
                fail(".hip_fatbin of " + std::to_string(s.size) + " bytes is larger than the 256 MiB this reader takes");
            std::vector<unsigned char> buf;
            const auto bytes = src.load(s.offset, s.size, buf, ".hip_fatbin");
            read_offload_bundles(bytes, ".hip_fatbin (section " + std::to_string(i) + ")", out);
            continue;
        }
        // .nv_fatbin: whole-program device code; __nv_relfatbin: -rdc objects before device linking.
        if (s.name != ".nv_fatbin" && s.name != "__nv_relfatbin") continue;
        if (s.type == kShtNobits || s.size == 0) continue;
        ++found;
        read_fatbins(src, s.offset, s.size, std::string(s.name) + " (section " + std::to_string(i) + ")", out);
    }
    // clang's new offload driver (--offload-new-driver) embeds images in .llvm.offloading instead.
    for (const ElfSection& s : elf.sections)
        if (s.name == ".llvm.offloading")
            add_diagnostic(out,
                           ".llvm.offloading (clang --offload-new-driver) is not read: build with the default driver, or give the .hsaco");
    if (!found) add_diagnostic(out, "no device code: the file has no .nv_fatbin, __nv_relfatbin or .hip_fatbin section");
}

}  // namespace

bool is_elf(const unsigned char* p, std::size_t n) { return n >= 4 && p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F'; }

ElfFile read_elf(const ByteSource& src, std::uint64_t base, std::uint64_t limit) {
    unsigned char h[64];
    if (limit < sizeof h) fail("ELF header truncated (" + std::to_string(limit) + " bytes)");
    src.read(base, h, sizeof h, "ELF header");
    if (!is_elf(h, sizeof h)) fail("not an ELF file");
    if (h[4] != 2) fail(std::string("32-bit ELF (class ") + std::to_string(h[4]) + "): only ELF64 is read");
    if (h[5] != 1) fail("big-endian ELF: only little-endian is read");
    ElfFile f;
    ElfHeader& e = f.header;
    e.type = u16(h + 16);
    e.machine = u16(h + 18);
    e.flags = u32(h + 48);
    e.abi_version = h[8];
    e.shoff = u64(h + 40);
    const std::uint16_t shentsize = u16(h + 58);
    e.shnum = u16(h + 60);
    e.shstrndx = u16(h + 62);
    if (e.shoff == 0) return f;  // no section table (a stripped image): nothing to read
    if (shentsize != 64) fail("ELF section header size " + std::to_string(shentsize) + " (expected 64)");
    if (e.shoff > limit) fail("section table offset " + hex(e.shoff) + " lies past the end (" + std::to_string(limit) + " bytes)");
    unsigned char s0[64];
    if (limit - e.shoff < 64) fail("section table truncated");
    src.read(base + e.shoff, s0, 64, "section table");
    // Extended numbering (gABI): 0 sections and SHN_XINDEX mean "see section 0".
    if (e.shnum == 0) e.shnum = static_cast<std::uint32_t>(std::min<std::uint64_t>(u64(s0 + 32), 0xffffffffu));
    if (e.shstrndx == 0xffff) e.shstrndx = u32(s0 + 40);
    if (e.shnum > (limit - e.shoff) / 64)
        fail(std::to_string(e.shnum) + " sections at " + hex(e.shoff) + " do not fit in " + std::to_string(limit) + " bytes");
    std::vector<unsigned char> table(static_cast<std::size_t>(e.shnum) * 64);
    src.read(base + e.shoff, table.data(), table.size(), "section table");
    f.sections.resize(e.shnum);
    std::vector<std::uint32_t> name_offsets(e.shnum);
    for (std::uint32_t i = 0; i < e.shnum; ++i) {
        const unsigned char* p = table.data() + static_cast<std::size_t>(i) * 64;
        ElfSection& s = f.sections[i];
        name_offsets[i] = u32(p);
        s.type = u32(p + 4);
        s.flags = u64(p + 8);
        s.offset = u64(p + 24);
        s.size = u64(p + 32);
        s.link = u32(p + 40);
        s.info = u32(p + 44);
        s.entsize = u64(p + 56);
        // Checked when read: sections without file contents (NOBITS, a relocatable cubin's shared memory) may say anything.
        s.in_file = s.offset <= limit && s.size <= limit - s.offset;
    }
    if (e.shstrndx >= e.shnum) fail("section-name table index " + std::to_string(e.shstrndx) + " out of range");
    const ElfSection& names = f.sections[e.shstrndx];
    if (names.type == kShtNobits || !names.in_file)
        fail("section-name table (" + std::to_string(names.size) + " bytes at " + hex(names.offset) + ") lies outside the file");
    f.names.resize(static_cast<std::size_t>(names.size) + 1, 0);  // a terminating 0 even when the table lacks one
    src.read(base + names.offset, f.names.data(), static_cast<std::size_t>(names.size), "section-name table");
    for (std::uint32_t i = 0; i < e.shnum; ++i) {
        if (name_offsets[i] >= names.size) continue;  // an unnamed section
        const char* n = reinterpret_cast<const char*>(f.names.data()) + name_offsets[i];
        f.sections[i].name = std::string_view(n, std::strlen(n));
    }
    return f;
}

// A text file: a compiler log or a profiler's output, as text_log_format tells them apart
// (occ/io/ptxas.hpp). False when it holds no kernel and no format's test matched it (not a log).
bool read_text_log(const ByteSource& src, BinaryRead& out) {
    constexpr std::uint64_t kMaxText = 256u << 20;  // pmc_perf.csv: ~30 KiB per dispatch
    if (src.size() > kMaxText) return false;
    std::vector<unsigned char> buf;
    const auto bytes = src.load(0, src.size(), buf, "text");
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    const TextLogFormat& format = text_log_format(text);
    PtxasLog log = format.parse(text);
    if (log.kernels.empty()) {
        if (!format.matches) return false;
        fail(std::string(format.empty));
    }
    out.format = std::string(format.name);
    out.text_log = &format;
    for (PtxasKernel& k : log.kernels) {
        k.source_file = out.file;
        out.kernels.push_back(std::move(k));
    }
    return true;
}

// pmc_perf.csv's GPU: the gpu_arch of sysinfo.csv beside it (rocprof-compute writes both into
// workloads/<name>/<GPU>/).
void attach_sysinfo(const std::string& csv_path, BinaryRead& out) {
    const std::size_t slash = csv_path.find_last_of('/');
    const std::string sysinfo = (slash == std::string::npos ? std::string() : csv_path.substr(0, slash + 1)) + "sysinfo.csv";
    std::FILE* f = std::fopen(sysinfo.c_str(), "rb");
    if (!f) return;
    std::string text(1 << 16, '\0');
    text.resize(std::fread(text.data(), 1, text.size(), f));
    std::fclose(f);
    const std::string arch = rocprof_sysinfo_arch(text);
    if (arch.empty()) return;
    for (PtxasKernel& k : out.kernels) {
        if (!k.amd || !k.arch.empty()) continue;
        k.arch = arch;
        k.amd->target = arch;
        auto& u = k.amd->unread;
        u.erase(std::remove_if(u.begin(), u.end(), [](const auto& e) { return e.first == "arch"; }), u.end());
        k.diagnostics.push_back("the GPU from " + sysinfo + ": " + arch);
    }
}

void read_any(const ByteSource& src, BinaryRead& out) {
    unsigned char head[64] = {};
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(src.size(), sizeof head));
    src.read(0, head, n, "file header");
    if (n >= 4 && u32(head) == kFatbinMagic) {
        out.format = "fatbin";
        read_fatbins(src, 0, src.size(), "file", out);
        return;
    }
    const auto starts = [&](std::string_view m) { return n >= m.size() && std::memcmp(head, m.data(), m.size()) == 0; };
    if (starts(kOffloadBundleMagic) || starts(kCompressedBundleMagic)) {
        out.format = "offload bundle";
        if (src.size() > kMaxEntryBytes)
            fail("offload bundle of " + std::to_string(src.size()) + " bytes is larger than the 256 MiB this reader takes");
        std::vector<unsigned char> buf;
        read_offload_bundles(src.load(0, src.size(), buf, "offload bundle"), "file", out);
        return;
    }
    if (!is_elf(head, n)) {
        if (n == 0) fail("empty file");
        if (read_text_log(src, out)) return;
        out.not_binary = true;
        fail("not a cubin, fatbin or ELF file (it starts with " +
             [&] {
                 std::string s;
                 for (std::size_t i = 0; i < std::min<std::size_t>(n, 4); ++i) s += (i ? " " : "") + hex(head[i]).substr(2);
                 return s;
             }() +
             "); give a .cubin, .fatbin, .hsaco, .o, .so or executable, a compiler log (nvcc -Xptxas -v, LLVM AMDGPU remarks) or "
             "rocprof-compute output (analyze text, pmc_perf.csv)");
    }
    if (n >= 20 && u16(head + 18) == kEmCuda) {
        out.format = "cubin";
        std::vector<unsigned char> buf;
        if (src.size() > kMaxEntryBytes)
            fail("cubin of " + std::to_string(src.size()) + " bytes is larger than the 256 MiB this reader takes");
        const auto bytes = src.load(0, src.size(), buf, "cubin");
        read_cubin(bytes, CubinOrigin{}, out);
        return;
    }
    if (n >= 20 && u16(head + 18) == kEmAmdgpu) {
        out.format = "code object";
        std::vector<unsigned char> buf;
        if (src.size() > kMaxEntryBytes)
            fail("code object of " + std::to_string(src.size()) + " bytes is larger than the 256 MiB this reader takes");
        read_amd_code_object(src.load(0, src.size(), buf, "code object"), CubinOrigin{"code object", "", ""}, out);
        return;
    }
    const ElfFile elf = read_elf(src, 0, src.size());
    // ET_REL, ET_EXEC, or ET_DYN: a shared library, or a position-independent executable (with .interp).
    const bool interp = std::any_of(elf.sections.begin(), elf.sections.end(), [](const ElfSection& s) { return s.name == ".interp"; });
    out.format = elf.header.type == 1 ? "object file" : elf.header.type == 3 && !interp ? "shared library" : "executable";
    read_host_elf(src, elf, out);
}

}  // namespace occ::io::bin

namespace occ::io {
namespace {

// Runs `read` and turns a BinaryError into the file's error, naming the file. Through
// occ::io::catching: the web build catches exceptions there only.
template <typename Read>
BinaryRead guarded(std::string_view file, Read read, bool keep_ptx = false) {
    BinaryRead out;
    out.file = std::string(file);
    out.keep_ptx = keep_ptx;
    std::string what;
    if (catching(&what, /*all=*/true, [&] { read(out); }) != Caught::nothing)
        out.error = out.file + ": " + (what == std::bad_alloc().what() ? std::string("out of memory while reading it") : what);
    if (out.error.empty() && out.kernels.empty() && out.ptx == 0 && out.cubins + out.code_objects > 0)
        bin::add_diagnostic(out,
                            out.cubins ? "no kernels: its cubins hold device functions only" : "no kernels: its code objects list none");
    return out;
}

}  // namespace

bool looks_binary(std::span<const unsigned char> head) {
    const auto starts = [&](std::string_view m) { return head.size() >= m.size() && std::memcmp(head.data(), m.data(), m.size()) == 0; };
    return bin::is_elf(head.data(), head.size()) || (head.size() >= 4 && bin::u32(head.data()) == bin::kFatbinMagic) ||
           starts(kOffloadBundleMagic) || starts(kCompressedBundleMagic);
}

BinaryRead read_binary(std::string_view file, std::span<const unsigned char> bytes) {
    return guarded(file, [&](BinaryRead& out) { bin::read_any(bin::MemorySource(bytes), out); });
}

BinaryRead read_binary_file(const std::string& path) { return read_binary_file(path, false); }

BinaryRead read_binary_file(const std::string& path, bool keep_ptx) {
    return guarded(
        path,
        [&](BinaryRead& out) {
            const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
            if (fd < 0) bin::fail(std::string("cannot open: ") + std::strerror(errno));
            struct stat st {};
            if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
                ::close(fd);
                // A rocprof-compute workload folder (workloads/<name>/<GPU>/): its pmc_perf.csv.
                const std::string pmc = path + (path.empty() || path.back() == '/' ? "" : "/") + "pmc_perf.csv";
                struct stat ps {};
                if (::stat(pmc.c_str(), &ps) == 0 && S_ISREG(ps.st_mode)) {
                    out = read_binary_file(pmc);
                    if (!out.error.empty()) bin::fail(out.error);
                    return;
                }
                bin::read_triton_dir(path, out);
                return;
            }
            if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
                ::close(fd);
                bin::fail("not a regular file");
            }
            if (bin::looks_like_triton_json(path)) {
                ::close(fd);
                bin::read_triton_json(path, out);
                return;
            }
            const bin::FileSource src(fd, static_cast<std::uint64_t>(st.st_size));
            bin::read_any(src, out);
            if (out.format == "cubin" || out.format == "code object") bin::attach_sibling_triton(path, out);
            if (out.text_log && out.text_log->kind == TextLog::rocprof_csv) bin::attach_sysinfo(path, out);
        },
        keep_ptx);
}

}  // namespace occ::io
