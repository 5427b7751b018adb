// occ/limiter.hpp — what a limiter of either vendor's table is to the faces: its bit in the
// vendor's result, a JSON key, its words in sentences and headings, the rule in general terms, the
// role it plays (a resource of the same role keeps one colour on both vendors' pages) and whether it
// limits only the effective occupancy. occ::kLimiters (CUDA) and occ::amd::kAmdLimiters extend it
// with the result member that holds each limit; the faces draw a limit from this part alone.
#pragma once
#include <bit>
#include <cstddef>
#include <string>

#include "occ/text.hpp"

namespace occ {

// The resource a limiter stands for, across vendors: AMD's wave slots are CUDA's warp slots, VGPRs
// its registers, LDS its shared memory, workgroup slots its block slots. Scalar registers are AMD's
// alone; barriers, virtual resources and Tensor Memory CUDA's.
enum class LimiterRole : unsigned char { warps, registers, shared_memory, blocks, barriers, virtual_resources, tmem, scalar_registers };

struct LimiterKey {
    unsigned bit;       // the bit in the vendor's `limiters` mask (entry i of its table is 1 << i)
    const char* key;    // JSON key and machine name: "shared_memory", "vgprs"
    const char* label;  // in sentences: "limited by shared memory", "limited by wave slots"
    const char* title;  // a row heading: "Shared memory", "Wave slots"
    const char* rule;   // the rule in general terms (tooltips), independent of the inputs
    LimiterRole role;
    // An effective limit: blocks beyond it are resident but wait (Tensor Memory). It never sets the
    // resident count or "limiters".
    bool effective = false;
};

namespace detail {
template <typename Table>
constexpr bool bits_in_order(const Table& t) {
    for (std::size_t i = 0; i < std::size(t); ++i)
        if (t[i].bit != (1u << i)) return false;
    return true;
}
}  // namespace detail

// The entries of `table` whose bits are in `mask`, joined by `sep` in the table's order, by their
// label (running text) or their title (headings): "registers, shared memory", "VGPRs and LDS".
template <typename Table>
std::string limiter_words(const Table& table, unsigned mask, const char* sep, bool titles = false) {
    std::string s;
    for (const LimiterKey& e : table)
        if (mask & e.bit) join_into(s, sep, titles ? e.title : e.label);
    return s;
}

// The entry of a bit in a table whose entry i is bit 1 << i (nullptr for 0 or a bit beyond it).
template <typename Table>
constexpr const LimiterKey* limiter_key(const Table& table, unsigned bit) {
    if (bit == 0 || (bit & (bit - 1)) != 0) return nullptr;
    const auto i = static_cast<std::size_t>(std::countr_zero(bit));
    return i < std::size(table) ? &table[i] : nullptr;
}

}  // namespace occ
