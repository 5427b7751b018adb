// occ/io/schema.hpp — every request field, described once.
//
// A FieldSpec says a field's JSON key, its type, the range the reader accepts (and the words an
// error uses for it), its default, its unit and a one-line help. From these descriptions come:
//   - the JSON readers (FieldReader::read_* take a FieldSpec: ranges and messages live here only),
//   - the CLI flags (flag = "--" + key with '_' turned into '-', for every kind: native/cli),
//   - the CLI --help texts and the field lists in the footers,
//   - the check that docs/INPUTS.md documents exactly these fields with these ranges and defaults
//     (tests/unit/test_schema.cpp).
// Kinds that share inputs share the same FieldSpec objects: occupancy, advise, waves, clusters and
// ptxas all use the device and launch groups, so they take the same flags.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <climits>

#include <nlohmann/json_fwd.hpp>

namespace occ::io {

enum class FieldType : std::uint8_t {
    integer,    // whole JSON number or numeric string
    number,     // JSON number or numeric string
    size,       // bytes, or "48K"
    boolean,    // a CLI flag without a value
    choice,     // one of `choices`
    text,       // a free string (a GPU name, a compiler log)
    cc,         // "8.0", 8.6, "sm_90"
    mask,       // 32-bit lane mask; the CLI also takes lane ranges "0-15,20"
    u64,        // non-negative integer, decimal or "0x.." string
    dims,       // [x, y, z]; the CLI takes "32,8" or "16x16x4"
    addresses,  // 32 byte addresses, null = inactive; the CLI takes "0,4,-,12"
    list,       // array; the CLI takes "a,b,c" and repeated flags
    device,     // a custom device object; the CLI takes a JSON file or inline JSON
    duration,   // milliseconds; the CLI also takes "0.5ms", "120us", "0.002s"
    objects,    // array of objects (JSON only: no flag)
    any,        // any JSON value (JSON only: no flag)
};

struct FieldSpec {
    std::string_view key;
    FieldType type = FieldType::integer;
    // What the reader accepts. Integers and sizes: lo..hi; numbers: dlo..dhi.
    std::int64_t lo = 0, hi = 0;
    double dlo = 0, dhi = 0;
    std::string_view expect;   // "must be <expect>" in messages; empty = the reader's own wording
    std::string_view choices;  // choice: "none,shared,l1,equal" (first-listed spellings are canonical)
    std::int64_t int_default = 0;
    double num_default = 0;
    std::string_view def;  // choice/text default, and the default as docs and help show it
    // Documentation: the columns of docs/INPUTS.md and the help line.
    std::string_view doc_type;  // "integer", "size (bytes or \"48K\")", ...
    std::string_view doc_range;
    std::string_view unit;  // "-" when none
    std::string_view help;
    // A rule the range cannot say (a power of two): a value in lo..hi that fails it is refused
    // with "must be <expect>". Plain (bound) integer fields only.
    bool (*valid)(std::int64_t) = nullptr;
    char short_flag = 0;   // kept for the common flags (-g, -t, -r, ...)
    bool no_flag = false;  // JSON only (id, ops, log through --ptxas FILE)
};

// The CLI flag of a field: "--" + key with '_' turned into '-'.
std::string flag_name(std::string_view key);

namespace fields::detail {
inline constexpr std::int64_t kI = INT_MAX;  // the model checks the real range and names the device's limit
inline constexpr std::int64_t kTiB = std::int64_t{1} << 40;
inline constexpr std::int64_t kBig = std::int64_t{1} << 50;
inline constexpr std::string_view kSizeExpect = "a size in bytes >= 0 (e.g. 49152 or \"48K\")";
}  // namespace fields::detail

// [SECTION] Kinds
// The one table of request kinds: the --batch and handle() dispatch (api.cpp), the CLI's request
// subcommands, window.occ's functions, Python's occ.<kind>() and the docs check iterate it.
struct KindSpec {
    std::string_view name;                     // "occupancy": the --batch kind and the JS API function
    std::string_view summary;                  // one line
    std::span<const FieldSpec* const> fields;  // the order of the flags in --help
    // docs/INPUTS.md documents the fields this kind shares with these kinds in their sections
    // (comma-separated kind names), and the rest in its own section.
    std::string_view docs_shared_with;
    // The JSON answer to a request (throws RequestError for a bad one; handle() catches): by
    // NVIDIA's rules, and by AMD's for a request that names an AMD GPU or target (request_vendor);
    // nullptr: `answer` takes both (its artefacts say the vendor, or the kind has no AMD model).
    nlohmann::ordered_json (*answer)(const nlohmann::ordered_json& request) = nullptr;
    nlohmann::ordered_json (*answer_amd)(const nlohmann::ordered_json& request) = nullptr;
};
std::span<const KindSpec> request_kinds();
// The fields only an AMD occupancy request takes (arch, agprs, sgprs, wave_size, cu_mode).
std::span<const FieldSpec* const> amd_only_fields();
const KindSpec* find_kind(std::string_view name);
// The field `key` of kind `kind` (nullptr when the kind has no such field).
const FieldSpec* find_field(const KindSpec& kind, std::string_view key);

}  // namespace occ::io

// The fields themselves, described once, grouped as the kinds share them (fields::gpu, ...).
#include "occ/io/schema_launch.hpp"
#include "occ/io/schema_memory.hpp"
#include "occ/io/schema_ptx.hpp"
