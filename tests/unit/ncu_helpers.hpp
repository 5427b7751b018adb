// ncu_helpers.hpp — what the Nsight Compute tests share: a fixture's text and one line's comparison.
#pragma once
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "occ/io/ncu.hpp"

namespace ncu_test {

// tests/fixtures/ncu/<name>, whole.
inline std::string fixture(const std::string& name) {
    std::ifstream f(std::string(OCC_SOURCE_DIR) + "/tests/fixtures/ncu/" + name, std::ios::binary);
    REQUIRE(f);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// The comparison of `field` in a kernel's answer (nullptr when the report has no such line).
inline const occ::io::NcuDifference* difference(const occ::io::NcuKernelAnswer& k, const std::string& field) {
    for (const auto& d : k.differences)
        if (d.field == field) return &d;
    return nullptr;
}

}  // namespace ncu_test
