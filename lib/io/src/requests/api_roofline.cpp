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
#include <bit>
#include <cmath>
#include <string>
#include <type_traits>
#include <variant>

#include "occ/format.hpp"
#include "occ/io/api.hpp"
#include "occ/io/fields.hpp"
#include "occ/io/schema.hpp"
#include "occ/roofline.hpp"
#include "occ/text.hpp"

namespace occ::io {
namespace {

// Each op's own fields once, in reading and echo order: the description, the Operation member it
// fills and the ops whose echo carries it. read_operation reads every row whatever the op (a field
// of another op is accepted and left out of the echo), except the `required` rows (custom's flops
// and bytes), which its ops require and the others refuse.
using OpMember = std::variant<std::int64_t Operation::*, int Operation::*, double Operation::*>;
struct OpField {
    const FieldSpec* spec;
    OpMember member;
    unsigned ops;                       // OpKind bits (of())
    bool required = false;              // given with `ops`, refused with the others
    std::string_view earlier_key = {};  // an earlier name the reader still takes (not both)
};
constexpr unsigned of(OpKind k) { return 1u << static_cast<unsigned>(k); }

const OpField kOpFields[] = {
    {&fields::m, &Operation::m, of(OpKind::matmul)},
    {&fields::n, &Operation::n, of(OpKind::matmul)},
    {&fields::k, &Operation::k, of(OpKind::matmul)},
    {&fields::seq_len, &Operation::seq_len, of(OpKind::attention_decode)},
    {&fields::head_dim, &Operation::head_dim, of(OpKind::attention_decode)},
    {&fields::heads, &Operation::heads, of(OpKind::attention_decode)},
    // "batch" is the earlier name of batch_size (the CLI's --batch reads JSON Lines).
    {&fields::batch, &Operation::batch, of(OpKind::attention_decode), false, "batch"},
    {&fields::elements, &Operation::elements, of(OpKind::elementwise)},
    {&fields::inputs, &Operation::inputs, of(OpKind::elementwise)},
    {&fields::flops_per_element, &Operation::flops_per_element, of(OpKind::elementwise)},
    {&fields::rows, &Operation::rows, of(OpKind::softmax) | of(OpKind::layernorm)},
    {&fields::cols, &Operation::cols, of(OpKind::softmax) | of(OpKind::layernorm)},
    {&fields::flops, &Operation::flops, of(OpKind::custom), true},
    {&fields::bytes, &Operation::bytes, of(OpKind::custom), true},
};

void read_op_field(FieldReader& f, const OpField& o, Operation& op) {
    const FieldSpec& s = *o.spec;
    const bool own = (o.ops & of(op.kind)) != 0;
    if (o.required && !own) {
        if (f.has(s)) f.fail(s.key, std::string("only with op \"") + op_name(static_cast<OpKind>(std::countr_zero(o.ops))) + "\"");
        return;
    }
    const bool earlier = !o.earlier_key.empty() && f.raw(o.earlier_key) != nullptr;
    if (earlier && f.has(s))
        f.fail(o.earlier_key, "give " + std::string(s.key) + " (or its earlier name " + std::string(o.earlier_key) + "), not both");
    std::visit(
        [&](auto member) {
            auto& v = op.*member;
            using V = std::remove_cvref_t<decltype(v)>;
            if constexpr (std::is_floating_point_v<V>) v = o.required ? f.number_required(s) : f.number(s, v);
            else if (o.required) v = static_cast<V>(f.integer_required(s));
            else v = static_cast<V>(earlier ? f.integer(o.earlier_key, s.lo, s.hi, v) : f.integer(s, v));
        },
        o.member);
}

Operation read_operation(FieldReader& f) {
    Operation op;
    op.kind = *parse_op(f.choice(fields::op));
    op.dtype = *parse_precision(f.choice(fields::dtype));
    for (const OpField& o : kOpFields) read_op_field(f, o, op);
    return op;
}

json op_json(const Operation& op) {
    json j{{"kind", op_name(op.kind)}, {"dtype", precision_name(op.dtype)}};
    for (const OpField& o : kOpFields)
        if (o.ops & of(op.kind)) std::visit([&](auto member) { j[std::string(o.spec->key)] = op.*member; }, o.member);
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
            for (const RooflineDevice& r : roofline_devices()) join_into(names, ", ", r.name);
            if (const std::string why = roofline_refusal(name); !why.empty())
                f.fail("gpu", why + "; name a roofline device (" + names + ") or give peak_tflops and bandwidth_gbps for a custom device");
            f.fail("gpu", "unknown device \"" + name.substr(0, 200) + "\" (known: " + names +
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
                    f.fail("compare", why.empty() ? "unknown device \"" + c.get<std::string>().substr(0, 200) + "\"" : why);
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
