// scenario.hpp — AppState <-> scenario JSON (see scenario.cpp for the format).
#pragma once
#include <string>
#include <string_view>

#include "app_state.hpp"

namespace occ::ui {

std::string scenario_to_json(const AppState& s);
// On failure returns false, fills `error` and leaves `s` unchanged.
bool scenario_from_json(std::string_view text, AppState& s, std::string* error);
// Makes `r` (device, block, registers, shared memory, grid...) the scenario's occupancy request and
// keeps the views and the other tabs' inputs, as loading that request's JSON would.
bool use_request(AppState& s, const io::OccupancyRequest& r, std::string* error);

}  // namespace occ::ui
