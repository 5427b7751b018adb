// kinds.cpp — the launch bindings and the one table of request kinds (occ/io/schema.hpp); the
// field descriptions themselves are occ/io/schema_launch.hpp and occ/io/schema_memory.hpp.
#include <algorithm>
#include <array>
#include <string>

#include "occ/io/amd.hpp"
#include "occ/io/amd_banks.hpp"
#include "occ/io/api.hpp"
#include "occ/io/binary.hpp"
#include "occ/io/binding.hpp"
#include "occ/io/ncu.hpp"
#include "occ/io/ptx_memory.hpp"
#include "occ/io/schema.hpp"

namespace occ::io {

std::string flag_name(std::string_view key) {
    std::string s = "--";
    for (char c : key) s += c == '_' ? '-' : c;
    return s;
}

// [SECTION] Launch bindings
// The occupancy launch's plain fields, bound to the members they fill, in the order the echo
// writes them and the flags are listed. threads and block fill the same member and are read by
// read_occupancy_request itself; the device by read_device.
namespace {
using namespace fields;
using R = OccupancyRequest;
using K = KernelResources;
using L = LaunchConfig;
constexpr FieldBinding<R> kLaunchBindings[] = {
    bind<&R::kernel, &K::regs_per_thread>(regs, Fast::query, Echo::always, From::artefact),
    bind<&R::kernel, &K::smem_static>(smem_static, Fast::query, Echo::always, From::artefact),
    bind<&R::launch, &L::smem_dynamic>(smem_dynamic, Fast::query),
    bind<&R::launch, &L::carveout>(carveout, Fast::device),
    bind<&R::launch, &L::cache_config>(cache_config, Fast::device),
    bind<&R::kernel, &K::optin>(optin, Fast::query),
    bind<&R::kernel, &K::max_dynamic_smem>(max_dynamic_smem, Fast::general, Echo::unless_default),
    bind<&R::kernel, &K::barriers>(barriers, Fast::query, Echo::always, From::artefact),
    bind<&R::kernel, &K::partitioned_gc>(partitioned_gc, Fast::device),
    bind<&R::launch, &L::grid_blocks>(grid, Fast::no_count, Echo::unless_default),
    bind<&R::kernel, &K::virtual_resources>(virtual_resources, Fast::query, Echo::unless_default),
    bind<&R::kernel, &K::max_threads>(max_threads, Fast::general, Echo::unless_default),
    bind<&R::kernel, &K::tmem_columns>(tmem_columns, Fast::no_count, Echo::unless_default),
};

// The AMD occupancy request's plain fields (occ/io/amd.hpp), bound the same way: the reader
// (read_amd_request), the echo (amd_request_to_json), what an AMD request takes ("AMD takes ..."
// in a refusal) and the AMD-only fields of the kinds come from this table. Shared fields are the
// same descriptions as the launch's (regs, smem_*, grid, max_threads); the others are AMD's own.
// No fast path answers AMD requests: every field is Fast::general, grid Fast::no_count as the launch's.
using A = AmdRequest;
using AK = amd::AmdKernel;
using AL = amd::AmdLaunch;
constexpr FieldBinding<A> kAmdBindings[] = {
    bind<&A::kernel, &AK::vgprs>(regs, Fast::general),
    bind<&A::kernel, &AK::agprs>(agprs, Fast::general),
    bind<&A::kernel, &AK::sgprs>(sgprs, Fast::general),
    bind<&A::kernel, &AK::lds_bytes>(smem_static, Fast::general),
    bind<&A::launch, &AL::lds_dynamic>(smem_dynamic, Fast::general),
    bind<&A::launch, &AL::wave_size>(wave_size, Fast::general),
    bind<&A::launch, &AL::cu_mode>(cu_mode, Fast::general),
    bind<&A::grid>(grid, Fast::no_count, Echo::unless_default),
    bind<&A::kernel, &AK::max_threads>(max_threads, Fast::general, Echo::unless_default),
};

// [SECTION] Kinds
template <std::size_t... N>
constexpr auto join(const std::array<const FieldSpec*, N>&... parts) {
    std::array<const FieldSpec*, (N + ...)> out{};
    std::size_t i = 0;
    ((std::copy(parts.begin(), parts.end(), out.begin() + i), i += N), ...);
    return out;
}
template <typename... F>
constexpr auto specs(const F&... f) {
    return std::array<const FieldSpec*, sizeof...(F)>{&f...};
}
// The launch fields a request gives: all of them, or (without_artefact) those a compiled kernel does not.
constexpr std::size_t launch_count(bool without_artefact) {
    std::size_t n = 0;
    for (const auto& b : kLaunchBindings) n += !(without_artefact && b.from == From::artefact);
    return n;
}
template <bool WithoutArtefact>
constexpr auto launch_specs() {
    std::array<const FieldSpec*, launch_count(WithoutArtefact)> out{};
    std::size_t i = 0;
    for (const auto& b : kLaunchBindings)
        if (!(WithoutArtefact && b.from == From::artefact)) out[i++] = b.spec;
    return out;
}
constexpr auto kDevice = specs(gpu, cc, device);
constexpr auto kLaunch = join(specs(threads, block), launch_specs<false>(), specs(warpgroup_regs));

// The AMD-only fields: arch, and each AMD binding the launch does not bind.
constexpr bool launch_binds(const FieldSpec* s) {
    for (const auto& b : kLaunchBindings)
        if (b.spec == s) return true;
    return false;
}
constexpr std::size_t amd_only_count() {
    std::size_t n = 1;
    for (const auto& b : kAmdBindings) n += !launch_binds(b.spec);
    return n;
}
constexpr auto amd_only_specs() {
    std::array<const FieldSpec*, amd_only_count()> out{&arch};
    std::size_t i = 1;
    for (const auto& b : kAmdBindings)
        if (!launch_binds(b.spec)) out[i++] = b.spec;
    return out;
}
constexpr auto kAmdOnly = amd_only_specs();
constexpr auto kOccupancy = join(kDevice, kLaunch, kAmdOnly, specs(sweep, id));
// advise and waves answer for AMD GPUs too (occ/io/amd.hpp, api_advisor.cpp).
constexpr auto kAdvise = join(kDevice, kLaunch, kAmdOnly,
                              specs(smem_per_thread, smem_fixed, block_size_limit, target_blocks, cluster_size, non_portable, gpc_sms, id));
constexpr auto kWaves = join(kDevice, kLaunch, kAmdOnly, specs(id));
constexpr auto kClusters = join(kDevice, kLaunch, specs(cluster_size_required, non_portable, gpc_sms, id));
// Registers, static shared memory and barriers come from the log.
// AMD: arch instead of gpu, wave_size and cu_mode (the kernels' registers and LDS come from the artefact).
constexpr auto kPtxas = join(specs(log), kDevice, specs(arch, threads, block), launch_specs<true>(), specs(wave_size, cu_mode, id));
constexpr auto kKernels = join(specs(files), kDevice, specs(arch, threads, block), launch_specs<true>(), specs(wave_size, cu_mode, id));
constexpr auto kNcu = join(specs(ncu_text), kDevice, specs(id));
constexpr auto kMemory = join(
    kDevice, specs(access_bytes, elem_bytes, mem_op, pattern, active_lanes, addresses, base, offset, stride, mem_threads, mem_block, pitch,
                   pad, swizzle, order, seed, range, tile, tile_access, ldmatrix, cute_swizzle, tma_swizzle, rotate, global_pitch,
                   global_base, expr, array, consts, block_idx, grid_dim, warp, id));
// Banks also answers for AMD GPUs (occ/io/amd_banks.hpp): an LLVM target instead of a GPU, and the wave size.
constexpr auto kBanks = join(kMemory, specs(arch, wave_size));
// A kernel's PTX run warp by warp: the launch is blockDim and gridDim themselves (a PTX has no
// registers or shared-memory sizes to give).
[[maybe_unused]] constexpr auto kPtxMemory = join(
    kDevice, specs(ptx_text, ptx_triton, ptx_kernel, ptx_block, ptx_grid, ptx_params, ptx_warps, ptx_max_visits, ptx_unknown_branch, id));
constexpr auto kRoofline = specs(roof_gpu, op, dtype, m, n, k, seq_len, head_dim, heads, batch, elements, inputs, flops_per_element, rows,
                                 cols, flops, bytes, precision, memory, measured_ms, peak_tflops, bandwidth_gbps, compare, ops, id);

const KindSpec kKinds[] = {
    {"occupancy", "Theoretical occupancy of a kernel launch on one SM", kOccupancy, "", &api_occupancy, &api_amd_occupancy},
    {"advise", "Launch advisor: best block size, register/shared-memory headroom, waves, clusters", kAdvise, "occupancy,clusters",
     &api_advise, &api_amd_advise},
    {"waves", "Blocks per wave, waves and the tail of a grid", kWaves, "occupancy", &api_waves, &api_amd_waves},
    {"clusters", "Thread block clusters (9.0+): active clusters per GPU", kClusters, "occupancy", &api_clusters},
    {"ptxas", "Occupancy of every kernel in an nvcc -Xptxas -v / cuobjdump log", kPtxas, "occupancy", &api_ptxas},
    {"kernels", "Occupancy of every kernel in cubins, fatbins, objects, libraries and executables", kKernels, "occupancy", &api_kernels},
    {"coalesce", "Global-memory coalescing: sectors, lines, efficiency (cc >= 6.0)", kMemory, "occupancy", &api_coalesce},
    {"banks", "Shared-memory (LDS) bank conflicts: wavefronts, n-way, lanes (cc >= 5.0; AMD GPUs)", kBanks, "occupancy", &api_banks,
     &api_amd_banks},
#ifndef __EMSCRIPTEN__
    // Not in the page yet: it has no view for it, and the PTX reader and warp interpreter would add
    // 38 KB to its download (measured: 554,349 B gzipped against the 517,000 B budget).
    {"memory", "Every global and shared access of a kernel's PTX, costed per instruction and source line", kPtxMemory, "occupancy",
     &api_ptx_memory},
#endif
    {"roofline", "Roofline: intensity, attainable FLOP/s, ridge point and bound of an operation", kRoofline, "occupancy", &api_roofline},
    {"ncu", "An Nsight Compute report next to occ's prediction, line by line", kNcu, "occupancy", &api_ncu},
    {"gpus", "The GPUs and compute capabilities occ knows", {}, "", &api_gpus},
    {"roofline_devices", "The devices with roofline figures", {}, "", &api_roofline_devices},
};

}  // namespace

std::span<const FieldBinding<OccupancyRequest>> launch_bindings() { return kLaunchBindings; }

bool prepared_takes(const OccupancyRequest& r) {
    for (const FieldBinding<OccupancyRequest>& b : kLaunchBindings)
        if (b.fast == Fast::general && b.get(r) != b.def) return false;
    return true;
}
std::span<const FieldSpec* const> amd_only_fields() { return kAmdOnly; }
std::span<const FieldBinding<AmdRequest>> amd_bindings() { return kAmdBindings; }

std::span<const KindSpec> request_kinds() { return kKinds; }

const KindSpec* find_kind(std::string_view name) {
    for (const KindSpec& k : kKinds)
        if (k.name == name) return &k;
    return nullptr;
}

const FieldSpec* find_field(const KindSpec& kind, std::string_view key) {
    for (const FieldSpec* f : kind.fields)
        if (f->key == key) return f;
    return nullptr;
}

}  // namespace occ::io
