// advice_view.cpp — either vendor's advise answer in the one shape the faces draw (occ/io/advice_view.hpp).
// The parts are built once, over the advice templates both vendors share (occ/advisor.hpp); what
// differs per vendor is a model result's reading (blocks, limiters) and the sentences' source.
#include "occ/io/advice_view.hpp"

#include "occ/amd_advisor.hpp"
#include "occ/format.hpp"

namespace occ::io {
namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

std::string capital(std::string s) {
    if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
    return s;
}

// A model result as an option's numbers: CUDA's blocks per SM, AMD's workgroups per CU (WGP).
int blocks_of(const OccupancyResult& r) { return r.blocks_per_sm; }
int blocks_of(const amd::AmdOccupancyResult& r) { return r.workgroups_per_cu; }

template <typename Table>
std::vector<const LimiterKey*> hit(const Table& table, unsigned bits) {
    std::vector<const LimiterKey*> out;
    for (const LimiterKey& e : table)
        if (bits & e.bit) out.push_back(&e);
    return out;
}
std::vector<const LimiterKey*> limiters_of(const OccupancyResult& r) { return hit(kLimiters, r.limiters); }
std::vector<const LimiterKey*> limiters_of(const amd::AmdOccupancyResult& r) {
    return r.ok() ? hit(amd::kAmdLimiters, r.limiters) : std::vector<const LimiterKey*>{};
}
std::string failure_of(const OccupancyResult& r) { return r.ok() ? std::string() : r.error_message(); }
std::string failure_of(const amd::AmdOccupancyResult& r) { return r.ok() ? std::string() : r.error_message; }

template <typename R>
AdviceOption option(std::string title, const R* r, std::int64_t threads, std::int64_t regs, std::int64_t smem) {
    AdviceOption o;
    o.title = std::move(title);
    if (!r) return o;
    o.has = true;
    o.threads = threads;
    o.regs = regs;
    o.smem = smem;
    o.blocks = blocks_of(*r);
    o.occupancy = r->occupancy;
    o.limiters = limiters_of(*r);
    o.failed = failure_of(*r);
    return o;
}

// The launch now: "256 threads x 64 regs, 0 B dynamic smem -> 4 blocks/SM, 50% occupancy (limited by
// registers)"; `extra` after the blocks (AMD's waves per SIMD); `why` instead of the limiters.
std::string now_line(const AdviceWords& w, const AdviceOption& o, const std::string& extra, const std::string& why) {
    return str(o.threads) + " threads x " + str(o.regs) + " " + w.regs_short + ", " + format_bytes(o.smem) + " dynamic " + w.smem_abbrev +
           " -> " + str(o.blocks) + " " + w.blocks + "/" + w.per + extra + ", " + format_percent(o.occupancy) + " occupancy (limited by " +
           why + ")";
}

// The block-size table and its lines.
template <typename R>
AdviceTable block_table(const AdviceWords& w, const BasicBlockSizeAdvice<R>& b, std::int64_t regs, std::int64_t smem_now, int threads_now,
                        int units, std::string rule, std::string best) {
    AdviceTable t;
    t.block = true;
    t.title = "Best " + w.block + " size";
    t.rule = std::move(rule);
    if (!b.ok()) {
        t.error = b.error;
        return t;
    }
    t.options = {option("now", &b.before, threads_now, regs, smem_now), option("best", &b.after, b.threads, regs, b.smem_dynamic)};
    t.lines.push_back({std::move(best)});
    if (b.min_grid_blocks > 0)
        t.lines.push_back({"min grid to fill the GPU: " + str(b.min_grid_blocks) + " " + w.blocks + " (" + str(b.blocks_per_sm) + " " +
                           w.blocks + "/" + w.per + " x " + str(units) + " " + w.per + "s)"});
    return t;
}

// The registers' or dynamic shared memory's table: now, the most that keeps the blocks, the cut that
// gains one. make(result, value) is the option with the resource at value.
template <typename R, typename Make>
AdviceTable resource_table(const AdviceWords& w, const BasicResourceAdvice<R>& a, std::string rule, Make make, std::string room,
                           std::string no_room, std::string cut) {
    AdviceTable t;
    t.resource = a.resource;
    const bool regs = a.resource == Resource::registers;
    t.title = capital(regs ? w.regs : w.smem);
    t.rule = std::move(rule);
    if (!a.ok()) {
        t.error = a.error;
        return t;
    }
    const bool gain = a.to_gain_block >= 0;
    t.options = {make("now", &a.before, a.now), make("most, same " + w.blocks, &a.at_headroom, a.max_same_blocks),
                 make("cut to gain a " + w.block, gain ? &a.after_cut : nullptr, a.to_gain_block)};
    t.lines.push_back({room.empty() ? std::move(no_room) : std::move(room)});
    if (!cut.empty()) t.lines.push_back({std::move(cut), true});
    if (!a.note.empty()) t.lines.push_back({a.note});
    return t;
}

template <typename R>
void at_target(AdviceView& v, const BasicDynamicSmemAdvice<R>& t, const std::string& api) {
    v.target_blocks = t.target_blocks;
    const std::string at = str(t.target_blocks) + " " + v.words.blocks + "/" + v.words.per;
    if (t.ok())
        v.at_target = "At " + at + " a " + v.words.block + " may use up to " + format_bytes(t.available) + " of " + v.words.smem + api +
                      ".";
    else v.at_target_error = at + ": " + t.error;
}

void name_rows(AdviceView& v) {
    const AdviceWords& w = v.words;
    v.rows = {"threads", w.regs_short, w.smem_abbrev + " dynamic", w.blocks + " per " + w.per, "occupancy", "limiters"};
}

}  // namespace

std::string limiter_list(const std::vector<const LimiterKey*>& l, bool titles) {
    std::string s;
    for (const LimiterKey* e : l) join_into(s, ", ", titles ? e->title : e->label);
    return s.empty() ? std::string("-") : s;
}

AdviceView advice_view(const AdviseAnswer& a) {
    const Device& d = a.input.device;
    const KernelResources& k = a.input.kernel;
    const LaunchConfig& l = a.input.launch;
    AdviceView v;
    v.name = d.name;
    name_rows(v);
    v.device = "cc " + str(d.arch.cc_major) + "." + str(d.arch.cc_minor) + ", " + str(d.sm_count) + " SMs";
    const AdviceOption now = option("now", &a.now, l.threads, k.regs_per_thread, l.smem_dynamic);
    v.now = now_line(v.words, now, "", limiter_list(now.limiters, false));
    v.error = now.failed;
    v.suggestions = a.suggestions;
    v.block = block_table(v.words, a.block, k.regs_per_thread, a.growth.at(l.threads), l.threads, d.sm_count,
                          "cudaOccupancyMaxPotentialBlockSize order: most active threads, ties -> larger block",
                          best_block_sentence(a.block.threads, a.block.after.occupancy));
    for (const ResourceAdvice* r : {&a.registers, &a.shared_memory}) {
        const bool regs = r->resource == Resource::registers;
        v.resources.push_back(resource_table(
            v.words, *r, "",
            [&](std::string title, const OccupancyResult* x, std::int64_t value) {
                return option(std::move(title), x, l.threads, regs ? value : k.regs_per_thread, regs ? l.smem_dynamic : value);
            },
            headroom_suggestion(*r), no_headroom_sentence(r->resource, r->before), cut_suggestion(*r)));
    }
    at_target(v, a.at_target, " (cudaOccupancyAvailableDynamicSMemPerBlock)");
    v.waves = a.waves;
    v.grid_given = l.grid_blocks > 0;
    v.has_clusters = d.arch.clusters;
    if (!v.has_clusters) v.clusters_absent = "Clusters need compute capability 9.0 or later.";
    v.clusters = a.clusters;
    v.cuda_imports = true;
    v.answer = to_json(a);
    return v;
}

AdviceView advice_view(const AmdAdviseAnswer& a) {
    AdviceView v;
    if (!a.input.arch) return v;
    const amd::AmdArch& arch = *a.input.arch;
    const amd::AmdKernel& k = a.input.kernel;
    const amd::AmdLaunch& l = a.input.launch;
    v.words = amd::amd_words(a.now);
    name_rows(v);
    v.name = amd_target_name(a.input);
    v.device = std::string(arch.isa) + " " + std::string(arch.family);
    if (a.input.gpu) v.device += ", " + str(a.input.gpu->sm_count) + " CUs";
    const AdviceOption now = option("now", &a.now, l.threads, k.vgprs, l.lds_dynamic);
    v.now = now_line(v.words, now, ", " + str(a.now.waves_per_simd) + " of " + str(a.now.max_waves_per_simd) + " waves per SIMD",
                     a.now.ok() ? amd::amd_limiter_list(a.now.limiters, ", ") : a.now.error_message);
    v.error = now.failed;
    v.suggestions = a.suggestions;
    v.block = block_table(v.words, a.block, k.vgprs, a.growth.at(l.threads), l.threads,
                          a.input.gpu ? amd::amd_units(a.block.after, a.input.gpu->sm_count) : 0,
                          "most active threads, ties -> larger workgroup", amd::amd_best_block_sentence(a.block));
    for (const amd::AmdResourceAdvice* r : {&a.vgprs, &a.lds}) {
        const bool regs = r->resource == Resource::registers;
        v.resources.push_back(resource_table(
            v.words, *r, regs ? "arch VGPRs per lane" : "",
            [&](std::string title, const amd::AmdOccupancyResult* x, std::int64_t value) {
                return option(std::move(title), x, l.threads, regs ? value : k.vgprs, regs ? l.lds_dynamic : value);
            },
            amd::amd_headroom_suggestion(*r), amd::amd_no_headroom_sentence(*r), amd::amd_cut_suggestion(*r, l.threads)));
    }
    at_target(v, a.at_target, "");
    v.waves = a.waves;
    v.grid_given = a.grid > 0;
    v.answer = to_json(a);
    return v;
}

Result<AdviceView> advice_view(const json& request) {
    auto view = [](const auto& a) { return a ? Result<AdviceView>::ok(advice_view(*a)) : Result<AdviceView>::fail(a.error); };
    if (request_vendor(request) == Vendor::amd) return view(answer_amd_advise(request));
    return view(answer_advise(request));
}

json to_json(const AdviceView& v) { return v.answer; }

}  // namespace occ::io
