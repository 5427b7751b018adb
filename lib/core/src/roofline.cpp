// roofline.cpp — roofline data and model (see occ/roofline.hpp).
//
// [SECTION] Sources
//   Peak figures are DENSE (vendors often print the 2:4-sparsity figure, twice as high, with an
//   asterisk; those are halved here). TFLOP/s = 10^12 FLOP/s, GB/s = 10^9 byte/s.
//   [A100DS]  NVIDIA A100 Tensor Core GPU datasheet (2021): FP64 9.7, FP64 TC 19.5, FP32 19.5, TF32 156,
//             FP16/BF16 312, INT8 624 TOPS; 80GB SXM 2,039 GB/s, 80GB PCIe 1,935 GB/s, 40GB 1,555 GB/s.
//   [V100DS]  NVIDIA V100 datasheet: SXM2 7.8 / 15.7 / 125 tensor; PCIe 7 / 14 / 112; 900 GB/s.
//   [T4DS]    NVIDIA T4 datasheet: FP32 8.1, FP16 mixed-precision tensor 65, INT8 130 TOPS, 320 GB/s.
//   [A10DS]   NVIDIA A10 datasheet: FP32 31.2, TF32 62.5, FP16/BF16 125, INT8 250, 600 GB/s.
//   [A30DS]   NVIDIA A30 datasheet: FP64 5.2, FP64 TC 10.3, FP32 10.3, TF32 82, FP16/BF16 165, INT8 330, 933 GB/s.
//   [A40DS]   NVIDIA A40 datasheet: FP32 37.4, TF32 74.8, FP16/BF16 149.7, INT8 299.3, 696 GB/s.
//   [L4DS]    NVIDIA L4 datasheet: FP32 30.3, TF32 120*, FP16/BF16 242*, FP8 485*, INT8 485* (* sparse), 300 GB/s.
//   [L40SDS]  NVIDIA L40S datasheet: FP32 91.6, TF32 366*, FP16/BF16 733*, FP8 1,466*, INT8 1,466* (* sparse), 864 GB/s.
//   [AdaWP]   NVIDIA Ada GPU Architecture whitepaper, appendix (RTX 4090): FP32 82.6, TF32 82.6,
//             FP16/BF16 tensor with FP32 accumulate 165.2, FP8 330.3, INT8 660.6, FP64 1.3, 1,008 GB/s.
//   [HWP]     NVIDIA H100 Tensor Core GPU Architecture whitepaper, table 3 (dense): H100 SXM5 FP64 33.5,
//             FP64 TC 66.9, FP32 66.9, TF32 494.7, FP16/BF16 989.4, FP8 1,978.9, INT8 1,978.9;
//             H100 PCIe 25.6 / 51.2 / 51.2 / 378 / 756 / 1,513 / 1,513.
//   [H100DS]  NVIDIA H100 datasheet: SXM 3.35 TB/s, PCIe 2 TB/s; H100 NVL FP64 30, FP64 TC 60, FP32 60,
//             TF32 835*, FP16 1,671*, FP8 3,341*, INT8 3,341* (* sparse), 3.9 TB/s.
//   [H200DS]  NVIDIA H200 datasheet: compute as H100 SXM, 4.8 TB/s.
//   [B200DS]  NVIDIA HGX B200 datasheet (8 GPUs): FP64/FP64 TC 296, TF32 18 P*, FP16/BF16 36 P*, FP8 72 P*,
//             INT8 72 P* (* sparse), 64 TB/s; divided by 8 and sparse figures halved. FP32 not published there.
//   [RBWP]    NVIDIA RTX Blackwell GPU Architecture whitepaper (RTX 5090): FP32 104.8, TF32 104.8,
//             FP16/BF16 tensor with FP32 accumulate 209.5, FP8 419, INT8 838, 1,792 GB/s.
//   [ORINDS]  NVIDIA Jetson AGX Orin 64GB datasheet: 2048 CUDA cores at 1.3 GHz = 5.3 FP32 TFLOP/s,
//             GPU INT8 170 sparse TOPS, LPDDR5 204.8 GB/s.
//   [MI300X]  AMD Instinct MI300X datasheet: FP64 vector 81.7, FP64 matrix 163.4, FP32 vector 163.4,
//             TF32 653.7, FP16/BF16 1,307.4, FP8 2,614.9, INT8 2,614.9 (dense), HBM3 5.3 TB/s.
//   [M2U]     Apple newsroom, "Apple introduces M2 Ultra" (June 2023): 76-core GPU, 27.2 TFLOP/s, 800 GB/s.
//   [LP5X]    JEDEC LPDDR5X at 9,600 MT/s on a 64-bit bus = 76.8 GB/s (e.g. Snapdragon 8 Gen 3 product brief:
//             "LPDDR5x up to 4800 MHz"); the GPU FP32 figure (~4.6 TFLOP/s) is a third-party estimate, not
//             a vendor number: use this device for memory-bound comparisons.
//   L2 bandwidth: none of these datasheets publishes it, so every l2_gbps is 0 (unknown) and the
//   model refuses memory level "l2" unless the request supplies a bandwidth.
#include "occ/roofline.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <vector>

#include "occ/device.hpp"
#include "occ/format.hpp"

namespace occ {
namespace {

// [SECTION] Devices
struct Row {
    const char* name;
    const char* vendor;
    const char* aliases;
    // fp64, fp64_tensor, fp32, tf32, fp16, bf16, fp8, int8 (dense TFLOP/s; 0 = none)
    double p[kPrecisionCount];
    // which of those are on tensor cores / matrix units
    bool t[kPrecisionCount];
    double dram_gbps;
    const char* source;
};


#define OCC_TENSOR {false, true, false, true, true, true, true, true}
#define OCC_NONE {false, false, false, false, false, false, false, false}

const Row kRows[] = {
    // NVIDIA (names as in the occupancy device database)
    {"V100-SXM2-32GB", "NVIDIA", "", {7.8, 0, 15.7, 0, 125, 0, 0, 0}, OCC_TENSOR, 900, "[V100DS]"},
    {"V100-PCIe-32GB", "NVIDIA", "", {7.0, 0, 14.0, 0, 112, 0, 0, 0}, OCC_TENSOR, 900, "[V100DS]"},
    {"Tesla-T4", "NVIDIA", "", {0, 0, 8.1, 0, 65, 0, 0, 130}, OCC_TENSOR, 320, "[T4DS]"},
    {"A100-SXM4-80GB", "NVIDIA", "", {9.7, 19.5, 19.5, 156, 312, 312, 0, 624}, OCC_TENSOR, 2039, "[A100DS] 80GB SXM4"},
    {"A100-SXM4-40GB", "NVIDIA", "", {9.7, 19.5, 19.5, 156, 312, 312, 0, 624}, OCC_TENSOR, 1555, "[A100DS] 40GB SXM4"},
    {"A100-PCIe-80GB", "NVIDIA", "", {9.7, 19.5, 19.5, 156, 312, 312, 0, 624}, OCC_TENSOR, 1935, "[A100DS] 80GB PCIe"},
    {"A100-PCIe-40GB", "NVIDIA", "", {9.7, 19.5, 19.5, 156, 312, 312, 0, 624}, OCC_TENSOR, 1555, "[A100DS] 40GB PCIe"},
    {"A30", "NVIDIA", "", {5.2, 10.3, 10.3, 82, 165, 165, 0, 330}, OCC_TENSOR, 933, "[A30DS]"},
    {"A10", "NVIDIA", "", {0, 0, 31.2, 62.5, 125, 125, 0, 250}, OCC_TENSOR, 600, "[A10DS]"},
    {"A40", "NVIDIA", "", {0, 0, 37.4, 74.8, 149.7, 149.7, 0, 299.3}, OCC_TENSOR, 696, "[A40DS]"},
    {"Jetson-AGX-Orin", "NVIDIA", "", {0, 0, 5.3, 0, 0, 0, 0, 85}, OCC_TENSOR, 204.8, "[ORINDS] (INT8 170 sparse TOPS halved)"},
    {"RTX-4090", "NVIDIA", "", {1.3, 0, 82.6, 82.6, 165.2, 165.2, 330.3, 660.6}, OCC_TENSOR, 1008, "[AdaWP] (tensor figures with FP32 accumulate)"},
    {"L4", "NVIDIA", "", {0, 0, 30.3, 60, 121, 121, 242.5, 242.5}, OCC_TENSOR, 300, "[L4DS] (sparse figures halved)"},
    {"L40S", "NVIDIA", "", {0, 0, 91.6, 183, 366.5, 366.5, 733, 733}, OCC_TENSOR, 864, "[L40SDS] (sparse figures halved)"},
    {"H100-SXM5-80GB", "NVIDIA", "", {33.5, 66.9, 66.9, 494.7, 989.4, 989.4, 1978.9, 1978.9}, OCC_TENSOR, 3350, "[HWP] table 3; [H100DS] 3.35 TB/s"},
    {"H100-PCIe-80GB", "NVIDIA", "", {25.6, 51.2, 51.2, 378, 756, 756, 1513, 1513}, OCC_TENSOR, 2000, "[HWP] table 3; [H100DS] 2 TB/s"},
    {"H100-NVL", "NVIDIA", "", {30, 60, 60, 417.5, 835.5, 835.5, 1670.5, 1670.5}, OCC_TENSOR, 3900, "[H100DS] H100 NVL (sparse figures halved)"},
    {"H200", "NVIDIA", "", {33.5, 66.9, 66.9, 494.7, 989.4, 989.4, 1978.9, 1978.9}, OCC_TENSOR, 4800, "[H200DS] compute as [HWP] H100 SXM5; 4.8 TB/s"},
    {"B200", "NVIDIA", "", {37, 37, 0, 1125, 2250, 2250, 4500, 4500}, OCC_TENSOR, 8000, "[B200DS] per GPU (8-GPU figures / 8, sparse halved)"},
    {"RTX-5090", "NVIDIA", "", {0, 0, 104.8, 104.8, 209.5, 209.5, 419, 838}, OCC_TENSOR, 1792, "[RBWP] (tensor figures with FP32 accumulate)"},
    // Non-NVIDIA reference devices, for comparison
    {"AMD-MI300X", "AMD", "mi300x,instinctmi300x", {81.7, 163.4, 163.4, 653.7, 1307.4, 1307.4, 2614.9, 2614.9}, OCC_TENSOR, 5300, "[MI300X] (matrix cores)"},
    {"Apple-M2-Ultra", "Apple", "m2ultra,m2", {0, 0, 27.2, 0, 0, 0, 0, 0}, OCC_NONE, 800, "[M2U]"},
    {"Phone-SoC-LPDDR5X", "reference", "phone,phonesoc,soc,mobile,snapdragon8gen3,lpddr5x", {0, 0, 4.6, 0, 0, 0, 0, 0}, OCC_NONE, 76.8,
     "[LP5X] 76.8 GB/s; FP32 is an estimate"},
};

#undef OCC_TENSOR
#undef OCC_NONE

const std::vector<RooflineDevice>& table() {
    static const std::vector<RooflineDevice> t = [] {
        std::vector<RooflineDevice> v;
        for (const Row& r : kRows) {
            RooflineDevice d;
            d.name = r.name;
            d.vendor = r.vendor;
            d.aliases = r.aliases;
            for (int i = 0; i < kPrecisionCount; ++i) {
                d.peak[static_cast<std::size_t>(i)].tflops = r.p[i];
                d.peak[static_cast<std::size_t>(i)].tensor = r.p[i] > 0 && r.t[i];
            }
            d.dram_gbps = r.dram_gbps;
            d.source = r.source;
            v.push_back(std::move(d));
        }
        return v;
    }();
    return t;
}

std::string normalise(std::string_view s) {
    std::string out;
    for (char c : s)
        if (std::isalnum(static_cast<unsigned char>(c))) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    for (const char* w : {"nvidia", "geforce", "amd", "apple", "instinct"}) {
        const std::string word(w);
        if (out.size() > word.size() && out.compare(0, word.size(), word) == 0) out.erase(0, word.size());
    }
    return out;
}

std::string lower(std::string_view s) {
    std::string o(s);
    for (char& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return o;
}

}  // namespace

// [SECTION] Precisions

const char* precision_name(Precision p) {
    switch (p) {
        case Precision::fp64: return "fp64";
        case Precision::fp64_tensor: return "fp64_tensor";
        case Precision::fp32: return "fp32";
        case Precision::tf32: return "tf32";
        case Precision::fp16: return "fp16";
        case Precision::bf16: return "bf16";
        case Precision::fp8: return "fp8";
        case Precision::int8: return "int8";
    }
    return "?";
}

std::optional<Precision> parse_precision(std::string_view s) {
    const std::string k = lower(s);
    for (Precision p : kAllPrecisions)
        if (k == precision_name(p)) return p;
    if (k == "double" || k == "f64") return Precision::fp64;
    if (k == "float" || k == "single" || k == "f32") return Precision::fp32;
    if (k == "half" || k == "f16") return Precision::fp16;
    if (k == "bfloat16") return Precision::bf16;
    if (k == "e4m3" || k == "e5m2" || k == "f8") return Precision::fp8;
    if (k == "i8") return Precision::int8;
    return std::nullopt;
}

int bytes_per_element(Precision p) {
    switch (p) {
        case Precision::fp64:
        case Precision::fp64_tensor: return 8;
        case Precision::fp32:
        case Precision::tf32: return 4;   // TF32 operands live in memory as FP32 (Ampere whitepaper, "TF32")
        case Precision::fp16:
        case Precision::bf16: return 2;
        case Precision::fp8:
        case Precision::int8: return 1;
    }
    return 4;
}

// [SECTION] Devices

std::span<const RooflineDevice> roofline_devices() { return table(); }

std::optional<RooflineDevice> find_roofline_device(std::string_view name) {
    const std::string key = normalise(name);
    if (key.empty()) return std::nullopt;
    for (const RooflineDevice& d : table()) {
        if (normalise(d.name) == key) return d;
        std::string_view rest(d.aliases);
        while (!rest.empty()) {
            const auto c = rest.find(',');
            if (normalise(rest.substr(0, c)) == key) return d;
            if (c == std::string_view::npos) break;
            rest.remove_prefix(c + 1);
        }
    }
    // NVIDIA aliases come from the occupancy device database, so "a100" and "h100" work here too.
    if (const auto g = find_gpu(name)) {
        for (const RooflineDevice& d : table())
            if (d.name == g->name) return d;
    }
    return std::nullopt;
}

// [SECTION] Operations

const char* op_name(OpKind k) {
    switch (k) {
        case OpKind::matmul: return "matmul";
        case OpKind::attention_decode: return "attention_decode";
        case OpKind::elementwise: return "elementwise";
        case OpKind::softmax: return "softmax";
        case OpKind::layernorm: return "layernorm";
        case OpKind::custom: return "custom";
    }
    return "?";
}

std::optional<OpKind> parse_op(std::string_view s) {
    const std::string k = lower(s);
    for (OpKind o : {OpKind::matmul, OpKind::attention_decode, OpKind::elementwise, OpKind::softmax, OpKind::layernorm, OpKind::custom})
        if (k == op_name(o)) return o;
    if (k == "gemm" || k == "mm") return OpKind::matmul;
    if (k == "attention" || k == "decode" || k == "attn") return OpKind::attention_decode;
    if (k == "add" || k == "eltwise" || k == "axpy") return OpKind::elementwise;
    if (k == "ln" || k == "norm") return OpKind::layernorm;
    return std::nullopt;
}

OpCost operation_cost(const Operation& op) {
    OpCost c;
    const double s = bytes_per_element(op.dtype);
    char buf[320];
    auto positive = [&](std::int64_t v, const char* what) {
        if (v < 1 && c.error.empty()) c.error = std::string(what) + " must be >= 1, got " + std::to_string(v);
    };
    switch (op.kind) {
        case OpKind::matmul: {
            positive(op.m, "m");
            positive(op.n, "n");
            positive(op.k, "k");
            const double m = static_cast<double>(op.m), n = static_cast<double>(op.n), k = static_cast<double>(op.k);
            // One multiply-add = 2 FLOPs per (m, n, k) triple; A, B read once, C written once (beta = 0).
            c.flops = 2.0 * m * n * k;
            c.bytes = (m * k + k * n + m * n) * s;
            std::snprintf(buf, sizeof buf, "flops = 2*M*N*K; bytes = (M*K + K*N + M*N) * %d B", static_cast<int>(s));
            break;
        }
        case OpKind::attention_decode: {
            positive(op.seq_len, "seq_len");
            positive(op.head_dim, "head_dim");
            positive(op.heads, "heads");
            positive(op.batch, "batch");
            const double nd = static_cast<double>(op.seq_len) * static_cast<double>(op.head_dim) * static_cast<double>(op.heads) *
                              static_cast<double>(op.batch);
            // q·K^T (2·n·d) and p·V (2·n·d); K and V (2·n·d elements) are read once. The query, the
            // output (d each) and the softmax over n scores are negligible next to them (MODEL.md, Roofline).
            c.flops = 4.0 * nd;
            c.bytes = 2.0 * nd * s;
            std::snprintf(buf, sizeof buf, "flops = 4*seq_len*head_dim*heads*batch; bytes = 2*seq_len*head_dim*heads*batch * %d B (K and V)",
                          static_cast<int>(s));
            break;
        }
        case OpKind::elementwise: {
            positive(op.elements, "elements");
            if (op.inputs < 1 && c.error.empty()) c.error = "inputs must be >= 1, got " + std::to_string(op.inputs);
            if (op.flops_per_element < 0 && c.error.empty()) c.error = "flops_per_element must be >= 0";
            const double e = static_cast<double>(op.elements);
            c.flops = op.flops_per_element * e;
            c.bytes = e * (op.inputs + 1) * s;
            std::snprintf(buf, sizeof buf, "flops = %s*elements; bytes = elements * (%d inputs + 1 output) * %d B",
                          format_number(op.flops_per_element).c_str(), op.inputs, static_cast<int>(s));
            break;
        }
        case OpKind::softmax: {
            positive(op.rows, "rows");
            positive(op.cols, "cols");
            const double e = static_cast<double>(op.rows) * static_cast<double>(op.cols);
            // Per element: max, subtract, exp, sum, divide = 5 FLOPs (exp counted as one); a fused
            // (online) softmax reads the input once and writes the output once.
            c.flops = 5.0 * e;
            c.bytes = 2.0 * e * s;
            std::snprintf(buf, sizeof buf, "flops = 5*rows*cols (max, sub, exp, sum, div); bytes = 2*rows*cols * %d B (read + write)",
                          static_cast<int>(s));
            break;
        }
        case OpKind::layernorm: {
            positive(op.rows, "rows");
            positive(op.cols, "cols");
            const double e = static_cast<double>(op.rows) * static_cast<double>(op.cols);
            // Per element: mean (1), variance (sub, square, sum = 3), normalise (sub, mul by rstd = 2),
            // affine (mul gamma, add beta = 2) = 8 FLOPs; x read once, y written once, gamma and beta
            // (cols each) read once.
            c.flops = 8.0 * e;
            c.bytes = (2.0 * e + 2.0 * static_cast<double>(op.cols)) * s;
            std::snprintf(buf, sizeof buf, "flops = 8*rows*cols; bytes = (2*rows*cols + 2*cols) * %d B (x, y, gamma, beta)",
                          static_cast<int>(s));
            break;
        }
        case OpKind::custom:
            if (!(op.flops >= 0) || !(op.bytes > 0)) c.error = "custom op needs flops >= 0 and bytes > 0";
            c.flops = op.flops;
            c.bytes = op.bytes;
            std::snprintf(buf, sizeof buf, "given: flops and bytes");
            break;
    }
    c.formula = buf;
    return c;
}

Precision default_compute(const Operation& op) {
    if (op.dtype == Precision::fp64 || op.dtype == Precision::fp64_tensor) return op.kind == OpKind::matmul ? op.dtype : Precision::fp64;
    if (op.kind == OpKind::matmul) return op.dtype;
    return Precision::fp32;
}

// [SECTION] Model

RooflinePoint compute_roofline(const RooflineQuery& q) {
    RooflinePoint p;
    const OpCost cost = operation_cost(q.op);
    p.formula = cost.formula;
    if (!cost.ok()) {
        p.error = cost.error;
        return p;
    }
    p.flops = cost.flops;
    p.bytes = cost.bytes;
    p.intensity = p.bytes > 0 ? p.flops / p.bytes : 0.0;
    p.compute = q.compute.value_or(default_compute(q.op));
    const PeakFigure& peak = q.device.at(p.compute);
    p.tensor = peak.tensor;
    if (!(peak.tflops > 0)) {
        p.error = q.device.name + " has no published " + precision_name(p.compute) + " peak; choose another precision or give peak_tflops";
        return p;
    }
    const double gbps = q.memory == MemoryLevel::l2 ? q.device.l2_gbps : q.device.dram_gbps;
    if (!(gbps > 0)) {
        p.error = q.device.name + std::string(q.memory == MemoryLevel::l2 ? " has no published L2 bandwidth; give bandwidth_gbps"
                                                                            : " has no DRAM bandwidth; give bandwidth_gbps");
        return p;
    }
    if (q.measured_s < 0) {
        p.error = "measured time must be > 0";
        return p;
    }
    p.peak_flops = peak.tflops * 1e12;
    p.bandwidth = gbps * 1e9;
    p.ridge = ridge_point(p.peak_flops, p.bandwidth);
    p.attainable = attainable_flops(p.peak_flops, p.bandwidth, p.intensity);
    p.memory_bound = p.intensity < p.ridge;
    p.time_compute_s = p.flops / p.peak_flops;
    p.time_memory_s = p.bytes / p.bandwidth;
    p.time_bound_s = std::max(p.time_compute_s, p.time_memory_s);
    if (q.measured_s > 0) {
        p.measured_s = q.measured_s;
        p.achieved_flops = p.flops / q.measured_s;
        p.achieved_bandwidth = p.bytes / q.measured_s;
        p.fraction_of_roofline = p.attainable > 0 ? p.achieved_flops / p.attainable : 0.0;
    }
    return p;
}

// [SECTION] Formatting

std::string format_si(double v, const char* unit, int digits) {
    static const char* const kPrefix[] = {"", "k", "M", "G", "T", "P", "E"};
    double m = v < 0 ? -v : v;
    int i = 0;
    while (m >= 1000.0 && i < 6) {
        m /= 1000.0;
        ++i;
    }
    // Significant digits, not decimals: 2.15, 21.5, 215.
    const int decimals = m >= 100 ? std::max(0, digits - 3) : m >= 10 ? std::max(0, digits - 2) : std::max(0, digits - 1);
    return format_number(v < 0 ? -m : m, decimals) + " " + kPrefix[i] + unit;
}

std::string format_seconds(double s) {
    if (!(s > 0)) return "0 s";
    if (s >= 1.0) return format_number(s, 3) + " s";
    if (s >= 1e-3) return format_number(s * 1e3, s * 1e3 >= 100 ? 1 : 3) + " ms";
    if (s >= 1e-6) return format_number(s * 1e6, s * 1e6 >= 100 ? 1 : 3) + " us";
    return format_number(s * 1e9, 1) + " ns";
}

}  // namespace occ
