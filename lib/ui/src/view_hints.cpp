// view_hints.cpp — what to change next, read off the core sweeps (AppState::derived.hints).
#include <cstdio>
#include <string>

#include "occ/format.hpp"
#include "views.hpp"

namespace occ::ui {

void draw_hints(AppState& s) {
    const Hints& h = s.derived.hints;
    const OccupancyResult& r = s.derived.result;
    section("Hints");
    ImGui::PushTextWrapPos(0);
    if (h.valid) {
        if (h.regs_unbounded)
            ImGui::Text("Registers: up to the maximum (%d / thread) costs no block.", s.req.device.arch.max_regs_per_thread);
        else if (h.regs_max_same > h.regs_now)
            ImGui::Text("Registers: you may add %d (up to %d / thread) before losing a block.", h.regs_max_same - h.regs_now, h.regs_max_same);
        else
            ImGui::Text("Registers: one more register per thread costs a block.");
        if (h.regs_to_gain >= 0)
            ImGui::Text("Cut %d registers (to %d / thread) to reach %d blocks, %s occupancy.", h.regs_now - h.regs_to_gain, h.regs_to_gain,
                        h.regs_gain_blocks, format_percent(h.regs_gain_occupancy).c_str());
        else
            ImGui::TextDisabled("Cutting registers gains no block: registers are not the limit.");
        if (h.smem_unbounded)
            ImGui::Text("Shared memory: any dynamic size up to the per-block limit keeps %d blocks.", r.blocks_per_sm);
        else if (h.smem_max_same > s.req.launch.smem_dynamic)
            ImGui::Text("Shared memory: %s more dynamic per block (up to %s) keeps %d blocks.",
                        format_bytes(h.smem_max_same - s.req.launch.smem_dynamic).c_str(), format_bytes(h.smem_max_same).c_str(), r.blocks_per_sm);
        else
            ImGui::Text("Shared memory: any more dynamic shared memory costs a block.");
    } else {
        ImGui::TextDisabled("No block fits with these inputs; see the result for why.");
    }
    if (!h.best_threads.empty()) {
        std::string list;
        for (std::size_t i = 0; i < h.best_threads.size() && i < 10; ++i) list += (i ? ", " : "") + std::to_string(h.best_threads[i]);
        if (h.best_threads.size() > 10) list += ", ...";
        ImGui::Text("Best block size: %s occupancy at %s threads.", format_percent(h.best_occupancy).c_str(), list.c_str());
        bool current_best = false;
        for (int t : h.best_threads) current_best |= t == s.req.launch.threads;
        if (!current_best) {
            ImGui::SameLine();
            char label[48];
            std::snprintf(label, sizeof label, "Use %d##best", h.best_threads.front());
            if (ImGui::SmallButton(label)) {
                s.block_3d = false;
                s.req.launch.threads = h.best_threads.front();
                sync_block(s);
                mark_changed(s);
            }
        }
    }
    ImGui::PopTextWrapPos();
}

}  // namespace occ::ui
