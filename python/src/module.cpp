// module.cpp — occ._occ, the Python face of occ::io and occ::core (pybind11).
//
// [SECTION] JSON <-> Python: requests go in as the JSON a --batch line would carry, answers come
//           back as the JSON the CLI prints (nlohmann::ordered_json keeps the CLI's key order)
// [SECTION] _call: io::handle, with user errors raised as ValueError carrying io's message
// [SECTION] Fast paths for autotuners: every-point sweeps, the block-size x registers grid, and
//           blocks per SM for many configurations at once (PreparedDevice tables)
// [SECTION] Schema: the request fields of every kind, for signatures, help and docs
//
// Arrays leave as bytearrays of native-endian machine numbers; the Python layer views them as
// NumPy arrays when NumPy is importable, or as lists, so this file never needs NumPy.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "occ/io/amd.hpp"
#include "occ/io/api.hpp"
#include "occ/io/binary.hpp"
#include "occ/io/schema.hpp"
#include "occ/io/size.hpp"
#include "occ/occupancy.hpp"
#include "occ/prepared.hpp"
#include "occ/sweep.hpp"

namespace py = pybind11;
using occ::io::json;

namespace {

// [SECTION] JSON <-> Python

std::string where(const std::string& path) { return path.empty() ? "request" : path; }

// A str as UTF-8. Python strings may hold lone surrogates ("\ud800" in JSON text), which UTF-8
// cannot carry; the CLI rejects such text as not valid JSON.
std::string utf8(PyObject* o, const std::string& path) {
    Py_ssize_t n = 0;
    const char* s = PyUnicode_AsUTF8AndSize(o, &n);
    if (!s) {
        PyErr_Clear();
        throw py::value_error(where(path) + ": string is not valid Unicode (a lone surrogate)");
    }
    return std::string(s, static_cast<std::size_t>(n));
}

json to_json(py::handle h, const std::string& path, int depth) {
    if (depth > 64) throw py::value_error(where(path) + ": nested more than 64 levels deep");
    PyObject* o = h.ptr();
    if (o == Py_None) return nullptr;
    if (PyBool_Check(o)) return o == Py_True;
    if (PyLong_Check(o) || (!PyFloat_Check(o) && !PyUnicode_Check(o) && PyIndex_Check(o))) {
        // Python ints, and anything with __index__ (NumPy integers).
        py::object i = py::reinterpret_steal<py::object>(PyNumber_Index(o));
        if (!i) throw py::error_already_set();
        int overflow = 0;
        const long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
        if (overflow == 0) return static_cast<std::int64_t>(v);
        if (overflow > 0) {
            const unsigned long long u = PyLong_AsUnsignedLongLong(i.ptr());
            if (!PyErr_Occurred()) return static_cast<std::uint64_t>(u);
            PyErr_Clear();
        }
        // Beyond 64 bits a JSON reader keeps a double, as nlohmann does for such a literal.
        const double d = PyLong_AsDouble(i.ptr());
        if (d == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            throw py::value_error(where(path) + ": integer too large for JSON");
        }
        return d;
    }
    if (PyFloat_Check(o) || (!PyUnicode_Check(o) && PyObject_HasAttrString(o, "__float__") && !PySequence_Check(o))) {
        const double d = PyFloat_AsDouble(o);
        if (d == -1.0 && PyErr_Occurred()) throw py::error_already_set();
        // JSON text has no NaN or infinity, so no CLI line can carry one.
        if (!std::isfinite(d)) throw py::value_error(where(path) + ": " + py::repr(h).cast<std::string>() + " is not a JSON number");
        return d;
    }
    if (PyUnicode_Check(o)) return utf8(o, path);
    if (PyDict_Check(o)) {
        json obj = json::object();
        for (auto item : py::reinterpret_borrow<py::dict>(h)) {
            if (!PyUnicode_Check(item.first.ptr()))
                throw py::type_error(where(path) + ": keys must be str, got " + py::repr(item.first).cast<std::string>());
            const std::string key = utf8(item.first.ptr(), path);
            obj[key] = to_json(item.second, path.empty() ? key : path + "." + key, depth + 1);
        }
        return obj;
    }
    if (PyBytes_Check(o) || PyByteArray_Check(o)) throw py::type_error(where(path) + ": bytes are not a JSON value (decode them to str)");
    if (PySequence_Check(o)) {
        json arr = json::array();
        const py::sequence seq = py::reinterpret_borrow<py::sequence>(h);
        const std::size_t n = seq.size();
        for (std::size_t i = 0; i < n; ++i) arr.push_back(to_json(seq[i], where(path) + "[" + std::to_string(i) + "]", depth + 1));
        return arr;
    }
    throw py::type_error(where(path) + ": " + std::string(Py_TYPE(o)->tp_name) + " is not a JSON value");
}

py::object to_py(const json& j) {
    switch (j.type()) {
        case json::value_t::null: return py::none();
        case json::value_t::boolean: return py::bool_(j.get<bool>());
        case json::value_t::number_integer: return py::int_(j.get<std::int64_t>());
        case json::value_t::number_unsigned: return py::reinterpret_steal<py::object>(PyLong_FromUnsignedLongLong(j.get<std::uint64_t>()));
        case json::value_t::number_float: {
            const double d = j.get<double>();
            // The CLI's dump writes a non-finite number as null.
            return std::isfinite(d) ? py::object(py::float_(d)) : py::object(py::none());
        }
        case json::value_t::string: {
            const auto& s = j.get_ref<const std::string&>();
            // The CLI's dump replaces invalid UTF-8; so does this.
            PyObject* u = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
            if (!u) throw py::error_already_set();
            return py::reinterpret_steal<py::object>(u);
        }
        case json::value_t::array: {
            py::list l(j.size());
            std::size_t i = 0;
            for (const json& e : j) l[i++] = to_py(e);
            return l;
        }
        case json::value_t::object: {
            py::dict d;
            for (const auto& [k, v] : j.items()) d[py::str(k)] = to_py(v);
            return d;
        }
        default: return py::none();
    }
}

json request_json(const py::dict& request) { return to_json(request, "", 0); }

// [SECTION] _call

bool has_error(const json& out) {
    auto it = out.find("error");
    return it != out.end() && !it->is_null();
}

// Kinds whose request is one kernel launch: there an impossible launch (too much shared memory,
// too many registers for the block) is an answer with 0 blocks and the reason in "error", not a
// bad request; io::launch_in_range says which is which.
bool is_launch_kind(std::string_view kind) { return kind == "occupancy" || kind == "advise" || kind == "waves" || kind == "clusters"; }

json call_json(std::string_view kind, const json& request) {
    json out;
    {
        py::gil_scoped_release release;
        out = occ::io::handle(kind, request);
    }
    if (!has_error(out)) return out;
    const bool answer = out.size() > 1 && is_launch_kind(kind) && occ::io::launch_in_range(request);
    if (!answer) throw py::value_error(out["error"].get<std::string>());
    return out;
}

py::object call(const std::string& kind, const py::dict& request) { return to_py(call_json(kind, request_json(request))); }

// occ.kernels(path, ...): the files read natively (a library is not loaded whole; a Triton cache
// folder is walked), then answered as the "kernels" kind. ValueError with the message when a file
// cannot be read or holds no kernel, as `occ kernels` exits 2.
py::object kernels_paths(const std::vector<std::string>& paths, const py::dict& request) {
    const json req = request_json(request);
    json out;
    std::string error;
    {
        py::gil_scoped_release release;
        std::vector<occ::io::BinaryRead> files;
        for (const std::string& p : paths) files.push_back(occ::io::read_binary_file(p));
        const occ::Result<occ::io::KernelsAnswer> a = occ::io::answer_kernels(req, std::move(files));
        if (!a) error = a.error;
        else if (!a->rows.error.empty()) error = a->rows.error;
        else out = occ::io::to_json(*a);
    }
    if (!error.empty()) throw py::value_error(error);
    return to_py(out);
}

py::object call_raw(const std::string& kind, const py::dict& request) {
    const json req = request_json(request);
    json out;
    {
        py::gil_scoped_release release;
        out = occ::io::handle(kind, req);
    }
    return to_py(out);
}

// [SECTION] Fast paths

// The launch of an occupancy request, read and checked exactly as `occupancy` reads it.
occ::io::OccupancyRequest launch_request(const py::dict& request) {
    const json req = request_json(request);
    const auto a = occ::io::answer_occupancy(req);
    if (!a) throw py::value_error(a.error);
    const occ::io::OccupancyRequest& r = a->input;
    if (!a->result.ok() && occ::blocks_per_sm_fast(r.device.arch, r.kernel, r.launch) < 0) throw py::value_error(a->result.error_message());
    return r;
}

template <typename T>
py::bytearray bytes_of(const std::vector<T>& v) {
    return py::bytearray(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

py::dict sweep(const py::dict& request, const std::string& over, std::int64_t step) {
    if (over != "threads" && over != "regs" && over != "smem")
        throw py::value_error("over must be one of threads, regs, smem, got \"" + over.substr(0, 40) + "\"");
    const occ::io::OccupancyRequest r = launch_request(request);
    std::vector<occ::SweepPoint> pts;
    {
        py::gil_scoped_release release;
        if (over == "threads")
            pts = occ::sweep_block_size(r.device, r.kernel, r.launch, static_cast<int>(std::clamp<std::int64_t>(step, 1, 1024)));
        else if (over == "regs") pts = occ::sweep_registers(r.device, r.kernel, r.launch);
        else pts = occ::sweep_shared_memory(r.device, r.kernel, r.launch, std::max<std::int64_t>(step, 0));
    }
    std::vector<std::int64_t> x(pts.size());
    std::vector<std::int32_t> blocks(pts.size()), warps(pts.size());
    std::vector<double> occupancy(pts.size());
    std::vector<std::uint32_t> limiters(pts.size());
    for (std::size_t i = 0; i < pts.size(); ++i) {
        x[i] = pts[i].x;
        blocks[i] = pts[i].blocks_per_sm;
        warps[i] = pts[i].warps_per_sm;
        occupancy[i] = pts[i].occupancy;
        limiters[i] = pts[i].limiters;
    }
    py::dict out;
    out["x"] = bytes_of(x);
    out["blocks_per_sm"] = bytes_of(blocks);
    out["warps_per_sm"] = bytes_of(warps);
    out["occupancy"] = bytes_of(occupancy);
    out["limiters"] = bytes_of(limiters);
    out["device"] = to_py(occ::io::device_to_json(r.device));
    out["input"] = to_py(occ::io::occupancy_request_to_json(r));
    return out;
}

py::dict grid(const py::dict& request) {
    const occ::io::OccupancyRequest r = launch_request(request);
    std::vector<std::uint8_t> cells(occ::kGridSize);
    {
        py::gil_scoped_release release;
        occ::occupancy_grid(r.device.arch, r.kernel, r.launch, cells);
    }
    py::dict out;
    out["blocks_per_sm"] = bytes_of(cells);
    out["threads"] = occ::kGridThreads;
    out["regs"] = occ::kGridRegs;
    out["device"] = to_py(occ::io::device_to_json(r.device));
    out["input"] = to_py(occ::io::occupancy_request_to_json(r));
    return out;
}

// Blocks per SM for n configurations: four int64 columns (threads, regs, smem_static,
// smem_dynamic) over one device and one set of options. Tables (PreparedDevice) when the request
// gives no field they do not take (io::prepared_takes); the full rules per query otherwise. An input outside the
// model's ranges raises the model's own message for the first such configuration.
py::bytearray blocks_per_sm_many(const py::dict& options, const py::buffer& threads, const py::buffer& regs, const py::buffer& smem_static,
                                 const py::buffer& smem_dynamic) {
    const occ::io::OccupancyRequest r = launch_request(options);
    const py::buffer_info bt = threads.request(), br = regs.request(), bs = smem_static.request(), bd = smem_dynamic.request();
    for (const py::buffer_info* b : {&bt, &br, &bs, &bd})
        if (b->itemsize != 8 || b->ndim != 1 || b->size != bt.size || (b->format != "q" && b->format != "l"))
            throw py::value_error("internal: columns must be 1-D int64 buffers of one length");
    const auto n = static_cast<std::size_t>(bt.size);
    const auto* t = static_cast<const std::int64_t*>(bt.ptr);
    const auto* g = static_cast<const std::int64_t*>(br.ptr);
    const auto* ss = static_cast<const std::int64_t*>(bs.ptr);
    const auto* sd = static_cast<const std::int64_t*>(bd.ptr);
    std::vector<std::int32_t> out(n);
    std::size_t bad = n;
    {
        py::gil_scoped_release release;
        const bool tables = occ::io::prepared_takes(r);
        const occ::PreparedDevice prepared(r.device.arch, r.launch.carveout, r.launch.cache_config, r.kernel.partitioned_gc);
        occ::KernelResources k = r.kernel;
        occ::LaunchConfig l = r.launch;
        for (std::size_t i = 0; i < n; ++i) {
            const bool in_int = t[i] >= INT32_MIN && t[i] <= INT32_MAX && g[i] >= INT32_MIN && g[i] <= INT32_MAX;
            int b = -1;
            if (in_int && tables) {
                b = prepared.blocks_per_sm(static_cast<int>(t[i]), static_cast<int>(g[i]), ss[i], sd[i], k.optin, k.barriers,
                                           k.virtual_resources);
            } else if (in_int) {
                l.threads = static_cast<int>(t[i]);
                k.regs_per_thread = static_cast<int>(g[i]);
                k.smem_static = ss[i];
                l.smem_dynamic = sd[i];
                b = occ::blocks_per_sm_fast(r.device.arch, k, l);
                // The bare count keeps cuda_occupancy.h's number where the full answer refuses the
                // launch (a max_dynamic_smem beyond the opt-in maximum); a launch that cannot run counts 0.
                if (b > 0 && !occ::compute_occupancy(r.device, k, l).ok()) b = 0;
            }
            out[i] = b;
            if (b < 0 && bad == n) bad = i;
        }
    }
    if (bad < n) {
        occ::KernelResources k = r.kernel;
        occ::LaunchConfig l = r.launch;
        auto clamp_int = [](std::int64_t v) { return static_cast<int>(std::clamp<std::int64_t>(v, INT32_MIN, INT32_MAX)); };
        l.threads = clamp_int(t[bad]);
        k.regs_per_thread = clamp_int(g[bad]);
        k.smem_static = ss[bad];
        l.smem_dynamic = sd[bad];
        const occ::OccupancyResult res = occ::compute_occupancy(r.device, k, l);
        throw py::value_error("configuration " + std::to_string(bad) + ": " +
                              (res.ok() ? std::string("outside the model's ranges") : res.error_message()));
    }
    return bytes_of(out);
}

// [SECTION] Schema

const char* type_name(occ::io::FieldType t) {
    using T = occ::io::FieldType;
    switch (t) {
        case T::integer: return "integer";
        case T::number: return "number";
        case T::size: return "size";
        case T::boolean: return "boolean";
        case T::choice: return "choice";
        case T::text: return "text";
        case T::cc: return "cc";
        case T::mask: return "mask";
        case T::u64: return "u64";
        case T::dims: return "dims";
        case T::addresses: return "addresses";
        case T::list: return "list";
        case T::device: return "device";
        case T::duration: return "duration";
        case T::objects: return "objects";
        case T::any: return "any";
    }
    return "any";
}

py::list kinds() {
    py::list out;
    for (const occ::io::KindSpec& k : occ::io::request_kinds()) {
        py::list fields;
        for (const occ::io::FieldSpec* f : k.fields) {
            py::dict d;
            d["key"] = std::string(f->key);
            d["type"] = type_name(f->type);
            d["doc_type"] = std::string(f->doc_type);
            d["range"] = std::string(f->doc_range);
            d["choices"] = std::string(f->choices);
            d["default"] = std::string(f->def);
            d["unit"] = std::string(f->unit);
            d["help"] = std::string(f->help);
            fields.append(d);
        }
        py::dict kd;
        kd["name"] = std::string(k.name);
        kd["summary"] = std::string(k.summary);
        kd["fields"] = fields;
        out.append(kd);
    }
    return out;
}

py::object parse_cc(const std::string& text) {
    int major = 0, minor = 0;
    if (!occ::parse_cc(text, major, minor)) return py::none();
    return py::make_tuple(major, minor);
}

}  // namespace

PYBIND11_MODULE(_occ, m) {
    m.doc() = "occ's C++ core (occ::core, occ::io); use the occ package, not this module";
    m.def("_call", &call, py::arg("kind"), py::arg("request"),
          "The answer of io::handle(kind, request) as the CLI prints it; ValueError with io's message for a bad request");
    m.def("_call_raw", &call_raw, py::arg("kind"), py::arg("request"),
          "Exactly what `occ <kind> --batch` writes for this request, errors included (never raises for a bad request)");
    m.def("_kernels_paths", &kernels_paths, py::arg("paths"), py::arg("request"),
          "`occ kernels PATH... --json` with the request's launch fields; ValueError when a file cannot be read");
    m.def("_sweep", &sweep, py::arg("request"), py::arg("over"), py::arg("step") = 0);
    m.def("_grid", &grid, py::arg("request"));
    m.def("_blocks_per_sm", &blocks_per_sm_many, py::arg("options"), py::arg("threads"), py::arg("regs"), py::arg("smem_static"),
          py::arg("smem_dynamic"));
    m.def("_kinds", &kinds);
    m.def("_known_kinds", [] { return occ::io::known_kinds(); });
    m.def("_parse_cc", &parse_cc, py::arg("text"));
    m.def(
        "_parse_size",
        [](const std::string& text, const std::string& field) {
            const auto r = occ::io::parse_size(text, field);
            if (!r) throw py::value_error(r.error);
            return *r;
        },
        py::arg("text"), py::arg("field"));
    py::list limiters;  // (name, bit) in the core's order: the order of "limiters" in answers
    for (occ::Limiter l : occ::kAllLimiters) limiters.append(py::make_tuple(occ::limiter_name(l), static_cast<unsigned>(l)));
    m.attr("LIMITERS") = limiters;
    // occ::kLimiters, the one list of limiters: (bit, key, label) in the order answers list them.
    m.def("limiters", [] {
        py::list out;
        for (const occ::LimiterInfo& e : occ::kLimiters) out.append(py::make_tuple(static_cast<unsigned>(e.bit), e.key, e.label));
        return out;
    });
    m.attr("GRID_THREADS") = occ::kGridThreads;
    m.attr("GRID_REGS") = occ::kGridRegs;
}
