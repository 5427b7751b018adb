// lane_rank.cpp — see lane_rank.hpp.
#include "lane_rank.hpp"

#include <algorithm>
#include <bit>
#include <limits>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__EMSCRIPTEN__) && !defined(OCC_NO_RANK_AVX2)
#define OCC_RANK_AVX2 1
#include <immintrin.h>
#endif

namespace occ::detail {
namespace {

constexpr std::int64_t kKeyReach = std::int64_t{1} << 30;  // sectors either side of the first active lane's

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
        if (on && (rel < -kKeyReach || rel >= kKeyReach)) return false;
        key[i] = on ? static_cast<std::int32_t>(rel) : std::numeric_limits<std::int32_t>::max();
    }
    return true;
}

#ifdef OCC_RANK_AVX2
// The same three steps, 8 lanes at a time.
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

__attribute__((target("avx2,popcnt"))) int dense_rank32_avx2(const std::array<std::int32_t, 32>& key, std::array<std::uint8_t, 32>& below) {
    __m256i c[4];
    const std::uint32_t firsts = smaller_counts(key, c);
    return dense_below(c, firsts, below);
}

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

// Lane i's bank (word % 32) in byte i.
__attribute__((target("avx2"), always_inline)) inline __m256i lane_banks8(__m256i w0, __m256i w1, __m256i w2, __m256i w3) {
    const __m256i m31 = _mm256_set1_epi32(31);
    const __m256i b01 = _mm256_packs_epi32(_mm256_and_si256(w0, m31), _mm256_and_si256(w1, m31));
    const __m256i b23 = _mm256_packs_epi32(_mm256_and_si256(w2, m31), _mm256_and_si256(w3, m31));
    return _mm256_permutevar8x32_epi32(_mm256_packs_epi16(b01, b23), _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

// Whether the 32 words are distinct (false: maybe not), from their 16-bit folds: two registers of 16,
// every pair met once by rotating one register against the other (dword rotations, and the same with
// the two halves of each dword swapped).
__attribute__((target("avx2"), always_inline)) inline bool words_distinct16(__m256i w0, __m256i w1, __m256i w2, __m256i w3) {
    const __m256i a = _mm256_packus_epi32(fold16(w0), fold16(w1)),
                  c = _mm256_packus_epi32(fold16(w2), fold16(w3));  // lane order does not matter
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

// Each bank's lanes as a byte compare of the 32 lanes' banks and a movemask, the rest in general
// registers: the largest count as a set of counts seen (a vector max, or a bank id folded into a
// constant, moves values between the register files, about 5 cycles a bank).
__attribute__((target("avx2,popcnt"), optimize("no-tree-slp-vectorize"))) void one_word_banks32_avx2(
    const std::array<std::uint32_t, 32>& word, std::array<std::int8_t, 32>& lane_bank, std::array<std::uint32_t, 32>& bank_lanes,
    std::array<std::uint8_t, 32>& lanes_in, OneWordBanks& s) {
    const __m256i* wp = reinterpret_cast<const __m256i*>(word.data());
    const __m256i w0 = _mm256_loadu_si256(wp), w1 = _mm256_loadu_si256(wp + 1), w2 = _mm256_loadu_si256(wp + 2),
                  w3 = _mm256_loadu_si256(wp + 3);
    const __m256i banks = lane_banks8(w0, w1, w2, w3);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(lane_bank.data()), banks);
    __m256i bank = _mm256_setzero_si256();
    const __m256i one = _mm256_set1_epi8(1);
    std::uint64_t seen = 0;  // bit c: some bank has c lanes (0..32)
    std::uint32_t shared = 0;
    std::uint32_t* lanes_out = bank_lanes.data();
    std::uint8_t* count_out = lanes_in.data();
#pragma GCC unroll 32
    for (int b = 0; b < 32; ++b) {
        const auto m = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(banks, bank)));
        bank = _mm256_add_epi8(bank, one);
        __asm__("" : "+x"(bank));  // keep the running bank id a register add
        const auto c = static_cast<std::uint32_t>(_mm_popcnt_u32(m));
        lanes_out[b] = m;
        count_out[b] = static_cast<std::uint8_t>(c);
        seen |= std::uint64_t{1} << c;
        shared |= (m & (m - 1)) != 0 ? m : 0u;
    }
    s.most = 63u - static_cast<std::uint32_t>(__builtin_clzll(seen));
    s.shared = shared;
    s.distinct = s.most <= 1 || words_distinct16(w0, w1, w2, w3) ? 1u : 0u;
}

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

// The same with GFNI (about twice as fast): bucket_lanes_gfni with the banks as buckets; counts are
// dword popcounts.
__attribute__((target("avx2,gfni"))) void one_word_banks32_gfni(const std::array<std::uint32_t, 32>& word,
                                                                std::array<std::int8_t, 32>& lane_bank,
                                                                std::array<std::uint32_t, 32>& bank_lanes,
                                                                std::array<std::uint8_t, 32>& lanes_in, OneWordBanks& s) {
    const __m256i* wp = reinterpret_cast<const __m256i*>(word.data());
    const __m256i w0 = _mm256_loadu_si256(wp), w1 = _mm256_loadu_si256(wp + 1), w2 = _mm256_loadu_si256(wp + 2),
                  w3 = _mm256_loadu_si256(wp + 3);
    const __m256i banks = lane_banks8(w0, w1, w2, w3);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(lane_bank.data()), banks);
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
    s.distinct = s.most <= 1 || words_distinct16(w0, w1, w2, w3) ? 1u : 0u;
}

// sector_keys_plain in 32-bit lanes: sectors and their distance to the first active lane's in 64 bits
// (8 registers of 4), the range test on all of them at once, then the low halves packed to 4 x 8 keys.
template <bool Full>
__attribute__((target("avx2,popcnt"), always_inline)) inline bool sector_keys_avx2(const std::array<std::uint64_t, 32>& addr,
                                                                                   std::uint64_t amask, std::uint32_t active,
                                                                                   std::array<std::int32_t, 32>& key) {
    const std::uint64_t ref = (addr[static_cast<std::size_t>(std::countr_zero(active | 0x80000000u))] & amask) >> 5;
    const __m256i m = _mm256_set1_epi64x(static_cast<long long>(amask)), base = _mm256_set1_epi64x(static_cast<long long>(ref));
    const __m256i reach = _mm256_set1_epi64x(kKeyReach), act64 = _mm256_set1_epi64x(active),
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

__attribute__((target("avx2,popcnt"))) int sector_dense_rank32_avx2(const std::array<std::uint64_t, 32>& addr, std::uint64_t amask,
                                                                    std::uint32_t active, std::array<std::uint8_t, 32>& below) {
    alignas(32) std::array<std::int32_t, 32> key;
    if (!(active == 0xffffffffu ? sector_keys_avx2<true>(addr, amask, active, key) : sector_keys_avx2<false>(addr, amask, active, key)))
        return -1;
    return dense_rank32_avx2(key, below);
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
    __m256i c[4];
    const std::uint32_t firsts = smaller_counts(key, c);  // (in AVX-512, masks adding one: 51 ns a gather against 37)
    if (firsts != 0xffffffffu) return dense_below(c, firsts, below);
    const __m256i ranks = counts_to_bytes(c);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(below.data()), ranks);
    bucket_lanes_gfni(ranks, at);
    return 32;
}
__attribute__((target("avx2"), always_inline)) inline __m256i lane_of(__m256i bit) {
    return _mm256_sub_epi32(_mm256_and_si256(_mm256_srli_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(bit)), 23), _mm256_set1_epi32(0xff)),
                            _mm256_set1_epi32(127));
}

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
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
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

// A compare-exchange of every lane with its partner p (a permutation of v): lanes whose bit is set in
// Hi keep the larger key.
template <int Hi>
__attribute__((target("avx2"), always_inline)) inline __m256i cx(__m256i v, __m256i p) {
    return _mm256_blend_epi32(_mm256_min_epi32(v, p), _mm256_max_epi32(v, p), Hi);
}

// Bitonic sort of 8 keys in a register (partners i^1; i^3, i^1; i^7, i^2, i^1).
__attribute__((target("avx2"), always_inline)) inline __m256i sort8(__m256i v, __m256i rev) {
    v = cx<0xaa>(v, _mm256_shuffle_epi32(v, 0xb1));
    v = cx<0xcc>(v, _mm256_shuffle_epi32(v, 0x1b));
    v = cx<0xaa>(v, _mm256_shuffle_epi32(v, 0xb1));
    v = cx<0xf0>(v, _mm256_permutevar8x32_epi32(v, rev));
    v = cx<0xcc>(v, _mm256_shuffle_epi32(v, 0x4e));
    return cx<0xaa>(v, _mm256_shuffle_epi32(v, 0xb1));
}

// The second half of a bitonic merge within a register (partners i^4, i^2, i^1).
__attribute__((target("avx2"), always_inline)) inline __m256i clean8(__m256i v) {
    v = cx<0xf0>(v, _mm256_permute4x64_epi64(v, 0x4e));
    v = cx<0xcc>(v, _mm256_shuffle_epi32(v, 0x4e));
    return cx<0xaa>(v, _mm256_shuffle_epi32(v, 0xb1));
}

// Bits i (i < 16) where key i >> Shift equals key i-1 >> Shift (bit 0 compares key 0 with key 7).
template <int Shift>
__attribute__((target("avx2"), always_inline)) inline std::uint32_t same_as_prev(__m256i s0, __m256i s1, __m256i p0, __m256i p1) {
    const int lo = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_srai_epi32(s0, Shift), _mm256_srai_epi32(p0, Shift))));
    const int hi = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_srai_epi32(s1, Shift), _mm256_srai_epi32(p1, Shift))));
    return static_cast<std::uint32_t>(lo) | static_cast<std::uint32_t>(hi) << 8;
}

// sorted_sectors16 for the 16 addresses at a16 (bit j of valid: a16[j] is the address of active lane lane[j];
// All: valid is 0xffff, no slot to mask).
template <bool All>
__attribute__((target("avx2,popcnt"), always_inline)) inline bool sorted_sectors16_avx2(const std::uint64_t* a16, const std::int32_t* lane,
                                                                                        std::uint32_t valid, std::uint64_t amask,
                                                                                        std::uint64_t base, std::uint64_t ab,
                                                                                        SortedSectors& out) {
    const __m256i lane0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(lane)),
                  lane1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(lane + 8));
    const __m256i m = _mm256_set1_epi64x(static_cast<long long>(amask)), b = _mm256_set1_epi64x(static_cast<long long>(base));
    const __m256i reach = _mm256_set1_epi64x(std::int64_t{1} << 26), val64 = _mm256_set1_epi64x(valid);
    __m256i rel[4], any = _mm256_setzero_si256();
#pragma GCC unroll 4
    for (int v = 0; v < 4; ++v) {
        const __m256i r = _mm256_sub_epi64(_mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a16) + v), m), b);
        rel[v] = r;
        if (!All) {  // an unused slot's bit moved to the sign bit: 0 there (in range)
            const __m256i on = _mm256_sllv_epi64(val64, _mm256_setr_epi64x(63 - 4 * v, 62 - 4 * v, 61 - 4 * v, 60 - 4 * v));
            rel[v] = _mm256_castpd_si256(_mm256_blendv_pd(_mm256_setzero_pd(), _mm256_castsi256_pd(r), _mm256_castsi256_pd(on)));
        }
        any = _mm256_or_si256(any, _mm256_add_epi64(rel[v], reach));  // in range: 0 .. 2^27 - 1
    }
    if (!_mm256_testz_si256(any, _mm256_set1_epi64x(~((std::int64_t{1} << 27) - 1)))) return false;
    const __m256i val32 = _mm256_set1_epi32(static_cast<int>(valid)), top = _mm256_set1_epi32(0x7fffffff);
    __m256i k[2];
#pragma GCC unroll 2
    for (int v = 0; v < 2; ++v) {  // low halves of the distances, << 5 | lane; an unused slot sorts last
        const __m256 both = _mm256_shuffle_ps(_mm256_castsi256_ps(rel[2 * v]), _mm256_castsi256_ps(rel[2 * v + 1]), 0x88);
        const __m256i d = _mm256_or_si256(_mm256_slli_epi32(_mm256_permute4x64_epi64(_mm256_castps_si256(both), 0xd8), 5),
                                          v ? lane1 : lane0);
        k[v] = d;
        if (!All) {
            const __m256i on = _mm256_sllv_epi32(
                val32, _mm256_setr_epi32(31 - 8 * v, 30 - 8 * v, 29 - 8 * v, 28 - 8 * v, 27 - 8 * v, 26 - 8 * v, 25 - 8 * v, 24 - 8 * v));
            k[v] = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(top), _mm256_castsi256_ps(d), _mm256_castsi256_ps(on)));
        }
    }
    const __m256i rev = _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0);
    const __m256i s0 = sort8(k[0], rev), s1r = _mm256_permutevar8x32_epi32(sort8(k[1], rev), rev);
    const __m256i lo = clean8(_mm256_min_epi32(s0, s1r)), hi = clean8(_mm256_permutevar8x32_epi32(_mm256_max_epi32(s0, s1r), rev));
    // Each key's predecessor: rotate by one, the high register's first from the low one's last.
    const __m256i back = _mm256_setr_epi32(7, 0, 1, 2, 3, 4, 5, 6);
    const __m256i p0 = _mm256_permutevar8x32_epi32(lo, back), p1 = _mm256_blend_epi32(_mm256_permutevar8x32_epi32(hi, back), p0, 0x01);
    const int n = _mm_popcnt_u32(valid);
    const std::uint32_t live = (1u << n) - 1u;
    const std::uint32_t new_a = (~same_as_prev<5>(lo, hi, p0, p1) | 1u) & live;   // a distinct address starts here
    const std::uint32_t new_s = (~same_as_prev<10>(lo, hi, p0, p1) | 1u) & live;  // a sector
    const std::uint32_t new_l = (~same_as_prev<12>(lo, hi, p0, p1) | 1u) & live;  // a 128-byte line
    alignas(32) std::int32_t key[16];
    _mm256_store_si256(reinterpret_cast<__m256i*>(key), lo);
    _mm256_store_si256(reinterpret_cast<__m256i*>(key + 8), hi);
    // (Local references: a byte store could alias `out`, so its members would be reloaded after each.)
    std::array<std::int8_t, 32>& lane_sector = out.lane_sector;
    std::array<std::uint64_t, 32>& sector_addr = out.sector_addr;
    std::array<std::uint8_t, 32>& used = out.used;
    for (int i = 0, s = -1; i < n; ++i) {
        s += static_cast<int>((new_s >> i) & 1u);
        lane_sector[static_cast<std::size_t>(key[i] & 31)] = static_cast<std::int8_t>(s);
    }
    // A sector's keys run from its bit in new_s to the next one's (or n): its address is the first
    // key's, its used bytes the new addresses in that run.
    const int sectors = _mm_popcnt_u32(new_s);
    std::uint32_t rest = new_s;
    for (int s = 0; s < sectors; ++s) {
        const std::uint32_t first = rest & (0u - rest);
        rest ^= first;
        const std::uint32_t next = (rest | (1u << n)) & (0u - (rest | (1u << n)));
        sector_addr[static_cast<std::size_t>(s)] =
            base + (static_cast<std::uint64_t>(static_cast<std::int64_t>(key[std::countr_zero(first)] >> 10)) << 5);
        used[static_cast<std::size_t>(s)] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(_mm_popcnt_u32(new_a & (next - first))) *
                                                                      ab);
    }
    out.sectors = sectors;
    out.distinct = _mm_popcnt_u32(new_a);
    out.lines = _mm_popcnt_u32(new_l);
    return true;
}

#endif

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

}  // namespace

namespace {

// What this CPU runs (checked once): 0 no AVX2, 1 AVX2, 2 AVX2 + GFNI, 3 AVX-512 + GFNI.
int vector_level() {
#ifdef OCC_RANK_AVX2
    static const int level = !__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("popcnt")      ? 0
                             : !__builtin_cpu_supports("gfni")                                         ? 1
                             : __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") ? 3
                                                                                                       : 2;
    return level;
#else
    return 0;
#endif
}

// full_sector_rank32 without the sorted outputs: the ranks of sector_dense_rank32.
int full_sector_ranks_only(const std::array<std::uint64_t, 32>& addr, std::uint64_t amask, std::array<std::uint8_t, 32>& below,
                           std::array<std::uint64_t, 32>& /*sector_addr*/, int& lines) {
    lines = 0;
    return sector_dense_rank32(addr, amask, 0xffffffffu, below);
}

// Each primitive's version for a level (see the _level functions), capped at what the CPU has.
using FullSectorRank = int (*)(const std::array<std::uint64_t, 32>&, std::uint64_t, std::array<std::uint8_t, 32>&,
                               std::array<std::uint64_t, 32>&, int&);
FullSectorRank full_sector_rank32_version(int level) {
    level = std::min(level, std::max(0, vector_level() - 1));
#ifdef OCC_RANK_AVX2
    if (level >= 2) return full_sector_rank32_512;
    if (level == 1) return full_sector_rank32_gfni;
#endif
    return full_sector_ranks_only;
}
using OneWordBanksFn = void (*)(const std::array<std::uint32_t, 32>&, std::array<std::int8_t, 32>&, std::array<std::uint32_t, 32>&,
                                std::array<std::uint8_t, 32>&, OneWordBanks&);
OneWordBanksFn one_word_banks32_version(int level) {
    level = std::min(level, vector_level());
#ifdef OCC_RANK_AVX2
    if (level >= 2) return one_word_banks32_gfni;
    if (level == 1) return one_word_banks32_avx2;
#endif
    return one_word_banks32_plain;
}

}  // namespace

void sort_keys(std::array<std::uint64_t, 32>& key, int n) {
    if (n <= 8) sort_network<8>(key, n);
    else if (n <= 16) sort_network<16>(key, n);
    else std::sort(key.begin(), key.begin() + n);
}

int full_sector_rank32_level() { return std::max(0, vector_level() - 1); }

int full_sector_rank32_at(int level, const std::array<std::uint64_t, 32>& addr, std::uint64_t amask, std::array<std::uint8_t, 32>& below,
                          std::array<std::uint64_t, 32>& sector_addr, int& lines) {
    return full_sector_rank32_version(level)(addr, amask, below, sector_addr, lines);
}

int full_sector_rank32(const std::array<std::uint64_t, 32>& addr, std::uint64_t amask, std::array<std::uint8_t, 32>& below,
                       std::array<std::uint64_t, 32>& sector_addr, int& lines) {
    static const FullSectorRank version = full_sector_rank32_version(full_sector_rank32_level());
    return version(addr, amask, below, sector_addr, lines);
}

int sector_dense_rank32(const std::array<std::uint64_t, 32>& addr, std::uint64_t amask, std::uint32_t active,
                        std::array<std::uint8_t, 32>& below) {
#ifdef OCC_RANK_AVX2
    static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
    if (avx2) return sector_dense_rank32_avx2(addr, amask, active, below);
#endif
    std::array<std::int32_t, 32> key;
    if (!sector_keys_plain(addr, amask, active, key)) return -1;
    return dense_rank32_plain(key, below);
}

#ifdef OCC_RANK_AVX2
namespace {

constexpr std::uint64_t kLineBytes = 128;
constexpr std::int32_t kLaneIds[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                       16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};

__attribute__((target("avx2,popcnt"))) bool sorted_sectors16_any(const std::array<std::uint64_t, 32>& addr, std::uint64_t amask,
                                                                 std::uint32_t active, std::uint64_t ab, SortedSectors& out) {
    const std::uint64_t base = addr[static_cast<std::size_t>(std::countr_zero(active))] & amask & ~std::uint64_t{kLineBytes - 1};
    if ((active & 0xffffu) == active || (active >> 16) << 16 == active) {  // all in lanes 0-15, or all in 16-31
        const int w0 = active >> 16 ? 16 : 0;
        if (active >> w0 == 0xffffu) return sorted_sectors16_avx2<true>(addr.data() + w0, kLaneIds + w0, 0xffffu, amask, base, ab, out);
        return sorted_sectors16_avx2<false>(addr.data() + w0, kLaneIds + w0, active >> w0, amask, base, ab, out);
    }
    std::uint64_t a16[16];
    std::int32_t lane[16] = {};
    int n = 0;
    for (std::uint32_t m = active; m; m &= m - 1, ++n) {
        lane[n] = std::countr_zero(m);
        a16[n] = addr[static_cast<std::size_t>(lane[n])];
    }
    return sorted_sectors16_avx2<false>(a16, lane, (1u << n) - 1u, amask, base, ab, out);
}

}  // namespace
#endif

bool sorted_sectors16(const std::array<std::uint64_t, 32>& addr, std::uint64_t amask, std::uint32_t active, std::uint64_t ab,
                      SortedSectors& out) {
#ifdef OCC_RANK_AVX2
    static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
    if (avx2 && active != 0 && pop32(active) <= 16) return sorted_sectors16_any(addr, amask, active, ab, out);
#endif
    (void)addr, (void)amask, (void)active, (void)ab, (void)out;
    return false;
}

int dense_rank32(const std::array<std::int32_t, 32>& key, std::array<std::uint8_t, 32>& below) {
#ifdef OCC_RANK_AVX2
    static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
    if (avx2) return dense_rank32_avx2(key, below);
#endif
    return dense_rank32_plain(key, below);
}

int one_word_banks32_level() { return std::min(vector_level(), 2); }

void one_word_banks32_at(int level, const std::array<std::uint32_t, 32>& word, std::array<std::int8_t, 32>& lane_bank,
                         std::array<std::uint32_t, 32>& bank_lanes, std::array<std::uint8_t, 32>& lanes_in, OneWordBanks& out) {
    one_word_banks32_version(level)(word, lane_bank, bank_lanes, lanes_in, out);
}

void one_word_banks32(const std::array<std::uint32_t, 32>& word, std::array<std::int8_t, 32>& lane_bank,
                      std::array<std::uint32_t, 32>& bank_lanes, std::array<std::uint8_t, 32>& lanes_in, OneWordBanks& out) {
    static const OneWordBanksFn version = one_word_banks32_version(one_word_banks32_level());
    version(word, lane_bank, bank_lanes, lanes_in, out);
}

}  // namespace occ::detail
