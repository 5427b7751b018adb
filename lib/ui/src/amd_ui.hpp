// amd_ui.hpp — the app with an AMD GPU or target picked (AppState::amd): the state side
// (amd_state.cpp) and the views that draw it (view_amd.cpp, view_cu.cpp). The numbers and words
// come from occ::amd and occ::io (io::amd_occupancy_table), as the CLI prints them.
#pragma once
#include <string>

#include "app_state.hpp"
#include "imgui.h"

namespace occ::ui {

// [SECTION] State (amd_state.cpp)
// The answer and derived.view for AppState::amd_req (the result part).
void compute_amd_result(AppState& s);
// The heatmap part: occupancy over workgroup size (one column per wave) x VGPRs 0..max.
void refresh_amd_heatmap(AppState& s);
// Makes `target` (a catalogue AMD GPU or a bare target, as io::amd_target gives it) the scenario's
// device; from an NVIDIA scenario the block, registers and shared memory carry over.
void use_amd_target(AppState& s, const io::AmdRequest& target, DeviceKind kind);
// The colour of a mask of AmdLimiter bits (as limiter_color for CUDA's).
ImU32 amd_limiter_color(unsigned amd_bits, float alpha = 1.0f);
// "CU", or "WGP" when the workgroups run on a WGP (RDNA without CU mode).
std::string amd_unit(const AppState& s);

// [SECTION] Views (view_amd.cpp, view_cu.cpp)
void draw_amd_picker_summary(AppState& s);  // the picked GPU or target and its rules, under the list
void draw_amd_inputs(AppState& s);
void draw_cu(AppState& s);  // the CU (WGP) picture: SIMDs and their wave slots
// A view that models NVIDIA GPUs only, with an AMD GPU picked: what it would show and where to look.
void draw_amd_note(const char* view, const char* instead);

}  // namespace occ::ui
