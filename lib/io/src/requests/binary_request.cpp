// binary_request.cpp — the "kernels" request kind: every kernel of cubins, fatbins and host ELF files
// (occ/io/binary.hpp), evaluated by the same code as a compiler log's kernels (ptxas_eval.hpp), as a
// typed answer (KernelsAnswer: what `occ kernels` prints) and its JSON.
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "artefacts/ptxas_lines.hpp"
#include "occ/io/binary.hpp"
#include "occ/io/fields.hpp"
#include "occ/io/schema.hpp"
#include "occ/io/utf8.hpp"
#include "ptxas_eval.hpp"

namespace occ::io {
namespace {

// RFC 4648 base64 (standard alphabet, '=' padding optional, whitespace ignored). False when malformed.
bool decode_base64(std::string_view in, std::vector<unsigned char>& out) {
    out.clear();
    out.reserve(in.size() / 4 * 3 + 3);
    std::uint32_t acc = 0;
    int bits = 0;
    bool padding = false;
    for (char c : in) {
        int v;
        if (c >= 'A' && c <= 'Z') v = c - 'A';
        else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
        else if (c >= '0' && c <= '9') v = c - '0' + 52;
        else if (c == '+') v = 62;
        else if (c == '/') v = 63;
        else if (c == '=') {
            padding = true;
            continue;
        } else if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
        else return false;
        if (padding) return false;  // data after '='
        acc = (acc << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<unsigned char>(acc >> bits));
            acc &= (1u << bits) - 1;
        }
    }
    return bits < 6;
}

using ptxas_detail::number_occurrences;  // the n-th compilation of a name for an architecture across all files

void gather(KernelsAnswer& a) {
    PtxasLog& log = a.rows.log;
    bool cubins = false;
    for (BinaryRead& f : a.files) {
        for (PtxasKernel& k : f.kernels) log.kernels.push_back(std::move(k));
        f.kernels.clear();
        for (const std::string& d : f.diagnostics) log.diagnostics.push_back(make_valid_utf8(f.file + ": " + d));
        cubins = cubins || f.cubins > 0;
        if (!f.error.empty()) {
            ++a.file_errors;
            f.error = make_valid_utf8(f.error);
            log.diagnostics.push_back(f.error);
        }
    }
    if (cubins) log.diagnostics.push_back("spill stores and loads are not recorded in binaries (null); nvcc -Xptxas -v prints them");
    number_occurrences(log.kernels);
}

std::string no_kernels_error(const KernelsAnswer& a) {
    for (const BinaryRead& f : a.files)
        if (!f.error.empty()) return f.error;
    if (a.rows.compilations > 0 && a.rows.amd) return "no kernel in the files is built for " + std::string(a.rows.amd->arch->isa);
    if (a.rows.compilations > 0) {
        // Name what the files hold, so the answer says which GPU to pick.
        std::vector<std::string> archs;
        for (const PtxasKernel& k : a.rows.log.kernels)
            if (!k.arch.empty() && std::find(archs.begin(), archs.end(), k.arch) == archs.end()) archs.push_back(k.arch);
        std::string held;
        for (std::size_t i = 0; i < archs.size() && i < 8; ++i) held += (i ? ", " : "") + archs[i];
        if (archs.size() > 8) held += ", ...";
        const Device& d = a.rows.input.device;
        return "no kernel in the files runs on " + d.name + " (cc " + std::to_string(d.arch.cc_major) + "." +
               std::to_string(d.arch.cc_minor) + "): they are built for " + held +
               "; choose a GPU of one of those (on the command line, leave out --gpu to evaluate each on its own)";
    }
    return "no kernels found: the files hold no __global__ functions (device code is read from cubins, fatbins, AMD code objects, "
           "offload bundles and the .nv_fatbin and .hip_fatbin sections of objects, libraries and executables)";
}

std::string_view stem_of(std::string_view name, std::string_view ext) {
    return name.size() > ext.size() && name.substr(name.size() - ext.size()) == ext ? name.substr(0, name.size() - ext.size())
                                                                                    : std::string_view{};
}

}  // namespace

// A Triton kernel comes as two files: <name>.json (its metadata, giving the launch) and <name>.cubin,
// or <name>.hsaco from the HIP backend (same path but the extension); the metadata is attached to it.
std::vector<BinaryRead> read_binaries(const std::vector<NamedBytes>& given) {
    std::vector<BinaryRead> out;
    std::map<std::string, TritonMetadata, std::less<>> triton;
    std::map<std::string, bool, std::less<>> cubins;  // stem + extension of every binary given
    for (const auto& [name, bytes] : given)
        for (std::string_view ext : {".cubin", ".hsaco"})
            if (const std::string_view stem = stem_of(name, ext); !stem.empty()) cubins[std::string(stem) + std::string(ext)] = true;
    for (const auto& [name, bytes] : given) {
        const std::string_view stem = stem_of(name, ".json");
        if (stem.empty()) continue;
        const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        Result<TritonMetadata> m = parse_triton_metadata(text, name);
        BinaryRead r;
        r.file = name;
        r.format = "Triton metadata";
        if (!m) r.error = m.error;
        else if (!cubins.count(std::string(stem) + std::string(triton_binary_ext(*m.value))))
            r.error = name + ": Triton metadata without its binary: add " + std::string(stem) + std::string(triton_binary_ext(*m.value)) +
                      " to the files";
        else triton.emplace(std::string(stem), std::move(*m.value));
        if (!r.error.empty()) out.push_back(std::move(r));
    }
    for (const auto& [name, bytes] : given) {
        if (!stem_of(name, ".json").empty()) continue;
        BinaryRead r = read_binary(name, bytes);
        for (std::string_view ext : {".cubin", ".hsaco"})
            if (const std::string_view stem = stem_of(name, ext); !stem.empty())
                if (const auto it = triton.find(stem); it != triton.end() && r.error.empty() && triton_binary_ext(it->second) == ext)
                    attach_triton(r, it->second);
        out.push_back(std::move(r));
    }
    return out;
}

namespace {

Result<KernelsAnswer> answer(const json& request, std::vector<BinaryRead>* preread) {
    return answer_with<KernelsAnswer>(request, "kernels request", [&](FieldReader& f, KernelsAnswer& a) {
        read_artefact_launch(f, a.rows, "binary");
        std::vector<NamedBytes> given;
        const json* files = f.raw(fields::files);
        if (preread) {
            if (files) f.fail(fields::files.key, "give the files either as paths or in the request, not both");
        } else {
            if (!files || !files->is_array() || files->empty())
                f.fail(fields::files.key, "required: an array of {\"name\": ..., \"base64\": ...}, one per binary");
            for (std::size_t i = 0; i < files->size(); ++i) {
                const json& o = (*files)[i];
                const std::string at = "files[" + std::to_string(i) + "]";
                if (!o.is_object()) f.fail(fields::files.key, at + " must be an object {\"name\": ..., \"base64\": ...}");
                for (const auto& [key, value] : o.items())
                    if (key != "name" && key != "base64")
                        f.fail(fields::files.key, at + ": unknown field \"" + utf8_prefix(key, 40) + "\"");
                const auto name = o.find("name");
                if (name != o.end() && !name->is_string()) f.fail(fields::files.key, at + ".name must be a string");
                const auto b64 = o.find("base64");
                if (b64 == o.end() || !b64->is_string()) f.fail(fields::files.key, at + ".base64 is required: the file's bytes in base64");
                std::vector<unsigned char> bytes;
                if (!decode_base64(b64->get_ref<const std::string&>(), bytes))
                    f.fail(fields::files.key, at + ".base64 is not valid base64");
                given.emplace_back(name != o.end() ? name->get<std::string>() : at, std::move(bytes));
            }
        }
        f.finish();
        if (preread) a.files = std::move(*preread);
        for (BinaryRead& r : read_binaries(given)) a.files.push_back(std::move(r));
        a.rows.id = a.id;
        gather(a);
        evaluate_kernels(a.rows);
        if (a.rows.rows.empty() || a.file_errors > 0) a.rows.error = no_kernels_error(a);
        else a.rows.error = vendor_mismatch_error(a.rows);
        if (a.file_errors > 1) a.rows.error += " (and " + std::to_string(a.file_errors - 1) + " more files could not be read)";
    });
}

}  // namespace

Result<KernelsAnswer> answer_kernels(const json& request) { return answer(request, nullptr); }

Result<KernelsAnswer> answer_kernels(const json& request, std::vector<BinaryRead> files) { return answer(request, &files); }

json to_json(const KernelsAnswer& a) {
    json out = to_json(a.rows);
    // A log's line counts mean nothing here.
    json& summary = out["summary"];
    for (const char* key : {"gmem", "lines", "recognised_lines", "skipped_lines", "unknown_lines"}) summary.erase(key);
    summary["files"] = a.files.size();
    summary["file_errors"] = a.file_errors;
    json files = json::array();
    for (const BinaryRead& f : a.files)
        files.push_back(json{{"name", make_valid_utf8(f.file)},
                             {"format", f.format.empty() ? json(nullptr) : json(f.format)},
                             {"cubins", f.cubins},
                             {"ptx", f.ptx},
                             {"code_objects", f.code_objects},
                             {"error", f.error.empty() ? json(nullptr) : json(make_valid_utf8(f.error))}});
    out["files"] = files;
    return out;
}

json api_kernels(const json& request) {
    const Result<KernelsAnswer> a = answer_kernels(request);
    if (!a) return json{{"error", make_valid_utf8(a.error)}};
    return to_json(*a);
}

}  // namespace occ::io
