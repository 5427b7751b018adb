// occ/amd_lds.hpp — LDS bank conflicts of one wave's ds_read / ds_write on an AMD target.
//
// The rules (each cited in amd_arch.cpp, amd_lds.cpp and docs/AMD.md "LDS bank conflicts"):
//   bank = (byte address / 4) mod banks: 32 banks of 4 bytes (64 for gfx950's b32/b64/b128 reads)
//   the wave is split into phases by the target's LdsPhaseRule for the width and direction
//   (AmdArch::lds); only lanes of one phase can conflict
//   cycles of a phase = most distinct dwords any one bank is asked for in it (lanes asking for the
//   same dword share it: broadcast); a phase with no active lane costs nothing (inferred)
//   ideal = phases with an active lane; conflicts = cycles - ideal, what rocprof's
//   SQ_LDS_BANK_CONFLICT counts per instruction (its saturation counts in [EMP] cdna3info.md)
//   1- and 2-byte accesses (ds_read_u8/u16, ds_write_b8/b16) take the b32 rule on their dword (inferred)
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "occ/amd.hpp"

namespace occ::amd {

inline constexpr int kLdsMaxLanes = 64;
inline constexpr int kLdsMaxBanks = 64;
inline constexpr int kLdsMaxPhases = 8;

// One wave's LDS instruction: a byte address (offset into LDS) per lane.
struct LdsWave {
    std::array<std::uint64_t, kLdsMaxLanes> addr{};
    std::uint64_t active = ~std::uint64_t{0};  // lane mask; lanes at or past wave_size never count
    int wave_size = 64;                        // 32 or 64
    int access_bytes = 4;                      // 1, 2, 4, 8 or 16
    bool store = false;                        // ds_write (else ds_read)
};

struct LdsResult {
    LdsPhaseRule rule;  // the phases this width and direction run in
    int phases = 0;     // phases of the wave (wave size / lanes per phase, at least 1)
    int active_lanes = 0;
    int cycles = 0;                                      // sum over phases of the busiest bank's distinct dwords (CUDA's "wavefronts")
    int ideal_cycles = 0;                                // phases with an active lane
    int conflicts = 0;                                   // cycles - ideal_cycles
    int max_way = 0;                                     // most distinct dwords one bank is asked for in one phase (1 = none)
    std::array<std::int8_t, kLdsMaxLanes> lane_phase{};  // -1: inactive
    std::array<std::int8_t, kLdsMaxLanes> lane_bank{};   // the first bank a lane touches, -1: inactive
    std::array<std::uint8_t, kLdsMaxPhases> phase_cycles{};
    std::array<std::uint64_t, kLdsMaxBanks> bank_lanes{};  // lanes touching each bank (any phase)
    std::array<std::uint8_t, kLdsMaxBanks> bank_way{};     // most distinct dwords of each bank in one phase
    std::uint64_t conflict_lanes = 0;                      // lanes sharing a bank with a different dword in their phase
    // The first phase and bank at max_way (when > 1), and the lanes asking that bank in that phase.
    int worst_phase = -1;
    int worst_bank = -1;
    std::uint64_t worst_lanes = 0;
};

// The rule for a width and direction (accesses below 4 bytes take the b32 rule).
const LdsPhaseRule& lds_phase_rule(const AmdArch& a, int access_bytes, bool store);
// The phase lane `lane` of a wave runs in (0-based; phases of the second 32-lane half follow the first's).
int lds_phase_of(const LdsPhaseRule& r, int lane);
// "ds_read_b128", "ds_write_b16", "ds_read_u8".
std::string lds_instruction(int access_bytes, bool store);
// Empty when the wave is well formed for the target; else a reason naming the field and the range.
std::string check_lds_wave(const AmdArch& a, const LdsWave& w);
// One wave. Precondition: check_lds_wave is empty.
LdsResult analyze_lds(const AmdArch& a, const LdsWave& w);

// Where the target's rule for this access comes from: measured on this target, measured on another
// of its family and assumed here, or inferred; `measured` is true only for the first.
struct LdsBasis {
    bool measured = false;
    std::string note;
};
LdsBasis lds_basis(const AmdArch& a, int access_bytes, bool store, int wave_size);
// " (ds_read_b128 runs as 8 phases of 8 lanes: T0-3+T20-23, ...)": how the wave's phases are formed.
std::string lds_phase_text(const AmdArch& a, int access_bytes, bool store, int wave_size);

struct LdsBlockResult {
    std::vector<LdsResult> waves;
    std::int64_t cycles = 0;
    std::int64_t ideal_cycles = 0;
    std::int64_t conflicts = 0;
    int max_way = 0;
    int worst_wave = 0;       // most conflicts (first on ties)
    double efficiency = 0.0;  // ideal_cycles / cycles (1 with no active lane)
    std::string reason;       // "lanes 0, 16 ask bank 0 for 2 different dwords in one phase: 2-way ..."
    std::string error;
    bool ok() const { return error.empty(); }
};
// Every wave of a block (all of one width and direction).
LdsBlockResult analyze_lds_block(const AmdArch& a, std::span<const LdsWave> waves);

// "0-3, 20-23": a lane mask as ranges.
std::string lds_lane_ranges(std::uint64_t mask);

}  // namespace occ::amd
