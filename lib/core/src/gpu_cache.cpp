// gpu_cache.cpp — find_gpu_cached: one lookup per distinct spelling of a GPU's name.
#include "occ/gpu_cache.hpp"

#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>

#include "occ/occupancy.hpp"

namespace occ {
namespace {

struct Cache {
    std::mutex mutex;
    std::deque<Device> devices;                                  // one per canonical name; never erased
    std::unordered_map<std::string, const Device*> by_spelling;  // bounded: cleared when full
    std::string key;                                             // the looked-up name (kept to reuse its buffer)
};

Cache& cache() {
    static Cache c;
    return c;
}

// Spellings remembered at once; past it the map starts again (the devices stay).
constexpr std::size_t kMaxSpellings = 4096;

}  // namespace

const Device* find_gpu_cached(std::string_view name) {
    Cache& c = cache();
    const std::lock_guard<std::mutex> lock(c.mutex);
    std::string& key = c.key;
    key.assign(name);
    if (auto it = c.by_spelling.find(key); it != c.by_spelling.end()) return it->second;
    const std::optional<Device> found = find_gpu(name);
    if (!found) return nullptr;
    const Device* device = nullptr;
    for (const Device& d : c.devices)
        if (d.name == found->name && d.sm_count == found->sm_count) device = &d;
    if (!device) {
        device = &c.devices.emplace_back(*found);
        detail::occupancy_rules_fixed(device->arch);  // never changed nor freed: occupancy may find it by address
    }
    if (c.by_spelling.size() >= kMaxSpellings) c.by_spelling.clear();
    c.by_spelling.emplace(key, device);
    return device;
}

}  // namespace occ
