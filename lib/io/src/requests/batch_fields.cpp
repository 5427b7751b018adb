// batch_fields.cpp — --batch --fields: the paths an answer holds, and the selection of some
// (io::FieldSelection, occ/io/batch.hpp).
#include <algorithm>
#include <deque>

#include "occ/io/batch.hpp"
#include "occupancy_emit.hpp"

namespace occ::io {

namespace {

// Every member's dotted path in an answer tree, objects first and then their members, into `out`
// (each path once, in the order first seen).
void collect_paths(const json& object, const std::string& prefix, std::vector<std::string>& out) {
    for (auto it = object.begin(); it != object.end(); ++it) {
        std::string path = prefix + it.key();
        if (std::find(out.begin(), out.end(), path) == out.end()) out.push_back(path);
        if (it.value().is_object()) collect_paths(it.value(), path + ".", out);
    }
}

// Occupancy answers with every optional member: each declared-only limit declared (so "limits" lists
// it and "effective" appears), a setmaxnreg plan (register_pool), a sweep, an id, and a custom
// device's echo under "input".
std::vector<std::string> occupancy_paths() {
    std::vector<std::string> out;
    Result<OccupancyAnswer> r = answer_occupancy(json{{"gpu", "H100-SXM5-80GB"}, {"threads", 384}, {"regs", 128}});
    if (!r) r = answer_occupancy(json::object());
    OccupancyAnswer a = *r;
    for (const LimiterInfo& e : kLimiters)
        if (e.declared) a.input.kernel.*e.declared = 1;
    a.input.warpgroup_regs = {40, 232, 232};
    a.result = compute_occupancy(a.input.device, a.input.kernel, a.input.launch);
    a.sweep_input = "threads";
    a.id = 0;
    collect_paths(to_json(a), "", out);
    a.input.device.segment = Segment::custom;
    collect_paths(to_json(a), "", out);
    return out;
}

}  // namespace

const std::vector<std::string>& answer_field_paths(std::string_view kind) {
    // Per kind, made once (a deque: the references handed out stay valid as kinds are added).
    static std::deque<std::pair<std::string, std::vector<std::string>>> known;
    for (const auto& k : known)
        if (k.first == kind) return k.second;
    std::vector<std::string> paths;
    if (kind == "occupancy") {
        paths = occupancy_paths();
    } else {
        const json res = handle_text(kind, "{}");
        const auto it = res.find("error");
        if (it == res.end() || it->is_null()) collect_paths(res, "", paths);
    }
    known.emplace_back(std::string(kind), std::move(paths));
    return known.back().second;
}

Result<FieldSelection> FieldSelection::parse(std::string_view kind, std::string_view list) {
    const std::vector<std::string>& allowed = answer_field_paths(kind);
    const auto allowed_text = [&] {
        std::string t;
        for (const std::string& p : allowed) t += (t.empty() ? "" : ", ") + p;
        return t;
    };
    if (allowed.empty())
        return Result<FieldSelection>::fail("--fields: " + std::string(kind) + " answers have no fixed fields to choose from");
    FieldSelection sel;
    for (std::size_t b = 0; b <= list.size();) {
        std::size_t e = list.find(',', b);
        if (e == std::string_view::npos) e = list.size();
        std::string_view name = list.substr(b, e - b);
        while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
        while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
        if (name.empty())
            return Result<FieldSelection>::fail("--fields: empty field name in \"" + std::string(list) + "\"; allowed: " + allowed_text());
        if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
            return Result<FieldSelection>::fail("--fields: unknown field \"" + std::string(name) + "\" for " + std::string(kind) +
                                                " answers; allowed: " + allowed_text());
        sel.paths_.emplace_back(name);
        b = e + 1;
    }
    return Result<FieldSelection>::ok(std::move(sel));
}

FieldSelection::Match FieldSelection::match(std::string_view prefix, std::string_view key) const {
    if (prefix.empty() && key == "error") return Match::whole;  // a refused request still says why
    Match m = Match::none;
    for (const std::string& p : paths_) {
        const std::string_view s(p);
        if (s.size() < prefix.size() + key.size() || s.compare(0, prefix.size(), prefix) != 0 ||
            s.compare(prefix.size(), key.size(), key) != 0)
            continue;
        if (s.size() == prefix.size() + key.size()) return Match::whole;
        if (s[prefix.size() + key.size()] == '.') m = Match::part;
    }
    return m;
}

json FieldSelection::select_in(const json& object, std::string& prefix) const {
    json out = json::object();
    for (auto it = object.begin(); it != object.end(); ++it) {
        const Match m = match(prefix, it.key());
        if (m == Match::none) continue;
        if (m == Match::whole || !it.value().is_object()) {
            out[it.key()] = it.value();
            continue;
        }
        const std::size_t n = prefix.size();
        prefix += it.key();
        prefix += '.';
        out[it.key()] = select_in(it.value(), prefix);
        prefix.resize(n);
    }
    return out;
}

json FieldSelection::select(const json& answer) const {
    if (!answer.is_object()) return answer;
    std::string prefix;
    return select_in(answer, prefix);
}

}  // namespace occ::io
