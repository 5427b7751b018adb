// occ/gpu_cache.hpp — named GPUs resolved once per distinct spelling.
//
// find_gpu() normalises the name and scans the database on every call; a batch of requests names
// the same few GPUs again and again. find_gpu_cached() answers a spelling it has seen from a map,
// and keeps one Device per GPU for the life of the process (the database is finite), so the
// pointer it returns stays valid and equal for every spelling of the same GPU. Thread-safe.
#pragma once
#include <string_view>

#include "occ/device.hpp"

namespace occ {

// The Device find_gpu(name) returns, or nullptr where find_gpu returns none (unknown or
// ambiguous names are not remembered: their error path asks the database again).
const Device* find_gpu_cached(std::string_view name);

}  // namespace occ
