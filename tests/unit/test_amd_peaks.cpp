// AMD roofline peaks: every AMD entry of the catalogue carries the dense figures its source
// states, and nothing else (a precision no source read states stays 0: "not published"). The
// sources, with their tags, are cited in lib/core/src/amd_arch.cpp; the figures below are copied
// from those documents, not from the code:
//   [ROCM100] rocm.docs.amd.com/en/latest/conceptual/gpu-arch/mi100.html, "Peak-performance capabilities
//             of MI100": vector FP64 11.5, vector FP32 23.1, matrix FP16 184.6, matrix BF16 92.3; 1.228 TB/s.
//   [ANDT]    anandtech.com/show/17326 (AMD's MI210 table): MI210 22.6 / 45.3 / 22.6 / FP16 181 / INT8 181,
//             1.6 TB/s; MI100 INT8 184.6 TOPS.
//   [ROCM250] rocm.docs.amd.com/en/latest/conceptual/gpu-arch/mi250.html: MI250 90.5 / 45.3 / 45.3 /
//             362.1 (FP16, BF16, INT8); 3.2 TB/s.
//   [MI250X]  AMD's MI200 launch table (zexron.com): 47.9 vector, 95.7 matrix, 383.0 FP16/BF16/INT8, 3.2 TB/s.
//   [MI300A]  AMD's MI300A specifications (vengineer.hatenablog.com, 2023-12-11): 61.3 / 122.6 / 122.6 /
//             980.6 / 980.6; 5.3 TB/s.
//   [MI300X]  AMD Instinct MI300X datasheet; ROCm mi300.html table: 81.7 / 163.4 / 163.4 / 653.7 / 1,307.4 /
//             2,614.9; 5.3 TB/s.
//   [MI325X]  awesomeagents.ai/hardware/amd-mi325x: FP32 163.4, TF32 653.7, FP16/BF16 1,307.4, FP8 2,614.9; 6 TB/s.
//   [MI350]   Tom's Hardware (ISC 2025): MI350X and MI355X 8 TB/s; svethardware.cz: MI355X FP32 157.3.
//   [R7900]   Guru3D: RX 7900 XTX 61.4 TFLOP/s FP32, 960 GB/s.
//   [R9070]   multiplayer.it, purepc.pl: RX 9070 XT 48.7 TFLOP/s FP32, 640 GB/s.
#include <doctest/doctest.h>

#include <string>

#include "occ/device.hpp"
#include "occ/io/api.hpp"
#include "occ/roofline.hpp"

using namespace occ;

namespace {
struct Expected {
    const char* name;
    double fp64, fp64_tensor, fp32, tf32, fp16, bf16, fp8, int8, dram_gbps;
};
// 0 = no figure in the source read (the roofline refuses that precision).
constexpr Expected kExpected[] = {
    // name, fp64, fp64 matrix, fp32, tf32, fp16, bf16, fp8, int8 (TFLOP/s, TOP/s), DRAM GB/s
    {"MI100", 11.5, 0, 23.1, 0, 184.6, 92.3, 0, 184.6, 1228},                     // [ROCM100], INT8 [ANDT]
    {"MI210", 22.6, 45.3, 22.6, 0, 181, 0, 0, 181, 1600},                         // [ANDT]
    {"MI250", 45.3, 90.5, 45.3, 0, 362.1, 362.1, 0, 362.1, 3200},                 // [ROCM250]
    {"MI250X", 47.9, 95.7, 47.9, 0, 383.0, 383.0, 0, 383.0, 3200},                // [MI250X]
    {"MI300A", 61.3, 122.6, 122.6, 0, 980.6, 980.6, 0, 0, 5300},                  // [MI300A]
    {"MI300X", 81.7, 163.4, 163.4, 653.7, 1307.4, 1307.4, 2614.9, 2614.9, 5300},  // [MI300X]
    {"MI325X", 0, 0, 163.4, 653.7, 1307.4, 1307.4, 2614.9, 0, 6000},              // [MI325X]
    {"MI350X", 0, 0, 0, 0, 0, 0, 0, 0, 8000},                                     // [MI350]
    {"MI355X", 0, 0, 157.3, 0, 0, 0, 0, 0, 8000},                                 // [MI350]
    {"RX-7900-XTX", 0, 0, 61.4, 0, 0, 0, 0, 0, 960},                              // [R7900]
    {"RX-9070-XT", 0, 0, 48.7, 0, 0, 0, 0, 0, 640},                               // [R9070]
};
}  // namespace

TEST_CASE("AMD catalogue: every entry's roofline peaks are its sources' dense figures") {
    std::size_t checked = 0;
    for (const Expected& e : kExpected) {
        CAPTURE(e.name);
        const GpuEntry* g = find_gpu_entry(e.name);
        REQUIRE(g != nullptr);
        CHECK(std::string(g->vendor) == "AMD");
        REQUIRE(g->peaks.source != nullptr);
        CHECK(g->peaks.fp64 == e.fp64);
        CHECK(g->peaks.fp64_tensor == e.fp64_tensor);
        CHECK(g->peaks.fp32 == e.fp32);
        CHECK(g->peaks.tf32 == e.tf32);
        CHECK(g->peaks.fp16 == e.fp16);
        CHECK(g->peaks.bf16 == e.bf16);
        CHECK(g->peaks.fp8 == e.fp8);
        CHECK(g->peaks.int8 == e.int8);
        CHECK(g->peaks.dram_gbps == e.dram_gbps);
        CHECK(g->peaks.matrix_units);  // CDNA matrix cores; the Radeon rows publish FP32 (vector) only
        ++checked;
    }
    CHECK(checked == amd_gpus().size());  // a new AMD entry needs its row here
}

TEST_CASE("MI250X ridge point from its datasheet figures: 383 TFLOP/s FP16 / 3.2 TB/s = 119.7 FLOP/byte") {
    const auto d = find_roofline_device("AMD Instinct MI250X");
    REQUIRE(d);
    CHECK(d->name == "MI250X");
    CHECK(d->at(Precision::fp16).tensor);
    CHECK_FALSE(d->at(Precision::fp64).tensor);
    Operation mm;  // 4096^3 FP16 matmul: compute-bound
    const RooflinePoint p = compute_roofline(RooflineQuery{*d, mm, std::nullopt, MemoryLevel::dram, 0});
    REQUIRE(p.ok());
    CHECK(p.ridge == doctest::Approx(383.0e12 / 3200e9));  // 119.6875
    CHECK(p.attainable == doctest::Approx(383.0e12));
    // FP64 vector: 47.9 / 3.2 = 14.97 FLOP/byte; FP64 matrix: 95.7 / 3.2 = 29.9.
    const occ::io::json r = occ::io::handle("roofline", occ::io::json{{"gpu", "MI250X"}, {"op", "matmul"}, {"dtype", "fp64"}});
    REQUIRE(r["error"].is_null());
    CHECK(r["ridge"].get<double>() == doctest::Approx(47.9e12 / 3200e9));
    const occ::io::json m = occ::io::handle("roofline", occ::io::json{{"gpu", "MI250X"}, {"op", "matmul"}, {"dtype", "fp64_tensor"}});
    REQUIRE(m["error"].is_null());
    CHECK(m["ridge"].get<double>() == doctest::Approx(95.7e12 / 3200e9));
}

TEST_CASE("an AMD precision no source states is refused, not invented") {
    // MI350X: bandwidth only; a user-given peak still works with its 8 TB/s.
    const occ::io::json r = occ::io::handle("roofline", occ::io::json{{"gpu", "MI350X"}, {"op", "matmul"}, {"dtype", "fp16"}});
    REQUIRE(r["error"].is_string());
    CHECK(r["error"].get<std::string>().find("MI350X has no published fp16 peak") != std::string::npos);
    const occ::io::json u = occ::io::handle("roofline",
                                            occ::io::json{{"gpu", "MI350X"}, {"op", "matmul"}, {"dtype", "fp16"}, {"peak_tflops", 2000}});
    REQUIRE(u["error"].is_null());
    CHECK(u["ridge"].get<double>() == doctest::Approx(2000e12 / 8000e9));
    // MI100 has no FP64 matrix instructions (CDNA 1), MI210 no BF16 figure in the sources read.
    CHECK(occ::io::handle("roofline", occ::io::json{{"gpu", "MI100"}, {"dtype", "fp64_tensor"}})["error"].is_string());
    CHECK(occ::io::handle("roofline", occ::io::json{{"gpu", "MI210"}, {"dtype", "bf16"}})["error"].is_string());
}
