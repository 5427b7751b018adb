// view_amd.cpp — the picked AMD target's summary under the device list, and the note the views that
// model NVIDIA GPUs only show instead of numbers (the result panel is view_result.cpp's, for both).
#include <algorithm>
#include <string>
#include <vector>

#include "amd_ui.hpp"
#include "occ/format.hpp"
#include "views.hpp"

namespace occ::ui {
void draw_amd_picker_summary(AppState& s) {
    const io::AmdRequest& r = s.amd_req;
    if (!r.arch) return;
    const amd::AmdArch& a = *r.arch;
    const std::string name = io::amd_target_name(r);
    if (r.gpu)
        ImGui::TextWrapped("%s: %.*s %.*s, %d CUs", name.c_str(), static_cast<int>(a.isa.size()), a.isa.data(),
                           static_cast<int>(a.family.size()), a.family.data(), r.gpu->sm_count);
    else
        ImGui::TextWrapped("%s: %.*s, one %s", name.c_str(), static_cast<int>(a.family.size()), a.family.data(),
                           a.has_wgp_mode && !r.launch.cu_mode ? "WGP" : "CU");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    // RDNA: a WGP is two CUs (docs/AMD.md, rule 7).
    ImGui::TextWrapped("%d SIMDs and %s LDS per CU%s · %d waves/SIMD · wave%s", a.simds_per_cu, format_bytes(a.lds_per_cu).c_str(),
                       a.has_wgp_mode ? ", WGP of two CUs" : "", a.max_waves_per_simd,
                       a.wave32 && a.wave64 ? "32/64"
                       : a.wave32           ? "32"
                                            : "64");
    ImGui::PopStyleColor();
    item_tooltip(r.gpu ? r.gpu->source : "The target's rules: docs/AMD.md");
}

void draw_amd_note(const char* view, const char* instead) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped(std::string(view) + ": NVIDIA GPUs only, so nothing is drawn for an AMD GPU rather than wrong numbers. " + instead);
    ImGui::PopStyleColor();
}

}  // namespace occ::ui
