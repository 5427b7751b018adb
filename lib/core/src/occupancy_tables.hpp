// occupancy_tables.hpp — (private) the per-architecture tables of the occupancy model: what they
// hold, and finding them for a query (occupancy.cpp builds and reads them; occupancy_tables.cpp
// keeps them).
//
// compute_limits() re-reads every rule from ArchRules and branches on the query's values; most
// callers ask about the same few architectures again and again (a batch, a sweep, the app). Rules
// seen kBuildAfter times get Tables: the per-register and per-warp-count figures worked out once
// by compute_limits() itself, so the common query (default carveout and cache preference, no
// partitioned caching, kernel maximum and virtual resources left unset, inputs in range) is a few
// loads, one multiply per division and the shared-memory tail. The key is the bytes of the
// ArchRules fields the model reads: byte-equal rules give the same answers. Tables are never freed
// or changed once published (kSlots at most for the process); other rules keep compute_limits().
// Rules that never change (find_gpu_cached's devices) are also found by address.
#pragma once
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "occ/occupancy.hpp"

namespace occ::detail {

inline constexpr std::size_t kKeyBytes = offsetof(ArchRules, source);  // every field the model reads
// The key is every byte of ArchRules before `source`, the one field the occupancy count never
// reads, which must stay last: a field added anywhere else is in the key (its tables follow it),
// and one added after it fails here instead of caching wrong answers. (Only the struct's tail
// padding may follow `source`: on wasm32 a pointer is 4 bytes and the 8-byte fields round the size.)
static_assert(sizeof(ArchRules) - (offsetof(ArchRules, source) + sizeof(const char*)) < alignof(ArchRules),
              "ArchRules: only source may follow the occupancy tables' key; add new rules before it");
inline constexpr int kSlots = 64;
inline constexpr int kBuildAfter = 8;

struct Tables {
    explicit Tables(const ArchRules& a) : smem_rule(a) {}
    alignas(16) unsigned char key[kKeyBytes] = {};
    bool usable = false;
    int max_threads = 0, max_regs = 0, unit_shift = 0, max_warps = 0;
    std::int64_t reserved = 0, unit = 1;
    std::int64_t preferred = 0;  // preferred_smem() for the default carveout and cache preference
    SmemLimitRule smem_rule;
    std::array<int, 33> warps{}, rounded_warps{};       // by warps per block: the warp limit; the count rounded to sub-partitions
    std::array<int, kMaxNamedBarriers + 1> barriers{};  // by named barriers: their limit
    std::array<std::uint16_t, 256> per_warp{};          // by registers per thread: registers allocated per warp
    std::array<std::uint16_t, 256> warps_total{};       // ... and the warps the register file holds (0 over the block limit)
    std::vector<int> smem;                              // by allocation units up to the preference: its shared-memory limit
};

// Built by the model itself (occupancy.cpp); usable = false where the tables cannot stand for the rules.
const Tables* build_tables(const ArchRules& a);

// Byte-equal in the key's range. Written as a loop over words so each clone of its callers
// (OCC_HOT_CLONES) compares with its widest vectors; the first word pair (compute capability)
// turns most other rules away at once.
inline bool same_key(const unsigned char* key, const ArchRules& a) {
    const auto* p = reinterpret_cast<const unsigned char*>(&a);
    const auto word = [](const unsigned char* b, std::size_t i) {
        std::uint64_t v;
        std::memcpy(&v, b + i * 8, 8);
        return v;
    };
    if (word(key, 0) != word(p, 0)) return false;
    std::uint64_t diff = 0;
    for (std::size_t i = 1; i < kKeyBytes / 8; ++i) diff |= word(key, i) ^ word(p, i);
    return diff == 0 && std::memcmp(key + kKeyBytes / 8 * 8, p + kKeyBytes / 8 * 8, kKeyBytes % 8) == 0;
}

extern const Tables* g_tables[kSlots];  // [0, g_published) are built and never change
extern std::atomic<int> g_published;

// Rules that never change, found by address alone: a direct-mapped table of kSlots entries, each
// written once (a later address landing on a taken entry keeps the comparison by bytes).
struct Fixed {
    std::atomic<const ArchRules*> rules{nullptr};
    const Tables* tables = nullptr;  // written before `rules`
};
extern Fixed g_fixed[kSlots];
inline std::size_t fixed_slot(const ArchRules& a) { return (reinterpret_cast<std::uintptr_t>(&a) >> 4) % kSlots; }

// Counts a miss; builds the rules' tables once they have been seen kBuildAfter times.
void note_miss(const ArchRules& a);

// The tables for rules not fixed by address: compared by bytes (out of line, so the callers' hot
// path keeps to scalar registers).
const Tables* tables_by_bytes(const ArchRules& a);

// The tables for these rules, or nullptr (none yet, or unusable).
[[gnu::always_inline]] inline const Tables* tables_for(const ArchRules& a) {
    const Fixed& f = g_fixed[fixed_slot(a)];
    if (f.rules.load(std::memory_order_acquire) == &a) return f.tables->usable ? f.tables : nullptr;
    return tables_by_bytes(a);
}

}  // namespace occ::detail
