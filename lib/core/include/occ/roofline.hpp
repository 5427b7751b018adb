// occ/roofline.hpp — the roofline model (Williams, Waterman, Patterson, "Roofline: An Insightful
// Visual Performance Model for Multicore Architectures", CACM 52(4), 2009).
//
//   arithmetic intensity I = FLOPs / bytes moved (to and from the chosen memory level)
//   attainable            = min(peak FLOP/s, bandwidth × I)
//   ridge point           = peak / bandwidth   (I below it: memory-bound; at or above: compute-bound)
//   % of roofline         = (FLOPs / measured time) / attainable = lower-bound time / measured time
//
// [SECTION] Precisions and data types
// [SECTION] Devices     peak dense throughput per precision and bandwidth: the GPU catalogue's (gpu_db.cpp)
// [SECTION] Operations  FLOP and byte counts for common kernels
// [SECTION] Model
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace occ {

// [SECTION] Precisions and data types
// The precision a peak figure is for. fp64_tensor is FP64 on tensor cores (DMMA, 8.0+); tf32, fp16,
// bf16, fp8 and int8 figures are tensor-core (matrix) figures on NVIDIA/AMD parts and plain ALU
// figures on devices without matrix units (each entry says which).
enum class Precision : std::uint8_t { fp64, fp64_tensor, fp32, tf32, fp16, bf16, fp8, int8 };
inline constexpr int kPrecisionCount = 8;
inline constexpr Precision kAllPrecisions[kPrecisionCount] = {Precision::fp64, Precision::fp64_tensor, Precision::fp32, Precision::tf32,
                                                              Precision::fp16, Precision::bf16,        Precision::fp8,  Precision::int8};
const char* precision_name(Precision p);                       // "fp64", "fp64_tensor", "fp32", ...
std::optional<Precision> parse_precision(std::string_view s);  // case-insensitive; also "half", "float", "double", "e4m3"
int bytes_per_element(Precision p);                            // 8, 8, 4, 4 (tf32 is stored as fp32), 2, 2, 1, 1

// [SECTION] Devices
struct PeakFigure {
    double tflops = 0.0;  // dense TFLOP/s (TOP/s for int8); 0 = not published / not supported
    bool tensor = false;  // on tensor cores / matrix units
};

struct RooflineDevice {
    std::string name;     // the catalogue entry's canonical name (occ/device.hpp, GpuEntry)
    std::string vendor;   // "NVIDIA", "AMD", "Apple", "reference"
    std::string aliases;  // comma-separated, for lookup (NVIDIA GPUs: empty, found through find_gpu)
    std::array<PeakFigure, kPrecisionCount> peak{};
    double dram_gbps = 0.0;  // DRAM (HBM/GDDR/LPDDR) bandwidth, GB/s (10^9 B/s)
    double l2_gbps = 0.0;    // L2 bandwidth where the vendor publishes it, else 0
    std::string source;      // where the numbers come from

    const PeakFigure& at(Precision p) const { return peak[static_cast<std::size_t>(p)]; }
};

// Every GPU of the catalogue with published peaks, then the reference devices (GpuPeaks::list_position).
std::span<const RooflineDevice> roofline_devices();
// By canonical name or alias (case, spaces, dashes and vendor words ignored); NVIDIA GPUs also by
// any name the occupancy device database accepts ("a100" -> A100-SXM4-80GB).
std::optional<RooflineDevice> find_roofline_device(std::string_view name);
// Why find_roofline_device refuses a name that does name a GPU of the catalogue: the GPU has no
// published roofline figures, or the name is shared by several GPUs (ambiguous_gpu; those with
// figures are named). "" when the name is no GPU occ knows.
std::string roofline_refusal(std::string_view name);

// [SECTION] Operations
enum class OpKind : std::uint8_t { matmul, attention_decode, elementwise, softmax, layernorm, custom };
const char* op_name(OpKind k);                       // "matmul", "attention_decode", ...
std::optional<OpKind> parse_op(std::string_view s);  // also "gemm", "attention", "decode", "add"

struct Operation {
    OpKind kind = OpKind::matmul;
    Precision dtype = Precision::fp16;  // element type in memory
    // matmul C[M×N] = A[M×K] · B[K×N]
    std::int64_t m = 4096, n = 4096, k = 4096;
    // decode-time attention: one new query token against a KV cache of seq_len tokens
    std::int64_t seq_len = 4096, head_dim = 128, heads = 1, batch = 1;
    // elementwise: out = f(in_1, ..., in_inputs) over `elements` elements
    std::int64_t elements = 1 << 24;
    int inputs = 2;
    double flops_per_element = 1.0;
    // softmax / layernorm over `rows` rows of `cols` elements
    std::int64_t rows = 4096, cols = 4096;
    // custom
    double flops = 0.0, bytes = 0.0;
};

struct OpCost {
    double flops = 0.0;
    double bytes = 0.0;
    std::string formula;  // how the two numbers were counted
    std::string error;
    bool ok() const { return error.empty(); }
};
// Minimal-traffic counts: every input read once from memory, every output written once.
OpCost operation_cost(const Operation& op);
// The precision whose peak bounds the op when none is chosen: matmul runs in its dtype (tensor
// cores for tf32/fp16/bf16/fp8/int8); the other presets run on the CUDA cores and accumulate in
// fp32 (fp64 for fp64 data), as softmax / layernorm kernels usually do.
Precision default_compute(const Operation& op);

// [SECTION] Model
enum class MemoryLevel : std::uint8_t { dram, l2 };

inline double ridge_point(double peak_flops, double bandwidth) { return bandwidth > 0 ? peak_flops / bandwidth : 0.0; }
inline double attainable_flops(double peak_flops, double bandwidth, double intensity) {
    const double mem = bandwidth * intensity;
    return mem < peak_flops ? mem : peak_flops;
}

struct RooflineQuery {
    RooflineDevice device;
    Operation op;
    std::optional<Precision> compute;  // default: default_compute(op)
    MemoryLevel memory = MemoryLevel::dram;
    double measured_s = 0.0;  // 0 = no measurement
};

struct RooflinePoint {
    double flops = 0.0, bytes = 0.0, intensity = 0.0;  // FLOP, byte, FLOP/byte
    Precision compute = Precision::fp32;
    bool tensor = false;
    double peak_flops = 0.0;  // FLOP/s
    double bandwidth = 0.0;   // byte/s
    double ridge = 0.0;       // FLOP/byte
    double attainable = 0.0;  // FLOP/s
    bool memory_bound = false;
    double time_compute_s = 0.0;  // flops / peak
    double time_memory_s = 0.0;   // bytes / bandwidth
    double time_bound_s = 0.0;    // the larger: the fastest the op can run
    double measured_s = 0.0;
    double achieved_flops = 0.0;        // flops / measured (when measured)
    double achieved_bandwidth = 0.0;    // bytes / measured
    double fraction_of_roofline = 0.0;  // achieved / attainable, 0..1+ (when measured)
    std::string formula;
    std::string error;
    bool ok() const { return error.empty(); }
};

RooflinePoint compute_roofline(const RooflineQuery& q);

// [SECTION] Formatting (shared by the CLI and the app so both print the same)
// Decimal SI prefixes: format_si(2.15e9, "FLOP") -> "2.15 GFLOP", format_si(312e12, "FLOP/s") -> "312 TFLOP/s".
std::string format_si(double v, const char* unit, int digits = 3);
// Seconds with a readable unit: 1.03e-6 -> "1.03 us", 0.0125 -> "12.5 ms".
std::string format_seconds(double s);

}  // namespace occ
