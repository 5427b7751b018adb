// api_memory_read.hpp — the memory requests' field readers, shared by the CUDA reader (api_memory.cpp)
// and the AMD banks reader (api_amd_banks.cpp). Internal to lib/io.
#pragma once
#include <cstdint>
#include <string_view>

#include "occ/io/api.hpp"
#include "occ/io/fields.hpp"

namespace occ::io::detail {

// A non-negative integer given as a JSON number or as a decimal / 0x-hex string.
bool parse_u64(const json& v, std::uint64_t& out);
// Field `key` as such an integer, at most `hi` (`def` when absent); else a RequestError naming it.
std::uint64_t read_u64(FieldReader& f, std::string_view key, std::uint64_t hi, std::uint64_t def, const char* what);
// Everything of a memory request but the device: the width, op and the pattern. With
// lanes_read_by_caller, "addresses" and "active_lanes" are left to the caller (AMD waves of 64
// lanes), which still decide the pattern kind.
void read_memory_pattern(FieldReader& f, MemoryRequest& r, bool lanes_read_by_caller);

}  // namespace occ::io::detail
