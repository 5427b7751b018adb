// report.cpp — comparison, JSON, console table and Markdown for a validation run.
#include "occ/validation/report.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace occ::validation {

const char* kind_name(Kind k) {
    switch (k) {
        case Kind::device: return "device";
        case Kind::occupancy: return "occupancy";
        case Kind::coalescing: return "coalescing";
        case Kind::banks: return "banks";
    }
    return "?";
}

std::optional<Kind> kind_from_name(std::string_view s) {
    for (Kind k : {Kind::device, Kind::occupancy, Kind::coalescing, Kind::banks})
        if (s == kind_name(k)) return k;
    return std::nullopt;
}

const char* status_name(Status s) {
    switch (s) {
        case Status::match: return "match";
        case Status::mismatch: return "mismatch";
        case Status::explained: return "explained";
        case Status::unverified: return "unverified";
    }
    return "?";
}

std::optional<Status> status_from_name(std::string_view s) {
    for (Status k : {Status::match, Status::mismatch, Status::explained, Status::unverified})
        if (s == status_name(k)) return k;
    return std::nullopt;
}

bool Check::agrees() const {
    if (runtime && *runtime != predicted) return false;
    if (measured && *measured != predicted) return false;
    return true;
}

Status evaluate(const Case& c) {
    if (c.estimate) return Status::unverified;
    bool any_compared = false;
    bool all_agree = true;
    for (const Check& k : c.checks) {
        any_compared = any_compared || k.compared();
        all_agree = all_agree && k.agrees();
    }
    if (!all_agree) return c.explanation.empty() ? Status::mismatch : Status::explained;
    return any_compared ? Status::match : Status::unverified;
}

void Tally::add(Status s) {
    ++cases;
    switch (s) {
        case Status::match: ++matched; break;
        case Status::mismatch: ++mismatched; break;
        case Status::explained: ++explained; break;
        case Status::unverified: ++unverified; break;
    }
}

Tally Report::tally() const {
    Tally t;
    for (const Case& c : cases) t.add(evaluate(c));
    return t;
}

Tally Report::tally(Kind k) const {
    Tally t;
    for (const Case& c : cases)
        if (c.kind == k) t.add(evaluate(c));
    return t;
}

std::string gpu_slug(std::string_view name) {
    std::string s;
    for (char ch : name) s += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    for (const char* drop : {"nvidia ", "geforce ", "tesla ", "quadro "}) {
        const auto p = s.find(drop);
        if (p != std::string::npos) s.erase(p, std::string_view(drop).size());
    }
    std::string out;
    for (char ch : s) {
        if (std::isalnum(static_cast<unsigned char>(ch))) out += ch;
        else if (!out.empty() && out.back() != '-') out += '-';
    }
    while (!out.empty() && out.back() == '-') out.pop_back();
    return out.empty() ? "unknown-gpu" : out;
}

// --- JSON ----------------------------------------------------------------------------------------
namespace {

json opt(const std::optional<std::int64_t>& v) { return v ? json(*v) : json(nullptr); }

std::optional<std::int64_t> opt_from(const json& j, const char* key) {
    if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
    if (!j.at(key).is_number_integer()) throw std::runtime_error(std::string("field '") + key + "' must be an integer or null");
    return j.at(key).get<std::int64_t>();
}

template <class T>
T req(const json& j, const char* key) {
    if (!j.contains(key)) throw std::runtime_error(std::string("missing field '") + key + "'");
    try {
        return j.at(key).get<T>();
    } catch (const json::exception&) {
        throw std::runtime_error(std::string("field '") + key + "' has the wrong type");
    }
}

template <class T>
T get_or(const json& j, const char* key, T fallback) {
    if (!j.contains(key) || j.at(key).is_null()) return fallback;
    try {
        return j.at(key).get<T>();
    } catch (const json::exception&) {
        throw std::runtime_error(std::string("field '") + key + "' has the wrong type");
    }
}

json tally_json(const Tally& t) {
    return json{
        {"cases", t.cases}, {"matched", t.matched}, {"mismatched", t.mismatched}, {"explained", t.explained}, {"unverified", t.unverified}};
}

}  // namespace

json to_json(const Case& c) {
    json checks = json::array();
    for (const Check& k : c.checks)
        checks.push_back(json{{"name", k.name},
                              {"predicted", k.predicted},
                              {"runtime", opt(k.runtime)},
                              {"measured", opt(k.measured)},
                              {"agrees", k.agrees()}});
    json j{{"kind", kind_name(c.kind)}, {"id", c.id}, {"status", status_name(evaluate(c))}};
    if (!c.description.empty()) j["description"] = c.description;
    j["inputs"] = c.inputs;
    j["checks"] = checks;
    if (c.estimate) j["estimate"] = true;
    if (!c.explanation.empty()) j["explanation"] = c.explanation;
    if (!c.note.empty()) j["note"] = c.note;
    return j;
}

Case case_from_json(const json& j) {
    if (!j.is_object()) throw std::runtime_error("a case must be a JSON object");
    Case c;
    const auto kind = kind_from_name(req<std::string>(j, "kind"));
    if (!kind) throw std::runtime_error("unknown case kind '" + j.at("kind").get<std::string>() + "'");
    c.kind = *kind;
    c.id = req<std::string>(j, "id");
    c.description = get_or<std::string>(j, "description", "");
    if (j.contains("inputs")) c.inputs = j.at("inputs");
    const json& checks = j.contains("checks") ? j.at("checks") : json::array();
    if (!checks.is_array()) throw std::runtime_error("case " + c.id + ": 'checks' must be an array");
    for (const json& k : checks) {
        Check ck;
        ck.name = req<std::string>(k, "name");
        ck.predicted = req<std::int64_t>(k, "predicted");
        ck.runtime = opt_from(k, "runtime");
        ck.measured = opt_from(k, "measured");
        c.checks.push_back(std::move(ck));
    }
    c.estimate = get_or<bool>(j, "estimate", false);
    c.explanation = get_or<std::string>(j, "explanation", "");
    c.note = get_or<std::string>(j, "note", "");
    return c;
}

json to_json(const Report& r) {
    json by_kind = json::object();
    for (Kind k : {Kind::device, Kind::occupancy, Kind::coalescing, Kind::banks}) by_kind[kind_name(k)] = tally_json(r.tally(k));
    json summary = tally_json(r.tally());
    summary["by_kind"] = by_kind;
    json cases = json::array();
    for (const Case& c : r.cases) cases.push_back(to_json(c));
    return json{{"schema", kSchema},
                {"synthetic", r.synthetic},
                {"gpu",
                 {{"name", r.gpu.name},
                  {"slug", r.gpu.slug},
                  {"occ_gpu", r.gpu.occ_gpu},
                  {"cc", std::to_string(r.gpu.cc_major) + "." + std::to_string(r.gpu.cc_minor)},
                  {"cc_major", r.gpu.cc_major},
                  {"cc_minor", r.gpu.cc_minor},
                  {"sm_count", r.gpu.sm_count},
                  {"driver_version", r.gpu.driver_version},
                  {"runtime_version", r.gpu.runtime_version}}},
                {"mode", r.mode},
                {"date", r.date},
                {"occ_version", r.occ_version},
                {"predictor_memory", r.predictor_memory},
                {"tools", r.tools},
                {"summary", summary},
                {"cases", cases}};
}

Report report_from_json(const json& j) {
    if (!j.is_object()) throw std::runtime_error("a report must be a JSON object");
    const auto schema = req<std::string>(j, "schema");
    if (schema != kSchema) throw std::runtime_error("unsupported schema '" + schema + "' (expected " + kSchema + ")");
    Report r;
    r.synthetic = get_or<bool>(j, "synthetic", false);
    const json& g = j.contains("gpu") ? j.at("gpu") : json::object();
    r.gpu.name = req<std::string>(g, "name");
    r.gpu.slug = get_or<std::string>(g, "slug", gpu_slug(r.gpu.name));
    r.gpu.occ_gpu = get_or<std::string>(g, "occ_gpu", "");
    r.gpu.cc_major = get_or<int>(g, "cc_major", 0);
    r.gpu.cc_minor = get_or<int>(g, "cc_minor", 0);
    r.gpu.sm_count = get_or<int>(g, "sm_count", 0);
    r.gpu.driver_version = get_or<int>(g, "driver_version", 0);
    r.gpu.runtime_version = get_or<int>(g, "runtime_version", 0);
    r.mode = get_or<std::string>(j, "mode", "");
    r.date = get_or<std::string>(j, "date", "");
    r.occ_version = get_or<std::string>(j, "occ_version", "");
    r.predictor_memory = get_or<std::string>(j, "predictor_memory", "");
    if (j.contains("tools")) r.tools = j.at("tools");
    const json& cases = j.contains("cases") ? j.at("cases") : json::array();
    if (!cases.is_array()) throw std::runtime_error("'cases' must be an array");
    for (const json& c : cases) r.cases.push_back(case_from_json(c));
    return r;
}

Report load_report(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open");
    try {
        return report_from_json(json::parse(in));
    } catch (const json::exception& e) {
        throw std::runtime_error(path + ": not valid JSON (" + e.what() + ")");
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
}

// --- Text ----------------------------------------------------------------------------------------
namespace {

std::string val(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : std::string("-"); }

std::string fit(std::string s, std::size_t w) {
    if (s.size() > w) s = s.substr(0, w - 1) + "~";
    return s;
}

const char* mark(Status s) {
    switch (s) {
        case Status::match: return "ok";
        case Status::mismatch: return "MISMATCH";
        case Status::explained: return "explained";
        case Status::unverified: return "unverified";
    }
    return "?";
}

void line(std::string& out, const char* fmt, auto... args) {
    char buf[512];
    std::snprintf(buf, sizeof buf, fmt, args...);
    out += buf;
}

}  // namespace

std::string format_summary_line(const Report& r) {
    const Tally t = r.tally();
    std::string s = r.gpu.name + " (cc " + std::to_string(r.gpu.cc_major) + "." + std::to_string(r.gpu.cc_minor) + ", " +
                    std::to_string(r.gpu.sm_count) + " SMs): " + std::to_string(t.cases) + " cases, " + std::to_string(t.matched) +
                    " matched, " + std::to_string(t.mismatched) + " mismatched";
    if (t.explained) s += ", " + std::to_string(t.explained) + " explained";
    if (t.unverified) s += ", " + std::to_string(t.unverified) + " unverified";
    if (r.synthetic) s += " [SYNTHETIC fixture, not a hardware result]";
    return s;
}

std::string format_table(const Report& r, bool only_problems) {
    std::string out;
    line(out, "%-10s %-44s %-26s %10s %10s %10s  %s\n", "kind", "case", "check", "occ", "runtime", "hardware", "status");
    for (const Case& c : r.cases) {
        const Status s = evaluate(c);
        if (only_problems && s == Status::match) continue;
        for (const Check& k : c.checks) {
            const char* m = s == Status::match ? "ok" : (k.agrees() ? (c.estimate ? "estimate" : "") : mark(s));
            line(out, "%-10s %-44s %-26s %10lld %10s %10s  %s\n", kind_name(c.kind), fit(c.id, 44).c_str(), fit(k.name, 26).c_str(),
                 static_cast<long long>(k.predicted), val(k.runtime).c_str(), val(k.measured).c_str(), m);
        }
        if (s != Status::match && !c.explanation.empty()) out += "           explained: " + c.explanation + "\n";
        if (s != Status::match && !c.note.empty()) out += "           note: " + c.note + "\n";
    }
    return out;
}

std::string format_markdown(const Report& r) {
    std::string out;
    out += "# occ hardware validation: " + r.gpu.name + "\n\n";
    if (r.synthetic)
        out +=
            "> **SYNTHETIC fixture.** These numbers were written by hand to test the report code; they are not a "
            "hardware result.\n\n";
    line(out, "- GPU: %s, compute capability %d.%d, %d SMs (occ entry: %s)\n", r.gpu.name.c_str(), r.gpu.cc_major, r.gpu.cc_minor,
         r.gpu.sm_count, r.gpu.occ_gpu.empty() ? "generic cc device" : r.gpu.occ_gpu.c_str());
    line(out, "- Driver %d, runtime %d; mode %s; %s; occ %s\n", r.gpu.driver_version, r.gpu.runtime_version, r.mode.c_str(), r.date.c_str(),
         r.occ_version.c_str());
    if (!r.predictor_memory.empty()) out += "- Coalescing/bank predictions by: " + r.predictor_memory + "\n";
    for (const auto& [k, v] : r.tools.items()) out += "- " + k + ": " + (v.is_string() ? v.get<std::string>() : v.dump()) + "\n";
    out += "\n| kind | cases | matched | mismatched | explained | unverified |\n|---|---:|---:|---:|---:|---:|\n";
    for (Kind k : {Kind::device, Kind::occupancy, Kind::coalescing, Kind::banks}) {
        const Tally t = r.tally(k);
        line(out, "| %s | %d | %d | %d | %d | %d |\n", kind_name(k), t.cases, t.matched, t.mismatched, t.explained, t.unverified);
    }
    const Tally t = r.tally();
    line(out, "| **all** | **%d** | **%d** | **%d** | **%d** | **%d** |\n\n", t.cases, t.matched, t.mismatched, t.explained, t.unverified);
    std::string rows;
    for (const Case& c : r.cases) {
        const Status s = evaluate(c);
        if (s == Status::match) continue;
        for (const Check& k : c.checks) {
            if (k.agrees() && !c.estimate) continue;
            std::string why = !c.explanation.empty() ? c.explanation : c.note;
            std::replace(why.begin(), why.end(), '|', '/');
            rows += "| " + std::string(kind_name(c.kind)) + " | `" + c.id + "` | " + k.name + " | " + std::to_string(k.predicted) + " | " +
                    val(k.runtime) + " | " + val(k.measured) + " | " + status_name(s) + " | " + why + " |\n";
        }
    }
    if (rows.empty()) {
        out += "Every compared value agreed.\n";
    } else {
        out +=
            "## Cases that did not match\n\n| kind | case | check | occ | runtime | hardware | status | why |\n"
            "|---|---|---|---:|---:|---:|---|---|\n" +
            rows;
    }
    return out;
}

}  // namespace occ::validation
