// occ/io/batch.hpp — one answer line per request line, streamed (the CLI's --batch).
//
// The occupancy answer is written straight into the output text, without a JSON tree: the same
// bytes as to_json(answer).dump() (tests/unit/test_batch.cpp compares the two on every request
// of the regress corpus). A request line that is a flat object of plain numbers, strings and
// booleans within their fields' ranges is read by a small reader; any other line (and every
// other kind) goes through handle_text(), so errors and unusual requests answer exactly as before.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "occ/io/api.hpp"

namespace occ::io {

// Appends to_json(a).dump() of an occupancy answer to `out`, without building the tree.
// `device_json`: device_to_json(a.input.device).dump(), when the caller keeps it (empty: made here).
void write_occupancy_answer(const OccupancyAnswer& a, std::string& out, std::string_view device_json = {});

class BatchAnswerer {
public:
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
};

}  // namespace occ::io
