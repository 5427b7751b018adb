// banks.cpp — shared-memory bank-conflict model (see occ/banks.hpp).
//
// [SECTION] analyze_banks (hot path)
// [SECTION] Block totals, reason and fix
#include "occ/banks.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <utility>

#include "cpu_dispatch.hpp"  // OCC_HOT_CLONES
#include "lane_rank.hpp"
#include "memory_block.hpp"

namespace occ {

int bank_phases(int access_bytes) {
    // MODEL.md / NVIDIA forums and Nsight Compute's shared-memory wavefront counts: 64-bit accesses
    // are processed as two half-warp phases, 128-bit accesses as four quarter-warp phases.
    return access_bytes == 16 ? 4 : access_bytes == 8 ? 2 : 1;
}

// [SECTION] analyze_banks

namespace {

// A full warp at a constant step of d bytes (mod 4 GiB), d a multiple of 4: the shape of every
// strided, vector and broadcast access. Lane i's first word is W0 + i*dw; its bank depends only on
// i mod p, p = 32 / gcd(dw mod 32, 32), so each used bank gets L/p lanes of a phase of L lanes
// (at least 1), all asking for different words unless d = 0 (broadcast). Returns false when the
// warp is not such an access.
[[gnu::always_inline]] inline bool analyze_banks_affine(const WarpAccess& w, int ab, BankResult& r) {
    const std::uint32_t align = ~static_cast<std::uint32_t>(ab - 1);
    const std::uint32_t a0 = static_cast<std::uint32_t>(w.addr[0]) & align;
    const std::uint32_t d = (static_cast<std::uint32_t>(w.addr[1]) & align) - a0;
    if (d % kBankBytes != 0 || (static_cast<std::uint32_t>(w.addr[2]) & align) != a0 + 2 * d) return false;  // gathers stop here
    std::uint32_t off_step = 0, expect = a0 + d;
    for (int i = 2; i < kWarpLanes; ++i) {
        expect += d;
        off_step |= (static_cast<std::uint32_t>(w.addr[static_cast<std::size_t>(i)]) & align) ^ expect;
    }
    // Non-negative steps that stay inside 4 GiB only (the general path handles the rest).
    if (off_step != 0 || static_cast<std::uint64_t>(a0) + 31u * static_cast<std::uint64_t>(d) > 0xffffffffull) return false;
    const int lanes_per_phase = kWarpLanes / r.phases;
    const std::uint32_t words_per_lane = ab >= kBankBytes ? static_cast<std::uint32_t>(ab / kBankBytes) : 1u;
    const std::uint32_t w0 = a0 / kBankBytes, dw = d / kBankBytes;
    // gcd(dw mod 32, 32) = 2^min(ctz, 5) (gcd(0, 32) = 32), so p and the way are shifts, not divisions
    // (two integer divisions were a quarter of this path's time). d = 0 gives p = 1.
    const int log_p = 5 - std::countr_zero((dw % kBanks) | static_cast<std::uint32_t>(kBanks));
    const int p = 1 << log_p;
    const int way = d == 0 ? 1 : std::max(1, lanes_per_phase >> log_p);
    for (std::uint32_t i = 0; i < kWarpLanes; ++i) r.lane_bank[i] = static_cast<std::int8_t>((w0 + i * dw) % kBanks);
    // Lanes i0, i0 + p, i0 + 2p ... share lane i0's banks.
    static constexpr std::uint32_t kEvery[6] = {0xffffffffu, 0x55555555u, 0x11111111u,
                                                0x01010101u, 0x00010001u, 0x00000001u};  // by log2(p)
    const std::uint32_t every_p = kEvery[log_p];
    for (int i0 = 0; i0 < p; ++i0) {
        const std::uint32_t b0 = static_cast<std::uint32_t>(r.lane_bank[static_cast<std::size_t>(i0)]);
        for (std::uint32_t k = 0; k < words_per_lane; ++k) {
            r.bank_lanes[b0 + k] |= every_p << i0;
            r.bank_way[b0 + k] = static_cast<std::uint8_t>(way);
        }
    }
    r.active_lanes = kWarpLanes;
    for (int ph = 0; ph < r.phases; ++ph) r.phase_wavefronts[static_cast<std::size_t>(ph)] = static_cast<std::uint8_t>(way);
    r.wavefronts = r.phases * way;
    r.ideal_wavefronts = r.phases;
    r.max_way = way;
    r.conflict_lanes = way > 1 ? 0xffffffffu : 0u;
    r.conflicts = r.wavefronts - r.ideal_wavefronts;
    return true;
}

// The busiest bank of a phase whose lanes share banks: distinct words per bank, raised into bank_way,
// and the lanes that wait (conflict_lanes); returns the most words one bank is asked for. Lanes asking
// for the same word get the same dense id (lane_rank.hpp), so a bank's distinct words are the distinct
// ids of its lanes (a broadcast counts once). Aligned accesses of one width cover whole groups of
// words_per_lane banks: lanes with the same first bank share all their words or none, so each group is
// counted at its first bank. `lanes_in`: a full warp's lanes per bank, when known.
int phase_distinct_words(const std::array<std::uint32_t, kWarpLanes>& lane_word, std::uint32_t lanes, std::uint32_t words_per_lane,
                         const std::array<std::uint8_t, kBanks>* lanes_in, BankResult& r) {
    std::array<std::int32_t, kWarpLanes> key;
    if (lanes == 0xffffffffu)
        for (std::size_t i = 0; i < kWarpLanes; ++i) key[i] = static_cast<std::int32_t>(lane_word[i]);
    else
        for (std::size_t i = 0; i < kWarpLanes; ++i)
            key[i] = (lanes >> i) & 1u ? static_cast<std::int32_t>(lane_word[i]) : std::numeric_limits<std::int32_t>::max();
    std::array<std::uint8_t, kWarpLanes> id;
    const int ids = detail::dense_rank32(key, id) - (lanes != 0xffffffffu);  // inactive lanes share one more id
    std::array<std::uint8_t, kBanks> count;
    if (ids == detail::pop32(lanes) && lanes_in) {
        count = *lanes_in;  // every lane asks for its own word: a bank's words are its lanes
    } else if (ids == detail::pop32(lanes)) {
        for (std::size_t bank = 0; bank < kBanks; ++bank)
            count[bank] = static_cast<std::uint8_t>(detail::pop32(r.bank_lanes[bank] & lanes));
    } else {
        std::array<std::uint32_t, kBanks> ids_of{};  // bit d: a lane of this phase asks this bank for word id d
        for (std::uint32_t m = lanes; m; m &= m - 1) {
            const std::size_t lane = static_cast<std::size_t>(std::countr_zero(m));
            const std::size_t b0 = lane_word[lane] % kBanks;
            for (std::size_t k = 0; k < words_per_lane; ++k) ids_of[b0 + k] |= 1u << id[lane];
        }
        for (std::size_t bank = 0; bank < kBanks; ++bank) count[bank] = static_cast<std::uint8_t>(detail::pop32(ids_of[bank]));
    }
    std::uint8_t most = 0;
    std::uint32_t conflicted = 0;
    for (std::size_t bank = 0; bank < kBanks; ++bank) {
        most = std::max(most, count[bank]);
        r.bank_way[bank] = std::max(r.bank_way[bank], count[bank]);
        conflicted |= count[bank] > 1 ? r.bank_lanes[bank] : 0u;
    }
    r.conflict_lanes |= conflicted & lanes;
    return most;
}

}  // namespace

namespace {

// The model for a given phase count (bank_phases, or half of it for a paired load).
[[gnu::always_inline]] inline BankResult analyze_banks_phases(const WarpAccess& w, int ab, int phases) {
    BankResult r;
    r.lane_bank.fill(-1);
    r.phases = phases;
    if (w.active == 0xffffffffu && analyze_banks_affine(w, ab, r)) return r;
    const int lanes_per_phase = kWarpLanes / r.phases;
    const std::uint32_t words_per_lane = ab >= kBankBytes ? static_cast<std::uint32_t>(ab / kBankBytes) : 1u;
    const std::uint32_t lane_banks = (1u << words_per_lane) - 1u;  // the banks one lane covers, from its first
    const std::uint32_t phase_mask = lanes_per_phase == kWarpLanes ? 0xffffffffu : (1u << lanes_per_phase) - 1u;
    const std::uint32_t align = ~static_cast<std::uint32_t>(ab - 1);
    // First word of each lane. Programming Guide, "Shared Memory" (5.x+): successive 32-bit words map to
    // successive banks. Words are kept modulo 2^30 (addresses modulo 4 GiB): shared memory is at most 228 KiB.
    std::array<std::uint32_t, kWarpLanes> lane_word;
    for (std::size_t i = 0; i < kWarpLanes; ++i) lane_word[i] = (static_cast<std::uint32_t>(w.addr[i]) & align) / kBankBytes;
    if (words_per_lane == 1 && w.active == 0xffffffffu) {
        // A full warp of one-word lanes (a gather, a permutation; one phase), in one pass (lane_rank.hpp):
        // bank_way takes each bank's lanes, its words when no two lanes share a bank or every lane asks
        // for its own word.
        detail::OneWordBanks s;
        detail::one_word_banks32(lane_word, r.lane_bank, r.bank_lanes, r.bank_way, s);
        r.active_lanes = kWarpLanes;
        r.ideal_wavefronts = 1;
        int wf = static_cast<int>(s.most);
        if (s.distinct) {
            r.conflict_lanes = s.most > 1 ? s.shared : 0u;
        } else {
            const std::array<std::uint8_t, kBanks> lanes_in = r.bank_way;
            r.bank_way.fill(0);
            wf = phase_distinct_words(lane_word, 0xffffffffu, 1, &lanes_in, r);
        }
        r.phase_wavefronts[0] = static_cast<std::uint8_t>(wf);
        r.wavefronts = wf;
        r.max_way = wf;
        r.conflicts = wf - 1;
        return r;
    }
    std::uint32_t one_word_banks = 0;  // banks used by a conflict-free phase
    for (int ph = 0; ph < r.phases; ++ph) {
        const int first = ph * lanes_per_phase;
        const std::uint32_t lanes = w.active & (phase_mask << first);
        if (lanes == 0) continue;  // a phase with no active lane costs nothing
        r.active_lanes += detail::pop32(lanes);
        std::uint32_t banks_seen = 0;
        bool collide = false;
        for (std::uint32_t m = lanes; m; m &= m - 1) {
            const int lane = std::countr_zero(m);
            const std::uint32_t b0 = lane_word[static_cast<std::size_t>(lane)] % kBanks;  // aligned accesses never wrap past bank 31
            r.lane_bank[static_cast<std::size_t>(lane)] = static_cast<std::int8_t>(b0);
            const std::uint32_t bits = lane_banks << b0;
            collide |= (banks_seen & bits) != 0;
            banks_seen |= bits;
            if (words_per_lane == 1) r.bank_lanes[b0] |= 1u << lane;
            else
                for (std::uint32_t k = 0; k < words_per_lane; ++k) r.bank_lanes[b0 + k] |= 1u << lane;
        }
        int wf = 1;
        if (!collide) one_word_banks |= banks_seen;  // every bank is asked for at most one word (bank_way is raised to 1 at the end)
        else wf = phase_distinct_words(lane_word, lanes, words_per_lane, nullptr, r);
        // A phase needs as many wavefronts as its busiest bank has distinct words.
        r.phase_wavefronts[static_cast<std::size_t>(ph)] = static_cast<std::uint8_t>(wf);
        r.wavefronts += wf;
        r.ideal_wavefronts += 1;
        r.max_way = std::max(r.max_way, wf);
    }
    for (int bank = 0; one_word_banks != 0 && bank < kBanks; ++bank) {
        auto& way = r.bank_way[static_cast<std::size_t>(bank)];
        way = std::max(way, static_cast<std::uint8_t>((one_word_banks >> bank) & 1u));
    }
    // Nsight Compute Profiling Guide, shared-memory table: bank conflicts = wavefronts - ideal wavefronts.
    r.conflicts = r.wavefronts - r.ideal_wavefronts;
    return r;
}

// valid_access_bytes (1, 2, 4, 8 or 16), inline: a power of two up to 16 (else 4; callers checked it).
inline int bank_access_bytes(int wb) { return wb >= 1 && wb <= 16 && (wb & (wb - 1)) == 0 ? wb : 4; }

}  // namespace

OCC_HOT_CLONES BankResult analyze_banks(const WarpAccess& w) {
    const int ab = bank_access_bytes(w.access_bytes);
    return analyze_banks_phases(w, ab, bank_phases(ab));
}

int shared_load_pairs(const WarpAccess& w) {
    // NVIDIA developer forum, "Unexpected shared memory bank conflict" (NVIDIA's answer,
    // https://forums.developer.nvidia.com/t/unexpected-shared-memory-bank-conflict/77228/2): shared loads
    // "with uniform addresses" return 128 bytes = 1 register per cycle, packed two lanes at a time when
    // "Thread pairs (Tn and Tn^1) have the same addresses for all active threads", or Tn and Tn^2 ("these
    // encompass the case where all active threads have the same address"): LDS.128 then takes 2 requests
    // instead of 4. The same packing halves LDS.64 (2 -> 1); stores are never packed (reported counter measurements).
    if (w.op != AccessOp::load || (w.access_bytes != 8 && w.access_bytes != 16) || w.active == 0) return 0;
    // A pair with an inactive lane neither breaks the rule nor makes it: at least one pair must have both
    // lanes active (one lane alone, or every other lane active with distinct addresses, is no pairing).
    for (int k : {1, 2}) {
        bool pairs = true, any = false;
        for (int lane = 0; lane < kWarpLanes && pairs; ++lane) {
            const int other = lane ^ k;
            if (((w.active >> lane) & 1u) && ((w.active >> other) & 1u)) {
                pairs = w.addr[static_cast<std::size_t>(lane)] == w.addr[static_cast<std::size_t>(other)];
                any = true;
            }
        }
        if (pairs && any) return k;
    }
    return 0;
}

OCC_HOT_CLONES BankResult analyze_banks(const WarpAccess& w, const ArchRules& a) {
    const int ab = bank_access_bytes(w.access_bytes);
    const int pairs = a.smem_paired_load_merge ? shared_load_pairs(w) : 0;
    if (pairs == 0) return analyze_banks_phases(w, ab, bank_phases(ab));
    // Two lanes' registers per wavefront: a phase covers twice the lanes (8-byte: the whole warp,
    // 16-byte: a half-warp), so 128 bytes of distinct data still fill one wavefront.
    BankResult r = analyze_banks_phases(w, ab, bank_phases(ab) / 2);
    r.load_pairs = pairs;
    return r;
}

int bank_lane_list(const BankResult& r, int bank, std::array<std::int8_t, kWarpLanes>& out) {
    if (bank < 0 || bank >= kBanks) return 0;
    int n = 0;
    const std::uint32_t m = r.bank_lanes[static_cast<std::size_t>(bank)];
    for (int lane = 0; lane < kWarpLanes; ++lane)
        if ((m >> lane) & 1u) out[static_cast<std::size_t>(n++)] = static_cast<std::int8_t>(lane);
    return n;
}

std::string banks_model_unsupported(const ArchRules& a) {
    if (a.banks_model) return {};
    // Programming Guide, "Compute Capability 3.x" shared memory: Kepler has a configurable 4- or 8-byte
    // bank width (cudaDeviceSetSharedMemConfig); occ models the 4-byte banks of 5.0 and newer only.
    return "cc: the bank model covers compute capability 5.0 and newer (32 banks of 4 bytes); cc " + std::to_string(a.cc_major) + "." +
           std::to_string(a.cc_minor) + " (" + a.family + ") has a configurable 4- or 8-byte bank mode that occ does not model";
}

std::string banks_access_unsupported(int access_bytes) {
    if (access_bytes <= 16) return {};
    // PTX ISA 8.8, ld / st: ".v8 (.b32) and .v4 with .b64 are supported if the state space is .global or
    // generic addressing pointing to .global"; ptxas refuses ld.shared.v8 on every target ("global state
    // space expected for feature '256 bit wide load/store'").
    return "access_bytes: shared memory takes 1, 2, 4, 8 or 16 bytes per lane, got " + std::to_string(access_bytes) +
           "; the 256-bit ld/st forms (.v8.b32, .v4.b64, PTX ISA 8.8) are .global only (ptxas refuses ld.shared.v8), so a " +
           std::to_string(access_bytes) +
           "-byte shared access is two 16-byte instructions: model access_bytes 16 (4 phases of 8 lanes each)";
}

// [SECTION] Block totals, reason and fix

namespace {

struct Totals {
    std::int64_t wavefronts = 0, ideal = 0, conflicts = 0;
    int max_way = 0;
};

Totals totals_of(const AccessPattern& p, const ArchRules& arch, std::vector<BankResult>* keep, int* worst) {
    Totals t;
    std::int64_t worst_conf = -1;
    for (int wi = 0; wi < p.warps(); ++wi) {
        const BankResult r = analyze_banks(make_warp_access(p, wi), arch);
        t.wavefronts += r.wavefronts;
        t.ideal += r.ideal_wavefronts;
        t.conflicts += r.conflicts;
        t.max_way = std::max(t.max_way, r.max_way);
        if (worst && r.conflicts > worst_conf) {
            worst_conf = r.conflicts;
            *worst = wi;
        }
        if (keep) keep->push_back(r);
    }
    return t;
}

}  // namespace

const char* bank_phase_text(const BankResult& w) {
    if (w.load_pairs == 1)
        return w.phases == 1 ? " (an 8-byte load whose lanes t and t^1 share addresses: 1 phase of 32 lanes, not 2)"
                             : " (a 16-byte load whose lanes t and t^1 share addresses: 2 phases of 16 lanes, not 4)";
    if (w.load_pairs == 2)
        return w.phases == 1 ? " (an 8-byte load whose lanes t and t^2 share addresses: 1 phase of 32 lanes, not 2)"
                             : " (a 16-byte load whose lanes t and t^2 share addresses: 2 phases of 16 lanes, not 4)";
    return w.phases == 1   ? ""
           : w.phases == 2 ? " (8-byte accesses run as 2 phases of 16 lanes)"
                           : " (16-byte accesses run as 4 phases of 8 lanes)";
}

namespace {

std::string lane_list_text(std::uint32_t mask) {
    std::string s;
    for (int lane = 0; lane < kWarpLanes;) {
        if (!((mask >> lane) & 1u)) {
            ++lane;
            continue;
        }
        int end = lane;
        while (end + 1 < kWarpLanes && ((mask >> (end + 1)) & 1u)) ++end;
        if (!s.empty()) s += ", ";
        s += end == lane ? std::to_string(lane) : std::to_string(lane) + "-" + std::to_string(end);
        lane = end + 1;
    }
    return s;
}

}  // namespace

BankBlockResult analyze_banks_block(const AccessPattern& p, const ArchRules& arch) {
    BankBlockResult b;
    std::string refusal = banks_model_unsupported(arch);
    if (refusal.empty()) refusal = banks_access_unsupported(p.access_bytes);
    if (!detail::start_block(b, std::move(refusal), p)) return b;
    const Totals t = totals_of(p, arch, &b.warps, &b.worst_warp);
    b.wavefronts = t.wavefronts;
    b.ideal_wavefronts = t.ideal;
    b.conflicts = t.conflicts;
    b.max_way = t.max_way;

    // The two standard fixes, evaluated on the same pattern (2-D tiles only).
    if (p.kind == PatternKind::index_2d) {
        AccessPattern padded = p;
        padded.pad = p.pad + 1;
        AccessPattern swz = p;
        swz.swizzle = true;
        if (check_pattern(padded).empty()) b.conflicts_padded = totals_of(padded, arch, nullptr, nullptr).conflicts;
        if (check_pattern(swz).empty()) b.conflicts_swizzled = totals_of(swz, arch, nullptr, nullptr).conflicts;
    }

    const BankResult& w = b.warps[static_cast<std::size_t>(b.worst_warp)];
    char buf[400];
    if (w.active_lanes == 0) {
        b.reason = "no active lane: no shared-memory access";
        return b;
    }
    const char* phase_txt = bank_phase_text(w);
    if (b.conflicts == 0) {
        bool shared_word = false;
        {
            // Any bank whose lanes outnumber its words means lanes shared a word (broadcast).
            for (int bank = 0; bank < kBanks && !shared_word; ++bank) {
                const int lanes = std::popcount(w.bank_lanes[static_cast<std::size_t>(bank)]);
                if (lanes > w.bank_way[static_cast<std::size_t>(bank)] * w.phases) shared_word = true;
            }
        }
        std::snprintf(buf, sizeof buf,
                      "no bank conflict: every bank serves at most one word per phase%s; %d wavefront%s per warp, the ideal%s",
                      shared_word ? ", lanes asking for the same word share it (broadcast)" : "", w.wavefronts,
                      w.wavefronts == 1 ? "" : "s", phase_txt);
        b.reason = buf;
        return b;
    }
    // The most loaded bank of the worst warp, and its lanes.
    int bank = 0;
    for (int k = 1; k < kBanks; ++k)
        if (w.bank_way[static_cast<std::size_t>(k)] > w.bank_way[static_cast<std::size_t>(bank)]) bank = k;
    std::string cause;
    const std::int64_t eb = p.element_bytes();
    if (p.kind == PatternKind::affine && p.access_bytes == kBankBytes && (p.stride * eb) % kBankBytes == 0 && p.stride != 0) {
        // A stride of s words visits 32 / gcd(s, 32) banks, so gcd(s, 32) lanes share each one.
        const std::int64_t words = std::abs(p.stride * eb) / kBankBytes;
        cause = "stride of " + std::to_string(words) + " words (" + std::to_string(std::abs(p.stride * eb)) +
                " bytes) between lanes: " + std::to_string(std::gcd(words, std::int64_t{kBanks})) + " lanes share each bank they use; ";
    } else if (p.kind == PatternKind::affine && p.stride != 0) {
        cause = "stride of " + std::to_string(std::abs(p.stride * eb)) + " bytes between lanes; ";
    } else if (p.kind == PatternKind::index_2d && p.order == IndexOrder::column) {
        const std::int64_t row_bytes = p.row_pitch() * eb;
        cause = "threadIdx.x walks down a column: lanes are one row (" + std::to_string(row_bytes) + " bytes) apart" +
                (row_bytes % (kBanks * kBankBytes) == 0 ? ", a multiple of 128 bytes, so they land in the same bank; " : "; ");
    }
    std::snprintf(buf, sizeof buf, "%sbank %d is asked for %d different words by lanes %s: %d-way conflict, %d wavefronts instead of %d%s",
                  cause.c_str(), bank, w.bank_way[static_cast<std::size_t>(bank)],
                  lane_list_text(w.bank_lanes[static_cast<std::size_t>(bank)]).c_str(), w.max_way, w.wavefronts, w.ideal_wavefronts,
                  phase_txt);
    b.reason = buf;

    if (p.kind == PatternKind::index_2d) {
        std::string fix;
        if (b.conflicts_padded >= 0 && b.conflicts_padded < b.conflicts)
            fix = "pad each row by one element (pitch " + std::to_string(p.row_pitch() + 1) + ", e.g. tile[" +
                  std::to_string(p.row_pitch() - p.pad) + "][" + std::to_string(p.row_pitch() + 1) + "]): " + std::to_string(b.conflicts) +
                  " -> " + std::to_string(b.conflicts_padded) + " conflicts";
        if (!p.swizzle && b.conflicts_swizzled >= 0 && b.conflicts_swizzled < b.conflicts)
            fix += std::string(fix.empty() ? "" : "; or ") +
                   "XOR-swizzle the column (col ^ row) with no extra memory: " + std::to_string(b.conflicts) + " -> " +
                   std::to_string(b.conflicts_swizzled) + " conflicts";
        b.fix = fix.empty() ? "neither one element of padding nor an XOR swizzle helps here; change which lanes read which words" : fix;
    } else if (p.kind == PatternKind::affine && (p.stride * eb) % kBankBytes == 0) {
        // An odd stride in words visits all 32 banks (gcd(odd, 32) = 1).
        AccessPattern odd = p;
        const std::int64_t step = std::max<std::int64_t>(1, kBankBytes / eb);
        odd.stride = p.stride + step;
        std::int64_t after = -1;
        if (check_pattern(odd).empty()) after = totals_of(odd, arch, nullptr, nullptr).conflicts;
        if (after >= 0 && after < b.conflicts)
            b.fix = "make the stride an odd number of " + std::string(eb >= kBankBytes ? "elements" : "words") + " (pad each row, stride " +
                    std::to_string(odd.stride) + "): " + std::to_string(b.conflicts) + " -> " + std::to_string(after) + " conflicts";
        else b.fix = "pad rows by one word or XOR-swizzle the index so the lanes of a phase reach different banks";
    } else {
        b.fix = "spread the lanes of each phase over different banks: pad rows by one word or XOR-swizzle the index";
    }
    return b;
}

}  // namespace occ
