// test_binding.cpp — the launch's field bindings (occ/io/binding.hpp) and the one kind table: each
// bound field is read, echoed and read back through its member; every face's list comes from them.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "occ/io/api.hpp"
#include "occ/io/batch.hpp"
#include "occ/io/binding.hpp"
#include "occ/io/schema.hpp"

namespace io = occ::io;
using io::json;

namespace {

// A value of the field other than its default, inside its range.
std::int64_t other_value(const io::FieldSpec& s) {
    switch (s.type) {
        case io::FieldType::boolean: return io::default_value(s) == 0;
        case io::FieldType::choice: return io::default_value(s) == 0 ? 1 : 0;
        default:
            if (s.valid)  // the first value past the default its rule takes (tmem_columns: 32)
                for (std::int64_t v = s.lo; v <= s.hi; ++v)
                    if (v != s.int_default && s.valid(v)) return v;
            return s.key == "carveout" ? 50 : s.key == "max_dynamic_smem" ? 1024 : s.key == "regs" ? 40 : 3;
    }
}

json as_json(const io::FieldSpec& s, std::int64_t v) {
    if (s.type == io::FieldType::boolean) return v != 0;
    if (s.type == io::FieldType::choice) return std::string(io::choice_name(s, v));
    return v;
}

}  // namespace

TEST_CASE("binding: each bound field reads into its member, echoes and reads back; the others keep their defaults") {
    const auto bindings = io::launch_bindings();
    REQUIRE(bindings.size() >= 11);
    for (const auto& b : bindings) {
        CAPTURE(b.spec->key);
        const std::int64_t v = other_value(*b.spec);
        const json req{{"gpu", "H100-SXM5-80GB"}, {"threads", 128}, {std::string(b.spec->key), as_json(*b.spec, v)}};
        const auto r = io::read_occupancy_request(req);
        REQUIRE(r);
        CHECK(b.get(*r) == v);
        for (const auto& other : bindings)
            if (&other != &b) CHECK(other.get(*r) == io::default_value(*other.spec));
        // The echo carries the value (a field echoed only when set is set here) and reads back the same.
        const json echo = io::occupancy_request_to_json(*r);
        REQUIRE(echo.contains(std::string(b.spec->key)));
        CHECK(echo[std::string(b.spec->key)] == as_json(*b.spec, v));
        const auto back = io::read_occupancy_request(echo);
        REQUIRE(back);
        for (const auto& x : bindings) CHECK(x.get(*back) == x.get(*r));
    }
}

TEST_CASE("binding: a choice is its enum's value in the order of the description's spellings") {
    // CacheConfig {none, prefer_shared, prefer_l1, prefer_equal}: "none,shared,l1,equal".
    const char* cache[] = {"none", "shared", "l1", "equal"};
    const occ::CacheConfig want[] = {occ::CacheConfig::none, occ::CacheConfig::prefer_shared, occ::CacheConfig::prefer_l1,
                                     occ::CacheConfig::prefer_equal};
    for (int i = 0; i < 4; ++i) {
        const auto r = io::read_occupancy_request(json{{"cache_config", cache[i]}});
        REQUIRE(r);
        CHECK(r->launch.cache_config == want[i]);
        CHECK(io::occupancy_request_to_json(*r)["cache_config"] == cache[i]);
    }
    const char* pgc[] = {"off", "on", "strict"};
    const occ::PartitionedGC pwant[] = {occ::PartitionedGC::off, occ::PartitionedGC::on, occ::PartitionedGC::strict};
    for (int i = 0; i < 3; ++i) {
        const auto r = io::read_occupancy_request(json{{"cc", "6.1"}, {"partitioned_gc", pgc[i]}});
        REQUIRE(r);
        CHECK(r->kernel.partitioned_gc == pwant[i]);
        CHECK(io::occupancy_request_to_json(*r)["partitioned_gc"] == pgc[i]);
    }
    CHECK(io::choice_index(io::fields::cache_config, "L1") == -1);  // the reader lower-cases first
    CHECK(io::choice_name(io::fields::cache_config, 4).empty());
}

TEST_CASE("binding: the kinds' field lists come from the bindings; ptxas leaves out what the log gives") {
    const io::KindSpec* occupancy = io::find_kind("occupancy");
    const io::KindSpec* ptxas = io::find_kind("ptxas");
    REQUIRE(occupancy);
    REQUIRE(ptxas);
    for (const auto& b : io::launch_bindings()) {
        CAPTURE(b.spec->key);
        CHECK(io::find_field(*occupancy, b.spec->key) == b.spec);
        for (const char* k : {"advise", "waves", "clusters"}) CHECK(io::find_field(*io::find_kind(k), b.spec->key) == b.spec);
        CHECK((io::find_field(*ptxas, b.spec->key) == nullptr) == (b.from == io::From::artefact));
    }
    const auto refused = io::handle("ptxas", json{{"log", ""}, {"regs", 32}});
    CHECK(refused["error"].get<std::string>().find("regs: comes from the log") == 0);
}

TEST_CASE("binding: the --batch fast path takes every bound field and answers as the full reader") {
    io::BatchAnswerer fast;
    for (const auto& b : io::launch_bindings()) {
        CAPTURE(b.spec->key);
        const json req{{"gpu", "A100"}, {"threads", 256}, {std::string(b.spec->key), as_json(*b.spec, other_value(*b.spec))}};
        std::string out;
        const std::size_t before = fast.fast_lines();
        fast.answer("occupancy", req.dump(), out);
        CHECK(fast.fast_lines() == before + 1);  // not sent to the full reader
        CHECK(out == io::handle("occupancy", req).dump(-1, ' ', false, json::error_handler_t::replace));
    }
}

TEST_CASE("kinds: one table answers every kind; window.occ, Python and the CLI list it") {
    std::set<std::string> names;
    for (const io::KindSpec& k : io::request_kinds()) {
        CAPTURE(k.name);
        REQUIRE(static_cast<bool>(k.answer));
        CHECK(names.insert(std::string(k.name)).second);
        // Every kind answers (an error about its own fields, never "unknown request kind").
        const json a = io::handle(k.name, json::object());
        if (a.contains("error") && a["error"].is_string())
            CHECK(a["error"].get<std::string>().find("unknown request kind") == std::string::npos);
        CHECK(io::known_kinds().find(std::string(k.name)) != std::string::npos);
    }
    CHECK(names.count("advise") == 1);
    CHECK(io::handle("nope", json::object())["error"].get<std::string>().find("known: occupancy, advise") != std::string::npos);
}

// max_threads: the field added through the binding table alone (kinds.cpp) plus its rule in the
// model. cudaFuncAttributes::maxThreadsPerBlock is "the maximum number of threads per block, beyond
// which a launch of the function would fail" (CUDA Runtime API, cudaFuncAttributes).
TEST_CASE("max_threads: a block above the kernel's maximum is refused; at or below it the answer is unchanged") {
    const json at = io::handle("occupancy", json{{"gpu", "A100"}, {"threads", 256}, {"regs", 32}, {"max_threads", 256}});
    const json plain = io::handle("occupancy", json{{"gpu", "A100"}, {"threads", 256}, {"regs", 32}});
    CHECK(at["blocks_per_sm"] == 8);  // 2048 threads / 256 (A100: 64 warps per SM)
    CHECK(at["blocks_per_sm"] == plain["blocks_per_sm"]);
    CHECK(at["input"]["max_threads"] == 256);
    CHECK_FALSE(plain["input"].contains("max_threads"));  // echoed only when given
    const json over = io::handle("occupancy", json{{"gpu", "A100"}, {"threads", 512}, {"max_threads", 256}});
    CHECK(over["blocks_per_sm"] == 0);
    CHECK(over["error"].get<std::string>().find("threads: the kernel takes at most 256 threads per block") == 0);
    // The same through every path of the model: tables, the untabled path and blocks_per_sm_fast.
    const occ::Device a100 = *occ::find_gpu("A100");
    occ::KernelResources k;
    k.max_threads = 128;
    occ::LaunchConfig l;
    l.threads = 192;
    CHECK(occ::compute_occupancy(a100, k, l).error_code == occ::OccupancyError::threads_over_kernel_max);
    CHECK(occ::detail::compute_occupancy_untabled(a100, k, l).error_code == occ::OccupancyError::threads_over_kernel_max);
    for (int i = 0; i < 20; ++i) CHECK(occ::blocks_per_sm_fast(a100.arch, k, l) == 0);  // also once the tables exist
    l.threads = 128;
    CHECK(occ::blocks_per_sm_fast(a100.arch, k, l) == 16);
}
