// fuzz_common.hpp — shared by the libFuzzer targets in tests/fuzz (and their corpus replay driver).
// A finding is anything that aborts: a sanitizer report, an uncaught exception, or a FUZZ_CHECK.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#define FUZZ_CHECK(cond, what)                                                                                                   \
    do {                                                                                                                         \
        if (!(cond)) {                                                                                                           \
            std::fprintf(stderr, "FUZZ_CHECK failed at %s:%d: %s (%s)\n", __FILE__, __LINE__, #cond, std::string(what).c_str()); \
            std::abort();                                                                                                        \
        }                                                                                                                        \
    } while (0)

namespace occ::fuzz {

using json = nlohmann::ordered_json;

// Every response must serialise as strict JSON (valid UTF-8): the web JS API dumps it with the
// default (throwing) error handler. Returns the text.
inline std::string dump_strict(const json& j) {
    try {
        return j.dump();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "response is not serialisable as strict JSON: %s\n", e.what());
        std::abort();
    }
}

// Splits "a, b, c".
inline std::vector<std::string> split_list(std::string_view s) {
    std::vector<std::string> out;
    while (!s.empty()) {
        const auto c = s.find(',');
        std::string_view part = s.substr(0, c);
        while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
        while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
        if (!part.empty()) out.emplace_back(part);
        if (c == std::string_view::npos) break;
        s.remove_prefix(c + 1);
    }
    return out;
}

}  // namespace occ::fuzz
