// occ/validation/report.hpp — what one validation run found, and how it is compared and printed.
//
// A run is a list of cases. Each case holds one or more checks; a check is one quantity with up to
// three values: occ's prediction, NVIDIA's runtime answer (cudaOccupancy*, cudaDeviceProp) and what
// the hardware did (measured residency, Nsight Compute counters, cuobjdump SASS, device attributes).
// A check matches when every value present is equal. Host-only: no CUDA in this library.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace occ::validation {

using json = nlohmann::ordered_json;

inline constexpr const char* kSchema = "occ-validation/1";

enum class Kind { device, occupancy, coalescing, banks };
const char* kind_name(Kind k);
std::optional<Kind> kind_from_name(std::string_view s);

// match       every value present agrees
// mismatch    two values differ and nobody has explained why
// explained   they differ, and `explanation` says why (a documented driver/tool behaviour)
// unverified  nothing to compare with (only an estimate, or no runtime/hardware value)
enum class Status { match, mismatch, explained, unverified };
const char* status_name(Status s);
std::optional<Status> status_from_name(std::string_view s);

struct Check {
    std::string name;                      // "blocks_per_sm", "sectors", "regsPerMultiprocessor", ...
    std::int64_t predicted = 0;            // occ's answer
    std::optional<std::int64_t> runtime;   // NVIDIA's runtime answer
    std::optional<std::int64_t> measured;  // the hardware
    bool agrees() const;                   // all present values equal
    bool compared() const { return runtime.has_value() || measured.has_value(); }
};

struct Case {
    Kind kind = Kind::occupancy;
    std::string id;  // stable, e.g. "occ/r64_s0/t256/d0/c-1"
    std::string description;
    json inputs = json::object();  // what was launched (free-form, for the JSON)
    std::vector<Check> checks;
    bool estimate = false;    // measured by a fallback (bandwidth/clock), not exact counters
    std::string explanation;  // why a mismatch is expected (empty: none)
    std::string note;         // anything else worth printing (launch error, ...)
};

// The verdict for one case, from its checks (see Status).
Status evaluate(const Case& c);

struct Tally {
    int cases = 0, matched = 0, mismatched = 0, explained = 0, unverified = 0;
    void add(Status s);
};

struct GpuInfo {
    std::string name;     // cudaDeviceProp::name, e.g. "NVIDIA H200"
    std::string slug;     // file name stem, e.g. "h200"
    std::string occ_gpu;  // occ database entry used ("" = generic device for the cc)
    int cc_major = 0, cc_minor = 0;
    int sm_count = 0;
    int driver_version = 0, runtime_version = 0;
};

struct Report {
    bool synthetic = false;  // true for hand-made fixtures: never hardware results
    GpuInfo gpu;
    std::string mode;  // "quick" | "full"
    std::string date;  // ISO-8601 UTC
    std::string occ_version;
    std::string predictor_memory;  // which code predicted coalescing/banks
    json tools = json::object();   // {"ncu": "...", "cuobjdump": "...", "fallback": "..."}
    std::vector<Case> cases;

    Tally tally() const;
    Tally tally(Kind k) const;
};

// "NVIDIA H200" -> "h200", "NVIDIA GeForce RTX 4090" -> "rtx-4090"
std::string gpu_slug(std::string_view name);

// JSON round trip. from_json throws std::runtime_error with a readable message on bad input.
json to_json(const Case& c);
Case case_from_json(const json& j);
json to_json(const Report& r);
Report report_from_json(const json& j);
Report load_report(const std::string& path);  // throws std::runtime_error

// Console table: one row per check (prediction, NVIDIA runtime, hardware), mismatches marked.
// only_problems: rows of cases that are not "match" only.
std::string format_table(const Report& r, bool only_problems = false);
// Markdown summary (per kind counts, tools, every non-matching case).
std::string format_markdown(const Report& r);
// One line: "NVIDIA H200 (cc 9.0, 132 SMs): 812 cases, 812 matched, 0 mismatched".
std::string format_summary_line(const Report& r);

}  // namespace occ::validation
