// occ/io/amd_banks.hpp — the banks request and answer for AMD GPUs (occ/amd_lds.hpp's model).
//
// A banks request is for an AMD GPU when it names one (`gpu` "MI300X") or a target (`arch` "gfx942"):
// io::request_vendor. It takes the banks kind's pattern fields (access_bytes, elem_bytes, op, and
// addresses or affine / 2d / gather), plus wave_size; a wave is 64 lanes on CDNA (32 on RDNA unless
// wave_size 64), so `addresses` takes up to 64 entries and `active_lanes` a 64-bit mask; the pattern
// kinds give each wave the addresses of threads wave x size .. +size-1. NVIDIA-only fields (cc,
// device, the tile model's ldmatrix / tma_swizzle / cute_swizzle ..., pattern expr) are refused by
// name. The answer has the CUDA banks answer's keys where they mean the same (wavefronts = LDS
// cycles, ideal_wavefronts, conflicts, max_way, warps = waves, per_warp = per wave, reason, fix),
// plus "vendor": "AMD", the instruction, its phases and where the rule comes from (basis).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "occ/amd_lds.hpp"
#include "occ/io/amd.hpp"
#include "occ/io/api.hpp"

namespace occ::io {

struct AmdBanksRequest {
    AmdRequest target;  // gpu (or null) and arch
    int wave_size = 64;
    MemoryRequest memory;  // the pattern (its device unused)
    // Pattern "addresses": one wave's lanes (null = inactive); else active_lanes applies to every wave.
    std::array<std::uint64_t, amd::kLdsMaxLanes> addresses{};
    std::uint64_t active_lanes = ~std::uint64_t{0};
};

struct AmdBanksAnswer {
    std::optional<json> id;
    AmdBanksRequest input;
    std::vector<amd::LdsWave> waves;
    amd::LdsBlockResult result;
    // Pattern 2d: the conflicts with one element of padding per row, and with the XOR swizzle (-1: not tried).
    std::int64_t conflicts_padded = -1;
    std::int64_t conflicts_swizzled = -1;
};

// The waves of a request (one for pattern "addresses").
std::vector<amd::LdsWave> amd_banks_waves(const AmdBanksRequest& r);
Result<AmdBanksAnswer> answer_amd_banks(const json& request);
json api_amd_banks(const json& request);  // the banks kind's AMD answer (KindSpec::answer_amd)
json to_json(const AmdBanksAnswer& a);
json amd_banks_request_to_json(const AmdBanksRequest& r);

}  // namespace occ::io
