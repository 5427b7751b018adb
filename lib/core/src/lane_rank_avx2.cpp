// lane_rank_avx2.cpp — the AVX2 versions of lane_rank.hpp's primitives (see lane_rank_x86.hpp).
//
// [SECTION] Dense ranks
// [SECTION] A full warp's banks
// [SECTION] Up to 16 lanes, sorted in registers
#include "lane_rank_x86.hpp"

#ifdef OCC_X86_SIMD
namespace occ::detail {

// [SECTION] Dense ranks

__attribute__((target("avx2,popcnt"))) int dense_rank32_avx2(const std::array<std::int32_t, 32>& key, std::array<std::uint8_t, 32>& below) {
    __m256i c[4];
    const std::uint32_t firsts = smaller_counts(key, c);
    return dense_below(c, firsts, below);
}

__attribute__((target("avx2,popcnt"))) int sector_dense_rank32_avx2(const std::array<std::uint64_t, 32>& addr, std::uint64_t amask,
                                                                    std::uint32_t active, std::array<std::uint8_t, 32>& below) {
    alignas(32) std::array<std::int32_t, 32> key;
    if (!(active == 0xffffffffu ? sector_keys_avx2<true>(addr, amask, active, key) : sector_keys_avx2<false>(addr, amask, active, key)))
        return -1;
    return dense_rank32_avx2(key, below);
}

// [SECTION] A full warp's banks

// Each bank's lanes as a byte compare of the 32 lanes' banks and a movemask, the rest in general
// registers: the largest count as a set of counts seen (a vector max, or a bank id folded into a
// constant, moves values between the register files, about 5 cycles a bank). g++'s SLP vectoriser
// would move the counts into vector registers again; clang has no per-function switch for it.
#if defined(__clang__)
#define OCC_AVX2_NO_SLP __attribute__((target("avx2,popcnt")))
#else
#define OCC_AVX2_NO_SLP __attribute__((target("avx2,popcnt"), optimize("no-tree-slp-vectorize")))
#endif
OCC_AVX2_NO_SLP void one_word_banks32_avx2(const std::array<std::uint32_t, 32>& word, std::array<std::int8_t, 32>& lane_bank,
                                           std::array<std::uint32_t, 32>& bank_lanes, std::array<std::uint8_t, 32>& lanes_in,
                                           OneWordBanks& s) {
    __m256i w[4];
    const __m256i banks = lane_banks(word, lane_bank, w);
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
    s.distinct = s.most <= 1 || words_distinct16(w) ? 1u : 0u;
}

// [SECTION] Up to 16 lanes, sorted in registers

namespace {

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
__attribute__((target("avx2,popcnt"), always_inline)) inline bool sorted_sectors_of16(const std::uint64_t* a16, const std::int32_t* lane,
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

constexpr std::uint64_t kLineBytes = 128;
constexpr std::int32_t kLaneIds[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                       16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};

}  // namespace

// The active lanes (1..16; the entry point checks) gathered into one run of 16 slots, unless they are
// all in one half of the warp already.
__attribute__((target("avx2,popcnt"))) bool sorted_sectors16_avx2(const std::array<std::uint64_t, 32>& addr, std::uint64_t amask,
                                                                  std::uint32_t active, std::uint64_t ab, SortedSectors& out) {
    const std::uint64_t base = addr[static_cast<std::size_t>(std::countr_zero(active))] & amask & ~std::uint64_t{kLineBytes - 1};
    if ((active & 0xffffu) == active || (active >> 16) << 16 == active) {  // all in lanes 0-15, or all in 16-31
        const int w0 = active >> 16 ? 16 : 0;
        if (active >> w0 == 0xffffu) return sorted_sectors_of16<true>(addr.data() + w0, kLaneIds + w0, 0xffffu, amask, base, ab, out);
        return sorted_sectors_of16<false>(addr.data() + w0, kLaneIds + w0, active >> w0, amask, base, ab, out);
    }
    std::uint64_t a16[16];
    std::int32_t lane[16] = {};
    int n = 0;
    for (std::uint32_t m = active; m; m &= m - 1, ++n) {
        lane[n] = std::countr_zero(m);
        a16[n] = addr[static_cast<std::size_t>(lane[n])];
    }
    return sorted_sectors_of16<false>(a16, lane, (1u << n) - 1u, amask, base, ab, out);
}

}  // namespace occ::detail
#endif
