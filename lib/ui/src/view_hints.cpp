// view_hints.cpp — what to change next. The numbers come from occ::core's advisor via
// AppState::derived.hints, and so do the sentences (occ/advisor.hpp): the app says what `occ advise` says.
#include <cstdarg>
#include <cstdio>
#include <string>

#include "amd_ui.hpp"
#include "occ/advisor.hpp"
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
    if (s.amd) return;  // the AMD result's "To fit more" line is the advice (occ::amd::amd_fix)
    const Hints& h = s.derived.hints;
    const OccupancyResult& r = s.derived.result;
    section("Hints");
    ImGui::PushTextWrapPos(0);
    // Every sentence is occ::core's (occ/advisor.hpp), worded as `occ advise` words it.
    auto say = [](const std::string& text) {
        if (!text.empty()) bullet("%s", text.c_str());
    };
    if (h.valid) {
        const std::string regs_cut = cut_sentence(Resource::registers, h.regs_now, h.regs_to_gain, h.regs_gain_blocks, r);
        say(regs_cut.empty() ? h.regs_note : regs_cut);
        const std::string regs_room = headroom_sentence(Resource::registers, h.regs_now, h.regs_max_same, r);
        say(regs_room.empty() ? no_headroom_sentence(Resource::registers, r) : regs_room);
        const std::int64_t smem = s.req.launch.smem_dynamic;
        say(cut_sentence(Resource::shared_memory, smem, h.smem_to_gain, h.smem_gain_blocks, r));
        if (h.smem_max_same >= 0) {
            const std::string smem_room = headroom_sentence(Resource::shared_memory, smem, h.smem_max_same, r);
            say(smem_room.empty() ? no_headroom_sentence(Resource::shared_memory, r) : smem_room);
        }
    } else {
        bullet("No block fits with these inputs; the result says why.");
    }
    if (h.best_block > 0) {
        say(best_block_sentence(h.best_block, h.best_occupancy));
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
