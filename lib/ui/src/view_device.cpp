// view_device.cpp — the GPU picker: a named GPU (NVIDIA or AMD, with a vendor filter and search), a
// bare compute capability, a bare AMD target (gfx942), or a custom device whose limits the user edits.
#include <cstdio>
#include <string>

#include <span>

#include "amd_ui.hpp"
#include "occ/amd.hpp"
#include "occ/format.hpp"
#include "occ/io/schema.hpp"
#include "occ/names.hpp"
#include "views.hpp"

namespace occ::ui {
namespace {

// Lower-case letters and digits only, so "rtx 4090", "RTX-4090" and "rtx4090" all match.
std::string fold(std::string_view s) { return fold_name(s); }

bool matches(const GpuEntry& g, const std::string& needle) {
    if (needle.empty()) return true;
    if (fold(g.vendor).find(needle) != std::string::npos) return true;
    if (const amd::AmdArch* t = amd::amd_arch_of(g))
        return fold(g.name).find(needle) != std::string::npos || fold(g.aliases).find(needle) != std::string::npos ||
               fold(t->isa).find(needle) != std::string::npos || fold(t->family).find(needle) != std::string::npos;
    char cc[16];
    std::snprintf(cc, sizeof cc, "%d%d", g.cc_major, g.cc_minor);
    const ArchRules* a = find_arch(g.cc_major, g.cc_minor);
    return fold(g.name).find(needle) != std::string::npos || fold(g.aliases).find(needle) != std::string::npos ||
           fold(g.driver_names).find(needle) != std::string::npos || needle == cc ||
           (a && fold(a->family).find(needle) != std::string::npos);
}

void set_device(AppState& s, Device d, DeviceKind kind) {
    s.amd = false;
    s.req.device = std::move(d);
    s.device_kind = kind;
    // Keep the block legal on parts with smaller limits.
    if (s.req.launch.threads > s.req.device.arch.max_threads_per_block && !s.block_3d) {
        s.req.launch.threads = s.req.device.arch.max_threads_per_block;
        sync_block(s);
    }
    mark_changed(s);
}

bool arch_combo(const char* label, int& major, int& minor) {
    char preview[48];
    const ArchRules* cur = find_arch(major, minor);
    std::snprintf(preview, sizeof preview, "%d.%d  %s", major, minor, cur ? cur->family : "?");
    bool changed = false;
    if (ImGui::BeginCombo(label, preview, ImGuiComboFlags_HeightLarge)) {
        for (const ArchRules& a : all_archs()) {
            char item[48];
            std::snprintf(item, sizeof item, "%d.%d  %s", a.cc_major, a.cc_minor, a.family);
            const bool sel = a.cc_major == major && a.cc_minor == minor;
            if (ImGui::Selectable(item, sel)) {
                major = a.cc_major;
                minor = a.cc_minor;
                changed = true;
            }
            if (sel) ImGui::SetItemDefaultFocus();
        }
        ImGui::EndCombo();
    }
    return changed;
}

// The AMD targets occ models, "gfx942  CDNA3".
bool amd_target_combo(const char* id, const amd::AmdArch*& cur) {
    char preview[48];
    std::snprintf(preview, sizeof preview, "%.*s  %.*s", static_cast<int>(cur ? cur->isa.size() : 1), cur ? cur->isa.data() : "?",
                  static_cast<int>(cur ? cur->family.size() : 0), cur ? cur->family.data() : "");
    bool changed = false;
    if (ImGui::BeginCombo(id, preview, ImGuiComboFlags_HeightLarge)) {
        for (const amd::AmdArch& a : amd::amd_archs()) {
            char item[48];
            std::snprintf(item, sizeof item, "%.*s  %.*s", static_cast<int>(a.isa.size()), a.isa.data(), static_cast<int>(a.family.size()),
                          a.family.data());
            if (ImGui::Selectable(item, &a == cur)) {
                cur = &a;
                changed = true;
            }
            if (&a == cur) ImGui::SetItemDefaultFocus();
        }
        ImGui::EndCombo();
    }
    return changed;
}

void named_list(AppState& s) {
    // The vendor filter, then the search box in the rest of the row.
    static const char* const kVendors = "All\0NVIDIA\0AMD\0";
    int vendor = static_cast<int>(s.vendor);
    ImGui::SetNextItemWidth(ImGui::CalcTextSize("NVIDIA").x + ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().FramePadding.x);
    if (ImGui::Combo("##vendor", &vendor, kVendors)) s.vendor = static_cast<Vendor>(vendor);
    item_tooltip("Which vendor's GPUs the list shows.");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-FLT_MIN);
    ImGui::InputTextWithHint("##gpu_search", "search: A100, MI300X, 8.9 ...", s.gpu_search, sizeof s.gpu_search);
    const std::string needle = fold(s.gpu_search);
    const char* selected = s.amd ? (s.amd_req.gpu ? s.amd_req.gpu->name : "") : s.req.device.name.c_str();
    if (ImGui::BeginListBox("##gpus", ImVec2(-FLT_MIN, em(8.2f)))) {
        for (const GpuEntry& g : s.vendor == Vendor::amd ? std::span<const GpuEntry>{} : all_gpus()) {
            if (!matches(g, needle)) continue;
            const bool sel = s.device_kind == DeviceKind::named && !s.amd && s.req.device.name == g.name;
            char label[96];
            std::snprintf(label, sizeof label, "%s##%s", g.name, g.name);
            if (ImGui::Selectable(label, sel, 0, ImVec2(0, 0))) {
                if (auto d = find_gpu(g.name)) set_device(s, *d, DeviceKind::named);
            }
            if (sel && ImGui::IsWindowAppearing()) ImGui::SetScrollHereY();
            ImGui::SameLine(ImGui::GetContentRegionAvail().x - em(7.5f) + ImGui::GetCursorPosX() - ImGui::GetStyle().ItemSpacing.x);
            ImGui::TextDisabled("%d.%d  %3d SMs", g.cc_major, g.cc_minor, g.sm_count);
        }
        for (const GpuEntry& g : s.vendor == Vendor::nvidia ? std::span<const GpuEntry>{} : amd_gpus()) {
            if (!matches(g, needle)) continue;
            const amd::AmdArch* t = amd::amd_arch_of(g);
            const bool sel = s.device_kind == DeviceKind::named && s.amd && std::string_view(selected) == g.name;
            char label[96];
            std::snprintf(label, sizeof label, "%s##%s", g.name, g.name);
            if (ImGui::Selectable(label, sel, 0, ImVec2(0, 0))) use_amd_target(s, io::amd_target(g.name), DeviceKind::named);
            if (sel && ImGui::IsWindowAppearing()) ImGui::SetScrollHereY();
            ImGui::SameLine(ImGui::GetContentRegionAvail().x - em(7.5f) + ImGui::GetCursorPosX() - ImGui::GetStyle().ItemSpacing.x);
            ImGui::TextDisabled("%-7.*s %3d CUs", static_cast<int>(t ? t->isa.size() : 0), t ? t->isa.data() : "", g.sm_count);
        }
        ImGui::EndListBox();
    }
}

void custom_editor(AppState& s) {
    Device& d = s.req.device;
    ArchRules& a = d.arch;
    bool changed = false;
    int major = a.cc_major, minor = a.cc_minor;
    ImGui::SetNextItemWidth(em(10));
    if (arch_combo("base compute capability", major, minor)) {
        if (const ArchRules* base = find_arch(major, minor)) {
            a = *base;
            changed = true;
        }
    }
    char name[65];
    std::snprintf(name, sizeof name, "%s", d.name.c_str());
    ImGui::SetNextItemWidth(em(10));
    if (ImGui::InputText("name", name, sizeof name)) {
        d.name = name;
        if (d.name.rfind("cc ", 0) == 0 || d.name.empty()) d.name = "custom";  // "cc x.y" means a bare cc
        changed = true;
    }
    auto int_field = [&](const char* label, int& v, int lo, int hi, const char* tip) {
        ImGui::SetNextItemWidth(em(10));
        if (ImGui::InputInt(label, &v, 0, 0)) {
            v = std::clamp(v, lo, hi);
            changed = true;
        }
        item_tooltip(tip);
    };
    auto bytes_field = [&](const char* label, std::int64_t& v, std::int64_t lo, std::int64_t hi, const char* tip) {
        ImGui::SetNextItemWidth(em(10));
        const ImS64 step = 1024;
        if (ImGui::InputScalar(label, ImGuiDataType_S64, &v, &step, nullptr, "%lld B")) {
            v = std::clamp(v, lo, hi);
            changed = true;
        }
        item_tooltip(tip);
    };
    int_field("SMs", d.sm_count, 1, 1024, "multiProcessorCount");
    int_field("max threads / SM", a.max_threads_per_sm, 32, 4096, "maxThreadsPerMultiProcessor (warps x 32)");
    int_field("max blocks / SM", a.max_blocks_per_sm, 1, 64, "maxBlocksPerMultiProcessor");
    int_field("registers / SM", a.regs_per_sm, 256, 1 << 20, "regsPerMultiprocessor (32-bit registers)");
    int_field("registers / block", a.regs_per_block, 256, 1 << 20, "regsPerBlock");
    bytes_field("shared / SM", a.smem_per_sm, 1, 1 << 24, "sharedMemPerMultiprocessor: the largest carveout");
    bytes_field("shared / block opt-in", a.smem_per_block_optin, 0, 1 << 24, "sharedMemPerBlockOptin");
    bytes_field("reserved / block", a.smem_reserved_per_block, 0, 1 << 16, "reservedSharedMemPerBlock (1 KiB from 8.0)");
    if (a.smem_per_block_optin < a.smem_per_block) a.smem_per_block_optin = a.smem_per_block;
    if (changed) {
        d.segment = Segment::custom;
        mark_changed(s);
    }
}

}  // namespace

void draw_device_picker(AppState& s) {
    section("GPU");
    int kind = static_cast<int>(s.device_kind);
    const int before = kind;
    ImGui::RadioButton("Named", &kind, 0);
    item_tooltip("A GPU from the database (search by name, alias, compute capability or family).");
    const float radio = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x;
    same_line_if_fits(radio + ImGui::CalcTextSize("Compute capability").x);
    ImGui::RadioButton("Compute capability", &kind, 1);
    item_tooltip("A bare architecture: its per-SM limits, one SM.");
    same_line_if_fits(radio + ImGui::CalcTextSize("AMD target").x);
    ImGui::RadioButton("AMD target", &kind, 3);
    item_tooltip(io::fields::arch.help.data());
    same_line_if_fits(radio + ImGui::CalcTextSize("Custom").x);
    ImGui::RadioButton("Custom", &kind, 2);
    item_tooltip("Start from an architecture and edit its limits (cudaDeviceProp fields).");
    if (kind != before) {
        const ArchRules& a = s.req.device.arch;
        if (kind == 0) {
            if (s.amd && s.amd_req.arch) {
                // The catalogue's first GPU of the target, else its first AMD GPU.
                const GpuEntry* pick = amd_gpus().empty() ? nullptr : &amd_gpus().front();
                for (const GpuEntry& g : amd_gpus())
                    if (amd::amd_arch_of(g) == s.amd_req.arch) {
                        pick = &g;
                        break;
                    }
                if (pick) use_amd_target(s, io::amd_target(pick->name), DeviceKind::named);
            } else if (auto d = find_gpu(kDefaultGpu)) {
                set_device(s, *d, DeviceKind::named);
            }
        } else if (kind == 3) {
            use_amd_target(s, io::amd_target(s.amd && s.amd_req.arch ? s.amd_req.arch->isa : std::string_view("gfx942")),
                           DeviceKind::amd_target);
        } else if (kind == 1) {
            if (auto d = device_for_cc(a.cc_major, a.cc_minor)) set_device(s, *d, DeviceKind::cc);
        } else {
            Device d = s.req.device;
            d.name = "custom " + std::to_string(a.cc_major) + "." + std::to_string(a.cc_minor);
            d.segment = Segment::custom;
            set_device(s, d, DeviceKind::custom);
        }
    }
    switch (s.device_kind) {
        case DeviceKind::named: named_list(s); break;
        case DeviceKind::cc: {
            int major = s.req.device.arch.cc_major, minor = s.req.device.arch.cc_minor;
            ImGui::SetNextItemWidth(-FLT_MIN);
            if (arch_combo("##cc", major, minor))
                if (auto d = device_for_cc(major, minor)) set_device(s, *d, DeviceKind::cc);
            break;
        }
        case DeviceKind::custom: custom_editor(s); break;
        case DeviceKind::amd_target: {
            const amd::AmdArch* t = s.amd_req.arch;
            ImGui::SetNextItemWidth(-FLT_MIN);
            if (amd_target_combo("##amd_target", t) && t) use_amd_target(s, io::amd_target(t->isa), DeviceKind::amd_target);
            break;
        }
    }
    if (s.amd) return draw_amd_picker_summary(s);
    const Device& d = s.req.device;
    const ArchRules& a = d.arch;
    ImGui::TextWrapped("%s: cc %d.%d %s, %d SMs", d.name.c_str(), a.cc_major, a.cc_minor, a.family, d.sm_count);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%d warps/SM · %s regs/SM · %s shared/SM · %d blocks/SM", a.max_warps_per_sm(), format_count(a.regs_per_sm).c_str(),
                       format_bytes(a.smem_per_sm).c_str(), a.max_blocks_per_sm);
    ImGui::PopStyleColor();
    item_tooltip(a.source);
}

}  // namespace occ::ui
