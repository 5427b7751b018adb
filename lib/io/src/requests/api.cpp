// api.cpp — request dispatch.
#include "occ/io/api.hpp"

#include "occ/io/fields.hpp"
#include "occ/io/ncu.hpp"
#include "occ/io/utf8.hpp"
#include "occ/text.hpp"

namespace occ::io {

json api_gpus(const json& request) {
    if (!request.is_null() && !(request.is_object() && request.empty())) {
        FieldReader f(request, "gpus request");
        f.finish();
    }
    return gpus_json();
}

std::string known_kinds() {
    std::string s;
    for (const KindSpec& k : request_kinds()) join_into(s, ", ", k.name);
    return s;
}

json handle(std::string_view kind, const json& request) {
    if (const KindSpec* k = find_kind(kind)) {
        json answer;
        std::string what;
        const auto fn = k->answer_amd && request_vendor(request) == Vendor::amd ? k->answer_amd : k->answer;
        switch (catching(&what, true, [&] { answer = fn(request); })) {
            case Caught::nothing: return answer;
            case Caught::request_error: return json{{"error", make_valid_utf8(what)}};
            case Caught::exception: break;
        }
        return json{{"error", make_valid_utf8("internal error: " + what)}};
    }
    return json{{"error", "unknown request kind \"" + utf8_prefix(kind, 40) + "\"; known: " + known_kinds()}};
}

json handle_text(std::string_view kind, std::string_view text) {
    json req = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    if (req.is_discarded()) {
        std::string shown = utf8_prefix(text, 60);
        return json{{"error", "not valid JSON: \"" + shown + (text.size() > 60 ? "...\"" : "\"")}};
    }
    return handle(kind, req);
}

}  // namespace occ::io
