// Roofline (occ/roofline.hpp): known answers from MODEL.md and the vendor datasheets cited in
// lib/core/src/roofline.cpp.
#include <doctest/doctest.h>

#include "occ/io/api.hpp"
#include "occ/roofline.hpp"

using namespace occ;

namespace {
RooflineDevice dev(const char* name) {
    auto d = find_roofline_device(name);
    REQUIRE_MESSAGE(d, name);
    return *d;
}
Operation decode(Precision dtype) {
    Operation op;
    op.kind = OpKind::attention_decode;
    op.dtype = dtype;
    op.seq_len = 4096;
    op.head_dim = 128;
    return op;
}
}  // namespace

TEST_CASE("A100 FP16 tensor ridge ~ 156 FLOP/byte (312 TFLOP/s / ~2.0 TB/s)") {
    const RooflineDevice a100 = dev("A100");
    CHECK(a100.name == "A100-SXM4-80GB");
    CHECK(a100.at(Precision::fp16).tflops == 312);  // [A100DS]
    CHECK(a100.at(Precision::fp16).tensor);
    CHECK(a100.dram_gbps == 2039);  // [A100DS] 80GB SXM4
    const double ridge = ridge_point(312e12, a100.dram_gbps * 1e9);
    CHECK(ridge == doctest::Approx(156).epsilon(0.03));  // 153.0 with 2,039 GB/s; 156 with 2.0 TB/s
    CHECK(ridge_point(312e12, 2.0e12) == doctest::Approx(156));
}

TEST_CASE("decode-time attention intensity: 2 / bytes per element (0.5 FP32, 1 FP16)") {
    const OpCost f32 = operation_cost(decode(Precision::fp32));
    CHECK(f32.flops / f32.bytes == doctest::Approx(0.5));
    const OpCost f16 = operation_cost(decode(Precision::fp16));
    CHECK(f16.flops / f16.bytes == doctest::Approx(1.0));
    CHECK(f16.flops == doctest::Approx(4.0 * 4096 * 128));
    CHECK(f16.bytes == doctest::Approx(2.0 * 4096 * 128 * 2));
    // Memory-bound on every device in the table, in either precision.
    for (const RooflineDevice& d : roofline_devices()) {
        for (Precision p : {Precision::fp32, Precision::fp16}) {
            RooflineQuery q{d, decode(p), std::nullopt, MemoryLevel::dram, 0};
            const RooflinePoint r = compute_roofline(q);
            if (!r.ok()) continue;  // a device without a figure for that precision
            CAPTURE(d.name);
            CHECK(r.memory_bound);
        }
    }
}

TEST_CASE("A100 vs a 77 GB/s phone SoC on decode ~ 26x") {
    RooflineQuery a{dev("A100"), decode(Precision::fp16), std::nullopt, MemoryLevel::dram, 0};
    RooflineQuery p{dev("phone"), decode(Precision::fp16), std::nullopt, MemoryLevel::dram, 0};
    const RooflinePoint ra = compute_roofline(a), rp = compute_roofline(p);
    REQUIRE(ra.ok());
    REQUIRE(rp.ok());
    CHECK(rp.bandwidth == doctest::Approx(76.8e9));
    CHECK(ra.attainable / rp.attainable == doctest::Approx(26).epsilon(0.03));  // 2039 / 76.8 = 26.5
    // The same through the JSON API's compare list.
    const occ::io::json r = occ::io::handle(
        "roofline", occ::io::json{{"gpu", "A100"}, {"op", "attention_decode"}, {"dtype", "fp16"}, {"compare", {"phone"}}});
    REQUIRE(r["error"].is_null());
    CHECK(r["compare"][0]["speedup"].get<double>() == doctest::Approx(26).epsilon(0.03));
}

TEST_CASE("matmul is compute-bound on A100 FP16, attainable = min(peak, bw x I)") {
    Operation mm;  // 4096^3 FP16
    const OpCost c = operation_cost(mm);
    CHECK(c.flops == doctest::Approx(2.0 * 4096.0 * 4096 * 4096));
    CHECK(c.bytes == doctest::Approx(3.0 * 4096 * 4096 * 2));
    CHECK(c.flops / c.bytes == doctest::Approx(4096.0 / 3));  // 2MNK / (3 N^2 * 2 B) = N / 3
    const RooflinePoint r = compute_roofline(RooflineQuery{dev("A100"), mm, std::nullopt, MemoryLevel::dram, 0});
    REQUIRE(r.ok());
    CHECK_FALSE(r.memory_bound);
    CHECK(r.compute == Precision::fp16);
    CHECK(r.tensor);
    CHECK(r.attainable == doctest::Approx(312e12));
    CHECK(r.time_bound_s == doctest::Approx(c.flops / 312e12));
    // A skinny matmul (M = 1, a GEMV) is memory-bound.
    mm.m = 1;
    CHECK(compute_roofline(RooflineQuery{dev("A100"), mm, std::nullopt, MemoryLevel::dram, 0}).memory_bound);
    CHECK(attainable_flops(100, 10, 5) == 50);
    CHECK(attainable_flops(100, 10, 50) == 100);
}

TEST_CASE("elementwise, softmax, layernorm counts and fp32 default compute") {
    Operation e;
    e.kind = OpKind::elementwise;
    e.dtype = Precision::fp32;
    e.elements = 1000;
    CHECK(operation_cost(e).bytes == 12000);  // a + b -> c: 3 x 4 B
    CHECK(operation_cost(e).flops == 1000);
    CHECK(default_compute(e) == Precision::fp32);
    Operation s;
    s.kind = OpKind::softmax;
    s.dtype = Precision::fp16;
    s.rows = 10;
    s.cols = 100;
    CHECK(operation_cost(s).flops == 5000);
    CHECK(operation_cost(s).bytes == 4000);
    CHECK(default_compute(s) == Precision::fp32);
    Operation ln = s;
    ln.kind = OpKind::layernorm;
    CHECK(operation_cost(ln).flops == 8000);
    CHECK(operation_cost(ln).bytes == (2000 + 200) * 2);
    Operation bad = e;
    bad.elements = 0;
    CHECK_FALSE(operation_cost(bad).ok());
}

TEST_CASE("percent of roofline from a measured time") {
    // A100, 4096^3 FP16 matmul in 0.5 ms: 274.9 TFLOP/s of 312 attainable = 88.1%.
    const occ::io::json r = occ::io::handle(
        "roofline",
        occ::io::json{{"gpu", "A100"}, {"op", "matmul"}, {"m", 4096}, {"n", 4096}, {"k", 4096}, {"dtype", "fp16"}, {"measured_ms", 0.5}});
    REQUIRE(r["error"].is_null());
    CHECK(r["bound"] == "compute");
    CHECK(r["achieved_tflops"].get<double>() == doctest::Approx(2.0 * 4096.0 * 4096 * 4096 / 0.5e-3 / 1e12));
    CHECK(r["fraction_of_roofline"].get<double>() == doctest::Approx(274.877906944 / 312).epsilon(1e-6));
}

TEST_CASE("device table: sources, dense figures, lookups") {
    for (const RooflineDevice& d : roofline_devices()) {
        CAPTURE(d.name);
        CHECK_FALSE(d.source.empty());
        CHECK(d.dram_gbps > 0);
    }
    CHECK(dev("H100").at(Precision::fp16).tflops == doctest::Approx(989.4));  // dense, not the 1,979 sparse figure
    CHECK(dev("H100").at(Precision::fp8).tflops == doctest::Approx(1978.9));
    CHECK(dev("H200").dram_gbps == 4800);
    // B200 FP32 75 TFLOP/s and 7.7 TB/s (NVIDIA's per-GPU Blackwell table), L40S dense FP16/BF16.
    CHECK(dev("B200").at(Precision::fp32).tflops == doctest::Approx(75));
    CHECK_FALSE(dev("B200").at(Precision::fp32).tensor);
    CHECK(dev("B200").dram_gbps == 7700);
    CHECK(dev("L40S").at(Precision::fp16).tflops == doctest::Approx(362.05));
    CHECK(dev("L40S").at(Precision::bf16).tflops == doctest::Approx(362.05));
    CHECK(dev("L40S").at(Precision::fp8).tflops == doctest::Approx(733));
    CHECK(dev("MI300X").vendor == "AMD");
    CHECK(dev("M2 Ultra").dram_gbps == 800);
    CHECK_FALSE(find_roofline_device("nonsense"));
    CHECK(parse_precision("half") == Precision::fp16);
    CHECK(parse_op("gemm") == OpKind::matmul);
    CHECK(bytes_per_element(Precision::tf32) == 4);
}

TEST_CASE("roofline request: errors, L2 without a published figure, custom devices, several ops") {
    using occ::io::json;
    CHECK(occ::io::handle("roofline", json{{"gpu", "nope"}})["error"].get<std::string>().find("gpu") == 0);
    CHECK(occ::io::handle("roofline", json{{"op", "conv"}})["error"].get<std::string>().find("op") == 0);
    CHECK(occ::io::handle("roofline", json{{"m", 0}})["error"].get<std::string>().find("m") == 0);
    CHECK(occ::io::handle("roofline", json{{"memory", "l2"}})["error"].get<std::string>().find("L2") != std::string::npos);
    CHECK(occ::io::handle("roofline", json{{"gpu", "A100"}, {"dtype", "fp8"}})["error"].get<std::string>().find("fp8") !=
          std::string::npos);
    const json c = occ::io::handle("roofline", json{{"gpu", "my-npu"},
                                                    {"peak_tflops", 100},
                                                    {"bandwidth_gbps", 1000},
                                                    {"op", "custom"},
                                                    {"flops", 1e9},
                                                    {"bytes", 1e8},
                                                    {"precision", "fp32"}});
    REQUIRE(c["error"].is_null());
    CHECK(c["ridge"].get<double>() == doctest::Approx(100));
    CHECK(c["intensity"].get<double>() == doctest::Approx(10));
    CHECK(c["bound"] == "memory");
    const json m = occ::io::handle("roofline",
                                   json{{"gpu", "H100"}, {"ops", {json{{"op", "matmul"}, {"label", "gemm"}}, json{{"op", "softmax"}}}}});
    REQUIRE(m["points"].size() == 2);
    CHECK(m["points"][0]["label"] == "gemm");
    CHECK(m["points"][1]["bound"] == "memory");
    CHECK(occ::io::handle("roofline_devices", json::object())["devices"].size() >= 20);
}

TEST_CASE("a GPU of the catalogue without roofline figures is refused with that reason, not as an unknown device") {
    using occ::io::json;
    // RTX 4080: in the catalogue (Ada whitepaper: 76 SMs), no peaks cited in gpu_db.cpp.
    CHECK(roofline_refusal("RTX 4080") ==
          "RTX-4080 is in the GPU catalogue but has no published roofline figures (peak TFLOP/s and memory bandwidth)");
    // "Orin" is what deviceQuery prints on every Orin module ([JETSON] in gpu_db.cpp); only the AGX Orin 64GB has figures.
    CHECK(roofline_refusal("orin") ==
          "\"orin\" is the device name of several GPUs (Jetson-AGX-Orin, Jetson-AGX-Orin-32GB, Jetson-Orin-NX, Jetson-Orin-Nano, "
          "Jetson-Orin-Nano-4GB), of which Jetson-AGX-Orin alone has published roofline figures");
    CHECK(roofline_refusal("xavier").find("of which none has published roofline figures") != std::string::npos);
    CHECK(roofline_refusal("A100") == "");      // a roofline device
    CHECK(roofline_refusal("nonsense") == "");  // no GPU at all

    const std::string orin = occ::io::handle("roofline", json{{"gpu", "orin"}})["error"];
    CHECK(orin.find("gpu: \"orin\" is the device name of several GPUs") == 0);
    CHECK(orin.find("; name a roofline device (V100-SXM2-32GB, ") != std::string::npos);
    CHECK(orin.find("unknown device") == std::string::npos);
    const std::string l40 = occ::io::handle("roofline", json{{"gpu", "A100"}, {"compare", {"L40"}}})["error"];
    CHECK(l40 == "compare: L40 is in the GPU catalogue but has no published roofline figures (peak TFLOP/s and memory bandwidth)");
    CHECK(occ::io::handle("roofline", json{{"gpu", "nope"}})["error"].get<std::string>().find("gpu: unknown device \"nope\"") == 0);
    // With both figures given, the name is a custom device's.
    const json own = occ::io::handle("roofline", json{{"gpu", "RTX 4080"}, {"peak_tflops", 48.7}, {"bandwidth_gbps", 716.8}});
    CHECK(own["error"].is_null());
    CHECK(own["device"]["vendor"] == "custom");
}
