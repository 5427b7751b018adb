// scenario.cpp — the app state as JSON: the occupancy request exactly as the CLI's --json/--batch
// reads it (occ::io does both directions), plus a "ui" object with the theme, the tab, the open
// views and every other tab's inputs, each in the field names of its own request kind:
//
//   {"gpu": "A100-SXM4-80GB", "threads": 256, "regs": 32, ...,
//    "ui": {"theme": "dark", "tab": "advisor", "views": {"sm": true, ...},
//           "memory": {coalesce request fields}, "memory_warp": 0,
//           "memory_tile": {banks request fields of pattern tile},
//           "advisor": {"smem_per_thread": 0, "block_size_limit": 0, "cluster_size": 2, ...},
//           "roofline": {"dtype": "fp16", "m": 4096, ...}}}
//
// With an AMD GPU or target picked the top level is the AMD occupancy request instead
// (io::amd_request_to_json: {"gpu": "MI300X", "threads": 256, "regs": 128, "agprs": 0, "sgprs": 40, ...}),
// read back with io's AMD reader, its errors as usual.
//
// Ranges and wording come from the fields' descriptions (occ/io/schema.hpp). A bad field is an
// error value naming it ("ui.advisor.target_blocks: must be an integer 1..1024, got 0"), and the
// state stays as it was. The ui objects are read with io's FieldReader inside io::read_with, which
// catches what it throws: errors leave here as occ::Result values only.
//
// [SECTION] Reader: one ui object through FieldReader, its errors named by their path
// [SECTION] Memory, tile panel, Advisor, Roofline: read and write
// [SECTION] Scenario
#include "scenario.hpp"

#include <tuple>

#include "occ/io/binding.hpp"
#include "occ/io/fields.hpp"
#include "occ/io/schema.hpp"
#include "occ/text.hpp"

namespace occ::ui {
namespace {

using io::json;
namespace F = io::fields;
using io::shown;

// [SECTION] Reader
// Reads the object `obj` at `path` ("ui.advisor") with read(f) and FieldReader's unknown-field
// check, catching what FieldReader throws. Its "key: why" comes back as "advisor.key: why" (the
// path's last part), so a part read inside another's read gets the whole path: "ui.advisor.key: why".
template <typename T, typename Read>
Result<T> read_object(const json& obj, std::string_view path, Read read) {
    const std::string name(path.substr(path.rfind('.') + 1));
    if (!obj.is_object()) return Result<T>::fail(name + ": must be an object, got " + shown(obj));
    Result<T> r = io::read_with<T>(obj, path, [&](io::FieldReader& f) {
        T out = read(f);
        f.finish();
        return out;
    });
    if (!r) r.error = name + "." + r.error;
    return r;
}

// The part at `path` of the object f reads, into `out` (left out: `out` keeps its value). Called
// inside f's read: a failure is thrown for read_object to prefix with f's own path.
template <typename T, typename Read>
void read_part(io::FieldReader& f, std::string_view path, T& out, Read read) {
    if (const json* v = f.raw(path.substr(path.rfind('.') + 1))) {
        Result<T> r = read_object<T>(*v, path, read);
        if (!r) throw io::RequestError(r.error);
        out = std::move(*r);
    }
}

// [SECTION] Memory, Advisor, Roofline
// The memory view's pattern as a coalesce request without the device (the scenario's own), so
// ui.memory with the scenario's gpu is a line for `occ coalesce --batch`.
json memory_expr_json(const MemoryInputs& m);
json memory_json(const MemoryInputs& m) {
    if (m.use_expr) return memory_expr_json(m);
    io::MemoryRequest r;
    r.pattern = m.pattern;
    json j = io::memory_request_to_json(r);
    for (const char* k : {"gpu", "cc", "device"}) j.erase(k);
    // 0 = the block's extent, which follows the block (the echo would write today's extent).
    if (m.pattern.kind == PatternKind::index_2d) j["pitch"] = m.pattern.pitch;
    return j;
}

// Read inside the "ui" object's read: errors are thrown as "memory.key: why" for it to complete.
AccessPattern read_memory(const json& obj) {
    if (!obj.is_object()) throw io::RequestError("memory: must be an object with the coalesce request's fields, got " + shown(obj));
    for (const char* k : {"gpu", "cc", "device"})
        if (obj.contains(k))
            throw io::RequestError(std::string("memory.") + k + ": the memory view uses the scenario's device; give " + k +
                                   " at the top level");
    const io::KindSpec* kind = io::find_kind("coalesce");
    for (auto it = obj.begin(); kind && it != obj.end(); ++it) {
        const io::FieldSpec* f = io::find_field(*kind, it.key());
        if (!f || f->key == F::id.key)
            throw io::RequestError("memory." + it.key().substr(0, 40) + ": unknown field (the coalesce request's fields only)");
    }
    Result<io::MemoryRequest> r = io::read_memory_request(obj, "ui.memory");
    if (!r) throw io::RequestError("memory." + r.error);
    return r->pattern;
}

// Expression mode: the expr request's fields as typed (the warp is ui.memory_warp).
json memory_expr_json(const MemoryInputs& m) {
    const AccessPattern& p = m.pattern;
    json j{{"pattern", "expr"}, {"expr", m.expr}, {"array", m.array}, {"consts", m.consts}};
    if (m.array.empty()) j["access_bytes"] = p.access_bytes;  // else the declared type's size
    j["block"] = {p.block[0], p.block[1], p.block[2]};
    j["block_idx"] = {m.block_idx[0], m.block_idx[1], m.block_idx[2]};
    j["active_lanes"] = p.active_lanes;
    j["base"] = p.base;
    j["offset"] = p.offset;
    j["op"] = access_op_name(p.op);
    return j;
}

// The expr request's reader checks every field but the expression, which is kept as typed even
// when it does not evaluate (the view says why): a half-typed expression reloads.
void read_memory_expr(const json& obj, MemoryInputs& m) {
    const io::KindSpec* kind = io::find_kind("coalesce");
    json probe = obj;
    for (auto it = obj.begin(); kind && it != obj.end(); ++it) {
        const io::FieldSpec* f = io::find_field(*kind, it.key());
        if (!f || f->key == F::id.key || f->key == F::gpu.key || f->key == F::cc.key || f->key == F::device.key)
            throw io::RequestError("memory." + it.key().substr(0, 40) +
                                   ": unknown field (the coalesce request's fields without the device)");
    }
    for (const char* k : {"expr", "array", "consts"}) {
        if (obj.contains(k) && !obj[k].is_string())
            throw io::RequestError(std::string("memory.") + k + ": must be a string, got " + shown(obj[k]));
        probe[k] = k[0] == 'e' ? "0" : "";
    }
    const Result<io::MemoryRequest> r = io::read_memory_request(probe, "ui.memory");
    if (!r) throw io::RequestError("memory." + r.error);
    const ExprLaunch& l = r->expr->launch;
    m.use_expr = true;
    m.expr = obj.value("expr", std::string());
    m.array = obj.value("array", std::string());
    m.consts = obj.value("consts", std::string());
    m.block_idx = l.block_idx;
    AccessPattern& p = m.pattern;
    std::copy(l.block.begin(), l.block.end(), p.block);
    p.access_bytes = r->pattern.access_bytes;
    p.elem_bytes = 0;
    p.active_lanes = l.active_lanes;
    p.base = l.base;
    p.offset = l.offset;
    p.op = l.op;
}

// The tile panel as a banks request of pattern tile without the device (ui.memory_tile with the
// scenario's gpu is a line for `occ banks --batch`): only the chosen layout's field is written.
json memory_tile_json(const MemoryTileInputs& t) {
    json j{{F::pattern.key, "tile"},
           {F::tile.key, {t.rows, t.cols}},
           {F::elem_bytes.key, t.elem_bytes},
           {F::access_bytes.key, t.access_bytes},
           {F::tile_access.key, tile_access_names(t)}};
    if (t.layout == 1) j[F::pad.key] = t.pad;
    if (t.layout == 2)
        j[F::cute_swizzle.key] = "Swizzle<" + std::to_string(t.cute[0]) + "," + std::to_string(t.cute[1]) + "," +
                                 std::to_string(t.cute[2]) + ">";
    if (t.layout == 3) j[F::tma_swizzle.key] = tma_swizzle_name(static_cast<TmaSwizzle>(std::clamp(t.tma, 1, kTmaSwizzleModes - 1)));
    if (t.layout == 4) j[F::swizzle.key] = true;
    if (t.layout == 5) j[F::rotate.key] = t.rotate;
    if (t.cp_async && t.global_base != 0) j[F::global_base.key] = t.global_base;
    return j;
}

// The tile request's fields with its ranges and defaults (io's api_memory_tile.cpp reads the same
// way), into the panel: each field on its own; a tile that does not fit its accesses or layout
// (check_tile_layout, check_tile_access) still loads and the panel says why. The panel holds one
// layout, loads only (no stmatrix) and each access once; an empty tile_access is the panel with
// every access off.
MemoryTileInputs read_memory_tile(io::FieldReader& f) {
    MemoryTileInputs t;  // the values the panel hides (pad, Swizzle<B,M,S>, matrices) keep their defaults
    f.choice(F::pattern.key, {"tile"}, "tile");
    const json* d = f.raw(F::tile);
    if (!d) f.fail(F::tile.key, "pattern \"tile\" needs tile: [rows, columns] in elements, e.g. [64, 64]");
    if (!d->is_array() || d->size() != 2) f.fail(F::tile.key, "must be [rows, columns] (2 integers), got " + shown(*d));
    for (std::size_t i = 0; i < 2; ++i) {
        const json& e = (*d)[i];
        if (!e.is_number_integer() || e.get<std::int64_t>() < F::tile.lo || e.get<std::int64_t>() > F::tile.hi)
            f.fail(F::tile.key, "rows and columns must each be an integer 1..1024, got " + shown(e));
        (i == 0 ? t.rows : t.cols) = static_cast<int>(e.get<std::int64_t>());
    }
    auto width = [&f](const io::FieldSpec& spec, std::int64_t def) {
        const int x = static_cast<int>(f.integer(spec, def));
        // The panel counts shared-memory banks: no 32-byte lanes there (banks_access_unsupported).
        if (x == kWideAccessBytes)
            f.fail(spec.key,
                   "must be 1, 2, 4, 8 or 16 (bytes), got 32: the tile panel counts shared-memory banks, and shared memory has "
                   "no 32-byte lanes (256-bit ld/st are .global only)");
        if (!valid_access_bytes(x)) f.fail(spec.key, "must be 1, 2, 4, 8 or 16 (bytes), got " + std::to_string(x));
        return x;
    };
    t.access_bytes = width(F::access_bytes, F::access_bytes.int_default);
    t.elem_bytes = width(F::elem_bytes, t.access_bytes);  // the request's default

    std::vector<std::string> names{"row"};  // the request's default
    if (const json* a = f.raw(F::tile_access)) {
        names.clear();
        if (a->is_string()) {
            std::string part;
            for (char c : a->get<std::string>() + ",") {
                if (c == ',' && !part.empty()) names.push_back(part);
                if (c == ',') part.clear();
                else if (c != ' ') part += c;
            }
        }
        for (std::size_t i = 0; a->is_array() && i < a->size(); ++i)
            names.push_back((*a)[i].is_string() ? (*a)[i].get<std::string>() : (*a)[i].dump());
        if ((a->is_string() && names.empty()) || !(a->is_string() || a->is_array()) || names.size() > 8)
            f.fail(F::tile_access.key, "must be a list of 1..8 accesses, got " + shown(*a));
    }
    if (const std::string ldmatrix = f.choice(F::ldmatrix, ""); !ldmatrix.empty()) names.insert(names.begin(), "ldmatrix." + ldmatrix);
    t.ldmatrix = t.row = t.cp_async = t.column = false;
    for (const std::string& n : names) {
        TileAccess a;
        if (!parse_tile_access(n, t.access_bytes, t.elem_bytes, a))
            f.fail(F::tile_access.key, "each entry must be one of row, column, cp_async, ldmatrix.x1/x2/x4 (optionally .trans), got \"" +
                                           n.substr(0, 40) + "\"");
        if (a.kind == TileAccessKind::stmatrix)
            f.fail(F::tile_access.key, "the app's tile panel counts loads: " + n + " is for `occ banks --op store`");
        bool& on = a.kind == TileAccessKind::ldmatrix   ? t.ldmatrix
                   : a.kind == TileAccessKind::row      ? t.row
                   : a.kind == TileAccessKind::cp_async ? t.cp_async
                                                        : t.column;
        if (on) f.fail(F::tile_access.key, "the app's tile panel takes each access once, got " + n + " twice");
        on = true;
        if (a.kind == TileAccessKind::ldmatrix) {
            t.matrices = a.matrices == 1 ? 0 : a.matrices == 2 ? 1 : 2;
            t.trans = a.trans;
        }
    }

    const int pad = static_cast<int>(f.integer(F::pad));
    const bool xor_rows = f.boolean(F::swizzle);
    const json* cute = f.raw(F::cute_swizzle);
    CuteSwizzle sw;
    if (cute && (!cute->is_string() || !parse_cute_swizzle(cute->get<std::string>(), sw)))
        f.fail(F::cute_swizzle.key, "must be Swizzle<B,M,S> or \"B,M,S\" (e.g. \"Swizzle<3,3,3>\"), got " + shown(*cute));
    if (std::string e = check_swizzle(sw); !e.empty()) f.fail(F::cute_swizzle.key, e.substr(e.find(": ") + 2));
    const std::string tma = f.choice(F::tma_swizzle);
    const int rotate = static_cast<int>(f.integer(F::rotate));
    if ((pad > 0) + xor_rows + (cute != nullptr) + (tma != "none") + (rotate > 0) > 1)
        f.fail(pad > 0 ? F::pad.key : F::cute_swizzle.key,
               "the app's tile panel draws one layout: pad, swizzle, cute_swizzle, tma_swizzle or rotate, not several");
    t.layout = pad > 0 ? 1 : cute ? 2 : tma != "none" ? 3 : xor_rows ? 4 : rotate > 0 ? 5 : 0;
    if (rotate > 0) t.rotate = rotate;
    t.global_base = f.integer(F::global_base, 0);
    if (pad > 0) t.pad = pad;
    if (cute) std::tie(t.cute[0], t.cute[1], t.cute[2]) = std::tie(sw.bits, sw.base, sw.shift);
    if (tma != "none") t.tma = static_cast<int>(io::choice_index(F::tma_swizzle, tma));  // the choices are TmaSwizzle's order
    return t;
}

json advisor_json(const AdvisorInputs& a) {
    json j{{F::smem_per_thread.key, a.smem_per_thread}, {F::block_size_limit.key, a.block_size_limit}};
    if (a.target_blocks > 0) j[F::target_blocks.key] = a.target_blocks;  // absent = the current blocks per SM
    j[F::cluster_size.key] = a.cluster_size;
    j[F::non_portable.key] = a.non_portable;
    return j;
}

AdvisorInputs read_advisor(io::FieldReader& f) {
    AdvisorInputs a;
    a.smem_per_thread = f.size(F::smem_per_thread, a.smem_per_thread);
    a.block_size_limit = static_cast<int>(f.integer(F::block_size_limit, a.block_size_limit));
    a.target_blocks = static_cast<int>(f.integer(F::target_blocks, a.target_blocks));
    a.cluster_size = static_cast<int>(f.integer(F::cluster_size, a.cluster_size));
    a.non_portable = f.boolean(F::non_portable.key, a.non_portable);
    // The rule of the advise request: sizes 9..16 are non-portable.
    if (a.cluster_size > kMaxPortableClusterSize && !a.non_portable)
        f.fail(F::cluster_size.key, "must be 1..8 (portable); 9..16 need non_portable, got " + std::to_string(a.cluster_size));
    return a;
}

json roofline_json(const RooflineInputs& r) {
    json j = json::object();
    if (!r.gpu.empty()) j[F::roof_gpu.key] = r.gpu;  // absent = follow the scenario's GPU
    if (!r.compare.empty()) j[F::compare.key] = json::array({r.compare});
    j[F::dtype.key] = precision_name(r.dtype);
    for (const auto& [f, v] : {std::pair{&F::m, r.m},
                               {&F::n, r.n},
                               {&F::k, r.k},
                               {&F::seq_len, r.seq_len},
                               {&F::head_dim, r.head_dim},
                               {&F::elements, r.elements},
                               {&F::rows, r.rows},
                               {&F::cols, r.cols}})
        j[f->key] = v;
    if (r.measured_ms > 0) j[F::measured_ms.key] = r.measured_ms;
    return j;
}

// A device name with roofline figures, canonical; a failure otherwise.
std::string roofline_device(io::FieldReader& f, std::string_view key, const json& v) {
    if (v.is_string())
        if (const auto d = find_roofline_device(v.get<std::string>())) return d->name;
    std::string names;
    for (const RooflineDevice& d : roofline_devices()) join_into(names, ", ", d.name);
    f.fail(key, "must be a device with roofline figures (" + names + "), got " + shown(v));
}

RooflineInputs read_roofline(io::FieldReader& f) {
    RooflineInputs r;
    if (const json* g = f.raw(F::roof_gpu)) r.gpu = roofline_device(f, F::roof_gpu.key, *g);
    if (const json* c = f.raw(F::compare)) {
        if (c->is_array() && c->size() > 1) f.fail(F::compare.key, "the app compares with one device, got " + std::to_string(c->size()));
        if (c->is_array() && c->size() == 1) r.compare = roofline_device(f, F::compare.key, (*c)[0]);
        else if (!c->is_array()) r.compare = roofline_device(f, F::compare.key, *c);
    }
    r.dtype = parse_precision(f.choice(F::dtype, precision_name(r.dtype))).value_or(r.dtype);
    for (const auto& [spec, out] : {std::pair{&F::m, &r.m},
                                    {&F::n, &r.n},
                                    {&F::k, &r.k},
                                    {&F::seq_len, &r.seq_len},
                                    {&F::head_dim, &r.head_dim},
                                    {&F::elements, &r.elements},
                                    {&F::rows, &r.rows},
                                    {&F::cols, &r.cols}})
        *out = f.integer(*spec, *out);
    r.measured_ms = f.number(F::measured_ms, r.measured_ms);
    if (f.has(F::measured_ms) && !(r.measured_ms > 0)) f.fail(F::measured_ms.key, "must be > 0 milliseconds (leave it out for none)");
    return r;
}

// [SECTION] Scenario
std::string tab_name(Tab t) {
    static const char* names[] = {"occupancy", "memory", "advisor", "roofline"};
    return names[static_cast<int>(t)];
}

Tab tab_from(std::string_view name) {
    for (int i = 0; i < 4; ++i)
        if (tab_name(static_cast<Tab>(i)) == name) return static_cast<Tab>(i);
    return Tab::occupancy;
}

// Everything "ui" holds, read into a copy of the current values (a part left out keeps them).
struct UiPart {
    bool dark;
    Tab tab;
    ViewFlags views;
    MemoryInputs memory;
    MemoryTileInputs memory_tile;
    AdvisorInputs advisor;
    RooflineInputs roofline;
};

Result<UiPart> read_ui(json ui, const UiPart& current) {
    // Scenarios saved before ui.memory was a coalesce request kept the warp inside it.
    if (ui.is_object() && ui.contains("memory") && ui["memory"].is_object() && ui["memory"].contains("warp") &&
        !ui.contains("memory_warp")) {
        ui["memory_warp"] = ui["memory"]["warp"];
        ui["memory"].erase("warp");
    }
    return read_object<UiPart>(ui, "ui", [&](io::FieldReader& f) {
        UiPart u = current;
        u.dark = f.choice("theme", {"dark", "light"}, u.dark ? "dark" : "light") == "dark";
        u.tab = tab_from(f.choice("tab", {"occupancy", "memory", "advisor", "roofline"}, tab_name(u.tab)));  // in Tab's order
        read_part(f, "ui.views", u.views, [&u](io::FieldReader& v) {
            ViewFlags w = u.views;
            for (const auto& [key, on] : {std::pair{"sm", &w.sm}, {"plots", &w.plots}, {"heatmap", &w.heatmap}, {"hints", &w.hints}})
                *on = v.boolean(key, *on);
            return w;
        });
        if (const json* m = f.raw("memory")) {
            if (m->is_object() && m->contains("expr")) read_memory_expr(*m, u.memory);
            else u.memory.pattern = read_memory(*m);
        }
        u.memory.warp = static_cast<int>(f.integer("memory_warp", 0, kWarpLanes - 1, u.memory.warp));
        read_part(f, "ui.memory_tile", u.memory_tile, read_memory_tile);
        read_part(f, "ui.advisor", u.advisor, read_advisor);
        read_part(f, "ui.roofline", u.roofline, read_roofline);
        return u;
    });
}

}  // namespace

std::string scenario_to_json(const AppState& s) {
    json req = scenario_request(s);
    json out = json::object();
    if (!s.amd && s.device_kind == DeviceKind::custom) {
        req.erase("gpu");
        req.erase("cc");
        out["device"] = io::device_props_json(s.req.device);
    }
    for (auto& [k, v] : req.items()) out[k] = v;
    out["ui"] = json{{"theme", s.dark ? "dark" : "light"},
                     {"tab", tab_name(s.tab)},
                     {"views", {{"sm", s.views.sm}, {"plots", s.views.plots}, {"heatmap", s.views.heatmap}, {"hints", s.views.hints}}},
                     {"memory", memory_json(s.memory)},
                     {"memory_warp", s.memory.warp},
                     {"memory_tile", memory_tile_json(s.memory_tile)},
                     {"advisor", advisor_json(s.advisor)},
                     {"roofline", roofline_json(s.roofline)}};
    return out.dump();
}

bool scenario_from_json(std::string_view text, AppState& s, std::string* error) {
    auto fail = [&](std::string msg) {
        if (error) *error = std::move(msg);
        return false;
    };
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) return fail("scenario: not valid JSON");
    if (!j.is_object()) return fail("scenario: must be a JSON object");

    UiPart u{s.dark, s.tab, s.views, s.memory, s.memory_tile, s.advisor, s.roofline};
    if (const auto it = j.find("ui"); it != j.end()) {
        Result<UiPart> read = read_ui(*it, u);
        if (!read) return fail(read.error);
        u = std::move(*read);
        j.erase("ui");
    }
    // The rest is an occupancy request; the app keeps no sweep and no id.
    const io::KindSpec* kind = io::find_kind("occupancy");
    for (auto it = j.begin(); kind && it != j.end(); ++it) {
        const io::FieldSpec* f = io::find_field(*kind, it.key());
        if (!f || f->key == F::sweep.key || f->key == F::id.key) return fail(it.key().substr(0, 40) + ": unknown field in scenario");
    }
    if (io::request_vendor(j) == io::Vendor::amd) {
        // The answer's reader: the fields, then the model's ranges (a launch that fails still loads).
        Result<io::AmdAnswer> a = io::answer_amd_occupancy(j);
        if (!a) return fail(a.error);
        s.amd = true;
        s.amd_req = a->input;
        s.device_kind = j.contains(F::arch.key) ? DeviceKind::amd_target : DeviceKind::named;
    } else {
        Result<io::OccupancyRequest> req = io::read_occupancy_request(j, "scenario");
        if (!req) return fail(req.error);
        // Everything parsed: only now touch the state.
        s.amd = false;
        s.device_kind = j.contains("device") ? DeviceKind::custom : j.contains("cc") ? DeviceKind::cc : DeviceKind::named;
        s.req = std::move(*req);
        s.block_3d = s.req.block[1] > 1 || s.req.block[2] > 1;
    }
    std::tie(s.dark, s.tab, s.views, s.memory, s.memory_tile, s.advisor, s.roofline) = std::tie(u.dark, u.tab, u.views, u.memory,
                                                                                                u.memory_tile, u.advisor, u.roofline);
    mark_changed(s);
    return true;
}

bool use_request(AppState& s, const io::OccupancyRequest& r, std::string* error) {
    json j = io::occupancy_request_to_json(r);
    const std::string now = scenario_to_json(s);
    j["ui"] = json::parse(std::string_view(now))["ui"];  // as a string_view: one parser instantiation in the page
    return scenario_from_json(j.dump(), s, error);
}

}  // namespace occ::ui
