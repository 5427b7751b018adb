// occ/warp_interp.hpp — runs chosen warps of a PTX entry lane by lane over the integer, predicate
// and address instructions, and costs every global and shared access they make with the same
// models as a described pattern (analyze_global, analyze_banks).
//
// [SECTION] Options: the launch, the warps to run, parameter values, bounds
// [SECTION] Report: per access site (instruction), per source line, per warp, notes
// [SECTION] interpret_warps
//
// The rules:
//   a value loaded from memory is unknown (per lane, per register); an address built from one makes
//   the access "data-dependent (gather)", never a guessed number
//   an unmodelled instruction makes what it writes unknown, and is named in the report
//   divergence: every lane has its own PC; the lanes at the lowest PC run next (min-PC scheduling),
//   so lanes meet again at the join point of structured code
//   a 64-bit parameter not given is a pointer to a 256-byte-aligned buffer at a symbolic base (the
//   access's notes say so); another parameter not given is unknown
//   .shared variables are placed in declaration order from offset 0, each at its .align (an
//   assumption: ptxas may order them otherwise; bank counts do not change under a shift by a
//   multiple of 4 bytes, the worst case of a reordering is a different alignment of 8/16-byte rows)
//   descriptor-based instructions (TMA cp.async.bulk.tensor, cp.async.bulk, wgmma, tcgen05,
//   mbarrier) are listed by name and not costed
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "occ/banks.hpp"
#include "occ/coalescing.hpp"
#include "occ/device.hpp"
#include "occ/ptx_program.hpp"

namespace occ {

// [SECTION] Options
struct PtxParamValue {
    std::string name;  // the .param's name ("copy_f32_param_2") or its 0-based position ("2")
    std::uint64_t value = 0;
};

// What a branch whose predicate is unknown in some lane does.
enum class UnknownBranch : std::uint8_t {
    stop,       // stop the warp there and say why (the default: nothing is guessed)
    not_taken,  // assume the lanes fall through (the report notes the assumption)
    taken,      // assume the lanes jump
};

struct WarpSelect {
    int block[3] = {0, 0, 0};  // blockIdx
    int warp = 0;              // warp of the block: linear threads 32*warp .. 32*warp+31
};

struct InterpOptions {
    int block[3] = {32, 1, 1};  // blockDim
    int grid[3] = {1, 1, 1};    // gridDim
    std::vector<PtxParamValue> params;
    std::vector<WarpSelect> warps{WarpSelect{}};
    std::int64_t max_steps = 200000;  // warp-level instructions per warp
    int max_visits = 256;             // executions of one instruction per warp (bounds each loop)
    UnknownBranch unknown_branch = UnknownBranch::stop;
};

// [SECTION] Report
// min / mean / max of one cost over the executions that were costed.
struct CostStat {
    std::int64_t count = 0;
    std::int64_t sum = 0;
    std::int64_t min = 0;
    std::int64_t max = 0;
    void add(std::int64_t v);
    double mean() const { return count ? static_cast<double>(sum) / static_cast<double>(count) : 0.0; }
    bool varies() const { return min != max; }
};

enum class SiteModel : std::uint8_t {
    global,  // costed with analyze_global: sectors per request
    shared,  // costed with analyze_banks: wavefronts per request
    listed,  // recognised and named, not costed (descriptors, bulk copies, barriers objects)
};
const char* site_model_name(SiteModel m);

// One memory instruction (one side of it for cp.async), over every warp and iteration run.
struct AccessSite {
    int instruction = 0;  // index into Entry::instructions
    std::string opcode;   // "ld.global.nc.f32"
    std::string side;     // "" or, for cp.async, "global side" / "shared side"
    int ptx_line = 0;
    ptx::SourceLoc loc;    // innermost .loc
    ptx::SourceLoc outer;  // the caller it was inlined into (== loc when not inlined)
    SiteModel model = SiteModel::global;
    AccessOp op = AccessOp::load;
    int access_bytes = 0;         // bytes per lane (vector count x element size); 0 when not known
    std::int64_t executions = 0;  // warp-level executions with at least one lane on it
    std::int64_t costed = 0;      // executions whose every active address was known
    std::int64_t unknown = 0;     // executions that could not be costed
    std::string unknown_reason;   // why (the first such execution); "" when all were costed
    std::string listed_reason;    // SiteModel::listed: what the instruction is and why it is not costed
    CostStat active_lanes;
    CostStat sectors, ideal_sectors;                   // global, per request
    CostStat wavefronts, ideal_wavefronts, conflicts;  // shared, per request
    std::vector<std::string> notes;                    // assumptions behind the numbers
    // The costed execution with the most excess (sectors over ideal, or bank conflicts; the first on
    // ties): its lanes' addresses (global: rebased on a 4 KiB boundary; shared: byte offsets), for
    // the reason and fix (site_explanation) and for drawing. has_worst = false until one is costed.
    WarpAccess worst;
    bool has_worst = false;
    std::int64_t worst_excess = -1;
    WarpSelect worst_warp;
};

// Why a site costs what it does and how to fix it, worded by the described-pattern models
// (analyze_global_block / analyze_banks_block) on the site's worst execution: the same sentences
// `occ coalesce` and `occ banks` give for those 32 addresses. Empty for a site never costed.
struct SiteExplanation {
    std::string reason;
    std::string fix;  // "" when nothing to fix
};
SiteExplanation site_explanation(const AccessSite& site, const ArchRules& arch);

// Totals of the sites of one source line (innermost .loc).
struct LineCost {
    ptx::SourceLoc loc;
    std::string file;        // path from .file, "" when not declared
    std::vector<int> sites;  // indices into InterpReport::sites
    std::int64_t executions = 0;
    std::int64_t unknown = 0;
    std::int64_t sectors = 0, ideal_sectors = 0;
    std::int64_t wavefronts = 0, ideal_wavefronts = 0, conflicts = 0;
};

struct WarpRun {
    WarpSelect warp;
    std::int64_t steps = 0;  // warp-level instructions executed
    bool finished = false;   // every lane reached ret/exit
    std::string stopped;     // why it stopped early ("" when finished)
};

struct InterpReport {
    std::vector<AccessSite> sites;  // in instruction order; every memory instruction, run or not
    std::vector<LineCost> lines;    // in source order
    std::vector<WarpRun> warps;
    std::vector<std::string> unmodelled;  // "add.f32 (PTX line 44)": instructions whose results are unknown
    std::vector<std::string> notes;       // assumptions for the whole run
    std::string error;                    // the inputs were refused (bad launch, bad warp index)
    bool ok() const { return error.empty(); }
    const AccessSite* find_site(int ptx_line, const std::string& side = {}) const;
};

// [SECTION] interpret_warps
// Runs options.warps of `entry` (of `program`, for module-scope .shared variables) and costs their
// accesses with `arch`'s rules. Never throws on the program's content; refused options give error.
InterpReport interpret_warps(const ptx::Program& program, const ptx::Entry& entry, const InterpOptions& options, const ArchRules& arch);

}  // namespace occ
