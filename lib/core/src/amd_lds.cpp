// amd_lds.cpp — LDS bank conflicts of one wave on an AMD target (occ/amd_lds.hpp).
//
// [SOURCES] (the per-target rules and their citations live in amd_arch.cpp; docs/AMD.md "LDS bank
// conflicts" lists each with its section)
//   [SHARK] github.com/nod-ai/amd-shark-ai docs/amdgpu_kernel_optimization_guide.md, "Workgroup Memory (LDS)":
//           bank = (address / 4) % 32 on MI300 (% 64 on MI355X); "LDS access is 'fast' ... when
//           threads access the same address and the value gets broadcast, or when threads access a
//           unique bank"; "Avoiding LDS Bank Conflicts": the lane groups of each ds_read width
//   [EMP]   github.com/nod-ai/amd-shark-ai docs/empirical-lds/cdna3info.md: the rocprof bank-conflict count of
//           one ds_read saturates at (lanes per phase - 1) x phases (62 b32, 60 b64, 56 b128): a
//           phase whose lanes all hit one bank costs as many cycles as lanes, conflicts = cycles - 1
//   [ROCPROF] rocm.docs.amd.com/projects/rocprofiler-compute/en/develop/conceptual/local-data-share.html,
//           "Bank Conflict Rate": LDS cycles spent servicing bank conflicts / active LDS cycles
//   [BLOG]  rocm.blogs.amd.com/software-tools-optimization/lds-bank-conflict/README.html, "Bank
//           Conflict Check Rule": 32 banks of 4 B on MI-series GPUs, the b128 lane groups
//   [RR]    github.com/ROCm/rocm-libraries shared/rocroller/lib/source/LDSBankModel.cpp (PR 2157): disagrees
//           on lanes per clock and gfx950 b32 reads (docs/AMD.md says where, and why occ follows [EMP])
//   Inferred, not published: a phase with no active lane is skipped; 1-2 byte accesses take the b32
//   rule on their dword; wave64 on RDNA runs as two wave32 halves (phases of lanes 32-63 repeat those
//   of 0-31).
#include "occ/amd_lds.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>

namespace occ::amd {
namespace {

int width_index(int access_bytes) { return access_bytes >= 16 ? 2 : access_bytes == 8 ? 1 : 0; }
bool valid_width(int b) { return b == 1 || b == 2 || b == 4 || b == 8 || b == 16; }
std::uint64_t wave_mask(int wave_size) { return wave_size >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << wave_size) - 1; }
int phases_of(const LdsPhaseRule& r, int wave_size) { return std::max(1, wave_size / r.lanes); }

}  // namespace

const LdsPhaseRule& lds_phase_rule(const AmdArch& a, int access_bytes, bool store) {
    const int i = width_index(access_bytes);
    return store ? a.lds->write[i] : a.lds->read[i];
}

int lds_phase_of(const LdsPhaseRule& r, int lane) {
    if (r.lanes >= 64) return 0;
    const int half = lane / 32, p = lane % 32, per_half = std::max(1, 32 / r.lanes);
    const unsigned quad = static_cast<unsigned>(p / 4);
    int g = 0;
    switch (r.groups) {
        case LdsLaneGroups::contiguous: g = p / r.lanes; break;
        // Quads q and q^5 share a phase: {0,5} {1,4} {2,7} {3,6} -> 0..3 [SHARK "MI300" ds_read_b128].
        case LdsLaneGroups::quad_pairs: g = static_cast<int>(std::min(quad, quad ^ 5u)); break;
        // Quads {0,3,5,6} (even bit count) and {1,2,4,7} [SHARK "MI350" ds_read_b128].
        case LdsLaneGroups::quad_parity: g = std::popcount(quad) & 1; break;
    }
    return half * per_half + g;
}

std::string lds_instruction(int access_bytes, bool store) {
    if (access_bytes < 4) return std::string(store ? "ds_write_b" : "ds_read_u") + std::to_string(access_bytes * 8);
    return std::string(store ? "ds_write_b" : "ds_read_b") + std::to_string(access_bytes * 8);
}

std::string check_lds_wave(const AmdArch& a, const LdsWave& w) {
    if (!a.lds) return std::string(a.isa) + ": no LDS bank rules";
    if (!valid_width(w.access_bytes))
        return "access_bytes: must be 1, 2, 4, 8 or 16 (bytes per lane of one ds_read/ds_write), got " + std::to_string(w.access_bytes);
    if (w.wave_size != 32 && w.wave_size != 64) return "wave_size: must be 32 or 64, got " + std::to_string(w.wave_size);
    if ((w.wave_size == 32 && !a.wave32) || (w.wave_size == 64 && !a.wave64))
        return "wave_size: " + std::string(a.isa) + " runs wave" + std::to_string(a.default_wave_size) + " only";
    const std::uint64_t live = w.active & wave_mask(w.wave_size);
    for (int lane = 0; lane < w.wave_size; ++lane) {
        if (!((live >> lane) & 1u)) continue;
        if (w.addr[static_cast<std::size_t>(lane)] % static_cast<std::uint64_t>(w.access_bytes) != 0)
            return "addresses: lane " + std::to_string(lane) + "'s byte address " + std::to_string(w.addr[static_cast<std::size_t>(lane)]) +
                   " is not a multiple of " + std::to_string(w.access_bytes) + " (access_bytes); occ models aligned " +
                   lds_instruction(w.access_bytes, w.store) + " only";
    }
    return {};
}

LdsResult analyze_lds(const AmdArch& a, const LdsWave& w) {
    LdsResult r;
    r.rule = lds_phase_rule(a, w.access_bytes, w.store);
    r.phases = phases_of(r.rule, w.wave_size);
    r.lane_phase.fill(-1);
    r.lane_bank.fill(-1);
    const int banks = r.rule.banks, bank_bytes = a.lds->bank_bytes;
    const int words = std::max(1, w.access_bytes / bank_bytes);
    const std::uint64_t live = w.active & wave_mask(w.wave_size);
    std::array<std::uint64_t, kLdsMaxPhases> phase_lanes{};
    for (int lane = 0; lane < w.wave_size; ++lane) {
        if (!((live >> lane) & 1u)) continue;
        const int ph = std::min(lds_phase_of(r.rule, lane), r.phases - 1);
        r.lane_phase[static_cast<std::size_t>(lane)] = static_cast<std::int8_t>(ph);
        phase_lanes[static_cast<std::size_t>(ph)] |= std::uint64_t{1} << lane;
        ++r.active_lanes;
    }
    // Dword index of each lane's first bank word (addresses are LDS offsets, taken modulo 4 GiB).
    auto first_dword = [&](int lane) {
        return static_cast<std::uint32_t>(w.addr[static_cast<std::size_t>(lane)] & 0xffffffffu) / static_cast<std::uint32_t>(bank_bytes);
    };
    for (int ph = 0; ph < r.phases; ++ph) {
        const std::uint64_t lanes = phase_lanes[static_cast<std::size_t>(ph)];
        if (lanes == 0) continue;  // nothing to service (inferred: no published cost for an empty phase)
        // The distinct dwords of the phase, then how many fall in each bank. A phase holds at most
        // 64 lanes x 4 dwords.
        std::array<std::uint32_t, kLdsMaxLanes * 4> dw{};
        std::size_t n = 0;
        for (std::uint64_t m = lanes; m; m &= m - 1) {
            const int lane = std::countr_zero(m);
            const std::uint32_t d0 = first_dword(lane);
            r.lane_bank[static_cast<std::size_t>(lane)] = static_cast<std::int8_t>(d0 % static_cast<std::uint32_t>(banks));
            for (int k = 0; k < words; ++k) {
                dw[n++] = d0 + static_cast<std::uint32_t>(k);
                r.bank_lanes[(d0 + static_cast<std::uint32_t>(k)) % static_cast<std::uint32_t>(banks)] |= std::uint64_t{1} << lane;
            }
        }
        std::sort(dw.begin(), dw.begin() + static_cast<std::ptrdiff_t>(n));
        const std::size_t distinct = static_cast<std::size_t>(std::unique(dw.begin(), dw.begin() + static_cast<std::ptrdiff_t>(n)) -
                                                              dw.begin());
        std::array<std::uint8_t, kLdsMaxBanks> count{};
        for (std::size_t i = 0; i < distinct; ++i) ++count[dw[i] % static_cast<std::uint32_t>(banks)];
        int most = 0, most_bank = -1;
        for (int b = 0; b < banks; ++b) {
            const std::uint8_t c = count[static_cast<std::size_t>(b)];
            r.bank_way[static_cast<std::size_t>(b)] = std::max(r.bank_way[static_cast<std::size_t>(b)], c);
            if (c > most) most = c, most_bank = b;
        }
        // Lanes that wait: they touch a bank asked for 2+ dwords in this phase.
        std::uint64_t waiting = 0;
        for (std::uint64_t m = lanes; m; m &= m - 1) {
            const int lane = std::countr_zero(m);
            const std::uint32_t d0 = first_dword(lane);
            for (int k = 0; k < words; ++k)
                if (count[(d0 + static_cast<std::uint32_t>(k)) % static_cast<std::uint32_t>(banks)] > 1)
                    waiting |= std::uint64_t{1} << lane;
        }
        r.conflict_lanes |= waiting;
        r.phase_cycles[static_cast<std::size_t>(ph)] = static_cast<std::uint8_t>(most);
        r.cycles += most;
        r.ideal_cycles += 1;
        if (most > r.max_way) {
            r.max_way = most;
            if (most > 1) {
                r.worst_phase = ph;
                r.worst_bank = most_bank;
                std::uint64_t on_bank = 0;
                for (std::uint64_t m = lanes; m; m &= m - 1) {
                    const int lane = std::countr_zero(m);
                    const std::uint32_t d0 = first_dword(lane);
                    for (int k = 0; k < words; ++k)
                        if ((d0 + static_cast<std::uint32_t>(k)) % static_cast<std::uint32_t>(banks) ==
                            static_cast<std::uint32_t>(most_bank))
                            on_bank |= std::uint64_t{1} << lane;
                }
                r.worst_lanes = on_bank;
            }
        }
    }
    // [EMP] cdna3info.md: conflicts per instruction = cycles beyond one per phase.
    r.conflicts = r.cycles - r.ideal_cycles;
    return r;
}

std::string lds_lane_ranges(std::uint64_t mask) {
    std::string s;
    for (int lane = 0; lane < 64;) {
        if (!((mask >> lane) & 1u)) {
            ++lane;
            continue;
        }
        int end = lane;
        while (end + 1 < 64 && ((mask >> (end + 1)) & 1u)) ++end;
        if (!s.empty()) s += ", ";
        s += end == lane ? std::to_string(lane) : std::to_string(lane) + "-" + std::to_string(end);
        lane = end + 1;
    }
    return s;
}

LdsBasis lds_basis(const AmdArch& a, int access_bytes, bool store, int wave_size) {
    LdsBasis b;
    const std::string instr = lds_instruction(access_bytes, store);
    const bool here = a.lds->measured_on == a.isa;
    const std::string on = std::string(a.lds->measured_on);
    if (!store) {
        b.measured = here && access_bytes >= 4;
        b.note = here ? "ds_read phases measured on " + on + " (nod-ai/amd-shark-ai docs/empirical-lds)"
                      : "ds_read phases measured on " + on + " (nod-ai/amd-shark-ai docs/empirical-lds), assumed for " + std::string(a.isa);
    } else if (access_bytes == 16 && on == "gfx942") {
        b.measured = here;
        b.note = "ds_write_b128 in 8 groups of 8 lanes: published for MI300 (AMD ROCm blog 'Avoiding LDS Bank Conflicts')" +
                 (here ? std::string() : ", assumed for " + std::string(a.isa));
    } else {
        b.note = "inferred: no published lane grouping for " + instr + " on " + std::string(a.isa) +
                 "; the 32-bank grouping of MI300's writes and reads is assumed";
    }
    if (access_bytes < 4) {
        b.measured = false;
        b.note += "; 1- and 2-byte accesses are taken as b32 on their dword (inferred)";
    }
    if (wave_size == 64 && a.default_wave_size == 32) {
        b.measured = false;
        b.note += "; wave64 on RDNA taken as two wave32 halves (inferred)";
    }
    return b;
}

std::string lds_phase_text(const AmdArch& a, int access_bytes, bool store, int wave_size) {
    const LdsPhaseRule& r = lds_phase_rule(a, access_bytes, store);
    const int phases = phases_of(r, wave_size);
    std::string s = lds_instruction(access_bytes, store) + " on " + std::string(a.isa) + ": " + std::to_string(r.banks) + " banks of " +
                    std::to_string(a.lds->bank_bytes) + " bytes; ";
    if (phases == 1) return s + "the wave's " + std::to_string(std::min(wave_size, r.lanes)) + " lanes in one phase";
    s += std::to_string(phases) + " phases of " + std::to_string(r.lanes) + " lanes";
    if (r.groups != LdsLaneGroups::contiguous) {
        std::uint64_t first = 0;
        for (int lane = 0; lane < 32; ++lane)
            if (lds_phase_of(r, lane) == 0) first |= std::uint64_t{1} << lane;
        s += " (lanes " + lds_lane_ranges(first) + " form the first)";
    }
    return s;
}

LdsBlockResult analyze_lds_block(const AmdArch& a, std::span<const LdsWave> waves) {
    LdsBlockResult out;
    if (waves.empty()) {
        out.error = "no wave to analyse";
        return out;
    }
    for (const LdsWave& w : waves)
        if (std::string e = check_lds_wave(a, w); !e.empty()) {
            out.error = e;
            return out;
        }
    out.waves.reserve(waves.size());
    for (std::size_t i = 0; i < waves.size(); ++i) {
        const LdsResult r = analyze_lds(a, waves[i]);
        out.cycles += r.cycles;
        out.ideal_cycles += r.ideal_cycles;
        out.conflicts += r.conflicts;
        out.max_way = std::max(out.max_way, r.max_way);
        out.waves.push_back(r);
    }
    for (std::size_t i = 1; i < out.waves.size(); ++i)
        if (out.waves[i].conflicts > out.waves[static_cast<std::size_t>(out.worst_wave)].conflicts) out.worst_wave = static_cast<int>(i);
    out.efficiency = out.cycles > 0 ? static_cast<double>(out.ideal_cycles) / static_cast<double>(out.cycles) : 1.0;
    const LdsWave& w0 = waves[static_cast<std::size_t>(out.worst_wave)];
    const LdsResult& worst = out.waves[static_cast<std::size_t>(out.worst_wave)];
    const std::string phases = lds_phase_text(a, w0.access_bytes, w0.store, w0.wave_size);
    if (out.ideal_cycles == 0) out.reason = "no active lane: nothing is read or written";
    else if (out.conflicts == 0) out.reason = "no bank conflict: in every phase each bank is asked for at most one dword (" + phases + ")";
    else {
        char buf[96];
        std::snprintf(buf, sizeof buf, "%d-way: in phase %d of wave %d, lanes ", worst.max_way, worst.worst_phase, out.worst_wave);
        out.reason = buf + lds_lane_ranges(worst.worst_lanes) + " ask bank " + std::to_string(worst.worst_bank) + " for " +
                     std::to_string(worst.max_way) + " different dwords, which it serves one per cycle (" + phases + ")";
    }
    return out;
}

}  // namespace occ::amd
