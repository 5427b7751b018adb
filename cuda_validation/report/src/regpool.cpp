// regpool.cpp — the setmaxnreg plan cases and Tensor Memory cases (occ/validation/regpool.hpp).
#include "occ/validation/regpool.hpp"

#include <algorithm>
#include <map>

#include "occ/occupancy.hpp"

namespace occ::validation {

namespace {

std::string join(const std::vector<int>& v, const char* sep) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + std::to_string(v[i]);
    return s;
}

RegPlanCase plan_case(int threads, std::vector<int> plan, std::string source) {
    RegPlanCase c;
    c.threads = threads;
    c.id = "regpool/t" + std::to_string(threads) + "/" + join(plan, "-");
    c.kernel = "occv_regpool_" + std::to_string(threads) + "_" + join(plan, "_");
    c.plan = std::move(plan);
    c.source = std::move(source);
    return c;
}

}  // namespace

int RegPlanCase::launch_regs() const {
    // ptxas with __launch_bounds__(threads, 1): the whole 64 K register file for one block, per thread
    // rounded down to the allocation step of 8, at most 255 (384 -> 168, 512 -> 128; checked with
    // nvcc 13.0 -Xptxas -v, see tests/validation/nvcc_build_check.sh).
    if (threads <= 0) return 0;
    return std::min(255, 65536 / threads / 8 * 8);
}

std::vector<RegPlanCase> regpool_cases() {
    return {
        plan_case(384, {24, 240, 240}, "FlashAttention-3 (hopper/flash_fwd_kernel_sm90.h, 2 consumer warpgroups, TMA K/V): fits exactly"),
        plan_case(512, {32, 160, 160, 160}, "FlashAttention-3 (3 consumer warpgroups): fits exactly"),
        plan_case(384, {40, 232, 232}, "CUTLASS sm90 warp-specialized cooperative/pingpong GEMM: fits exactly"),
        plan_case(384, {24, 240, 256}, "does not fit (520 > 3 x 168): the last consumer's setmaxnreg.inc cannot be met; run last"),
    };
}

RegPlanPrediction predict_regpool(const RegPlanCase& c, const Device& d, int regs) {
    RegPlanPrediction p;
    KernelResources k;
    k.regs_per_thread = regs;
    k.max_threads = c.threads;
    LaunchConfig l;
    l.threads = c.threads;
    p.pool = register_pool(d.arch, k, l, c.plan);
    const OccupancyResult r = compute_occupancy(d, k, l);
    p.blocks_per_sm = r.ok() ? r.blocks_per_sm : 0;
    if (!r.ok()) p.limiter = r.error_message();
    return p;
}

bool held_at_once(const std::vector<unsigned long long>& acq, const std::vector<unsigned long long>& rel) {
    if (acq.empty() || acq.size() != rel.size()) return false;
    const unsigned long long last_acq = *std::max_element(acq.begin(), acq.end());
    const unsigned long long first_rel = *std::min_element(rel.begin(), rel.end());
    return last_acq < first_rel;
}

Case regpool_result(const RegPlanCase& c, const Device& d, const std::optional<RegPlanMeasurement>& m, const std::string& skipped) {
    const int regs = m && m->regs > 0 ? m->regs : c.launch_regs();
    const RegPlanPrediction p = predict_regpool(c, d, regs);
    Case out;
    out.kind = Kind::occupancy;
    out.id = c.id;
    out.description = "setmaxnreg plan " + join(c.plan, ", ") + " at " + std::to_string(c.launch_regs()) + " (" +
                      std::to_string(c.threads) + " threads, __launch_bounds__(" + std::to_string(c.threads) + ",1)); " + c.source;
    out.inputs = {{"kernel", c.kernel},
                  {"threads", c.threads},
                  {"plan", c.plan},
                  {"launch_regs", c.launch_regs()},
                  {"regs", regs},
                  {"occ_pool", p.pool.pool},
                  {"occ_planned", p.pool.planned},
                  {"occ_summary", p.pool.error.empty() ? p.pool.summary : p.pool.error}};
    Check entry{"launch_regs", c.launch_regs(), std::nullopt, std::nullopt};
    Check blocks{"blocks_per_sm", p.blocks_per_sm, std::nullopt, std::nullopt};
    Check fits{"fits", p.pool.fits ? 1 : 0, std::nullopt, std::nullopt};
    if (!m) {
        out.note = skipped;
    } else {
        if (m->regs > 0) entry.runtime = m->regs;
        if (m->runtime) blocks.runtime = *m->runtime;
        if (m->resident && !m->timed_out) blocks.measured = *m->resident;
        const bool all_done = !m->timed_out && m->blocks > 0 && m->completed == m->blocks;
        fits.measured = all_done && m->overlapped == m->blocks ? 1 : 0;
        out.inputs["blocks"] = m->blocks;
        out.inputs["completed"] = m->completed;
        out.inputs["held_at_once"] = m->overlapped;
        out.inputs["seconds"] = m->seconds;
        std::string what;
        if (m->timed_out)
            what = "HANG: " + std::to_string(m->completed) + " of " + std::to_string(m->blocks) + " blocks completed before the timeout";
        else if (all_done)
            what = std::to_string(m->overlapped) + " of " + std::to_string(m->blocks) + " blocks held every count at once" +
                   (m->overlapped == m->blocks ? "" : " (the rest serialised: a consumer's .inc waited for another's give-back)");
        else what = std::to_string(m->completed) + " of " + std::to_string(m->blocks) + " blocks completed";
        out.note = what + (m->note.empty() ? "" : "; " + m->note);
    }
    out.checks = {entry, blocks, fits};
    return out;
}

std::vector<TmemCase> tmem_cases() {
    std::vector<TmemCase> v;
    for (const int cols : {32, 64, 128, 256, 512}) {
        TmemCase c;
        c.columns = cols;
        c.id = "tmem/c" + std::to_string(cols);
        c.kernel = "occv_tmem_" + std::to_string(cols);
        v.push_back(c);
    }
    return v;
}

int predict_tmem(const TmemCase& c, const Device& d, int regs) {
    KernelResources k;
    k.regs_per_thread = regs;
    k.tmem_columns = c.columns;
    k.max_threads = c.threads;
    LaunchConfig l;
    l.threads = c.threads;
    const OccupancyResult r = compute_occupancy(d, k, l);
    return r.ok() ? effective_blocks_per_sm(r) : 0;
}

int max_concurrent(const std::vector<unsigned>& sm, const std::vector<unsigned long long>& acq,
                   const std::vector<unsigned long long>& rel) {
    std::map<unsigned, std::vector<std::pair<unsigned long long, int>>> events;  // per SM: (time, +1 / -1), ends before starts
    for (std::size_t i = 0; i < sm.size() && i < acq.size() && i < rel.size(); ++i) {
        if (acq[i] == 0 || rel[i] == 0) continue;
        events[sm[i]].push_back({acq[i], +1});
        events[sm[i]].push_back({rel[i], -1});
    }
    int best = 0;
    for (auto& [s, ev] : events) {
        std::sort(ev.begin(), ev.end());  // at equal times -1 sorts first: [acq, rel) intervals
        int open = 0;
        for (const auto& e : ev) best = std::max(best, open += e.second);
    }
    return best;
}

Case tmem_result(const TmemCase& c, const Device& d, const std::optional<TmemMeasurement>& m, const std::string& skipped) {
    const int regs = m && m->regs > 0 ? m->regs : 16;
    Case out;
    out.kind = Kind::occupancy;
    out.id = c.id;
    out.description = "tcgen05.alloc of " + std::to_string(c.columns) + " Tensor Memory columns per block (" + std::to_string(c.threads) +
                      " threads): blocks holding columns at once per SM";
    out.inputs = {{"kernel", c.kernel}, {"columns", c.columns}, {"threads", c.threads}, {"regs", regs}};
    Check held{"tmem_blocks_per_sm", predict_tmem(c, d, regs), std::nullopt, std::nullopt};
    if (!m) {
        out.note = skipped;
    } else {
        if (m->runtime) out.inputs["runtime_blocks_per_sm"] = *m->runtime;  // the header-compatible count, without Tensor Memory
        out.inputs["blocks"] = m->blocks;
        out.inputs["completed"] = m->completed;
        if (m->holding && !m->timed_out) held.measured = *m->holding;
        out.note = (m->timed_out ? "timed out: " : "") + std::to_string(m->completed) + " of " + std::to_string(m->blocks) +
                   " blocks completed" + (m->note.empty() ? "" : "; " + m->note);
    }
    out.checks = {held};
    return out;
}

}  // namespace occ::validation
