// api.cpp — the C functions behind window.occ that need no App: one request handler for every
// kind (the same occ::io::handle_text the CLI's --batch uses, so the JSON is identical) and the
// URL query codec. Strings go in as UTF-8 C strings and come back through to_js().
#include <emscripten/emscripten.h>

#include <utility>
#include <vector>

#include "occ/io/url.hpp"
#include "web.hpp"

namespace occ::web {

const char* to_js(std::string s) {
    static std::string buffer;
    buffer = std::move(s);
    return buffer.c_str();
}

namespace {
std::vector<io::NamedBytes> staged;  // files given by bytes, for occ_web_kernels or a drop
}  // namespace

std::vector<io::NamedBytes> take_staged_files() { return std::exchange(staged, {}); }

}  // namespace occ::web

extern "C" {

// occ.occupancy(req), occ.coalesce(req), ...: `kind` is the CLI subcommand, `text` one --batch line.
EMSCRIPTEN_KEEPALIVE const char* occ_web_handle(const char* kind, const char* text) {
    return occ::web::to_js(occ::io::handle_text(kind ? kind : "", text ? text : "").dump());
}

// A file's bytes for the next occ_web_kernels or occ_web_drop_files (copied: the caller frees its
// own). No name: unstages every file staged so far.
EMSCRIPTEN_KEEPALIVE void occ_web_stage_file(const char* name, const unsigned char* bytes, int size) {
    if (!name) occ::web::staged.clear();
    else occ::web::staged.emplace_back(name, std::vector<unsigned char>(bytes, bytes + (size > 0 ? size : 0)));
}

// occ.kernels(bytes, fields): the staged files with a kernels request's other fields (JSON object
// text), the JSON `occ kernels --json` prints; the staged files are used up.
EMSCRIPTEN_KEEPALIVE const char* occ_web_kernels(const char* fields) {
    std::vector<occ::io::BinaryRead> files = occ::io::read_binaries(occ::web::take_staged_files());
    const auto request = occ::io::json::parse(fields ? fields : "", nullptr, /*allow_exceptions=*/false);
    if (!request.is_object()) return occ::web::to_js(R"({"error":"kernels request: the fields must be a JSON object"})");
    const auto a = occ::io::answer_kernels(request, std::move(files));
    return occ::web::to_js((a ? occ::io::to_json(*a) : occ::io::json{{"error", a.error}}).dump());
}

// The request kinds, "occupancy, advise, ...": window.occ gets one function for each.
EMSCRIPTEN_KEEPALIVE const char* occ_web_kinds() { return occ::web::to_js(occ::io::known_kinds()); }

// JSON object text -> URL query (no '#'); invalid JSON gives "".
EMSCRIPTEN_KEEPALIVE const char* occ_web_encode_query(const char* json_text) {
    const auto j = occ::io::json::parse(json_text ? json_text : "", nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return occ::web::to_js("");
    return occ::web::to_js(occ::io::encode_url_query(j));
}

// URL query (with or without '#') -> {"ok": true, "value": {...}} or {"ok": false, "error": "..."}.
EMSCRIPTEN_KEEPALIVE const char* occ_web_decode_query(const char* query) {
    auto r = occ::io::decode_url_query(query ? query : "");
    occ::io::json out = r ? occ::io::json{{"ok", true}, {"value", *r}} : occ::io::json{{"ok", false}, {"error", r.error}};
    return occ::web::to_js(out.dump());
}

}  // extern "C"
