// scenario.cpp — the app state as JSON: the occupancy request exactly as the CLI's --json/--batch
// reads it (occ::io does both directions), plus a "ui" object with the theme, tab and open views.
//
//   {"gpu": "A100-SXM4-80GB", "threads": 256, "regs": 64, ..., "ui": {"theme": "dark", ...}}
#include "scenario.hpp"

#include "occ/io/fields.hpp"

namespace occ::ui {
namespace {

using io::json;

// A custom device in the cudaDeviceProp field names that io::device_from_json reads back.
json custom_device_json(const Device& d) {
    const ArchRules& a = d.arch;
    return json{{"name", d.name},
                {"major", a.cc_major},
                {"minor", a.cc_minor},
                {"multiProcessorCount", d.sm_count},
                {"maxThreadsPerBlock", a.max_threads_per_block},
                {"maxThreadsPerMultiProcessor", a.max_threads_per_sm},
                {"maxBlocksPerMultiProcessor", a.max_blocks_per_sm},
                {"regsPerBlock", a.regs_per_block},
                {"regsPerMultiprocessor", a.regs_per_sm},
                {"sharedMemPerBlock", a.smem_per_block},
                {"sharedMemPerMultiprocessor", a.smem_per_sm},
                {"sharedMemPerBlockOptin", a.smem_per_block_optin},
                {"reservedSharedMemPerBlock", a.smem_reserved_per_block}};
}

// The memory view's pattern, with the field names of the CLI's coalesce/banks requests.
json memory_json(const MemoryInputs& m) {
    const AccessPattern& p = m.pattern;
    json j{{"pattern", pattern_kind_name(p.kind)}, {"access_bytes", p.access_bytes}, {"block", {p.block[0], p.block[1]}}, {"offset", p.offset}};
    if (p.kind == PatternKind::affine) j["stride"] = p.stride;
    if (p.kind == PatternKind::index_2d) {
        j["order"] = p.order == IndexOrder::column ? "column" : "row";
        j["pitch"] = p.pitch;
        j["pad"] = p.pad;
        j["swizzle"] = p.swizzle;
    }
    if (p.kind == PatternKind::gather) {
        j["seed"] = p.seed;
        j["range"] = p.range;
    }
    j["warp"] = m.warp;
    return j;
}

MemoryInputs read_memory(const json& obj) {
    if (!obj.is_object()) throw io::RequestError("ui.memory: must be an object");
    io::FieldReader f(obj, "ui.memory");
    MemoryInputs m;
    AccessPattern& p = m.pattern;
    const std::string kind = f.choice("pattern", {"affine", "2d", "gather"}, "2d");
    p.kind = kind == "affine" ? PatternKind::affine : kind == "gather" ? PatternKind::gather : PatternKind::index_2d;
    p.access_bytes = static_cast<int>(f.integer("access_bytes", 1, 16, 4));
    if (const json* b = f.raw("block")) {
        if (!b->is_array() || b->size() != 2 || !(*b)[0].is_number_integer() || !(*b)[1].is_number_integer())
            f.fail("block", "must be [x, y]");
        p.block[0] = (*b)[0].get<int>();
        p.block[1] = (*b)[1].get<int>();
    }
    p.offset = f.integer("offset", 0, 1 << 20, 0);
    p.stride = f.integer("stride", -4096, 4096, 1);
    p.order = f.choice("order", {"row", "column"}, "column") == "row" ? IndexOrder::row : IndexOrder::column;
    p.pitch = f.integer("pitch", 0, 1 << 20, 0);
    p.pad = f.integer("pad", 0, 1024, 0);
    p.swizzle = f.boolean("swizzle", false);
    p.seed = static_cast<std::uint64_t>(f.integer("seed", 0, std::int64_t{1} << 40, 1));
    p.range = f.integer("range", 0, 1 << 30, 0);
    m.warp = static_cast<int>(f.integer("warp", 0, 31, 0));
    f.finish();
    if (std::string e = check_pattern(p); !e.empty()) throw io::RequestError("ui.memory." + e);
    return m;
}

}  // namespace

std::string scenario_to_json(const AppState& s) {
    json req = io::occupancy_request_to_json(s.req);
    json out = json::object();
    if (s.device_kind == DeviceKind::custom) {
        req.erase("gpu");
        req.erase("cc");
        out["device"] = custom_device_json(s.req.device);
    }
    for (auto& [k, v] : req.items()) out[k] = v;
    out["ui"] = json{{"theme", s.dark ? "dark" : "light"},
                     {"tab", s.tab == Tab::memory ? "memory" : "occupancy"},
                     {"views", {{"sm", s.views.sm}, {"plots", s.views.plots}, {"heatmap", s.views.heatmap}, {"hints", s.views.hints}}},
                     {"memory", memory_json(s.memory)}};
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
    try {
        ViewFlags views = s.views;
        bool dark = s.dark;
        Tab tab = s.tab;
        MemoryInputs memory = s.memory;
        if (j.contains("ui")) {
            const json ui = j["ui"];
            j.erase("ui");
            if (!ui.is_object()) return fail("ui: must be an object");
            io::FieldReader f(ui, "ui");
            dark = f.choice("theme", {"dark", "light"}, dark ? "dark" : "light") == "dark";
            tab = f.choice("tab", {"occupancy", "memory"}, tab == Tab::memory ? "memory" : "occupancy") == "memory" ? Tab::memory : Tab::occupancy;
            if (const json* v = f.raw("views")) {
                if (!v->is_object()) f.fail("views", "must be an object of booleans");
                io::FieldReader vf(*v, "ui.views");
                views.sm = vf.boolean("sm", views.sm);
                views.plots = vf.boolean("plots", views.plots);
                views.heatmap = vf.boolean("heatmap", views.heatmap);
                views.hints = vf.boolean("hints", views.hints);
                vf.finish();
            }
            if (const json* m = f.raw("memory")) memory = read_memory(*m);
            f.finish();
        }
        const DeviceKind kind = j.contains("device") ? DeviceKind::custom : j.contains("cc") ? DeviceKind::cc : DeviceKind::named;
        io::FieldReader f(j, "scenario");
        io::OccupancyRequest req = io::read_occupancy_request(f);
        f.finish();
        // Everything parsed: only now touch the state.
        s.req = std::move(req);
        s.device_kind = kind;
        s.block_3d = s.req.block[1] > 1 || s.req.block[2] > 1;
        s.views = views;
        s.dark = dark;
        s.tab = tab;
        s.memory = memory;
        mark_changed(s);
        return true;
    } catch (const io::RequestError& e) {
        return fail(e.what());
    } catch (const std::exception& e) {
        return fail(std::string("scenario: ") + e.what());
    }
}

}  // namespace occ::ui
