// The compiler-log layouts users paste (occ/io/ptxas.hpp), one fixture and one test per variant.
// The fixtures in tests/fixtures/ptxas/variants reproduce real logs found in public issues, forum
// threads and committed build logs (each cites its source on its first lines) with kernels and
// numbers of our own. Every test pins every field of every record: a field the log did not give
// must come out empty (null in JSON), never 0.
#include <doctest/doctest.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "occ/io/ptxas.hpp"

using occ::io::parse_ptxas_log;
using occ::io::PtxasKernel;
using occ::io::PtxasLog;

namespace {

std::string variant_text(const std::string& name) {
    std::ifstream f(std::string(OCC_SOURCE_DIR) + "/tests/fixtures/ptxas/variants/" + name, std::ios::binary);
    REQUIRE_MESSAGE(f.good(), "missing fixture " << name);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

PtxasLog variant(const std::string& name) { return parse_ptxas_log(variant_text(name)); }

// Everything a record says. Fields left out of a Want must be empty in the record.
struct Want {
    const char* mangled = "";
    const char* arch = "";
    int occurrence = 1;
    bool entry = true;
    std::optional<int> registers = {};
    std::optional<std::int64_t> smem = {};
    std::optional<std::int64_t> stack = {};
    std::optional<std::int64_t> spill_stores = {}, spill_loads = {};
    std::optional<int> barriers = {};
    std::vector<std::pair<int, std::int64_t>> cmem = {};
    std::optional<std::int64_t> cumulative_stack = {};
    std::optional<std::int64_t> local = {};
    std::optional<int> textures = {};
};

// The `occurrence`-th record of that name and arch.
const PtxasKernel* find(const PtxasLog& log, const Want& w) {
    for (const PtxasKernel& k : log.kernels)
        if (k.mangled == w.mangled && k.arch == w.arch && k.occurrence == w.occurrence && k.entry == w.entry) return &k;
    return nullptr;
}

void check(const PtxasLog& log, const Want& w) {
    CAPTURE(w.mangled);
    CAPTURE(w.arch);
    CAPTURE(w.occurrence);
    const PtxasKernel* k = find(log, w);
    REQUIRE(k);
    CHECK(k->registers == w.registers);
    CHECK(k->smem_static == w.smem);
    CHECK(k->stack_frame == w.stack);
    CHECK(k->spill_stores == w.spill_stores);
    CHECK(k->spill_loads == w.spill_loads);
    CHECK(k->barriers == w.barriers);
    CHECK(k->cmem == w.cmem);
    CHECK(k->cumulative_stack == w.cumulative_stack);
    CHECK(k->local == w.local);
    CHECK(k->textures == w.textures);
}

int entries(const PtxasLog& log) {
    int n = 0;
    for (const PtxasKernel& k : log.kernels) n += k.entry;
    return n;
}

bool any_diagnostic(const PtxasKernel& k, const std::string& text) {
    for (const std::string& d : k.diagnostics)
        if (d.find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("variant: MSBuild (CUDA 9): \"1>\" before every line, CRLF, the stack line's number after the prefix") {
    const std::string text = variant_text("msbuild_cuda91_sm50.log");
    REQUIRE(text.find("\r\n") != std::string::npos);
    const PtxasLog log = parse_ptxas_log(text);
    REQUIRE(log.kernels.size() == 4);
    check(log, {.mangled = "_Z11blake_sweepILj7ELj512EEvPjS0_",
                .arch = "sm_50",
                .registers = 255,
                .smem = 6144,
                .stack = 328,
                .spill_stores = 152,
                .spill_loads = 264,
                .cmem = {{0, 324}, {2, 8}},
                .cumulative_stack = 344});
    check(log, {.mangled = "_Z10tail_mergePjj",
                .arch = "sm_50",
                .registers = 40,
                .smem = 33024,
                .stack = 96,
                .spill_stores = 0,
                .spill_loads = 0,
                .cmem = {{0, 324}},
                .cumulative_stack = 112});
    check(log, {.mangled = "_ZN52_INTERNAL_30_blake_sweep_compute_50_cpp1_ii_0a1b2c3d9make_int2Eii",
                .arch = "sm_50",
                .entry = false,
                .stack = 16,
                .spill_stores = 0,
                .spill_loads = 0});
    check(log, {.mangled = "cudaMalloc", .arch = "sm_50", .entry = false, .stack = 8, .spill_stores = 0, .spill_loads = 0});
    CHECK(log.gmem == 192);
    CHECK(log.skipped_lines == 7);  // the two comment lines, MSBuild's own lines
    CHECK(log.unknown_lines == 0);
}

TEST_CASE("variant: CUDA 4.0 MSBuild: blank lines, callee blocks before the entry's Used line, sm_21 and sm_10") {
    const std::string text = variant_text("msbuild_cuda40_blank_lines.log");
    REQUIRE(text.find("\r\n") != std::string::npos);
    const PtxasLog log = parse_ptxas_log(text);
    CHECK(entries(log) == 2);
    check(log, {.mangled = "_Z9heat_stepPKfPfiif",
                .arch = "sm_21",
                .registers = 29,
                .smem = 0,
                .stack = 24,
                .spill_stores = 8,
                .spill_loads = 12,
                .cmem = {{0, 64}, {16, 12}}});
    check(log, {.mangled = "_Z9flux_termfff", .arch = "sm_21", .entry = false, .stack = 32, .spill_stores = 32, .spill_loads = 32});
    check(log, {.mangled = "_Z5clampf", .arch = "sm_21", .entry = false, .stack = 0, .spill_stores = 0, .spill_loads = 0});
    // sm_10 has no stack-frame line: the stack and spills stay unknown; smem is 36 + 16.
    check(log, {.mangled = "_Z9heat_stepPKfPfiif", .arch = "sm_10", .registers = 18, .smem = 52, .cmem = {{1, 20}}});
    CHECK(log.unknown_lines == 0);
}

TEST_CASE("variant: nvrtc's \"ptxas         .\" properties line and a warning that names no kernel") {
    const PtxasLog log = variant("nvrtc_continuation_dot.log");
    REQUIRE(log.kernels.size() == 1);
    check(log, {.mangled = "_ZN11CudaCodeGen7kernel7ENS_6TensorIfLi2ELi2EEES1_",
                .arch = "sm_80",
                .registers = 24,
                .smem = 16,
                .stack = 192,
                .spill_stores = 236,
                .spill_loads = 408,
                .cmem = {{0, 472}, {2, 8}}});
    REQUIRE(log.diagnostics.size() == 1);
    CHECK(log.diagnostics[0].find("lower bound of 24") != std::string::npos);
    CHECK(log.kernels[0].diagnostics.empty());
    CHECK(log.gmem == 3);
}

TEST_CASE("variant: OpenCL build log with trailing spaces") {
    const PtxasLog log = variant("opencl_trailing_spaces.log");
    REQUIRE(log.kernels.size() == 1);
    check(log, {.mangled = "scan_block",
                .arch = "sm_50",
                .registers = 30,
                .smem = 2064,
                .stack = 0,
                .spill_stores = 0,
                .spill_loads = 0,
                .cmem = {{0, 352}}});
    CHECK(log.kernels[0].diagnostics.empty());
}

TEST_CASE("variant: the JIT linker's report of a kernel ptxas reported is the same record") {
    const PtxasLog log = variant("jit_link_info.log");
    REQUIRE(log.kernels.size() == 1);
    check(log, {.mangled = "probe_insert",
                .arch = "sm_75",
                .registers = 30,
                .smem = 0,
                .stack = 0,
                .spill_stores = 0,
                .spill_loads = 0,
                .cmem = {{0, 412}},
                .local = 0});
    CHECK(log.kernels[0].diagnostics.empty());  // same figures before and after linking
}

TEST_CASE("variant: the JIT linker's info log alone (numba): no architecture, no spills") {
    const PtxasLog log = variant("numba_linker_info.log");
    REQUIRE(log.kernels.size() == 1);
    const char* name = "_ZN6cudapy8__main__17advance_atoms$241E5ArrayIdLi2E1C7mutable7alignedE";
    check(log, {.mangled = name, .registers = 38, .smem = 0, .stack = 24, .cmem = {{0, 360}}, .local = 0});
    CHECK(log.kernels[0].format == "culink");
    CHECK(log.kernels[0].name.find("advance_atoms$241") != std::string::npos);
    CHECK(log.gmem == 48);
}

TEST_CASE("variant: typographic quotes, a blank line before the stack line, Fermi constant banks") {
    const PtxasLog log = variant("typographic_quotes_sm20.log");
    REQUIRE(log.kernels.size() == 1);
    check(log, {.mangled = "_Z5relaxPfS_S_iS_",
                .arch = "sm_20",
                .registers = 37,
                .smem = 0,
                .stack = 16,
                .spill_stores = 0,
                .spill_loads = 0,
                .cmem = {{0, 96}, {14, 64}, {16, 40}}});
    CHECK(log.kernels[0].name == "relax(float*, float*, float*, int, float*)");
}

TEST_CASE("variant: \"*\" before the tag, N+M bytes lmem, and a Used line whose kernel was cut off") {
    const PtxasLog log = variant("forum_star_prefix_lmem.log");
    REQUIRE(log.kernels.size() == 2);
    check(log, {.mangled = "cloud_step",
                .arch = "sm_20",
                .registers = 63,
                .smem = 0,
                .stack = 880,
                .spill_stores = 1048,
                .spill_loads = 1512,
                .cmem = {{0, 72}, {14, 4}, {16, 264}},
                .local = 8});
    // No "Compiling entry function" for rain_step: its Used line is not given to anyone.
    check(log, {.mangled = "rain_step", .arch = "sm_20", .entry = false, .stack = 32, .spill_stores = 0, .spill_loads = 0});
    CHECK(log.unknown_lines == 1);
    REQUIRE(log.diagnostics.size() == 1);
    CHECK(log.diagnostics[0].find("with no function before it (line 9)") != std::string::npos);
}

TEST_CASE("variant: sm_1x \"N+M bytes smem\" is the sum; no stack lines") {
    const PtxasLog log = variant("sm13_smem_sum.log");
    REQUIRE(log.kernels.size() == 2);
    check(log, {.mangled = "_Z10eval_batchPdS_", .arch = "sm_13", .registers = 6, .smem = 28, .cmem = {{0, 61440}, {14, 8}}});
    check(
        log,
        {.mangled = "_Z9seed_rngsj", .arch = "sm_13", .registers = 17, .smem = 24, .cmem = {{0, 61440}, {1, 36}, {14, 8}}, .local = 5120});
}

TEST_CASE("variant: CUDA 2.x entries without an architecture, a tab before the colon, trailing spaces") {
    const PtxasLog log = variant("no_arch_cuda2.log");
    REQUIRE(log.kernels.size() == 2);
    check(log, {.mangled = "_Z7tt_stepPfS_S_j", .registers = 44, .smem = 40, .cmem = {{1, 320}}, .local = 56});
    check(log, {.mangled = "atan_main", .registers = 5, .smem = 76, .cmem = {{1, 24}, {14, 16}}, .local = 100});
    for (const PtxasKernel& k : log.kernels) CHECK(k.cc_major == 0);
}

TEST_CASE("variant: indented build-tool output, sm_10 with no constant bank at all") {
    const PtxasLog log = variant("indented_sm10_no_cmem.log");
    REQUIRE(log.kernels.size() == 1);
    check(log, {.mangled = "_Z3subiiPi", .arch = "sm_10", .registers = 3, .smem = 36});
    CHECK(log.skipped_lines == 7);
}

TEST_CASE("variant: Triton autotuning compiles one name four times: four records, numbered") {
    const PtxasLog log = variant("triton_autotune_sm75.log");
    REQUIRE(log.kernels.size() == 4);
    const int regs[] = {58, 41, 37, 49};
    for (int i = 0; i < 4; ++i)
        check(log, {.mangled = "triton_",
                    .arch = "sm_75",
                    .occurrence = i + 1,
                    .registers = regs[i],
                    .smem = 0,
                    .stack = 0,
                    .spill_stores = 0,
                    .spill_loads = 0,
                    .barriers = 1,
                    .cmem = {{0, 408}}});
    for (const PtxasKernel& k : log.kernels) CHECK(k.occurrences == 4);
    CHECK(log.gmem == 11);
}

TEST_CASE("variant: a progress bar took the 'p' of \"ptxas info\"; a fused kernel compiled three times") {
    const PtxasLog log = variant("inductor_progress_bar_sm86.log");
    REQUIRE(log.kernels.size() == 3);
    const int regs[] = {34, 31, 60};
    for (int i = 0; i < 3; ++i)
        check(log, {.mangled = "triton_red_fused_mean_mul_rsqrt_2",
                    .arch = "sm_86",
                    .occurrence = i + 1,
                    .registers = regs[i],
                    .smem = 0,
                    .stack = 0,
                    .spill_stores = 0,
                    .spill_loads = 0,
                    .cmem = {{0, 384}}});
    CHECK(log.gmem == 11);
    CHECK(log.skipped_lines == 4);  // comments, the "Sampling" line, the progress bar
}

TEST_CASE("variant: one space before the colon, unindented stack lines, a log cut mid-record, device functions with spills") {
    const PtxasLog log = variant("triton_single_space_sm89.log");
    REQUIRE(log.kernels.size() == 4);
    check(log, {.mangled = "triton_",
                .arch = "sm_89",
                .occurrence = 1,
                .registers = 20,
                .smem = 0,
                .stack = 0,
                .spill_stores = 0,
                .spill_loads = 0,
                .cmem = {{0, 380}}});
    check(log, {.mangled = "triton_",
                .arch = "sm_89",
                .occurrence = 2,
                .registers = 255,
                .smem = 0,
                .stack = 640,
                .spill_stores = 600,
                .spill_loads = 592,
                .cmem = {{0, 372}, {2, 200}},
                .cumulative_stack = 640});
    check(log, {.mangled = "internal_accurate_pow", .arch = "sm_89", .entry = false, .stack = 0, .spill_stores = 0, .spill_loads = 0});
    check(
        log,
        {.mangled = "internal_trig_reduction_slowpathd", .arch = "sm_89", .entry = false, .stack = 0, .spill_stores = 8, .spill_loads = 8});
    // The first line's kernel is not in the log: its registers are not given to the next one.
    CHECK(log.unknown_lines == 1);
    CHECK(log.gmem == 290);
}

TEST_CASE("variant: XLA spill warnings alone: a record per warning with its spills, every other figure empty") {
    const PtxasLog log = variant("xla_spill_warnings_only.log");
    REQUIRE(log.kernels.size() == 3);
    // One fusion compiled twice (autotuning), in log order.
    check(log, {.mangled = "gemm_fusion_dot_41", .occurrence = 1, .spill_stores = 316, .spill_loads = 316});
    check(log, {.mangled = "gemm_fusion_dot_41", .occurrence = 2, .spill_stores = 548, .spill_loads = 548});
    check(log, {.mangled = "gemm_fusion_dot_207", .spill_stores = 120, .spill_loads = 120});
    CHECK(log.kernels[0].spill_stores == 316);
    CHECK(log.kernels[1].spill_stores == 548);
    CHECK(log.kernels[0].occurrences == 2);
    for (const PtxasKernel& k : log.kernels) {
        CHECK(k.format == occ::io::kSpillWarningFormat);
        CHECK(k.entry);
        CHECK(any_diagnostic(k, "Registers are spilled to local memory"));
    }
    CHECK(log.kernels[0].line == 3);
    REQUIRE(log.diagnostics.size() == 3);
    CHECK(log.diagnostics[0].rfind("ptxas warning : Registers are spilled", 0) == 0);  // from the tag on, without the glog prefix
    CHECK(log.diagnostics[2].find("'gemm_fusion_dot_207', 120 bytes spill stores") != std::string::npos);
}

TEST_CASE("variant: XLA autotuning: spill-only compilations of one name keep their order around a -v record") {
    const PtxasLog log = variant("xla_spill_autotune.log");
    REQUIRE(log.kernels.size() == 5);
    const char* order[] = {"triton_softmax_fusion_12", "triton_softmax_fusion_12", "loop_add_fusion_3", "triton_softmax_fusion_12",
                           "gemm_fusion_dot_5"};
    for (std::size_t i = 0; i < 5; ++i) CHECK(log.kernels[i].mangled == order[i]);
    check(log, {.mangled = "triton_softmax_fusion_12", .occurrence = 1, .spill_stores = 72, .spill_loads = 64});
    check(log, {.mangled = "triton_softmax_fusion_12", .occurrence = 2, .spill_stores = 200, .spill_loads = 196});
    check(log, {.mangled = "triton_softmax_fusion_12", .occurrence = 3, .spill_stores = 16, .spill_loads = 12});
    check(log, {.mangled = "gemm_fusion_dot_5", .spill_stores = 40, .spill_loads = 0});
    check(log, {.mangled = "loop_add_fusion_3",
                .arch = "sm_90a",
                .registers = 18,
                .smem = 0,
                .stack = 0,
                .spill_stores = 0,
                .spill_loads = 0,
                .barriers = 0,
                .cmem = {{0, 536}}});
    CHECK(log.kernels[2].format == "ptxas");
    CHECK(log.kernels[3].occurrences == 3);
}

TEST_CASE("variant: a stack-size warning before the record it names, and an error for a kernel not in the log") {
    const PtxasLog log = variant("stack_size_warnings.log");
    REQUIRE(log.kernels.size() == 1);
    check(log, {.mangled = "_ZN3mvs5sweepILi5ELb1EEEvPfi",
                .arch = "sm_61",
                .registers = 72,
                .smem = 2176,
                .stack = 1120,
                .spill_stores = 0,
                .spill_loads = 0,
                .cmem = {{0, 392}, {2, 24}},
                .cumulative_stack = 1120});
    CHECK(any_diagnostic(log.kernels[0], "cannot be statically determined"));
    CHECK(log.diagnostics.size() == 2);
    CHECK(log.skipped_lines == 6);
}

TEST_CASE("variant: names already demangled, with spaces and commas") {
    const PtxasLog log = variant("demangled_names_in_quotes.log");
    REQUIRE(log.kernels.size() == 2);
    check(log, {.mangled = "walk_tree(kdtree, int*, double, int, double*, double*)",
                .arch = "sm_20",
                .registers = 42,
                .smem = 0,
                .stack = 64,
                .spill_stores = 0,
                .spill_loads = 0,
                .cmem = {{0, 168}, {14, 24}}});
    check(log, {.mangled = "shade(int)",
                .arch = "sm_35",
                .registers = 6,
                .smem = 16,
                .stack = 0,
                .spill_stores = 0,
                .spill_loads = 0,
                .cmem = {{0, 328}}});
    CHECK(log.kernels[1].name == "shade(int)");
}

TEST_CASE("variant: cuobjdump of a fat binary: two arch sections, a device function, no spill figures") {
    const PtxasLog log = variant("cuobjdump_two_archs.log");
    REQUIRE(log.kernels.size() == 3);
    check(log, {.mangled = "_Z6gatherPfS_",
                .arch = "sm_52",
                .registers = 19,
                .smem = 0,
                .stack = 0,
                .cmem = {{0, 340}, {2, 52}},
                .local = 0,
                .textures = 0});
    check(log, {.mangled = "_Z4lerpf", .arch = "sm_52", .entry = false, .registers = 12, .smem = 0, .stack = 0, .local = 0, .textures = 0});
    check(log, {.mangled = "_Z6gatherPfS_",
                .arch = "sm_70",
                .registers = 22,
                .smem = 3072,
                .stack = 16,
                .cmem = {{0, 376}},
                .local = 8,
                .textures = 0});
    for (const PtxasKernel& k : log.kernels) CHECK(k.format == "cuobjdump");
    CHECK(log.gmem == 16);
    CHECK(log.skipped_lines == 2);
}

TEST_CASE("variant: one nvcc call, four -gencode targets") {
    const PtxasLog log = variant("fat_multi_gencode.log");
    REQUIRE(log.kernels.size() == 4);
    const char* arches[] = {"sm_52", "sm_60", "sm_61", "sm_70"};
    const int regs[] = {64, 62, 64, 56};
    for (int i = 0; i < 4; ++i)
        check(log, {.mangled = "_Z13dock_minimizePfS_",
                    .arch = arches[i],
                    .registers = regs[i],
                    .smem = 7400,
                    .stack = 0,
                    .spill_stores = 0,
                    .spill_loads = 0,
                    .cmem = {{0, i == 3 ? 352 : 336}, {2, 108}}});
    for (const PtxasKernel& k : log.kernels) CHECK(k.occurrences == 1);
}

TEST_CASE("variant: Kepler output without properties lines: lmem after the banks, textures") {
    const PtxasLog log = variant("sm30_lmem_textures.log");
    REQUIRE(log.kernels.size() == 2);
    check(log, {.mangled = "_Z18scrypt_core_kernelILi1EEvPjii",
                .arch = "sm_30",
                .registers = 63,
                .smem = 0,
                .cmem = {{0, 336}, {2, 4}},
                .local = 72,
                .textures = 1});
    check(log, {.mangled = "_Z16keccak_hash_lastPmj", .arch = "sm_30", .registers = 51, .smem = 0, .cmem = {{0, 345}, {2, 4}}});
}

TEST_CASE("variant: every line indented, textures on the Used line") {
    const PtxasLog log = variant("indented_sm80_textures.log");
    REQUIRE(log.kernels.size() == 2);
    check(log, {.mangled = "_Z21salsa_core_kernelB_LGILi1EEvPjjj",
                .arch = "sm_80",
                .registers = 64,
                .smem = 0,
                .stack = 184,
                .spill_stores = 436,
                .spill_loads = 440,
                .cmem = {{0, 368}}});
    check(log, {.mangled = "_Z25salsa_core_kernelB_LG_texILi1ELi2EEvPjjj",
                .arch = "sm_80",
                .registers = 64,
                .smem = 0,
                .stack = 168,
                .spill_stores = 392,
                .spill_loads = 392,
                .cmem = {{0, 372}},
                .textures = 1});
    CHECK(log.gmem == 0);
}

TEST_CASE("variant: wrapped lines: a Used line split mid-item and after a comma, a wrapped note and warning") {
    const PtxasLog log = variant("wrapped_lines_sm90.log");
    REQUIRE(log.kernels.size() == 2);
    const char* gemm = "_ZN4gemm13fp8_grouped_kILj128ELj4096EEEvPvPij";
    check(log, {.mangled = gemm,
                .arch = "sm_90a",
                .registers = 168,
                .smem = 0,
                .stack = 48,
                .spill_stores = 0,
                .spill_loads = 0,
                .barriers = 16,
                .cumulative_stack = 48});
    check(log, {.mangled = "_ZN4gemm10scale_rowsEPfi",
                .arch = "sm_90a",
                .registers = 18,
                .smem = 1024,
                .stack = 0,
                .spill_stores = 0,
                .spill_loads = 0,
                .barriers = 1,
                .cmem = {{0, 480}}});
    const PtxasKernel& k = log.kernels[0];
    REQUIRE(k.diagnostics.size() == 2);
    CHECK(k.diagnostics[0].find("crossing function boundary at a function call in the function '" + std::string(gemm) + "'") !=
          std::string::npos);
    CHECK(k.diagnostics[1].find("'" + std::string(gemm) + "', size of stack frame: 48 bytes") != std::string::npos);
    CHECK(log.kernels[1].diagnostics.empty());
    CHECK(log.unknown_lines == 0);
    CHECK(log.skipped_lines == 2);
}

TEST_CASE("variant: indented wgmma notes before the record they name") {
    const PtxasLog log = variant("wgmma_notes_indented.log");
    REQUIRE(log.kernels.size() == 1);
    check(log, {.mangled = "_ZN7cutlass13device_kernelI12gemm_128x256EEvNT_6ParamsE",
                .arch = "sm_90a",
                .registers = 168,
                .smem = 0,
                .stack = 0,
                .spill_stores = 0,
                .spill_loads = 0,
                .barriers = 1,
                .cmem = {{0, 576}}});
    CHECK(any_diagnostic(log.kernels[0], "(C7511)"));
    CHECK(log.diagnostics.empty());
}

TEST_CASE("variant: a glog-prefixed ptxas fatal error and nothing else") {
    const PtxasLog log = variant("glog_fatal_only.log");
    CHECK(log.kernels.empty());
    REQUIRE(log.diagnostics.size() == 1);
    CHECK(log.diagnostics[0] == "ptxas fatal   : Value 'sm_121' is not defined for option 'gpu-name'");
}

TEST_CASE("variant: ptxas output inside a Julia error, with the runtime's device functions") {
    const PtxasLog log = variant("julia_failed_compile.log");
    REQUIRE(log.kernels.size() == 3);
    check(log, {.mangled = "_Z22julia_map_kernel_481215CuKernelContext13CuDeviceArrayI7Float32Li1ELi1EE",
                .arch = "sm_86",
                .registers = 28,
                .smem = 0,
                .stack = 32,
                .spill_stores = 0,
                .spill_loads = 0,
                .cmem = {{0, 480}, {2, 8}}});
    for (const char* fn : {"gpu_report_exception", "gpu_signal_exception"})
        check(log, {.mangled = fn, .arch = "sm_86", .entry = false, .stack = 0, .spill_stores = 0, .spill_loads = 0});
    CHECK(log.skipped_lines == 6);
}

TEST_CASE("variant: make errors interleaved with ptxas output; extern \"C\" names") {
    const PtxasLog log = variant("make_errors_interleaved.log");
    REQUIRE(log.kernels.size() == 3);
    check(log, {.mangled = "countPointsPerVoxel",
                .arch = "sm_52",
                .registers = 21,
                .smem = 0,
                .stack = 0,
                .spill_stores = 0,
                .spill_loads = 0,
                .cmem = {{0, 408}, {2, 16}}});
    check(log, {.mangled = "__internal_trig_reduction_slowpathd",
                .arch = "sm_52",
                .entry = false,
                .stack = 40,
                .spill_stores = 0,
                .spill_loads = 0});
    check(log, {.mangled = "eigenSolve",
                .arch = "sm_52",
                .registers = 55,
                .smem = 0,
                .stack = 48,
                .spill_stores = 0,
                .spill_loads = 0,
                .cmem = {{0, 408}, {2, 320}}});
    for (const PtxasKernel& k : log.kernels) CHECK(k.diagnostics.empty());
    CHECK(log.skipped_lines == 6);
}

TEST_CASE("variant: a CMake progress line that took the 'p'; Kepler spills") {
    const PtxasLog log = variant("cmake_progress_lost_p.log");
    REQUIRE(log.kernels.size() == 1);
    check(log, {.mangled = "_Z18hash_calc_dag_itemj",
                .arch = "sm_30",
                .registers = 63,
                .smem = 0,
                .stack = 640,
                .spill_stores = 1120,
                .spill_loads = 1024,
                .cmem = {{0, 324}, {2, 4}}});
    CHECK(log.gmem == 0);
    CHECK(log.skipped_lines == 4);
}

TEST_CASE("variant: two files for two architectures in one log") {
    const PtxasLog log = variant("mixed_arch_two_files.log");
    REQUIRE(log.kernels.size() == 3);
    check(log, {.mangled = "_Z19stream_cipher_blockPKhPhm",
                .arch = "sm_70",
                .registers = 44,
                .smem = 0,
                .stack = 64,
                .spill_stores = 0,
                .spill_loads = 0,
                .cmem = {{0, 428}}});
    check(log,
          {.mangled = "_Z16cipher_round_devPKhPhm", .arch = "sm_70", .entry = false, .stack = 88, .spill_stores = 4, .spill_loads = 4});
    check(log, {.mangled = "_Z13verify_chainsPhPmm",
                .arch = "sm_37",
                .registers = 70,
                .smem = 0,
                .stack = 112,
                .spill_stores = 0,
                .spill_loads = 0,
                .cmem = {{0, 344}}});
}

TEST_CASE("variant: separate compilation: device functions without Used lines, before and after the kernel") {
    const PtxasLog log = variant("rdc_device_functions.log");
    REQUIRE(log.kernels.size() == 3);
    check(log, {.mangled = "_Z7softcapf", .entry = false, .stack = 0, .spill_stores = 0, .spill_loads = 0});  // before any "for 'sm_XX'"
    check(log, {.mangled = "_Z5applyPfS_",
                .arch = "sm_52",
                .registers = 19,
                .smem = 0,
                .stack = 0,
                .spill_stores = 0,
                .spill_loads = 0,
                .cmem = {{0, 336}}});
    check(log, {.mangled = "cudaGetDevice", .arch = "sm_52", .entry = false, .stack = 0, .spill_stores = 0, .spill_loads = 0});
    for (const PtxasKernel& k : log.kernels) CHECK(k.diagnostics.empty());
}

TEST_CASE("variant: a CUDA 1.x text cubin is not a log: nothing read, every line skipped") {
    const PtxasLog log = variant("cubin_text_cuda1.log");
    CHECK(log.kernels.empty());
    CHECK(log.recognised_lines == 0);
    CHECK(log.skipped_lines == log.lines);
}
