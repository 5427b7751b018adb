// occ/io/table.hpp — the occupancy result as rows of text: one builder for the CLI's table, the
// app's result panel and the page's Markdown/CSV export, so every face words and formats the same
// numbers the same way (numbers through occ/format.hpp, reasons through occ/explain.hpp).
#pragma once
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "occ/advisor.hpp"
#include "occ/io/api.hpp"
#include "occ/waves.hpp"

namespace occ::io {

enum class RowKind : unsigned char { input, result, limit, allocated, waves, pool };  // pool: the setmaxnreg plan

// What a row says, for the faces that pick rows out (the CLI's header lines, the app's headline):
// rows are found by this, never by their title.
enum class RowId : unsigned char {
    other,
    gpu,
    block,
    registers,
    shared_memory,
    carveout,
    occupancy,
    active,
    effective,
    summary,
    estimate,
    fix
};

struct TableRow {
    RowKind kind = RowKind::result;
    RowId id = RowId::other;
    std::string key;                      // "Registers / warp"
    std::string value;                    // "2,048 regs (64 x 32, rounded up to 256)"
    std::string note;                     // limits: why this many blocks; others: the general rule (a tooltip)
    const LimiterKey* limiter = nullptr;  // limits: its entry in the vendor's table (occ::kLimiters, amd::kAmdLimiters)
    bool hit = false;                     // limits: this limiter sets the block count
    std::string count;                    // limits: the count alone ("4", "-" for no limit), for narrow tables
    std::string per = "Blocks per SM";    // limits: what the value counts (AMD: "Workgroups per CU")
};
// Appends a row (every table builder adds its rows through this).
TableRow& add_row(std::vector<TableRow>& rows, RowKind kind, RowId id, std::string key, std::string value, std::string note = {});
// The first row with `id` (nullptr when the answer has none), and its value ("" then).
const TableRow* find_row(const std::vector<TableRow>& rows, RowId id);
std::string row_value(const std::vector<TableRow>& rows, RowId id);

// Every row of one occupancy answer; `waves` adds the wave rows when it describes a grid.
std::vector<TableRow> occupancy_table(const OccupancyRequest& req, const OccupancyResult& r, const WaveResult* waves = nullptr);

// The rows of one wave over the GPU and, for a `grid` (0: none), its waves and tail, in a vendor's
// nouns ("Blocks / wave", "Workgroups / wave"); both vendors' tables add them through this.
void add_wave_rows(std::vector<TableRow>& rows, const WaveResult& w, std::int64_t grid, double theoretical, const AdviceWords& words = {});

// One answer shape for the faces that print an occupancy answer, whichever vendor's rules gave it:
// the rows above and the words that differ (SM or CU, blocks or workgroups) come from the target.
struct OccupancyView {
    std::string name;          // "A100-SXM4-80GB", "MI300X", "gfx1100"
    std::string device;        // after the name: "cc 8.0 Ampere, 108 SMs", "AMD gfx942 CDNA3, 304 CUs"
    std::string kernel;        // the launch in one line: block, registers, shared memory (LDS)
    std::string per;           // "SM", "CU", "WGP"
    std::string limit_column;  // what a limit counts, short: "blocks/SM", "groups/CU"
    std::string error;         // a launch the model refuses: why (empty when it fits)
    // The headline: the occupancy (0..1; the app's big figure), what that figure is (its tooltip),
    // the counts behind it ("4 blocks · 32 of 64 warps · 1,024 threads per SM") and the one-line
    // summary ("limited by registers"; "launch fails: ...").
    bool ok = false;
    double occupancy = 0;
    std::string what, counts, summary;
    std::vector<TableRow> rows;
    std::string sweep_input;                        // --sweep: the input swept ("" = none)
    std::vector<std::array<std::string, 4>> sweep;  // its steps: x, blocks, occupancy, limited by
    json answer;                                    // the JSON answer (--json)
};
// The occupancy request answered by its target's rules (the vendor is resolved once, here and in handle()).
Result<OccupancyView> occupancy_view(const json& request);
// The same for an answer already computed (the app's result panel): each vendor's rows and words.
struct AmdAnswer;  // occ/io/amd.hpp
OccupancyView occupancy_view(const OccupancyAnswer& a);
OccupancyView occupancy_view(const AmdAnswer& a);
json to_json(const OccupancyView& v);  // its `answer`

// The rows as "| Quantity | Value |" Markdown or "quantity,value" CSV (format "markdown"/"md"/"csv").
Result<std::string> format_table(const std::vector<TableRow>& rows, std::string_view format);

}  // namespace occ::io
