// view_hints.cpp — what to change next. The numbers come from occ::core's advisor via
// AppState::derived.hints; this file only words them.
#include <cstdarg>
#include <cstdio>
#include <string>

#include "occ/format.hpp"
#include "views.hpp"

namespace occ::ui {
namespace {

// ImGui's BulletText does not wrap; a bullet followed by wrapped text does. printf-checked.
void bullet(const char* fmt, ...) IM_FMTARGS(1);
void bullet(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    ImGui::Bullet();
    ImGui::TextWrappedV(fmt, args);
    va_end(args);
}

void use_block_size(AppState& s, int threads) {
    s.block_3d = false;
    s.req.launch.threads = threads;
    sync_block(s);
    mark_changed(s);
}

}  // namespace

void draw_hints(AppState& s) {
    const Hints& h = s.derived.hints;
    const OccupancyResult& r = s.derived.result;
    section("Hints");
    ImGui::PushTextWrapPos(0);
    if (h.valid) {
        if (h.regs_unbounded)
            bullet("Registers: any count up to the maximum (%d / thread) keeps %d blocks.", s.req.device.arch.max_regs_per_thread,
                   r.blocks_per_sm);
        else if (h.regs_max_same > h.regs_now)
            bullet("Registers: you may add %d (up to %d / thread) before losing a block.", h.regs_max_same - h.regs_now, h.regs_max_same);
        else bullet("Registers: one more register per thread costs a block.");
        if (h.regs_to_gain >= 0)
            bullet("Cut %d registers (to %d / thread) to reach %d blocks, %s occupancy.", h.regs_now - h.regs_to_gain, h.regs_to_gain,
                   h.regs_gain_blocks, format_percent(h.regs_gain_occupancy).c_str());
        else if (!h.regs_note.empty()) bullet("Cutting registers gains nothing: %s.", h.regs_note.c_str());
        const std::int64_t smem = s.req.launch.smem_dynamic;
        if (h.smem_max_same > smem)
            bullet("Shared memory: %s more dynamic per block (up to %s) keeps %d blocks.", format_bytes(h.smem_max_same - smem).c_str(),
                   format_bytes(h.smem_max_same).c_str(), r.blocks_per_sm);
        else if (h.smem_max_same >= 0) bullet("Shared memory: any more dynamic shared memory costs a block.");
        if (h.smem_to_gain >= 0 && h.smem_to_gain < smem)
            bullet("Cut dynamic shared memory to %s per block to reach %d blocks.", format_bytes(h.smem_to_gain).c_str(),
                   h.smem_gain_blocks);
    } else {
        bullet("No block fits with these inputs; the result says why.");
    }
    if (h.best_block > 0) {
        bullet("Best block size: %d threads, %s occupancy (cudaOccupancyMaxPotentialBlockSize's pick).", h.best_block,
               format_percent(h.best_occupancy).c_str());
        if (h.best_threads.size() > 1) {
            std::string list;
            for (std::size_t i = 0; i < h.best_threads.size() && i < 12; ++i) list += (i ? ", " : "") + std::to_string(h.best_threads[i]);
            if (h.best_threads.size() > 12) list += ", ...";
            ImGui::Indent();
            ImGui::TextDisabled("Equally good: %s", list.c_str());
            ImGui::Unindent();
        }
        if (h.best_block != s.req.launch.threads) {
            char label[48];
            std::snprintf(label, sizeof label, "Use %d threads##best", h.best_block);
            ImGui::Indent();
            if (ImGui::SmallButton(label)) use_block_size(s, h.best_block);
            ImGui::Unindent();
        }
    }
    ImGui::PopTextWrapPos();
}

}  // namespace occ::ui
