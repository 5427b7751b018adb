// fuzz_amd.cpp — the AMD readers (occ/io/amd_artefacts.hpp) fed any bytes. The first byte picks the
// way in: 0 the MessagePack reader (code-object metadata), 1 the LLVM text reader (remarks and
// AMDGPU assembly) and the ptxas kind on MI300X and on each kernel's own target, 3 the
// rocprof-compute readers (occ/io/rocprof.hpp: analyze text, pmc_perf.csv) and the ptxas kind on gfx90a, anything else
// read_binary (AMD code objects, offload bundles plain and compressed, .hip_fatbin, rocprof-compute
// text) and the kernels kind on gfx942. Seeds: tests/fixtures/amd (llc-19 / llc-14 output, code
// objects, bundles), tests/fixtures/rocprof (AMD's published analyze output).
// Properties: never crashes, hangs or allocates without bound; an error names the file; no figure
// negative; AMD kernels have a gfx arch or none; a row has an occupancy the model accepted or a
// reason; every answer serialises as strict JSON.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_common.hpp"
#include "occ/io/amd_artefacts.hpp"
#include "occ/io/binary.hpp"
#include "occ/io/rocprof.hpp"

namespace {

template <typename T>
bool non_negative(const std::optional<T>& v) {
    return !v || *v >= 0;
}

void check_kernel(const occ::io::PtxasKernel& k) {
    FUZZ_CHECK(k.amd.has_value(), "an AMD reader's kernel without its AMD part");
    const occ::io::AmdResources& a = *k.amd;
    FUZZ_CHECK(non_negative(k.registers) && non_negative(k.smem_static) && non_negative(k.stack_frame), k.mangled);
    FUZZ_CHECK(non_negative(a.agprs) && non_negative(a.sgprs) && non_negative(a.vgprs_total) && non_negative(a.sgpr_spills) &&
                   non_negative(a.vgpr_spills) && non_negative(a.wave_size) && non_negative(a.max_workgroup_size) &&
                   non_negative(a.kernarg_bytes) && non_negative(a.llvm_occupancy),
               k.mangled);
    FUZZ_CHECK(!k.spill_stores && !k.spill_loads && !k.barriers, "a figure AMD artefacts do not hold");
    FUZZ_CHECK(k.arch.empty() || k.arch.rfind("gfx", 0) == 0, k.arch);
    FUZZ_CHECK(k.occurrence >= 1 && k.occurrence <= k.occurrences, k.mangled);
}

void check_rows(const occ::io::PtxasAnswer& a) {
    for (const auto& row : a.rows) {
        FUZZ_CHECK(row.kernel < a.log.kernels.size(), "row index");
        FUZZ_CHECK(!row.amd_result || (row.amd_result->ok() && row.error.empty()), "an occupancy with an error");
        FUZZ_CHECK(row.result || row.amd_result || !row.error.empty(), "a row with neither occupancy nor reason");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1 || size > 1024 * 1024) return 0;
    const std::span<const unsigned char> bytes(data + 1, size - 1);
    if (data[0] == 0) {
        const auto v = occ::io::parse_msgpack(bytes);
        FUZZ_CHECK(v.value.has_value() != !v.error.empty(), "a value and an error");
        FUZZ_CHECK(v || v.error.rfind("MessagePack: ", 0) == 0, v.error);
        return 0;
    }
    if (data[0] == 1) {
        const std::string text(bytes.begin(), bytes.end());
        const occ::io::PtxasLog log = occ::io::parse_amd_text(text);
        FUZZ_CHECK(log.recognised_lines + log.skipped_lines + log.unknown_lines <= log.lines, std::to_string(log.lines));
        for (const auto& k : log.kernels) check_kernel(k);
        for (const occ::fuzz::json& req : {occ::fuzz::json{{"log", text}, {"gpu", "MI300X"}}, occ::fuzz::json{{"log", text}}}) {
            const auto a = occ::io::answer_ptxas(req);
            FUZZ_CHECK(a.value.has_value(), "answer_ptxas refused a log: " + a.error);
            check_rows(*a);
            occ::fuzz::dump_strict(occ::io::to_json(*a));
        }
        return 0;
    }
    if (data[0] == 3) {
        const std::string text(bytes.begin(), bytes.end());
        const occ::io::PtxasLog log = occ::io::parse_rocprof_compute(text);
        FUZZ_CHECK(log.recognised_lines + log.skipped_lines <= log.lines, std::to_string(log.lines));
        occ::io::PtxasLog all = occ::io::parse_rocprof_csv(text, "gfx942");
        all.kernels.insert(all.kernels.end(), log.kernels.begin(), log.kernels.end());
        FUZZ_CHECK(occ::io::rocprof_sysinfo_arch(text).size() <= 16, "a gfx name");
        for (const auto& k : all.kernels) {
            check_kernel(k);
            FUZZ_CHECK(k.amd->profile.has_value(), "a rocprof-compute row without its profile");
            const occ::io::AmdProfile& p = *k.amd->profile;
            FUZZ_CHECK(non_negative(p.workgroup_size) && non_negative(p.grid_size) && non_negative(p.dispatches), k.name);
            FUZZ_CHECK(p.measured.size() <= occ::io::rocprof_measured_metrics().size(), k.name);
        }
        const auto a = occ::io::answer_ptxas(occ::fuzz::json{{"log", text}, {"arch", "gfx90a"}, {"threads", 256}});
        FUZZ_CHECK(a.value.has_value(), "answer_ptxas refused a log: " + a.error);
        check_rows(*a);
        occ::fuzz::dump_strict(occ::io::to_json(*a));
        return 0;
    }
    occ::io::BinaryRead r = occ::io::read_binary("fuzz.bin", bytes);
    FUZZ_CHECK(r.error.empty() || r.error.rfind("fuzz.bin: ", 0) == 0, r.error);
    FUZZ_CHECK(r.diagnostics.size() <= 50, std::to_string(r.diagnostics.size()));
    FUZZ_CHECK(r.code_objects >= 0, "counts");
    for (const auto& k : r.kernels)
        if (k.amd) check_kernel(k);
    std::vector<occ::io::BinaryRead> files;
    files.push_back(std::move(r));
    const auto a = occ::io::answer_kernels(occ::fuzz::json{{"arch", "gfx942"}, {"threads", 128}}, std::move(files));
    FUZZ_CHECK(a.value.has_value(), "answer_kernels refused a request with only a target: " + a.error);
    check_rows(a->rows);
    occ::fuzz::dump_strict(occ::io::to_json(*a));
    return 0;
}
