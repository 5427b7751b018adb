// cli.hpp — what the subcommand files share. Each subcommand lives in its own cmd_*.cpp and
// registers itself from main.cpp; all arithmetic happens in occ::core through occ::io's JSON API.
#pragma once
#include <functional>
#include <iosfwd>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

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
int run_batch(const std::string& kind, std::istream& in, std::ostream& out);

// Prints a response: JSON (one line, or pretty when `pretty`) or via `human` when not json.
// Returns kExitUsage when the response carries an error.
int emit(const json& response, bool as_json, const std::function<void(const json&)>& human);

// Registration functions, one per cmd_*.cpp.
void add_occupancy(CLI::App& app, Outcome& out);
void add_gpus(CLI::App& app, Outcome& out);
void add_coalesce(CLI::App& app, Outcome& out);   // cmd_coalesce.cpp
void add_banks(CLI::App& app, Outcome& out);      // cmd_banks.cpp
void add_validation(CLI::App& app, Outcome& out); // cmd_validation.cpp
void add_roofline(CLI::App& app, Outcome& out);   // cmd_roofline.cpp
void add_advise(CLI::App& app, Outcome& out);     // cmd_advise.cpp
// `occ occupancy --ptxas FILE` (ptxas_table.cpp): occupancy of every kernel in a compiler log;
// FILE "-" reads stdin. base_request builds the occupancy fields the user gave (may throw RequestError).
int run_ptxas_table(const std::string& path, const std::function<json()>& base_request, bool as_json);

// Is stdout a terminal (for colour / unicode choices)?
bool stdout_is_tty();

}  // namespace occ::cli
