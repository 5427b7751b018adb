// test_lane_rank.cpp — the memory models' private warp primitives (lib/core/src/lane_rank.hpp), every
// version this CPU can run (through the same picker the models use, cpu_dispatch.hpp) held to a plain
// reference written here: one_word_banks32, full_sector_rank32, dense_rank32, sector_dense_rank32 and
// sorted_sectors16. The models run only the best version the CPU has, so without this test the AVX2
// versions would go unchecked on a machine with GFNI.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <random>
#include <set>

#include "../../lib/core/src/lane_rank.hpp"

using occ::detail::OneWordBanks;

namespace {

struct Answer {
    std::array<std::int8_t, 32> lane_bank{};
    std::array<std::uint32_t, 32> bank_lanes{};
    std::array<std::uint8_t, 32> lanes_in{};
    OneWordBanks s;
};

// From the definition: bank = word % 32; a bank's lanes and their count; the largest count; the lanes
// that share their bank; whether the 32 words are distinct.
Answer reference(const std::array<std::uint32_t, 32>& word) {
    Answer a;
    for (std::size_t i = 0; i < 32; ++i) {
        const std::uint32_t b = word[i] % 32;
        a.lane_bank[i] = static_cast<std::int8_t>(b);
        a.bank_lanes[b] |= 1u << i;
        ++a.lanes_in[b];
    }
    for (std::size_t b = 0; b < 32; ++b) {
        a.s.most = std::max(a.s.most, static_cast<std::uint32_t>(a.lanes_in[b]));
        if (a.lanes_in[b] > 1) a.s.shared |= a.bank_lanes[b];
    }
    a.s.distinct = std::set<std::uint32_t>(word.begin(), word.end()).size() == 32 ? 1u : 0u;
    return a;
}

// One version's answer against the reference. `distinct` may only err towards "maybe not" (0) when
// two lanes share a bank; with no shared bank it is not worked out and reads 1.
void check(int level, const std::array<std::uint32_t, 32>& word) {
    Answer got;
    got.bank_lanes.fill(0xdeadbeefu);  // every entry must be written
    got.lanes_in.fill(0xee);
    occ::detail::one_word_banks32_at(level, word, got.lane_bank, got.bank_lanes, got.lanes_in, got.s);
    const Answer want = reference(word);
    CHECK(got.lane_bank == want.lane_bank);
    CHECK(got.bank_lanes == want.bank_lanes);
    CHECK(got.lanes_in == want.lanes_in);
    CHECK(got.s.most == want.s.most);
    CHECK(got.s.shared == want.s.shared);
    if (want.s.most <= 1) CHECK(got.s.distinct == 1u);
    else if (want.s.distinct == 0) CHECK(got.s.distinct == 0u);                                               // duplicates are never missed
    else if (level > 0 && *std::max_element(word.begin(), word.end()) < 65536u) CHECK(got.s.distinct == 1u);  // exact below 2^16 words
}

}  // namespace

TEST_CASE("one_word_banks32: every version equals the plain reference on random warps (gathers, duplicates, permutations)") {
    const int top = occ::detail::one_word_banks32_level();
    MESSAGE("one_word_banks32 versions on this CPU: 0.." << top << " (0 plain, 1 AVX2, 2 AVX2 + GFNI)");
    std::mt19937_64 rng(20261201);
    for (int level = 0; level <= top; ++level) {
        for (int iter = 0; iter < 20000; ++iter) {
            std::array<std::uint32_t, 32> word{};
            const int mode = iter % 6;
            const std::uint32_t span = mode == 5 ? 0x40000000u : 1u << (rng() % 20 + 5);  // 32 words .. 2^30
            std::array<std::uint32_t, 32> perm{};
            for (std::uint32_t i = 0; i < 32; ++i) perm[i] = i;
            std::shuffle(perm.begin(), perm.end(), rng);
            const auto base = static_cast<std::uint32_t>(rng() % 0x3fff0000u);
            for (std::size_t i = 0; i < 32; ++i) {
                switch (mode) {
                    case 0: word[i] = base + static_cast<std::uint32_t>(rng() % span); break;    // gather
                    case 1: word[i] = base + static_cast<std::uint32_t>(rng() % 8) * 37; break;  // few words, broadcasts
                    case 2: word[i] = base + perm[i]; break;                                     // a permutation: no shared bank
                    case 3:
                        word[i] = rng() % 2 ? perm[i] * 32u : 0x200000u + ((perm[i] * 32u) ^ 32u);
                        break;                                                           // one bank, distinct words whose folds collide
                    case 4: word[i] = static_cast<std::uint32_t>(rng() % 64); break;     // shared memory's first 256 bytes
                    default: word[i] = static_cast<std::uint32_t>(rng() % span); break;  // anywhere below 2^30
                }
                word[i] &= 0x3fffffffu;  // banks.cpp keeps words modulo 2^30
            }
            if (mode == 0 && iter % 12 == 0) word[rng() % 32] = word[rng() % 32];  // one duplicate in a gather
            check(level, word);
        }
    }
}

TEST_CASE("one_word_banks32: known warps") {
    const int top = occ::detail::one_word_banks32_level();
    for (int level = 0; level <= top; ++level) {
        CAPTURE(level);
        // Words 0..31: every bank once, no conflict.
        std::array<std::uint32_t, 32> w{};
        for (std::uint32_t i = 0; i < 32; ++i) w[i] = i;
        Answer a;
        occ::detail::one_word_banks32_at(level, w, a.lane_bank, a.bank_lanes, a.lanes_in, a.s);
        CHECK(a.s.most == 1u);
        CHECK(a.s.shared == 0u);
        CHECK(a.bank_lanes[5] == 1u << 5);
        // A column of a 32 x 32 float tile: word 32 * i, all on bank 0, 32 distinct words (32-way).
        for (std::uint32_t i = 0; i < 32; ++i) w[i] = 32 * i;
        occ::detail::one_word_banks32_at(level, w, a.lane_bank, a.bank_lanes, a.lanes_in, a.s);
        CHECK(a.s.most == 32u);
        CHECK(a.s.shared == 0xffffffffu);
        CHECK(a.bank_lanes[0] == 0xffffffffu);
        CHECK(a.lanes_in[0] == 32);
        CHECK(a.lanes_in[1] == 0);
        if (level > 0) CHECK(a.s.distinct == 1u);  // the plain version leaves shared banks to the caller's rank
        // Lanes 0 and 1 on the same word: never "distinct".
        w[1] = w[0];
        occ::detail::one_word_banks32_at(level, w, a.lane_bank, a.bank_lanes, a.lanes_in, a.s);
        CHECK(a.s.distinct == 0u);
        CHECK(a.s.most == 32u);
    }
}

TEST_CASE("full_sector_rank32: every version's ranks, sorted sector addresses and lines equal a reference (wide gathers, shared sectors)") {
    const int top = occ::detail::full_sector_rank32_level();
    MESSAGE("full_sector_rank32 versions on this CPU: 0.." << top << " (0 ranks only, 1 sorted with AVX2 + GFNI, 2 with AVX-512)");
    std::mt19937_64 rng(20261206);
    const std::uint64_t amask = (std::uint64_t{1} << 56) - 4;  // 4-byte accesses
    for (int level = 0; level <= top; ++level) {
        CAPTURE(level);
        for (int iter = 0; iter < 20000; ++iter) {
            std::array<std::uint64_t, 32> addr{};
            const std::uint64_t span = iter % 3 == 0 ? 4096 : iter % 3 == 1 ? (std::uint64_t{1} << 22) : (std::uint64_t{1} << 34);
            const std::uint64_t mid = (std::uint64_t{1} << 40) + 4 * (rng() % 100000);
            for (auto& a : addr) a = (mid - span / 2 + rng() % span) & amask;
            if (iter % 7 == 0) addr[rng() % 32] = addr[rng() % 32];  // a shared sector
            std::set<std::uint64_t> sectors, lines;
            for (const std::uint64_t a : addr) sectors.insert(a >> 5), lines.insert(a >> 7);
            std::array<std::uint8_t, 32> below{};
            std::array<std::uint64_t, 32> sorted{};
            int got_lines = -1;
            const int n = occ::detail::full_sector_rank32_at(level, addr, amask, below, sorted, got_lines);
            REQUIRE(n == static_cast<int>(sectors.size()));
            for (std::size_t i = 0; i < 32; ++i) CHECK(below[i] == std::distance(sectors.begin(), sectors.find(addr[i] >> 5)));
            if (level == 0 || sectors.size() < 32) {
                CHECK(got_lines == 0);  // no sorted outputs: the caller scatters by rank
                continue;
            }
            CHECK(got_lines == static_cast<int>(lines.size()));
            std::size_t r = 0;
            for (const std::uint64_t s : sectors) CHECK(sorted[r++] == s << 5);
        }
    }
}

TEST_CASE("full_sector_rank32: exact after warps of other spans (the 16-bit rank's shift is the last warp's)") {
    // The x86 versions rank a wide gather on 16-bit keys shifted by the last warp's shift: here it is
    // always stale. A wide warp (coarse shift) before 32 neighbouring sectors merges them; those (no
    // shift) before a 4 MiB gather saturate it; both must still give the exact answers.
    const int top = occ::detail::full_sector_rank32_level();
    std::mt19937_64 rng(20261208);
    const std::uint64_t amask = (std::uint64_t{1} << 56) - 8;  // 8-byte accesses
    const std::uint64_t spans[] = {std::uint64_t{1} << 35, 32 * 32, std::uint64_t{1} << 22,
                                   std::uint64_t{1} << 16, 32 * 32, std::uint64_t{1} << 30};
    for (int level = 0; level <= top; ++level) {
        CAPTURE(level);
        for (int iter = 0; iter < 3000; ++iter) {
            const std::uint64_t span = spans[iter % 6];
            const std::uint64_t base = (std::uint64_t{1} << 44) + 8 * (rng() % 1000000);
            std::array<std::uint64_t, 32> addr{};
            if (span == 32 * 32) {  // 32 neighbouring sectors in a random order, distinct
                std::array<std::uint64_t, 32> perm{};
                for (std::size_t i = 0; i < 32; ++i) perm[i] = i;
                std::shuffle(perm.begin(), perm.end(), rng);
                for (std::size_t i = 0; i < 32; ++i) addr[i] = (base + 32 * perm[i] + 8 * (rng() % 4)) & amask;
            } else {
                for (auto& a : addr) a = (base + rng() % span) & amask;
            }
            std::set<std::uint64_t> sectors, lines;
            for (const std::uint64_t a : addr) sectors.insert(a >> 5), lines.insert(a >> 7);
            std::array<std::uint8_t, 32> below{};
            std::array<std::uint64_t, 32> sorted{};
            int got_lines = -1;
            REQUIRE(occ::detail::full_sector_rank32_at(level, addr, amask, below, sorted, got_lines) == static_cast<int>(sectors.size()));
            for (std::size_t i = 0; i < 32; ++i) CHECK(below[i] == std::distance(sectors.begin(), sectors.find(addr[i] >> 5)));
            if (level == 0 || sectors.size() < 32) continue;
            CHECK(got_lines == static_cast<int>(lines.size()));
            std::size_t r = 0;
            for (const std::uint64_t sec : sectors) CHECK(sorted[r++] == sec << 5);
        }
    }
}

namespace {

// Each lane's count of distinct keys below its own, and the count of distinct keys, from a set.
template <class Key>
int reference_dense_rank(const std::array<Key, 32>& key, std::array<std::uint8_t, 32>& below) {
    const std::set<Key> distinct(key.begin(), key.end());
    for (std::size_t i = 0; i < 32; ++i) below[i] = static_cast<std::uint8_t>(std::distance(distinct.begin(), distinct.find(key[i])));
    return static_cast<int>(distinct.size());
}

}  // namespace

TEST_CASE("dense_rank32 and sector_dense_rank32: every version equals a set-based reference") {
    const int top = occ::detail::dense_rank32_level();
    CHECK(occ::detail::sector_dense_rank32_level() == top);  // both: 0 plain, 1 AVX2
    MESSAGE("dense_rank32 versions on this CPU: 0.." << top << " (0 plain, 1 AVX2)");
    std::mt19937_64 rng(20261207);
    for (int level = 0; level <= top; ++level) {
        CAPTURE(level);
        for (int iter = 0; iter < 20000; ++iter) {
            // Keys: few distinct values, any signed 32-bit value, or a permutation.
            std::array<std::int32_t, 32> key{};
            for (std::size_t i = 0; i < 32; ++i)
                key[i] = iter % 3 == 0   ? static_cast<std::int32_t>(rng() % 8) - 4
                         : iter % 3 == 1 ? static_cast<std::int32_t>(static_cast<std::uint32_t>(rng()))
                                         : static_cast<std::int32_t>(i) * 7 - 100;
            if (iter % 3 == 2) std::shuffle(key.begin(), key.end(), rng);
            std::array<std::uint8_t, 32> got{}, want{};
            REQUIRE(occ::detail::dense_rank32_at(level, key, got) == reference_dense_rank(key, want));
            CHECK(got == want);

            // Sectors of a partial or full warp, some of them out of reach (2^30 sectors from the first
            // active lane's): the key of an active lane is its sector's distance, inactive lanes share one more.
            const std::uint32_t active = iter % 4 == 0 ? 0xffffffffu : static_cast<std::uint32_t>(rng()) | 1u << (rng() % 32);
            const std::uint64_t amask = (std::uint64_t{1} << 56) - 8;  // 8-byte accesses
            const std::uint64_t span = iter % 5 == 0 ? (std::uint64_t{1} << 36) : iter % 5 == 1 ? 4096 : (std::uint64_t{1} << 24);
            const std::uint64_t mid = std::uint64_t{1} << 50;
            std::array<std::uint64_t, 32> addr{};
            for (auto& a : addr) a = (mid - span / 2 + rng() % span) & amask;
            const std::size_t first = static_cast<std::size_t>(std::countr_zero(active));
            const std::int64_t ref = static_cast<std::int64_t>(addr[first] >> 5);
            std::array<std::int64_t, 32> skey{};
            bool reach = true;
            for (std::size_t i = 0; i < 32; ++i) {
                const std::int64_t rel = static_cast<std::int64_t>(addr[i] >> 5) - ref;
                const bool on = (active >> i) & 1u;
                if (on && (rel < -(std::int64_t{1} << 30) || rel >= (std::int64_t{1} << 30))) reach = false;
                skey[i] = on ? rel : std::int64_t{1} << 40;
            }
            got.fill(0xee);
            const int n = occ::detail::sector_dense_rank32_at(level, addr, amask, active, got);
            if (!reach) {
                CHECK(n == -1);
                continue;
            }
            REQUIRE(n == reference_dense_rank(skey, want));
            CHECK(got == want);
        }
    }
}

TEST_CASE("sorted_sectors16: every version equals a set-based reference (1..16 active lanes, every width)") {
    const int top = occ::detail::sorted_sectors16_level();
    MESSAGE("sorted_sectors16 versions on this CPU: 0.." << top << " (0 none, 1 AVX2)");
    std::mt19937_64 rng(20261208);
    for (int level = 0; level <= top; ++level) {
        CAPTURE(level);
        for (int iter = 0; iter < 20000; ++iter) {
            const std::uint64_t ab = std::uint64_t{1} << (rng() % 6);  // 1 .. 32 bytes
            const std::uint64_t amask = ((std::uint64_t{1} << 56) - 1) & ~(ab - 1);
            std::uint32_t active = 0;  // 1..16 lanes, anywhere in the warp or in one half
            const int lanes = 1 + static_cast<int>(rng() % 16);
            while (std::popcount(active) < lanes) active |= 1u << (iter % 3 == 0 ? 16 * (iter % 2) + rng() % 16 : rng() % 32);
            const std::uint64_t span = iter % 7 == 0 ? (std::uint64_t{1} << 27) : iter % 7 == 1 ? 256 : 4096;
            const std::uint64_t mid = (std::uint64_t{1} << 40) + (rng() % 4096);
            std::array<std::uint64_t, 32> addr{};
            for (auto& a : addr) a = mid - span / 2 + rng() % span;  // unaligned: amask rounds down
            if (iter % 5 == 0)                                       // the first active lane's address in the last one's too
                addr[static_cast<std::size_t>(std::countr_zero(active))] =
                    addr[static_cast<std::size_t>(31 - std::countl_zero(active | 1u))];
            std::array<std::int8_t, 32> lane_sector{};
            std::array<std::uint64_t, 32> sector_addr{};
            std::array<std::uint8_t, 32> used{};
            occ::detail::SortedSectors got{lane_sector, sector_addr, used};
            const bool done = occ::detail::sorted_sectors16_at(level, addr, amask, active, ab, got);
            if (level == 0) {
                CHECK(!done);
                continue;
            }
            const std::uint64_t base = addr[static_cast<std::size_t>(std::countr_zero(active))] & amask & ~std::uint64_t{127};
            std::set<std::uint64_t> addrs, sectors, lines;
            bool reach = true;
            for (std::size_t i = 0; i < 32; ++i) {
                if (!((active >> i) & 1u)) continue;
                const std::uint64_t a = addr[i] & amask;
                const auto rel = static_cast<std::int64_t>(a - base);
                if (rel < -(std::int64_t{1} << 26) || rel >= (std::int64_t{1} << 26)) reach = false;
                addrs.insert(a), sectors.insert(a >> 5), lines.insert(a >> 7);
            }
            REQUIRE(done == reach);
            if (!done) continue;
            CHECK(got.sectors == static_cast<int>(sectors.size()));
            CHECK(got.distinct == static_cast<int>(addrs.size()));
            CHECK(got.lines == static_cast<int>(lines.size()));
            std::size_t s = 0;
            for (const std::uint64_t sec : sectors) {
                CHECK(sector_addr[s] == sec << 5);
                const auto in = std::count_if(addrs.begin(), addrs.end(), [&](std::uint64_t a) { return a >> 5 == sec; });
                CHECK(used[s] == static_cast<std::uint64_t>(in) * ab);
                ++s;
            }
            for (std::size_t i = 0; i < 32; ++i)
                if ((active >> i) & 1u) CHECK(lane_sector[i] == std::distance(sectors.begin(), sectors.find((addr[i] & amask) >> 5)));
        }
    }
}
