// occ/io/mcp.hpp — occ as a Model Context Protocol server: the protocol as one pure function.
//
// MCP (https://modelcontextprotocol.io/specification/2025-11-25) is JSON-RPC 2.0; over its stdio
// transport each message is one line of UTF-8 JSON. mcp_reply answers one such line; `occ mcp`
// (native/cli/cmd_mcp.cpp) only reads lines and writes the replies.
//
// The tools are generated from the kind registry (request_kinds(), occ/io/schema.hpp): one tool per
// request kind, its inputSchema built from the kind's FieldSpecs, its answer handle(kind, arguments),
// the same JSON as `occ <kind> --json` and a --batch line. A new kind or field is a new tool or
// property with no code here.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "occ/io/schema.hpp"

namespace occ::io {

// What a connection remembers between lines.
struct McpSession {
    bool initialized = false;      // an initialize request was answered
    bool ready = false;            // the client sent notifications/initialized
    std::string protocol_version;  // as negotiated by initialize
};

// The revisions of the specification this server speaks, newest first. initialize answers with the
// client's revision when it is one of these, else the newest (the specification's version negotiation).
// What it uses (tools, structuredContent, outputSchema, isError) reads the same in each of them.
inline constexpr std::string_view kMcpProtocolVersions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
// A line longer than this is refused unread (an Invalid Request error) and so is a message nested
// deeper than kMcpMaxDepth arrays and objects: no request of any kind needs either.
inline constexpr std::size_t kMcpMaxMessage = std::size_t{4} << 20;
inline constexpr int kMcpMaxDepth = 128;

// JSON-RPC 2.0 error codes (https://www.jsonrpc.org/specification#error_object).
namespace mcp_error {
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
}  // namespace mcp_error

// The reply to one line (without its newline), or "" when none is due: notifications, responses,
// blank lines. Never throws; a reply is always one line of strict JSON.
std::string mcp_reply(std::string_view line, McpSession& session);
// The error reply for a line of `bytes` bytes that was too long to read (the stdio loop's).
std::string mcp_too_large(std::size_t bytes);

// What tools/list lists: {name, title, description, inputSchema, outputSchema, annotations} per kind.
nlohmann::ordered_json mcp_tools();
// The JSON Schema of one kind's request object, and of one field.
nlohmann::ordered_json mcp_input_schema(const KindSpec& kind);
nlohmann::ordered_json mcp_field_schema(const FieldSpec& field);

}  // namespace occ::io
