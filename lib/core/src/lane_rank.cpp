// lane_rank.cpp — see lane_rank.hpp: the plain versions, the sorting networks, and each primitive's
// version table, picked through cpu_dispatch.hpp. The x86 versions are in lane_rank_avx2.cpp and
// lane_rank_gfni.cpp (declared in lane_rank_x86.hpp).
//
// [SECTION] Plain versions
// [SECTION] Sorting networks
// [SECTION] Version tables and entry points
#include "lane_rank.hpp"

#include <algorithm>
#include <bit>
#include <limits>

#include "lane_rank_x86.hpp"

namespace occ::detail {
namespace {

// [SECTION] Plain versions

int dense_rank32_plain(const std::array<std::int32_t, 32>& key, std::array<std::uint8_t, 32>& below) {
    std::array<std::uint32_t, 32> rank{};  // keys strictly smaller, duplicates counted
    for (std::size_t j = 0; j < 32; ++j)
        for (std::size_t i = 0; i < 32; ++i) rank[i] += key[j] < key[i];
    std::uint32_t firsts = 0;  // bit r: some key has rank r (the first of its equals in sorted order)
    for (std::size_t i = 0; i < 32; ++i) firsts |= 1u << rank[i];
    for (std::size_t i = 0; i < 32; ++i) below[i] = static_cast<std::uint8_t>(pop32(firsts & ((1u << rank[i]) - 1u)));
    return pop32(firsts);
}

void one_word_banks32_plain(const std::array<std::uint32_t, 32>& word, std::array<std::int8_t, 32>& lane_bank,
                            std::array<std::uint32_t, 32>& bank_lanes, std::array<std::uint8_t, 32>& lanes_in, OneWordBanks& s) {
    std::array<std::uint32_t, 32> lanes{};
    std::array<std::uint8_t, 32> count{};
    for (std::size_t i = 0; i < 32; ++i) {
        const std::uint32_t b = word[i] % 32;
        lane_bank[i] = static_cast<std::int8_t>(b);
        lanes[b] |= 1u << i;
        ++count[b];
    }
    std::uint32_t most = 0;
    std::uint32_t shared = 0;
    for (std::size_t b = 0; b < 32; ++b) {
        most = std::max(most, static_cast<std::uint32_t>(count[b]));
        shared |= count[b] > 1 ? lanes[b] : 0u;
    }
    bank_lanes = lanes;
    lanes_in = count;
    s.most = most;
    s.shared = shared;
    s.distinct = most <= 1 ? 1u : 0u;  // shared banks: the caller ranks the words
}

// A sector's key relative to the first active lane's; false when one is 2^30 sectors or more away.
bool sector_keys_plain(const std::array<std::uint64_t, 32>& addr, std::uint64_t amask, std::uint32_t active,
                       std::array<std::int32_t, 32>& key) {
    const std::uint64_t ref = (addr[static_cast<std::size_t>(std::countr_zero(active | 0x80000000u))] & amask) >> 5;
    for (std::size_t i = 0; i < 32; ++i) {
        const auto rel = static_cast<std::int64_t>(((addr[i] & amask) >> 5) - ref);
        const bool on = (active >> i) & 1u;
        if (on && (rel < -kSectorKeyReach || rel >= kSectorKeyReach)) return false;
        key[i] = on ? static_cast<std::int32_t>(rel) : std::numeric_limits<std::int32_t>::max();
    }
    return true;
}

int sector_dense_rank32_plain(const std::array<std::uint64_t, 32>& addr, std::uint64_t amask, std::uint32_t active,
                              std::array<std::uint8_t, 32>& below) {
    std::array<std::int32_t, 32> key;
    if (!sector_keys_plain(addr, amask, active, key)) return -1;
    return dense_rank32_plain(key, below);
}

// full_sector_rank32 without the sorted outputs: the ranks of sector_dense_rank32.
int full_sector_ranks_only(const std::array<std::uint64_t, 32>& addr, std::uint64_t amask, std::array<std::uint8_t, 32>& below,
                           std::array<std::uint64_t, 32>& /*sector_addr*/, int& lines) {
    lines = 0;
    return sector_dense_rank32(addr, amask, 0xffffffffu, below);
}

// sorted_sectors16 without AVX2: not done here (the caller sorts).
bool sorted_sectors16_none(const std::array<std::uint64_t, 32>&, std::uint64_t, std::uint32_t, std::uint64_t, SortedSectors&) {
    return false;
}

// [SECTION] Sorting networks

// Batcher's odd-even merge sort on N slots (Knuth, TAOCP vol. 3, 5.3.4, "Algorithm M"): the
// compare-exchange pairs, made once at compile time.
struct Exchange {
    std::uint8_t lo, hi;
};
template <int N>
constexpr int batcher_size() {
    int c = 0;
    for (int p = 1; p < N; p <<= 1)
        for (int k = p; k >= 1; k >>= 1)
            for (int j = k % p; j + k < N; j += 2 * k)
                for (int i = 0; i < k && i + j + k < N; ++i) c += (i + j) / (2 * p) == (i + j + k) / (2 * p);
    return c;
}
template <int N>
constexpr std::array<Exchange, batcher_size<N>()> batcher() {
    std::array<Exchange, batcher_size<N>()> net{};
    std::size_t c = 0;
    for (int p = 1; p < N; p <<= 1)
        for (int k = p; k >= 1; k >>= 1)
            for (int j = k % p; j + k < N; j += 2 * k)
                for (int i = 0; i < k && i + j + k < N; ++i)
                    if ((i + j) / (2 * p) == (i + j + k) / (2 * p))
                        net[c++] = {static_cast<std::uint8_t>(i + j), static_cast<std::uint8_t>(i + j + k)};
    return net;
}
static_assert(batcher_size<8>() == 19 && batcher_size<16>() == 63);

template <int N>
void sort_network(std::array<std::uint64_t, 32>& key, int n) {
    static constexpr auto kNet = batcher<N>();
    for (int i = n; i < N; ++i) key[static_cast<std::size_t>(i)] = ~std::uint64_t{0};
#pragma GCC unroll 64
    for (const Exchange& e : kNet) {
        const std::uint64_t a = key[e.lo], b = key[e.hi];
        key[e.lo] = a < b ? a : b;
        key[e.hi] = a < b ? b : a;
    }
}

// [SECTION] Version tables and entry points

// Each primitive's versions, plain first (the level a test names is an index here; see the _level
// functions in lane_rank.hpp).
using DenseRank = int(const std::array<std::int32_t, 32>&, std::array<std::uint8_t, 32>&);
constexpr Version<DenseRank> kDenseRank[] = {
    {CpuLevel::plain, dense_rank32_plain},
#ifdef OCC_X86_SIMD
    {CpuLevel::avx2, dense_rank32_avx2},
#endif
};

using SectorDenseRank = int(const std::array<std::uint64_t, 32>&, std::uint64_t, std::uint32_t, std::array<std::uint8_t, 32>&);
constexpr Version<SectorDenseRank> kSectorDenseRank[] = {
    {CpuLevel::plain, sector_dense_rank32_plain},
#ifdef OCC_X86_SIMD
    {CpuLevel::avx2, sector_dense_rank32_avx2},
#endif
};

using FullSectorRank = int(const std::array<std::uint64_t, 32>&, std::uint64_t, std::array<std::uint8_t, 32>&,
                           std::array<std::uint64_t, 32>&, int&);
constexpr Version<FullSectorRank> kFullSectorRank[] = {
    {CpuLevel::plain, full_sector_ranks_only},
#ifdef OCC_X86_SIMD
    {CpuLevel::avx2_gfni, full_sector_rank32_gfni},
    {CpuLevel::avx512_gfni, full_sector_rank32_512},
#endif
};

using SortedSectors16 = bool(const std::array<std::uint64_t, 32>&, std::uint64_t, std::uint32_t, std::uint64_t, SortedSectors&);
constexpr Version<SortedSectors16> kSortedSectors16[] = {
    {CpuLevel::plain, sorted_sectors16_none},
#ifdef OCC_X86_SIMD
    {CpuLevel::avx2, sorted_sectors16_avx2},
#endif
};

using OneWordBanks32 = void(const std::array<std::uint32_t, 32>&, std::array<std::int8_t, 32>&, std::array<std::uint32_t, 32>&,
                            std::array<std::uint8_t, 32>&, OneWordBanks&);
constexpr Version<OneWordBanks32> kOneWordBanks[] = {
    {CpuLevel::plain, one_word_banks32_plain},
#ifdef OCC_X86_SIMD
    {CpuLevel::avx2, one_word_banks32_avx2},
    {CpuLevel::avx2_gfni, one_word_banks32_gfni},
#endif
};

}  // namespace

void sort_keys(std::array<std::uint64_t, 32>& key, int n) {
    if (n <= 8) sort_network<8>(key, n);
    else if (n <= 16) sort_network<16>(key, n);
    else std::sort(key.begin(), key.begin() + n);
}

int dense_rank32_level() { return best_index(kDenseRank); }
int dense_rank32_at(int level, const std::array<std::int32_t, 32>& key, std::array<std::uint8_t, 32>& below) {
    return pick(kDenseRank, level)(key, below);
}
int dense_rank32(const std::array<std::int32_t, 32>& key, std::array<std::uint8_t, 32>& below) {
    return Dispatch<kDenseRank>::run(key, below);
}

int sector_dense_rank32_level() { return best_index(kSectorDenseRank); }
int sector_dense_rank32_at(int level, const std::array<std::uint64_t, 32>& addr, std::uint64_t amask, std::uint32_t active,
                           std::array<std::uint8_t, 32>& below) {
    return pick(kSectorDenseRank, level)(addr, amask, active, below);
}
int sector_dense_rank32(const std::array<std::uint64_t, 32>& addr, std::uint64_t amask, std::uint32_t active,
                        std::array<std::uint8_t, 32>& below) {
    return Dispatch<kSectorDenseRank>::run(addr, amask, active, below);
}

int full_sector_rank32_level() { return best_index(kFullSectorRank); }
int full_sector_rank32_at(int level, const std::array<std::uint64_t, 32>& addr, std::uint64_t amask, std::array<std::uint8_t, 32>& below,
                          std::array<std::uint64_t, 32>& sector_addr, int& lines) {
    return pick(kFullSectorRank, level)(addr, amask, below, sector_addr, lines);
}
int full_sector_rank32(const std::array<std::uint64_t, 32>& addr, std::uint64_t amask, std::array<std::uint8_t, 32>& below,
                       std::array<std::uint64_t, 32>& sector_addr, int& lines) {
    return Dispatch<kFullSectorRank>::run(addr, amask, below, sector_addr, lines);
}

int sorted_sectors16_level() { return best_index(kSortedSectors16); }
bool sorted_sectors16_at(int level, const std::array<std::uint64_t, 32>& addr, std::uint64_t amask, std::uint32_t active, std::uint64_t ab,
                         SortedSectors& out) {
    if (active == 0 || pop32(active) > 16) return false;
    return pick(kSortedSectors16, level)(addr, amask, active, ab, out);
}
bool sorted_sectors16(const std::array<std::uint64_t, 32>& addr, std::uint64_t amask, std::uint32_t active, std::uint64_t ab,
                      SortedSectors& out) {
    if (active == 0 || pop32(active) > 16) return false;
    return Dispatch<kSortedSectors16>::run(addr, amask, active, ab, out);
}

int one_word_banks32_level() { return best_index(kOneWordBanks); }
void one_word_banks32_at(int level, const std::array<std::uint32_t, 32>& word, std::array<std::int8_t, 32>& lane_bank,
                         std::array<std::uint32_t, 32>& bank_lanes, std::array<std::uint8_t, 32>& lanes_in, OneWordBanks& out) {
    pick(kOneWordBanks, level)(word, lane_bank, bank_lanes, lanes_in, out);
}
void one_word_banks32(const std::array<std::uint32_t, 32>& word, std::array<std::int8_t, 32>& lane_bank,
                      std::array<std::uint32_t, 32>& bank_lanes, std::array<std::uint8_t, 32>& lanes_in, OneWordBanks& out) {
    Dispatch<kOneWordBanks>::run(word, lane_bank, bank_lanes, lanes_in, out);
}

}  // namespace occ::detail
