// fuzz_mcp.cpp — the MCP server's protocol function (occ/io/mcp.hpp), one session over the bytes
// split into lines as the stdio transport frames them (MCP specification 2025-11-25, "Transports").
// Properties: never crashes or throws; a reply is "" (a notification, a response, a blank line) or
// one line of strict JSON: a JSON-RPC 2.0 response with an id that is null, a string or an integer,
// and exactly one of result and error; an error has a JSON-RPC code and a message.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_common.hpp"
#include "occ/io/mcp.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using occ::fuzz::json;
    if (size > 64 * 1024) return 0;
    std::string_view rest(reinterpret_cast<const char*>(data), size);
    occ::io::McpSession session;
    while (!rest.empty()) {
        const std::size_t nl = rest.find('\n');
        const std::string_view line = rest.substr(0, nl);
        rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
        const std::string out = occ::io::mcp_reply(line, session);
        if (out.empty()) continue;
        FUZZ_CHECK(out.find('\n') == std::string::npos, out);
        const json r = json::parse(out, nullptr, false);
        FUZZ_CHECK(!r.is_discarded() && r.is_object(), out);
        occ::fuzz::dump_strict(r);
        FUZZ_CHECK(r.contains("jsonrpc") && r["jsonrpc"] == "2.0", out);
        FUZZ_CHECK(r.contains("id") && (r["id"].is_null() || r["id"].is_string() || r["id"].is_number_integer()), out);
        FUZZ_CHECK(r.contains("result") != r.contains("error"), out);
        if (r.contains("error")) {
            const json& e = r["error"];
            FUZZ_CHECK(e.contains("code") && e["code"].is_number_integer(), out);
            const int code = e["code"].get<int>();
            FUZZ_CHECK(code == -32700 || code == -32600 || code == -32601 || code == -32602 || code == -32603, out);
            FUZZ_CHECK(e.contains("message") && e["message"].is_string() && !e["message"].get<std::string>().empty(), out);
            // -32603 means an exception escaped a tool: a finding too.
            FUZZ_CHECK(code != -32603, out);
        } else if (r["result"].contains("isError")) {
            const json& res = r["result"];
            FUZZ_CHECK(res["isError"].is_boolean() && res["structuredContent"].is_object(), out);
            FUZZ_CHECK(res["content"].is_array() && !res["content"].empty() && res["content"][0]["type"] == "text", out);
        }
    }
    return 0;
}
