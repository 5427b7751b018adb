// occ/io/binary.hpp — kernel resources read from compiled binaries, for `occ kernels`.
//
// Reads what nvcc, ptxas, nvlink and fatbinary write (docs/ADVANCED.md, "occ kernels", lists the
// sections and attributes):
//   - a cubin: an ELF64 file for machine EM_CUDA (190). Each kernel is a `.text.<name>` section with
//     an STT_FUNC symbol marked STO_ENTRY; its registers and stack frame are `.nv.info` attribute
//     records keyed by symbol, its barriers and launch bounds are records of `.nv.info.<name>`, its
//     static shared memory is the size of `.nv.shared.<name>` and its constant banks the sizes of
//     `.nv.constant<N>.<name>`;
//   - a fatbin: the 0xBA55ED50 container of cubins and PTX for several architectures, entries
//     optionally compressed (LZ4 or Zstandard; without libzstd, as in the web page, a Zstandard entry
//     is one row of format kZstdEntryFormat with the reason);
//   - a host ELF file (a relocatable object, an executable or a shared library) that carries fatbins
//     in its `.nv_fatbin` or `__nv_relfatbin` sections.
// AMD (occ/io/amd_artefacts.hpp): an AMDGPU code object (ELF for EM_AMDGPU, 224), a clang offload
// bundle (plain or compressed), or a host file's .hip_fatbin section of them.
// The result is the same PtxasKernel records the compiler-log reader produces, so evaluation and
// output are shared (format "cubin", "fatbin" or "ptx"; `source_file` and `source_entry` say where).
// A figure the binary does not hold (spill stores and loads) is empty, never 0, with a diagnostic.
//
// Hostile input: every offset and size is checked against what holds it, decompressed entries are
// capped (kMaxEntryBytes), fatbins nest in host files at most one level, and every error names the
// file and what was wrong. From a path only the ELF headers, the section table and the sections that
// hold device code are read (pread), so a large library is not read whole.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "occ/io/ptxas.hpp"

namespace occ::io {

inline constexpr std::uint64_t kMaxEntryBytes = 256ull << 20;  // one cubin or PTX, decompressed

// What one file gave.
struct BinaryRead {
    std::string file;                         // as given (a path, or the request's name)
    std::string format;                       // "cubin", "fatbin", "host ELF (.nv_fatbin)", ... ("" when unreadable)
    std::vector<PtxasKernel> kernels;         // entries (format cubin / fatbin: resources; ptx: names only)
    int cubins = 0;                           // cubins read (a fatbin entry or the file itself)
    int ptx = 0;                              // PTX entries seen
    int code_objects = 0;                     // AMD code objects read (the file itself, or bundle entries)
    std::vector<std::string> diagnostics;     // what was skipped and why (first 50)
    std::string error;                        // "" when the file was read; else what was wrong, naming the file
    bool not_binary = false;                  // error: no binary format's magic, and no log or profile text either
    const TextLogFormat* text_log = nullptr;  // read as this compiler or profiler text (else a binary)
    // The PTX entries' text (fatbin entries of kind PTX), kept only when read with keep_ptx (occ memory
    // runs a kernel's PTX): its architecture ("compute_90"), where it was ("entry 2 (compute_90 PTX)").
    struct PtxText {
        std::string arch, entry, text;
    };
    bool keep_ptx = false;
    std::vector<PtxText> ptx_texts;
};

// A binary held in memory (a request's bytes). `file` names it in messages.
BinaryRead read_binary(std::string_view file, std::span<const unsigned char> bytes);
// Several files held in memory, as a page or a window drop gives them: each read with read_binary,
// and a Triton kernel's <stem>.json metadata attached to the <stem>.cubin given with it (a .json
// without its cubin, or one that is not Triton's, is a file with an error). In the order given.
using NamedBytes = std::pair<std::string, std::vector<unsigned char>>;
std::vector<BinaryRead> read_binaries(const std::vector<NamedBytes>& files);
// Whether bytes start like something read_binary reads (an ELF file, a fatbin or a clang offload
// bundle), as opposed to text.
bool looks_binary(std::span<const unsigned char> head);
// Decodes one LZ4 block (lz4_block.cpp) into dst, which must be its decompressed size; the bytes
// written, or -1 when the block is malformed or does not fit. Builds without liblz4 read
// -compress-mode=speed fatbin entries with it.
long long lz4_block_decode(std::span<const unsigned char> src, std::span<unsigned char> dst);
// A binary on disk: reads only the headers and the sections that carry device code. Also a Triton
// cache (a folder: ~/.triton/cache or one of its <hash> folders), or one Triton kernel's metadata
// (<name>.json: its cubin is the <name>.cubin beside it). A cubin with Triton metadata beside it
// takes its launch from it too.
BinaryRead read_binary_file(const std::string& path);
// The same, keeping the text of every PTX entry (BinaryRead::ptx_texts).
BinaryRead read_binary_file(const std::string& path, bool keep_ptx);

// --- Triton -------------------------------------------------------------------------------------
// Triton 3.x's compile() (python/triton/compiler/compiler.py) writes each compiled kernel into a
// cache folder <cache>/<hash>/ as <name>.ttir, .ttgir, .llir, .ptx, .cubin, the metadata <name>.json
// (hash, target {backend, arch, warp_size}, the backend options: num_warps, num_ctas, num_stages,
// maxnreg, cluster_dims, ...; then shared, tmem_size, name) and a group file __grp__<name>.json.
// Triton's HIP backend writes the same metadata (target {"backend": "hip", "arch": "gfx942",
// "warp_size": 64}) beside <name>.hsaco, an AMD code object (amd_code_object.cpp).
struct TritonMetadata {
    std::string name;     // the kernel's symbol in the cubin or code object
    std::string backend;  // target.backend: "cuda" or "hip"
    int arch = 0;         // CUDA target.arch: 80, 90 (Triton builds sm_90a for 90 and up)
    std::string gfx;      // HIP target.arch: "gfx942"
    ArtefactLaunch launch;
};
// The machine-code file beside a Triton kernel's metadata: ".hsaco" for the HIP backend, ".cubin"
// otherwise (triton-lang/triton: the backends' binary_ext).
std::string_view triton_binary_ext(const TritonMetadata& m);
// Parses Triton's metadata JSON; `file` names it in ArtefactLaunch::from and in errors. Fails when
// the text is not JSON or lacks what Triton writes (name, num_warps, shared), naming the key.
Result<TritonMetadata> parse_triton_metadata(std::string_view text, std::string_view file);
// Gives the kernels of `r` named m.name the metadata's launch (a diagnostic when none is).
void attach_triton(BinaryRead& r, const TritonMetadata& m);

// --- The "kernels" request kind -----------------------------------------------------------------
// {"files": [{"name": "app.so", "base64": "..."}], gpu|cc|device (optional), threads, ...}: every
// kernel of every file, evaluated as the "ptxas" kind evaluates a log's kernels (PtxasAnswer).
struct KernelsAnswer {
    PtxasAnswer rows;               // log.kernels holds every file's kernels, in file order
    std::vector<BinaryRead> files;  // what each file gave (its kernels moved into rows.log.kernels)
    int file_errors = 0;            // files that could not be read (each has its error)
    std::optional<nlohmann::ordered_json> id;
};
Result<KernelsAnswer> answer_kernels(const nlohmann::ordered_json& request);
// The same with the files already read (the CLI reads paths natively); the request has no "files".
Result<KernelsAnswer> answer_kernels(const nlohmann::ordered_json& request, std::vector<BinaryRead> files);
nlohmann::ordered_json to_json(const KernelsAnswer& a);
nlohmann::ordered_json api_kernels(const nlohmann::ordered_json& request);

}  // namespace occ::io
