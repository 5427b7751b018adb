// tiles.cpp — the tile case table (ldmatrix / stmatrix / cp.async on occ's tile layouts) and occ's
// predictions for it. Addresses: occ::tile_warp_access / tile_global_access (smem_shapes.hpp, rules
// cited in smem_shapes.cpp: PTX ISA ldmatrix/cp.async, CuTe swizzle.hpp, CUTLASS TMA swizzle traits);
// counts: occ::analyze_banks / analyze_global. One warp instruction per case, as the kernels execute.
#include "occ/validation/tiles.hpp"

#include <algorithm>

#include "occ/validation/cases.hpp"
#include "occ/validation/tools.hpp"

namespace occ::validation {
namespace {

bool is_matrix(const TileAccess& a) { return a.kind == TileAccessKind::ldmatrix || a.kind == TileAccessKind::stmatrix; }

std::string layout_tag(const TileLayout& t) {
    std::string s = std::to_string(t.rows) + "x" + std::to_string(t.cols) + (t.elem_bytes == 2 ? "h" : "b" + std::to_string(t.elem_bytes));
    if (t.pad) s += "/pad" + std::to_string(t.pad);
    if (t.swizzle.bits) s += "/swizzle" + std::to_string(t.swizzle.bits) + std::to_string(t.swizzle.base) + std::to_string(t.swizzle.shift);
    if (t.tma != TmaSwizzle::none) s += std::string("/tma") + tma_swizzle_name(t.tma);
    if (t.rotate) s += "/rotate" + std::to_string(t.rotate);
    if (!t.pad && !t.swizzle.bits && t.tma == TmaSwizzle::none && !t.rotate) s += "/rowmajor";
    return s;
}

std::string layout_words(const TileLayout& t) {
    std::string s = std::to_string(t.rows) + "x" + std::to_string(t.cols) + " tile of " + std::to_string(t.elem_bytes) + "-byte elements";
    if (t.pad) s += ", rows padded by " + std::to_string(t.pad);
    if (t.swizzle.bits) s += ", " + cute_swizzle_type(t.swizzle);
    if (t.tma != TmaSwizzle::none) s += std::string(", TMA ") + tma_swizzle_name(t.tma) + " swizzle";
    if (t.rotate) s += ", rows rotated in chunks of " + std::to_string(t.rotate);
    if (!t.pad && !t.swizzle.bits && t.tma == TmaSwizzle::none && !t.rotate) s += ", row-major";
    return s;
}

struct TileBuilder {
    std::vector<TileCase>& out;
    bool quick;
    void add(bool in_quick, const TileLayout& t, const std::string& access, int bytes, int warp = 0, std::int64_t global_pitch = 0,
             int global_base = 0) {
        if (quick && !in_quick) return;
        TileCase c;
        c.layout = t;
        parse_tile_access(access, bytes, t.elem_bytes, c.access);
        c.kind = c.access.kind == TileAccessKind::cp_async ? Kind::coalescing : Kind::banks;
        c.warp = warp;
        c.global_pitch = global_pitch ? global_pitch : t.cols;
        c.global_base = global_base;
        const WarpAccess s = tile_warp_access(t, c.access, warp);
        c.mask = s.active;
        for (int l = 0; l < kWarpLanes; ++l)
            if ((s.active >> l) & 1u) c.smem[static_cast<std::size_t>(l)] = static_cast<int>(s.addr[static_cast<std::size_t>(l)]);
        if (c.access.kind == TileAccessKind::cp_async) {
            const WarpAccess g = tile_global_access(t, c.access, warp, c.global_pitch, static_cast<std::uint64_t>(global_base));
            for (int l = 0; l < kWarpLanes; ++l)
                if ((g.active >> l) & 1u) c.gmem[static_cast<std::size_t>(l)] = static_cast<int>(g.addr[static_cast<std::size_t>(l)]);
        }
        const std::string name = tile_access_name(c.access);
        c.id = "tile/" + name + (c.access.kind == TileAccessKind::cp_async ? std::to_string(c.access.bytes) : "") + "/" + layout_tag(t) +
               (global_pitch ? "/gpitch" + std::to_string(global_pitch) : "") +
               (global_base ? "/gbase" + std::to_string(global_base) : "") + "/w" + std::to_string(warp);
        c.description = name + (c.access.kind == TileAccessKind::cp_async ? " " + std::to_string(c.access.bytes) + " B" : "") +
                        ", warp instruction " + std::to_string(warp) + " of a " + layout_words(t);
        out.push_back(std::move(c));
    }
};

TileLayout tile(int rows, int cols, int elem, int pad = 0, CuteSwizzle sw = {}, TmaSwizzle tma = TmaSwizzle::none) {
    TileLayout t;
    t.rows = rows;
    t.cols = cols;
    t.elem_bytes = elem;
    t.pad = pad;
    t.swizzle = sw;
    t.tma = tma;
    return t;
}

}  // namespace

std::string TileCase::kernel() const {
    if (access.kind == TileAccessKind::cp_async) return "occv_cp_async_" + std::to_string(access.bytes);
    return std::string(access.kind == TileAccessKind::ldmatrix ? "occv_ldmatrix_x" : "occv_stmatrix_x") + std::to_string(access.matrices) +
           (access.trans ? "_trans" : "");
}

int TileCase::min_cc() const {
    if (access.kind == TileAccessKind::cp_async) return 80;
    return access.kind == TileAccessKind::stmatrix ? 90 : 75;
}

std::int64_t TileCase::smem_bytes() const { return (std::int64_t{layout.rows} * layout.pitch() * layout.elem_bytes + 127) / 128 * 128; }

json TileCase::inputs() const {
    json j{{"kernel", kernel()},
           {"access", tile_access_name(access)},
           {"access_bytes", is_matrix(access) ? 16 : access.bytes},
           {"tile", {layout.rows, layout.cols}},
           {"elem_bytes", layout.elem_bytes},
           {"pad", layout.pad},
           {"cute_swizzle", layout.swizzle.bits ? cute_swizzle_type(layout.swizzle) : std::string("none")},
           {"tma_swizzle", tma_swizzle_name(layout.tma)},
           {"warp", warp},
           {"mask", mask},
           {"min_cc", min_cc()},
           {"smem_offsets", smem}};
    if (layout.rotate) j["rotate"] = layout.rotate;
    if (access.kind == TileAccessKind::cp_async) {
        j["global_pitch"] = global_pitch;
        j["global_base"] = global_base;
        j["gmem_offsets"] = gmem;
    }
    return j;
}

std::vector<TileCase> tile_cases(bool quick) {
    std::vector<TileCase> v;
    TileBuilder b{v, quick};
    const CuteSwizzle sw333{3, 3, 3};
    const TileLayout rm = tile(64, 64, 2), pad = tile(64, 64, 2, 8), swz = tile(64, 64, 2, 0, sw333),
                     tma = tile(64, 64, 2, 0, {}, TmaSwizzle::b128), tma64 = tile(64, 32, 2, 0, {}, TmaSwizzle::b64);
    // ldmatrix: 64x64 halfs, 128-byte rows: row-major puts the 8 row addresses of a matrix in the same
    // four banks (8-way); padding by 8 halfs, Swizzle<3,3,3> or the TMA 128B mode spread them.
    for (const char* a : {"ldmatrix.x4", "ldmatrix.x4.trans"}) {
        const bool q = true;
        b.add(q, rm, a, 16);
        b.add(q, swz, a, 16);
        b.add(q, pad, a, 16);
        b.add(q, tma, a, 16);
        b.add(false, rm, a, 16, 5);
        b.add(false, swz, a, 16, 5);
        b.add(false, tma64, a, 16);
    }
    for (const char* a : {"ldmatrix.x1", "ldmatrix.x1.trans", "ldmatrix.x2", "ldmatrix.x2.trans"}) {
        const bool q = std::string(a) == "ldmatrix.x2";
        b.add(q, rm, a, 16);
        b.add(q, swz, a, 16);
        b.add(false, pad, a, 16);
    }
    // stmatrix (sm_90+): the same addresses, stored.
    for (const char* a : {"stmatrix.x4", "stmatrix.x4.trans", "stmatrix.x1", "stmatrix.x2"}) {
        b.add(false, rm, a, 16);
        b.add(false, swz, a, 16);
    }
    // cp.async: 16, 8 and 4 bytes per lane from a row-major global matrix into the tile.
    b.add(true, rm, "cp_async", 16);
    b.add(true, swz, "cp_async", 16);
    b.add(true, rm, "cp_async", 16, 0, 72);  // global rows of 144 B: sectors straddle
    b.add(false, pad, "cp_async", 16);
    b.add(false, tma, "cp_async", 16, 3);
    b.add(true, rm, "cp_async", 8);
    b.add(true, rm, "cp_async", 4);
    b.add(false, tile(32, 32, 4), "cp_async", 4, 1, 33);
    b.add(false, tile(32, 32, 4, 1), "cp_async", 4);
    // cp.async's global source (smem_shapes.cpp, cp_async_source_wavefronts): 16 bytes off a sector
    // (one more wavefront), 32 bytes off (none), and 16-byte rows 256 bytes apart (8 sectors, 2 wavefronts).
    b.add(true, tile(16, 64, 4), "cp_async", 16, 0, 64, 16);
    b.add(true, tile(16, 64, 4), "cp_async", 16, 0, 64, 32);
    b.add(true, tile(64, 4, 4), "cp_async", 4, 0, 64);
    // Blackwell's TMA modes (CUtensorMapSwizzle 128B_ATOM_32B / _FLIP_8B / 128B_ATOM_64B) and a rotation:
    // ldmatrix.x4 on 64x64 halves is 2-way, 4-way and conflict-free; FLIP_8B checked with 8-byte copies.
    b.add(true, tile(64, 64, 2, 0, {}, TmaSwizzle::b128_atom32), "ldmatrix.x4", 16);
    b.add(true, tile(64, 64, 2, 0, {}, TmaSwizzle::b128_atom64), "ldmatrix.x4", 16);
    b.add(false, tile(64, 64, 2, 0, {}, TmaSwizzle::b128_atom32_flip8), "cp_async", 8, 1);
    TileLayout rot = tile(64, 64, 2);
    rot.rotate = 8;
    b.add(true, rot, "ldmatrix.x4", 16);
    return v;
}

std::string validate_tile_case(const TileCase& c) {
    if (const std::string e = check_tile_layout(c.layout); !e.empty()) return c.id + ": " + e;
    if (const std::string e = check_tile_access(c.layout, c.access); !e.empty()) return c.id + ": " + e;
    if (c.warp < 0 || c.warp >= tile_access_warps(c.layout, c.access)) return c.id + ": warp outside the tile";
    if (c.smem_bytes() > kSharedBufferBytes) return c.id + ": tile larger than 48 KiB of dynamic shared memory";
    const int width = is_matrix(c.access) ? 16 : c.access.bytes;
    for (int l = 0; l < kWarpLanes; ++l) {
        const int s = c.smem[static_cast<std::size_t>(l)], g = c.gmem[static_cast<std::size_t>(l)];
        if (s < 0 || s + width > c.smem_bytes() || s % width != 0)
            return c.id + ": shared offset of lane " + std::to_string(l) + " out of the tile or misaligned";
        if (g < 0 || g + width > kGlobalBufferBytes || g % width != 0)
            return c.id + ": global offset of lane " + std::to_string(l) + " out of the buffer or misaligned";
    }
    if (c.mask == 0) return c.id + ": no active lane";
    return {};
}

TilePrediction predict_tile(const TileCase& c) {
    TilePrediction p;
    const WarpAccess s = tile_warp_access(c.layout, c.access, c.warp);
    BankResult r = analyze_banks(s);
    p.instructions = s.active ? 1 : 0;
    if (c.access.kind == TileAccessKind::cp_async) {
        // The shared side waits for the global sectors (tile_banks with a source), one wavefront per 4.
        const int need = cp_async_source_wavefronts(
            analyze_global(tile_global_access(c.layout, c.access, c.warp, c.global_pitch, static_cast<std::uint64_t>(c.global_base)))
                .sectors);
        p.source_extra = std::max(0, need - r.wavefronts);
        r.conflicts += static_cast<int>(p.source_extra);
        r.wavefronts += static_cast<int>(p.source_extra);
    }
    p.wavefronts = r.wavefronts;
    p.ideal_wavefronts = r.ideal_wavefronts;
    p.conflicts = r.conflicts;
    p.max_way = r.max_way;
    if (c.access.kind == TileAccessKind::cp_async) {
        const GlobalAccessResult g = analyze_global(
            tile_global_access(c.layout, c.access, c.warp, c.global_pitch, static_cast<std::uint64_t>(c.global_base)));
        p.requests = g.requests;
        p.sectors = g.sectors;
    }
    return p;
}

// Names checked with CUPTI 13's host API for GA100 ... GB202 (occ-validate --dry-run). The global side of
// LDGSTS is counted only as "cache_access" (there is no bypass counter), and only from GH100 on, so the
// kernels use cp.async.ca for every size; the shared-side wavefronts and conflicts of LDSM/STSM/LDGSTS
// exist only as SASS-patched smsp__sass_l1tex_* counters; STSM has no instruction counter. "" = no
// counter on that chip (the check keeps occ's value only).
std::vector<std::string> tile_metrics(const TileAccess& a, int sm) {
    const std::string wf = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_",
                      bc = "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_";
    if (a.kind == TileAccessKind::cp_async) {
        const bool global = sm >= 90;
        return {"smsp__sass_inst_executed_op_ldgsts.sum", global ? "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum" : "",
                global ? "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum" : "", wf + "ldgsts.sum", bc + "ldgsts.sum"};
    }
    if (a.kind == TileAccessKind::stmatrix) return {"", sm >= 90 ? wf + "stsm.sum" : "", sm >= 90 ? bc + "stsm.sum" : ""};
    return {"smsp__sass_inst_executed_op_ldsm.sum", wf + "ldsm.sum", bc + "ldsm.sum"};
}

std::vector<std::string> cupti_tile_metrics(int sm) {
    std::vector<std::string> all;
    TileAccess a;
    for (TileAccessKind k : {TileAccessKind::ldmatrix, TileAccessKind::stmatrix, TileAccessKind::cp_async}) {
        a.kind = k;
        for (const std::string& m : tile_metrics(a, sm))
            if (!m.empty() && std::find(all.begin(), all.end(), m) == all.end()) all.push_back(m);
    }
    return all;
}

Case tile_result(const TileCase& c, const NcuLaunch* launch, int sm) {
    Case r;
    r.kind = c.kind;
    r.id = c.id;
    r.description = c.description;
    r.inputs = c.inputs();
    const TilePrediction p = predict_tile(c);
    const std::vector<std::string> m = tile_metrics(c.access, sm);
    auto value = [launch](const std::string& name) -> std::optional<std::int64_t> {
        if (!launch || name.empty()) return std::nullopt;
        const auto it = launch->metrics.find(name);
        if (it == launch->metrics.end()) return std::nullopt;
        return it->second;
    };
    r.checks.push_back({"instructions", p.instructions, std::nullopt, value(m[0])});
    if (c.access.kind == TileAccessKind::cp_async) {
        r.checks.push_back({"requests", p.requests, std::nullopt, value(m[1])});
        r.checks.push_back({"sectors", p.sectors, std::nullopt, value(m[2])});
        r.checks.push_back({"wavefronts", p.wavefronts, std::nullopt, value(m[3])});
        r.checks.push_back({"bank_conflicts", p.conflicts, std::nullopt, value(m[4])});
    } else {
        r.checks.push_back({"wavefronts", p.wavefronts, std::nullopt, value(m[1])});
        r.checks.push_back({"bank_conflicts", p.conflicts, std::nullopt, value(m[2])});
    }
    r.note = std::to_string(p.max_way) + "-way, ideal " + std::to_string(p.ideal_wavefronts) + " wavefront(s)";
    return r;
}

}  // namespace occ::validation
