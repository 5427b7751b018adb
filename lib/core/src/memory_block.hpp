// memory_block.hpp — (private) what analyze_global_block and analyze_banks_block share.
#pragma once
#include <string>
#include <utility>

#include "occ/coalescing.hpp"

namespace occ::detail {

// A block analysis starts the same way for both models: refuse what the model does not cover for
// this architecture (`model_refusal`, "" when it does) or an unusable pattern (check_pattern),
// naming the field; else make room for one result per warp. False when refused (b.error set).
template <class BlockResult>
bool start_block(BlockResult& b, std::string model_refusal, const AccessPattern& p) {
    b.error = model_refusal.empty() ? check_pattern(p) : std::move(model_refusal);
    if (!b.error.empty()) return false;
    b.warps.reserve(static_cast<std::size_t>(p.warps()));
    return true;
}

}  // namespace occ::detail
