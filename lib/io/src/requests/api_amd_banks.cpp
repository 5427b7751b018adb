// api_amd_banks.cpp — the banks request and answer for AMD GPUs (occ/io/amd_banks.hpp).
#include <algorithm>
#include <string>

#include "api_memory_expr.hpp"
#include "api_memory_read.hpp"
#include "api_memory_tile.hpp"
#include "occ/io/amd_banks.hpp"
#include "occ/io/schema.hpp"

namespace occ::io {
namespace {

namespace F = fields;
using namespace occ::amd;

// The fields an AMD wave has no meaning for, refused by name.
void refuse_nvidia_fields(FieldReader& f, const AmdRequest& t) {
    for (const char* k : {"cc", "device"})
        if (f.has(k)) f.fail(k, "applies to NVIDIA GPUs only; " + amd_device_words(t) + " (give gpu or arch)");
    for (const char* k : kTileKeys)
        if (f.has(k))
            f.fail(k, "belongs to NVIDIA's tile model (ldmatrix, cp.async, TMA and CuTe swizzles); " + amd_device_words(t) +
                          ": describe the wave's LDS addresses with addresses, affine (stride), 2d (pitch, pad, swizzle) or gather");
    for (std::string_view k : kExprKeys)
        if (f.has(k)) f.fail(k, "pattern \"expr\" is not modelled for AMD GPUs yet; give addresses or an affine, 2d or gather pattern");
    if (const json* p = f.raw(F::pattern); p && p->is_string() && (*p == "tile" || *p == "expr"))
        f.fail("pattern", "\"" + p->get<std::string>() + "\" is not modelled for AMD GPUs; use addresses, affine, 2d or gather");
}

AmdBanksRequest read_amd_banks(FieldReader& f) {
    AmdBanksRequest r;
    r.target = read_amd_target(f);
    refuse_nvidia_fields(f, r.target);
    const AmdArch& a = *r.target.arch;
    // 0 = the target's default (the occupancy request's field and rule: occ::amd::amd_wave_size).
    // The field's spec holds it to 0, 32 or 64; the target decides which of them it runs.
    const int asked = static_cast<int>(f.integer(F::wave_size));
    r.wave_size = amd_wave_size(a, asked);
    if (r.wave_size == 0) f.fail("wave_size", amd_wave_size_error(a, asked));
    const std::uint64_t wave_lanes = r.wave_size == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << r.wave_size) - 1;
    r.active_lanes = detail::read_u64(
        f, F::active_lanes.key, wave_lanes, wave_lanes,
        r.wave_size == 64 ? "a 64-bit lane mask 0..0xffffffffffffffff (wave64)" : "a 32-bit lane mask 0..0xffffffff (wave32)");
    if (const json* v = f.raw("addresses")) {
        if (!v->is_array() || v->empty() || v->size() > static_cast<std::size_t>(r.wave_size))
            f.fail("addresses", "must be an array of 1.." + std::to_string(r.wave_size) + " byte addresses (one wave of " +
                                    std::string(a.isa) + "; null = inactive lane), got " + shown(*v));
        std::uint64_t mask = 0;
        for (std::size_t i = 0; i < v->size(); ++i) {
            const json& e = (*v)[i];
            if (e.is_null()) continue;
            std::uint64_t x = 0;
            if (!detail::parse_u64(e, x) || x >= (std::uint64_t{1} << 48))
                f.fail("addresses", "entry " + std::to_string(i) + " must be a byte address 0..2^48 or null, got " + shown(e));
            r.addresses[i] = x;
            mask |= std::uint64_t{1} << i;
        }
        r.active_lanes &= mask;
    }
    try {
        detail::read_memory_pattern(f, r.memory, true);
    } catch (const RequestError& e) {
        // The pattern's alignment message speaks of CUDA (coalescing.cpp check_pattern); the rule is the same here.
        std::string m = e.what();
        if (const auto at = m.find("CUDA requires"); at != std::string::npos) m.replace(at, 13, "occ models LDS accesses as");
        throw RequestError(m);
    }
    // Without threads or block the pattern is one full wave (the CUDA default is one warp of 32).
    AccessPattern& p = r.memory.pattern;
    if (p.kind != PatternKind::addresses && !f.has("threads") && !f.has("block")) {
        p.block[0] = r.wave_size;
        p.block[1] = p.block[2] = 1;
    }
    return r;
}

// Threads t .. t+size-1 of the pattern as one wave (two CUDA warps of its generator for wave64).
LdsWave pattern_wave(const AccessPattern& p, int wave, int size, std::uint64_t active) {
    LdsWave w;
    w.wave_size = size;
    w.access_bytes = p.access_bytes;
    w.store = p.op == AccessOp::store;
    w.active = 0;
    const int halves = size / kWarpLanes;
    for (int h = 0; h < halves; ++h) {
        const int warp = wave * halves + h;
        if (warp >= p.warps()) break;
        const WarpAccess wa = make_warp_access(p, warp);
        for (int l = 0; l < kWarpLanes; ++l) {
            w.addr[static_cast<std::size_t>(h * kWarpLanes + l)] = wa.addr[static_cast<std::size_t>(l)];
            if (wa.lane_active(l)) w.active |= std::uint64_t{1} << (h * kWarpLanes + l);
        }
    }
    w.active &= active;
    return w;
}

std::int64_t conflicts_of(const AmdArch& a, const AmdBanksRequest& r) {
    const std::vector<LdsWave> waves = amd_banks_waves(r);
    const LdsBlockResult b = analyze_lds_block(a, waves);
    return b.ok() ? b.conflicts : -1;
}

json lane_array(const std::array<std::int8_t, kLdsMaxLanes>& v, const LdsWave& w) {
    json out = json::array();
    for (int l = 0; l < w.wave_size; ++l)
        out.push_back(v[static_cast<std::size_t>(l)] < 0 ? json(nullptr) : json(v[static_cast<std::size_t>(l)]));
    return out;
}

json lane_list(std::uint64_t mask) {
    json out = json::array();
    for (int l = 0; l < 64; ++l)
        if ((mask >> l) & 1u) out.push_back(l);
    return out;
}

json wave_json(int wi, const LdsWave& w, const LdsResult& r) {
    json addr = json::array(), phase = json::array(), way = json::array(), lanes = json::array();
    for (int l = 0; l < w.wave_size; ++l) addr.push_back((w.active >> l) & 1u ? json(w.addr[static_cast<std::size_t>(l)]) : json(nullptr));
    for (int ph = 0; ph < r.phases; ++ph) phase.push_back(r.phase_cycles[static_cast<std::size_t>(ph)]);
    for (int b = 0; b < r.rule.banks; ++b) {
        way.push_back(r.bank_way[static_cast<std::size_t>(b)]);
        lanes.push_back(lane_list(r.bank_lanes[static_cast<std::size_t>(b)]));
    }
    return json{{"warp", wi},
                {"active_lanes", r.active_lanes},
                {"phases", r.phases},
                {"wavefronts", r.cycles},
                {"ideal_wavefronts", r.ideal_cycles},
                {"conflicts", r.conflicts},
                {"max_way", r.max_way},
                {"phase_wavefronts", phase},
                {"lane_address", addr},
                {"lane_phase", lane_array(r.lane_phase, w)},
                {"lane_bank", lane_array(r.lane_bank, w)},
                {"bank_way", way},
                {"bank_lanes", lanes},
                {"conflict_lanes", lane_list(r.conflict_lanes)}};
}

}  // namespace

std::vector<LdsWave> amd_banks_waves(const AmdBanksRequest& r) {
    const AccessPattern& p = r.memory.pattern;
    if (p.kind == PatternKind::addresses) {
        LdsWave w;
        w.wave_size = r.wave_size;
        w.access_bytes = p.access_bytes;
        w.store = p.op == AccessOp::store;
        w.addr = r.addresses;
        w.active = r.active_lanes;
        return {w};
    }
    std::vector<LdsWave> out;
    const int waves = (p.threads() + r.wave_size - 1) / r.wave_size;
    out.reserve(static_cast<std::size_t>(waves));
    for (int i = 0; i < waves; ++i) out.push_back(pattern_wave(p, i, r.wave_size, r.active_lanes));
    return out;
}

json amd_banks_request_to_json(const AmdBanksRequest& r) {
    json j = memory_request_to_json(r.memory);
    for (const char* k : {"gpu", "cc", "device"}) j.erase(k);
    if (r.target.gpu) j["gpu"] = r.target.gpu->name;
    else j["arch"] = r.target.arch->isa;
    j["wave_size"] = r.wave_size;
    j["active_lanes"] = r.active_lanes;
    if (r.memory.pattern.kind == PatternKind::addresses) {
        json a = json::array();
        for (int l = 0; l < r.wave_size; ++l)
            a.push_back((r.active_lanes >> l) & 1u ? json(r.addresses[static_cast<std::size_t>(l)]) : json(nullptr));
        j["addresses"] = a;
    }
    return j;
}

Result<AmdBanksAnswer> answer_amd_banks(const json& request) {
    return answer_with<AmdBanksAnswer>(request, "banks request", [](FieldReader& f, AmdBanksAnswer& a) {
        a.input = read_amd_banks(f);
        f.finish();
        const AmdArch& arch = *a.input.target.arch;
        a.waves = amd_banks_waves(a.input);
        a.result = analyze_lds_block(arch, a.waves);
        if (!a.result.ok()) throw RequestError(a.result.error);
        // The CUDA answer's two remedies for a 2-D tile, evaluated on this target.
        const AccessPattern& p = a.input.memory.pattern;
        if (p.kind == PatternKind::index_2d && a.result.conflicts > 0) {
            AmdBanksRequest padded = a.input;
            padded.memory.pattern.pad += 1;
            if (check_pattern(padded.memory.pattern).empty()) a.conflicts_padded = conflicts_of(arch, padded);
            if (!p.swizzle) {
                AmdBanksRequest swz = a.input;
                swz.memory.pattern.swizzle = true;
                if (check_pattern(swz.memory.pattern).empty()) a.conflicts_swizzled = conflicts_of(arch, swz);
            }
        }
    });
}

json to_json(const AmdBanksAnswer& a) {
    const LdsBlockResult& b = a.result;
    const AmdArch& arch = *a.input.target.arch;
    const AccessPattern& p = a.input.memory.pattern;
    const bool store = p.op == AccessOp::store;
    const LdsPhaseRule& rule = lds_phase_rule(arch, p.access_bytes, store);
    const LdsBasis basis = lds_basis(arch, p.access_bytes, store, a.input.wave_size);
    std::string fix;
    if (a.conflicts_padded >= 0 && a.conflicts_padded < b.conflicts)
        fix = "pad each row by one element (pitch + 1): " + std::to_string(a.conflicts_padded) + " conflicts";
    if (a.conflicts_swizzled >= 0 && a.conflicts_swizzled < b.conflicts)
        fix += (fix.empty() ? "" : "; or ") + std::string("XOR-swizzle the column with the row: ") + std::to_string(a.conflicts_swizzled) +
               " conflicts";
    json j{{"vendor", "AMD"},
           {"wavefronts", b.cycles},
           {"ideal_wavefronts", b.ideal_cycles},
           {"conflicts", b.conflicts},
           {"max_way", b.max_way},
           {"efficiency", b.cycles > 0 ? json(b.efficiency) : json(nullptr)},  // null: no active lane, nothing moved
           {"warps", static_cast<int>(b.waves.size())},
           {"worst_warp", b.worst_wave},
           {"wave_size", a.input.wave_size},
           {"instruction", lds_instruction(p.access_bytes, store)},
           {"banks", rule.banks},
           {"bank_bytes", arch.lds->bank_bytes},
           {"lanes_per_phase", std::min(rule.lanes, a.input.wave_size)},
           {"phases", std::max(1, a.input.wave_size / rule.lanes)},
           {"phase_rule", lds_phase_text(arch, p.access_bytes, store, a.input.wave_size)},
           {"basis", json{{"measured", basis.measured}, {"note", basis.note}}},
           {"reason", b.reason},
           {"fix", fix.empty() ? json(nullptr) : json(fix)},
           {"conflicts_padded", a.conflicts_padded < 0 ? json(nullptr) : json(a.conflicts_padded)},
           {"conflicts_swizzled", a.conflicts_swizzled < 0 ? json(nullptr) : json(a.conflicts_swizzled)}};
    json per = json::array();
    for (std::size_t i = 0; i < b.waves.size(); ++i) per.push_back(wave_json(static_cast<int>(i), a.waves[i], b.waves[i]));
    j["per_warp"] = per;
    j["error"] = nullptr;
    j["input"] = amd_banks_request_to_json(a.input);
    j["device"] = amd_device_to_json(a.input.target);
    if (a.id) j["id"] = *a.id;
    return j;
}

}  // namespace occ::io
