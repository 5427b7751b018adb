// occupancy_tables.cpp — keeping the occupancy model's per-architecture tables (see
// occupancy_tables.hpp): publishing them, counting misses, the rules fixed by address.
#include "occupancy_tables.hpp"

#include <mutex>

#include "lane_rank.hpp"  // OCC_HOT_CLONES

namespace occ::detail {

const Tables* g_tables[kSlots] = {};
std::atomic<int> g_published{0};
Fixed g_fixed[kSlots];

namespace {

std::mutex g_build_mutex;  // building, and the counts below
struct Seen {
    unsigned char key[kKeyBytes];
    int count;
};
Seen g_seen[4] = {};
int g_seen_next = 0;

// The tables for these rules: the published ones with the same bytes, else new ones (published
// where there is room). Under g_build_mutex.
const Tables* find_or_build(const ArchRules& a) {
    const int n = g_published.load(std::memory_order_relaxed);
    for (int i = 0; i < n; ++i)
        if (same_key(g_tables[i]->key, a)) return g_tables[i];
    const Tables* t = build_tables(a);
    if (n < kSlots) {
        g_tables[n] = t;
        g_published.store(n + 1, std::memory_order_release);
    }
    return t;
}

}  // namespace

// Misses while another thread builds are not counted.
void note_miss(const ArchRules& a) {
    const std::unique_lock<std::mutex> lock(g_build_mutex, std::try_to_lock);
    if (!lock.owns_lock()) return;
    const int n = g_published.load(std::memory_order_relaxed);
    if (n >= kSlots) return;
    for (int i = 0; i < n; ++i)
        if (same_key(g_tables[i]->key, a)) return;
    Seen* s = nullptr;
    for (Seen& e : g_seen)
        if (e.count > 0 && std::memcmp(e.key, &a, kKeyBytes) == 0) s = &e;
    if (!s) {
        s = &g_seen[g_seen_next++ % 4];
        std::memcpy(s->key, &a, kKeyBytes);
        s->count = 0;
    }
    if (++s->count < kBuildAfter) return;
    s->count = 0;
    (void)find_or_build(a);
}

OCC_HOT_CLONES const Tables* tables_by_bytes(const ArchRules& a) {
    const int n = g_published.load(std::memory_order_acquire);
    for (int i = 0; i < n; ++i)
        if (same_key(g_tables[i]->key, a)) return g_tables[i]->usable ? g_tables[i] : nullptr;
    if (n < kSlots) note_miss(a);
    return nullptr;
}

void occupancy_rules_fixed(const ArchRules& a) {
    const std::lock_guard<std::mutex> lock(g_build_mutex);
    Fixed& f = g_fixed[fixed_slot(a)];
    if (f.rules.load(std::memory_order_relaxed) != nullptr) return;
    f.tables = find_or_build(a);
    f.rules.store(&a, std::memory_order_release);
}

bool occupancy_tables_full() { return g_published.load(std::memory_order_acquire) >= kSlots; }

bool occupancy_tables_ready(const ArchRules& a) {
    const Fixed& f = g_fixed[fixed_slot(a)];
    if (f.rules.load(std::memory_order_acquire) == &a) return f.tables->usable;
    const int n = g_published.load(std::memory_order_acquire);
    for (int i = 0; i < n; ++i)
        if (same_key(g_tables[i]->key, a)) return g_tables[i]->usable;
    return false;
}

}  // namespace occ::detail
