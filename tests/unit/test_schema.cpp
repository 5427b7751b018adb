// test_schema.cpp — the request descriptions (occ/io/schema.hpp) against docs/INPUTS.md and the readers.
#include <doctest/doctest.h>
#include <algorithm>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "occ/io/api.hpp"
#include "occ/io/schema.hpp"

namespace {

struct DocRow {
    std::string type, range, unit, def;
};

std::vector<std::string> cells(const std::string& line) {
    std::vector<std::string> out;
    std::string cur;
    bool code = false;
    for (std::size_t i = 1; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '`') code = !code;
        if (c == '|' && !code) {
            const auto b = cur.find_first_not_of(' '), e = cur.find_last_not_of(' ');
            out.push_back(b == std::string::npos ? "" : cur.substr(b, e - b + 1));
            cur.clear();
        } else {
            cur += c;
        }
    }
    return out;
}

bool plain_key(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

// kind -> field -> the row that documents the field itself (rows like "threads (too many)" are
// examples of one message and are not compared here).
std::map<std::string, std::map<std::string, DocRow>> read_docs() {
    std::ifstream in(std::string(OCC_SOURCE_DIR) + "/docs/INPUTS.md");
    REQUIRE(in);
    std::map<std::string, std::map<std::string, DocRow>> docs;
    std::string line, kind;
    while (std::getline(in, line)) {
        if (line.rfind("<!-- kind: ", 0) == 0) {
            kind = line.substr(11, line.find(' ', 11) - 11);
            docs[kind];
            continue;
        }
        if (line.rfind("## ", 0) == 0) kind.clear();
        if (kind.empty() || line.rfind("| ", 0) != 0) continue;
        const auto c = cells(line);
        if (c.size() < 5 || !plain_key(c[0]) || c[0] == "field") continue;
        docs[kind][c[0]] = DocRow{c[1], c[2], c[3], c[4]};
    }
    return docs;
}

std::vector<std::string> split(std::string_view s) {
    std::vector<std::string> out;
    std::stringstream ss{std::string(s)};
    std::string part;
    while (std::getline(ss, part, ','))
        if (!part.empty()) out.push_back(part);
    return out;
}

}  // namespace

TEST_CASE("schema: docs/INPUTS.md documents exactly the described fields, with their ranges and defaults") {
    const auto docs = read_docs();
    for (const occ::io::KindSpec& kind : occ::io::request_kinds()) {
        std::set<const occ::io::FieldSpec*> shared;
        for (const std::string& other : split(kind.docs_shared_with)) {
            const occ::io::KindSpec* o = occ::io::find_kind(other);
            REQUIRE(o != nullptr);
            for (const occ::io::FieldSpec* f : o->fields) shared.insert(f);
        }
        std::set<std::string> own;
        for (const occ::io::FieldSpec* f : kind.fields)
            if (!shared.count(f)) own.insert(std::string(f->key));
        auto it = docs.find(std::string(kind.name));
        if (own.empty() && it == docs.end()) continue;
        INFO("kind " << kind.name);
        REQUIRE(it != docs.end());
        std::set<std::string> documented;
        for (const auto& [key, row] : it->second) documented.insert(key);
        CHECK(documented == own);
        for (const occ::io::FieldSpec* f : kind.fields) {
            auto row = it->second.find(std::string(f->key));
            if (shared.count(f) || row == it->second.end()) continue;
            INFO("field " << f->key);
            CHECK(row->second.type == f->doc_type);
            CHECK(row->second.range == f->doc_range);
            CHECK(row->second.unit == f->unit);
            CHECK(row->second.def == f->def);
        }
    }
}

TEST_CASE("schema: flags are the JSON keys with '_' turned into '-'") {
    CHECK(occ::io::flag_name("smem_dynamic") == "--smem-dynamic");
    CHECK(occ::io::flag_name("batch_size") == "--batch-size");
    std::set<std::string> seen;
    for (const occ::io::KindSpec& kind : occ::io::request_kinds()) {
        seen.clear();
        for (const occ::io::FieldSpec* f : kind.fields) {
            INFO(kind.name << "." << f->key);
            CHECK(seen.insert(std::string(f->key)).second);  // a key once per kind
            // --batch and --json are the CLI's modes: no field may take those names.
            CHECK(f->key != "batch");
            CHECK(f->key != "json");
        }
    }
}

TEST_CASE("schema: advise, waves, clusters and ptxas share the occupancy device and launch descriptions") {
    const occ::io::KindSpec* occ_kind = occ::io::find_kind("occupancy");
    REQUIRE(occ_kind);
    for (const char* name : {"advise", "waves", "clusters"}) {
        const occ::io::KindSpec* k = occ::io::find_kind(name);
        REQUIRE(k);
        for (const occ::io::FieldSpec* f : occ_kind->fields) {
            if (f->key == "sweep") continue;
            // The AMD-only fields: AMD GPUs are answered by occupancy, advise and waves, not clusters.
            const auto amd = occ::io::amd_only_fields();
            if (std::find(amd.begin(), amd.end(), f) != amd.end()) {
                CHECK((occ::io::find_field(*k, f->key) == nullptr) == (std::string_view(name) == "clusters"));
                continue;
            }
            INFO(name << " lacks " << f->key);
            CHECK(occ::io::find_field(*k, f->key) == f);
        }
    }
    // ptxas reads registers, static shared memory and barriers from the log.
    const occ::io::KindSpec* p = occ::io::find_kind("ptxas");
    REQUIRE(p);
    CHECK(occ::io::find_field(*p, "regs") == nullptr);
    CHECK(occ::io::find_field(*p, "threads") == &occ::io::fields::threads);
}

TEST_CASE("schema: the readers use the described ranges and defaults") {
    using occ::io::json;
    namespace F = occ::io::fields;
    auto r = occ::io::read_occupancy_request(json::object());
    REQUIRE(r);
    CHECK(r->launch.threads == F::threads.int_default);
    CHECK(r->kernel.regs_per_thread == F::regs.int_default);
    CHECK(r->kernel.barriers == F::barriers.int_default);
    CHECK(r->launch.carveout == F::carveout.int_default);
    auto bad = occ::io::read_occupancy_request(json{{"grid", -1}});
    REQUIRE_FALSE(bad);
    CHECK(bad.error == "grid: must be an integer 0.." + std::to_string(F::grid.hi) + ", got -1");
    auto m = occ::io::read_memory_request(json{{"stride", F::stride.hi}});
    REQUIRE(m);
    CHECK(m->pattern.stride == F::stride.hi);
    auto m2 = occ::io::read_memory_request(json{{"stride", F::stride.hi + 1}});
    REQUIRE_FALSE(m2);
    CHECK(m2.error.rfind("stride: must be an integer", 0) == 0);
}
