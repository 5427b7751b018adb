// launch_helpers.hpp — devices and launches the occupancy-side tests build (test_occupancy.cpp,
// test_advisor.cpp, test_clusters.cpp).
#pragma once
#include <doctest/doctest.h>

#include <cstdint>

#include "occ/device.hpp"
#include "occ/io/api.hpp"
#include "occ/occupancy.hpp"

namespace occ::test {

// A GPU from the database by any spelling find_gpu takes; the test fails if there is none.
inline Device gpu(const char* name) {
    auto d = find_gpu(name);
    REQUIRE(d.has_value());
    return *d;
}
inline KernelResources regs(int r) {
    KernelResources k;
    k.regs_per_thread = r;
    return k;
}
inline LaunchConfig threads(int t, std::int64_t smem_dynamic = 0) {
    LaunchConfig l;
    l.threads = t;
    l.smem_dynamic = smem_dynamic;
    return l;
}

}  // namespace occ::test
