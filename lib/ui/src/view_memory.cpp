// view_memory.cpp — global-memory coalescing and shared-memory bank conflicts.
// Placeholder until the memory models (occ/coalescing.hpp, occ/banks.hpp, issue 4) land.
#include "views.hpp"

namespace occ::ui {

void draw_memory(AppState&) {
    section("Memory");
    ImGui::TextUnformatted("Memory view: coalescing and bank conflicts - coming with issue 4.");
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("It will draw a warp's lanes mapped to 32-byte sectors, and the 32 shared-memory banks with "
                        "colliding lanes marked, with padding and swizzle toggles that show the fix.");
    ImGui::PopTextWrapPos();
}

}  // namespace occ::ui
