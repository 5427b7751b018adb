// table.cpp — the occupancy result as rows of text (see occ/io/table.hpp).
#include "occ/io/table.hpp"

#include "occ/explain.hpp"
#include "occ/format.hpp"
#include "occ/register_pool.hpp"
#include "occ/text.hpp"

namespace occ::io {
namespace {

std::string plain(std::int64_t n) { return std::to_string(n); }

}  // namespace

TableRow& add_row(std::vector<TableRow>& rows, RowKind kind, RowId id, std::string key, std::string value, std::string note) {
    TableRow& row = rows.emplace_back();
    row.kind = kind;
    row.id = id;
    row.key = std::move(key);
    row.value = std::move(value);
    row.note = std::move(note);
    return row;
}

const TableRow* find_row(const std::vector<TableRow>& rows, RowId id) {
    for (const TableRow& row : rows)
        if (row.id == id) return &row;
    return nullptr;
}

std::string row_value(const std::vector<TableRow>& rows, RowId id) {
    const TableRow* row = find_row(rows, id);
    return row ? row->value : std::string();
}

void add_wave_rows(std::vector<TableRow>& rows, const WaveResult& w, std::int64_t grid, double theoretical, const AdviceWords& words) {
    if (!w.ok() || w.blocks_per_wave <= 0) return;
    auto add = [&rows](std::string key, std::string value, std::string note) {
        add_row(rows, RowKind::waves, RowId::other, std::move(key), std::move(value), std::move(note));
    };
    std::string noun = words.blocks;
    if (!noun.empty()) noun[0] = static_cast<char>(noun[0] - 'a' + 'A');
    const bool cuda = words.per == "SM";
    add(noun + " / wave",
        format_count(w.blocks_per_wave) + " " + words.blocks + " (" + plain(w.blocks_per_sm) + " / " + words.per + " x " +
            plain(w.sm_count) + " " + words.per + "s)",
        "One wave = the " + words.blocks + " the whole GPU holds at once: " + words.blocks + " per " + words.per + " x " + words.per +
            " count.");
    if (grid <= 0) return;
    // Grid suggestions in plain digits: ImGui's word wrap may break after a thousands comma.
    const std::string waves_text = w.tail_blocks > 0
                                       ? format_number(w.waves, 2) + " waves: " + plain(w.full_waves) + " full + a tail of " +
                                             format_count(w.tail_blocks) + " " + words.blocks + " (" + format_percent(w.last_wave_fill) +
                                             " full); grid " + plain(w.suggested_grid_down) + " or " + plain(w.suggested_grid_up) +
                                             " ends on a whole wave"
                                       : format_number(w.waves, 2) + " waves, no tail";
    add("Waves", waves_text,
        (cuda ? "Nsight Compute's \"Waves Per SM\" = grid / blocks per wave." : "grid / " + words.blocks + " per wave.") +
            std::string(" A partial last wave (the tail) leaves ") + words.per + "s idle.");
    if (w.achieved_occupancy >= 0)
        add("Predicted achieved",
            format_percent(w.achieved_occupancy) + " of the SM's warps (range " + format_percent(w.achieved_occupancy_low) + " to " +
                format_percent(w.achieved_occupancy_high) + "), against " + format_percent(theoretical) + " theoretical",
            "What Nsight Compute's \"Achieved Occupancy\" is likely to show: the waves and the tail of this grid, scaled by the "
            "efficiency public reports reach; uneven or short blocks reach the low end of the range (docs/MODEL.md, \"Achieved "
            "occupancy\": out of sample the value misses by about 6 points, the range held 94 % of launches).");
}

std::vector<TableRow> occupancy_table(const OccupancyRequest& req, const OccupancyResult& r, const WaveResult* waves) {
    const Device& d = req.device;
    const ArchRules& a = d.arch;
    const KernelResources& k = req.kernel;
    const LaunchConfig& l = req.launch;
    std::vector<TableRow> rows;

    add_row(rows, RowKind::input, RowId::gpu, "GPU",
            d.name + " (cc " + plain(a.cc_major) + "." + plain(a.cc_minor) + " " + a.family + ", " + plain(d.sm_count) + " SMs)");
    const bool three_d = req.block[1] > 1 || req.block[2] > 1;
    add_row(rows, RowKind::input, RowId::block, "Block",
            (three_d ? plain(req.block[0]) + " × " + plain(req.block[1]) + " × " + plain(req.block[2]) + " = " : std::string()) +
                format_count(l.threads) + " threads (" + plain(r.warps_per_block) + " warps)");
    add_row(rows, RowKind::input, RowId::registers, "Registers per thread", plain(k.regs_per_thread));
    add_row(rows, RowKind::input, RowId::shared_memory, "Shared memory per block",
            format_bytes(k.smem_static) + " static + " + format_bytes(l.smem_dynamic) + " dynamic" + (k.optin ? " (opt-in)" : ""));
    add_row(rows, RowKind::input, RowId::carveout, "Carveout", l.carveout < 0 ? "default" : plain(l.carveout) + "%");

    add_row(
        rows, RowKind::result, RowId::occupancy, "Occupancy",
        r.ok() ? format_percent(r.occupancy) + " (" + plain(r.warps_per_sm) + " of " + plain(r.max_warps_per_sm) + " warps per SM)" : "n/a",
        "Theoretical occupancy = resident warps per SM / maximum warps per SM.");
    add_row(rows, RowKind::result, RowId::active, "Active per SM",
            plain(r.blocks_per_sm) + " blocks, " + plain(r.warps_per_sm) + " warps, " + format_count(r.threads_per_sm) + " threads");
    const int eb = effective_blocks_per_sm(r);
    if (r.ok() && eb < r.blocks_per_sm)
        add_row(rows, RowKind::result, RowId::effective, "Effective",
                format_percent(effective_occupancy(r)) + " (" + plain(eb) + " of " + plain(r.blocks_per_sm) +
                    " resident blocks work at once: " + limiter_labels(effective_limiters(r) & ~r.limiters, " and ") + ")",
                "Effective occupancy: the resident blocks less those waiting for Tensor Memory (tcgen05.alloc blocks until columns "
                "are free).");
    add_row(rows, RowKind::result, RowId::summary, "Summary", summarize(r));

    // One row per limiter the kernel has (virtual resources only where it declares a count, as in JSON "limits").
    for (const LimiterInfo& e : kLimiters) {
        if (!e.reported(k)) continue;
        const int v = r.*e.limit;
        TableRow row;
        row.kind = RowKind::limit;
        row.key = e.title;
        row.value = v == kUnlimited ? "no limit" : plain(v) + (v == 1 ? " block" : " blocks");
        row.count = v == kUnlimited ? "-" : plain(v);
        row.note = e.explain(d, k, l, r);
        row.limiter = &e;
        row.hit = (r.limiters & e.bit) != 0 || (e.effective && eb < r.blocks_per_sm && (effective_limiters(r) & e.bit) != 0);
        rows.push_back(std::move(row));
    }

    add_row(rows, RowKind::allocated, RowId::other, "Registers / warp",
            format_count(r.regs_per_warp_allocated) + " regs (" + plain(k.regs_per_thread) + " x 32, rounded up to " +
                plain(a.reg_alloc_unit) + ")",
            limit_rule(kLimitRegisters));
    add_row(rows, RowKind::allocated, RowId::other, "Registers / block",
            format_count(r.regs_per_block_allocated) + " regs (limit " + format_count(a.regs_per_block) + ")", limit_rule(kLimitRegisters));
    add_row(rows, RowKind::allocated, RowId::other, "Shared mem / block",
            format_bytes(r.smem_per_block_allocated) + " (incl. " + format_bytes(a.smem_reserved_per_block) + " reserved, " +
                plain(a.smem_alloc_unit) + " B unit; limit " + format_bytes(r.smem_per_block_limit) + ")",
            limit_rule(kLimitSharedMemory));
    add_row(
        rows, RowKind::allocated, RowId::other, "Shared mem / SM",
        format_bytes(r.smem_per_sm_configured) + " carveout of " + format_bytes(a.smem_per_sm),
        "The carveout the driver configures: the preference rounded up to a supported size, or the smallest size that holds one block.");
    if (const DriverSmemConfig dc = driver_smem_config(a, k, r); dc.bytes >= 0 && a.smem_config == SmemConfig::carveout) {
        // One size where the public reports decide; else every size they allow ("32 or 64 KiB"), occ's pick first.
        std::string sizes = format_bytes(dc.bytes), limits = plain(dc.block_limit);
        if (dc.candidates.size() > 1) {
            std::string others, other_limits;
            for (std::size_t i = 0; i < dc.candidates.size(); ++i) {
                if (dc.candidates[i] == dc.bytes) continue;
                join_into(others, ", ", format_bytes(dc.candidates[i]));
                join_into(other_limits, ", ", plain(dc.candidate_block_limits[i]));
            }
            sizes += " (or " + others + ": the public reports cannot tell)";
            limits += " (or " + other_limits + ")";
        }
        add_row(
            rows, RowKind::allocated, RowId::other, "Driver's config",
            sizes + ", " + limits + " blocks against it (Nsight Compute shows these)",
            "The driver itself configures only what the launch needs (Nsight Compute's \"Shared Memory Configuration Size\" and \"Block "
            "Limit Shared Mem\"); the block count is the same as with the largest carveout, which occupancy uses like cuda_occupancy.h. "
            "Rule: " +
                dc.rule + ".");
    }
    if (r.partitioned_gc_active)
        add_row(rows, RowKind::allocated, RowId::other, "Partitioned caching", "active: each block gets half an SM",
                "Partitioned global caching (5.2, 5.3, 6.x).");

    if (waves) add_wave_rows(rows, *waves, l.grid_blocks, r.occupancy);
    if (!req.warpgroup_regs.empty()) {
        const RegisterPoolAnswer p = register_pool(a, k, l, req.warpgroup_regs);
        const char* rule =
            "setmaxnreg (PTX ISA): each warpgroup sets its per-thread register count (24..256, steps of 8); .dec returns registers "
            "to the block's pool, .inc waits until the pool has them. The pool is what the block was launched with.";
        if (!p.error.empty()) {
            add_row(rows, RowKind::pool, RowId::other, "Register plan", p.error, rule);
        } else {
            std::string plan;
            for (const WarpgroupPlan& g : p.plan) join_into(plan, ", ", plain(g.regs) + " (" + g.action + ")");
            add_row(rows, RowKind::pool, RowId::other, "Register plan", plan + " per warpgroup, launched at " + plain(p.launch_regs), rule);
            add_row(rows, RowKind::pool, RowId::other, "Register pool", p.summary, rule);
        }
    }
    return rows;
}

Result<std::string> format_table(const std::vector<TableRow>& rows, std::string_view format) {
    auto csv_cell = [](const std::string& s) {
        if (s.find_first_of(",\"\n") == std::string::npos) return s;
        std::string o = "\"";
        for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
        return o + "\"";
    };
    auto md_cell = [](const std::string& s) {
        std::string o;
        for (char c : s) o += c == '|' ? std::string("\\|") : std::string(1, c);
        return o;
    };
    auto key_of = [](const TableRow& r) { return r.kind == RowKind::limit ? r.per + " allowed by " + r.key : r.key; };
    std::string out;
    if (format == "csv") {
        out = "quantity,value\n";
        for (const TableRow& r : rows) out += csv_cell(key_of(r)) + "," + csv_cell(r.value) + "\n";
    } else if (format == "markdown" || format == "md") {
        out = "| Quantity | Value |\n|---|---|\n";
        for (const TableRow& r : rows) out += "| " + md_cell(key_of(r)) + " | " + md_cell(r.value) + " |\n";
    } else {
        return Result<std::string>::fail("format: must be markdown or csv, got \"" + std::string(format.substr(0, 20)) + "\"");
    }
    return Result<std::string>::ok(std::move(out));
}

}  // namespace occ::io
