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
#include "occ/text.hpp"

namespace occ {
namespace {

// [SECTION] Names
// Whether `key` is one of the comma-separated words of `list`, each compared after `fold`.
template <typename Fold>
bool in_list(std::string_view list, std::string_view key, Fold fold) {
    while (!list.empty()) {
        const auto c = list.find(',');
        if (fold(list.substr(0, c)) == key) return true;
        if (c == std::string_view::npos) break;
        list.remove_prefix(c + 1);
    }
    return false;
}

// The entry of `table` (in enum order) whose name or alias `s` is, in any case.
template <typename Enum, typename Row, std::size_t N>
std::optional<Enum> parse_named(const Row (&table)[N], std::string_view s) {
    const std::string k = lower(s);
    for (std::size_t i = 0; i < N; ++i)
        if (k == table[i].name || in_list(table[i].aliases, k, [](std::string_view w) { return w; })) return static_cast<Enum>(i);
    return std::nullopt;
}

// One row per Precision, in enum order: its name, the other spellings parse_precision accepts, its
// figure in the catalogue, whether it runs on tensor cores / matrix units when a device has them
// (GpuPeaks::matrix_units), and the bytes of one element in memory.
struct PrecisionRow {
    const char* name;
    const char* aliases;
    double GpuPeaks::*peak;
    bool matrix;
    int bytes;
};
constexpr PrecisionRow kPrecisions[kPrecisionCount] = {
    {"fp64", "double,f64", &GpuPeaks::fp64, false, 8},
    {"fp64_tensor", "", &GpuPeaks::fp64_tensor, true, 8},
    {"fp32", "float,single,f32", &GpuPeaks::fp32, false, 4},
    {"tf32", "", &GpuPeaks::tf32, true, 4},  // TF32 operands live in memory as FP32 (Ampere whitepaper, "TF32")
    {"fp16", "half,f16", &GpuPeaks::fp16, true, 2},
    {"bf16", "bfloat16", &GpuPeaks::bf16, true, 2},
    {"fp8", "e4m3,e5m2,f8", &GpuPeaks::fp8, true, 1},
    {"int8", "i8", &GpuPeaks::int8, true, 1},
};
const PrecisionRow& row(Precision p) { return kPrecisions[static_cast<std::size_t>(p)]; }

// One row per OpKind, in enum order: its name and the other spellings parse_op accepts.
struct OpRow {
    const char* name;
    const char* aliases;
};
constexpr OpRow kOps[] = {
    {"matmul", "gemm,mm"},
    {"attention_decode", "attention,decode,attn"},
    {"elementwise", "add,eltwise,axpy"},
    {"softmax", ""},
    {"layernorm", "ln,norm"},
    {"custom", ""},
};

// [SECTION] Devices

struct Listed {
    RooflineDevice device;
    const GpuEntry* entry;
};

// Every catalogue entry with peaks, in GpuPeaks::list_position order.
const std::vector<Listed>& listed() {
    static const std::vector<Listed> t = [] {
        std::vector<Listed> v;
        for (const bool cuda : {true, false}) {
            for (std::span<const GpuEntry> list : cuda ? std::vector{all_gpus()} : std::vector{amd_gpus(), reference_devices()})
                for (const GpuEntry& g : list) {
                    if (!g.peaks.source) continue;
                    RooflineDevice d;
                    d.name = g.name;
                    d.vendor = g.vendor;
                    // CUDA GPUs are found through find_gpu (names and aliases); the others by their own aliases.
                    d.aliases = cuda ? "" : g.aliases;
                    for (Precision p : kAllPrecisions) {
                        const auto i = static_cast<std::size_t>(p);
                        d.peak[i].tflops = g.peaks.*row(p).peak;
                        d.peak[i].tensor = d.peak[i].tflops > 0 && g.peaks.matrix_units && row(p).matrix;
                    }
                    d.dram_gbps = g.peaks.dram_gbps;
                    d.source = g.peaks.source;
                    v.push_back({std::move(d), &g});
                }
        }
        std::stable_sort(v.begin(), v.end(),
                         [](const Listed& a, const Listed& b) { return a.entry->peaks.list_position < b.entry->peaks.list_position; });
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

}  // namespace

// [SECTION] Precisions

const char* precision_name(Precision p) { return row(p).name; }
std::optional<Precision> parse_precision(std::string_view s) { return parse_named<Precision>(kPrecisions, s); }
int bytes_per_element(Precision p) { return row(p).bytes; }

// [SECTION] Devices

std::span<const RooflineDevice> roofline_devices() { return table(); }

std::optional<RooflineDevice> find_roofline_device(std::string_view name) {
    const std::string key = normalise(name);
    if (key.empty() || !ambiguous_gpu(name).empty()) return std::nullopt;
    for (const RooflineDevice& d : table()) {
        if (normalise(d.name) == key || in_list(d.aliases, key, normalise)) return d;
    }
    // NVIDIA GPUs also by every name the catalogue accepts for them ("a100" -> A100-SXM4-80GB).
    if (const GpuEntry* g = lookup_gpu(name)) {
        for (const Listed& l : listed())
            if (l.entry == g) return l.device;
    }
    return std::nullopt;
}

std::string roofline_refusal(std::string_view name) {
    const std::vector<const GpuEntry*> shared = ambiguous_gpu(name);
    if (!shared.empty()) {
        std::string all, with_figures;
        for (const GpuEntry* g : shared) {
            join_into(all, ", ", g->name);
            if (g->peaks.source) join_into(with_figures, ", ", g->name);
        }
        if (const std::string outside = gpu_family_outside(name); !outside.empty()) all += "; also " + outside;
        return "\"" + std::string(name.substr(0, 200)) + "\" is the device name of several GPUs (" + all + "), of which " +
               (with_figures.empty() ? std::string("none has") : with_figures + " alone has") + " published roofline figures";
    }
    if (const GpuEntry* g = lookup_gpu(name); g && !g->peaks.source)
        return std::string(g->name) + " is in the GPU catalogue but has no published roofline figures (peak TFLOP/s and memory bandwidth)";
    return {};
}

// [SECTION] Operations

const char* op_name(OpKind k) { return kOps[static_cast<std::size_t>(k)].name; }
std::optional<OpKind> parse_op(std::string_view s) { return parse_named<OpKind>(kOps, s); }

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
            std::snprintf(buf, sizeof buf,
                          "flops = 4*seq_len*head_dim*heads*batch; bytes = 2*seq_len*head_dim*heads*batch * %d B (K and V)",
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
        case OpKind::softmax:
        case OpKind::layernorm: {
            positive(op.rows, "rows");
            positive(op.cols, "cols");
            const double e = static_cast<double>(op.rows) * static_cast<double>(op.cols);
            if (op.kind == OpKind::softmax) {
                // Per element: max, subtract, exp, sum, divide = 5 FLOPs (exp counted as one); a fused
                // (online) softmax reads the input once and writes the output once.
                c.flops = 5.0 * e;
                c.bytes = 2.0 * e * s;
                std::snprintf(buf, sizeof buf, "flops = 5*rows*cols (max, sub, exp, sum, div); bytes = 2*rows*cols * %d B (read + write)",
                              static_cast<int>(s));
            } else {
                // Per element: mean (1), variance (sub, square, sum = 3), normalise (sub, mul by rstd = 2),
                // affine (mul gamma, add beta = 2) = 8 FLOPs; x read once, y written once, gamma and beta
                // (cols each) read once.
                c.flops = 8.0 * e;
                c.bytes = (2.0 * e + 2.0 * static_cast<double>(op.cols)) * s;
                std::snprintf(buf, sizeof buf, "flops = 8*rows*cols; bytes = (2*rows*cols + 2*cols) * %d B (x, y, gamma, beta)",
                              static_cast<int>(s));
            }
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
