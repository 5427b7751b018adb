// cli.hpp — what the subcommand files share. Each subcommand lives in its own cmd_*.cpp and
// registers itself from main.cpp; all arithmetic happens in occ::core. Request flags come from the
// field descriptions (occ/io/schema.hpp): flag = "--" + JSON key with '_' turned into '-'.
#pragma once
#include <functional>
#include <iosfwd>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "occ/io/api.hpp"
#include "occ/io/ptxas.hpp"
#include "occ/io/schema.hpp"
#include "occ/result.hpp"

namespace occ::cli {

using json = nlohmann::ordered_json;

// Exit codes (ARCHITECTURE.md CLI contract).
inline constexpr int kExitOk = 0;
inline constexpr int kExitBatchErrors = 1;
inline constexpr int kExitUsage = 2;

// Set by a subcommand's callback; main returns it.
struct Outcome {
    int code = kExitOk;
};

// Reads JSON Lines from `in`, answers each with handle(kind, line) on its own line of `out`
// (blank lines give an error line too, so output stays aligned). Streams: constant memory.
// Returns kExitBatchErrors if any line failed.
// `fields` (--fields): a comma-separated list of answer fields to write instead of whole answers
// (io::FieldSelection); an unknown one is refused with kExitUsage before any line is read.
int run_batch(const std::string& kind, std::istream& in, std::ostream& out, const std::string& fields = {});

// The request fields of one kind as flags, and what the user gave.
struct RequestFlags {
    const io::KindSpec* kind = nullptr;
    std::map<std::string, std::vector<std::string>> given;  // key -> the flag's arguments
};
// One flag per field of `kind` (JSON-only fields such as id have none).
void add_request_flags(CLI::App* cmd, const io::KindSpec& kind, RequestFlags& flags);
// What every request command reads from its command line: the request and the output mode.
struct RequestOptions {
    RequestFlags request;
    bool as_json = false;  // --json: print one JSON object
    bool batch = false;    // --batch: JSON Lines in and out
    std::string fields;    // --fields: with --batch, only these answer fields
};
// The subcommand of the request kind `name`: its one-line summary (the schema's), `help` under its
// options, one flag per field of the kind, then --json and --batch.
CLI::App* add_request_command(CLI::App& app, std::string_view name, const char* help, RequestOptions& o);
// The JSON request the given flags describe (a --batch line would carry the same).
Result<json> request_from(const RequestFlags& flags);

// Prints a typed answer: its JSON (`to_json`) with --json, else the human text. An error goes to
// stderr (or as {"error": ...} with --json). Returns kExitUsage on error.
template <typename Answer, typename ToJson, typename Human>
int emit(const Result<Answer>& a, bool as_json, ToJson to_json, Human human);
void print_json(const json& j);
int print_error(const std::string& message, bool as_json);
// For the kinds whose printers read the JSON answer (advise, roofline, gpus): the answer with
// --json, else the error alone on stderr, else `human`.
int emit_response(const json& response, bool as_json, const std::function<void(const json&)>& human);

template <typename Answer, typename ToJson, typename Human>
int emit(const Result<Answer>& a, bool as_json, ToJson to_json, Human human) {
    if (!a) return print_error(a.error, as_json);
    if (as_json) print_json(to_json(*a));
    else human(*a);
    return kExitOk;
}

// Registration functions, one per cmd_*.cpp.
void add_occupancy(CLI::App& app, Outcome& out);
void add_gpus(CLI::App& app, Outcome& out);
void add_coalesce(CLI::App& app, Outcome& out);    // cmd_coalesce.cpp
void add_banks(CLI::App& app, Outcome& out);       // cmd_banks.cpp
void add_validation(CLI::App& app, Outcome& out);  // cmd_validation.cpp
void add_roofline(CLI::App& app, Outcome& out);    // cmd_roofline.cpp
void add_advise(CLI::App& app, Outcome& out);      // cmd_advise.cpp
void add_ncu(CLI::App& app, Outcome& out);         // cmd_ncu.cpp
// `occ occupancy --ptxas FILE` (ptxas_table.cpp): occupancy of every kernel in a compiler log;
// FILE "-" reads stdin. base_request: the launch fields the user gave.
int run_ptxas_table(const std::string& path, const Result<json>& base_request, bool as_json);
// The rows of a ptxas or kernels answer (ptxas_table.cpp): one line per compilation, then its notes,
// what was skipped, the device functions and the diagnostics.
void print_kernel_table(const io::PtxasAnswer& a);
void add_kernels(CLI::App& app, Outcome& out);  // cmd_kernels.cpp
void add_check(CLI::App& app, Outcome& out);    // cmd_check.cpp
void add_memory(CLI::App& app, Outcome& out);   // cmd_memory.cpp: a kernel's PTX, access by access
void add_mcp(CLI::App& app, Outcome& out);      // cmd_mcp.cpp: the MCP server (docs/MCP.md)

// `occ coalesce` and `occ banks` (cmd_coalesce.cpp, cmd_banks.cpp): the same request fields.
struct MemoryFlags : RequestOptions {
    std::string warp;  // --warp: which warp the picture shows
};
// `occ coalesce` or `occ banks` (the same request fields) and --warp.
CLI::App* add_memory_command(CLI::App& app, std::string_view name, const char* help, MemoryFlags& o);
Result<int> pick_warp(int warps, int worst, const std::string& flag);

// Runs a memory command: --batch, or one answer printed as JSON or as the picture of one warp.
template <typename Answer, typename AnswerFn, typename Print>
int run_memory(const MemoryFlags& o, const char* kind, AnswerFn answer, Print print) {
    if (o.batch) return run_batch(kind, std::cin, std::cout, o.fields);
    Result<json> req = request_from(o.request);
    // With --expr, --warp picks the one warp the expression is evaluated for (the request's "warp").
    const bool expr = req && req->contains("expr");
    if (expr && !o.warp.empty()) (*req)["warp"] = o.warp;
    Result<Answer> a = req ? answer(*req) : Result<Answer>::fail(req.error);
    int warp = 0;
    if (a && !expr) {
        const auto w = pick_warp(static_cast<int>(a->result.warps.size()), a->result.worst_warp, o.warp);
        if (!w) a = Result<Answer>::fail(w.error);
        else warp = *w;
    }
    return emit(
        a, o.as_json, [](const Answer& x) { return io::to_json(x); }, [&](const Answer& x) { print(x, warp); });
}

// One typed answer from the flags: its JSON with --json, else `human`; an error in the answer itself
// (`error_of` non-empty: the model refused) is printed alone on stderr, or in the JSON, exit 2.
template <typename AnswerFn, typename Human, typename ErrorOf>
int run_answer(const RequestFlags& flags, bool as_json, AnswerFn answer, Human human, ErrorOf error_of) {
    const Result<json> req = request_from(flags);
    if (!req) return print_error(req.error, as_json);
    const auto a = answer(*req);
    if (!a) return print_error(a.error, as_json);
    const std::string err = error_of(*a);
    using io::to_json;  // found for the answer's type where it is declared (argument-dependent lookup)
    if (as_json) print_json(to_json(*a));
    else if (!err.empty()) std::cerr << "error: " << err << '\n';
    else human(*a);
    return err.empty() ? kExitOk : kExitUsage;
}

// A whole integer, decimal or 0x hex.
bool parse_long(const std::string& s, long long& v);

// Is stdout a terminal (for colour / unicode choices)?
bool stdout_is_tty();

}  // namespace occ::cli
