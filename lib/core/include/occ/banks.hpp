// occ/banks.hpp — shared-memory bank conflicts of one warp-level access (cc >= 5.0).
//
// [SECTION] analyze_banks: one warp -> wavefronts, ideal, conflicts, n-way (hot path, no allocation)
// [SECTION] analyze_banks_block: every warp of a block + totals, reason and fix (allocates)
//
// The rules (cited in banks.cpp):
//   32 banks, 4 bytes wide: bank = (byte address / 4) mod 32
//   accesses of <= 4 bytes: one phase of 32 lanes; 8-byte: 2 phases of 16 lanes; 16-byte: 4 phases of 8
//   no 32-byte lanes: PTX's 256-bit ld/st are .global only, so shared memory takes at most 16 bytes a lane
//   wavefronts of a phase = max over banks of the distinct 4-byte words asked for in that bank
//   (lanes reading the same word share it: broadcast); a phase with no active lane costs nothing
//   ideal wavefronts = phases with an active lane; conflicts = wavefronts - ideal (Nsight Compute)
//   8- and 16-byte LOADS whose lane pairs (t, t^1) or (t, t^2) share addresses, on architectures with
//   ArchRules::smem_paired_load_merge (7.0+): half the phases (8-byte: 1 of 32 lanes; 16-byte: 2 of 16)
//
// Shared accesses are described with the same WarpAccess / AccessPattern as global ones
// (coalescing.hpp); addresses are byte offsets into shared memory.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "occ/coalescing.hpp"
#include "occ/device.hpp"

namespace occ {

// CUDA C++ Programming Guide, "Shared Memory" (compute capability 5.x and later): 32 banks,
// successive 32-bit words map to successive banks.
inline constexpr int kBanks = 32;
inline constexpr int kBankBytes = 4;

// Phases a warp's access is split into for an access width (1 for <= 4 bytes, 2 for 8, 4 for 16).
int bank_phases(int access_bytes);

struct BankResult {
    int active_lanes = 0;
    int phases = 1;  // 1, 2 or 4
    int wavefronts = 0;
    int ideal_wavefronts = 0;
    int conflicts = 0;  // wavefronts - ideal_wavefronts
    int max_way = 0;    // most distinct words in one bank within one phase (1 = none)
    // For pictures: the first bank each lane touches (-1 inactive); an access of b bytes covers
    // b/4 consecutive banks (at least 1).
    std::array<std::int8_t, kWarpLanes> lane_bank{};
    // Lanes whose access touches each bank (bit i = lane i), over all phases.
    std::array<std::uint32_t, kBanks> bank_lanes{};
    // Most distinct words asked for in each bank within one phase (0 = unused, 1 = no conflict).
    std::array<std::uint8_t, kBanks> bank_way{};
    // Lanes that wait for an extra wavefront: they share a bank with a different word in their phase.
    std::uint32_t conflict_lanes = 0;
    // Wavefronts each phase needs (i < phases).
    std::array<std::uint8_t, 4> phase_wavefronts{};
    // The paired-load merge: 1 when lanes t and t^1 share addresses, 2 for t and t^2, 0 when not applied.
    int load_pairs = 0;
};

// One warp. Pure, no allocation. Precondition: check_warp_access(w) is empty. Addresses are byte
// offsets into shared memory, taken modulo 4 GiB (shared memory is at most 228 KiB per SM).
BankResult analyze_banks(const WarpAccess& w);
// The same with the architecture's rules: an 8- or 16-byte load whose lanes pair up
// (shared_load_pairs) runs in half the phases where ArchRules::smem_paired_load_merge is set.
BankResult analyze_banks(const WarpAccess& w, const ArchRules& a);
// 1 when every active lane t asks for the same address as lane t^1 (or t^1 is inactive) and at least
// one such pair has both lanes active, else 2 when the same holds for t^2, else 0; 0 too for stores
// and for widths other than 8 and 16 bytes.
int shared_load_pairs(const WarpAccess& w);

// How the warp's phases were formed, for the reason text: "" for one phase, else e.g. " (16-byte accesses
// run as 4 phases of 8 lanes)" or the paired-load merge.
const char* bank_phase_text(const BankResult& r);

// Lanes (ascending) of one bank, for drawing: writes up to 32 lane numbers into `out`, returns how many.
int bank_lane_list(const BankResult& r, int bank, std::array<std::int8_t, kWarpLanes>& out);

// Empty when the bank model covers this architecture (ArchRules::banks_model); else why not (Kepler's 8-byte bank mode).
std::string banks_model_unsupported(const ArchRules& a);
// Empty when a lane of access_bytes is one shared-memory instruction (1, 2, 4, 8, 16 on every
// architecture); else why not, naming the field: 32-byte lanes are global only (PTX ISA 8.8), a
// 32-byte shared access is two 16-byte instructions.
std::string banks_access_unsupported(int access_bytes);

struct BankBlockResult {
    std::vector<BankResult> warps;  // one per warp
    std::int64_t wavefronts = 0;
    std::int64_t ideal_wavefronts = 0;
    std::int64_t conflicts = 0;
    int max_way = 0;
    int worst_warp = 0;  // the warp with most conflicts (first on ties)
    std::string reason;  // "stride of 2 words: lanes i and i+16 share a bank (2-way)"
    std::string fix;     // padding or XOR swizzle that removes the conflict; "" if none needed
    // The fix, evaluated: conflicts with one element of padding and with an XOR swizzle (2-D patterns
    // only; -1 when not applicable).
    std::int64_t conflicts_padded = -1;
    std::int64_t conflicts_swizzled = -1;
    std::string error;
    bool ok() const { return error.empty(); }
};

BankBlockResult analyze_banks_block(const AccessPattern& p, const ArchRules& arch);

}  // namespace occ
