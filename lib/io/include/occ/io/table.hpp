// occ/io/table.hpp — the occupancy result as rows of text: one builder for the CLI's table, the
// app's result panel and the page's Markdown/CSV export, so every face words and formats the same
// numbers the same way (numbers through occ/format.hpp, reasons through occ/explain.hpp).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "occ/advisor.hpp"
#include "occ/io/api.hpp"
#include "occ/waves.hpp"

namespace occ::io {

enum class RowKind : unsigned char { input, result, limit, allocated, waves, pool };  // pool: the setmaxnreg plan

struct TableRow {
    RowKind kind = RowKind::result;
    std::string key;                    // "Registers / warp"
    std::string value;                  // "2,048 regs (64 x 32, rounded up to 256)"
    std::string note;                   // limits: why this many blocks; others: the general rule (a tooltip)
    Limiter limiter = kLimitWarps;      // limits: which one
    bool hit = false;                   // limits: this limiter sets the block count
    std::string per = "Blocks per SM";  // limits: what the value counts (AMD: "Workgroups per CU")
};

// Every row of one occupancy answer; `waves` adds the wave rows when it describes a grid.
std::vector<TableRow> occupancy_table(const OccupancyRequest& req, const OccupancyResult& r, const WaveResult* waves = nullptr);

// The rows of one wave over the GPU and, for a `grid` (0: none), its waves and tail, in a vendor's
// nouns ("Blocks / wave", "Workgroups / wave"); both vendors' tables add them through this.
void add_wave_rows(std::vector<TableRow>& rows, const WaveResult& w, std::int64_t grid, double theoretical, const AdviceWords& words = {});

// The rows as "| Quantity | Value |" Markdown or "quantity,value" CSV (format "markdown"/"md"/"csv").
Result<std::string> format_table(const std::vector<TableRow>& rows, std::string_view format);

}  // namespace occ::io
