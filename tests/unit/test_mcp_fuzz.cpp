// A seeded property test of the MCP server's protocol function (occ/io/mcp.hpp): garbled JSON-RPC
// lines (truncated, wrong types for id, method and params, huge numbers, deep nesting, random
// bytes, byte-level mutations of valid messages, tool arguments of random types) never crash it,
// and each gets the JSON-RPC 2.0 error code its fault calls for, or no reply for a notification.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "occ/io/api.hpp"
#include "occ/io/mcp.hpp"
#include "occ/io/schema.hpp"

namespace {

using occ::io::json;
using occ::io::McpSession;

const std::vector<std::string>& valid_messages() {
    static const std::vector<std::string> m = {
        R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}})",
        R"({"jsonrpc":"2.0","id":"x2","method":"ping"})",
        R"({"jsonrpc":"2.0","id":3,"method":"tools/list","params":{}})",
        R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"occupancy","arguments":{"gpu":"A100","threads":256,"regs":32}}})",
        R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"coalesce","arguments":{"gpu":"H100","stride":2}}})",
        R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
    };
    return m;
}

// The reply to `line`, parsed and checked for the shape every reply has; null when there is none.
json checked_reply(McpSession& s, const std::string& line) {
    const std::string out = occ::io::mcp_reply(line, s);
    if (out.empty()) return nullptr;
    REQUIRE(out.find('\n') == std::string::npos);
    const json r = json::parse(out, nullptr, false);
    REQUIRE_FALSE(r.is_discarded());
    REQUIRE(r.is_object());
    CHECK(r["jsonrpc"] == "2.0");
    REQUIRE(r.contains("id"));
    CHECK((r["id"].is_null() || r["id"].is_string() || r["id"].is_number_integer()));
    CHECK(r.contains("result") != r.contains("error"));
    if (r.contains("error")) {
        const int code = r["error"]["code"].get<int>();
        CHECK((code == -32700 || code == -32600 || code == -32601 || code == -32602));
        CHECK_FALSE(r["error"]["message"].get<std::string>().empty());
    }
    return r;
}
int code_of(const json& r) { return r.is_object() && r.contains("error") ? r["error"]["code"].get<int>() : 0; }

json random_value(std::mt19937& rng, int depth = 0) {
    switch (std::uniform_int_distribution<int>(0, depth > 2 ? 6 : 8)(rng)) {
        case 0: return nullptr;
        case 1: return rng() % 2 == 0;
        case 2: return static_cast<std::int64_t>(rng()) - (1ll << 31);
        case 3: return std::ldexp(static_cast<double>(rng()), static_cast<int>(rng() % 2100) - 1050);
        case 4: return std::to_string(rng() % 100000) + (rng() % 2 ? "K" : "");
        case 5: return std::string(rng() % 8, static_cast<char>('a' + rng() % 26));
        case 6: return std::uint64_t{rng()} << 32 | rng();
        case 7: {
            json a = json::array();
            for (unsigned i = rng() % 4; i > 0; --i) a.push_back(random_value(rng, depth + 1));
            return a;
        }
        default: {
            json o = json::object();
            for (unsigned i = rng() % 3; i > 0; --i) o["k" + std::to_string(rng() % 5)] = random_value(rng, depth + 1);
            return o;
        }
    }
}

}  // namespace

TEST_CASE("mcp property: truncated messages are parse errors") {
    std::mt19937 rng(20251208);
    McpSession s;
    for (int i = 0; i < 1000; ++i) {
        const std::string& m = valid_messages()[rng() % valid_messages().size()];
        const std::string cut = m.substr(0, 1 + rng() % (m.size() - 1));
        CAPTURE(cut);
        const json r = checked_reply(s, cut);
        CHECK(code_of(r) == -32700);
        CHECK(r["id"].is_null());
    }
}

TEST_CASE("mcp property: ids, methods and params of the wrong type") {
    std::mt19937 rng(7);
    McpSession s;
    const char* methods[] = {"ping", "tools/list", "initialize", "tools/call", "no/such"};
    for (int i = 0; i < 1500; ++i) {
        json msg = {{"jsonrpc", "2.0"}};
        const json id = random_value(rng);
        const bool id_ok = id.is_string() || id.is_number_integer();
        const json method = rng() % 3 == 0 ? random_value(rng) : json(methods[rng() % 5]);
        const bool method_ok = method.is_string();
        msg["id"] = id;
        msg["method"] = method;
        const bool with_params = rng() % 2 == 0;
        json params = random_value(rng);
        if (with_params) msg["params"] = params;
        const bool params_structured = !with_params || params.is_object() || params.is_array();
        CAPTURE(msg.dump());
        const json r = checked_reply(s, msg.dump());
        REQUIRE(r.is_object());  // every one has an id key: a request, answered
        if (!id_ok) {
            CHECK(code_of(r) == -32600);
            CHECK(r["id"].is_null());
            continue;
        }
        CHECK(r["id"] == id);
        if (!method_ok || !params_structured) {
            CHECK(code_of(r) == -32600);
            continue;
        }
        const std::string m = method.get<std::string>();
        const bool known = m == "ping" || m == "tools/list" || m == "initialize" || m == "tools/call";
        if (!known) CHECK(code_of(r) == -32601);
        else if (with_params && params.is_array()) CHECK(code_of(r) == -32602);
        else if (m == "ping" || m == "tools/list") CHECK(code_of(r) == 0);
        else CHECK(code_of(r) == -32602);  // initialize without protocolVersion, tools/call without name
    }
}

TEST_CASE("mcp property: huge numbers") {
    std::mt19937 rng(11);
    McpSession s;
    for (int i = 0; i < 300; ++i) {
        const std::string digits = "1" + std::string(20 + rng() % 400, static_cast<char>('0' + rng() % 10));
        const std::string exp = rng() % 2 ? "" : "e" + std::to_string(rng() % 1000);
        // As an id: more than 64 bits is no integer any more, so no valid id.
        const json r = checked_reply(s, R"({"jsonrpc":"2.0","id":)" + digits + exp + R"(,"method":"ping"})");
        CHECK((code_of(r) == -32600 || code_of(r) == -32700));
        // As a tool argument: the tool refuses it and names the field.
        const json t = checked_reply(
            s,
            R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"occupancy","arguments":{"threads":)" + digits + exp + "}}}");
        if (code_of(t) == 0) {
            CHECK(t["result"]["isError"] == true);
            CHECK(t["result"]["content"][0]["text"].get<std::string>().find("threads") != std::string::npos);
        } else {
            CHECK(code_of(t) == -32700);  // a number the JSON reader cannot hold
        }
    }
}

TEST_CASE("mcp property: deep nesting") {
    std::mt19937 rng(13);
    McpSession s;
    for (int i = 0; i < 400; ++i) {
        const int depth = 1 + static_cast<int>(rng() % 300);
        const char open = rng() % 2 ? '[' : '{';
        std::string inner;
        for (int d = 0; d < depth; ++d) inner += open == '[' ? "[" : R"({"a":)";
        inner += "0";
        for (int d = 0; d < depth; ++d) inner += open == '[' ? ']' : '}';
        // The envelope and params add two levels.
        const json r = checked_reply(s, R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":)" + inner + "}}");
        if (depth + 2 > occ::io::kMcpMaxDepth) CHECK(code_of(r) == -32600);
        else CHECK(r["result"] == json::object());
    }
}

TEST_CASE("mcp property: random bytes and mutated messages") {
    std::mt19937 rng(17);
    McpSession s;
    for (int i = 0; i < 1500; ++i) {
        std::string line;
        if (i % 2 == 0) {
            for (unsigned n = 1 + rng() % 64; n > 0; --n) line += static_cast<char>(rng() % 256);
        } else {
            line = valid_messages()[rng() % valid_messages().size()];
            for (unsigned n = 1 + rng() % 4; n > 0; --n) {
                const std::size_t at = rng() % line.size();
                switch (rng() % 3) {
                    case 0: line[at] = static_cast<char>(rng() % 256); break;
                    case 1: line.erase(at, 1); break;
                    default: line.insert(at, 1, static_cast<char>(rng() % 256)); break;
                }
            }
        }
        if (const auto nl = line.find('\n'); nl != std::string::npos) line.resize(nl);  // one line, as the transport frames it
        CAPTURE(line);
        const json r = checked_reply(s, line);
        // Bytes that parse as no JSON value are parse errors, whatever else they hold.
        const json parsed = json::parse(line, nullptr, false);
        if (parsed.is_discarded() && line.find_first_not_of(" \t\r") != std::string::npos) CHECK(code_of(r) == -32700);
        if (!parsed.is_discarded() && !parsed.is_object()) CHECK(code_of(r) == -32600);
    }
}

TEST_CASE("mcp property: tool arguments of random types never break the protocol") {
    std::mt19937 rng(19);
    McpSession s;
    const auto kinds = occ::io::request_kinds();
    for (int i = 0; i < 1500; ++i) {
        const occ::io::KindSpec& k = kinds[rng() % kinds.size()];
        json args = json::object();
        for (unsigned n = rng() % 4; n > 0 && !k.fields.empty(); --n)
            args[std::string(k.fields[rng() % k.fields.size()]->key)] = random_value(rng);
        json msg = {{"jsonrpc", "2.0"}, {"id", i}, {"method", "tools/call"}, {"params", {{"name", k.name}, {"arguments", args}}}};
        CAPTURE(msg.dump());
        const json r = checked_reply(s, msg.dump());
        REQUIRE(r.contains("result"));
        CHECK(r["id"] == i);
        CHECK(r["result"]["isError"].is_boolean());
        CHECK(r["result"]["structuredContent"].is_object());
        CHECK_FALSE(r["result"]["content"][0]["text"].get<std::string>().empty());
        // The tool's answer is handle()'s for the arguments as the line carries them (an infinite
        // double is written as null), error or not.
        const json sent = json::parse(msg.dump())["params"]["arguments"];
        CHECK(r["result"]["structuredContent"] ==
              json::parse(occ::io::handle(k.name, sent).dump(-1, ' ', false, json::error_handler_t::replace)));
    }
}
