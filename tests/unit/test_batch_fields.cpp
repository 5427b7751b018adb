// --batch --fields (occ/io/batch.hpp's FieldSelection): for a random sweep of occupancy requests and
// random selections of the paths the answer has, the selected answer parsed back holds exactly the
// full answer's values at those paths (and "error"), byte for byte where they are written, on the
// small reader's path and on handle_text's; unknown names are refused with the allowed ones listed.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "occ/io/api.hpp"
#include "occ/io/batch.hpp"

namespace {

using occ::io::FieldSelection;
using occ::io::json;

std::string dumped(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// The value at a dotted path, or nullptr where the answer has none (a member missing, or a value
// that is not an object on the way).
const json* at_path(const json& j, const std::string& path) {
    const json* v = &j;
    for (std::size_t b = 0; b <= path.size();) {
        std::size_t e = path.find('.', b);
        if (e == std::string::npos) e = path.size();
        if (!v->is_object()) return nullptr;
        const auto it = v->find(path.substr(b, e - b));
        if (it == v->end()) return nullptr;
        v = &*it;
        b = e + 1;
    }
    return v;
}

// Every leaf path of a tree (objects are walked into; arrays and scalars are leaves). An object left
// empty (the chosen member absent from this answer, as limits.tmem where no Tensor Memory is
// declared) has none.
void leaves(const json& j, const std::string& prefix, std::vector<std::string>& out) {
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string p = prefix + it.key();
        if (it.value().is_object()) leaves(it.value(), p + ".", out);
        else out.push_back(p);
    }
}

// A random occupancy request line: the benchmark's mix (bench/batch_lines.py) plus lines the small
// reader hands to the full one (a cc, a sweep, warpgroup_regs, an id).
std::string random_line(std::mt19937& rng) {
    const char* gpus[] = {"A100-SXM4-80GB", "H100-SXM5-80GB", "RTX-4090", "V100-SXM2-32GB", "B200"};
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    json r = json::object();
    if (pick(0, 9) == 0) r["cc"] = "9.0";
    else r["gpu"] = gpus[pick(0, 4)];
    r["threads"] = 32 * pick(1, 32);
    r["regs"] = pick(16, 255);
    if (pick(0, 9) < 7) r["smem_dynamic"] = 256 * pick(0, 384);
    if (pick(0, 2) == 0) r["optin"] = true;
    if (pick(0, 19) == 0) r["sweep"] = "regs";
    if (pick(0, 9) == 0) r["id"] = pick(0, 1000);
    if (pick(0, 19) == 0) r["id"] = "k" + std::to_string(pick(0, 9));
    return dumped(r);
}

}  // namespace

TEST_CASE("batch fields: the occupancy paths come from the answer writer, optional members included") {
    const std::vector<std::string>& p = occ::io::answer_field_paths("occupancy");
    for (const char* want : {"blocks_per_sm", "occupancy", "limiters", "limits", "limits.registers", "limits.warps", "effective",
                             "effective.blocks_per_sm", "driver_smem.configured", "register_pool.pool", "error", "device", "device.name",
                             "input", "input.threads", "input.gpu", "sweep", "id"})
        CHECK_MESSAGE(std::find(p.begin(), p.end(), want) != p.end(), want);
    // Answer order: the result's fields before "input".
    const auto at = [&](const char* k) { return std::find(p.begin(), p.end(), k) - p.begin(); };
    CHECK(at("blocks_per_sm") < at("input"));
    CHECK(std::find(p.begin(), p.end(), "no_such_field") == p.end());
}

TEST_CASE("batch fields: unknown names are refused with the field named and the allowed ones listed") {
    const auto bad = FieldSelection::parse("occupancy", "blocks_per_sm,blocks_per_SM");
    REQUIRE_FALSE(bad);
    CHECK(bad.error.find("\"blocks_per_SM\"") != std::string::npos);
    CHECK(bad.error.find("allowed: blocks_per_sm, warps_per_sm") != std::string::npos);
    CHECK(bad.error.find("limits.registers") != std::string::npos);
    CHECK_FALSE(FieldSelection::parse("occupancy", "limits.nope"));
    CHECK_FALSE(FieldSelection::parse("occupancy", "occupancy,,limiters"));
    const auto ok = FieldSelection::parse("occupancy", "blocks_per_sm, limits.registers");
    REQUIRE(ok);
    CHECK(ok->paths() == std::vector<std::string>{"blocks_per_sm", "limits.registers"});
    CHECK(ok->match("", "blocks_per_sm") == FieldSelection::Match::whole);
    CHECK(ok->match("", "limits") == FieldSelection::Match::part);
    CHECK(ok->match("limits.", "registers") == FieldSelection::Match::whole);
    CHECK(ok->match("limits.", "warps") == FieldSelection::Match::none);
    CHECK(ok->match("", "blocks") == FieldSelection::Match::none);  // a prefix of a name is not the name
    CHECK(ok->match("", "error") == FieldSelection::Match::whole);  // always kept
}

TEST_CASE("batch fields: a known answer, one field") {
    const auto sel = FieldSelection::parse("occupancy", "blocks_per_sm");
    REQUIRE(sel);
    occ::io::BatchAnswerer b(&*sel);
    std::string out;
    // A100: 256 threads at 64 registers = 16,384 of 65,536 registers a block: 4 blocks.
    CHECK_FALSE(b.answer("occupancy", R"({"gpu":"A100-SXM4-80GB","threads":256,"regs":64})", out));
    CHECK(out == R"({"blocks_per_sm":4,"error":null})");
    CHECK(b.fast_lines() == 1);
    out.clear();
    // A refusal still says why.
    CHECK(b.answer("occupancy", R"({"gpu":"A100-SXM4-80GB","threads":1024,"regs":255})", out));
    const json j = json::parse(out);
    CHECK(j["blocks_per_sm"] == 0);
    REQUIRE(j["error"].is_string());
    CHECK_FALSE(j["error"].get<std::string>().empty());
    CHECK(j.size() == 2);
}

TEST_CASE("batch fields: a random sweep, the selected answer holds the full answer's values field for field") {
    const std::vector<std::string>& allowed = occ::io::answer_field_paths("occupancy");
    REQUIRE(allowed.size() > 30);
    std::mt19937 rng(20261207);
    occ::io::BatchAnswerer full;
    int compared = 0, fast_selected = 0;
    for (int round = 0; round < 300; ++round) {
        // 1 to 6 random paths (nested ones and their parents among them).
        std::vector<std::string> chosen;
        const int n = std::uniform_int_distribution<int>(1, 6)(rng);
        std::string list;
        for (int i = 0; i < n; ++i) {
            const std::string& p = allowed[std::uniform_int_distribution<std::size_t>(0, allowed.size() - 1)(rng)];
            chosen.push_back(p);
            list += (list.empty() ? "" : ",") + p;
        }
        const auto sel = FieldSelection::parse("occupancy", list);
        REQUIRE_MESSAGE(sel, list);
        occ::io::BatchAnswerer some(&*sel);
        for (int k = 0; k < 10; ++k) {
            const std::string line = random_line(rng);
            std::string whole, part;
            const bool e1 = full.answer("occupancy", line, whole);
            const std::size_t fast_before = some.fast_lines();
            const bool e2 = some.answer("occupancy", line, part);
            fast_selected += some.fast_lines() > fast_before;
            CHECK(e1 == e2);
            const json w = json::parse(whole), s = json::parse(part);
            // The same bytes as the tree's selection (handle_text's path), for the small reader's answers too.
            REQUIRE_MESSAGE(part == dumped(sel->select(w)), (line + " / " + list));
            // Every leaf written is the full answer's value at that path, and was asked for (or is "error").
            std::vector<std::string> written;
            leaves(s, "", written);
            for (const std::string& p : written) {
                const json* v = at_path(w, p);
                REQUIRE_MESSAGE(v, p);
                CHECK_MESSAGE(dumped(*at_path(s, p)) == dumped(*v), p);
                const bool asked = p == "error" || std::any_of(chosen.begin(), chosen.end(), [&](const std::string& c) {
                                       return p == c || p.rfind(c + ".", 0) == 0 || c.rfind(p + ".", 0) == 0;
                                   });
                CHECK_MESSAGE(asked, (p + " in " + list));
                ++compared;
            }
            // Every path asked for that the full answer has is there, with its value.
            for (const std::string& c : chosen) {
                const json* v = at_path(w, c);
                if (!v) continue;
                const json* got = at_path(s, c);
                REQUIRE_MESSAGE(got, (c + " / " + line));
                CHECK(dumped(*got) == dumped(*v));
            }
            if (w.contains("error")) CHECK(s["error"] == w["error"]);
        }
    }
    CHECK(compared > 3000);
    CHECK(fast_selected > 1500);  // most lines took the small reader's selected writer
}

TEST_CASE("batch fields: the other kinds select from their tree answers") {
    const std::vector<std::string>& p = occ::io::answer_field_paths("coalesce");
    REQUIRE_FALSE(p.empty());
    const auto sel = FieldSelection::parse("coalesce", "efficiency");
    REQUIRE(sel);
    occ::io::BatchAnswerer b(&*sel);
    std::string out;
    b.answer("coalesce", R"({"stride":2})", out);
    const json full = occ::io::handle_text("coalesce", R"({"stride":2})");
    const json j = json::parse(out);
    REQUIRE(full.contains("efficiency"));
    CHECK(j["efficiency"] == full["efficiency"]);
    CHECK(j.size() == (full.contains("error") ? 2u : 1u));
    CHECK_FALSE(FieldSelection::parse("coalesce", "blocks_per_sm"));
}
