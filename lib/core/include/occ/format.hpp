// occ/format.hpp — the one place numbers become text, so the CLI, the GUI and JSON agree.
#pragma once
#include <cstdint>
#include <string>

namespace occ {

// 49152 -> "48 KiB", 50176 -> "49 KiB", 1000 -> "1000 B", 1048576 -> "1 MiB", 49280 -> "48.125 KiB".
std::string format_bytes(std::int64_t bytes);
// 0.5 -> "50%", 0.6667 -> "66.7%"; digits after the point only when needed.
std::string format_percent(double fraction);
// 262144 -> "262,144".
std::string format_count(std::int64_t n);
// A double with up to `digits` significant decimals, trailing zeros removed: 156.0 -> "156".
std::string format_number(double v, int digits = 3);

}  // namespace occ
