// api_roofline.cpp — the "roofline" and "roofline_devices" request kinds.
//
// Request (every field optional):
//   gpu            device name (occ::roofline_devices(), NVIDIA aliases as for occupancy) [A100-SXM4-80GB]
//   peak_tflops, bandwidth_gbps   override the device's figures (or describe a custom device)
//   op             matmul | attention_decode | elementwise | softmax | layernorm | custom [matmul]
//   dtype          fp64 | fp32 | tf32 | fp16 | bf16 | fp8 | int8 [fp16]
//   m, n, k | seq_len, head_dim, heads, batch_size | elements, inputs, flops_per_element | rows, cols | flops, bytes
//   precision      the peak to use (default: the op's, see occ::default_compute)
//   memory         dram | l2 [dram]
//   measured_ms    a measured kernel time: the response then carries fraction_of_roofline
//   compare        [device names]: the same op on other devices, with the ratio of attainable performance
//   ops            [op objects]: several points at once (each takes the op fields above), returned in "points"
#include <cmath>

#include "occ/format.hpp"
#include "occ/io/api.hpp"
#include "occ/io/fields.hpp"
#include "occ/io/schema.hpp"
#include "occ/roofline.hpp"

namespace occ::io {
namespace {

Operation read_operation(FieldReader& f) {
    namespace F = fields;
    Operation op;
    op.kind = *parse_op(f.choice(F::op));
    op.dtype = *parse_precision(f.choice(F::dtype));
    op.m = f.integer(F::m, op.m);
    op.n = f.integer(F::n, op.n);
    op.k = f.integer(F::k, op.k);
    op.seq_len = f.integer(F::seq_len, op.seq_len);
    op.head_dim = f.integer(F::head_dim, op.head_dim);
    op.heads = f.integer(F::heads, op.heads);
    // "batch" is the earlier name of batch_size (the CLI's --batch reads JSON Lines).
    const bool legacy_batch = f.raw("batch") != nullptr;
    if (legacy_batch && f.has(F::batch)) f.fail("batch", "give batch_size (or its earlier name batch), not both");
    op.batch = legacy_batch ? f.integer("batch", F::batch.lo, F::batch.hi, op.batch) : f.integer(F::batch, op.batch);
    op.elements = f.integer(F::elements, op.elements);
    op.inputs = static_cast<int>(f.integer(F::inputs, op.inputs));
    op.flops_per_element = f.number(F::flops_per_element, op.flops_per_element);
    op.rows = f.integer(F::rows, op.rows);
    op.cols = f.integer(F::cols, op.cols);
    if (op.kind == OpKind::custom) {
        op.flops = f.number_required(F::flops);
        op.bytes = f.number_required(F::bytes);
    } else {
        for (const FieldSpec* k : {&F::flops, &F::bytes})
            if (f.has(*k)) f.fail(k->key, "only with op \"custom\"");
    }
    return op;
}

json op_json(const Operation& op) {
    json j{{"kind", op_name(op.kind)}, {"dtype", precision_name(op.dtype)}};
    switch (op.kind) {
        case OpKind::matmul:
            j["m"] = op.m;
            j["n"] = op.n;
            j["k"] = op.k;
            break;
        case OpKind::attention_decode:
            j["seq_len"] = op.seq_len;
            j["head_dim"] = op.head_dim;
            j["heads"] = op.heads;
            j["batch_size"] = op.batch;
            break;
        case OpKind::elementwise:
            j["elements"] = op.elements;
            j["inputs"] = op.inputs;
            j["flops_per_element"] = op.flops_per_element;
            break;
        case OpKind::softmax:
        case OpKind::layernorm:
            j["rows"] = op.rows;
            j["cols"] = op.cols;
            break;
        case OpKind::custom:
            j["flops"] = op.flops;
            j["bytes"] = op.bytes;
            break;
    }
    return j;
}

json peaks_json(const RooflineDevice& d) {
    json p = json::object();
    for (Precision x : kAllPrecisions) {
        const PeakFigure& f = d.at(x);
        p[precision_name(x)] = f.tflops > 0 ? json{{"tflops", f.tflops}, {"tensor", f.tensor}} : json(nullptr);
    }
    return p;
}

json device_json(const RooflineDevice& d) {
    return json{{"name", d.name},           {"vendor", d.vendor},
                {"dram_gbps", d.dram_gbps}, {"l2_gbps", d.l2_gbps > 0 ? json(d.l2_gbps) : json(nullptr)},
                {"peaks", peaks_json(d)},   {"source", d.source}};
}

// The roofs of a point: peak, bandwidth, ridge, attainable performance and the bound.
void put_roof(json& j, const RooflinePoint& p) {
    j["peak_tflops"] = p.peak_flops / 1e12;
    j["bandwidth_gbps"] = p.bandwidth / 1e9;
    j["ridge"] = p.ridge;
    j["attainable_tflops"] = p.attainable / 1e12;
    j["bound"] = p.memory_bound ? "memory" : "compute";
}

json point_json(const RooflinePoint& p, const Operation& op) {
    json j{
        {"op", op_json(op)},
        {"formula", p.formula},
    };
    if (!p.ok()) {
        j["error"] = p.error;
        return j;
    }
    j["compute"] = precision_name(p.compute);
    j["tensor"] = p.tensor;
    j["flops"] = p.flops;
    j["bytes"] = p.bytes;
    j["intensity"] = p.intensity;
    put_roof(j, p);
    j["time_compute_s"] = p.time_compute_s;
    j["time_memory_s"] = p.time_memory_s;
    j["time_bound_s"] = p.time_bound_s;
    if (p.measured_s > 0) {
        j["measured_s"] = p.measured_s;
        j["achieved_tflops"] = p.achieved_flops / 1e12;
        j["achieved_gbps"] = p.achieved_bandwidth / 1e9;
        j["fraction_of_roofline"] = p.fraction_of_roofline;
    } else {
        j["measured_s"] = nullptr;
        j["fraction_of_roofline"] = nullptr;
    }
    j["error"] = nullptr;
    return j;
}

RooflineDevice read_roofline_device(FieldReader& f) {
    const std::string name = f.string(fields::roof_gpu);
    const bool custom_peak = f.has(fields::peak_tflops);
    const bool custom_bw = f.has(fields::bandwidth_gbps);
    auto d = find_roofline_device(name);
    if (!d) {
        if (!(custom_peak && custom_bw)) {
            std::string names;
            for (const RooflineDevice& r : roofline_devices()) names += (names.empty() ? "" : ", ") + r.name;
            if (const std::string why = roofline_refusal(name); !why.empty())
                f.fail("gpu", why + "; name a roofline device (" + names + ") or give peak_tflops and bandwidth_gbps for a custom device");
            f.fail("gpu", "unknown device \"" + name.substr(0, 40) + "\" (known: " + names +
                              "); or give peak_tflops and bandwidth_gbps for a custom device");
        }
        d = RooflineDevice{};
        d->name = name;
        d->vendor = "custom";
        d->source = "given in the request";
    }
    return *d;
}

}  // namespace

Result<RooflineAnswer> answer_roofline(const json& request) {
    return answer_with<RooflineAnswer>(request, "roofline request", [](FieldReader& f, RooflineAnswer& a) {
        const RooflineDevice dev = read_roofline_device(f);
        const std::string prec = f.choice(fields::precision, "");
        a.memory = f.choice(fields::memory);
        const double measured_ms = f.number(fields::measured_ms);
        if (f.has(fields::measured_ms) && !(measured_ms > 0)) f.fail("measured_ms", "must be > 0 milliseconds");
        const json* compare = f.raw(fields::compare);
        const json* ops = f.raw(fields::ops);
        if (ops && !ops->is_array()) f.fail("ops", "must be an array of op objects");
        if (compare && !compare->is_array()) f.fail("compare", "must be an array of device names");

        RooflineQuery q;
        q.memory = a.memory == "l2" ? MemoryLevel::l2 : MemoryLevel::dram;
        if (!prec.empty()) q.compute = parse_precision(prec);
        // Overrides apply to whichever precision / memory level the query uses.
        const double peak_override = f.number(fields::peak_tflops);
        const double bw_override = f.number(fields::bandwidth_gbps);
        q.measured_s = measured_ms / 1e3;
        auto query_for = [&](const Operation& op) {
            RooflineQuery qi = q;
            qi.op = op;
            qi.device = dev;
            if (peak_override > 0) qi.device.peak[static_cast<std::size_t>(q.compute.value_or(default_compute(op)))].tflops = peak_override;
            if (bw_override > 0) (q.memory == MemoryLevel::l2 ? qi.device.l2_gbps : qi.device.dram_gbps) = bw_override;
            return qi;
        };

        if (ops) {
            a.many = true;
            a.device = dev;
            for (std::size_t i = 0; i < ops->size(); ++i) {
                FieldReader of((*ops)[i], "ops[" + std::to_string(i) + "]", find_kind("roofline"));
                RooflineRow row;
                if (const json* label = of.raw("label")) row.label = *label;
                row.op = read_operation(of);
                of.finish();
                row.point = compute_roofline(query_for(row.op));
                a.points.push_back(std::move(row));
            }
            f.finish();
            return;
        }
        a.point.op = read_operation(f);
        f.finish();
        const RooflineQuery qa = query_for(a.point.op);
        a.device = qa.device;
        a.point.point = compute_roofline(qa);
        if (compare && a.point.point.ok()) {
            a.has_compare = true;
            for (const json& c : *compare) {
                if (!c.is_string()) f.fail("compare", "each entry must be a device name, got " + c.dump().substr(0, 30));
                auto other = find_roofline_device(c.get<std::string>());
                if (!other) {
                    const std::string why = roofline_refusal(c.get<std::string>());
                    f.fail("compare", why.empty() ? "unknown device \"" + c.get<std::string>().substr(0, 40) + "\"" : why);
                }
                RooflineQuery qc = qa;
                qc.device = *other;
                qc.measured_s = 0;
                RooflineComparison row{other->name, compute_roofline(qc), 0.0};
                // this device over that one
                row.speedup = row.point.attainable > 0 ? a.point.point.attainable / row.point.attainable : 0.0;
                a.compare.push_back(std::move(row));
            }
        }
    });
}

json to_json(const RooflineAnswer& a) {
    json out;
    out["device"] = device_json(a.device);
    if (a.many) {
        json points = json::array();
        for (const RooflineRow& row : a.points) {
            json pj = point_json(row.point, row.op);
            if (row.label) pj["label"] = *row.label;
            points.push_back(pj);
        }
        out["points"] = points;
        out["error"] = nullptr;
    } else {
        out["memory"] = a.memory;
        const json pj = point_json(a.point.point, a.point.op);
        for (auto it = pj.begin(); it != pj.end(); ++it) out[it.key()] = *it;
        if (a.has_compare) {
            json rows = json::array();
            for (const RooflineComparison& c : a.compare) {
                json row{{"device", c.device}};
                if (!c.point.ok()) {
                    row["error"] = c.point.error;
                } else {
                    put_roof(row, c.point);
                    row["time_bound_s"] = c.point.time_bound_s;
                    row["speedup"] = c.speedup;
                    row["error"] = nullptr;
                }
                rows.push_back(row);
            }
            out["compare"] = rows;
        }
    }
    if (a.id) out["id"] = *a.id;
    return out;
}

json api_roofline(const json& request) { return json_or_throw(answer_roofline(request)); }

json api_roofline_devices(const json& request) {
    if (!request.is_null() && !(request.is_object() && request.empty())) {
        FieldReader f(request, "roofline_devices request");
        f.finish();
    }
    json list = json::array();
    for (const RooflineDevice& d : roofline_devices()) list.push_back(device_json(d));
    return json{{"devices", list}, {"note", "dense peaks in TFLOP/s (TOP/s for int8); bandwidth in GB/s (10^9 B/s)"}};
}

}  // namespace occ::io
