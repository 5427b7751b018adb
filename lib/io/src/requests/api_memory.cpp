// api_memory.cpp — the coalesce and banks requests/responses (global coalescing, shared-memory banks).
//
// [SECTION] Reading a request into an occ::AccessPattern (shared by both kinds)
// [SECTION] The canonical echo ("input"), used by the CLI picture and the web URL
// [SECTION] Responses
#include <algorithm>
#include <cstdint>
#include <string>

#include "api_memory_expr.hpp"
#include "api_memory_read.hpp"
#include "api_memory_tile.hpp"
#include "occ/banks.hpp"
#include "occ/coalescing.hpp"
#include "occ/io/amd_banks.hpp"
#include "occ/io/api.hpp"
#include "occ/io/fields.hpp"
#include "occ/io/schema.hpp"
#include "occ/io/size.hpp"

namespace occ::io {
namespace detail {

// [SECTION] Reading

// A non-negative integer given as a JSON number or as a decimal / 0x-hex string.
bool parse_u64(const json& v, std::uint64_t& out) {
    if (v.is_number_unsigned()) {
        out = v.get<std::uint64_t>();
        return true;
    }
    if (v.is_number_integer()) {
        if (v.get<std::int64_t>() < 0) return false;
        out = static_cast<std::uint64_t>(v.get<std::int64_t>());
        return true;
    }
    if (v.is_number_float()) {
        const double d = v.get<double>();
        if (!(d >= 0 && d < 1.8e19) || d != static_cast<double>(static_cast<std::uint64_t>(d))) return false;
        out = static_cast<std::uint64_t>(d);
        return true;
    }
    if (!v.is_string()) return false;
    return parse_unsigned(v.get_ref<const std::string&>(), out);
}

std::uint64_t read_u64(FieldReader& f, std::string_view key, std::uint64_t hi, std::uint64_t def, const char* what) {
    const json* v = f.raw(key);
    if (!v) return def;
    std::uint64_t x = 0;
    if (!parse_u64(*v, x) || x > hi) f.fail(key, std::string("must be ") + what + ", got " + shown(*v));
    return x;
}

namespace {
int read_width(FieldReader& f, std::string_view key, int def) {
    const json* v = f.raw(key);
    if (!v) return def;
    std::uint64_t x = 0;
    // (32 is read here; the model and the device decide whether it runs: global_access_unsupported,
    // banks_access_unsupported.)
    if (!parse_u64(*v, x) || !valid_global_access_bytes(static_cast<int>(x > 64 ? 0 : x)))
        f.fail(key, "must be 1, 2, 4, 8 or 16 (bytes per lane), got " + shown(*v));
    return static_cast<int>(x);
}

template <class Keys>
bool has_any(const FieldReader& f, const Keys& keys) {
    for (auto k : keys)
        if (f.has(k)) return true;
    return false;
}
}  // namespace

void read_memory_pattern(FieldReader& f, MemoryRequest& r, bool lanes_read_by_caller) {
    namespace F = fields;
    AccessPattern& p = r.pattern;
    p.access_bytes = read_width(f, F::access_bytes.key, static_cast<int>(F::access_bytes.int_default));
    p.elem_bytes = read_width(f, F::elem_bytes.key, 0);
    p.op = f.choice(F::mem_op) == "store" ? AccessOp::store : AccessOp::load;

    const bool has_addresses = f.has("addresses");
    const char* def_kind = has_addresses                                                                             ? "addresses"
                           : f.has("expr")                                                                           ? "expr"
                           : has_any(f, kTileKeys)                                                                   ? "tile"
                           : has_any(f, std::initializer_list<std::string_view>{"pitch", "pad", "swizzle", "order"}) ? "2d"
                           : has_any(f, std::initializer_list<std::string_view>{"seed", "range"})                    ? "gather"
                                                                                                                     : "affine";
    const std::string kind = f.choice(F::pattern, def_kind);
    p.kind = kind == "2d"          ? PatternKind::index_2d
             : kind == "gather"    ? PatternKind::gather
             : kind == "addresses" ? PatternKind::addresses
                                   : PatternKind::affine;
    if (has_addresses != (p.kind == PatternKind::addresses))
        f.fail(has_addresses ? "addresses" : "pattern",
               has_addresses ? "give addresses or a pattern (affine, 2d, gather), not both"
                             : "pattern \"addresses\" needs an addresses array (32 entries, null = inactive lane)");
    if (kind == "expr") {
        read_expr_request(f, r);
        return;
    }
    for (auto k : kExprKeys)
        if (f.has(k)) f.fail(k, "applies to pattern \"expr\" only (pattern is \"" + kind + "\")");
    if (kind == "tile") {
        read_tile_request(
            f, r,
            read_u64(f, F::base.key, static_cast<std::uint64_t>(F::base.hi), 0, "a byte address 0..2^48 (number or \"0x...\" string)"));
        return;
    }
    for (const char* k : kTileKeys)
        if (f.has(k)) f.fail(k, "applies to pattern \"tile\" only (pattern is \"" + kind + "\")");

    if (!lanes_read_by_caller)
        p.active_lanes = static_cast<std::uint32_t>(read_u64(f, F::active_lanes.key, static_cast<std::uint64_t>(F::active_lanes.hi),
                                                             static_cast<std::uint64_t>(F::active_lanes.int_default),
                                                             "a 32-bit lane mask 0..0xffffffff (e.g. 65535 or \"0xffff\")"));
    if (has_addresses && lanes_read_by_caller) {
        if (f.has("block") || f.has("threads")) f.fail("block", "explicit addresses describe one wave; leave block/threads out");
    } else if (has_addresses) {
        const json* a = f.raw("addresses");
        if (!a->is_array() || a->empty() || a->size() > static_cast<std::size_t>(kWarpLanes))
            f.fail("addresses", "must be an array of 1..32 byte addresses (null = inactive lane), got " + shown(*a));
        std::uint32_t mask = 0;
        for (std::size_t i = 0; i < a->size(); ++i) {
            const json& e = (*a)[i];
            if (e.is_null()) continue;
            std::uint64_t x = 0;
            if (!parse_u64(e, x) || x >= (std::uint64_t{1} << 48))
                f.fail("addresses", "entry " + std::to_string(i) + " must be a byte address 0..2^48 or null, got " + shown(e));
            p.addresses[i] = x;
            mask |= 1u << i;
        }
        p.active_lanes &= mask;  // lanes past the array's end are inactive too
        if (f.has("block") || f.has("threads"))
            f.fail("block", "explicit addresses describe one warp of 32 lanes; leave block/threads out");
    } else {
        p.base = read_u64(f, F::base.key, static_cast<std::uint64_t>(F::base.hi), 0, "a byte address 0..2^48 (number or \"0x...\" string)");
        p.offset = f.integer(F::offset);
        p.stride = f.integer(F::stride);
        if (f.has("block")) {
            if (f.has("threads")) f.fail("threads", "give threads or block, not both");
            const json* b = f.raw("block");
            if (!b->is_array() || b->empty() || b->size() > 3) f.fail("block", "must be [x], [x, y] or [x, y, z], got " + shown(*b));
            for (std::size_t i = 0; i < b->size(); ++i) {
                const json& e = (*b)[i];
                if (!e.is_number_integer() || e.get<std::int64_t>() < 1 || e.get<std::int64_t>() > 1024)
                    f.fail("block", "each dimension must be an integer 1..1024, got " + shown(e));
                p.block[i] = static_cast<int>(e.get<std::int64_t>());
            }
        } else {
            p.block[0] = static_cast<int>(f.integer(F::mem_threads));
        }
        p.pitch = f.integer(F::pitch);
        p.pad = f.integer(F::pad);
        p.swizzle = f.boolean(F::swizzle);
        p.order = f.choice(F::order) == "column" ? IndexOrder::column : IndexOrder::row;
        p.seed = read_u64(f, F::seed.key, ~0ull, static_cast<std::uint64_t>(F::seed.int_default), "an integer 0..2^64-1");
        p.range = f.integer(F::range);
        if (p.kind != PatternKind::index_2d)
            for (auto k : {"pitch", "pad", "swizzle", "order"})
                if (f.has(k)) f.fail(k, "applies to pattern \"2d\" only (pattern is \"" + kind + "\")");
        if (p.kind != PatternKind::gather)
            for (auto k : {"seed", "range"})
                if (f.has(k)) f.fail(k, "applies to pattern \"gather\" only (pattern is \"" + kind + "\")");
        if (p.kind != PatternKind::affine && f.has("stride"))
            f.fail("stride", "applies to pattern \"affine\" only (pattern is \"" + kind + "\")");
    }
    if (std::string e = check_pattern(p); !e.empty()) throw RequestError(e);
}

}  // namespace detail

MemoryRequest read_memory_request(FieldReader& f) {
    MemoryRequest r;
    r.device = read_device(f);
    detail::read_memory_pattern(f, r, false);
    return r;
}

Result<MemoryRequest> read_memory_request(const json& request, std::string_view context) {
    return read_with<MemoryRequest>(request, context, [](FieldReader& f) { return read_memory_request(f); });
}

// [SECTION] Canonical echo

json memory_request_to_json(const MemoryRequest& r) {
    const AccessPattern& p = r.pattern;
    json j;
    j.update(device_echo(r.device));
    j["pattern"] = r.tile ? "tile" : pattern_kind_name(p.kind);
    j["access_bytes"] = p.access_bytes;
    j["elem_bytes"] = p.element_bytes();
    j["op"] = access_op_name(p.op);
    if (r.expr) {
        j.update(expr_request_to_json(r));
        return j;
    }
    if (r.tile) {
        j.update(tile_request_to_json(r));
        return j;
    }
    j["active_lanes"] = p.active_lanes;
    if (p.kind == PatternKind::addresses) {
        json a = json::array();
        for (int lane = 0; lane < kWarpLanes; ++lane)
            a.push_back((p.active_lanes >> lane) & 1u ? json(p.addresses[static_cast<std::size_t>(lane)]) : json(nullptr));
        j["addresses"] = a;
        return j;
    }
    j["block"] = {p.block[0], p.block[1], p.block[2]};
    j["base"] = p.base;
    j["offset"] = p.offset;
    if (p.kind == PatternKind::affine) j["stride"] = p.stride;
    if (p.kind == PatternKind::index_2d) {
        j["order"] = p.order == IndexOrder::row ? "row" : "column";
        j["pitch"] = p.row_pitch() - p.pad;
        j["pad"] = p.pad;
        j["swizzle"] = p.swizzle;
    }
    if (p.kind == PatternKind::gather) {
        j["seed"] = p.seed;
        j["range"] = p.range;
    }
    return j;
}

namespace {

json device_brief(const Device& d) {
    return json{
        {"name", d.name}, {"cc", std::to_string(d.arch.cc_major) + "." + std::to_string(d.arch.cc_minor)}, {"family", d.arch.family}};
}

json lane_addresses(const WarpAccess& w) {
    json a = json::array();
    for (int lane = 0; lane < kWarpLanes; ++lane)
        a.push_back(w.lane_active(lane) ? json(w.addr[static_cast<std::size_t>(lane)]) : json(nullptr));
    return a;
}

json text_or_null(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }
// An index or count where a negative value means none (an inactive lane's sector or bank, a layout not tried).
json index_or_null(std::int64_t v) { return v < 0 ? json(nullptr) : json(v); }

// The lanes of a mask, ascending.
json lane_list(std::uint32_t mask) {
    json lanes = json::array();
    for (int lane = 0; lane < kWarpLanes; ++lane)
        if ((mask >> lane) & 1u) lanes.push_back(lane);
    return lanes;
}

// [SECTION] Responses

json global_warp_json(int wi, const WarpAccess& w, const GlobalAccessResult& r) {
    json lane_sector = json::array(), sector_address = json::array(), used = json::array();
    for (int lane = 0; lane < kWarpLanes; ++lane) lane_sector.push_back(index_or_null(r.lane_sector[static_cast<std::size_t>(lane)]));
    for (int s = 0; s < r.sectors; ++s) {
        sector_address.push_back(r.sector_addr[static_cast<std::size_t>(s)]);
        used.push_back(r.sector_used_bytes[static_cast<std::size_t>(s)]);
    }
    return json{{"warp", wi},
                {"active_lanes", r.active_lanes},
                {"requests", r.requests},
                {"sectors", r.sectors},
                {"lines", r.lines},
                {"bytes_requested", r.bytes_requested},
                {"bytes_transferred", r.bytes_transferred},
                {"efficiency", r.efficiency},
                {"ideal_sectors", r.ideal_sectors},
                {"excess_sectors", r.excess_sectors},
                {"lane_address", lane_addresses(w)},
                {"lane_sector", lane_sector},
                {"sector_address", sector_address},
                {"sector_used_bytes", used}};
}

json bank_warp_json(int wi, const WarpAccess& w, const BankResult& r) {
    json lane_bank = json::array(), bank_way = json::array(), bank_lanes = json::array();
    for (int lane = 0; lane < kWarpLanes; ++lane) lane_bank.push_back(index_or_null(r.lane_bank[static_cast<std::size_t>(lane)]));
    for (int bank = 0; bank < kBanks; ++bank) {
        bank_way.push_back(r.bank_way[static_cast<std::size_t>(bank)]);
        bank_lanes.push_back(lane_list(r.bank_lanes[static_cast<std::size_t>(bank)]));
    }
    json phase = json::array();
    for (int ph = 0; ph < r.phases; ++ph) phase.push_back(r.phase_wavefronts[static_cast<std::size_t>(ph)]);
    return json{{"warp", wi},
                {"active_lanes", r.active_lanes},
                {"phases", r.phases},
                {"wavefronts", r.wavefronts},
                {"ideal_wavefronts", r.ideal_wavefronts},
                {"conflicts", r.conflicts},
                {"max_way", r.max_way},
                {"phase_wavefronts", phase},
                {"lane_address", lane_addresses(w)},
                {"lane_bank", lane_bank},
                {"bank_way", bank_way},
                {"bank_lanes", bank_lanes},
                {"conflict_lanes", lane_list(r.conflict_lanes)}};
}

template <typename Answer, typename Analyze>
Result<Answer> answer_memory(const json& request, const char* context, Analyze analyze) {
    return answer_with<Answer>(request, context, [&](FieldReader& f, Answer& a) {
        a.input = read_memory_request(f);
        f.finish();
        a.result = analyze(a.input, a);
        if (!a.result.ok()) throw RequestError(a.result.error);
    });
}

template <typename Block, typename WarpJson>
json per_warps(const MemoryRequest& req, const Block& b, WarpJson warp_json, bool global_side) {
    json out = json::array();
    const std::size_t n = req.tile ? std::min<std::size_t>(b.warps.size(), kTilePerWarpMax) : b.warps.size();
    for (std::size_t wi = 0; wi < n; ++wi)
        out.push_back(warp_json(static_cast<int>(wi), memory_warp_access(req, static_cast<int>(wi), global_side), b.warps[wi]));
    return out;
}

// Both answers after the block's own figures: the per-warp rows (global_side: coalescing's, else the
// banks'), the tile's answer, the error, the input echo and the device.
template <typename Answer, typename WarpJson>
json finish_memory_json(json out, const Answer& a, WarpJson warp_json, bool global_side) {
    const MemoryRequest& req = a.input;
    out["per_warp"] = per_warps(req, a.result, warp_json, global_side);
    if (a.tile) out["tile"] = tile_answer_json(req, *a.tile, !global_side);
    out["error"] = nullptr;
    if (req.expr) {  // the one warp evaluated is warp `warp` of the block
        out["worst_warp"] = req.expr->launch.warp;
        for (json& w : out["per_warp"]) w["warp"] = req.expr->launch.warp;
    }
    out["input"] = memory_request_to_json(req);
    out["device"] = device_brief(req.device);
    if (a.id) out["id"] = *a.id;
    return out;
}

}  // namespace

Result<CoalesceAnswer> answer_coalesce(const json& request) {
    return answer_memory<CoalesceAnswer>(request, "coalesce request", [](const MemoryRequest& in, CoalesceAnswer& a) {
        return in.tile ? analyze_tile_global(in, a.tile.emplace()) : analyze_global_block(in.pattern, in.device.arch);
    });
}
Result<BanksAnswer> answer_banks(const json& request) {
    return answer_memory<BanksAnswer>(request, "banks request", [](const MemoryRequest& in, BanksAnswer& a) {
        return in.tile ? analyze_tile_banks(in, a.tile.emplace()) : analyze_banks_block(in.pattern, in.device.arch);
    });
}

json to_json(const CoalesceAnswer& a) {
    const GlobalBlockResult& b = a.result;
    return finish_memory_json(json{{"requests", b.requests},
                                   {"sectors", b.sectors},
                                   {"lines", b.lines},
                                   {"bytes_requested", b.bytes_requested},
                                   {"bytes_transferred", b.bytes_transferred},
                                   {"efficiency", b.efficiency},
                                   {"ideal_sectors", b.ideal_sectors},
                                   {"excess_sectors", b.excess_sectors},
                                   {"lane_bytes", b.lane_bytes},
                                   {"warps", static_cast<int>(b.warps.size())},
                                   {"worst_warp", b.worst_warp},
                                   {"verdict", global_verdict_name(b.verdict)},
                                   {"reason", b.reason},
                                   {"fix", text_or_null(b.fix)},
                                   {"contiguous_sectors", b.contiguous_sectors},
                                   {"contiguous_efficiency", b.contiguous_efficiency}},
                              a, global_warp_json, true);
}

json to_json(const BanksAnswer& a) {
    const BankBlockResult& b = a.result;
    return finish_memory_json(json{{"wavefronts", b.wavefronts},
                                   {"ideal_wavefronts", b.ideal_wavefronts},
                                   {"conflicts", b.conflicts},
                                   {"max_way", b.max_way},
                                   {"warps", static_cast<int>(b.warps.size())},
                                   {"worst_warp", b.worst_warp},
                                   {"reason", b.reason},
                                   {"fix", text_or_null(b.fix)},
                                   {"conflicts_padded", index_or_null(b.conflicts_padded)},
                                   {"conflicts_swizzled", index_or_null(b.conflicts_swizzled)}},
                              a, bank_warp_json, false);
}

json api_coalesce(const json& request) { return json_or_throw(answer_coalesce(request)); }
json api_banks(const json& request) { return json_or_throw(answer_banks(request)); }
json api_amd_banks(const json& request) { return json_or_throw(answer_amd_banks(request)); }

}  // namespace occ::io
