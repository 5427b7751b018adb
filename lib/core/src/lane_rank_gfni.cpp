// lane_rank_gfni.cpp — the GFNI versions of lane_rank.hpp's primitives (AVX2 + GFNI, and AVX-512 +
// GFNI; see lane_rank_x86.hpp): a 32 x 32 bit transpose that buckets the lanes, for a full warp's banks
// and for a wide gather's sectors in sorted order.
//
// [SECTION] The bucket transpose
// [SECTION] A full warp's banks
// [SECTION] A full warp's sectors, sorted
#include "lane_rank_x86.hpp"

#include <atomic>

#ifdef OCC_X86_SIMD
namespace occ::detail {
namespace {

// [SECTION] The bucket transpose

// Lanes by bucket with GFNI, all in vector registers: byte i of `bucket` is lane i's bucket (0..31;
// a byte with its top bit set: none); out[g] dword t = the lanes in bucket 8g + t. The lanes as bytes,
// each byte one bit of its bucket within a group of 8 (4 groups); gf2p8affineqb with the matrix
// 0x8040201008040201 transposes every 8 x 8 bit block (8 lanes x 8 buckets), and two byte shuffles
// put a bucket's four blocks of 8 lanes into its dword.
__attribute__((target("avx2,gfni"), always_inline)) inline void bucket_lanes_gfni(__m256i bucket, __m256i out[4]) {
    // gf2p8affineqb(x, A) sets bit i of byte j to parity(A.byte[7 - i] & x.byte[j]): with x.byte[j] = 1 << j,
    // bit i of byte t is bit t of A's byte 7 - i, so each qword's lanes go in reversed.
    const __m256i rev = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11,
                                         10, 9, 8);
    const __m256i br = _mm256_shuffle_epi8(bucket, rev);
    const __m256i bit = _mm256_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4,
                                         8, 16, 32, 64, -128);
    const __m256i onehot = _mm256_shuffle_epi8(bit, br), group = _mm256_and_si256(br, _mm256_set1_epi8(0x18));  // a top bit: no bit
    const __m256i unit = _mm256_set1_epi64x(0x8040201008040201ll);
    // Byte t of the four qwords (8 lanes each) -> dword t: pairs within each 128-bit half, the halves'
    // qwords exchanged, then pairs of pairs.
    const __m256i pairs = _mm256_setr_epi8(0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6,
                                           14, 7, 15);
    const __m256i quads = _mm256_setr_epi8(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15, 0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6,
                                           7, 14, 15);
#pragma GCC unroll 4
    for (int g = 0; g < 4; ++g) {
        const __m256i in_group = _mm256_and_si256(onehot, _mm256_cmpeq_epi8(group, _mm256_set1_epi8(static_cast<char>(8 * g))));
        const __m256i blocks = _mm256_gf2p8affine_epi64_epi8(unit, in_group, 0);
        out[g] = _mm256_shuffle_epi8(_mm256_permute4x64_epi64(_mm256_shuffle_epi8(blocks, pairs), 0xd8), quads);
    }
}

}  // namespace

// [SECTION] A full warp's banks

// The same with GFNI (about twice as fast): bucket_lanes_gfni with the banks as buckets; counts are
// dword popcounts.
__attribute__((target("avx2,gfni"))) void one_word_banks32_gfni(const std::array<std::uint32_t, 32>& word,
                                                                std::array<std::int8_t, 32>& lane_bank,
                                                                std::array<std::uint32_t, 32>& bank_lanes,
                                                                std::array<std::uint8_t, 32>& lanes_in, OneWordBanks& s) {
    __m256i w[4];
    const __m256i banks = lane_banks(word, lane_bank, w);
    __m256i lanes[4], count[4];
    bucket_lanes_gfni(banks, lanes);
    const __m256i one32 = _mm256_set1_epi32(1);
    __m256i* lanes_out = reinterpret_cast<__m256i*>(bank_lanes.data());
#pragma GCC unroll 4
    for (int g = 0; g < 4; ++g) {
        _mm256_storeu_si256(lanes_out + g, lanes[g]);
        count[g] = popcount_dwords(lanes[g]);
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(lanes_in.data()), counts_to_bytes(count));
    __m256i shared = _mm256_setzero_si256();
    for (int g = 0; g < 4; ++g) shared = _mm256_or_si256(shared, _mm256_and_si256(lanes[g], _mm256_cmpgt_epi32(count[g], one32)));
    __m256i most = _mm256_max_epu32(_mm256_max_epu32(count[0], count[1]), _mm256_max_epu32(count[2], count[3]));
    shared = _mm256_or_si256(shared, _mm256_permute2x128_si256(shared, shared, 1));
    most = _mm256_max_epu32(most, _mm256_permute2x128_si256(most, most, 1));
    shared = _mm256_or_si256(shared, _mm256_shuffle_epi32(shared, 0x4e));
    most = _mm256_max_epu32(most, _mm256_shuffle_epi32(most, 0x4e));
    shared = _mm256_or_si256(shared, _mm256_shuffle_epi32(shared, 0xb1));
    most = _mm256_max_epu32(most, _mm256_shuffle_epi32(most, 0xb1));
    s.most = static_cast<std::uint32_t>(_mm256_cvtsi256_si32(most));
    s.shared = static_cast<std::uint32_t>(_mm256_cvtsi256_si32(shared));
    s.distinct = s.most <= 1 || words_distinct16(w) ? 1u : 0u;
}

// [SECTION] A full warp's sectors, sorted

namespace {

// The rank's first two steps (smaller_counts) on 16-bit keys: half the compares and subtractions of
// the 32-bit ones (two registers of 16 words against four of 8 dwords), for the usual wide gather.
// A key becomes sat16(key >> shift) (vpsrad, then vpackssdw's signed saturation: Intel Intrinsics
// Guide, _mm256_sra_epi32, _mm256_packs_epi32). Neither step reverses an order, so when the 32
// words all differ their counts are the exact ranks, for any shift: true, and the ranks as bytes in
// lane order (counts_to_bytes' layout). Else (shared sectors, or sectors the shift or the saturation
// merged) false, and the caller counts the 32-bit keys. The shift only decides how often that
// happens, so it is not worked out from this warp's span before the compares (that put a reduction
// in front of them, and measured slower than the 32-bit compares): it is the last warp's, and a
// false answer sets it from this warp's span for the next one.
// (One for all threads, relaxed: any value gives exact answers; threads of other spans cost misses only.)
inline std::atomic<int> g_rank16_shift{0};

// Keys 16v .. 16v+15 (a: 16v .. 16v+7, b: the next 8) as 16-bit keys, in lane order.
__attribute__((target("avx2"), always_inline)) inline __m256i keys16(__m256i a, __m256i b, __m128i shift) {
    return _mm256_permute4x64_epi64(_mm256_packs_epi32(_mm256_sra_epi32(a, shift), _mm256_sra_epi32(b, shift)), 0xd8);
}
// The shift that puts every key of k[] in 16 bits: |key| < 2^w, w = bit_width of the OR of the keys'
// magnitude bits (k ^ k >> 31: k, or -k - 1 for a negative one); keys are within 2^30 of 0
// (sector_keys_avx2), so at most 15.
__attribute__((target("avx2"), always_inline)) inline int shift16(const __m256i k[4]) {
    __m256i mag = _mm256_setzero_si256();
    for (int v = 0; v < 4; ++v) mag = _mm256_or_si256(mag, _mm256_xor_si256(k[v], _mm256_srai_epi32(k[v], 31)));
    mag = _mm256_or_si256(mag, _mm256_permute2x128_si256(mag, mag, 1));
    mag = _mm256_or_si256(mag, _mm256_shuffle_epi32(mag, 0x4e));
    mag = _mm256_or_si256(mag, _mm256_shuffle_epi32(mag, 0xb1));
    const int w = std::bit_width(static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm256_castsi256_si128(mag))));
    return w > 15 ? w - 15 : 0;
}
__attribute__((target("avx2,popcnt"), always_inline)) inline bool distinct_ranks16(const std::array<std::int32_t, 32>& key,
                                                                                   __m256i& ranks) {
    const __m256i* kp = reinterpret_cast<const __m256i*>(key.data());
    const __m256i k[4] = {_mm256_loadu_si256(kp), _mm256_loadu_si256(kp + 1), _mm256_loadu_si256(kp + 2), _mm256_loadu_si256(kp + 3)};
    const int guess = g_rank16_shift.load(std::memory_order_relaxed);
    const __m128i shift = _mm_cvtsi32_si128(guess);
    const __m256i h0 = keys16(k[0], k[1], shift), h1 = keys16(k[2], k[3], shift);
    // Key j broadcast in registers (a store and 16-bit reloads measured slower): each 128-bit half of
    // h0, h1 in both halves, then one byte shuffle per key.
    const __m256i half[4] = {_mm256_permute2x128_si256(h0, h0, 0x00), _mm256_permute2x128_si256(h0, h0, 0x11),
                             _mm256_permute2x128_si256(h1, h1, 0x00), _mm256_permute2x128_si256(h1, h1, 0x11)};
    __m256i c0 = _mm256_setzero_si256(), c1 = c0;
#pragma GCC unroll 32
    for (int j = 0; j < 32; ++j) {
        const char b = static_cast<char>(2 * (j & 7));
        const __m256i kj = _mm256_shuffle_epi8(
            half[j >> 3], _mm256_setr_epi8(b, b + 1, b, b + 1, b, b + 1, b, b + 1, b, b + 1, b, b + 1, b, b + 1, b, b + 1, b, b + 1, b,
                                           b + 1, b, b + 1, b, b + 1, b, b + 1, b, b + 1, b, b + 1, b, b + 1));
        c0 = _mm256_sub_epi16(c0, _mm256_cmpgt_epi16(h0, kj));  // -1 where key[j] < key[i]
        c1 = _mm256_sub_epi16(c1, _mm256_cmpgt_epi16(h1, kj));
    }
    // All 32 words differ exactly when the counts add up to 32 * 31 / 2 (each pair of different words
    // adds one, each pair of equal ones nothing). The counts are below 32, so each fits a byte:
    // vpsadbw sums them, and vpackuswb makes them the ranks' bytes.
    const __m256i sums = _mm256_sad_epu8(_mm256_add_epi16(c0, c1), _mm256_setzero_si256());
    const __m128i total = _mm_add_epi64(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
    if (_mm_cvtsi128_si32(_mm_add_epi64(total, _mm_unpackhi_epi64(total, total))) == 32 * 31 / 2) {
        ranks = _mm256_permute4x64_epi64(_mm256_packus_epi16(c0, c1), 0xd8);
        return true;
    }
    if (const int want = shift16(k); want != guess) g_rank16_shift.store(want, std::memory_order_relaxed);
    return false;
}

// full_sector_rank32's first half for the sorted versions (AVX2 + GFNI): the keys (into `key`) and
// their ranks (into below). When the 32 sectors are distinct (32 returned), the sorted order too: the
// ranks' bucket transpose (bucket_lanes_gfni, the rank as the bucket), into `at` (dword r: the lane
// with rank r as a one-bit mask; lane_of reads it off the float exponent). Else sector_dense_rank32's
// answer, and nothing more to do.
__attribute__((target("avx2,popcnt,gfni"), always_inline)) inline int ranks_in_order(const std::array<std::uint64_t, 32>& addr,
                                                                                     std::uint64_t amask,
                                                                                     std::array<std::uint8_t, 32>& below,
                                                                                     std::array<std::int32_t, 32>& key, __m256i at[4]) {
    if (!sector_keys_avx2<true>(addr, amask, 0xffffffffu, key)) return -1;
    __m256i ranks;
    if (!distinct_ranks16(key, ranks)) {
        __m256i c[4];
        const std::uint32_t firsts = smaller_counts(key, c);  // (in AVX-512, masks adding one: 51 ns a gather against 37)
        if (firsts != 0xffffffffu) return dense_below(c, firsts, below);
        ranks = counts_to_bytes(c);
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(below.data()), ranks);
    bucket_lanes_gfni(ranks, at);
    return 32;
}
__attribute__((target("avx2"), always_inline)) inline __m256i lane_of(__m256i bit) {
    return _mm256_sub_epi32(_mm256_and_si256(_mm256_srli_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(bit)), 23), _mm256_set1_epi32(0xff)),
                            _mm256_set1_epi32(127));
}

}  // namespace

// full_sector_rank32 with AVX2 + GFNI: the keys permuted into sorted order across the four registers,
// the sector addresses stored in order and the lines counted by neighbour compares.
__attribute__((target("avx2,popcnt,gfni"))) int full_sector_rank32_gfni(const std::array<std::uint64_t, 32>& addr, std::uint64_t amask,
                                                                        std::array<std::uint8_t, 32>& below,
                                                                        std::array<std::uint64_t, 32>& sector_addr, int& lines) {
    alignas(32) std::array<std::int32_t, 32> key;
    __m256i at[4] = {};  // (set when 32 comes back)
    lines = 0;
    if (const int n = ranks_in_order(addr, amask, below, key, at); n != 32) return n;
    const __m256i* kp = reinterpret_cast<const __m256i*>(key.data());
    const __m256i k0 = _mm256_load_si256(kp), k1 = _mm256_load_si256(kp + 1), k2 = _mm256_load_si256(kp + 2),
                  k3 = _mm256_load_si256(kp + 3);
    const std::uint64_t ref = (addr[0] & amask) >> 5;  // the keys' origin (sector_keys_avx2)
    const __m256i ref64 = _mm256_set1_epi64x(static_cast<long long>(ref)), ref_in_line = _mm256_set1_epi32(static_cast<int>(ref & 3));
    __m256i line[4];
    auto* out = reinterpret_cast<__m256i*>(sector_addr.data());
#pragma GCC unroll 4
    for (int o = 0; o < 4; ++o) {
        // key[lane]: each register permuted by the lane's low 3 bits, the register chosen by bits 3 and 4.
        const __m256i lane = lane_of(at[o]);
        const __m256 b3 = _mm256_castsi256_ps(_mm256_slli_epi32(lane, 28)), b4 = _mm256_castsi256_ps(_mm256_slli_epi32(lane, 27));
        const __m256 lo = _mm256_blendv_ps(_mm256_castsi256_ps(_mm256_permutevar8x32_epi32(k0, lane)),
                                           _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(k1, lane)), b3);
        const __m256 hi = _mm256_blendv_ps(_mm256_castsi256_ps(_mm256_permutevar8x32_epi32(k2, lane)),
                                           _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(k3, lane)), b3);
        const __m256i sorted = _mm256_castps_si256(_mm256_blendv_ps(lo, hi, b4));
        _mm256_storeu_si256(out + 2 * o,
                            _mm256_slli_epi64(_mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(sorted)), ref64), 5));
        _mm256_storeu_si256(out + 2 * o + 1,
                            _mm256_slli_epi64(_mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_extracti128_si256(sorted, 1)), ref64), 5));
        line[o] = _mm256_srai_epi32(_mm256_add_epi32(sorted, ref_in_line), 2);  // 128-byte line, relative
    }
    // Sorted keys on the same line as their predecessor (the first key has none).
    const __m256i back = _mm256_setr_epi32(7, 0, 1, 2, 3, 4, 5, 6), last = _mm256_set1_epi32(7);
    std::uint32_t same = 0;
#pragma GCC unroll 4
    for (int o = 0; o < 4; ++o) {
        __m256i prev = _mm256_permutevar8x32_epi32(line[o], back);
        if (o > 0) prev = _mm256_blend_epi32(prev, _mm256_permutevar8x32_epi32(line[o - 1], last), 0x01);
        same |= static_cast<std::uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(line[o], prev)))) << (8 * o);
    }
    lines = 32 - _mm_popcnt_u32(same & ~1u);
    return 32;
}

// (GCC 12's AVX-512 intrinsics start from an undefined register, which -Wmaybe-uninitialized reports.)
#pragma GCC diagnostic push
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
// The same with AVX-512 (37 ns a gather against 44): the permutation (two registers of 16 as one
// table), the addresses and the neighbour compares on 16 lanes at once.
__attribute__((target("avx2,popcnt,gfni,avx512f,avx512vl"))) int full_sector_rank32_512(const std::array<std::uint64_t, 32>& addr,
                                                                                        std::uint64_t amask,
                                                                                        std::array<std::uint8_t, 32>& below,
                                                                                        std::array<std::uint64_t, 32>& sector_addr,
                                                                                        int& lines) {
    alignas(64) std::array<std::int32_t, 32> key;
    __m256i at[4] = {};  // (set when 32 comes back)
    lines = 0;
    if (const int n = ranks_in_order(addr, amask, below, key, at); n != 32) return n;
    const __m512i klo = _mm512_load_si512(key.data()), khi = _mm512_load_si512(key.data() + 16);
    const std::uint64_t ref = (addr[0] & amask) >> 5;
    const __m512i ref64 = _mm512_set1_epi64(static_cast<long long>(ref)), ref_in_line = _mm512_set1_epi32(static_cast<int>(ref & 3));
    __m512i line[2];
    for (int h = 0; h < 2; ++h) {
        const __m512i bit = _mm512_inserti64x4(_mm512_castsi256_si512(at[2 * h]), at[2 * h + 1], 1);
        const __m512i lane = _mm512_sub_epi32(
            _mm512_and_si512(_mm512_srli_epi32(_mm512_castps_si512(_mm512_cvtepi32_ps(bit)), 23), _mm512_set1_epi32(0xff)),
            _mm512_set1_epi32(127));
        const __m512i sorted = _mm512_permutex2var_epi32(klo, lane, khi);
        _mm512_storeu_si512(sector_addr.data() + 16 * h,
                            _mm512_slli_epi64(_mm512_add_epi64(_mm512_cvtepi32_epi64(_mm512_castsi512_si256(sorted)), ref64), 5));
        _mm512_storeu_si512(sector_addr.data() + 16 * h + 8,
                            _mm512_slli_epi64(_mm512_add_epi64(_mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(sorted, 1)), ref64), 5));
        line[h] = _mm512_srai_epi32(_mm512_add_epi32(sorted, ref_in_line), 2);
    }
    const std::uint32_t same = static_cast<std::uint32_t>(_mm512_cmpeq_epi32_mask(line[0], _mm512_alignr_epi32(line[0], line[0], 15))) |
                               static_cast<std::uint32_t>(_mm512_cmpeq_epi32_mask(line[1], _mm512_alignr_epi32(line[1], line[0], 15)))
                                   << 16;
    lines = 32 - _mm_popcnt_u32(same & ~1u);
    return 32;
}
#pragma GCC diagnostic pop

}  // namespace occ::detail
#endif
