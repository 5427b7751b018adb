// run_tiles.cpp — the tile cases (report/src/tiles.cpp): ONE ldmatrix / stmatrix / cp.async warp
// instruction per case (src/kernels_tiles.cu) at the per-lane offsets occ computed for a row-major,
// padded, CuTe-swizzled or TMA-swizzled tile, counted by CUPTI's range profiler (one range per case,
// the ldsm / stsm / ldgsts counters of vl::tile_metrics) and compared with occ's predictions.
// No Nsight Compute or timing fallback here: without CUPTI counters the cases stay unverified.
// Cases whose instruction the GPU lacks (stmatrix before sm_90) are reported, not launched.
#include <chrono>
#include <cstdio>
#include <map>

#include "counters.hpp"
#include "gpu.hpp"
#include "harness.hpp"
#include "occ/validation/cases.hpp"
#include "occ/validation/tiles.hpp"
#include "occ/validation/tools.hpp"

namespace occv {
namespace vl = occ::validation;

std::vector<vl::TileCase> selected_tile_cases(const Options& o) {
    std::vector<vl::TileCase> v;
    for (vl::TileCase& c : vl::tile_cases(o.quick))
        if ((c.kind == vl::Kind::banks && o.banks) || (c.kind == vl::Kind::coalescing && o.coalescing)) v.push_back(std::move(c));
    return v;
}

namespace {

struct TileBuffers {
    char* gbase = nullptr;
    int* out = nullptr;
    TileBuffers() {
        check_cuda(cudaMalloc(&gbase, vl::kGlobalBufferBytes), "cudaMalloc(tile global buffer)");
        check_cuda(cudaMemset(gbase, 0, vl::kGlobalBufferBytes), "cudaMemset");
        check_cuda(cudaMalloc(&out, sizeof(int) * 32), "cudaMalloc(tile out)");
    }
    ~TileBuffers() {
        cudaFree(gbase);
        cudaFree(out);
    }
};

// Case i runs with gridDim.x = i + 1 (only block 0 acts), as the memory cases do.
void launch_tile(std::size_t i, const vl::TileCase& c, const TileKernel& k, TileBuffers& b) {
    check_cuda(static_cast<cudaError_t>(upload_tile_offsets(c.smem.data(), c.gmem.data())), "cudaMemcpyToSymbol(c_tile_*)");
    TileArgs a{};
    a.gbase = b.gbase;
    a.out = b.out;
    a.mask = c.mask;
    void* params[] = {&a};
    check_cuda(
        cudaLaunchKernel(k.func, dim3(static_cast<unsigned>(i + 1)), dim3(32), params, static_cast<std::size_t>(c.smem_bytes()), nullptr),
        k.name.c_str());
    check_cuda(cudaDeviceSynchronize(), k.name.c_str());
}

}  // namespace

void run_tiles(Context& ctx, std::vector<vl::Case>& out, vl::json& tools) {
    const auto all = selected_tile_cases(ctx.opt);
    if (all.empty()) return;
    std::map<std::string, TileKernel> km;
    for (const TileKernel& k : tile_kernels()) km.emplace(k.name, k);
    const int cc = ctx.prop.major * 10 + ctx.prop.minor;
    std::vector<vl::TileCase> cases;  // the ones this GPU can execute
    std::vector<const vl::TileCase*> skipped;
    for (const vl::TileCase& c : all) {
        const std::string bad = vl::validate_tile_case(c);
        if (!bad.empty() || !km.count(c.kernel())) {
            std::fprintf(stderr, "occ-validate: internal tile case error: %s\n",
                         bad.empty() ? ("no kernel " + c.kernel()).c_str() : bad.c_str());
            std::exit(3);
        }
        if (cc >= c.min_cc()) cases.push_back(c);
        else skipped.push_back(&c);
    }
    {
        TileBuffers b;
        for (std::size_t i = 0; i < cases.size(); ++i) launch_tile(i, cases[i], km.at(cases[i].kernel()), b);
    }

    std::vector<vl::NcuLaunch> launches;
    std::string why;
    if (!ctx.opt.use_cupti) {
        why = "--no-cupti given";
    } else if (!ctx.counters_denied.empty()) {
        why = ctx.counters_denied;
    } else {
        // stmatrix counters exist from sm_90 on; earlier chips get the set without them.
        const std::vector<std::string> metrics = vl::cupti_tile_metrics(cc);
        const auto t0 = std::chrono::steady_clock::now();
        CounterSetup setup;
        auto session = CounterSession::open(ctx.opt.device_index, metrics, cases.size(), setup);
        if (!session) {
            why = setup.error;
            if (setup.no_privileges) note_counters_denied(ctx, setup.error);
        } else {
            std::printf("CUPTI: chip %s, %zu tile metrics in %zu pass(es), %zu ranges...\n", setup.chip.c_str(), metrics.size(),
                        setup.passes, cases.size());
            std::fflush(stdout);
            TileBuffers b;
            std::string err;
            const bool ran = session->run(
                [&] {
                    for (std::size_t i = 0; i < cases.size(); ++i) {
                        session->push(vl::counter_range_name(i));
                        launch_tile(i, cases[i], km.at(cases[i].kernel()), b);
                        session->pop();
                    }
                },
                err);
            std::vector<vl::CounterRange> ranges;
            if (ran && session->collect(ranges, err)) {
                launches = vl::launches_from_ranges(ranges);
                char buf[200];
                std::snprintf(buf, sizeof buf, "CUPTI range profiler: chip %s, %zu metrics, %zu pass(es), %zu of %zu ranges, %.1f s",
                              setup.chip.c_str(), metrics.size(), session->passes_run(), launches.size(), cases.size(),
                              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
                tools["tile_counters"] = std::string(buf) + (err.empty() ? "" : "; " + err);
                if (launches.empty()) why = "CUPTI returned no ranges" + (err.empty() ? std::string() : ": " + err);
            } else {
                why = err;
            }
        }
    }
    if (!why.empty()) {
        tools["tile_counters"] = "none (" + why + "): tile cases unverified";
        std::printf("tile cases: no counters (%s): unverified\n", why.c_str());
    }
    const auto by_case = vl::match_launches(launches, cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i) out.push_back(vl::tile_result(cases[i], by_case[i], cc));
    for (const vl::TileCase* c : skipped) {
        vl::Case r = vl::tile_result(*c, nullptr, cc);
        r.note = "not run: needs sm_" + std::to_string(c->min_cc()) + ", this GPU is sm_" + std::to_string(cc);
        out.push_back(std::move(r));
    }
}

}  // namespace occv
