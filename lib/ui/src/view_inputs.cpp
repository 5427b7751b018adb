// view_inputs.cpp — the kernel and launch inputs, one labelled row each, units on every field.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>

#include "amd_ui.hpp"
#include "occ/format.hpp"
#include "occ/io/amd.hpp"
#include "occ/io/api.hpp"
#include "occ/io/binding.hpp"
#include "occ/io/schema.hpp"
#include "occ/io/size.hpp"
#include "occ/text.hpp"
#include "views.hpp"

namespace occ::ui {
namespace {

// The CLI's message for the launch with `spec` set to v: the whole request answered as
// `occ occupancy --batch` answers it (either vendor), so a number beyond the device's limit says
// what the CLI says.
std::string refusal(const AppState& s, const io::FieldSpec& spec, std::int64_t v) {
    io::json req = scenario_request(s);
    if (spec.key == io::fields::threads.key) req.erase(std::string(io::fields::block.key));
    req[std::string(spec.key)] = v;
    const io::json a = io::handle("occupancy", req);
    const auto e = a.find("error");
    return e != a.end() && e->is_string() ? e->get<std::string>() : std::string();
}

// A typed field of the kernel inputs: lo..hi is what the device takes; beyond it the CLI's message.
struct LaunchField {
    const AppState* s;
    const io::FieldSpec* spec;
};
TypedField launch_typed(const LaunchField& ctx, std::int64_t lo, std::int64_t hi, std::int64_t step, std::int64_t fast, const char* unit) {
    TypedField f{ctx.spec, lo, hi, step, fast, unit};
    f.ctx = &ctx;
    f.refuse = [](const void* c, std::int64_t x) {
        const LaunchField& l = *static_cast<const LaunchField*>(c);
        return refusal(*l.s, *l.spec, x);
    };
    return f;
}
template <typename V>
bool launch_field(const AppState& s, const char* id, const io::FieldSpec& spec, V& v, std::int64_t lo, std::int64_t hi, std::int64_t step,
                  std::int64_t fast, const char* unit) {
    const LaunchField ctx{&s, &spec};
    return typed_input(id, launch_typed(ctx, lo, hi, step, fast, unit), v);
}

}  // namespace

bool choice_combo(const char* id, int& index, const io::FieldSpec& spec) {
    std::string items;  // "none\0shared\0...\0\0", as ImGui::Combo takes them
    for (int n = 0; !io::choice_name(spec, n).empty(); ++n) (items += io::choice_name(spec, n)) += '\0';
    ImGui::SetNextItemWidth(-FLT_MIN);
    return ImGui::Combo(id, &index, items.c_str());
}

// The grid row of both vendors' inputs: the grid field, its count in `unit` ("blocks", "workgroups").
bool grid_row(std::int64_t& grid, const char* unit) {
    std::string tip = std::string(unit) + " in the grid (optional, 0 = not given).";
    tip[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(tip[0])));
    input_row("Grid", tip.c_str());
    return typed_input("##grid", TypedField{&io::fields::grid, 0, io::fields::grid.hi, 1, 1024, unit}, grid);
}

// An AMD GPU or target: the fields io::read_amd_request takes, labelled in AMD's words, each clamped
// to the target's limits (occ::amd::AmdArch, the ones the model's errors name).
void draw_amd_inputs(AppState& s) {
    section("Kernel and launch");
    io::AmdRequest& r = s.amd_req;
    if (!r.arch) return;
    const amd::AmdArch& a = *r.arch;
    amd::AmdKernel& k = r.kernel;
    amd::AmdLaunch& l = r.launch;
    const int wave = s.derived.amd.result.wave_size > 0 ? s.derived.amd.result.wave_size : a.default_wave_size;
    bool changed = false;
    if (!ImGui::BeginTable("inputs", 2, ImGuiTableFlags_SizingStretchProp)) return;
    ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthFixed, em(9.5f));
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
    auto int_row = [&](const char* label, const char* tip, const char* id, const io::FieldSpec& spec, int& v, int hi, int small, int big,
                       const char* unit) {
        input_row(label, tip);
        changed |= launch_field(s, id, spec, v, 0, hi, small, big, unit);
    };
    input_row("Workgroup", "Threads per workgroup (the block of hipLaunchKernelGGL); waves = ceil(threads / wave size).");
    if (launch_field(s, "##threads", io::fields::threads, l.threads, 1, a.max_threads_per_workgroup, wave, 4 * wave, "threads")) {
        r.block = {l.threads, 1, 1};
        changed = true;
    }
    if (r.block[1] > 1 || r.block[2] > 1) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(1);
        ImGui::TextDisabled("= %d x %d x %d", r.block[0], r.block[1], r.block[2]);
    }
    int_row("VGPRs", "Arch VGPRs per lane (the kernel's .vgpr_count, llc's NumVgprs): the regs field.", "##regs", io::fields::regs, k.vgprs,
            a.max_vgprs, 1, 8, "/ lane");
    if (a.agprs != amd::AgprFile::none)
        int_row("AGPRs", io::fields::agprs.help.data(), "##agprs", io::fields::agprs, k.agprs, a.max_vgprs, 1, 8, "/ lane");
    int_row("SGPRs", io::fields::sgprs.help.data(), "##sgprs", io::fields::sgprs, k.sgprs, a.max_sgprs, 1, 8, "/ wave");
    input_row("LDS static", "Static LDS per workgroup (__shared__ arrays; .group_segment_fixed_size): the smem_static field.");
    changed |= launch_field(s, "##smem_static", io::fields::smem_static, k.lds_bytes, 0, a.lds_per_workgroup, 1024, 16384, nullptr);
    input_row("LDS dynamic", "Dynamic LDS per workgroup (hipLaunchKernelGGL's sharedMemBytes): the smem_dynamic field.");
    changed |= launch_field(s, "##smem_dynamic", io::fields::smem_dynamic, l.lds_dynamic, 0, a.lds_per_workgroup, 1024, 16384, nullptr);
    if (a.wave32 && a.wave64) {
        input_row("Wave size", io::fields::wave_size.help.data());
        // The field's values: 0 (the target's own), 32, 64.
        const std::string own = "default (" + std::to_string(a.default_wave_size) + ")";
        const std::string items = own + '\0' + "32" + '\0' + "64" + '\0' + '\0';
        int i = l.wave_size == 32 ? 1 : l.wave_size == 64 ? 2 : 0;
        ImGui::SetNextItemWidth(-FLT_MIN);
        if (ImGui::Combo("##wave", &i, items.c_str())) {
            l.wave_size = i == 1 ? 32 : i == 2 ? 64 : 0;
            changed = true;
        }
    }
    if (a.has_wgp_mode) {
        input_row("CU mode", io::fields::cu_mode.help.data());
        changed |= ImGui::Checkbox("-mcumode##cu", &l.cu_mode);
    }
    changed |= grid_row(r.grid, "workgroups");
    ImGui::EndTable();
    if (changed) mark_changed(s);
}

void draw_inputs(AppState& s) {
    if (s.amd) return draw_amd_inputs(s);
    section("Kernel and launch");
    KernelResources& k = s.req.kernel;
    LaunchConfig& l = s.req.launch;
    const ArchRules& a = s.req.device.arch;
    bool changed = false;
    if (!ImGui::BeginTable("inputs", 2, ImGuiTableFlags_SizingStretchProp)) return;
    ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthFixed, em(9.5f));
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);

    // The 3-D tick sits in the label column, so a narrow panel leaves the number its room.
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Block");
    item_tooltip("Threads per block (blockDim.x * y * z). Warps per block = ceil(threads / 32). Tick 3-D to enter x, y, z.");
    ImGui::SameLine();
    if (ImGui::Checkbox("3-D", &s.block_3d)) {
        sync_block(s);
        changed = true;
    }
    ImGui::TableSetColumnIndex(1);
    if (s.block_3d) {
        ImGui::SetNextItemWidth(-FLT_MIN);
        if (ImGui::InputInt3("##block3", s.req.block)) {
            s.req.block[0] = std::clamp(s.req.block[0], 1, kMaxBlockDimXY);
            s.req.block[1] = std::clamp(s.req.block[1], 1, kMaxBlockDimXY);
            s.req.block[2] = std::clamp(s.req.block[2], 1, kMaxBlockDimZ);
            sync_block(s);
            changed = true;
        }
    } else {
        if (launch_field(s, "##threads", io::fields::threads, l.threads, 1, a.max_threads_per_block, 32, 128, "threads")) {
            sync_block(s);
            changed = true;
        }
    }
    if (s.block_3d) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(1);
        ImGui::TextDisabled("= %d threads", l.threads);
    }

    input_row("Registers", "Registers per thread, from ptxas -v or cudaFuncGetAttributes (numRegs). Allocated per warp in units of 256.");
    changed |= launch_field(s, "##regs", io::fields::regs, k.regs_per_thread, 0, a.max_regs_per_thread, 1, 8, "/ thread");

    input_row("Static shared", "__shared__ arrays declared in the kernel (ptxas -v: smem).");
    changed |= launch_field(s, "##smem_static", io::fields::smem_static, k.smem_static, 0, a.smem_per_block_optin, 1024, 16384, nullptr);
    input_row("Dynamic shared", "The third <<< >>> launch argument.");
    changed |= launch_field(s, "##smem_dynamic", io::fields::smem_dynamic, l.smem_dynamic, 0, a.smem_per_block_optin, 1024, 16384, nullptr);

    input_row("Opt-in", "cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, ...): needed above 48 KiB per block (7.0+).");
    char optin_label[64];
    std::snprintf(optin_label, sizeof optin_label, "up to %s / block", format_bytes(a.smem_per_block_optin).c_str());
    changed |= ImGui::Checkbox(optin_label, &k.optin);

    input_row("Carveout",
              "cudaFuncAttributePreferredSharedMemoryCarveout: percent of the unified L1/shared array preferred as shared "
              "memory. The driver rounds up to a supported size, or picks the smallest size that fits one block.");
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::SliderInt("##carveout", &l.carveout, -1, 100, l.carveout < 0 ? "default" : "%d %%")) changed = true;

    if (a.carveout_step_count == 0 || l.cache_config != CacheConfig::none) {
        input_row("Cache config",
                  "cudaFuncSetCacheConfig (Kepler-era preference); on Volta+ it only matters when the carveout is default.");
        changed |= choice_combo("##cache", l.cache_config, io::fields::cache_config);
    }

    input_row("Barriers", "Named barriers the kernel uses (barrier 0 is __syncthreads). Counted against the SM from 9.0 on.");
    changed |= launch_field(s, "##barriers", io::fields::barriers, k.barriers, 0, kMaxNamedBarriers, 1, 4, "/ block");

    if (a.tmem_columns_per_sm > 0 || k.tmem_columns > 0) {
        input_row("TMEM", io::fields::tmem_columns.help.data());
        static const int kColumns[] = {0, 32, 64, 128, 256, 512};
        const std::string now = k.tmem_columns == 0 ? std::string("none") : std::to_string(k.tmem_columns) + " columns";
        ImGui::SetNextItemWidth(-FLT_MIN);
        if (ImGui::BeginCombo("##tmem", now.c_str())) {
            for (const int c : kColumns) {
                const std::string label = c == 0 ? std::string("none") : std::to_string(c) + " columns";
                if (ImGui::Selectable(label.c_str(), c == k.tmem_columns)) {
                    k.tmem_columns = c;
                    changed = true;
                }
            }
            ImGui::EndCombo();
        }
    }

    if (a.cc_major >= 9 || !s.req.warpgroup_regs.empty()) {
        input_row("Register plan", io::fields::warpgroup_regs.help.data());
        // The text follows the request unless it is being edited; a list that does not parse keeps the last good plan.
        static std::string text;
        static bool editing = false;
        if (!editing) {
            text.clear();
            for (const int v : s.req.warpgroup_regs) join_into(text, ",", std::to_string(v));
        }
        ImGui::SetNextItemWidth(-FLT_MIN);
        if (input_text_hint("##wgregs", "setmaxnreg per warpgroup, e.g. 24,240,240", text)) {
            if (const auto plan = io::parse_int_list(text, io::fields::warpgroup_regs, 8)) {
                s.req.warpgroup_regs = *plan;
                changed = true;
            }
        }
        editing = ImGui::IsItemActive();
    }

    if (a.partitioned_gc_supported) {
        input_row("Partitioned GC", "Partitioned global caching (-Xptxas -dlcm=ca on 5.2/5.3/6.1/6.2): a block lives in half an SM.");
        changed |= choice_combo("##pgc", k.partitioned_gc, io::fields::partitioned_gc);
    }

    changed |= grid_row(l.grid_blocks, "blocks");
    ImGui::EndTable();
    if (changed) mark_changed(s);
}

}  // namespace occ::ui
