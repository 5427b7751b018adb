// common.cpp — batch loop and output helpers.
#include <iostream>
#include <optional>
#include <string>

#include <unistd.h>

#include "cli.hpp"
#include "occ/io/api.hpp"
#include "occ/io/batch.hpp"

namespace occ::cli {

bool stdout_is_tty() { return ::isatty(STDOUT_FILENO) != 0; }

int run_batch(const std::string& kind, std::istream& in, std::ostream& out, const std::string& fields) {
    std::optional<io::FieldSelection> selection;
    if (!fields.empty()) {
        Result<io::FieldSelection> sel = io::FieldSelection::parse(kind, fields);
        if (!sel) {
            std::cerr << "error: " << sel.error << '\n';
            return kExitUsage;
        }
        selection = std::move(*sel);
    }
    std::ios::sync_with_stdio(false);
    std::string line;
    std::string text;  // answers waiting to be written; flushed every 64 KB
    text.reserve(1 << 17);
    io::BatchAnswerer answerer(selection ? &*selection : nullptr);
    bool any_error = false;
    std::size_t n = 0;
    while (std::getline(in, line)) {
        ++n;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) {
            const json res = json{{"error", "line " + std::to_string(n) + ": empty line (expected one JSON object)"}};
            text += res.dump(-1, ' ', false, json::error_handler_t::replace);
            any_error = true;
        } else {
            any_error |= answerer.answer(kind, line, text);
        }
        text += '\n';
        if (text.size() >= (1 << 16)) {
            out.write(text.data(), static_cast<std::streamsize>(text.size()));
            text.clear();
        }
    }
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.flush();
    return any_error ? kExitBatchErrors : kExitOk;
}

void print_json(const json& j) { std::cout << j.dump(2, ' ', false, json::error_handler_t::replace) << '\n'; }

int print_error(const std::string& message, bool as_json) {
    if (as_json) print_json(json{{"error", message}});
    else std::cerr << "error: " << message << '\n';
    return kExitUsage;
}

int emit_response(const json& response, bool as_json, const std::function<void(const json&)>& human) {
    const bool failed = response.contains("error") && !response["error"].is_null();
    if (as_json) print_json(response);
    else if (failed) std::cerr << "error: " << response["error"].get<std::string>() << '\n';
    else human(response);
    return failed ? kExitUsage : kExitOk;
}

}  // namespace occ::cli
