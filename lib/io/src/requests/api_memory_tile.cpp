// api_memory_tile.cpp — pattern "tile" of the coalesce and banks requests: a shared-memory tile with
// its layout (padding, col ^ row, CuTe Swizzle<B,M,S>, TMA swizzle mode) and the accesses made to it
// (row and vector rows, columns, ldmatrix/stmatrix, cp.async). The counting is occ::core's
// (smem_shapes.hpp); this file reads the fields, sums the accesses and writes the answer.
//
// [SECTION] Reading
// [SECTION] Echo
// [SECTION] Banks (shared side) and coalesce (global side)
// [SECTION] JSON
#include "api_memory_tile.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "occ/io/schema.hpp"
#include "occ/text.hpp"

namespace occ::io {

// [SECTION] Reading

namespace {

constexpr const char* kAccessNames = "row, column, cp_async, ldmatrix.x1/x2/x4 or stmatrix.x1/x2/x4 (optionally .trans)";

}  // namespace

void read_tile_request(FieldReader& f, MemoryRequest& r, std::uint64_t base) {
    namespace F = fields;
    for (const char* k : {"active_lanes", "offset", "stride", "threads", "block", "pitch", "order", "seed", "range"})
        if (f.has(k)) f.fail(k, "does not apply to pattern \"tile\" (the tile's accesses give the lanes)");
    TileRequest t;
    TileLayout& L = t.layout;
    L.elem_bytes = r.pattern.element_bytes();
    L.pad = static_cast<int>(f.integer(F::pad));
    L.xor_rows = f.boolean(F::swizzle);
    if (const json* v = f.raw(F::cute_swizzle)) {
        if (!v->is_string() || !parse_cute_swizzle(v->get<std::string>(), L.swizzle))
            f.fail("cute_swizzle", "must be Swizzle<B,M,S> or \"B,M,S\" (e.g. \"Swizzle<3,3,3>\"), got " + shown(*v));
    }
    parse_tma_swizzle(f.choice(F::tma_swizzle), L.tma);  // the choice list is the modes' names
    L.rotate = static_cast<int>(f.integer(F::rotate));
    t.global_pitch = f.integer(F::global_pitch);
    t.global_base = base;
    if (f.has(F::global_base)) t.global_base_given = static_cast<std::uint64_t>(f.integer(F::global_base));

    const int access_bytes = r.pattern.access_bytes, elem = L.elem_bytes;
    std::vector<std::string> names;
    if (const json* a = f.raw(F::tile_access)) {
        if (a->is_string()) {
            std::string s = a->get<std::string>(), part;
            for (char c : s + ",") {
                if (c == ',') {
                    if (!part.empty()) names.push_back(part);
                    part.clear();
                } else if (c != ' ') part += c;
            }
        } else if (a->is_array() && !a->empty() && a->size() <= 8) {
            for (const json& e : *a) {
                if (!e.is_string()) f.fail("tile_access", std::string("each entry must be one of ") + kAccessNames + ", got " + shown(e));
                names.push_back(e.get<std::string>());
            }
        }
        if (names.empty() || names.size() > 8) f.fail("tile_access", "must be a list of 1..8 accesses, got " + shown(*a));
    }
    if (f.has(F::ldmatrix)) {
        const std::string m = f.choice(F::ldmatrix, "x4");
        names.insert(names.begin(), (r.pattern.op == AccessOp::store ? "stmatrix." : "ldmatrix.") + m);  // drawn first
    }
    if (names.empty()) names.push_back("row");
    for (const std::string& n : names) {
        TileAccess a;
        if (!parse_tile_access(n, access_bytes, elem, a))
            f.fail("tile_access", std::string("each entry must be one of ") + kAccessNames + ", got \"" + n + "\"");
        t.accesses.push_back(a);
    }
    const json* d = f.raw(F::tile);
    if (!d) f.fail("tile", "pattern \"tile\" needs tile: [rows, columns] in elements, e.g. [64, 64]");
    if (!d->is_array() || d->size() != 2) f.fail("tile", "must be [rows, columns] (2 integers), got " + shown(*d));
    for (std::size_t i = 0; i < 2; ++i) {
        const json& e = (*d)[i];
        if (!e.is_number_integer() || e.get<std::int64_t>() < 1 || e.get<std::int64_t>() > 1024)
            f.fail("tile", "rows and columns must each be an integer 1..1024, got " + shown(e));
    }
    L.rows = static_cast<int>((*d)[0].get<std::int64_t>());
    L.cols = static_cast<int>((*d)[1].get<std::int64_t>());
    if (t.global_pitch != 0 && t.global_pitch < L.cols)
        f.fail("global_pitch",
               "must be 0 or at least the tile's " + std::to_string(L.cols) + " columns, got " + std::to_string(t.global_pitch));
    // base: the tile's shared-memory address (banks) and the global matrix's (coalesce).
    L.base = base;
    if (std::string e = check_tile_layout(L); !e.empty()) throw RequestError(e);
    for (const TileAccess& a : t.accesses)
        if (std::string e = check_tile_access(L, a); !e.empty()) throw RequestError(e);
    r.tile = std::move(t);
}

// [SECTION] Echo

json tile_request_to_json(const MemoryRequest& r) {
    const TileRequest& t = *r.tile;
    const TileLayout& L = t.layout;
    json j;
    j["tile"] = {L.rows, L.cols};
    json names = json::array();
    for (const TileAccess& a : t.accesses) names.push_back(tile_access_name(a));
    j["tile_access"] = names;
    j["pad"] = L.pad;
    j["swizzle"] = L.xor_rows;
    if (L.swizzle.bits > 0)
        j["cute_swizzle"] = "Swizzle<" + std::to_string(L.swizzle.bits) + "," + std::to_string(L.swizzle.base) + "," +
                            std::to_string(L.swizzle.shift) + ">";
    j["tma_swizzle"] = tma_swizzle_name(L.tma);
    if (L.rotate > 0) j["rotate"] = L.rotate;
    j["base"] = t.global_base;
    j["global_pitch"] = t.global_pitch;
    if (t.global_base_given) j["global_base"] = *t.global_base_given;
    return j;
}

WarpAccess memory_warp_access(const MemoryRequest& r, int warp, bool global_side) {
    if (!r.tile) return make_warp_access(r.pattern, warp);
    const TileRequest& t = *r.tile;
    const TileAccess& a = t.accesses.front();
    if (!global_side) return tile_warp_access(t.layout, a, warp);
    return tile_global_access(t.layout, a, warp, t.global_pitch > 0 ? t.global_pitch : t.layout.cols, t.coalesce_base());
}

// [SECTION] Banks and coalesce

namespace {

std::string count_text(std::int64_t n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

bool is_matrix(const TileAccess& a) { return a.kind == TileAccessKind::ldmatrix || a.kind == TileAccessKind::stmatrix; }

}  // namespace

BankBlockResult analyze_tile_banks(const MemoryRequest& r, TileAnswer& ta) {
    BankBlockResult b;
    if (std::string e = banks_model_unsupported(r.device.arch); !e.empty()) {
        b.error = std::move(e);
        return b;
    }
    const TileRequest& t = *r.tile;
    for (const TileAccess& a : t.accesses)
        if (std::string e = banks_access_unsupported(a.bytes); !e.empty()) {
            b.error = std::move(e);
            return b;
        }
    std::string reason;
    const TileSource source{t.global_pitch, t.source_base()};
    for (std::size_t i = 0; i < t.accesses.size(); ++i) {
        const TileAccess& a = t.accesses[i];
        const TileBankTotals s = tile_banks(t.layout, a, i == 0 ? &b.warps : nullptr, &source);
        if (i == 0) b.worst_warp = s.worst_warp;
        TileAccessCount c;
        c.access = a;
        c.instructions = s.warps;
        c.wavefronts = s.wavefronts;
        c.ideal_wavefronts = s.ideal_wavefronts;
        c.conflicts = s.conflicts;
        c.max_way = s.max_way;
        c.source_wavefronts = s.source_wavefronts;
        c.source_extra = s.source_extra;
        ta.accesses.push_back(c);
        b.wavefronts += s.wavefronts;
        b.ideal_wavefronts += s.ideal_wavefronts;
        b.conflicts += s.conflicts;
        b.max_way = std::max(b.max_way, s.max_way);
        char buf[300];
        const char* unit = is_matrix(a)    ? ", one phase per 8x8 matrix"
                           : a.bytes == 16 ? ", 4 phases of 8 lanes"
                           : a.bytes == 8  ? ", 2 phases of 16 lanes"
                                           : "";
        if (s.conflicts == 0)
            std::snprintf(buf, sizeof buf, "%s: no conflict, %lld wavefronts over %s%s: the ideal", tile_access_name(a).c_str(),
                          static_cast<long long>(s.wavefronts), count_text(s.warps, "instruction", "instructions").c_str(), unit);
        else
            std::snprintf(buf, sizeof buf, "%s: %d-way, %lld wavefronts instead of %lld over %s%s: %lld conflicts",
                          tile_access_name(a).c_str(), s.max_way, static_cast<long long>(s.wavefronts),
                          static_cast<long long>(s.ideal_wavefronts), count_text(s.warps, "instruction", "instructions").c_str(), unit,
                          static_cast<long long>(s.conflicts));
        join_into(reason, "; ", buf);
        if (s.source_extra > 0) {
            std::snprintf(buf, sizeof buf, " (%lld of them from the global source: its sectors need %lld wavefronts, one per 4 sectors)",
                          static_cast<long long>(s.source_extra), static_cast<long long>(s.source_wavefronts));
            reason += buf;
        }
    }
    b.reason = reason;

    // The fix: the solver on the plain row-major tile, and padding by the widest access as the alternative.
    const TileLayout& L = t.layout;
    ta.solution = solve_swizzle(L.rows, L.cols, L.elem_bytes, t.accesses);
    if (!ta.solution.ok()) {
        b.error = ta.solution.error;
        return b;
    }
    if (b.conflicts == 0) return b;
    // The global source's share (cp_async) is no layout's doing: the layout fixes are weighed without it.
    std::int64_t extra = 0;
    for (const TileAccessCount& c : ta.accesses) extra += c.source_extra;
    const std::int64_t layout_conflicts = b.conflicts - extra;
    const std::string source_fix = extra == 0 ? ""
                                              : "align cp_async's global source to 32 bytes and copy it contiguously (" +
                                                    std::to_string(extra) + " wavefronts come from its sectors)";
    if (layout_conflicts == 0) {
        b.fix = source_fix;
        return b;
    }
    int widest = L.elem_bytes;
    for (const TileAccess& a : t.accesses)
        widest = std::max(widest, a.kind == TileAccessKind::column ? L.elem_bytes : is_matrix(a) ? 16 : a.bytes);
    TileLayout padded = L;
    padded.swizzle = {};
    padded.tma = TmaSwizzle::none;
    padded.xor_rows = false;
    padded.rotate = 0;
    padded.pad = widest / L.elem_bytes;
    bool fits = check_tile_layout(padded).empty();
    for (const TileAccess& a : t.accesses) fits = fits && check_tile_access(padded, a).empty();
    if (fits) {
        ta.pad_fix = padded.pad;
        ta.pad_fix_conflicts = 0;
        for (const TileAccess& a : t.accesses) ta.pad_fix_conflicts += tile_banks(padded, a).conflicts;
    }
    const SwizzleSolution& s = ta.solution;
    std::string fix;
    const std::string tma = s.tma != TmaSwizzle::none ? std::string(", the TMA ") + tma_swizzle_name(s.tma) + " swizzle mode" : "";
    if (s.zero)
        fix = s.type + " (element index " + s.expression + tma + ") removes every conflict: " + std::to_string(layout_conflicts) + " -> 0";
    else
        fix = "no swizzle removes every conflict of these accesses; the least-conflict one is " + s.type + " (" + s.expression + tma +
              "): " + std::to_string(layout_conflicts) + " -> " + std::to_string(s.conflicts);
    if (ta.pad_fix_conflicts >= 0 && ta.pad_fix_conflicts < layout_conflicts)
        fix += "; or pad each row by " + std::to_string(ta.pad_fix) + " element" + (ta.pad_fix == 1 ? "" : "s") + " (" +
               std::to_string(ta.pad_fix * L.elem_bytes) + " bytes): " + std::to_string(layout_conflicts) + " -> " +
               std::to_string(ta.pad_fix_conflicts);
    if (!source_fix.empty()) fix += "; and " + source_fix;
    b.fix = fix;
    return b;
}

GlobalBlockResult analyze_tile_global(const MemoryRequest& r, TileAnswer& ta) {
    GlobalBlockResult g;
    if (std::string e = global_model_unsupported(r.device.arch); !e.empty()) {
        g.error = std::move(e);
        return g;
    }
    const TileRequest& t = *r.tile;
    const std::int64_t gp = t.global_pitch > 0 ? t.global_pitch : t.layout.cols;
    const std::uint64_t gbase = t.coalesce_base();
    for (const TileAccess& a : t.accesses) {
        if (is_matrix(a)) {
            g.error = "tile_access: " + tile_access_name(a) + " moves data between shared memory and registers only; `occ banks` counts it";
            return g;
        }
        if (std::string e = global_access_unsupported(a.bytes, r.device.arch); !e.empty()) {
            g.error = std::move(e);
            return g;
        }
    }
    std::int64_t worst = -1;
    for (std::size_t i = 0; i < t.accesses.size(); ++i) {
        const TileAccess& a = t.accesses[i];
        TileAccessCount c;
        c.access = a;
        c.instructions = tile_access_warps(t.layout, a);
        for (int w = 0; w < c.instructions; ++w) {
            const GlobalAccessResult x = analyze_global(tile_global_access(t.layout, a, w, gp, gbase));
            c.sectors += x.sectors;
            c.ideal_sectors += x.ideal_sectors;
            c.lines += x.lines;
            c.bytes_requested += x.bytes_requested;
            g.requests += x.requests;
            g.sectors += x.sectors;
            g.lines += x.lines;
            g.bytes_requested += x.bytes_requested;
            g.lane_bytes += x.lane_bytes;
            g.bytes_transferred += x.bytes_transferred;
            g.ideal_sectors += x.ideal_sectors;
            if (i == 0) {
                if (x.excess_sectors > worst) {
                    worst = x.excess_sectors;
                    g.worst_warp = w;
                }
                g.warps.push_back(x);
            }
        }
        ta.accesses.push_back(c);
    }
    g.excess_sectors = g.sectors - g.ideal_sectors;
    g.efficiency = g.bytes_transferred > 0 ? static_cast<double>(g.bytes_requested) / static_cast<double>(g.bytes_transferred) : 0.0;
    g.contiguous_sectors = g.ideal_sectors;
    g.contiguous_efficiency = g.ideal_sectors > 0
                                  ? static_cast<double>(g.bytes_requested) / static_cast<double>(g.ideal_sectors * kSectorBytes)
                                  : 0.0;
    g.verdict = g.requests == 0 ? GlobalVerdict::none : g.excess_sectors == 0 ? GlobalVerdict::coalesced : GlobalVerdict::strided;
    std::string reason;
    for (const TileAccessCount& c : ta.accesses) {
        char buf[260];
        std::snprintf(buf, sizeof buf, "%s: %s move %lld bytes in %lld sectors (ideal %lld)", tile_access_name(c.access).c_str(),
                      count_text(c.instructions, "instruction", "instructions").c_str(), static_cast<long long>(c.bytes_requested),
                      static_cast<long long>(c.sectors), static_cast<long long>(c.ideal_sectors));
        join_into(reason, "; ", buf);
    }
    g.reason = reason;
    if (g.excess_sectors > 0)
        g.fix =
            "read the global matrix along its rows (tile_access row or cp_async) with the widest vectors the alignment allows; a column "
            "read moves one element per sector";
    return g;
}

// [SECTION] JSON

json tile_answer_json(const MemoryRequest& r, const TileAnswer& ta, bool banks) {
    const TileLayout& L = r.tile->layout;
    json acc = json::array();
    for (const TileAccessCount& c : ta.accesses) {
        json a{{"access", tile_access_name(c.access)}, {"instructions", c.instructions}};
        if (banks) {
            a["wavefronts"] = c.wavefronts;
            a["ideal_wavefronts"] = c.ideal_wavefronts;
            a["conflicts"] = c.conflicts;
            a["max_way"] = c.max_way;
            if (c.access.kind == TileAccessKind::cp_async) {
                a["source_wavefronts"] = c.source_wavefronts;
                a["source_extra"] = c.source_extra;
            }
        } else {
            a["sectors"] = c.sectors;
            a["ideal_sectors"] = c.ideal_sectors;
            a["lines"] = c.lines;
            a["bytes_requested"] = c.bytes_requested;
        }
        acc.push_back(a);
    }
    std::string layout = "row-major";
    if (L.swizzle.bits > 0) layout = cute_swizzle_type(L.swizzle);
    else if (L.tma != TmaSwizzle::none) layout = std::string("TMA ") + tma_swizzle_name(L.tma) + " swizzle";
    else if (L.xor_rows) layout = "col ^ row";
    else if (L.rotate > 0) layout = "rotate " + std::to_string(L.rotate);
    if (L.pad > 0) layout += ", pad " + std::to_string(L.pad);
    json out{{"rows", L.rows},
             {"cols", L.cols},
             {"elem_bytes", L.elem_bytes},
             {"pitch", L.pitch()},
             {"bytes", static_cast<std::int64_t>(L.rows) * L.pitch() * L.elem_bytes},
             {"layout", layout},
             {"accesses", acc},
             {"per_warp_listed", std::min<int>(kTilePerWarpMax, ta.accesses.empty() ? 0 : ta.accesses.front().instructions)}};
    if (banks) {
        const SwizzleSolution& s = ta.solution;
        out["solver"] = json{{"zero_conflicts", s.zero},
                             {"cute_swizzle", s.type},
                             {"swizzle", {s.swizzle.bits, s.swizzle.base, s.swizzle.shift}},
                             {"expression", s.expression},
                             {"tma_swizzle", s.tma == TmaSwizzle::none ? json(nullptr) : json(tma_swizzle_name(s.tma))},
                             {"conflicts", s.conflicts},
                             {"conflicts_plain", s.conflicts_plain},
                             {"per_access", s.per_access},
                             {"per_access_plain", s.per_access_plain},
                             {"candidates", s.candidates}};
        out["pad_fix"] = ta.pad_fix_conflicts < 0 ? json(nullptr) : json{{"pad", ta.pad_fix}, {"conflicts", ta.pad_fix_conflicts}};
    }
    return out;
}

}  // namespace occ::io
