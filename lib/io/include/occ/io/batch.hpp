// occ/io/batch.hpp — one answer line per request line, streamed (the CLI's --batch).
//
// The occupancy answer is written straight into the output text, without a JSON tree: the same
// bytes as to_json(answer).dump() (tests/unit/test_batch.cpp compares the two on every request
// of the regress corpus). A request line that is a flat object of plain numbers, strings and
// booleans within their fields' ranges is read by a small reader; any other line (and every
// other kind) goes through handle_text(), so errors and unusual requests answer exactly as before.
//
// A FieldSelection (the CLI's --fields) writes only some of each answer's fields: the same bytes as
// the full answer's values for those fields, in the same order.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "occ/io/api.hpp"

namespace occ::io {

// Appends to_json(a).dump() of an occupancy answer to `out`, without building the tree.
// `device_json`: device_to_json(a.input.device).dump(), when the caller keeps it (empty: made here).
void write_occupancy_answer(const OccupancyAnswer& a, std::string& out, std::string_view device_json = {});

// Every dotted path an answer of `kind` may hold ("occupancy", "limits.registers", "input.threads"), in the
// answer's order: the members of the kind's own answers to representative requests, read back from
// the tree its writer builds (for occupancy, to_json(OccupancyAnswer), i.e. emit_occupancy_answer,
// with every optional member present; for the other kinds, the answer to an empty request). Empty
// when the kind has no such answer (its default request is an error).
const std::vector<std::string>& answer_field_paths(std::string_view kind);

// The answer fields a caller asked for: dotted paths into the answer object. A path names its whole
// value; the objects above it keep only their chosen members (in the answer's order); a value that is
// not an object where a deeper path was asked for is written whole (driver_smem: null). The top-level
// "error" is always kept, so a refused request still says why.
class FieldSelection {
public:
    enum class Match : std::uint8_t { none, part, whole };
    // A comma-separated list checked against answer_field_paths(kind); the message names an unknown
    // field and lists the allowed ones.
    static Result<FieldSelection> parse(std::string_view kind, std::string_view list);
    // The member `key` of the object at `prefix` ("" at the top, else "limits." and so on).
    Match match(std::string_view prefix, std::string_view key) const;
    // The selected members of an answer tree.
    json select(const json& answer) const;
    // The selected members of the object at `prefix` ("limits."; restored on return).
    json select_in(const json& object, std::string& prefix) const;
    const std::vector<std::string>& paths() const { return paths_; }

private:
    std::vector<std::string> paths_;
};

class BatchAnswerer {
public:
    BatchAnswerer() = default;
    // Answers with only the selected fields (nullptr: whole answers).
    explicit BatchAnswerer(const FieldSelection* fields) : fields_(fields) {}
    // Appends the answer to one request line (no newline) to `out`; true when it is an error.
    bool answer(std::string_view kind, std::string_view line, std::string& out);
    // How many lines the small reader took (the rest went through handle_text); for tests.
    std::size_t fast_lines() const { return fast_lines_; }

private:
    bool answer_occupancy_fast(std::string_view line, std::string& out);
    const std::string& device_text(const Device* d);

    struct DeviceText {
        const Device* device;
        std::string json;
    };
    std::vector<DeviceText> devices_;  // one per GPU seen (bounded by the database)
    OccupancyAnswer answer_;           // reused line after line
    const Device* answer_device_ = nullptr;
    std::size_t fast_lines_ = 0;
    const FieldSelection* fields_ = nullptr;
};

}  // namespace occ::io
