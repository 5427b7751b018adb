// occ/io/advice_view.hpp — the advise kind's answer of either vendor in the one shape the faces
// draw: the CLI's `occ advise` text and the app's Advisor tab print this and nothing else.
//
// Each vendor keeps its own rules and typed answer (AdviseAnswer, occ/advisor.hpp; AmdAdviseAnswer,
// occ/amd_advisor.hpp); advice_view() turns either into the same parts in the target's words
// (AdviceWords: block or workgroup, SM or CU/WGP, registers or VGPRs). The vendor is resolved here,
// once (request_vendor), for a request; a face never asks which vendor it shows.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "occ/advisor.hpp"
#include "occ/cluster.hpp"
#include "occ/io/amd.hpp"
#include "occ/io/api.hpp"
#include "occ/limiter.hpp"
#include "occ/waves.hpp"

namespace occ::io {

// One launch of a before/after table ("now", "best", "most, same blocks", "cut to gain a block").
struct AdviceOption {
    std::string title;
    bool has = false;  // false: no such launch (every cell "-")
    std::int64_t threads = 0, regs = 0, smem = 0;
    int blocks = 0;  // per SM (CU, WGP)
    double occupancy = 0;
    std::vector<const LimiterKey*> limiters;  // the vendor's entries that limit it, in table order
    std::string failed;                       // the launch does not run: why ("" when it runs)
};

// A sentence under a table; `emphasis`: the change that gains a block (the app draws it in the accent).
struct AdviceLine {
    std::string text;
    bool emphasis = false;
};

// A before/after table: the block-size search, the registers and the dynamic shared memory.
struct AdviceTable {
    Resource resource = Resource::registers;  // registers or shared memory; block: the block size
    bool block = false;
    std::string title;  // "Best block size", "VGPRs"
    std::string rule;   // what it follows, after the title in the CLI ("arch VGPRs per lane"); may be empty
    std::vector<AdviceOption> options;
    std::vector<AdviceLine> lines;
    std::string error;  // the part could not be computed: shown instead of the table
};

struct AdviceView {
    AdviceWords words;
    // A table's row labels: threads, registers, dynamic shared memory, blocks per SM, occupancy, limiters.
    std::array<std::string, 6> rows;
    std::string name;    // "A100-SXM4-40GB", "MI300X", "gfx942"
    std::string device;  // "cc 8.0, 108 SMs", "gfx942 CDNA3, 304 CUs"
    // The launch as it is: "256 threads x 64 regs, 0 B dynamic smem -> 4 blocks/SM, 50.0% occupancy
    // (limited by registers)".
    std::string now;
    std::string error;  // the launch now does not run: why ("" when it runs)
    std::vector<std::string> suggestions;
    AdviceTable block;
    std::vector<AdviceTable> resources;  // registers, then dynamic shared memory
    // Dynamic shared memory (LDS) available per block at the target count.
    int target_blocks = 0;
    std::string at_target;        // "At 3 blocks/SM a block may use up to 64 KiB of dynamic shared memory"
    std::string at_target_error;  // not available: why
    WaveResult waves;
    bool grid_given = false;
    // Thread block clusters: the target has them (CUDA cc 9.0+), and the answer for the size asked.
    bool has_clusters = false;
    std::string clusters_absent;  // the target's vendor has clusters but not this target: why ("" otherwise)
    std::optional<ClusterResult> clusters;
    // Nsight Compute reports and CUDA binaries can be imported beside the advice (their readers answer
    // CUDA targets); a compiler log can be for both.
    bool cuda_imports = false;
    json answer;  // the advise kind's JSON answer (what --json and --batch give)
};

AdviceView advice_view(const AdviseAnswer& a);
AdviceView advice_view(const AmdAdviseAnswer& a);
Result<AdviceView> advice_view(const json& request);
json to_json(const AdviceView& v);

// A limiter list in words: labels ("registers, shared memory") or titles ("Registers, Shared memory");
// "-" for none.
std::string limiter_list(const std::vector<const LimiterKey*>& l, bool titles);

}  // namespace occ::io
