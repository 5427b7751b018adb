// dry_run.cpp — `occ-validate --dry-run`: what a run would do, checked as far as a machine without a
// GPU allows. Prints every case (memory cases exactly; occupancy configurations as the case table
// makes them for a 1024-thread kernel and a 227 KB opt-in limit, the GPU's own limits decide the
// rest), configures the counters through CUPTI's host API for each chip the bundle has SASS for (no
// GPU or driver needed: this proves the metric names and the pass counts), names the shared objects
// of the counter stack this process loaded and the optional tools found, and finally asks the CUDA
// runtime for a device.
//
// Exit: 0 a device is there, 4 no usable CUDA device, 1 the plan is broken (bad case, metric refused).
#include <algorithm>
#include <cstdio>

#include "counters.hpp"
#include "gpu.hpp"
#include "harness.hpp"
#include "occ/validation/cases.hpp"
#include "occ/validation/regpool.hpp"
#include "occ/validation/tools.hpp"

namespace occv {
namespace vl = occ::validation;

int dry_run(const Options& opt) {
    int problems = 0;
    std::printf("occ-validate --dry-run (%s): nothing is launched\n", opt.quick ? "quick" : "full");

    // 1. Cases.
    std::size_t occ_cases = 0;
    int index = 0;
    for (const ResidencyKernel& k : residency_kernels()) {
        const auto configs = vl::occupancy_configs({k.name, 1024, k.static_smem}, index++, opt.quick, 232448);
        occ_cases += configs.size();
        if (!opt.occupancy) continue;
        for (const vl::OccConfig& c : configs)
            std::printf("case occupancy occ/%s/t%d/d%lld/c%d%s  (%s)\n", k.name.c_str(), c.threads, static_cast<long long>(c.dynamic_smem),
                        c.carveout, c.optin ? "/optin" : "", k.how.c_str());
    }
    std::vector<vl::MemCase> mem;
    if (opt.coalescing) mem = vl::coalescing_cases(opt.quick);
    if (opt.banks) {
        const auto b = vl::bank_cases(opt.quick);
        mem.insert(mem.end(), b.begin(), b.end());
    }
    for (std::size_t i = 0; i < mem.size(); ++i) {
        const vl::MemCase& c = mem[i];
        const std::string bad = vl::validate_case(c);
        if (!bad.empty()) ++problems;
        std::printf("case %s %s  (%s, range %s, block %dx%d)%s%s\n", vl::kind_name(c.kind), c.id.c_str(), vl::memory_kernel_name(c).c_str(),
                    vl::counter_range_name(i).c_str(), c.block_x, c.block_y, bad.empty() ? "" : "  BAD: ", bad.c_str());
    }
    // Tile cases: occ's expected counter values are printed with each, so the plan shows the predictions.
    const auto tiles = selected_tile_cases(opt);
    for (const vl::TileCase& c : tiles) {
        const std::string bad = vl::validate_tile_case(c);
        if (!bad.empty()) ++problems;
        const vl::TilePrediction p = vl::predict_tile(c);
        std::printf("case %s %s  (%s, sm_%d+, expect instructions %lld wavefronts %lld bank_conflicts %lld (%d-way)", vl::kind_name(c.kind),
                    c.id.c_str(), c.kernel().c_str(), c.min_cc(), static_cast<long long>(p.instructions),
                    static_cast<long long>(p.wavefronts), static_cast<long long>(p.conflicts), p.max_way);
        if (c.kind == vl::Kind::coalescing)
            std::printf(" requests %lld sectors %lld", static_cast<long long>(p.requests), static_cast<long long>(p.sectors));
        std::printf(")%s%s\n", bad.empty() ? "" : "  BAD: ", bad.c_str());
    }
    // setmaxnreg plans (sm_90a SASS, cc 9.0) and Tensor Memory (sm_100a SASS, cc 10.0), with occ's answers
    // on an H100 and a B200 (the launch count before the GPU reports the compiled one).
    std::size_t arch_cases = 0;
    if (opt.occupancy) {
        const auto names_of = [](const auto& kernels) {
            std::vector<std::string> n;
            for (const auto& k : kernels) n.push_back(k.name);
            return n;
        };
        const auto rk = names_of(regpool_kernels()), tk = names_of(tmem_kernels());
        const auto have = [](const std::vector<std::string>& v, const std::string& n) {
            return std::find(v.begin(), v.end(), n) != v.end();
        };
        const occ::Device h100 = *occ::device_for_cc(vl::kRegPoolCcMajor, vl::kRegPoolCcMinor);
        const occ::Device b200 = *occ::device_for_cc(vl::kTmemCcMajor, vl::kTmemCcMinor);
        for (const vl::RegPlanCase& c : vl::regpool_cases()) {
            const vl::RegPlanPrediction p = vl::predict_regpool(c, h100, c.launch_regs());
            const bool bad = !p.pool.error.empty() || !have(rk, c.kernel);
            if (bad) ++problems;
            std::printf("case occupancy %s  (%s, sm_90a, cc 9.0 only, launch %d, expect launch_regs %d blocks_per_sm %d fits %d: %s)%s\n",
                        c.id.c_str(), c.kernel.c_str(), c.launch_regs(), c.launch_regs(), p.blocks_per_sm, p.pool.fits ? 1 : 0,
                        p.pool.error.empty() ? p.pool.summary.c_str() : p.pool.error.c_str(), bad ? "  BAD: no such kernel or plan" : "");
            ++arch_cases;
        }
        for (const vl::TmemCase& c : vl::tmem_cases()) {
            const bool bad = !have(tk, c.kernel);
            if (bad) ++problems;
            std::printf("case occupancy %s  (%s, sm_100a, %s, expect tmem_blocks_per_sm %d)%s\n", c.id.c_str(), c.kernel.c_str(),
                        vl::kTmemNeeds, vl::predict_tmem(c, b200, 16), bad ? "  BAD: no such kernel" : "");
            ++arch_cases;
        }
        std::printf("plan: the setmaxnreg plan that does not fit runs last, guarded by a timeout (README section 6)\n");
    }
    std::printf(
        "plan: %zu occupancy cases (before the GPU's limits), %zu setmaxnreg/Tensor Memory cases, %zu memory cases, %zu tile cases, "
        "device constants\n",
        opt.occupancy ? occ_cases : 0, arch_cases, mem.size(), tiles.size());

    // 2. Counters: CUPTI's host API configures each metric set for each chip, without a GPU.
    const CuptiInfo info = cupti_info();
    if (!info.built_in) {
        std::printf("counters: %s; a run would use ncu or timing estimates\n", info.error.c_str());
    } else {
        std::printf("counters: CUPTI range profiler, libcupti version %s%s\n", info.version.empty() ? "?" : info.version.c_str(),
                    info.error.empty() ? "" : (" (" + info.error + ")").c_str());
        const std::vector<std::pair<const char*, std::vector<std::string>>> sets = {
            {"memory", vl::cupti_memory_metrics(true)},
            {"memory-hw-instructions", vl::cupti_memory_metrics(false)},
            {"occupancy", vl::cupti_occupancy_metrics()}};
        for (const auto& [sm, chip] : vl::cupti_bundle_chips()) {
            std::string line;
            auto chip_sets = sets;
            chip_sets.push_back({"tiles", vl::cupti_tile_metrics(sm)});  // STSM and LDGSTS global counters from sm_90 on
            for (const auto& [set, metrics] : chip_sets) {
                const HostPlan p = plan_on_chip(chip, metrics);
                if (p.ok) {
                    line += "  " + std::string(set) + " " + std::to_string(metrics.size()) + " metrics in " + std::to_string(p.passes) +
                            " pass(es)";
                } else {
                    line += "  " + std::string(set) + " FAILED (" + p.error + ")";
                    // The fallback set may fail alone; the main memory and occupancy sets must configure.
                    if (std::string(set) != "memory-hw-instructions") ++problems;
                }
                if (std::string(set) == "occupancy" && p.ok && p.passes != 1) {
                    line += " (needs 1 pass: occupancy counters would be skipped)";
                }
            }
            std::printf("counters sm_%d %s:%s\n", sm, chip.c_str(), line.c_str());
        }
    }
    for (const std::string& lib : loaded_counter_libraries()) std::printf("loaded %s\n", lib.c_str());

    // 3. Optional tools.
    const std::string ncu = opt.use_ncu ? find_tool(opt.ncu, "OCC_NCU", "ncu") : std::string();
    const std::string cuobjdump = find_tool(opt.cuobjdump, "OCC_CUOBJDUMP", "cuobjdump");
    std::printf("tools: ncu %s (used only when CUPTI cannot read counters for a reason other than permissions); cuobjdump %s\n",
                ncu.empty() ? "not found" : ncu.c_str(), cuobjdump.empty() ? "not found (SASS widths not checked)" : cuobjdump.c_str());

    // 4. The device.
    int rt = 0, drv = 0;
    cudaRuntimeGetVersion(&rt);
    const cudaError_t de = cudaDriverGetVersion(&drv);
    std::printf("cuda: runtime %d, driver %d%s\n", rt, drv, (de == cudaSuccess && drv > 0) ? "" : " (no driver)");
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    int status = kExitOk;
    if (e != cudaSuccess || count == 0) {
        std::printf("no CUDA device: %s (%s)\n", e == cudaSuccess ? "cudaGetDeviceCount returned 0" : cudaGetErrorName(e),
                    e == cudaSuccess ? "no GPU visible" : cudaGetErrorString(e));
        status = kExitNoDevice;
    } else {
        for (int d = 0; d < count; ++d) {
            cudaDeviceProp p{};
            if (cudaGetDeviceProperties(&p, d) != cudaSuccess) continue;
            std::printf("device %d: %s, cc %d.%d, %d SMs%s\n", d, p.name, p.major, p.minor, p.multiProcessorCount,
                        d == opt.device_index ? "  <- would be measured" : "");
        }
    }
    if (problems) {
        std::printf("dry run: %d problem(s) in the plan\n", problems);
        return kExitMismatch;
    }
    std::printf("dry run: plan ok; %s\n", status == kExitOk ? "a CUDA device is present" : "exit 4 (no CUDA device)");
    return status;
}

}  // namespace occv
