// occ/io/amd.hpp — the occupancy request and answer for AMD GPUs (occ/amd.hpp's model).
//
// An occupancy request is for an AMD GPU when its `gpu` names one of the catalogue's AMD GPUs
// ("MI300X", "AMD Instinct MI300X") or it gives `arch` (an LLVM target, "gfx942"). It then takes
// the occupancy kind's fields as HIP names them, read by the same field descriptions:
//   threads | block   workgroup size
//   regs              arch VGPRs per lane (hipcc's .vgpr_count, llc's NumVgprs)
//   agprs             accumulation VGPRs per lane (CDNA), sgprs (wave SGPRs incl. VCC/flat scratch)
//   smem_static       static LDS (.group_segment_fixed_size), smem_dynamic: dynamic LDS
//   wave_size         32 or 64 (0: the target's default), cu_mode (RDNA -mcumode)
//   grid              workgroups in the grid, max_threads: the kernel's .max_flat_workgroup_size
// (the plain fields are bound in kinds.cpp, kAmdBindings) and refuses the NVIDIA-only fields by name. The answer has the CUDA answer's keys, read as
// AMD's words: blocks_per_sm = workgroups per CU (per WGP in WGP mode), warps = waves; plus the
// AMD figures (waves per SIMD, LLVM's estimate), `why` and `fix`.
#pragma once
#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "occ/amd.hpp"
#include "occ/amd_advisor.hpp"
#include "occ/device.hpp"
#include "occ/io/binding.hpp"
#include "occ/io/fields.hpp"
#include "occ/io/table.hpp"

namespace occ::io {

struct AmdRequest {
    const GpuEntry* gpu = nullptr;  // the catalogue GPU; nullptr when given by `arch`
    const amd::AmdArch* arch = nullptr;
    std::array<int, 3> block{256, 1, 1};
    amd::AmdKernel kernel;
    amd::AmdLaunch launch;
    std::int64_t grid = 0;  // workgroups in the grid (0 = not given): the waves over the GPU's CUs
};

struct AmdAnswer {
    json id;  // echoed when the request had one
    AmdRequest input;
    amd::AmdOccupancyResult result;
};

// The request's plain fields bound to the members they fill (kinds.cpp; occ/io/binding.hpp): the
// reader, the echo and the list of what an AMD request takes iterate them.
std::span<const FieldBinding<AmdRequest>> amd_bindings();
// The catalogue AMD GPU or target a name means ("MI300X", "gfx942"); arch nullptr when none.
AmdRequest amd_target(std::string_view name);

// The target of an AMD request: `arch` (a target) or `gpu` (an AMD GPU), not both; each error names
// its field and lists what is known. Every AMD request kind reads its target here.
AmdRequest read_amd_target(FieldReader& f);
// The GPU's catalogue name, or the target's ("gfx942") when the request names only a target.
std::string amd_target_name(const AmdRequest& r);
// "MI300X is an AMD GPU" / "gfx942 is an AMD target", for messages that refuse a field.
std::string amd_device_words(const AmdRequest& r);
// Every AMD target occ models, "gfx908, gfx90a, ...", for messages that list what is known.
std::string amd_target_list();
// Reads the fields above (and refuses the kind's NVIDIA-only fields by name, except `also`: the
// kind's own fields the caller reads, as advise's block_size_limit); the caller finishes.
AmdRequest read_amd_request(FieldReader& f, std::string_view kind = "occupancy", std::span<const FieldSpec* const> also = {});
// On a request for an NVIDIA GPU: the AMD-only fields, refused by name.
void refuse_amd_fields(FieldReader& f, const std::string& device_name);
Result<AmdRequest> read_amd_request(const json& request, std::string_view context);
// The request as the CLI's --batch reads it (gpu or arch, and every field).
json amd_request_to_json(const AmdRequest& r);

Result<AmdAnswer> answer_amd_occupancy(const json& request);
json api_amd_occupancy(const json& request);  // the occupancy kind's AMD answer (KindSpec::answer_amd)
json to_json(const AmdAnswer& a);
// The answer's numbers (the `occupancy` object of a kernel row): limits, limiters, waves, why.
json amd_result_to_json(const amd::AmdOccupancyResult& r);
// The device object: the catalogue entry (name, CUs) and the target's rules.
json amd_device_to_json(const AmdRequest& r);

// The answer as rows (the CLI table, the app's result panel, Markdown/CSV export): the limits
// (kind limit, note = how), the allocated registers and LDS.
std::vector<TableRow> amd_occupancy_table(const AmdAnswer& a);

// The advise kind for an AMD GPU or target (api_advisor.cpp): the CUDA advisor's parts in the same
// JSON shape (block_size, registers = arch VGPRs, shared_memory = dynamic LDS, dynamic_smem_at_target,
// waves, suggestions); the NVIDIA-only parts (clusters, the register plan) are absent, and their
// fields are refused by name. It reads smem_per_thread/smem_fixed (LDS growing with the workgroup),
// block_size_limit, target_blocks (workgroups per CU) and grid besides the occupancy kind's fields.
struct AmdAdviseAnswer {
    json id;
    AmdRequest input;  // launch.lds_dynamic = growth at its threads
    SmemGrowth growth;
    int block_size_limit = 0;
    std::int64_t grid = 0;
    amd::AmdOccupancyResult now;
    amd::AmdBlockSizeAdvice block;
    amd::AmdResourceAdvice vgprs, lds;
    amd::AmdLdsAdvice at_target;  // target_blocks given, else the workgroups the launch has now
    WaveResult waves;
    std::vector<std::string> suggestions;
};
Result<AmdAdviseAnswer> answer_amd_advise(const json& request);
// The same for a request already read (the app's Advisor tab); target_blocks 0 = the workgroups now.
AmdAdviseAnswer amd_advise(const AmdRequest& in, SmemGrowth growth, int block_size_limit, int target_blocks, std::int64_t grid);
json to_json(const AmdAdviseAnswer& a);
// The waves kind for an AMD GPU: workgroups per wave = workgroups per CU (WGP) x CUs (WGPs).
json api_amd_waves(const json& request);
json api_amd_advise(const json& request);

}  // namespace occ::io
