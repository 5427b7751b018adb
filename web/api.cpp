// api.cpp — the C functions behind window.occ that need no App: one request handler for every
// kind (the same occ::io::handle_text the CLI's --batch uses, so the JSON is identical) and the
// URL query codec. Strings go in as UTF-8 C strings and come back through to_js().
#include <emscripten/emscripten.h>

#include "occ/io/url.hpp"
#include "web.hpp"

namespace occ::web {

const char* to_js(std::string s) {
    static std::string buffer;
    buffer = std::move(s);
    return buffer.c_str();
}

}  // namespace occ::web

extern "C" {

// occ.occupancy(req), occ.coalesce(req), ...: `kind` is the CLI subcommand, `text` one --batch line.
EMSCRIPTEN_KEEPALIVE const char* occ_web_handle(const char* kind, const char* text) {
    return occ::web::to_js(occ::io::handle_text(kind ? kind : "", text ? text : "").dump());
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
