// lane_rank_x86.hpp — (private) the x86 versions of lane_rank.hpp's primitives, for the version
// tables in lane_rank.cpp, and the AVX2 building blocks that lane_rank_avx2.cpp and lane_rank_gfni.cpp
// share. Empty where cpu_dispatch.hpp sets no OCC_X86_SIMD (WebAssembly, other CPUs, the portable build).
//
// Each version carries the target attribute it is compiled with, on its declaration too (a declaration
// without it would make GCC and clang treat the definition as a second, multiversioned function).
#pragma once
#include "lane_rank.hpp"

#ifdef OCC_X86_SIMD
#include <immintrin.h>

#include <array>
#include <bit>
#include <cstdint>

namespace occ::detail {

// [SECTION] The versions (lane_rank_avx2.cpp: AVX2; lane_rank_gfni.cpp: AVX2 + GFNI, AVX-512 + GFNI)

// (Hidden: private to the library, so a call between them binds directly, also in a shared library.)
#pragma GCC visibility push(hidden)

__attribute__((target("avx2,popcnt"))) int dense_rank32_avx2(const std::array<std::int32_t, 32>& key, std::array<std::uint8_t, 32>& below);
__attribute__((target("avx2,popcnt"))) int sector_dense_rank32_avx2(const std::array<std::uint64_t, 32>& addr, std::uint64_t amask,
                                                                    std::uint32_t active, std::array<std::uint8_t, 32>& below);
__attribute__((target("avx2,popcnt"))) bool sorted_sectors16_avx2(const std::array<std::uint64_t, 32>& addr, std::uint64_t amask,
                                                                  std::uint32_t active, std::uint64_t ab, SortedSectors& out);
__attribute__((target("avx2,popcnt"))) void one_word_banks32_avx2(const std::array<std::uint32_t, 32>& word,
                                                                  std::array<std::int8_t, 32>& lane_bank,
                                                                  std::array<std::uint32_t, 32>& bank_lanes,
                                                                  std::array<std::uint8_t, 32>& lanes_in, OneWordBanks& s);
__attribute__((target("avx2,gfni"))) void one_word_banks32_gfni(const std::array<std::uint32_t, 32>& word,
                                                                std::array<std::int8_t, 32>& lane_bank,
                                                                std::array<std::uint32_t, 32>& bank_lanes,
                                                                std::array<std::uint8_t, 32>& lanes_in, OneWordBanks& s);
__attribute__((target("avx2,popcnt,gfni"))) int full_sector_rank32_gfni(const std::array<std::uint64_t, 32>& addr, std::uint64_t amask,
                                                                        std::array<std::uint8_t, 32>& below,
                                                                        std::array<std::uint64_t, 32>& sector_addr, int& lines);
__attribute__((target("avx2,popcnt,gfni,avx512f,avx512vl"))) int full_sector_rank32_512(const std::array<std::uint64_t, 32>& addr,
                                                                                        std::uint64_t amask,
                                                                                        std::array<std::uint8_t, 32>& below,
                                                                                        std::array<std::uint64_t, 32>& sector_addr,
                                                                                        int& lines);
#pragma GCC visibility pop

// [SECTION] Dense ranks in AVX2

// dense_rank32_plain's three steps (lane_rank.cpp) in AVX2.
// The rank's first two steps, 8 lanes at a time: r[v] lane i = how many keys are smaller than key
// 8v + i (duplicates counted); the result is the set of those counts (bit r: some key has r smaller),
// all ones when the 32 keys are distinct.
__attribute__((target("avx2"), always_inline)) inline std::uint32_t smaller_counts(const std::array<std::int32_t, 32>& key, __m256i r[4]) {
    const __m256i* kp = reinterpret_cast<const __m256i*>(key.data());
    const __m256i k0 = _mm256_loadu_si256(kp), k1 = _mm256_loadu_si256(kp + 1), k2 = _mm256_loadu_si256(kp + 2),
                  k3 = _mm256_loadu_si256(kp + 3);
    __m256i r0 = _mm256_setzero_si256(), r1 = r0, r2 = r0, r3 = r0;
#pragma GCC unroll 8
    for (std::size_t j = 0; j < 32; ++j) {
        const __m256i kj = _mm256_set1_epi32(key[j]);
        r0 = _mm256_sub_epi32(r0, _mm256_cmpgt_epi32(k0, kj));  // compare gives -1 where key[j] < key[i]
        r1 = _mm256_sub_epi32(r1, _mm256_cmpgt_epi32(k1, kj));
        r2 = _mm256_sub_epi32(r2, _mm256_cmpgt_epi32(k2, kj));
        r3 = _mm256_sub_epi32(r3, _mm256_cmpgt_epi32(k3, kj));
    }
    const __m256i one = _mm256_set1_epi32(1);
    __m256i f = _mm256_or_si256(_mm256_or_si256(_mm256_sllv_epi32(one, r0), _mm256_sllv_epi32(one, r1)),
                                _mm256_or_si256(_mm256_sllv_epi32(one, r2), _mm256_sllv_epi32(one, r3)));
    f = _mm256_or_si256(f, _mm256_permute2x128_si256(f, f, 1));
    f = _mm256_or_si256(f, _mm256_shuffle_epi32(f, 0x4e));
    f = _mm256_or_si256(f, _mm256_shuffle_epi32(f, 0xb1));
    r[0] = r0, r[1] = r1, r[2] = r2, r[3] = r3;
    return static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm256_castsi256_si128(f)));
}

// Bits set in each dword: a nibble table per byte, then the four bytes of each dword summed.
__attribute__((target("avx2"), always_inline)) inline __m256i popcount_dwords(__m256i x) {
    const __m256i lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256i lo4 = _mm256_set1_epi8(0x0f);
    const __m256i n = _mm256_add_epi8(_mm256_shuffle_epi8(lut, _mm256_and_si256(x, lo4)),
                                      _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(x, 4), lo4)));
    return _mm256_madd_epi16(_mm256_maddubs_epi16(n, _mm256_set1_epi8(1)), _mm256_set1_epi16(1));
}

// 32 counts (0..32) in 4 x 8 dwords -> bytes, in lane order.
__attribute__((target("avx2"), always_inline)) inline __m256i counts_to_bytes(const __m256i c[4]) {
    const __m256i w01 = _mm256_packs_epi32(c[0], c[1]), w23 = _mm256_packs_epi32(c[2], c[3]);
    return _mm256_permutevar8x32_epi32(_mm256_packs_epi16(w01, w23), _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

// The rank's last step: each count -> popcount(firsts & (2^count - 1)), the distinct keys below.
__attribute__((target("avx2,popcnt"), always_inline)) inline int dense_below(__m256i c[4], std::uint32_t firsts,
                                                                             std::array<std::uint8_t, 32>& below) {
    const __m256i f = _mm256_set1_epi32(static_cast<int>(firsts)), one = _mm256_set1_epi32(1);
    if (firsts != 0xffffffffu)  // else 32 distinct keys (a random gather): each count is its dense rank
        for (int i = 0; i < 4; ++i) c[i] = popcount_dwords(_mm256_and_si256(f, _mm256_sub_epi32(_mm256_sllv_epi32(one, c[i]), one)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(below.data()), counts_to_bytes(c));
    return _mm_popcnt_u32(firsts);
}

// sector_keys_plain (lane_rank.cpp) in 32-bit lanes: sectors and their distance to the first active
// lane's in 64 bits (8 registers of 4), the range test on all of them at once, then the low halves
// packed to 4 x 8 keys.
template <bool Full>
__attribute__((target("avx2,popcnt"), always_inline)) inline bool sector_keys_avx2(const std::array<std::uint64_t, 32>& addr,
                                                                                   std::uint64_t amask, std::uint32_t active,
                                                                                   std::array<std::int32_t, 32>& key) {
    const std::uint64_t ref = (addr[static_cast<std::size_t>(std::countr_zero(active | 0x80000000u))] & amask) >> 5;
    const __m256i m = _mm256_set1_epi64x(static_cast<long long>(amask)), base = _mm256_set1_epi64x(static_cast<long long>(ref));
    const __m256i reach = _mm256_set1_epi64x(kSectorKeyReach), act64 = _mm256_set1_epi64x(active),
                  act32 = _mm256_set1_epi32(static_cast<int>(active));
    const __m256i* ap = reinterpret_cast<const __m256i*>(addr.data());
    __m256i rel[8], out = _mm256_setzero_si256();
#pragma GCC unroll 8
    for (int v = 0; v < 8; ++v) {
        __m256i r = _mm256_sub_epi64(_mm256_srli_epi64(_mm256_and_si256(_mm256_loadu_si256(ap + v), m), 5), base);
        if (!Full) {  // an inactive lane's bit moved to the sign bit: 0 there (in range)
            const __m256i on = _mm256_sllv_epi64(act64, _mm256_setr_epi64x(63 - 4 * v, 62 - 4 * v, 61 - 4 * v, 60 - 4 * v));
            r = _mm256_castpd_si256(_mm256_blendv_pd(_mm256_setzero_pd(), _mm256_castsi256_pd(r), _mm256_castsi256_pd(on)));
        }
        out = _mm256_or_si256(out, _mm256_add_epi64(r, reach));  // in range: 0 .. 2^31 - 1
        rel[v] = r;
    }
    if (!_mm256_testz_si256(out, _mm256_set1_epi64x(~0x7fffffffll))) return false;
    __m256i* kp = reinterpret_cast<__m256i*>(key.data());
#pragma GCC unroll 4
    for (int v = 0; v < 4; ++v) {
        // Low halves of lanes 8v .. 8v+7: pairs from each register, then the 64-bit pairs in lane order.
        const __m256 both = _mm256_shuffle_ps(_mm256_castsi256_ps(rel[2 * v]), _mm256_castsi256_ps(rel[2 * v + 1]), 0x88);
        __m256i k = _mm256_permute4x64_epi64(_mm256_castps_si256(both), 0xd8);
        if (!Full) {
            const __m256i on = _mm256_sllv_epi32(
                act32, _mm256_setr_epi32(31 - 8 * v, 30 - 8 * v, 29 - 8 * v, 28 - 8 * v, 27 - 8 * v, 26 - 8 * v, 25 - 8 * v, 24 - 8 * v));
            k = _mm256_castps_si256(
                _mm256_blendv_ps(_mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)), _mm256_castsi256_ps(k), _mm256_castsi256_ps(on)));
        }
        _mm256_storeu_si256(kp + v, k);
    }
    return true;
}

// [SECTION] A full warp's banks in AVX2

// one_word_banks32 (AVX2 and AVX2 + GFNI). No store is read back: a scattered read-modify-write of
// bank_lanes, or byte counts read back eight at a time, stall on store forwarding. Distinct words:
// two lanes can only share a word when they share a bank, but all pairs are cheaper to test than the
// pairs that share a bank: each word folded to 16 bits (w ^ w >> 16, exact below 2^16 words, i.e. for
// any real shared memory). Equal folds where the words differ only make the answer "maybe not distinct".
__attribute__((target("avx2"), always_inline)) inline __m256i fold16(__m256i w) {
    return _mm256_and_si256(_mm256_xor_si256(w, _mm256_srli_epi32(w, 16)), _mm256_set1_epi32(0xffff));
}
// 16-bit lanes of x equal to y's in the same dword, either half.
__attribute__((target("avx2"), always_inline)) inline __m256i meet16(__m256i x, __m256i y, __m256i swap) {
    return _mm256_or_si256(_mm256_cmpeq_epi16(x, y), _mm256_cmpeq_epi16(x, _mm256_shuffle_epi8(y, swap)));
}

// one_word_banks32's first step (both versions): the 32 words into w, and lane i's bank (word % 32)
// in byte i, stored to lane_bank and returned.
__attribute__((target("avx2"), always_inline)) inline __m256i lane_banks(const std::array<std::uint32_t, 32>& word,
                                                                         std::array<std::int8_t, 32>& lane_bank, __m256i w[4]) {
    const __m256i* wp = reinterpret_cast<const __m256i*>(word.data());
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) w[i] = _mm256_loadu_si256(wp + i);
    const __m256i m31 = _mm256_set1_epi32(31);
    const __m256i b01 = _mm256_packs_epi32(_mm256_and_si256(w[0], m31), _mm256_and_si256(w[1], m31));
    const __m256i b23 = _mm256_packs_epi32(_mm256_and_si256(w[2], m31), _mm256_and_si256(w[3], m31));
    const __m256i banks = _mm256_permutevar8x32_epi32(_mm256_packs_epi16(b01, b23), _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(lane_bank.data()), banks);
    return banks;
}

// Whether the 32 words are distinct (false: maybe not), from their 16-bit folds: two registers of 16,
// every pair met once by rotating one register against the other (dword rotations, and the same with
// the two halves of each dword swapped).
__attribute__((target("avx2"), always_inline)) inline bool words_distinct16(const __m256i w[4]) {
    const __m256i a = _mm256_packus_epi32(fold16(w[0]), fold16(w[1])),
                  c = _mm256_packus_epi32(fold16(w[2]), fold16(w[3]));  // lane order does not matter
    const __m256i swap = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14,
                                          15, 12, 13);
    // Within a register: the partner in the same dword, then dwords 1..4 apart (4 and 8 - 4 are the same pairs).
    __m256i eq = _mm256_or_si256(_mm256_cmpeq_epi16(a, _mm256_shuffle_epi8(a, swap)), _mm256_cmpeq_epi16(c, _mm256_shuffle_epi8(c, swap)));
    __m256i rot = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i step = _mm256_set1_epi32(1), wrap = _mm256_set1_epi32(7);
    eq = _mm256_or_si256(eq, meet16(a, c, swap));
#pragma GCC unroll 7
    for (int r = 1; r < 8; ++r) {
        rot = _mm256_and_si256(_mm256_add_epi32(rot, step), wrap);
        const __m256i cr = _mm256_permutevar8x32_epi32(c, rot);
        eq = _mm256_or_si256(eq, meet16(a, cr, swap));  // across the registers: every dword distance
        if (r <= 4) eq = _mm256_or_si256(eq, _mm256_or_si256(meet16(a, _mm256_permutevar8x32_epi32(a, rot), swap), meet16(c, cr, swap)));
    }
    return _mm256_testz_si256(eq, eq) != 0;
}

}  // namespace occ::detail
#endif
