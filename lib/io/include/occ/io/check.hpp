// occ/io/check.hpp — `occ check`: resource budgets for CI. A budget is a list of rules, each for the
// kernels whose name matches a glob pattern (and optionally for one GPU and block size): at most so
// many registers, spill bytes, stack bytes, shared memory bytes; at least so much occupancy or so many
// blocks per SM. Kernels come from any artefact `occ kernels` reads or from a compiler log. The
// other mode compares two builds (base, head) and reports regressions: registers up, spills
// appearing, occupancy down.
//
// A check whose value the artefact does not hold (spill bytes from a binary, occupancy of a build
// that cannot be evaluated) is `unknown`, never a pass and never 0. The budget file's syntax (TOML)
// is read here too (parse_budget, read_budget).
//
// Memory checks run the kernel's PTX through `occ memory` (answer_ptx_memory, occ/io/ptx_memory.hpp)
// at the rule's launch (block, grid, params) and bound its worst access: sectors per request over
// the ideal, bank conflicts per request, the number of uncoalesced accesses. A kernel whose artefact
// holds no PTX (a cubin only) is `unknown` for them, with what to compile it with.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "occ/io/binary.hpp"
#include "occ/io/ptxas.hpp"

namespace occ::io {

struct BudgetRule {
    std::string kernels = "*";       // glob over the kernel's name: * any run, ? one character, [abc] a set
    int line = 0;                    // where the rule starts in the budget file (1-based; 0 = not from a file)
    std::optional<std::string> gpu;  // evaluate occupancy on this GPU (else the budget's, else each build's own cc)
    std::optional<int> threads;      // block size for the occupancy checks (else the budget's, else 256)
    std::optional<int> max_registers;
    std::optional<std::int64_t> max_spill_bytes;  // spill stores + spill loads, bytes per thread (0 = no spills)
    std::optional<std::int64_t> max_stack;        // stack frame, bytes per thread
    std::optional<std::int64_t> max_smem;         // static shared memory + the launch's dynamic (Triton), bytes per block
    std::optional<double> min_occupancy;          // 0..1, at `threads` on `gpu`
    std::optional<int> min_blocks_per_sm;         // at `threads` on `gpu`
    // The memory checks' launch (else the budget's; block else the artefact's (Triton), else `threads`).
    std::optional<std::array<int, 3>> block, grid;
    std::vector<std::pair<std::string, std::int64_t>> params;  // kernel arguments: .param name or 0-based position
    std::optional<double> max_sectors_per_request_ratio;       // worst global access: sectors/request over its ideal (1 = coalesced)
    std::optional<double> max_bank_conflicts_per_request;      // worst shared access
    std::optional<int> max_uncoalesced_accesses;               // global accesses above their ideal sectors
    bool memory() const { return max_sectors_per_request_ratio || max_bank_conflicts_per_request || max_uncoalesced_accesses; }
};

struct Budget {
    std::string file;                // for messages and result locations
    std::optional<std::string> gpu;  // defaults for the rules
    std::optional<int> threads;
    std::optional<std::array<int, 3>> block, grid;  // defaults for the rules' memory checks
    std::vector<std::pair<std::string, std::int64_t>> params;
    std::vector<BudgetRule> rules;
};

// A budget file's text (TOML, docs/CHECK.md) as typed rules; `file` names it in messages
// ("budget.toml:12: ..."). Fails on the first bad key or value, naming it and the allowed range.
Result<Budget> parse_budget(std::string_view text, const std::string& file);
Result<Budget> read_budget(const std::string& path);

// One artefact's kernels: what `occ kernels` read, or a compiler log (format "ptxas log").
struct CheckInput {
    std::string path;
    BinaryRead read;
    bool log = false;  // read as a compiler log: its records fill in the rows of binaries given with it
};
// Reads a path as `occ kernels` does; a file that is no binary is read as a compiler log
// (nvcc -Xptxas -v, cuobjdump --dump-resource-usage). A log given with the binary it built adds what
// the binary lacks (spills) to the binary's rows: one row per kernel.
CheckInput read_check_input(const std::string& path);

enum class Verdict { pass, fail, unknown };
const char* verdict_name(Verdict v);  // "pass", "fail", "unknown"

// The checks a rule or a comparison makes; their ids are the SARIF rule ids ("occ/<key>").
struct CheckKind {
    const char* key;    // "max_registers", ..., "registers_up"
    const char* title;  // one line: what it checks
    const char* help;   // why it matters and what to do
};
// Every check kind, in report order (budget checks, then comparisons).
const std::vector<CheckKind>& check_kinds();

struct CheckResult {
    std::string check;  // a CheckKind key
    Verdict verdict = Verdict::unknown;
    std::string kernel;  // demangled name as printed
    std::string mangled;
    std::string arch;             // "sm_90a"
    std::string file;             // the artefact (the cubin inside a Triton cache, the log, the library)
    std::string entry;            // where inside it ("" when the file itself)
    std::optional<double> value;  // what was found (null: unknown)
    std::optional<double> limit;  // the budget's bound, or the base's value in a comparison
    std::string message;          // one sentence, with the numbers
    int budget_line = 0;          // the rule's line in the budget file (0 for comparisons)
    std::string pattern;          // the rule's kernel pattern ("" for comparisons)
    // Memory checks: the offending access (the worst one) from the PTX's .loc, "" / 0 when none.
    std::string source;       // its source file as .file names it
    int source_line = 0;      // 1-based
    std::string instruction;  // "ld.shared.f32"
};

struct CheckReport {
    std::string mode;  // "budget" or "compare"
    std::vector<CheckResult> results;
    int passed = 0, failed = 0, unknown = 0;
    int kernels = 0;                  // kernel rows looked at (head rows in a comparison)
    std::vector<std::string> notes;   // unmatched rules, kernels only in one build, unreadable entries
    std::vector<std::string> inputs;  // the artefacts read
};

// Applies the budget to the inputs' kernels. Fails (the message names it) when an input cannot be
// read or holds no kernel, or a GPU name is unknown.
Result<CheckReport> check_budget(const Budget& budget, std::vector<CheckInput> inputs);
// Compares two builds: each kernel and architecture of head against the same in base, with the
// occupancy at `gpu` (empty: each build's own cc) and `threads`.
Result<CheckReport> check_compare(std::vector<CheckInput> base, std::vector<CheckInput> head, const std::optional<std::string>& gpu,
                                  int threads);

// The memory checks of one rule for one kernel (check_memory.cpp): the results, and notes for the
// accesses that could not be checked. `in` is the kernel's artefact (its PTX texts).
void check_memory(CheckReport& rep, const Budget& budget, const BudgetRule& rule, const CheckInput& in, const PtxasKernel& k,
                  const CheckResult& proto, int threads);
// A .ptx file as a check input: its entries as kernel rows, its text kept (BinaryRead::ptx_texts).
bool read_ptx_check_input(const std::string& path, BinaryRead& out);

// A glob match (* ? [set]) of a whole name.
bool glob_match(std::string_view pattern, std::string_view name);

nlohmann::ordered_json to_json(const CheckReport& r);

}  // namespace occ::io
