// ncu_explain.cpp — why ncu printed what it printed, line by line, next to occ's prediction for the
// same launch (occ/io/ncu.hpp). A line that differs from occ is "explained" when a behaviour of ncu
// or of the driver accounts for ncu's number, a "contradiction" only when the report's own lines
// prove that the device (or the launch read) is not the one that ran, and a "mismatch" otherwise.
//
// Behaviours, each seen in public reports (tests/fixtures/ncu/README.md, "Version behaviours"):
//   - Block Limit Shared Mem: ncu divides the shared memory the driver configured ("Shared Memory
//     Configuration Size") by each block's share; older ncu (2021.2.5 on a Jetson Orin, and reports
//     with the older dated kernel header) divided the largest carveout instead (164 or 100 with an
//     8.19 KB configuration), which is cuda_occupancy.h's value.
//   - Block Limit Barriers: cuda_occupancy.h (CUDA 13.0, cudaOccMaxBlocksPerSMBlockBarrierLimit)
//     gives cc 9.x and 10.0 two barriers per block slot (64 for a one-barrier kernel), 12.x one.
//     ncu prints 32 on every cc 9.0 report gathered (the slot limit), and 9 for a cc 10.0 CUTLASS
//     kernel (64 / 7 barriers): its line does not go above the block slots.
//   - Shared Memory Configuration Size is the driver's choice among the carveouts; occ's rule
//     (occ::driver_smem_config) predicts it, and the choice does not change the block count.
// [SECTION] Reading ncu's own numbers
// [SECTION] One line
// [SECTION] Every line
#include <algorithm>
#include <cmath>
#include <string>

#include "occ/format.hpp"
#include "occ/io/ncu.hpp"

namespace occ::io {

const char* ncu_status_name(NcuStatus s) {
    switch (s) {
        case NcuStatus::explained: return "explained";
        case NcuStatus::contradiction: return "contradiction";
        case NcuStatus::mismatch: break;
    }
    return "mismatch";
}

namespace {

// [SECTION] Reading ncu's own numbers

// Does the printed value stand for v (ncu rounds to the digits it prints)?
bool stands_for(const NcuValue& m, double v) {
    if (m.lo == m.hi) return std::fabs(m.value - v) < 1e-9;
    return v >= m.lo - 1e-9 && v < m.hi + 1e-9;
}

struct Ctx {
    const NcuKernelAnswer& a;
    const OccupancyResult& r;
    const Device& dev;
    std::string ncu_words;                   // "ncu 2021.2.5 (the report's version line)", "an older ncu (dated kernel header)" or "ncu"
    int wpb = 0;                             // warps per block
    int ncu_blocks = -1;                     // min of ncu's printed block limits; -1 when one of them is missing
    std::string device_words;                // "RTX-3090 (cc 8.6 with 82 SMs)"
    std::vector<NcuDifference> limit_lines;  // the block-limit lines that differ, for the derived lines
};

const NcuValue* m_of(const Ctx& c, const char* key) { return c.a.measured.get(key); }

std::string count(std::int64_t n) { return format_count(n); }

std::string check_device(const Ctx& c) {
    return "the device occ used is " + c.device_words + ": check the device (--gpu, --cc, or the report's CC and # SMs)";
}

// [SECTION] One line

NcuDifference line(const char* key, double measured, double predicted, NcuStatus status, std::string why) {
    return NcuDifference{key, measured, predicted, std::move(why), status};
}

NcuDifference shared_mem_config(const Ctx& c, double m, double p) {
    const auto steps = c.dev.arch.carveouts();
    const NcuValue& v = *m_of(c, "shared_memory_configuration_size");
    std::string list;
    bool is_step = steps.empty();
    for (std::int64_t s : steps) {
        list += (list.empty() ? "" : ", ") + format_bytes(s);
        is_step |= stands_for(v, static_cast<double>(s));
    }
    const std::string cc = std::to_string(c.dev.arch.cc_major) + "." + std::to_string(c.dev.arch.cc_minor);
    if (!is_step)
        return line("shared_memory_configuration_size", m, p, NcuStatus::contradiction,
                    "the driver configured " + v.printed + " " + v.unit + ", which is none of cc " + cc + "'s carveouts (" + list +
                        "): " + check_device(c));
    const std::int64_t blocks = std::min({c.r.limit_blocks, c.r.limit_warps, c.r.limit_registers, c.r.limit_barriers});
    const bool holds = static_cast<double>(blocks) * static_cast<double>(c.r.smem_per_block_allocated) <= m + 0.5;
    return line("shared_memory_configuration_size", m, p, NcuStatus::explained,
                "the driver's choice: " + format_bytes(static_cast<std::int64_t>(m)) + " is one of cc " + cc + "'s carveouts (" + list +
                    "); occ's rule predicts " + format_bytes(static_cast<std::int64_t>(p)) + " (" + c.a.driver.rule +
                    "; the driver may also keep a larger configuration from an earlier launch). " +
                    (holds ? "It holds the " + std::to_string(blocks) +
                                 " blocks the other limits allow, so the block count does not change "
                                 "(occ's occupancy uses the largest carveout, " +
                                 format_bytes(c.r.smem_per_sm_configured) + ", as cuda_occupancy.h does)"
                           : "It holds fewer than the " + std::to_string(blocks) +
                                 " blocks the other limits allow: ncu's shared-memory limit, and the block count, follow it"));
}

NcuDifference shared_mem_limit(const Ctx& c, double m, double p, std::vector<std::string>& behaviour) {
    const std::int64_t per_block = c.r.smem_per_block_allocated;
    const std::string each = "each block's " + format_bytes(per_block) +
                             (c.dev.arch.smem_reserved_per_block > 0
                                  ? " (the driver's " + format_bytes(c.dev.arch.smem_reserved_per_block) + " reserve included)"
                                  : "");
    const NcuValue* cfg = m_of(c, "shared_memory_configuration_size");
    if (per_block > 0 && cfg) {
        const double lo = std::floor(std::max(0.0, cfg->lo) / static_cast<double>(per_block));
        const double hi = std::floor(cfg->hi / static_cast<double>(per_block));
        if (m >= lo - 1e-9 && m <= hi + 1e-9) {
            behaviour.emplace_back("Block Limit Shared Mem = the configured shared memory / each block's share");
            return line("block_limit_shared_mem", m, p, NcuStatus::explained,
                        c.ncu_words + " divides the shared memory the driver configured (" + cfg->printed + " " + cfg->unit + ") by " +
                            each + ": " + count(static_cast<std::int64_t>(m)) +
                            "; occ predicts another configuration (the line above), hence another quotient. cuda_occupancy.h's limit, "
                            "against the largest carveout, is " +
                            (c.r.limit_shared_memory == kUnlimited ? std::string("none") : count(c.r.limit_shared_memory)));
        }
    }
    if (c.r.limit_shared_memory != kUnlimited && std::fabs(m - c.r.limit_shared_memory) < 1e-9) {
        behaviour.emplace_back("Block Limit Shared Mem against the largest carveout (older ncu)");
        return line("block_limit_shared_mem", m, p, NcuStatus::explained,
                    c.ncu_words + " divides the largest carveout (" + format_bytes(c.r.smem_per_sm_configured) + ") by " + each + ": " +
                        count(c.r.limit_shared_memory) +
                        (cfg ? ", not the " + cfg->printed + " " + cfg->unit + " the driver configured," : "") +
                        " as older ncu versions computed this line, like cuda_occupancy.h; later ones divide the configured size (occ's " +
                        count(static_cast<std::int64_t>(p)) + " is that quotient for the configuration occ predicts)");
    }
    return line("block_limit_shared_mem", m, p, NcuStatus::mismatch,
                "ncu's limit is neither the configured size (" + (cfg ? cfg->printed + " " + cfg->unit : std::string("not printed")) +
                    ") nor the largest carveout (" + format_bytes(c.r.smem_per_sm_configured) + ") divided by " + each +
                    "; no ncu version is known to print it");
}

NcuDifference barriers_limit(const Ctx& c, double m, double p, std::vector<std::string>& behaviour) {
    const int slots = c.r.limit_blocks;
    const int per_slot = c.dev.arch.barriers_per_block_slot;
    const int used = c.a.launch ? c.a.launch->kernel.barriers : 1;
    const std::string header = "cuda_occupancy.h gives this device " + std::to_string(per_slot) + " named barrier" +
                               (per_slot == 1 ? "" : "s") + " per block slot (" + std::to_string(slots) + " x " + std::to_string(per_slot) +
                               " = " + std::to_string(slots * per_slot) + "), " + count(static_cast<std::int64_t>(p)) +
                               " blocks of a kernel using " + std::to_string(used);
    if (std::fabs(m - slots) < 1e-9 && p > slots) {
        behaviour.emplace_back("Block Limit Barriers not above the block slots");
        return line("block_limit_barriers", m, p, NcuStatus::explained,
                    c.ncu_words + " printed the block-slot limit, " + std::to_string(slots) + ": " + header +
                        ". ncu's line never goes above the slots (every cc 9.0 report gathered shows 32; a cc 10.0 report shows 9 = 64 / 7 "
                        "barriers, so ncu counts 2 per slot there). Whether ncu caps the line or counts one barrier per slot on 9.0, the "
                        "reports cannot tell: a one-barrier kernel is held to " +
                        std::to_string(slots) + " blocks by the slots either way, so the block count is the same");
    }
    return line("block_limit_barriers", m, p, NcuStatus::mismatch,
                "ncu's barrier limit " + count(static_cast<std::int64_t>(m)) + " is not " + std::to_string(slots * per_slot) + " or " +
                    std::to_string(slots) + " divided by a whole number of named barriers (1..16): " + header);
}

NcuDifference device_line(const Ctx& c, const char* key, double m, double p) {
    std::string says;
    const std::string k = key;
    if (k == "block_limit_sm") says = "the SM has " + count(static_cast<std::int64_t>(m)) + " block slots (Block Limit SM)";
    else if (k == "driver_shared_memory_per_block")
        says = "the driver reserves " + format_bytes(static_cast<std::int64_t>(m)) + " per block (Driver Shared Memory Per Block)";
    else
        says = "the SM holds " + count(static_cast<std::int64_t>(m) * c.wpb) + " to " +
               count((static_cast<std::int64_t>(m) + 1) * c.wpb - 1) + " warps (Block Limit Warps " + count(static_cast<std::int64_t>(m)) +
               " of " + std::to_string(c.wpb) + "-warp blocks)";
    return line(
        key, m, p, NcuStatus::contradiction,
        "the report's own line says " + says + "; occ's device gives " + count(static_cast<std::int64_t>(p)) + ": " + check_device(c));
}

// Lines computed from ncu's block limits: they follow ncu's own smallest limit.
NcuDifference derived_line(const Ctx& c, const char* key, double m, double p) {
    NcuStatus worst = NcuStatus::explained;
    std::string which;
    for (const NcuDifference& d : c.limit_lines) {
        which += (which.empty() ? "" : ", ") + d.field;
        if (d.status == NcuStatus::contradiction || (d.status == NcuStatus::mismatch && worst == NcuStatus::explained)) worst = d.status;
    }
    if (c.ncu_blocks < 0 || which.empty())
        return line(
            key, m, p, NcuStatus::mismatch,
            "ncu's block count differs from occ's (" + std::to_string(c.r.blocks_per_sm) + ") though no block-limit line it printed does");
    return line(key, m, p, worst,
                "ncu's value follows its own smallest block limit, " + std::to_string(c.ncu_blocks) + " blocks of " +
                    std::to_string(c.wpb) + " warps, where occ's is " + std::to_string(c.r.blocks_per_sm) + "; they differ on " + which +
                    " (see " + (which.find(',') == std::string::npos ? "that line" : "those lines") + ")");
}

NcuDifference explain_line(const Ctx& c, const std::string& key, double mv, double pv, bool self_consistent,
                           std::vector<std::string>& behaviour) {
    const NcuKernelAnswer& a = c.a;
    if (key == "shared_memory_configuration_size") return shared_mem_config(c, mv, pv);
    if (key == "block_limit_shared_mem") return shared_mem_limit(c, mv, pv, behaviour);
    if (key == "block_limit_barriers") return barriers_limit(c, mv, pv, behaviour);
    if (key == "block_limit_sm" || key == "driver_shared_memory_per_block" || key == "block_limit_warps")
        return device_line(c, key.c_str(), mv, pv);
    if (key == "block_limit_registers")
        return line("block_limit_registers", mv, pv, NcuStatus::mismatch,
                    "occ's register rule (" + std::to_string(a.launch->kernel.regs_per_thread) + " registers per thread, " +
                        std::to_string(c.dev.arch.reg_alloc_unit) + "-register units per warp) gives " +
                        count(static_cast<std::int64_t>(pv)) + "; no ncu version is known to count otherwise");
    if (key == "theoretical_active_warps_per_sm" || key == "theoretical_occupancy") {
        if (!self_consistent)
            return line(key.c_str(), mv, pv, NcuStatus::contradiction,
                        "the report contradicts itself: its Theoretical Active Warps per SM is not its smallest block limit (" +
                            std::to_string(c.ncu_blocks) + ") x " + std::to_string(c.wpb) +
                            " warps per block; the lines come from different launches or the paste was edited");
        return derived_line(c, key.c_str(), mv, pv);
    }
    if (key == "waves_per_sm") {
        const NcuValue* m = m_of(c, "waves_per_sm");
        const std::int64_t grid = a.launch->launch.grid_blocks;
        const double ncu_waves = c.ncu_blocks > 0 && grid > 0
                                     ? static_cast<double>(grid) / (static_cast<double>(c.ncu_blocks) * c.dev.sm_count)
                                     : -1;
        if (ncu_waves >= 0 && stands_for(*m, ncu_waves)) return derived_line(c, key.c_str(), mv, pv);
        return line(key.c_str(), mv, pv, NcuStatus::mismatch,
                    "waves = grid / (blocks per SM x SMs) gives " + format_number(pv, 3) + " with occ's block count" +
                        (ncu_waves >= 0 ? " and " + format_number(ncu_waves, 3) + " with ncu's" : std::string()) +
                        "; the grid or the SM count read from the report may differ from the launch's");
    }
    if (key.rfind("achieved_", 0) == 0) return line(key.c_str(), mv, pv, NcuStatus::mismatch, "above occ's bound (" + a.achieved.why + ")");
    return line(key.c_str(), mv, pv, NcuStatus::contradiction,
                "occ took this value from the report itself, yet reads another: the kernel header's launch and this line disagree");
}

// [SECTION] Lines not compared

// A summary's line (ncu --print-summary) that stands for no one launch: the value varied over the
// invocations, or an achieved figure above what any launch can reach (the summary's arithmetic over
// its invocations, not a measurement). "" when the line is one value.
std::string summary_reason(const NcuKernelAnswer& a, const std::string& key, const NcuValue& m) {
    if (!m.summary) return {};
    const std::string over = a.measured.invocations > 0 ? "its " + std::to_string(a.measured.invocations) + " invocations"
                                                        : "the invocations";
    const std::string unit = m.unit.empty() ? "" : " " + m.unit;
    if (key.rfind("achieved_", 0) == 0) {
        const bool pct = key == "achieved_occupancy";
        const double top = pct ? 100.0 : a.result.ok() ? static_cast<double>(a.result.max_warps_per_sm) : -1;
        if (top > 0 && std::max(m.max, m.value) > top + 1e-9)
            return "the summary's figure (minimum " + m.printed_min + ", maximum " + m.printed_max + ", average " + m.printed + unit +
                   ") goes above " + (pct ? std::string("100 %") : format_number(top, 0) + " warps, the SM's maximum") +
                   ", which no launch can reach: it is ncu's arithmetic over " + over +
                   ", not one launch's measurement, so it is not held against occ's bound";
    }
    if (!m.varies()) return {};
    return "it varied over " + over + " of the summary (minimum " + m.printed_min + ", maximum " + m.printed_max + ", average " +
           m.printed + unit + "): no one value to compare" +
           (key.rfind("achieved_", 0) == 0 ? " (achieved figures are measured per launch and move between launches)" : "");
}

void note_not_compared(NcuKernelAnswer& a) {
    a.not_compared.clear();
    std::string no_prediction;
    for (const std::string& d : a.diagnostics)
        if (d.rfind("no prediction: ", 0) == 0 && no_prediction.empty()) no_prediction = d.substr(15);
    for (const char* key : kNcuKeys) {
        const NcuValue* m = a.measured.get(key);
        if (!m || std::any_of(a.differences.begin(), a.differences.end(), [&](const NcuDifference& d) { return d.field == key; })) continue;
        const auto p = std::find_if(a.predicted.begin(), a.predicted.end(), [&](const auto& kv) { return kv.first == key; });
        const bool predicts = p != a.predicted.end() && p->second.has_value();
        std::string why = summary_reason(a, key, *m);
        if (why.empty() && !predicts) {
            const std::string k = key;
            if (!no_prediction.empty()) why = "occ made no prediction: " + no_prediction;
            else if ((k == "waves_per_sm" || k == "sms") && !a.sm_count_known) why = "the SM count is unknown: " + a.sm_count_unknown;
            else if (k.rfind("block_limit_", 0) == 0)
                why = "occ's rules have no such limit for " + (a.device ? a.device->name : std::string("this device"));
            else why = "occ has no value for this line";
        }
        if (!why.empty()) a.not_compared.push_back(NcuNotCompared{key, std::move(why)});
    }
}

}  // namespace

// [SECTION] Every line

void explain_ncu_kernel(NcuKernelAnswer& a, const std::string& ncu_version) {
    a.differences.clear();
    if (!a.device || !a.launch) {
        note_not_compared(a);
        return;
    }
    Ctx c{a, a.result, *a.device, {}, 0, -1, {}, {}};
    c.ncu_words = !ncu_version.empty()      ? "ncu " + ncu_version + " (the report's version line)"
                  : a.measured.dated_header ? "this ncu (an older one: its kernel header carries a date, not the launch)"
                                            : "ncu";
    c.device_words = a.device->name + " (" + a.device_how + ")";
    c.wpb = a.result.warps_per_block > 0 ? a.result.warps_per_block : (a.launch->launch.threads + 31) / 32;
    c.ncu_blocks = ncu_block_count(a.measured);
    std::vector<std::string> behaviour;
    // The report against itself: theoretical warps are its smallest limit's blocks x warps per block.
    const NcuValue* theo = m_of(c, "theoretical_active_warps_per_sm");
    const bool self_consistent = !theo || c.ncu_blocks < 0 || stands_for(*theo, static_cast<double>(c.ncu_blocks) * c.wpb);
    // Two passes: the block-limit lines first, as the derived lines (waves, theoretical) follow them.
    std::vector<std::pair<std::size_t, NcuDifference>> found;
    for (int pass = 0; pass < 2; ++pass)
        for (std::size_t i = 0; i < a.predicted.size(); ++i) {
            const auto& [key, p] = a.predicted[i];
            const NcuValue* m = a.measured.get(key);
            if (!m || !p || (key.rfind("block_limit_", 0) == 0) != (pass == 0) || !summary_reason(a, key, *m).empty()) continue;
            const bool achieved = key.rfind("achieved_", 0) == 0;
            // Achieved occupancy is bounded, not predicted: only a value above the bound is a difference.
            if (achieved ? m->value <= *p + 0.5 : stands_for(*m, *p)) continue;
            NcuDifference d = explain_line(c, key, m->value, *p, self_consistent, behaviour);
            if (pass == 0) c.limit_lines.push_back(d);
            found.emplace_back(i, std::move(d));
        }
    std::sort(found.begin(), found.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    for (auto& f : found) a.differences.push_back(std::move(f.second));
    std::sort(behaviour.begin(), behaviour.end());
    behaviour.erase(std::unique(behaviour.begin(), behaviour.end()), behaviour.end());
    a.ncu_behaviour = std::move(behaviour);
    note_not_compared(a);
}

}  // namespace occ::io
