// api_ptx_memory.cpp — kind "memory" (occ/io/ptx_memory.hpp): the request read, the entry, the
// arguments and the warps resolved, the interpreter run, and the answer's order worst first.
// The JSON writer and the table builder: ptx_memory_view.cpp.
#include <algorithm>
#include <array>
#include <string>

#include "occ/io/api.hpp"
#include "occ/io/binary.hpp"
#include "occ/io/fields.hpp"
#include "occ/io/ptx.hpp"
#include "occ/io/ptx_memory.hpp"
#include "occ/io/ptxas.hpp"
#include "occ/io/schema.hpp"
#include "occ/io/size.hpp"
#include "occ/text.hpp"

namespace occ::io {
namespace {

namespace F = fields;

// [x], [x, y] or [x, y, z] (or a bare integer: x), each lo..hi; dimensions not given stay 1.
void read_dims3(FieldReader& f, const FieldSpec& s, int out[3]) {
    const json* b = f.raw(s);
    if (!b) return;
    const json one = json::array({*b});
    const json& v = b->is_array() ? *b : one;
    if (v.empty() || v.size() > 3) f.fail(s.key, "must be [x], [x, y] or [x, y, z] (" + std::string(s.doc_range) + "), got " + shown(*b));
    out[0] = out[1] = out[2] = 1;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const json& e = v[i];
        std::int64_t x = 0;
        const bool ok = (e.is_number_integer() && (x = e.get<std::int64_t>(), true)) ||
                        (e.is_string() && parse_integer(e.get<std::string>(), x));
        if (!ok || x < s.lo || x > s.hi)
            f.fail(s.key, "each dimension must be an integer " + std::to_string(s.lo) + ".." + std::to_string(s.hi) + ", got " + shown(e));
        out[i] = static_cast<int>(x);
    }
}

// The entry the request names: exact, else by its demangled name or the start of it.
const ptx::Entry& pick_entry(FieldReader& f, const ptx::Program& prog, const std::string& want) {
    std::vector<const ptx::Entry*> kernels;
    for (const ptx::Entry& e : prog.entries)
        if (e.is_kernel) kernels.push_back(&e);
    std::string listed;
    for (const ptx::Entry* e : kernels) join_into(listed, ", ", e->name);
    if (kernels.empty()) f.fail(F::ptx_text.key, "the PTX has no .entry (a kernel) to run");
    if (want.empty()) {
        if (kernels.size() == 1) return *kernels.front();
        f.fail(F::ptx_kernel.key, "the PTX has " + std::to_string(kernels.size()) + " kernels; name one: " + listed);
    }
    std::vector<const ptx::Entry*> near;
    for (const ptx::Entry* e : kernels) {
        if (e->name == want) return *e;
        const std::string d = demangle(e->name);
        const std::string base = d.empty() ? e->name : d.substr(0, d.find('('));
        if (d == want || base == want || (!base.empty() && base.size() > want.size() && base.rfind(want, 0) == 0 && want.size() >= 3))
            near.push_back(e);
    }
    if (near.size() == 1) return *near.front();
    if (near.empty()) f.fail(F::ptx_kernel.key, "no kernel \"" + want + "\" in the PTX; its kernels: " + listed);
    std::string names;
    for (const ptx::Entry* e : near) join_into(names, ", ", e->name);
    f.fail(F::ptx_kernel.key, "\"" + want + "\" names several kernels: " + names + "; give the mangled name");
}

// "n=4096" or {"n": 4096}: each NAME resolved to the entry's .param (its full name, the tail after
// "_param_", "param_N", or the 0-based position N).
std::vector<PtxParamValue> read_params(FieldReader& f, const ptx::Entry& e, std::vector<std::string>& echo) {
    std::vector<std::pair<std::string, json>> given;
    if (const json* p = f.raw(F::ptx_params)) {
        if (p->is_object()) {
            for (const auto& [k, v] : p->items()) given.emplace_back(k, v);
        } else if (p->is_array()) {
            for (const json& item : *p) {
                const std::string t = item.is_string() ? item.get<std::string>() : std::string();
                const auto eq = t.find('=');
                if (eq == std::string::npos || eq == 0)
                    f.fail(F::ptx_params.key, "each must be NAME=VALUE (e.g. 2=4096 or n=4096), got " + shown(item));
                given.emplace_back(t.substr(0, eq), json(t.substr(eq + 1)));
            }
        } else {
            f.fail(F::ptx_params.key, "must be an object {\"NAME\": VALUE} or an array of \"NAME=VALUE\", got " + shown(*p));
        }
    }
    std::string listed;
    for (std::size_t i = 0; i < e.params.size(); ++i)
        join_into(listed, ", ", std::to_string(i) + " = " + e.params[i].name + " (." + e.params[i].type + ")");
    std::vector<PtxParamValue> out;
    for (const auto& [name, v] : given) {
        std::uint64_t value = 0;
        std::int64_t sv = 0;
        bool ok = v.is_number_unsigned() || v.is_number_integer();
        if (v.is_number_unsigned()) value = v.get<std::uint64_t>();
        else if (v.is_number_integer()) value = static_cast<std::uint64_t>(v.get<std::int64_t>());  // -1 is all ones, as a cast
        else if (v.is_string()) {
            const std::string t = v.get<std::string>();
            ok = parse_unsigned(t, value) || (parse_integer(t, sv) && (value = static_cast<std::uint64_t>(sv), true));
        }
        if (!ok) f.fail(F::ptx_params.key, name + ": the value must be an integer (decimal or 0x hex), got " + shown(v));
        int at = -1;
        for (std::size_t i = 0; i < e.params.size(); ++i) {
            const std::string& pn = e.params[i].name;
            const std::string tail = "_param_" + std::to_string(i);
            if (name == pn || name == std::to_string(i) || name == "param_" + std::to_string(i) ||
                (pn.size() > tail.size() && pn.compare(pn.size() - tail.size(), tail.size(), tail) == 0 && name == tail.substr(1)))
                at = static_cast<int>(i);
        }
        if (at < 0)
            f.fail(F::ptx_params.key, "no parameter \"" + name + "\" in " + e.name +
                                          " (PTX keeps no C names: give its position or .param name; " +
                                          (listed.empty() ? std::string("it takes none") : listed) + ")");
        out.push_back({e.params[static_cast<std::size_t>(at)].name, value});
        echo.push_back(name + "=" + std::to_string(value));
    }
    return out;
}

// "first", "last", "all", "3", or "BX[.BY[.BZ]]:W" for a warp of another block.
std::vector<WarpSelect> read_warps(FieldReader& f, const InterpOptions& o, std::vector<std::string>& echo) {
    const long long threads = static_cast<long long>(o.block[0]) * o.block[1] * o.block[2];
    const int warps = static_cast<int>(std::min<long long>((threads + 31) / 32, 1 << 20));
    std::vector<std::string> items;
    if (const json* w = f.raw(F::ptx_warps)) {
        const json one = json::array({*w});
        for (const json& item : w->is_array() ? *w : one) {
            if (item.is_number_integer()) items.push_back(std::to_string(item.get<std::int64_t>()));
            else if (item.is_string()) items.push_back(item.get<std::string>());
            else f.fail(F::ptx_warps.key, "each must be a warp number, first, last, all or BX.BY.BZ:W, got " + shown(item));
        }
    }
    if (items.empty()) items = {"first", "last"};
    const std::string range = "0.." + std::to_string(warps - 1) + " (a block of " + std::to_string(threads) + " threads has " +
                              std::to_string(warps) + (warps == 1 ? " warp)" : " warps)");
    std::vector<WarpSelect> out;
    auto add = [&](const WarpSelect& w) {
        for (const WarpSelect& x : out)
            if (x.warp == w.warp && std::equal(x.block, x.block + 3, w.block)) return;
        out.push_back(w);
    };
    for (const std::string& item : items) {
        WarpSelect w;
        std::string warp = item;
        if (const auto colon = item.find(':'); colon != std::string::npos) {
            warp = item.substr(colon + 1);
            std::string b = item.substr(0, colon);
            for (int d = 0; d < 3 && !b.empty(); ++d) {
                const auto dot = b.find('.');
                std::int64_t v = -1;
                if (!parse_integer(b.substr(0, dot), v) || v < 0 || v >= o.grid[d])
                    f.fail(F::ptx_warps.key, "\"" + item + "\": blockIdx." + "xyz"[d] + " must be 0.." + std::to_string(o.grid[d] - 1) +
                                                 " (the grid is " + std::to_string(o.grid[0]) + "," + std::to_string(o.grid[1]) + "," +
                                                 std::to_string(o.grid[2]) + ")");
                w.block[d] = static_cast<int>(v);
                b = dot == std::string::npos ? std::string() : b.substr(dot + 1);
            }
            if (!b.empty()) f.fail(F::ptx_warps.key, "\"" + item + "\": the block is BX[.BY[.BZ]] before the ':'");
        }
        std::int64_t n = -1;
        if (warp == "first") n = 0;
        else if (warp == "last") n = warps - 1;
        else if (warp == "all") {
            if (warps > 32) f.fail(F::ptx_warps.key, "all: at most 32 warps per run");
            for (int i = 0; i < warps; ++i) add(WarpSelect{{w.block[0], w.block[1], w.block[2]}, i});
            echo.push_back(item);
            continue;
        } else if (!parse_integer(warp, n) || n < 0 || n >= warps) {
            f.fail(F::ptx_warps.key, "\"" + item + "\": a warp must be first, last, all or " + range);
        }
        w.warp = static_cast<int>(n);
        add(w);
        echo.push_back(item);
    }
    return out;
}

// How bad a site is, for the order: more excess over the whole run first, then per request; sites
// with unknown executions after the wasteful ones, then ideal ones, then listed and unrun ones.
struct Badness {
    int tier = 0;  // 0 wasteful, 1 unknown, 2 ideal, 3 listed or never run
    double total = 0, per = 0;
};
Badness badness(const AccessSite& s) {
    Badness b;
    if (s.model == SiteModel::listed || s.executions == 0) {
        b.tier = 3;
        return b;
    }
    const CostStat& ex = s.model == SiteModel::global ? s.sectors : s.wavefronts;
    const CostStat& id = s.model == SiteModel::global ? s.ideal_sectors : s.ideal_wavefronts;
    b.total = static_cast<double>(ex.sum - id.sum);
    b.per = s.costed ? b.total / static_cast<double>(s.costed) : 0;
    b.tier = b.total > 0 ? 0 : s.unknown > 0 ? 1 : 2;
    return b;
}

}  // namespace

Result<PtxMemoryAnswer> answer_ptx_memory(const json& request) {
    return answer_with<PtxMemoryAnswer>(request, "memory request", [](FieldReader& f, PtxMemoryAnswer& a) {
        PtxMemoryRequest& q = a.input;
        const json* text = f.raw(F::ptx_text);
        if (!text || !text->is_string()) f.fail(F::ptx_text.key, "required: the PTX text (nvcc -ptx, Triton's <name>.ptx)");
        Result<ptx::Program> prog = read_ptx(text->get<std::string>());
        if (!prog) f.fail(F::ptx_text.key, prog.error);
        a.target = prog->target;
        a.diagnostics = prog->diagnostics;
        a.files = prog->files;
        // Without gpu, cc or device: the compute capability the PTX targets (sm_90a -> 9.0).
        int maj = 0, min = 0;
        std::optional<Device> from_target;
        if (!f.has("gpu") && !f.has("cc") && !f.has("device") && parse_cc(prog->target, maj, min)) from_target = device_for_cc(maj, min);
        q.device = from_target ? *from_target : read_device(f);
        if (auto why = global_model_unsupported(q.device.arch); !why.empty()) f.fail("gpu", why);
        // Triton's metadata fixes the launch's block and names the kernel (occ/io/binary.hpp).
        std::optional<TritonMetadata> triton;
        if (const json* t = f.raw(F::ptx_triton)) {
            Result<TritonMetadata> m = parse_triton_metadata(t->is_string() ? t->get<std::string>() : t->dump(), "<name>.json");
            if (!m) f.fail(F::ptx_triton.key, m.error);
            triton = *m;
            q.launch_from = "Triton metadata (num_warps " + std::to_string(m->launch.num_warps) + " x warp_size " +
                            std::to_string(m->launch.warp_size) + ")";
        }
        q.kernel = f.string(F::ptx_kernel.key, triton ? triton->name : "");
        const ptx::Entry& e = pick_entry(f, *prog, q.kernel);
        a.entry = e.name;
        for (const ptx::Entry& x : prog->entries)
            if (x.is_kernel) a.entries.push_back(x.name);
        InterpOptions& o = q.options;
        o.block[0] = triton && triton->launch.threads > 0 ? triton->launch.threads : 128;
        if (triton && !f.has(F::ptx_block)) q.launch_from += ": block " + std::to_string(o.block[0]) + " threads";
        else q.launch_from.clear();
        read_dims3(f, F::ptx_block, o.block);
        read_dims3(f, F::ptx_grid, o.grid);
        if (o.block[2] > 64) f.fail(F::ptx_block.key, "z must be 1..64, got " + std::to_string(o.block[2]));
        const long long threads = static_cast<long long>(o.block[0]) * o.block[1] * o.block[2];
        if (threads > 1024) f.fail(F::ptx_block.key, "at most 1024 threads a block, got " + std::to_string(threads));
        if (o.grid[1] > 65535 || o.grid[2] > 65535) f.fail(F::ptx_grid.key, "y and z must be 1..65535");
        o.params = read_params(f, e, q.params);
        o.warps = read_warps(f, o, q.warps_text);
        o.max_visits = static_cast<int>(f.integer(F::ptx_max_visits));
        const std::string ub = f.choice(F::ptx_unknown_branch);
        o.unknown_branch = ub == "taken" ? UnknownBranch::taken : ub == "not_taken" ? UnknownBranch::not_taken : UnknownBranch::stop;
        f.finish();
        a.report = interpret_warps(*prog, e, o, q.device.arch);
        if (!a.report.ok()) f.fail("warps", a.report.error);
        for (const AccessSite& s : a.report.sites) a.explanations.push_back(site_explanation(s, q.device.arch));
        for (std::size_t i = 0; i < a.report.sites.size(); ++i) a.order.push_back(static_cast<int>(i));
        std::vector<Badness> bad;
        for (const AccessSite& s : a.report.sites) bad.push_back(badness(s));
        std::stable_sort(a.order.begin(), a.order.end(), [&](int x, int y) {
            const Badness& p = bad[static_cast<std::size_t>(x)];
            const Badness& r = bad[static_cast<std::size_t>(y)];
            if (p.tier != r.tier) return p.tier < r.tier;
            if (p.total != r.total) return p.total > r.total;
            return p.per > r.per;
        });
    });
}

json api_ptx_memory(const json& request) { return json_or_throw(answer_ptx_memory(request)); }

}  // namespace occ::io
