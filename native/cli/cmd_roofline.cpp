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

struct Options {
    RequestFlags request;
    bool list = false, as_json = false, batch_mode = false;
};

std::string flops_text(double v) { return format_si(v, "FLOP"); }
std::string rate_text(double tflops) { return format_si(tflops * 1e12, "FLOP/s"); }

void print_point(const json& r) {
    const json& d = r["device"];
    const json& op = r["op"];
    std::printf("%s  (%s; %s)\n", d["name"].get<std::string>().c_str(), d["vendor"].get<std::string>().c_str(), d["source"].get<std::string>().c_str());
    std::string params;
    for (auto it = op.begin(); it != op.end(); ++it) {
        if (it.key() == "kind" || it.key() == "dtype") continue;
        params += (params.empty() ? "" : ", ") + it.key() + " " + (it->is_number_float() ? format_number(it->get<double>()) : it->dump());
    }
    std::printf("op: %s %s, %s\n  %s\n\n", op["kind"].get<std::string>().c_str(), op["dtype"].get<std::string>().c_str(), params.c_str(),
                r["formula"].get<std::string>().c_str());
    const double ridge = r["ridge"].get<double>();
    const double intensity = r["intensity"].get<double>();
    const bool memory = r["bound"] == "memory";
    std::printf("  %-18s %s\n", "work", flops_text(r["flops"].get<double>()).c_str());
    std::printf("  %-18s %s\n", "traffic", format_si(r["bytes"].get<double>(), "B").c_str());
    std::printf("  %-18s %s FLOP/byte\n", "intensity", format_number(intensity, intensity < 10 ? 3 : 1).c_str());
    std::printf("  %-18s %s (%s, %s)\n", "peak", rate_text(r["peak_tflops"].get<double>()).c_str(), r["compute"].get<std::string>().c_str(),
                r["tensor"].get<bool>() ? "tensor cores" : "no tensor cores");
    std::printf("  %-18s %s (%s)\n", "bandwidth", format_si(r["bandwidth_gbps"].get<double>() * 1e9, "B/s").c_str(), r.value("memory", std::string("dram")) == "l2" ? "L2" : "DRAM");
    std::printf("  %-18s %s FLOP/byte\n", "ridge point", format_number(ridge, ridge < 10 ? 3 : 1).c_str());
    std::printf("  %-18s %s  -> %s-bound (intensity %s ridge)\n", "attainable", rate_text(r["attainable_tflops"].get<double>()).c_str(),
                memory ? "memory" : "compute", memory ? "<" : ">=");
    std::printf("  %-18s %s (memory %s, compute %s)\n", "fastest possible", format_seconds(r["time_bound_s"].get<double>()).c_str(),
                format_seconds(r["time_memory_s"].get<double>()).c_str(), format_seconds(r["time_compute_s"].get<double>()).c_str());
    if (!r["measured_s"].is_null()) {
        std::printf("  %-18s %s -> %s, %s\n", "measured", format_seconds(r["measured_s"].get<double>()).c_str(),
                    rate_text(r["achieved_tflops"].get<double>()).c_str(), format_si(r["achieved_gbps"].get<double>() * 1e9, "B/s").c_str());
        std::printf("  %-18s %s\n", "of roofline", format_percent(r["fraction_of_roofline"].get<double>()).c_str());
    }
    if (r.contains("compare")) {
        std::printf("\n  %-24s %14s %12s %8s %9s  %s\n", "compared with", "attainable", "bandwidth", "bound", "time", "this device is");
        for (const json& c : r["compare"]) {
            if (!c["error"].is_null()) {
                std::printf("  %-24s %s\n", c["device"].get<std::string>().c_str(), c["error"].get<std::string>().c_str());
                continue;
            }
            std::printf("  %-24s %14s %12s %8s %9s  %sx faster\n", c["device"].get<std::string>().c_str(),
                        rate_text(c["attainable_tflops"].get<double>()).c_str(), format_si(c["bandwidth_gbps"].get<double>() * 1e9, "B/s").c_str(),
                        c["bound"].get<std::string>().c_str(), format_seconds(c["time_bound_s"].get<double>()).c_str(),
                        format_number(c["speedup"].get<double>(), 1).c_str());
        }
    }
}

void print_devices(const json& r) {
    std::printf("%-22s %-9s %7s %7s %7s %7s %7s %7s %7s %9s\n", "device", "vendor", "fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8", "DRAM GB/s");
    for (const json& d : r["devices"]) {
        auto cell = [&](const char* p) {
            const json& v = d["peaks"][p];
            return v.is_null() ? std::string("-") : format_number(v["tflops"].get<double>(), 1) + (v["tensor"].get<bool>() ? "*" : "");
        };
        std::printf("%-22s %-9s %7s %7s %7s %7s %7s %7s %7s %9s\n", d["name"].get<std::string>().c_str(), d["vendor"].get<std::string>().c_str(),
                    cell("fp64").c_str(), cell("fp32").c_str(), cell("tf32").c_str(), cell("fp16").c_str(), cell("bf16").c_str(), cell("fp8").c_str(),
                    cell("int8").c_str(), format_number(d["dram_gbps"].get<double>(), 1).c_str());
    }
    std::printf("\nDense TFLOP/s (TOP/s for int8); * = tensor cores / matrix units. Sources: occ roofline --list --json.\n");
}

}  // namespace

void add_roofline(CLI::App& app, Outcome& out) {
    auto o = std::make_shared<Options>();
    auto* cmd = app.add_subcommand("roofline", "Roofline: intensity, attainable FLOP/s, ridge point and bound of an operation");
    cmd->footer(
        "\nAttainable = min(peak, bandwidth x intensity); ridge = peak / bandwidth (Williams et al., CACM 2009).\n"
        "Peaks are dense vendor figures (see --list). Ops and their fields:\n"
        "  matmul            --m --n --k (2MNK FLOPs; A, B read and C written once)\n"
        "  attention_decode  --seq-len --head-dim [--heads --batch-size] (one query token against the KV cache)\n"
        "  elementwise       --elements [--inputs 2 --flops-per-element 1]\n"
        "  softmax, layernorm --rows --cols\n"
        "  custom            --flops --bytes\n"
        "With --batch, each stdin line is a JSON object with the same fields in snake_case (m, seq_len,\n"
        "measured_ms, compare: [...], ops: [...]).\n\n"
        "Examples:\n"
        "  occ roofline --gpu A100 --op matmul --m 4096 --n 4096 --k 4096 --dtype fp16\n"
        "  occ roofline --gpu A100 --op attention_decode --seq-len 4096 --head-dim 128 --dtype fp16 --compare phone\n"
        "  occ roofline --gpu H100 --op matmul --m 8192 --n 8192 --k 8192 --dtype bf16 --measured-ms 1.6ms\n"
        "  occ roofline --list");
    add_request_flags(cmd, *io::find_kind("roofline"), o->request);
    cmd->add_flag("--list", o->list, "List the devices, their peaks and bandwidths");
    cmd->add_flag("--json", o->as_json, "Print one JSON object");
    cmd->add_flag("--batch", o->batch_mode, "Read JSON Lines on stdin, write one JSON line per input line");
    cmd->callback([o, &out] {
        if (o->list && !o->batch_mode) out.code = emit_response(io::handle("roofline_devices", json::object()), o->as_json, print_devices);
        else out.code = run_json_kind("roofline", o->request, o->as_json, o->batch_mode, print_point);
    });
}

}  // namespace occ::cli
