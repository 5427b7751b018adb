// The MCP server's protocol function (occ/io/mcp.hpp): initialize, ping, tools/list generated from
// request_kinds() and the FieldSpecs, tools/call answering as handle() does, and the JSON-RPC 2.0
// error codes (https://www.jsonrpc.org/specification#error_object) for what a client gets wrong.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "occ/io/api.hpp"
#include "occ/io/mcp.hpp"
#include "occ/io/schema.hpp"

namespace {

using occ::io::json;
using occ::io::McpSession;

json reply_to(McpSession& s, std::string_view line) {
    const std::string out = occ::io::mcp_reply(line, s);
    REQUIRE_FALSE(out.empty());
    CHECK(out.find('\n') == std::string::npos);
    const json r = json::parse(out);
    CHECK(r["jsonrpc"] == "2.0");
    return r;
}
json reply_json(McpSession& s, const json& msg) { return reply_to(s, msg.dump()); }
json call(McpSession& s, std::string_view tool, const json& arguments, int id = 7) {
    return reply_json(
        s, json{{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}, {"params", {{"name", tool}, {"arguments", arguments}}}});
}
int error_code(const json& r) { return r.contains("error") ? r["error"]["code"].get<int>() : 0; }

}  // namespace

TEST_CASE("mcp: initialize negotiates the revision and names the server") {
    McpSession s;
    const json r = reply_to(s, R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",)"
                               R"("capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
    CHECK(r["id"] == 1);
    CHECK(r["result"]["protocolVersion"] == "2025-06-18");
    CHECK(r["result"]["capabilities"]["tools"].is_object());
    CHECK(r["result"]["serverInfo"]["name"] == "occ");
    CHECK(r["result"]["serverInfo"]["version"].is_string());
    CHECK(s.initialized);
    CHECK_FALSE(s.ready);
    // A notification is never answered.
    CHECK(occ::io::mcp_reply(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", s).empty());
    CHECK(s.ready);
    // An older revision it speaks is kept; one it does not know gets the newest.
    CHECK(
        reply_to(
            s,
            R"({"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"2024-11-05"}})")["result"]["protocolVersion"] ==
        "2024-11-05");
    const json later = reply_to(s, R"({"jsonrpc":"2.0","id":"b","method":"initialize","params":{"protocolVersion":"2999-01-01"}})");
    CHECK(later["id"] == "b");
    CHECK(later["result"]["protocolVersion"] == "2025-11-25");
    CHECK(error_code(reply_to(s, R"({"jsonrpc":"2.0","id":2,"method":"initialize","params":{}})")) == -32602);
}

TEST_CASE("mcp: ping answers an empty result with the request's id") {
    McpSession s;
    const json r = reply_to(s, R"({"jsonrpc":"2.0","id":"p-1","method":"ping"})");
    CHECK(r["id"] == "p-1");
    CHECK(r["result"] == json::object());
    CHECK_FALSE(r.contains("error"));
}

TEST_CASE("mcp: tools/list has one tool per request kind, its properties the kind's fields") {
    McpSession s;
    const json r = reply_to(s, R"({"jsonrpc":"2.0","id":3,"method":"tools/list"})");
    const json& tools = r["result"]["tools"];
    const auto kinds = occ::io::request_kinds();
    REQUIRE(tools.size() == kinds.size());
    std::set<std::string> names;
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        const occ::io::KindSpec& k = kinds[i];
        const json& t = tools[i];
        CAPTURE(k.name);
        CHECK(t["name"] == std::string(k.name));
        names.insert(t["name"].get<std::string>());
        CHECK(t["description"].get<std::string>().find(std::string(k.summary)) == 0);
        CHECK(t["inputSchema"]["type"] == "object");
        CHECK(t["outputSchema"]["type"] == "object");
        const json& props = t["inputSchema"]["properties"];
        REQUIRE(props.size() == k.fields.size());
        for (const occ::io::FieldSpec* f : k.fields) {
            CAPTURE(f->key);
            REQUIRE(props.contains(std::string(f->key)));
            CHECK(props[std::string(f->key)]["description"].get<std::string>().find(std::string(f->help)) == 0);
        }
    }
    // The catalogue is a kind too (what `occ gpus --json` prints).
    CHECK(names.count("gpus") == 1);
    CHECK(names.count("occupancy") == 1);
    CHECK(names.size() == kinds.size());
}

TEST_CASE("mcp: a field's schema says its type, range, choices, default and unit") {
    using namespace occ::io::fields;
    const json threads_s = occ::io::mcp_field_schema(threads);
    CHECK(threads_s["type"] == "integer");
    CHECK(threads_s["default"] == 256);
    CHECK_FALSE(threads_s.contains("minimum"));  // the model checks threads against the device
    CHECK(threads_s["description"].get<std::string>().find("1..max threads per block (1024)") != std::string::npos);
    CHECK(threads_s["description"].get<std::string>().find("threads per block") != std::string::npos);
    const json cache = occ::io::mcp_field_schema(cache_config);
    CHECK(cache["enum"] == json::array({"none", "shared", "l1", "equal"}));
    CHECK(cache["default"] == "none");
    const json tmem = occ::io::mcp_field_schema(tmem_columns);
    CHECK(tmem["minimum"] == 0);
    CHECK(tmem["maximum"] == 512);
    CHECK(occ::io::mcp_field_schema(optin)["default"] == false);
    CHECK(occ::io::mcp_field_schema(smem_dynamic)["type"] == json::array({"integer", "string"}));
    CHECK(occ::io::mcp_field_schema(block)["items"]["maximum"] == 1024);
    CHECK(occ::io::mcp_field_schema(gpu)["default"] == std::string(occ::kDefaultGpu));
}

TEST_CASE("mcp: tools/call occupancy equals handle() field for field") {
    McpSession s;
    const json args = {{"gpu", "A100"}, {"threads", 256}, {"regs", 32}};
    const json r = call(s, "occupancy", args);
    REQUIRE(r.contains("result"));
    const json& res = r["result"];
    CHECK(res["isError"] == false);
    const json want = occ::io::handle("occupancy", args);
    CHECK(res["structuredContent"] == want);
    CHECK(res["structuredContent"]["blocks_per_sm"] == 8);
    CHECK(res["structuredContent"]["occupancy"] == 1.0);
    REQUIRE(res["content"].size() == 1);
    CHECK(res["content"][0]["type"] == "text");
    CHECK(json::parse(res["content"][0]["text"].get<std::string>()) == want);
    // The catalogue, as `occ gpus --json` builds it.
    const json g = call(s, "gpus", json::object());
    CHECK(g["result"]["structuredContent"] == occ::io::gpus_json());
    // Missing or null arguments are an empty request.
    const json none = reply_to(s, R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"gpus"}})");
    CHECK(none["result"]["isError"] == false);
}

TEST_CASE("mcp: a refused request is a tool error naming the field and its range") {
    McpSession s;
    const json r = call(s, "occupancy", {{"gpu", "A100"}, {"threads", 5000}, {"regs", 32}});
    REQUIRE(r.contains("result"));
    CHECK(r["result"]["isError"] == true);
    const std::string text = r["result"]["content"][0]["text"];
    CHECK(text.find("threads") != std::string::npos);
    CHECK(text.find("1..1024") != std::string::npos);
    CHECK(text.find("5000") != std::string::npos);
    CHECK(r["result"]["structuredContent"]["error"] == text);
    // A field the kind does not take, and a GPU it does not know.
    const json unknown = call(s, "occupancy", {{"treads", 256}});
    CHECK(unknown["result"]["isError"] == true);
    CHECK(unknown["result"]["content"][0]["text"].get<std::string>().find("treads") != std::string::npos);
    CHECK(call(s, "occupancy", {{"gpu", "H100-SMX5"}})["result"]["isError"] == true);
    // An unknown tool and arguments that are no object are the client's protocol errors.
    const json typo = call(s, "occupncy", json::object());
    CHECK(error_code(typo) == -32602);
    CHECK(typo["error"]["message"].get<std::string>().find("did you mean \"occupancy\"") != std::string::npos);
    CHECK(error_code(call(s, "occupancy", json::array({1}))) == -32602);
    CHECK(error_code(reply_to(s, R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":3}})")) == -32602);
}

TEST_CASE("mcp: JSON-RPC errors") {
    McpSession s;
    SUBCASE("unknown method: -32601 with the id") {
        const json r = reply_to(s, R"({"jsonrpc":"2.0","id":11,"method":"resources/list"})");
        CHECK(error_code(r) == -32601);
        CHECK(r["id"] == 11);
        CHECK(r["error"]["message"].get<std::string>().find("resources/list") != std::string::npos);
    }
    SUBCASE("bad JSON: -32700 with a null id") {
        const json r = reply_to(s, R"({"jsonrpc":"2.0","id":1,"method":"ping")");
        CHECK(error_code(r) == -32700);
        CHECK(r["id"].is_null());
        CHECK(error_code(reply_to(s, "\xff\xfe{")) == -32700);
    }
    SUBCASE("not an object: -32600") {
        for (const char* line : {"[]", "[1,2]", "42", "\"ping\"", "null", "true"}) {
            CAPTURE(line);
            const json r = reply_to(s, line);
            CHECK(error_code(r) == -32600);
            CHECK(r["id"].is_null());
        }
    }
    SUBCASE("a bad envelope: -32600") {
        CHECK(error_code(reply_to(s, R"({"jsonrpc":"1.0","id":1,"method":"ping"})")) == -32600);
        CHECK(error_code(reply_to(s, R"({"id":1,"method":"ping"})")) == -32600);
        CHECK(error_code(reply_to(s, R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})")) == -32600);
        CHECK(error_code(reply_to(s, R"({"jsonrpc":"2.0","id":null,"method":"ping"})")) == -32600);
        CHECK(error_code(reply_to(s, R"({"jsonrpc":"2.0","id":1,"method":7})")) == -32600);
        CHECK(error_code(reply_to(s, R"({"jsonrpc":"2.0","id":1,"method":"ping","params":"x"})")) == -32600);
        CHECK(error_code(reply_to(s, R"({"jsonrpc":"2.0","method":7})")) == -32600);
        CHECK(error_code(reply_to(s, R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":[1]})")) == -32602);
    }
    SUBCASE("notifications and responses get no reply") {
        CHECK(occ::io::mcp_reply(R"({"jsonrpc":"2.0","method":"no/such/notification"})", s).empty());
        CHECK(occ::io::mcp_reply(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}})", s).empty());
        CHECK(occ::io::mcp_reply(R"({"jsonrpc":"2.0","id":5,"result":{}})", s).empty());
        CHECK(occ::io::mcp_reply("", s).empty());
        CHECK(occ::io::mcp_reply("  \r", s).empty());
    }
    SUBCASE("limits: too long, too deep") {
        const std::string big = R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":")" + std::string(occ::io::kMcpMaxMessage, 'x') +
                                "\"}}";
        const json r = reply_to(s, big);
        CHECK(error_code(r) == -32600);
        CHECK(r["error"]["message"].get<std::string>().find("limit") != std::string::npos);
        const std::string deep = R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":)" + std::string(100000, '[') +
                                 std::string(100000, ']') + "}}";
        CHECK(error_code(reply_to(s, deep)) == -32600);
        // Brackets inside strings are no nesting.
        const std::string quoted = R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":")" + std::string(1000, '[') + "\"}}";
        CHECK(reply_to(s, quoted)["result"] == json::object());
    }
    SUBCASE("a reply keeps a large integer id and a string id as sent") {
        CHECK(reply_to(s, R"({"jsonrpc":"2.0","id":18446744073709551615,"method":"ping"})")["id"] == 18446744073709551615ull);
        CHECK(reply_to(s, R"({"jsonrpc":"2.0","id":-3,"method":"ping"})")["id"] == -3);
        CHECK(reply_to(s, R"({"jsonrpc":"2.0","id":"\u00e9","method":"ping"})")["id"] == "\u00e9");
    }
}
