// lane_rank.hpp — (private) the memory models' warp primitives, for a warp's 32 lanes.
//
// dense_rank32: below[i] = how many distinct keys are smaller than key[i] (signed compare); returns
// how many distinct keys there are. Equal keys get the same number, so it both sorts and
// deduplicates: below[] is each lane's index into the ascending list of distinct keys. No branches on
// the data: 32 x 32 compares. (An AVX-512 version, two registers of 16 lanes, measured no faster on the
// development machine.)
//
// Every primitive has a plain version (lane_rank.cpp; the only one in WebAssembly) and x86 versions
// (lane_rank_avx2.cpp, lane_rank_gfni.cpp). Which one runs is picked once, through cpu_dispatch.hpp.
// Each X also has X_level() (the best version this CPU runs, as an index: 0 is the plain one) and
// X_at(level, ...) (that version, capped at what the CPU has), so tests hold every version to the
// plain one; the picker is the same one X uses.
#pragma once
#include <array>
#include <cstdint>

#include "cpu_dispatch.hpp"  // also OCC_HOT_CLONES, for the files that include this one

namespace occ::detail {

// Bits set in x, inline and branch-free (std::popcount is a library call on baseline x86-64, which
// has no popcnt instruction); loops over arrays of these vectorise.
constexpr int pop32(std::uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return static_cast<int>((((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

int dense_rank32(const std::array<std::int32_t, 32>& key, std::array<std::uint8_t, 32>& below);
// (0 plain, 1 AVX2)
int dense_rank32_level();
int dense_rank32_at(int level, const std::array<std::int32_t, 32>& key, std::array<std::uint8_t, 32>& below);

// How far a sector key reaches: sectors either side of the first active lane's.
constexpr std::int64_t kSectorKeyReach = std::int64_t{1} << 30;

// dense_rank32 of a warp's 32-byte sectors: the key of an active lane is its sector (address & amask,
// over 32) minus the first active lane's, in 32-bit lanes; inactive lanes share the largest key. -1
// (below[] untouched) when an active lane's sector is 2^30 or more sectors (32 GiB) from the first
// one's; else dense_rank32's answer (inactive lanes count as one more key when there are any).
int sector_dense_rank32(const std::array<std::uint64_t, 32>& addr, std::uint64_t amask, std::uint32_t active,
                        std::array<std::uint8_t, 32>& below);
// (0 plain, 1 AVX2)
int sector_dense_rank32_level();
int sector_dense_rank32_at(int level, const std::array<std::uint64_t, 32>& addr, std::uint64_t amask, std::uint32_t active,
                           std::array<std::uint8_t, 32>& below);

// sector_dense_rank32 of a full warp; when its 32 sectors are distinct (a wide gather's usual case)
// and the CPU has GFNI (with AVX2 or AVX-512), also sector_addr[0..32) (the sectors' addresses, address & amask & ~31, in
// ascending order) and lines (the 128-byte lines among them), made without scattering the sectors by
// rank (reading a scatter back stalls on store forwarding). lines = 0 where those were not made.
int full_sector_rank32(const std::array<std::uint64_t, 32>& addr, std::uint64_t amask, std::array<std::uint8_t, 32>& below,
                       std::array<std::uint64_t, 32>& sector_addr, int& lines);
// (0: ranks only, 1: sorted with AVX2 + GFNI, 2: sorted with AVX-512 + GFNI)
int full_sector_rank32_level();
int full_sector_rank32_at(int level, const std::array<std::uint64_t, 32>& addr, std::uint64_t amask, std::array<std::uint8_t, 32>& below,
                          std::array<std::uint64_t, 32>& sector_addr, int& lines);

// Sorts key[0..n) ascending (n <= 32): sorting networks without a branch on the data for n <= 16
// (Batcher's odd-even merge sort; the first n of 8 or 16 slots, the rest filled with the largest key).
void sort_keys(std::array<std::uint64_t, 32>& key, int n);

// The sorted walk of a warp with 1..16 active lanes in one pass (AVX2 only): the active lanes' keys,
// (address - the first active lane's 128-byte line) << 5 | lane, in 32-bit lanes, sorted by a bitonic
// network on two registers; new addresses, sectors and lines are neighbour compares (bit masks). Fills
// lane_sector (active lanes only), sector_addr and used (bytes, as distinct addresses x ab) for
// sectors [0, sectors), and sectors, distinct, lines. False (nothing written) without AVX2, with more
// than 16 lanes, or when an active address is 2^26 bytes (64 MiB) or more from that line.
struct SortedSectors {
    std::array<std::int8_t, 32>& lane_sector;
    std::array<std::uint64_t, 32>& sector_addr;
    std::array<std::uint8_t, 32>& used;
    int sectors = 0, distinct = 0, lines = 0;
};
bool sorted_sectors16(const std::array<std::uint64_t, 32>& addr, std::uint64_t amask, std::uint32_t active, std::uint64_t ab,
                      SortedSectors& out);
// (0: none, always false; 1 AVX2)
int sorted_sectors16_level();
bool sorted_sectors16_at(int level, const std::array<std::uint64_t, 32>& addr, std::uint64_t amask, std::uint32_t active, std::uint64_t ab,
                         SortedSectors& out);

// A full warp of one-word lanes on 32 banks (banks.cpp's gather and permutation case), in one pass:
// lane_bank[i] = word[i] % 32, bank_lanes[b] = the lanes on bank b, lanes_in[b] = how many. `most` is
// the largest count, `shared` the lanes that share their bank with another lane. `distinct`: every
// lane asks for its own word (then a bank's distinct words are its lanes); it is only worked out when
// two lanes share a bank, and false is not exact: "maybe not" (the caller ranks the words).
struct OneWordBanks {
    std::uint32_t most = 0;
    std::uint32_t shared = 0;
    std::uint32_t distinct = 0;
};
// (The summary is written through `out`: returned by value, its mixed-size fields went through the
// stack and stalled the caller on store forwarding.)
void one_word_banks32(const std::array<std::uint32_t, 32>& word, std::array<std::int8_t, 32>& lane_bank,
                      std::array<std::uint32_t, 32>& bank_lanes, std::array<std::uint8_t, 32>& lanes_in, OneWordBanks& out);
// (0 plain loops, 1 AVX2, 2 AVX2 with GFNI)
int one_word_banks32_level();
void one_word_banks32_at(int level, const std::array<std::uint32_t, 32>& word, std::array<std::int8_t, 32>& lane_bank,
                         std::array<std::uint32_t, 32>& bank_lanes, std::array<std::uint8_t, 32>& lanes_in, OneWordBanks& out);

}  // namespace occ::detail
