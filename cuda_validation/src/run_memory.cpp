// run_memory.cpp — coalescing and bank cases: occ's prediction vs hardware counters (exact integers
// per instruction) and the instruction width cuobjdump shows. Counters come from CUPTI's range profiler
// inside this process (one range per case, counters.hpp); when CUPTI cannot read them for a reason
// other than permissions, from Nsight Compute re-running this program (--memory-run). When neither
// can, a timing fallback (effective bandwidth for global, clock cycles for shared) gives estimates
// that the report marks as such.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>

#include "counters.hpp"
#include "gpu.hpp"
#include "harness.hpp"
#include "occ/validation/cases.hpp"
#include "occ/validation/regpool.hpp"
#include "occ/validation/tiles.hpp"
#include "occ/validation/tools.hpp"

namespace occv {
namespace vl = occ::validation;

namespace {

std::vector<vl::MemCase> memory_cases(const Options& o) {
    std::vector<vl::MemCase> v;
    if (o.coalescing) v = vl::coalescing_cases(o.quick);
    if (o.banks) {
        auto b = vl::bank_cases(o.quick);
        v.insert(v.end(), b.begin(), b.end());
    }
    return v;
}

std::map<std::string, MemKernel> kernels_by_name() {
    std::map<std::string, MemKernel> m;
    for (const MemKernel& k : memory_kernels()) m.emplace(k.name, k);
    return m;
}

struct Buffers {
    char* gbase = nullptr;
    int* out = nullptr;
    long long* cycles = nullptr;
    Buffers() {
        check_cuda(cudaMalloc(&gbase, vl::kGlobalBufferBytes), "cudaMalloc(global buffer)");
        check_cuda(cudaMemset(gbase, 0, vl::kGlobalBufferBytes), "cudaMemset");
        check_cuda(cudaMalloc(&out, sizeof(int) * 64), "cudaMalloc(out)");
        check_cuda(cudaMalloc(&cycles, sizeof(long long)), "cudaMalloc(cycles)");
    }
    ~Buffers() {
        cudaFree(gbase);
        cudaFree(out);
        cudaFree(cycles);
    }
};

MemArgs args_for(const vl::MemCase& c, char* gbase, int* out) {
    MemArgs a{};
    a.gbase = gbase;
    a.out = out;
    a.mask_lo = static_cast<unsigned>(c.mask & 0xFFFFFFFFull);
    a.mask_hi = static_cast<unsigned>(c.mask >> 32);
    a.two_d = c.two_d ? 1 : 0;
    a.base = static_cast<int>(c.base);
    a.pitch = static_cast<int>(c.pitch);
    return a;
}

void upload(const vl::MemCase& c) {
    int offs[64] = {};
    for (int t = 0; t < c.threads(); ++t) offs[t] = static_cast<int>(c.offsets[t]);
    check_cuda(static_cast<cudaError_t>(upload_offsets(offs, 64)), "cudaMemcpyToSymbol(c_off)");
}

std::size_t dyn_smem(const vl::MemCase& c) { return c.kind == vl::Kind::banks ? static_cast<std::size_t>(vl::kSharedBufferBytes) : 0; }

// The measured launch of case i: gridDim.x = i + 1 (ncu's "Grid Size" gives the case back).
void launch_case(std::size_t i, const vl::MemCase& c, const MemKernel& k, Buffers& b) {
    upload(c);
    MemArgs a = args_for(c, b.gbase, b.out);
    void* params[] = {&a};
    check_cuda(cudaLaunchKernel(k.func, dim3(static_cast<unsigned>(i + 1)), dim3(c.block_x, c.block_y), params, dyn_smem(c), nullptr),
               k.name.c_str());
    check_cuda(cudaDeviceSynchronize(), k.name.c_str());
}

// --- SASS widths -----------------------------------------------------------------------------------
std::map<std::string, std::optional<std::int64_t>> sass_widths_for(const Context& ctx, vl::json& tools) {
    std::map<std::string, std::optional<std::int64_t>> w;
    const std::string tool = find_tool(ctx.opt.cuobjdump, "OCC_CUOBJDUMP", "cuobjdump");
    if (tool.empty()) {
        tools["cuobjdump"] = "not found: SASS widths not checked";
        return w;
    }
    std::string text;
    const int rc = run_command("'" + tool + "' -sass '" + ctx.opt.self + "' 2>&1", text);
    save_raw(ctx.opt.raw_dir, "cuobjdump-sass.txt", text);
    const auto fns = vl::parse_cuobjdump_sass(text);
    const std::string arch = "sm_" + std::to_string(ctx.prop.major) + std::to_string(ctx.prop.minor);
    int found = 0;
    for (const MemKernel& k : memory_kernels()) {
        const vl::SassFunction* f = vl::find_sass(fns, arch, k.name);
        if (!f) f = vl::find_sass(fns, arch + "a", k.name);
        if (!f) continue;
        ++found;
        const char* op = k.shared ? (k.store ? "STS" : "LDS") : (k.store ? "STG" : "LDG");
        const auto widths = vl::sass_widths(*f, op);
        if (widths.size() == 1) w[k.name] = *widths.begin();
        else if (widths.size() > 1) w[k.name] = -1;
    }
    tools["cuobjdump"] = tool + " (exit " + std::to_string(rc) + "): " + std::to_string(found) + " of " +
                         std::to_string(memory_kernels().size()) + " memory kernels found for " + arch;
    return w;
}

// --- Fallback: timing estimates ------------------------------------------------------------------------
struct Estimator {
    char* big = nullptr;
    long long big_bytes = 0;
    cudaEvent_t e0{}, e1{};
    Estimator() {
        for (long long mb : {512LL, 256LL, 64LL}) {
            if (cudaMalloc(&big, mb << 20) == cudaSuccess) {
                big_bytes = mb << 20;
                break;
            }
            (void)cudaGetLastError();
        }
        check_cuda(big ? cudaSuccess : cudaErrorMemoryAllocation, "cudaMalloc(bandwidth buffer)");
        check_cuda(cudaEventCreate(&e0), "cudaEventCreate");
        check_cuda(cudaEventCreate(&e1), "cudaEventCreate");
    }
    ~Estimator() {
        cudaFree(big);
        cudaEventDestroy(e0);
        cudaEventDestroy(e1);
    }
    // Seconds per warp-level access of the pattern, with many blocks streaming over a large buffer.
    double global_time(const vl::MemCase& c, const MemKernel& k, int* out) {
        upload(c);
        MemArgs a = args_for(c, big, out);
        const std::int64_t span = *std::max_element(c.offsets.begin(), c.offsets.end()) + c.elem_size;
        a.region_bytes = (span + 255) / 256 * 256;
        a.regions = static_cast<int>(std::max<long long>(1, std::min<long long>(1 << 20, big_bytes / a.region_bytes)));
        a.reps = 8;
        const int blocks = 8192;
        void* params[] = {&a};
        double best = 1e30;
        for (int rep = 0; rep < 3; ++rep) {
            check_cuda(cudaEventRecord(e0), "cudaEventRecord");
            check_cuda(cudaLaunchKernel(k.bw_func, dim3(blocks), dim3(c.block_x, c.block_y), params, 0, nullptr), "bandwidth kernel");
            check_cuda(cudaEventRecord(e1), "cudaEventRecord");
            check_cuda(cudaEventSynchronize(e1), "bandwidth kernel");
            float ms = 0;
            check_cuda(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime");
            best = std::min(best, ms * 1e-3);
        }
        const int warps = (c.threads() + 31) / 32;
        return best / (static_cast<double>(blocks) * a.reps * warps);
    }
    // Cycles per warp-level shared access.
    double shared_cycles(const vl::MemCase& c, const MemKernel& k, int* out, long long* cycles) {
        upload(c);
        MemArgs a = args_for(c, nullptr, out);
        a.reps = 256;
        a.cycles = cycles;
        void* params[] = {&a};
        long long best = 1LL << 62;
        for (int rep = 0; rep < 3; ++rep) {
            check_cuda(cudaLaunchKernel(k.clk_func, dim3(1), dim3(c.block_x, c.block_y), params, dyn_smem(c), nullptr), "clock kernel");
            long long v = 0;
            check_cuda(cudaMemcpy(&v, cycles, sizeof v, cudaMemcpyDeviceToHost), "cudaMemcpy(cycles)");
            best = std::min(best, v);
        }
        return static_cast<double>(best);
    }
};

void add_estimates(const Context& ctx, const std::vector<vl::MemCase>& cases, const std::map<std::string, MemKernel>& km, Buffers& b,
                   std::vector<vl::Case>& out_cases, std::size_t first, const std::string& why) {
    Estimator est;
    // Baselines: 4-byte, consecutive, all lanes (4 sectors; 1 wavefront).
    vl::MemCase base;
    base.elem_size = 4;
    for (int l = 0; l < 32; ++l) base.offsets.push_back(l * 4);
    std::map<bool, double> g_base, s_base;
    for (bool st : {false, true}) {
        base.store = st;
        base.kind = vl::Kind::coalescing;
        g_base[st] = est.global_time(base, km.at(vl::memory_kernel_name(base)), b.out);
        base.kind = vl::Kind::banks;
        s_base[st] = est.shared_cycles(base, km.at(vl::memory_kernel_name(base)), b.out, b.cycles);
    }
    (void)ctx;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const vl::MemCase& c = cases[i];
        vl::Case& r = out_cases[first + i];
        const MemKernel& k = km.at(vl::memory_kernel_name(c));
        const bool none = (c.mask & ((c.threads() >= 64) ? ~0ull : ((1ull << c.threads()) - 1))) == 0;
        r.estimate = true;
        r.note = "no counters (" + why + "): timing estimate, not exact counters";
        if (c.kind == vl::Kind::coalescing) {
            const double t = none ? 0.0 : est.global_time(c, k, b.out);
            const auto sectors = static_cast<std::int64_t>(std::llround(4.0 * t / g_base[c.store]));
            r.checks[1].measured = sectors;  // "sectors"
            char buf[96];
            std::snprintf(buf, sizeof buf, "; %.2f ns per warp access (baseline %.2f)", t * 1e9, g_base[c.store] * 1e9);
            r.note += buf;
        } else {
            const double cyc = none ? 0.0 : est.shared_cycles(c, k, b.out, b.cycles);
            const auto wf = static_cast<std::int64_t>(std::llround(cyc / s_base[c.store]));
            r.checks[1].measured = wf;  // "wavefronts"
            char buf[96];
            std::snprintf(buf, sizeof buf, "; %.1f cycles per access (baseline %.1f)", cyc, s_base[c.store]);
            r.note += buf;
        }
    }
}

// --- CUPTI: one range per case, exact counters ------------------------------------------------------
struct CuptiOutcome {
    bool ok = false;
    bool no_privileges = false;
    std::string why;  // when not ok
};

CuptiOutcome cupti_memory(const Context& ctx, const std::vector<vl::MemCase>& cases, const std::map<std::string, MemKernel>& km,
                          std::vector<vl::NcuLaunch>& launches, vl::json& tools) {
    CuptiOutcome o;
    Buffers b;
    // The SASS instruction counters first (the names ncu reports); the hardware instruction counters
    // when those cannot be configured.
    for (const bool sass : {true, false}) {
        const auto metrics = vl::cupti_memory_metrics(sass);
        CounterSetup setup;
        const auto t0 = std::chrono::steady_clock::now();
        auto session = CounterSession::open(ctx.opt.device_index, metrics, cases.size(), setup);
        if (!session) {
            o.why = setup.error;
            o.no_privileges = setup.no_privileges;
            if (o.no_privileges) return o;
            continue;
        }
        std::printf("CUPTI: chip %s, %zu memory metrics in %zu pass(es), %zu ranges...\n", setup.chip.c_str(), metrics.size(), setup.passes,
                    cases.size());
        std::fflush(stdout);
        std::string err;
        const bool ran = session->run(
            [&] {
                for (std::size_t i = 0; i < cases.size(); ++i) {
                    session->push(vl::counter_range_name(i));
                    launch_case(i, cases[i], km.at(vl::memory_kernel_name(cases[i])), b);
                    session->pop();
                }
            },
            err);
        std::vector<vl::CounterRange> ranges;
        if (ran && session->collect(ranges, err)) {
            launches = vl::launches_from_ranges(ranges);
            const auto info = cupti_info();
            char buf[256];
            std::snprintf(buf, sizeof buf,
                          "CUPTI range profiler (libcupti %s): chip %s, %zu metrics (%s), %zu pass(es), %zu of %zu ranges, %.1f s",
                          info.version.c_str(), setup.chip.c_str(), metrics.size(),
                          sass ? "smsp__sass_inst_executed for shared instructions" : "smsp__inst_executed for shared instructions",
                          session->passes_run(), launches.size(), cases.size(),
                          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            tools["counters"] = std::string(buf) + (err.empty() ? "" : "; " + err);
            o.ok = !launches.empty();
            if (!o.ok) o.why = "CUPTI returned no ranges" + (err.empty() ? std::string() : ": " + err);
            return o;
        }
        o.why = err;
        o.no_privileges = vl::is_privilege_error(err);
        if (o.no_privileges) return o;
    }
    return o;
}

}  // namespace

int memory_run(const Options& opt) {
    const auto cases = memory_cases(opt);
    const auto km = kernels_by_name();
    Buffers b;
    for (std::size_t i = 0; i < cases.size(); ++i) launch_case(i, cases[i], km.at(vl::memory_kernel_name(cases[i])), b);
    return 0;
}

void run_memory(Context& ctx, std::vector<vl::Case>& out, vl::json& tools) {
    const auto cases = memory_cases(ctx.opt);
    if (cases.empty()) return;
    for (const vl::MemCase& c : cases) {
        const std::string bad = vl::validate_case(c);
        if (!bad.empty()) {
            std::fprintf(stderr, "occ-validate: internal case table error: %s\n", bad.c_str());
            std::exit(3);
        }
    }
    const auto km = kernels_by_name();
    const auto widths = sass_widths_for(ctx, tools);

    // Every case once in this process first: catches launch errors with a clear message.
    {
        Buffers b;
        for (std::size_t i = 0; i < cases.size(); ++i) launch_case(i, cases[i], km.at(vl::memory_kernel_name(cases[i])), b);
    }

    std::vector<vl::NcuLaunch> launches;
    std::string why;
    bool counted = false;
    bool no_privileges = false;
    if (ctx.opt.use_cupti && !ctx.counters_denied.empty()) {
        // Denied already (occupancy part): ncu would meet the same restriction, so neither is tried.
        no_privileges = true;
        why = ctx.counters_denied;
        tools["counters"] = ctx.counters_denied;
    } else if (ctx.opt.use_cupti) {
        const CuptiOutcome c = cupti_memory(ctx, cases, km, launches, tools);
        counted = c.ok;
        no_privileges = c.no_privileges;
        if (!c.ok) {
            tools["cupti"] = c.why;
            why = c.why;
            if (no_privileges) {
                note_counters_denied(ctx, c.why);  // the one clear line
                tools["counters"] = ctx.counters_denied;
            } else {
                std::printf("CUPTI could not read counters (%s)%s\n", c.why.c_str(), ctx.opt.use_ncu ? "; trying Nsight Compute" : "");
            }
        }
    } else {
        tools["cupti"] = "--no-cupti given";
    }
    const std::string ncu = (counted || no_privileges || !ctx.opt.use_ncu) ? std::string() : find_tool(ctx.opt.ncu, "OCC_NCU", "ncu");
    if (counted) {
        why.clear();
    } else if (no_privileges) {
        // why already says it
    } else if (!ctx.opt.use_ncu) {
        why = why.empty() ? "--no-ncu given" : why + "; --no-ncu given";
    } else if (ncu.empty()) {
        why = (why.empty() ? "" : why + "; ") + "ncu not found (set OCC_NCU or put Nsight Compute on PATH)";
    } else {
        why.clear();
        std::string metrics;
        for (const std::string& m : vl::ncu_memory_metrics()) metrics += (metrics.empty() ? "" : ",") + m;
        std::string cmd = "'" + ncu + "' --csv --page details --print-units base --metrics " + metrics +
                          " --kernel-name regex:'^occv_[gs](ld|st)_' --cache-control all --clock-control base '" + ctx.opt.self +
                          "' --memory-run --device " + std::to_string(ctx.opt.device_index);
        if (ctx.opt.quick) cmd += " --quick";
        if (!ctx.opt.coalescing) cmd += " --only banks";
        if (!ctx.opt.banks) cmd += " --only coalescing";
        cmd += " 2>&1";
        std::printf("running Nsight Compute on %zu memory kernels...\n", cases.size());
        std::fflush(stdout);
        const auto t0 = std::chrono::steady_clock::now();
        std::string output;
        const int rc = run_command(cmd, output);
        save_raw(ctx.opt.raw_dir, "ncu-output.csv", "# " + cmd + "\n" + output);
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::string err;
        launches = vl::group_ncu(vl::parse_ncu_csv(output, &err));
        std::string version;
        run_command("'" + ncu + "' --version 2>&1 | tail -n 1", version);
        while (!version.empty() && (version.back() == '\n' || version.back() == '\r')) version.pop_back();
        char buf[128];
        std::snprintf(buf, sizeof buf, " (exit %d, %.0f s, %zu kernels profiled)", rc, secs, launches.size());
        tools["ncu"] = ncu + " " + version + buf;
        if (launches.empty()) {
            why = vl::ncu_failure_reason(output);
            if (why.empty()) why = err.empty() ? "ncu returned no counters" : err;
            const auto tail = output.size() > 600 ? output.substr(output.size() - 600) : output;
            tools["ncu_output_tail"] = tail;
        }
    }
    const auto by_case = vl::match_launches(launches, cases.size());
    const std::size_t first = out.size();
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const auto it = widths.find(vl::memory_kernel_name(cases[i]));
        out.push_back(vl::memory_result(cases[i], by_case[i], it == widths.end() ? std::nullopt : it->second,
                                        occ::find_arch(ctx.prop.major, ctx.prop.minor)));
    }
    if (!why.empty()) {
        tools["fallback"] = "no counters (" + why +
                            "): coalescing cases estimated from effective bandwidth, bank cases from clock cycles; "
                            "these are marked unverified, not matched";
        std::printf("no counters (%s): falling back to timing estimates\n", why.c_str());
        Buffers b;
        add_estimates(ctx, cases, km, b, out, first, why);
    } else {
        tools["fallback"] = "not needed";
    }
}

int list_cases(const Options& opt) {
    std::size_t occ_quick_min = 0;
    const auto kernels = residency_kernels();
    // Counts as if every kernel allowed 1024 threads (the real limits come from the GPU).
    std::size_t occ_cases = 0;
    int i = 0;
    for (const ResidencyKernel& k : kernels)
        occ_cases += vl::occupancy_configs({k.name, 1024, k.static_smem}, i++, opt.quick, 232448).size();
    occ_quick_min = occ_cases;
    const auto coal = vl::coalescing_cases(opt.quick);
    const auto banks = vl::bank_cases(opt.quick);
    int bad = 0;
    for (const auto* v : {&coal, &banks})
        for (const vl::MemCase& c : *v)
            if (!vl::validate_case(c).empty()) {
                std::printf("bad case: %s\n", vl::validate_case(c).c_str());
                ++bad;
            }
    const auto tiles = vl::tile_cases(opt.quick);
    for (const vl::TileCase& c : tiles)
        if (!vl::validate_tile_case(c).empty()) {
            std::printf("bad case: %s\n", vl::validate_tile_case(c).c_str());
            ++bad;
        }
    // The setmaxnreg plans and Tensor Memory cases each need their kernel (sm_90a / sm_100a objects).
    const auto plans = vl::regpool_cases();
    const auto tmem = vl::tmem_cases();
    const auto rk = regpool_kernels();
    const auto tk = tmem_kernels();
    for (const vl::RegPlanCase& c : plans)
        if (std::none_of(rk.begin(), rk.end(), [&](const RegPoolKernel& k) { return k.name == c.kernel; })) {
            std::printf("bad case: %s: no kernel %s\n", c.id.c_str(), c.kernel.c_str());
            ++bad;
        }
    for (const vl::TmemCase& c : tmem)
        if (std::none_of(tk.begin(), tk.end(), [&](const TmemKernel& k) { return k.name == c.kernel; })) {
            std::printf("bad case: %s: no kernel %s\n", c.id.c_str(), c.kernel.c_str());
            ++bad;
        }
    std::printf(
        "%s: %zu residency kernels, >= %zu occupancy cases, %zu setmaxnreg plan cases (sm_90a), %zu Tensor Memory cases (sm_100a), "
        "%zu coalescing cases, %zu bank cases, %zu tile cases, %zu memory kernels, %zu tile kernels\n",
        opt.quick ? "quick" : "full", kernels.size(), occ_quick_min, plans.size(), tmem.size(), coal.size(), banks.size(), tiles.size(),
        memory_kernels().size(), tile_kernels().size());
    if (occ_cases < 300 || coal.size() < 100 || banks.size() < 100 || tiles.size() < 10 || plans.size() < 4 || tmem.size() < 5 || bad) {
        std::printf(
            "FAILED: need >= 300 occupancy, 4 setmaxnreg, 5 Tensor Memory, >= 100 coalescing, >= 100 bank and >= 10 tile cases, all "
            "well-formed\n");
        return 1;
    }
    return 0;
}

}  // namespace occv
