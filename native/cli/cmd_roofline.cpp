// cmd_roofline.cpp — `occ roofline`: arithmetic intensity, attainable performance, ridge point and
// bound for an operation on a device; percent of roofline from a measured time; device comparison.
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli.hpp"
#include "occ/format.hpp"
#include "occ/io/api.hpp"
#include "occ/roofline.hpp"

namespace occ::cli {
namespace {

struct Options : RequestOptions {
    bool list = false;
};

std::string flops_text(double v) { return format_si(v, "FLOP"); }

// "m 4096, n 4096, k 4096": the operation's sizes, named as in the request.
std::string op_params(const Operation& op) {
    auto n = [](const char* k, std::int64_t v) { return std::string(k) + " " + std::to_string(v); };
    auto x = [](const char* k, double v) { return std::string(k) + " " + format_number(v); };
    switch (op.kind) {
        case OpKind::matmul: return n("m", op.m) + ", " + n("n", op.n) + ", " + n("k", op.k);
        case OpKind::attention_decode:
            return n("seq_len", op.seq_len) + ", " + n("head_dim", op.head_dim) + ", " + n("heads", op.heads) + ", " +
                   n("batch_size", op.batch);
        case OpKind::elementwise:
            return n("elements", op.elements) + ", " + n("inputs", op.inputs) + ", " + x("flops_per_element", op.flops_per_element);
        case OpKind::softmax:
        case OpKind::layernorm: return n("rows", op.rows) + ", " + n("cols", op.cols);
        case OpKind::custom: return x("flops", op.flops) + ", " + x("bytes", op.bytes);
    }
    return {};
}

void print_point(const io::RooflineAnswer& a) {
    const RooflineDevice& d = a.device;
    const Operation& op = a.point.op;
    const RooflinePoint& p = a.point.point;
    std::printf("%s  (%s; %s)\n", d.name.c_str(), d.vendor.c_str(), d.source.c_str());
    std::printf("op: %s %s, %s\n  %s\n\n", op_name(op.kind), precision_name(op.dtype), op_params(op).c_str(), p.formula.c_str());
    std::printf("  %-18s %s\n", "work", flops_text(p.flops).c_str());
    std::printf("  %-18s %s\n", "traffic", format_si(p.bytes, "B").c_str());
    std::printf("  %-18s %s FLOP/byte\n", "intensity", format_number(p.intensity, p.intensity < 10 ? 3 : 1).c_str());
    std::printf("  %-18s %s (%s, %s)\n", "peak", format_si(p.peak_flops, "FLOP/s").c_str(), precision_name(p.compute),
                p.tensor ? "tensor cores" : "no tensor cores");
    std::printf("  %-18s %s (%s)\n", "bandwidth", format_si(p.bandwidth, "B/s").c_str(), a.memory == "l2" ? "L2" : "DRAM");
    std::printf("  %-18s %s FLOP/byte\n", "ridge point", format_number(p.ridge, p.ridge < 10 ? 3 : 1).c_str());
    std::printf("  %-18s %s  -> %s-bound (intensity %s ridge)\n", "attainable", format_si(p.attainable, "FLOP/s").c_str(),
                p.memory_bound ? "memory" : "compute", p.memory_bound ? "<" : ">=");
    std::printf("  %-18s %s (memory %s, compute %s)\n", "fastest possible", format_seconds(p.time_bound_s).c_str(),
                format_seconds(p.time_memory_s).c_str(), format_seconds(p.time_compute_s).c_str());
    if (p.measured_s > 0) {
        std::printf("  %-18s %s -> %s, %s\n", "measured", format_seconds(p.measured_s).c_str(),
                    format_si(p.achieved_flops, "FLOP/s").c_str(), format_si(p.achieved_bandwidth, "B/s").c_str());
        std::printf("  %-18s %s\n", "of roofline", format_percent(p.fraction_of_roofline).c_str());
    }
    if (a.has_compare) {
        std::printf("\n  %-24s %14s %12s %8s %9s  %s\n", "compared with", "attainable", "bandwidth", "bound", "time", "this device is");
        for (const io::RooflineComparison& c : a.compare) {
            if (!c.point.ok()) {
                std::printf("  %-24s %s\n", c.device.c_str(), c.point.error.c_str());
                continue;
            }
            std::printf("  %-24s %14s %12s %8s %9s  %sx faster\n", c.device.c_str(), format_si(c.point.attainable, "FLOP/s").c_str(),
                        format_si(c.point.bandwidth, "B/s").c_str(), c.point.memory_bound ? "memory" : "compute",
                        format_seconds(c.point.time_bound_s).c_str(), format_number(c.speedup, 1).c_str());
        }
    }
}

void print_devices(const json& r) {
    std::printf("%-22s %-9s %7s %7s %7s %7s %7s %7s %7s %9s\n", "device", "vendor", "fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8",
                "DRAM GB/s");
    for (const json& d : r["devices"]) {
        auto cell = [&](const char* p) {
            const json& v = d["peaks"][p];
            return v.is_null() ? std::string("-") : format_number(v["tflops"].get<double>(), 1) + (v["tensor"].get<bool>() ? "*" : "");
        };
        std::printf("%-22s %-9s %7s %7s %7s %7s %7s %7s %7s %9s\n", d["name"].get<std::string>().c_str(),
                    d["vendor"].get<std::string>().c_str(), cell("fp64").c_str(), cell("fp32").c_str(), cell("tf32").c_str(),
                    cell("fp16").c_str(), cell("bf16").c_str(), cell("fp8").c_str(), cell("int8").c_str(),
                    format_number(d["dram_gbps"].get<double>(), 1).c_str());
    }
    std::printf("\nDense TFLOP/s (TOP/s for int8); * = tensor cores / matrix units. Sources: occ roofline --list --json.\n");
}

}  // namespace

void add_roofline(CLI::App& app, Outcome& out) {
    auto o = std::make_shared<Options>();
    auto* cmd = add_request_command(app, "roofline", R"help(
Attainable = min(peak, bandwidth x intensity); ridge = peak / bandwidth (Williams et al., CACM 2009).
Peaks are dense vendor figures (see --list). Ops and their fields:
  matmul            --m --n --k (2MNK FLOPs; A, B read and C written once)
  attention_decode  --seq-len --head-dim [--heads --batch-size] (one query token against the KV cache)
  elementwise       --elements [--inputs 2 --flops-per-element 1]
  softmax, layernorm --rows --cols
  custom            --flops --bytes
With --batch, each stdin line is a JSON object with the same fields in snake_case (m, seq_len,
measured_ms, compare: [...], ops: [...]).

Examples:
  occ roofline --gpu A100 --op matmul --m 4096 --n 4096 --k 4096 --dtype fp16
  occ roofline --gpu A100 --op attention_decode --seq-len 4096 --head-dim 128 --dtype fp16 --compare phone
  occ roofline --gpu H100 --op matmul --m 8192 --n 8192 --k 8192 --dtype bf16 --measured-ms 1.6ms
  occ roofline --list)help",
                                    *o);
    cmd->add_flag("--list", o->list, "List the devices, their peaks and bandwidths");
    cmd->callback([o, &out] {
        if (o->list && !o->batch) out.code = emit_response(io::handle("roofline_devices", json::object()), o->as_json, print_devices);
        else if (o->batch) out.code = run_batch("roofline", std::cin, std::cout, o->fields);
        else
            out.code = run_answer(o->request, o->as_json, io::answer_roofline, print_point,
                                  [](const io::RooflineAnswer& a) { return a.point.point.ok() ? std::string() : a.point.point.error; });
    });
}

}  // namespace occ::cli
