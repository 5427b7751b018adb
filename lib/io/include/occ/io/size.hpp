// occ/io/size.hpp — byte sizes as users type them: "48K", "48KiB", "48KB", "49152", "1.5M", "0x400".
#pragma once
#include <cstdint>
#include <string_view>

#include "occ/result.hpp"

namespace occ::io {

// K/KB/KiB = 1024, M/MB/MiB = 1024², G = 1024³ (shared-memory sizes are always binary in CUDA docs).
// Rejects negatives, garbage, fractions of a byte and anything above 2^40 bytes.
// `field` names the input in the error message.
Result<std::int64_t> parse_size(std::string_view text, std::string_view field = "size");

// A whole integer as C's strtoll / strtoull read it with base 0 ("42", "0x2a", "052"), the signed
// one with an optional '-' or '+'. False on an empty text, spaces, other characters or overflow.
bool parse_integer(std::string_view text, std::int64_t& out);
bool parse_unsigned(std::string_view text, std::uint64_t& out);

}  // namespace occ::io
