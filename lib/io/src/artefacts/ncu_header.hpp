// ncu_header.hpp — io-internal: the patterns of Nsight Compute's kernel headers and launch cells
// (ncu_header.cpp), for ncu_parse.cpp.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "occ/io/ncu.hpp"

namespace occ::io::ncu_detail {

std::string trim(std::string_view s);  // without std::isspace characters at either end

// "(256, 1, 1)" -> {256, 1, 1}: the first such triple in s.
std::optional<std::array<std::int64_t, 3>> dims(std::string_view s);
// The first "8.6" in s -> 8, 6, stored even when it is not a compute capability (then false).
bool read_cc(std::string_view s, int& major, int& minor);
// A kernel header ("  name (4096, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 8.6" or the
// older "  name, 2021-Mar-04 10:11:12, Context 1, Stream 7") into k's name, launch, device and CC.
bool kernel_header(const std::string& line, NcuKernel& k);

}  // namespace occ::io::ncu_detail
