// triton_read.cpp — Triton's kernel cache as an input of `occ kernels`: the metadata JSON Triton 3.x
// writes beside each cubin (occ/io/binary.hpp describes the layout), read for the launch the kernel
// was compiled for, and the folders that hold it (a cache root, one <hash> folder, or one kernel's
// <name>.json).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>

#include "binary_read.hpp"
#include "occ/io/binary.hpp"
#include "occ/io/utf8.hpp"

namespace occ::io {
namespace {

namespace fs = std::filesystem;

constexpr std::uintmax_t kMaxMetadataBytes = 16u << 20;  // Triton's metadata is a few KiB
constexpr std::size_t kMaxCacheEntries = 200000;         // files looked at in one cache

// An integer field of the metadata: absent or null -> fallback; present but not an integer -> error.
std::optional<std::int64_t> integer(const json& j, const char* key, std::string& error) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return std::nullopt;
    if (!it->is_number_integer()) {
        error = std::string("\"") + key + "\" is not an integer";
        return std::nullopt;
    }
    return it->get<std::int64_t>();
}

}  // namespace

Result<TritonMetadata> parse_triton_metadata(std::string_view text, std::string_view file) {
    const std::string where(file);
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return Result<TritonMetadata>::fail(where + ": not a JSON object (Triton's metadata is one)");
    TritonMetadata m;
    const auto name = j.find("name");
    if (name == j.end() || !name->is_string() || name->get_ref<const std::string&>().empty())
        return Result<TritonMetadata>::fail(where + ": no \"name\" (the kernel's symbol): not Triton metadata");
    m.name = name->get<std::string>();
    std::string error;
    const auto warps = integer(j, "num_warps", error);
    const auto shared = integer(j, "shared", error);
    const auto ctas = integer(j, "num_ctas", error);
    const auto tmem = integer(j, "tmem_size", error);
    const auto maxnreg = integer(j, "maxnreg", error);
    if (!error.empty()) return Result<TritonMetadata>::fail(where + ": " + error);
    if (!warps) return Result<TritonMetadata>::fail(where + ": no \"num_warps\": not Triton metadata");
    if (!shared) return Result<TritonMetadata>::fail(where + ": no \"shared\" (the launch's dynamic shared memory bytes)");
    ArtefactLaunch& l = m.launch;
    if (const auto t = j.find("target"); t != j.end() && t->is_object()) {
        if (const auto b = t->find("backend"); b != t->end() && b->is_string()) m.backend = b->get<std::string>();
        if (const auto a = t->find("arch"); a != t->end() && a->is_number_integer()) m.arch = a->get<int>();
        else if (a != t->end() && a->is_string()) m.gfx = utf8_prefix(a->get<std::string>(), 40);
        if (const auto w = t->find("warp_size"); w != t->end() && w->is_number_integer()) l.warp_size = w->get<int>();
        else if (m.backend == "hip")  // 64 on CDNA, 32 on RDNA: no default serves both
            return Result<TritonMetadata>::fail(where + ": a hip kernel without \"target.warp_size\" (Triton writes 64 or 32)");
    }
    if (*warps < 1 || *warps > 64)
        return Result<TritonMetadata>::fail(where + ": \"num_warps\" " + std::to_string(*warps) + " is not 1..64");
    if (l.warp_size < 1 || l.warp_size > 64)
        return Result<TritonMetadata>::fail(where + ": \"target.warp_size\" " + std::to_string(l.warp_size) + " is not 1..64");
    if (*shared < 0 || *shared > (1 << 30))
        return Result<TritonMetadata>::fail(where + ": \"shared\" " + std::to_string(*shared) + " is not a byte count");
    l.num_warps = static_cast<int>(*warps);
    l.threads = l.num_warps * l.warp_size;
    l.smem_dynamic = *shared;
    l.num_ctas = ctas && *ctas >= 1 && *ctas <= 64 ? static_cast<int>(*ctas) : 1;
    l.tmem_columns = tmem && *tmem > 0 && *tmem <= 512 ? static_cast<int>(*tmem) : 0;
    if (maxnreg && *maxnreg > 0 && *maxnreg <= 255) l.maxnreg = static_cast<int>(*maxnreg);
    if (const auto v = j.find("triton_version"); v != j.end() && v->is_string()) l.triton_version = v->get<std::string>();
    l.from = "Triton metadata (" + fs::path(where).filename().string() + ")";
    return Result<TritonMetadata>::ok(std::move(m));
}

std::string_view triton_binary_ext(const TritonMetadata& m) { return m.backend == "hip" ? ".hsaco" : ".cubin"; }

void attach_triton(BinaryRead& r, const TritonMetadata& m) {
    int matched = 0;
    const char* binary = m.backend == "hip" ? "code object" : "cubin";
    for (PtxasKernel& k : r.kernels)
        if (k.mangled == m.name) {
            k.launch = m.launch;
            ++matched;
            // Triton compiles target.arch 90 and up as sm_90a (sm_arch_from_capability in its nvidia backend).
            if (m.arch > 0 && k.cc_major * 10 + k.cc_minor != m.arch)
                k.diagnostics.push_back("the metadata's target.arch is " + std::to_string(m.arch) + ", the cubin's " + k.arch);
            if (!m.gfx.empty() && k.amd && k.arch != m.gfx)
                k.diagnostics.push_back("the metadata's target.arch is " + m.gfx + ", the code object's " + k.arch);
        }
    if (!matched)
        bin::add_diagnostic(r,
                            "the Triton metadata names kernel \"" + utf8_prefix(m.name, 80) + "\", which the " + binary + " does not hold");
}

namespace bin {
namespace {

std::optional<std::string> read_small(const fs::path& p, std::string& error) {
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(p, ec);
    if (ec) {
        error = p.string() + ": " + ec.message();
        return std::nullopt;
    }
    if (size > kMaxMetadataBytes) {
        error = p.string() + ": " + std::to_string(size) + " bytes is too large for Triton metadata";
        return std::nullopt;
    }
    std::ifstream f(p, std::ios::binary);
    std::string s(static_cast<std::size_t>(size), '\0');
    if (!f || !f.read(s.data(), static_cast<std::streamsize>(size))) {
        error = p.string() + ": cannot read";
        return std::nullopt;
    }
    return s;
}

// Moves what one kernel's cubin gave into the cache's read.
void merge(BinaryRead& out, BinaryRead&& one) {
    for (PtxasKernel& k : one.kernels) out.kernels.push_back(std::move(k));
    out.cubins += one.cubins;
    out.ptx += one.ptx;
    for (std::string& d : one.diagnostics) add_diagnostic(out, one.file + ": " + d);
    if (!one.error.empty()) add_diagnostic(out, one.error);
}

// One kernel: its metadata file; its cubin is <stem>.cubin beside it. False when the JSON is not
// Triton's (another tool's file in the folder: skipped quietly when `quiet`).
bool read_kernel(const fs::path& meta_path, BinaryRead& out, bool quiet) {
    std::string error;
    const std::optional<std::string> text = read_small(meta_path, error);
    if (!text) {
        add_diagnostic(out, error);
        return false;
    }
    const Result<TritonMetadata> m = parse_triton_metadata(*text, meta_path.string());
    if (!m) {
        if (!quiet) fail(m.error);
        return false;
    }
    if (!m->backend.empty() && m->backend != "cuda" && m->backend != "hip") {
        add_diagnostic(out, meta_path.string() + ": a " + utf8_prefix(m->backend, 40) +
                                " kernel (target.backend): occ reads Triton's cuda and hip backends");
        return true;
    }
    fs::path cubin = meta_path;
    cubin.replace_extension(std::string(triton_binary_ext(*m)));
    std::error_code ec;
    if (!fs::is_regular_file(cubin, ec)) {
        add_diagnostic(out, meta_path.string() + ": no " + cubin.filename().string() +
                                " beside it (Triton writes the binary last; an interrupted compile leaves none)");
        return true;
    }
    BinaryRead one = read_binary_file(cubin.string());  // attaches the metadata beside it
    merge(out, std::move(one));
    return true;
}

bool is_metadata_name(const fs::path& p) {
    const std::string f = p.filename().string();
    return p.extension() == ".json" && f.rfind("__grp__", 0) != 0;
}

}  // namespace

bool looks_like_triton_json(const std::string& path) { return fs::path(path).extension() == ".json"; }

void read_triton_json(const std::string& path, BinaryRead& out) {
    out.format = "Triton kernel";
    read_kernel(fs::path(path), out, false);
}

// A cache root (its <hash> folders) or one <hash> folder: every metadata file, in name order.
void read_triton_dir(const std::string& path, BinaryRead& out) {
    out.format = "Triton cache";
    std::vector<fs::path> metas;
    std::size_t seen = 0;
    std::error_code ec;
    const auto scan = [&](const fs::path& dir, auto&& self, int depth) -> void {
        fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
        if (ec) {
            add_diagnostic(out, dir.string() + ": " + ec.message());
            return;
        }
        std::vector<fs::path> subdirs;
        for (; it != end; it.increment(ec)) {
            if (ec || ++seen > kMaxCacheEntries) break;
            std::error_code e2;
            const fs::file_status st = it->symlink_status(e2);
            if (fs::is_directory(st)) subdirs.push_back(it->path());
            else if (fs::is_regular_file(st) && is_metadata_name(it->path())) metas.push_back(it->path());
        }
        // The cache root holds <hash> folders; one level below it is where the files are.
        if (depth == 0)
            for (const fs::path& d : subdirs) self(d, self, 1);
    };
    scan(fs::path(path), scan, 0);
    if (seen > kMaxCacheEntries) add_diagnostic(out, "more than " + std::to_string(kMaxCacheEntries) + " entries: the rest were not read");
    std::sort(metas.begin(), metas.end());
    int kernels = 0;
    for (const fs::path& m : metas)
        if (read_kernel(m, out, true)) ++kernels;
    if (kernels == 0)
        fail(
            "no Triton kernels in this folder: expected <name>.json metadata beside <name>.cubin (<name>.hsaco for the hip "
            "backend), as Triton writes into "
            "~/.triton/cache/<hash>/ (give the cache folder, a <hash> folder or a kernel's .json)");
}

// A cubin or code object (.hsaco) given by path: Triton's metadata beside it (<stem>.json) gives its launch.
void attach_sibling_triton(const std::string& cubin_path, BinaryRead& out) {
    fs::path meta(cubin_path);
    if (meta.extension() != ".cubin" && meta.extension() != ".hsaco") return;
    meta.replace_extension(".json");
    std::error_code ec;
    if (!fs::is_regular_file(meta, ec)) return;
    std::string error;
    const std::optional<std::string> text = read_small(meta, error);
    if (!text) return;
    const Result<TritonMetadata> m = parse_triton_metadata(*text, meta.string());
    if (!m) return;  // another tool's JSON: not ours to read
    if (triton_binary_ext(*m) != fs::path(cubin_path).extension().string()) {
        add_diagnostic(out, "the Triton metadata beside it is for the " + utf8_prefix(m->backend, 40) + " backend, whose binary is <name>" +
                                std::string(triton_binary_ext(*m)) + ": its launch is not used");
        return;
    }
    attach_triton(out, *m);
}

}  // namespace bin
}  // namespace occ::io
