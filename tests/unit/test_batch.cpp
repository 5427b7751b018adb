// The streamed --batch answers (occ/io/batch.hpp) against the JSON tree they replace, byte for
// byte, on every occupancy request of the regress corpus and on lines the small reader must hand
// to the full one; and find_gpu_cached against find_gpu.
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "occ/gpu_cache.hpp"
#include "occ/io/api.hpp"
#include "occ/io/batch.hpp"

namespace {

using occ::io::json;

std::vector<std::string> corpus_lines() {
    std::ifstream f(std::string(OCC_SOURCE_DIR) + "/tests/regress/corpus/occupancy.jsonl", std::ios::binary);
    std::vector<std::string> lines;
    for (std::string line; std::getline(f, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") != std::string::npos) lines.push_back(line);
    }
    return lines;
}

std::string dumped(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace

TEST_CASE("batch: the streamed occupancy answer is the tree's dump, on every corpus request") {
    const auto lines = corpus_lines();
    REQUIRE(lines.size() > 4000);
    int answered = 0;
    for (const std::string& line : lines) {
        const json req = json::parse(line, nullptr, false);
        if (req.is_discarded()) continue;
        const auto a = occ::io::answer_occupancy(req);
        if (!a) continue;
        std::string streamed;
        occ::io::write_occupancy_answer(*a, streamed);
        REQUIRE_MESSAGE(streamed == dumped(occ::io::to_json(*a)), line);
        ++answered;
    }
    CHECK(answered > 2000);  // sweeps, ids, cc and custom devices, refusals among them
}

TEST_CASE("batch: BatchAnswerer answers every corpus line as handle_text does") {
    const auto lines = corpus_lines();
    occ::io::BatchAnswerer b;
    for (const std::string& line : lines) {
        std::string out;
        const bool error = b.answer("occupancy", line, out);
        const json expected = occ::io::handle_text("occupancy", line);
        REQUIRE_MESSAGE(out == dumped(expected), line);
        CHECK(error == (expected.contains("error") && !expected["error"].is_null()));
    }
    // The corpus is mostly plain requests: the small reader took a good share of them.
    CHECK(b.fast_lines() > 500);
}

TEST_CASE("batch: lines the small reader leaves to the full reader answer the same") {
    const char* lines[] = {
        R"({"gpu":"A100","threads":256,"regs":32})",
        R"({"gpu":"A100","threads":256,"regs":32,"regs":40})",  // repeated key
        R"({"gpu":"A100","threads":"256"})",                    // numeric string
        R"({"gpu":"A100","threads":256.0})",                    // whole float
        R"({"gpu":"A100","threads":2e2})",
        R"({"gpu":"A100","threads":0256})",                  // not JSON
        R"({"gpu":"A100","threads":99999999999999999999})",  // beyond int64
        R"({"gpu":"A100","threads":9999999999})",            // beyond the field's range
        R"({"gpu":"A100","smem_dynamic":"48K","optin":1})",
        R"({"gpu":"A100","cache_config":"Shared","partitioned_gc":"ON"})",  // choices in any case
        R"({"gpu":"A100","cache_config":"bogus"})",
        R"({"gpu":"A100","optin":"yes","sweep":"regs"})",
        R"({"gpu":"no such gpu","threads":128})",
        R"({"gpu":"Orin"})",                  // ambiguous
        R"({"gpu":"A\u0031","threads":64})",  // escape in a string
        R"({"gpu":"A100","threds":64})",      // unknown key
        R"({"gpu":"A100","threads":64,"id":7})",
        R"({"cc":"9.0","threads":64,"barriers":3})",
        R"({"gpu":"A100","threads":64} trailing)",
        R"({"gpu":"A100","threads":64,})",
        R"({"gpu":"A100","threads":null})",
        R"( {"gpu" : "H100" , "threads" : 1024 , "regs" : 255 , "virtual_resources" : 3 } )",
        R"({"gpu":"B200","threads":1024,"regs":0,"virtual_resources":200,"grid":100000})",
        R"({"gpu":"A100","threads":-5,"regs":-1,"carveout":101,"barriers":17,"max_dynamic_smem":9999999})",
        R"({"gpu":"A100","smem_dynamic":"48K","optin":true,"id":"run-1"})",
        R"({"gpu":"A100","smem_dynamic":"48Q"})",  // not a size
        R"({"gpu":"A100","id":-0})",
        R"({"gpu":"A100","id":true})",
        R"({})",
        R"([])",
        R"("x")",
    };
    occ::io::BatchAnswerer b;
    for (const char* line : lines) {
        std::string out;
        b.answer("occupancy", line, out);
        CHECK_MESSAGE(out == dumped(occ::io::handle_text("occupancy", line)), line);
    }
    // Plain lines only: the first, the integer id, the H100 and B200 ones, the out-of-range
    // numbers, the size string with a string id, the id -0 and {}.
    CHECK(b.fast_lines() == 8);
}

TEST_CASE("batch: other kinds answer as handle_text") {
    occ::io::BatchAnswerer b;
    std::string out;
    CHECK(b.answer("gpus", "{}", out) == false);
    CHECK(out == dumped(occ::io::handle_text("gpus", "{}")));
    out.clear();
    CHECK(b.answer("nonsense", "{}", out) == true);
    CHECK(out.find("unknown request kind") != std::string::npos);
}

TEST_CASE("gpu_cache: find_gpu_cached agrees with find_gpu and keeps one Device per GPU") {
    for (const char* name : {"A100", "a100-sxm4-80gb", "NVIDIA A100-SXM4-80GB", "H100", "RTX 4090", "Tesla K40"}) {
        const occ::Device* d = occ::find_gpu_cached(name);
        const auto ref = occ::find_gpu(name);
        REQUIRE(d != nullptr);
        REQUIRE(ref.has_value());
        CHECK(d->name == ref->name);
        CHECK(d->sm_count == ref->sm_count);
        CHECK(d->arch.cc_major == ref->arch.cc_major);
        CHECK(occ::find_gpu_cached(name) == d);  // the same Device, from the map
    }
    CHECK(occ::find_gpu_cached("A100-SXM4-80GB") == occ::find_gpu_cached("a100 sxm4 80gb"));
    CHECK(occ::find_gpu_cached("no such gpu") == nullptr);
    CHECK(occ::find_gpu_cached("Orin") == nullptr);  // ambiguous: find_gpu refuses it too
}
