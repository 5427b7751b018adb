// state.cpp — turns inputs into everything the views draw, by calling occ::core (and occ::io for the
// result table, a pasted compiler log and a pasted Nsight Compute report). Each part of the derived
// state is computed when a view on screen needs it and its inputs changed, never per frame.
//
// [SECTION] Occupancy tab: sweeps as plot series, hints
// [SECTION] Memory, Advisor and Roofline tabs
// [SECTION] Inputs
// [SECTION] Parts: what each one computes, and what it is computed from
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "amd_ui.hpp"
#include "app_state.hpp"
#include "occ/advisor.hpp"
#include "occ/cluster.hpp"
#include "occ/explain.hpp"
#include "occ/expr.hpp"
#include "occ/format.hpp"
#include "occ/io/utf8.hpp"
#include "occ/waves.hpp"

namespace occ::ui {
namespace {

// [SECTION] Occupancy tab
void to_series(const std::vector<SweepPoint>& pts, double x_scale, std::vector<float>& xs, std::vector<float>& ys,
               std::vector<unsigned>& lim) {
    xs.resize(pts.size());
    ys.resize(pts.size());
    lim.resize(pts.size());
    for (std::size_t i = 0; i < pts.size(); ++i) {
        xs[i] = static_cast<float>(static_cast<double>(pts[i].x) * x_scale);
        ys[i] = static_cast<float>(pts[i].occupancy * 100.0);
        lim[i] = pts[i].limiters;
    }
}

// The hints come from occ::core's advisor (a search over the same occupancy model); the list of
// equally good block sizes is read off the block-size sweep.
Hints read_hints(const AppState& s, const Derived& d) {
    Hints h;
    const Device& dev = s.req.device;
    const KernelResources& k = s.req.kernel;
    const LaunchConfig& l = s.req.launch;
    const BlockSizeAdvice bs = advise_block_size(dev, k, l, SmemGrowth{l.smem_dynamic, 0});
    if (bs.ok()) {
        h.best_block = bs.threads;
        h.best_occupancy = bs.after.occupancy;
        for (const SweepPoint& p : d.by_threads)
            if (p.x % dev.arch.warp_size == 0 && p.occupancy == h.best_occupancy) h.best_threads.push_back(static_cast<int>(p.x));
    }
    const OccupancyResult& r = d.result;
    if (!r.ok() || r.blocks_per_sm == 0) return h;
    const ResourceAdvice ra = advise_registers(dev, k, l);
    if (ra.ok()) {
        h.valid = true;
        h.regs_now = static_cast<int>(ra.now);
        h.regs_max_same = static_cast<int>(ra.max_same_blocks);
        h.regs_unbounded = ra.max_same_blocks >= dev.arch.max_regs_per_thread;
        h.regs_to_gain = static_cast<int>(ra.to_gain_block);
        h.regs_gain_blocks = ra.to_gain_block >= 0 ? ra.after_cut.blocks_per_sm : 0;
        h.regs_gain_occupancy = ra.to_gain_block >= 0 ? ra.after_cut.occupancy : 0;
        h.regs_note = ra.note;
    }
    const ResourceAdvice sa = advise_shared_memory(dev, k, l);
    if (sa.ok()) {
        h.smem_max_same = sa.max_same_blocks;
        h.smem_to_gain = sa.to_gain_block;
        h.smem_gain_blocks = sa.to_gain_block >= 0 ? sa.after_cut.blocks_per_sm : 0;
    }
    return h;
}

// The heatmap's cells: blocks per SM from occ::occupancy_grid, for block sizes 32, 64, ... 1024
// (columns; the grid is constant within a warp's worth of threads) x registers 0..255 (rows).
void refresh_heatmap(const AppState& s, Derived& d) {
    const Device& dev = s.req.device;
    d.grid_full.resize(kGridSize);
    occupancy_grid(dev.arch, s.req.kernel, s.req.launch, d.grid_full);
    Heatmap& h = d.heatmap;
    const int warp = dev.arch.warp_size;
    h = Heatmap{};
    h.cols = kGridThreads / warp;
    h.rows = kGridRegs;
    h.col_threads = warp;
    h.max_regs = dev.arch.max_regs_per_thread;
    h.limited_by = [](unsigned bits) { return limiter_labels(bits, " and "); };
    h.title = "Block size x registers";
    h.x_label = "threads per block";
    h.y_label = "registers per thread";
    h.regs = "registers";
    h.count_unit = "blocks per SM";
    h.none_fits = "no block fits";
    h.threads = [](const AppState& st) { return st.req.launch.threads; };
    h.regs_of = [](const AppState& st) { return st.req.kernel.regs_per_thread; };
    h.use = [](AppState& st, int threads, int regs) {
        st.block_3d = false;
        st.req.launch.threads = threads;
        st.req.kernel.regs_per_thread = std::min(regs, st.req.device.arch.max_regs_per_thread);
        sync_block(st);
    };
    const auto cells = static_cast<std::size_t>(h.cols * h.rows);
    h.occupancy.assign(cells, 0.0f);
    h.count.assign(cells, 0);
    const double max_warps = dev.arch.max_warps_per_sm();
    for (int c = 0; c < h.cols; ++c) {
        const int threads = (c + 1) * warp;
        for (int r = 0; r < h.rows; ++r) {
            const std::uint8_t blocks = d.grid_full[static_cast<std::size_t>((threads - 1) * kGridRegs + r)];
            // occupancy = resident warps / max warps, the definition OccupancyResult uses; a block
            // of (c + 1) * 32 threads is c + 1 warps.
            const auto cell = static_cast<std::size_t>(c * h.rows + r);
            h.count[cell] = blocks;
            h.occupancy[cell] = static_cast<float>(100.0 * blocks * (c + 1) / max_warps);
        }
    }
}

// What limits each heatmap cell, from one register sweep per column: only the hover shows it, so
// it is computed when the pointer first rests on the heatmap.
void refresh_heatmap_limiters(const AppState& s, Derived& d) {
    const Device& dev = s.req.device;
    Heatmap& h = d.heatmap;
    h.limiters.assign(static_cast<std::size_t>(h.cols * h.rows), 0);
    LaunchConfig l = s.req.launch;
    for (int c = 0; c < h.cols; ++c) {
        l.threads = (c + 1) * dev.arch.warp_size;
        for (const SweepPoint& p : sweep_registers(dev, s.req.kernel, l))
            if (p.x < h.rows) h.limiters[static_cast<std::size_t>(c * h.rows + p.x)] = static_cast<std::uint8_t>(p.limiters);
    }
}

// [SECTION] Memory, Advisor and Roofline tabs
// What either model does not cover, shown in its panel instead of a picture: the architecture, or the
// width (32-byte lanes: global memory from cc 10.0 only, never shared memory).
void set_memory_unsupported(MemoryDerived& m, const AccessPattern& p, const ArchRules& arch) {
    m.global_unsupported = global_model_unsupported(arch);
    if (m.global_unsupported.empty()) m.global_unsupported = global_access_unsupported(p.access_bytes, arch);
    m.banks_unsupported = banks_model_unsupported(arch);
    if (m.banks_unsupported.empty()) m.banks_unsupported = banks_access_unsupported(p.access_bytes);
}

// Expression mode: the one warp the expression gives, counted as a pattern of explicit addresses.
void refresh_memory_expr(AppState& s) {
    MemoryDerived& m = s.derived.memory;
    const AccessPattern& p = s.memory.pattern;
    ExprLaunch l;
    l.block = {p.block[0], p.block[1], p.block[2]};
    l.block_idx = s.memory.block_idx;
    for (std::size_t i = 0; i < 3; ++i) l.grid_dim[i] = l.block_idx[i] + 1;
    s.memory.warp = l.warp = std::clamp(s.memory.warp, 0, p.warps() - 1);
    l.active_lanes = p.active_lanes;
    l.base = p.base;
    l.offset = p.offset;
    l.op = p.op;
    WarpAccess w;
    m.error = expr_warp_access(IndexExpr::parse(s.memory.expr, s.memory.array, s.memory.consts, p.element_bytes()), l, w);
    if (!m.error.empty()) return;
    AccessPattern one;
    one.kind = PatternKind::addresses;
    one.access_bytes = one.elem_bytes = w.access_bytes;
    one.op = w.op;
    one.active_lanes = w.active;
    one.addresses = w.addr;
    m.error = check_pattern(one);
    if (!m.error.empty()) return;
    set_memory_unsupported(m, one, s.req.device.arch);
    m.global = analyze_global_block(one, s.req.device.arch);
    m.banks = analyze_banks_block(one, s.req.device.arch);
    m.warp_access = w;
}

void refresh_memory(AppState& s) {
    MemoryDerived& m = s.derived.memory;
    AccessPattern& p = s.memory.pattern;
    m = MemoryDerived{};
    if (s.memory.use_expr) return refresh_memory_expr(s);
    m.error = check_pattern(p);
    if (!m.error.empty()) return;
    s.memory.warp = std::clamp(s.memory.warp, 0, p.warps() - 1);
    set_memory_unsupported(m, p, s.req.device.arch);
    m.global = analyze_global_block(p, s.req.device.arch);
    m.banks = analyze_banks_block(p, s.req.device.arch);
    m.warp_access = make_warp_access(p, s.memory.warp);
}

// The tile panel: the tile, its layout and accesses as occ/smem_shapes.hpp takes them, counted and
// solved only when its inputs change (a 128 x 128 tile with three accesses solves in a few ms).
void refresh_memory_tile(AppState& s) {
    const MemoryTileInputs& in = s.memory_tile;
    MemoryTileDerived& v = s.derived.memory_tile;
    if (v.counted && v.in == in) return;
    v = MemoryTileDerived{};
    v.in = in;
    v.counted = true;
    TileLayout& L = v.layout;
    L.rows = in.rows;
    L.cols = in.cols;
    L.elem_bytes = in.elem_bytes;
    L.pad = in.layout == 1 ? in.pad : 0;
    L.xor_rows = in.layout == 4;
    if (in.layout == 2) L.swizzle = CuteSwizzle{in.cute[0], in.cute[1], in.cute[2]};
    if (in.layout == 3) L.tma = static_cast<TmaSwizzle>(std::clamp(in.tma, 1, kTmaSwizzleModes - 1));
    if (in.layout == 5) L.rotate = in.rotate;
    for (const std::string& n : tile_access_names(in)) {
        TileAccess a;
        if (parse_tile_access(n, in.access_bytes, in.elem_bytes, a)) v.accesses.push_back(a);
    }
    if (v.accesses.empty()) {
        v.error = "tile_access: pick at least one access";
        return;
    }
    v.error = check_tile_layout(L);
    for (const TileAccess& a : v.accesses)
        if (v.error.empty()) v.error = check_tile_access(L, a);
    if (!v.error.empty()) return;
    const TileSource source{0, static_cast<std::uint64_t>(in.global_base)};
    for (const TileAccess& a : v.accesses) v.totals.push_back(tile_banks(L, a, nullptr, &source));
    v.solution = solve_swizzle(L.rows, L.cols, L.elem_bytes, v.accesses);
    if (!v.solution.ok()) v.error = v.solution.error;
}

void refresh_advisor(AppState& s) {
    const AdvisorInputs& in = s.advisor;
    AdvisorDerived& a = s.derived.advisor;
    a.view = {};
    a.ptxas = {};
    a.kernels = {};
    if (s.amd && !s.amd_req.arch) return;
    // As the advise request reads the scenario: the growth per thread is on top of its dynamic shared
    // memory (smem_fixed defaults to smem_dynamic), and the launch now has the grown amount.
    if (s.amd) {
        io::AmdRequest req = s.amd_req;
        const SmemGrowth growth{req.launch.lds_dynamic, in.smem_per_thread};
        req.launch.lds_dynamic = growth.at(req.launch.threads);
        a.view = io::advice_view(io::amd_advise(req, growth, in.block_size_limit, in.target_blocks, req.grid));
    } else {
        io::OccupancyRequest req = s.req;
        const SmemGrowth growth{req.launch.smem_dynamic, in.smem_per_thread};
        req.launch.smem_dynamic = growth.at(req.launch.threads);
        a.view = io::advice_view(io::advise(req, growth, in.block_size_limit, in.target_blocks,
                                            req.device.arch.clusters ? in.cluster_size : 0, in.non_portable));
    }
    // A pasted or dropped compiler log (AMD: also a rocprof-compute analysis), or binaries: each
    // kernel's registers, static shared memory and barriers (AMD: VGPRs, AGPRs, SGPRs, LDS; its rows
    // take no grid) come from them, the rest from the scenario.
    io::json req = scenario_request(s);
    for (const char* key : {"regs", "agprs", "sgprs", "smem_static", "barriers"}) req.erase(key);
    if (s.amd) req.erase("grid");
    if (!s.binaries.empty() && !s.amd) a.kernels = io::answer_kernels(req, s.binaries);
    if (s.ptxas_log.empty()) return;
    req["log"] = s.ptxas_log;
    a.ptxas = io::answer_ptxas(req);
}

// The roofline's preset operations, each sized by the inputs.
std::vector<RooflineOp> roofline_points(const RooflineDevice& dev, const RooflineInputs& in) {
    Operation mm;
    mm.kind = OpKind::matmul;
    mm.m = in.m;
    mm.n = in.n;
    mm.k = in.k;
    Operation dec;
    dec.kind = OpKind::attention_decode;
    dec.seq_len = in.seq_len;
    dec.head_dim = in.head_dim;
    Operation ew;
    ew.kind = OpKind::elementwise;
    ew.elements = in.elements;
    Operation sm;
    sm.kind = OpKind::softmax;
    sm.rows = in.rows;
    sm.cols = in.cols;
    Operation ln = sm;
    ln.kind = OpKind::layernorm;
    std::vector<RooflineOp> out = {
        {"matmul", mm, {}}, {"decode attention", dec, {}}, {"elementwise", ew, {}}, {"softmax", sm, {}}, {"layernorm", ln, {}}};
    for (RooflineOp& o : out) {
        o.op.dtype = in.dtype;
        RooflineQuery q;
        q.device = dev;
        q.op = o.op;
        if (o.op.kind == OpKind::matmul && in.measured_ms > 0) q.measured_s = in.measured_ms / 1e3;
        o.point = compute_roofline(q);
    }
    return out;
}

// The Roofline follows the scenario's GPU until the user picks a device.
void refresh_roofline(AppState& s) {
    const RooflineInputs& in = s.roofline;
    RooflineDerived& r = s.derived.roofline;
    r.follows_scenario = in.gpu.empty();
    r.note.clear();
    const std::string scenario_gpu = scenario_device_name(s);
    std::optional<RooflineDevice> dev = find_roofline_device(r.follows_scenario ? scenario_gpu : in.gpu);
    if (!dev) {
        const std::span<const RooflineDevice> all = roofline_devices();
        dev = find_roofline_device(kDefaultGpu);
        if (!dev && !all.empty()) dev = all.front();
        r.note = (r.follows_scenario ? scenario_gpu : in.gpu) + " has no roofline figures; showing the " +
                 (dev ? dev->name : std::string("?")) + " (pick a device above).";
    }
    r.device = dev.value_or(RooflineDevice{});
    const std::optional<RooflineDevice> cmp = in.compare.empty() ? std::nullopt : find_roofline_device(in.compare);
    r.has_compare = cmp.has_value();
    r.compare = cmp.value_or(RooflineDevice{});
    r.points = roofline_points(r.device, in);
    r.compare_points = r.has_compare ? roofline_points(r.compare, in) : std::vector<RooflineOp>{};
}

// The report's kernels with occ's prediction; the report alone picks the device (as `occ ncu` does).
void refresh_ncu(AppState& s) {
    NcuDerived& n = s.derived.ncu;
    if (n.text == s.ncu_text) return;
    n = NcuDerived{};
    n.text = s.ncu_text;
    if (n.text.empty()) return;
    Result<io::NcuAnswer> a = io::answer_ncu(io::json{{"text", n.text}});
    if (a) n.answer = std::move(*a);
    else n.error = a.error;
}

}  // namespace

// [SECTION] Inputs
void reset_inputs(AppState& s) {
    s.req = io::OccupancyRequest{};
    s.req.device = *find_gpu(kDefaultGpu);
    s.req.launch.threads = 256;
    s.req.kernel.regs_per_thread = 32;
    s.req.block[0] = 256;
    s.req.block[1] = s.req.block[2] = 1;
    s.device_kind = DeviceKind::named;
    s.amd = false;
    s.amd_req = io::AmdRequest{};
    s.block_3d = false;
    s.memory = MemoryInputs{};
    s.memory_tile = MemoryTileInputs{};
    s.advisor = AdvisorInputs{};
    s.roofline = RooflineInputs{};
    s.ptxas_log.clear();
    s.ncu_text.clear();
    s.binaries.clear();
    s.binaries_skipped = 0;
    mark_changed(s);
}

std::vector<std::string> tile_access_names(const MemoryTileInputs& in) {
    const char* mats[] = {"ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4"};
    std::vector<std::string> names;
    if (in.ldmatrix) names.push_back(std::string(mats[std::clamp(in.matrices, 0, 2)]) + (in.trans ? ".trans" : ""));
    if (in.row) names.push_back("row");
    if (in.cp_async) names.push_back("cp_async");
    if (in.column) names.push_back("column");
    return names;
}

void mark_changed(AppState& s) {
    ++s.input_generation;
    s.scenario_changed = true;
}

void sync_block(AppState& s) {
    if (s.block_3d) {
        for (int& v : s.req.block) v = std::max(1, v);
        s.req.launch.threads = s.req.block[0] * s.req.block[1] * s.req.block[2];
    } else {
        s.req.block[0] = s.req.launch.threads;
        s.req.block[1] = s.req.block[2] = 1;
    }
}

void take_dropped_text(AppState& s, std::string text) {
    const bool report = !io::parse_ncu(text).kernels.empty();
    (report ? s.ncu_text : s.ptxas_log) = std::move(text);
    s.reveal = report ? AppState::Reveal::ncu : AppState::Reveal::ptxas;
    s.tab = Tab::advisor;
    mark_changed(s);
}

namespace {

bool ends_with(std::string_view s, std::string_view end) { return s.size() >= end.size() && s.substr(s.size() - end.size()) == end; }

// Named as something `occ kernels` reads: a binary (also when its bytes say otherwise: then its error
// says what it is not), or Triton's metadata (not its __grp__ group files).
bool binary_name(std::string_view name) {
    const std::string_view base = name.substr(name.find_last_of("/\\") + 1);
    if (ends_with(base, ".json")) return base.rfind("__grp__", 0) != 0;
    for (const char* ext : {".cubin", ".fatbin", ".o", ".so"})
        if (ends_with(base, ext)) return true;
    return false;
}

}  // namespace

void take_dropped_files(AppState& s, std::vector<io::NamedBytes> files) {
    const auto is_binary = [](const io::NamedBytes& f) { return io::looks_binary(f.second) || binary_name(f.first); };
    if (files.empty()) return;
    if (std::none_of(files.begin(), files.end(), is_binary)) {
        std::vector<unsigned char>& b = files.front().second;
        const std::size_t bom = b.size() >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF ? 3
                                                                                              : 0;  // as the browser's file.text() drops it
        take_dropped_text(s, io::make_valid_utf8(std::string_view(reinterpret_cast<const char*>(b.data()) + bom, b.size() - bom)));
        return;
    }
    std::vector<io::NamedBytes> read;
    for (io::NamedBytes& f : files)
        if (is_binary(f)) read.push_back(std::move(f));
    s.binaries_skipped = static_cast<int>(files.size() - read.size());
    s.binaries = io::read_binaries(read);
    s.reveal = AppState::Reveal::binaries;
    s.tab = Tab::advisor;
    mark_changed(s);
}

// [SECTION] Parts: what each one computes, and what it is computed from
namespace {

// Raw bytes of a trivially copyable input: equal bytes mean equal inputs, so a kept part is never
// stale (a difference only in padding costs a recompute, nothing else).
template <typename T>
void put(std::string& key, const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    key.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// The device, kernel and launch, less the inputs a part sweeps over (and the grid size, which only
// the wave figures read).
std::string launch_key(const AppState& s, bool threads, bool regs, bool smem_dynamic) {
    std::string key = s.req.device.name;
    key += '\0';
    put(key, s.req.device.sm_count);
    put(key, s.req.device.arch);
    const std::size_t k = key.size();
    put(key, s.req.kernel);
    const std::size_t l = key.size();
    put(key, s.req.launch);
    auto clear = [&](std::size_t at, std::size_t n) { std::memset(key.data() + at, 0, n); };
    if (!regs) clear(k + offsetof(KernelResources, regs_per_thread), sizeof(int));
    if (!threads) clear(l + offsetof(LaunchConfig, threads), sizeof(int));
    if (!smem_dynamic) clear(l + offsetof(LaunchConfig, smem_dynamic), sizeof(std::int64_t));
    clear(l + offsetof(LaunchConfig, grid_blocks), sizeof(std::int64_t));
    return key;
}

// What a part is computed from. Parts without a narrower key follow every input change.
std::string part_key(const AppState& s, Part p) {
    std::string key;
    if (s.amd && p != Part::memory_tile && p != Part::ncu) {
        put(key, s.input_generation);
        return key;
    }
    switch (p) {
        case Part::sweep_threads: return launch_key(s, false, true, true);
        case Part::sweep_regs: return launch_key(s, true, false, true);
        case Part::sweep_smem: return launch_key(s, true, true, false);
        case Part::heatmap:
        case Part::heatmap_limiters: return launch_key(s, false, false, true);
        case Part::memory_tile: put(key, s.memory_tile); return key;
        case Part::ncu: return s.ncu_text;
        default: put(key, s.input_generation); return key;
    }
}

void compute_result(AppState& s) {
    if (s.amd) return compute_amd_result(s);
    Derived& d = s.derived;
    d.result = compute_occupancy(s.req.device, s.req.kernel, s.req.launch);
    d.waves = compute_waves(d.result, s.req.device.sm_count, s.req.launch.grid_blocks, s.req.kernel.regs_per_thread);
    io::OccupancyAnswer a;
    a.input = s.req;
    a.result = d.result;
    d.view = io::occupancy_view(a);
}

void compute_part(AppState& s, Part p) {
    Derived& d = s.derived;
    const Device& dev = s.req.device;
    const KernelResources& k = s.req.kernel;
    const LaunchConfig& l = s.req.launch;
    switch (p) {
        case Part::result: return compute_result(s);
        case Part::sweep_threads:
            d.by_threads = sweep_block_size(dev, k, l);
            return to_series(d.by_threads, 1.0, d.threads_x, d.threads_y, d.threads_lim);
        case Part::sweep_regs: d.by_regs = sweep_registers(dev, k, l); return to_series(d.by_regs, 1.0, d.regs_x, d.regs_y, d.regs_lim);
        case Part::sweep_smem:
            d.by_smem = sweep_shared_memory(dev, k, l);
            return to_series(d.by_smem, 1.0 / 1024.0, d.smem_x, d.smem_y, d.smem_lim);  // plotted in KiB
        case Part::heatmap: return s.amd ? refresh_amd_heatmap(s) : refresh_heatmap(s, d);
        case Part::heatmap_limiters:
            if (!s.amd) refresh_heatmap_limiters(s, d);  // the AMD heatmap counts its limiters with its cells
            return;
        case Part::hints: d.hints = read_hints(s, d); return;
        case Part::memory: return refresh_memory(s);
        case Part::memory_tile: return refresh_memory_tile(s);
        case Part::advisor: return refresh_advisor(s);
        case Part::roofline: return refresh_roofline(s);
        case Part::ncu: return refresh_ncu(s);
    }
}

}  // namespace

const char* part_title(Part p) {
    static const char* const titles[kPartCount] = {"result",     "block-size graph", "register graph", "shared-memory graph",
                                                   "heatmap",    "heatmap limiters", "hints",          "Memory tab",
                                                   "tile panel", "Advisor tab",      "Roofline tab",   "Nsight Compute import"};
    return titles[static_cast<std::size_t>(p)];
}

bool ready(AppState& s, Part p, bool now) {
    Recompute& r = s.derived.recompute;
    PartLog& log = r[p];
    if (log.generation == s.input_generation) return true;
    if (p != Part::result) ready(s, Part::result, true);
    // Parts read by others: the block-size sweep (the hints' equally good sizes), the heatmap's cells.
    if ((p == Part::hints && !ready(s, Part::sweep_threads, now)) || (p == Part::heatmap_limiters && !ready(s, Part::heatmap, now))) {
        log.waited_frame = r.frames + 1;
        return false;
    }
    std::string key = part_key(s, p);
    if (log.runs > 0 && key == log.key) {  // its inputs did not change: kept
        log.generation = s.input_generation;
        return true;
    }
    // Only a part's first run waits: its code is cold (the page's engine has not optimised it yet),
    // while a part that ran before takes a fraction of that, so panels never flicker to "Computing"
    // while the user drags a slider.
    if (!now && log.runs == 0 && r.frame_parts > 0 && r.frame_ms >= r.budget_ms) {
        r.waiting = true;
        log.waited_frame = r.frames + 1;
        return false;
    }
    const auto t0 = std::chrono::steady_clock::now();
    compute_part(s, p);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    log.key = std::move(key);
    log.generation = log.computed_for = s.input_generation;
    log.ms = ms;
    ++log.runs;
    r.frame_ms += ms;
    ++r.frame_parts;
    return true;
}

void begin_frame(AppState& s) {
    Recompute& r = s.derived.recompute;
    r.frame_ms = 0;
    r.frame_parts = 0;
    r.waiting = false;
    ready(s, Part::result, true);
}

void refresh(AppState& s) {
    for (int p = 0; p < kPartCount; ++p) ready(s, static_cast<Part>(p), true);
}

double recompute_ms(const AppState& s) {
    double ms = 0;
    for (const PartLog& log : s.derived.recompute.parts)
        if (log.generation == s.input_generation && log.computed_for == s.input_generation) ms += log.ms;
    return ms;
}

void use_block_size(AppState& s, int threads, std::int64_t smem) {
    if (s.amd) {
        s.amd_req.launch.threads = threads;
        s.amd_req.block = {threads, 1, 1};
        if (smem >= 0) s.amd_req.launch.lds_dynamic = smem;
        return;
    }
    s.block_3d = false;
    s.req.launch.threads = threads;
    if (smem >= 0) s.req.launch.smem_dynamic = smem;
    sync_block(s);
}

io::json scenario_request(const AppState& s) { return s.amd ? io::amd_request_to_json(s.amd_req) : io::occupancy_request_to_json(s.req); }

std::string scenario_device_name(const AppState& s) { return s.amd ? io::amd_target_name(s.amd_req) : s.req.device.name; }

}  // namespace occ::ui
