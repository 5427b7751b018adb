// mcp.cpp — the Model Context Protocol server as one pure function (occ/io/mcp.hpp).
//
// [SECTION] Schemas   the tools, generated from request_kinds() and the FieldSpecs
// [SECTION] Replies   JSON-RPC 2.0 framing, initialize, ping, tools/list, tools/call
//
// Shapes follow the MCP specification, revisions 2025-06-18 and 2025-11-25
// (https://modelcontextprotocol.io/specification/2025-11-25): basic/lifecycle (initialize),
// basic/utilities/ping, server/tools (tools/list, tools/call, structuredContent, outputSchema,
// isError), and JSON-RPC 2.0 (https://www.jsonrpc.org/specification) for ids and error codes.
#include "occ/io/mcp.hpp"

#include <charconv>
#include <optional>
#include <string>

#include "occ/io/api.hpp"
#include "occ/io/fields.hpp"
#include "occ/io/utf8.hpp"
#include "occ/names.hpp"

#ifndef OCC_VERSION
#define OCC_VERSION "0.0.0"
#endif

namespace occ::io {

namespace {

// [SECTION] Schemas

std::optional<std::int64_t> parse_int(std::string_view s) {
    bool neg = !s.empty() && s[0] == '-';
    if (neg) s.remove_prefix(1);
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s.remove_prefix(2);
        base = 16;
    }
    std::int64_t v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
    if (s.empty() || ec != std::errc{} || p != s.data() + s.size()) return std::nullopt;
    return neg ? -v : v;
}

std::optional<double> parse_double(std::string_view s) {
    const json j = json::parse(s.begin(), s.end(), nullptr, false);
    if (j.is_number()) return j.get<double>();
    return std::nullopt;
}

bool is_choice(const FieldSpec& f, std::string_view v) {
    for (std::size_t b = 0; b <= f.choices.size();) {
        std::size_t e = f.choices.find(',', b);
        if (e == std::string_view::npos) e = f.choices.size();
        if (f.choices.substr(b, e - b) == v) return true;
        b = e + 1;
    }
    return false;
}

// The field's default as a JSON value, when its description gives one a client can send back:
// `def` is also the default as the docs word it ("op default", "the only entry"), and those stay in
// the description only.
std::optional<json> typed_default(const FieldSpec& f) {
    if (f.def.empty() || f.def == "-") return std::nullopt;
    switch (f.type) {
        case FieldType::integer:
        case FieldType::size:
        case FieldType::mask:
        case FieldType::u64:
            if (const auto v = parse_int(f.def); v && *v == f.int_default) return json(f.int_default);
            return std::nullopt;
        case FieldType::number:
        case FieldType::duration:
            if (const auto v = parse_double(f.def); v && *v == f.num_default) return json(f.num_default);
            return std::nullopt;
        case FieldType::boolean:
            if (f.def == "true" || f.def == "false") return json(f.def == "true");
            return std::nullopt;
        case FieldType::choice:
            if (is_choice(f, f.def)) return json(std::string(f.def));
            return std::nullopt;
        case FieldType::text:
            if (f.def.find(' ') == std::string_view::npos) return json(std::string(f.def));
            return std::nullopt;
        case FieldType::dims:
        case FieldType::list: {
            json j = json::parse(f.def.begin(), f.def.end(), nullptr, false);
            if (j.is_array()) return j;
            return std::nullopt;
        }
        default: return std::nullopt;
    }
}

// minimum/maximum from the reader's range. A symmetric range (lo = -hi: ±INT_MAX, ±1 TiB) is no range:
// the model checks those fields against the device and words the limit itself.
void integer_bounds(json& s, const FieldSpec& f) {
    if (f.lo >= f.hi || f.lo == -f.hi) return;
    s["minimum"] = f.lo;
    s["maximum"] = f.hi;
}
void number_bounds(json& s, const FieldSpec& f) {
    if (f.dlo >= f.dhi) return;
    s["minimum"] = f.dlo;
    s["maximum"] = f.dhi;
}

bool says(std::string_view doc, std::string_view word) { return doc.find(word) != std::string_view::npos; }
// `types` and the JSON types doc_type names beside them: the readers of a few fields take either of
// two forms, and their doc_type (docs/INPUTS.md's type column, held to the readers by its tests) says so.
json also_types(json types, std::string_view doc) {
    for (const char* t : {"object", "number"})
        if (says(doc, t)) types.push_back(t);
    return types.size() == 1 ? types[0] : types;
}

// Whether `text` already has `words` (any case): the help of many fields names their unit.
bool said(std::string_view text, std::string_view words) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (words.size() > text.size()) return false;
    for (std::size_t i = 0; i + words.size() <= text.size(); ++i) {
        std::size_t j = 0;
        while (j < words.size() && lower(text[i + j]) == lower(words[j])) ++j;
        if (j == words.size()) return true;
    }
    return false;
}

std::string describe(const FieldSpec& f) {
    std::string d(f.help);
    if (!f.unit.empty() && f.unit != "-" && !said(f.help, f.unit)) d += " (" + std::string(f.unit) + ")";
    if (!d.empty() && d.back() != '.') d += '.';
    if (!f.doc_range.empty()) d += " Allowed: " + std::string(f.doc_range) + ".";
    if (!f.def.empty() && f.def != "-") d += " Default: " + std::string(f.def) + ".";
    return d;
}

}  // namespace

json mcp_field_schema(const FieldSpec& f) {
    json s = json::object();
    switch (f.type) {
        case FieldType::integer:
            s["type"] = "integer";
            integer_bounds(s, f);
            break;
        case FieldType::number:
            s["type"] = "number";
            number_bounds(s, f);
            break;
        case FieldType::size:  // bytes, or "48K"
        case FieldType::mask:  // a number, or "0xffff0000"
        case FieldType::u64:
            s["type"] = json::array({"integer", "string"});
            integer_bounds(s, f);
            break;
        case FieldType::duration:  // milliseconds, or "120us"
            s["type"] = json::array({"number", "string"});
            number_bounds(s, f);
            break;
        case FieldType::boolean: s["type"] = "boolean"; break;
        case FieldType::choice: {
            s["type"] = "string";
            json e = json::array();
            for (std::size_t b = 0; b <= f.choices.size();) {
                std::size_t end = f.choices.find(',', b);
                if (end == std::string_view::npos) end = f.choices.size();
                e.push_back(std::string(f.choices.substr(b, end - b)));
                b = end + 1;
            }
            s["enum"] = e;
            break;
        }
        case FieldType::text:  // a string; a few also take what their doc_type says ("string or object")
            s["type"] = also_types(json::array({"string"}), f.doc_type);
            break;
        case FieldType::cc: s["type"] = json::array({"string", "number"}); break;
        case FieldType::dims: {
            json item = {{"type", "integer"}};
            integer_bounds(item, f);
            s["type"] = "array";
            s["items"] = item;
            s["minItems"] = 1;
            s["maxItems"] = 3;
            break;
        }
        case FieldType::addresses:  // one per lane, null = inactive
            s["type"] = "array";
            s["items"] = {{"type", json::array({"integer", "string", "null"})}};
            s["maxItems"] = 32;
            break;
        case FieldType::list: {  // an array of what doc_type says ("array of integers"); some take an object too
            s["type"] = also_types(json::array({"array"}), f.doc_type);
            json item_types = json::array();
            if (says(f.doc_type, "strings") || says(f.doc_type, "names")) item_types.push_back("string");
            if (says(f.doc_type, "integers")) item_types.push_back("integer");
            if (!item_types.empty()) {
                json item = {{"type", item_types.size() == 1 ? item_types[0] : item_types}};
                if (says(f.doc_type, "integers")) integer_bounds(item, f);
                s["items"] = item;
            }
            break;
        }
        case FieldType::device: s["type"] = "object"; break;
        case FieldType::objects:
            s["type"] = "array";
            s["items"] = {{"type", "object"}};
            break;
        case FieldType::any: break;
    }
    if (const auto d = typed_default(f)) s["default"] = *d;
    s["description"] = describe(f);
    return s;
}

json mcp_input_schema(const KindSpec& kind) {
    json props = json::object();
    for (const FieldSpec* f : kind.fields) props[std::string(f->key)] = mcp_field_schema(*f);
    // The readers refuse a field the kind does not take (FieldReader::finish), so the schema does.
    return {{"type", "object"}, {"properties", props}, {"additionalProperties", false}};
}

json mcp_tools() {
    json tools = json::array();
    for (const KindSpec& k : request_kinds()) {
        const std::string name(k.name);
        tools.push_back({
            {"name", name},
            {"title", "occ " + name},
            {"description", std::string(k.summary) + ". The answer is the JSON object `occ " + name +
                                " --json` prints (docs/INPUTS.md lists the fields); a refused request is an error naming "
                                "the field and what it allows."},
            {"inputSchema", mcp_input_schema(k)},
            // Every answer is one JSON object; its fields are the kind's (docs/INPUTS.md, docs/MCP.md).
            {"outputSchema", {{"type", "object"}}},
            {"annotations", {{"readOnlyHint", true}, {"destructiveHint", false}, {"idempotentHint", true}, {"openWorldHint", false}}},
        });
    }
    return tools;
}

namespace {

// [SECTION] Replies

std::string line_of(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string result_reply(const json& id, json result) {
    json r = json::object();
    r["jsonrpc"] = "2.0";
    r["id"] = id;
    r["result"] = std::move(result);
    return line_of(r);
}

std::string error_reply(const json& id, int code, const std::string& message) {
    json r = json::object();
    r["jsonrpc"] = "2.0";
    r["id"] = id;
    r["error"] = {{"code", code}, {"message", make_valid_utf8(message)}};
    return line_of(r);
}

// Deepest nesting of arrays and objects outside strings, counted no further than past `limit`.
int nesting_depth(std::string_view s, int limit) {
    int depth = 0, deepest = 0;
    bool in_string = false, escaped = false;
    for (const char c : s) {
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > deepest && (deepest = depth) > limit) break;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

std::string shown(const json& v) { return utf8_prefix(v.dump(-1, ' ', false, json::error_handler_t::replace), 40); }

std::string tool_names() {
    std::string s;
    for (const KindSpec& k : request_kinds()) s += (s.empty() ? "" : ", ") + std::string(k.name);
    return s;
}

json initialize_result(const json& params, McpSession& session) {
    const std::string asked = params.at("protocolVersion").get<std::string>();
    std::string version(kMcpProtocolVersions[0]);
    for (std::string_view v : kMcpProtocolVersions)
        if (v == asked) version = asked;
    session.initialized = true;
    session.protocol_version = version;
    return {
        {"protocolVersion", version},
        {"capabilities", {{"tools", {{"listChanged", false}}}}},
        {"serverInfo", {{"name", "occ"}, {"title", "occ occupancy and memory calculator"}, {"version", OCC_VERSION}}},
        {"instructions",
         "occ answers, before you profile, how many blocks of a CUDA or HIP kernel fit on an SM/CU and what limits them "
         "(occupancy, advise, waves, clusters), whether a warp's memory accesses coalesce or conflict in shared memory "
         "(coalesce, banks, memory), roofline bounds, and the occupancy of every kernel in compiler logs or binaries "
         "(ptxas, kernels). `gpus` lists the GPUs by name. Fields left out take their documented defaults."},
    };
}

// tools/call: the kind's answer as structuredContent, with its JSON as text (the specification asks
// a tool that returns structured content to return it serialised in a text block too). A request
// the kind refuses is a tool error (isError) whose text is the reader's message: the field, what it
// allows, what was given.
json call_tool(const KindSpec& kind, const json& arguments) {
    json answer;
    std::string what;
    if (catching(&what, true, [&] { answer = handle(kind.name, arguments); }) != Caught::nothing || !answer.is_object())
        answer = json{{"error", "internal error: " + (what.empty() ? std::string("the answer is not an object") : what)}};
    const bool failed = answer.contains("error") && answer["error"].is_string();
    const std::string text = failed ? answer["error"].get<std::string>() : line_of(answer);
    return {{"content", json::array({{{"type", "text"}, {"text", text}}})}, {"structuredContent", answer}, {"isError", failed}};
}

std::string reply(std::string_view line, McpSession& session) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) return {};
    if (line.size() > kMcpMaxMessage) return mcp_too_large(line.size());
    if (nesting_depth(line, kMcpMaxDepth) > kMcpMaxDepth)
        return error_reply(nullptr, mcp_error::invalid_request,
                           "Invalid Request: nested deeper than " + std::to_string(kMcpMaxDepth) + " arrays and objects");
    const json msg = json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
    if (msg.is_discarded())
        return error_reply(nullptr, mcp_error::parse_error,
                           "Parse error: the line is not one JSON value (" + std::to_string(line.size()) + " bytes)");
    if (!msg.is_object())
        return error_reply(nullptr, mcp_error::invalid_request,
                           "Invalid Request: a message must be a JSON object, got " + shown(msg) + " (MCP has no JSON-RPC batches)");

    // An id is a string or an integer; MCP forbids null (basic: "Requests").
    const bool has_id = msg.contains("id");
    if (has_id && !(msg["id"].is_string() || msg["id"].is_number_integer()))
        return error_reply(nullptr, mcp_error::invalid_request,
                           "Invalid Request: id must be a string or an integer, got " + shown(msg["id"]));
    const json id = has_id ? msg["id"] : json(nullptr);
    if (!msg.contains("jsonrpc") || msg["jsonrpc"] != "2.0")
        return error_reply(id, mcp_error::invalid_request, "Invalid Request: jsonrpc must be \"2.0\"");
    if (!msg.contains("method")) {
        // A response to a request of ours: this server sends none, so there is nothing to match.
        if (has_id && (msg.contains("result") || msg.contains("error"))) return {};
        return error_reply(id, mcp_error::invalid_request, "Invalid Request: no method");
    }
    if (!msg["method"].is_string())
        return error_reply(id, mcp_error::invalid_request, "Invalid Request: method must be a string, got " + shown(msg["method"]));
    if (msg.contains("params") && !msg["params"].is_object() && !msg["params"].is_array())
        return error_reply(id, mcp_error::invalid_request, "Invalid Request: params must be an object, got " + shown(msg["params"]));
    const std::string method = msg["method"].get<std::string>();
    const json params = msg.contains("params") ? msg["params"] : json::object();

    if (!has_id) {  // a notification: never answered, whatever it is
        if (method == "notifications/initialized") session.ready = true;
        return {};
    }
    const bool known = method == "initialize" || method == "ping" || method == "tools/list" || method == "tools/call";
    if (!known) return error_reply(id, mcp_error::method_not_found, "Method not found: " + utf8_prefix(method, 60));
    if (!params.is_object())
        return error_reply(id, mcp_error::invalid_params, "Invalid params: " + method + " takes named params (an object)");

    if (method == "ping") return result_reply(id, json::object());
    if (method == "initialize") {
        if (!params.contains("protocolVersion") || !params["protocolVersion"].is_string())
            return error_reply(id, mcp_error::invalid_params, "Invalid params: initialize needs params.protocolVersion, a string");
        return result_reply(id, initialize_result(params, session));
    }
    if (method == "tools/list") {
        static const json tools = mcp_tools();
        return result_reply(id, {{"tools", tools}});
    }
    // tools/call
    if (!params.contains("name") || !params["name"].is_string())
        return error_reply(id, mcp_error::invalid_params, "Invalid params: tools/call needs params.name, a string");
    const std::string name = params["name"].get<std::string>();
    const KindSpec* kind = find_kind(name);
    if (!kind) {
        Closest closest(name, /*swaps=*/true, /*prefix_bonus=*/true);
        for (const KindSpec& k : request_kinds()) closest.offer(k.name);
        const std::string best = closest.best();
        return error_reply(id, mcp_error::invalid_params,
                           "Unknown tool: " + utf8_prefix(name, 60) + (best.empty() ? "" : "; did you mean \"" + best + "\"?") +
                               " (the tools: " + tool_names() + ")");
    }
    json arguments = params.contains("arguments") ? params["arguments"] : json::object();
    if (arguments.is_null()) arguments = json::object();
    if (!arguments.is_object())
        return error_reply(id, mcp_error::invalid_params,
                           "Invalid params: tools/call arguments must be an object, got " + shown(arguments));
    return result_reply(id, call_tool(*kind, arguments));
}

}  // namespace

std::string mcp_too_large(std::size_t bytes) {
    return error_reply(nullptr, mcp_error::invalid_request,
                       "Invalid Request: a message of " + std::to_string(bytes) + " bytes is over the limit of " +
                           std::to_string(kMcpMaxMessage) + " bytes");
}

std::string mcp_reply(std::string_view line, McpSession& session) {
    std::string out, what;
    if (catching(&what, true, [&] { out = reply(line, session); }) != Caught::nothing)
        return error_reply(nullptr, mcp_error::internal_error, "Internal error: " + what);
    return out;
}

}  // namespace occ::io
