// roofline.cpp — roofline data and model (see occ/roofline.hpp).
//
// The devices and their peaks are the GPU catalogue's (gpu_db.cpp, where each figure is cited):
// roofline_devices() lists every catalogue entry with published peaks.
#include "occ/roofline.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <vector>

#include "occ/device.hpp"
#include "occ/format.hpp"
#include "occ/names.hpp"

namespace occ {
namespace {

// [SECTION] Devices
// Precisions that run on tensor cores / matrix units when a device has them (GpuPeaks::matrix_units).
constexpr bool kMatrixPrecision[kPrecisionCount] = {false, true, false, true, true, true, true, true};

double peak_of(const GpuPeaks& p, Precision x) {
    switch (x) {
        case Precision::fp64: return p.fp64;
        case Precision::fp64_tensor: return p.fp64_tensor;
        case Precision::fp32: return p.fp32;
        case Precision::tf32: return p.tf32;
        case Precision::fp16: return p.fp16;
        case Precision::bf16: return p.bf16;
        case Precision::fp8: return p.fp8;
        case Precision::int8: return p.int8;
    }
    return 0;
}

struct Listed {
    RooflineDevice device;
    const GpuEntry* entry;
};

// Every catalogue entry with peaks, in GpuPeaks::list_position order.
const std::vector<Listed>& listed() {
    static const std::vector<Listed> t = [] {
        std::vector<Listed> v;
        for (const bool cuda : {true, false}) {
            for (const GpuEntry& g : cuda ? all_gpus() : reference_devices()) {
                if (!g.peaks.source) continue;
                RooflineDevice d;
                d.name = g.name;
                d.vendor = g.vendor;
                // CUDA GPUs are found through find_gpu (names and aliases); the others by their own aliases.
                d.aliases = cuda ? "" : g.aliases;
                for (Precision p : kAllPrecisions) {
                    const auto i = static_cast<std::size_t>(p);
                    d.peak[i].tflops = peak_of(g.peaks, p);
                    d.peak[i].tensor = d.peak[i].tflops > 0 && g.peaks.matrix_units && kMatrixPrecision[i];
                }
                d.dram_gbps = g.peaks.dram_gbps;
                d.source = g.peaks.source;
                v.push_back({std::move(d), &g});
            }
        }
        std::stable_sort(v.begin(), v.end(), [](const Listed& a, const Listed& b) {
            return a.entry->peaks.list_position < b.entry->peaks.list_position;
        });
        return v;
    }();
    return t;
}

const std::vector<RooflineDevice>& table() {
    static const std::vector<RooflineDevice> t = [] {
        std::vector<RooflineDevice> v;
        for (const Listed& l : listed()) v.push_back(l.device);
        return v;
    }();
    return t;
}

// Vendor words a roofline device name may start with ("AMD Instinct MI300X", "Apple M2 Ultra").
std::string normalise(std::string_view s) { return normalise_name(s, {"nvidia", "geforce", "amd", "apple", "instinct"}); }

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
    // NVIDIA GPUs also by every name the catalogue accepts for them ("a100" -> A100-SXM4-80GB).
    if (const GpuEntry* g = lookup_gpu(name)) {
        for (const Listed& l : listed())
            if (l.entry == g) return l.device;
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
