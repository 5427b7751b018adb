// occ/io/utf8.hpp — keeps user text that ends up in answers valid UTF-8.
// Answers are JSON, and nlohmann::json::dump() throws on invalid UTF-8 (the web JS API and the
// desktop app dump with the default handler), so any user text quoted in an error message must
// be cut on a character boundary and have bad bytes replaced.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace occ::io {

// True when `s` is well-formed UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF).
bool valid_utf8(std::string_view s);
// `s` with every byte that is not part of a well-formed sequence replaced by U+FFFD.
std::string make_valid_utf8(std::string_view s);
// At most `max_bytes` bytes of `s`, cut on a character boundary, made valid (for quoting input).
std::string utf8_prefix(std::string_view s, std::size_t max_bytes);

}  // namespace occ::io
