// FieldReader (occ/io/fields.hpp): a null value is "not given" for every field the request kind
// describes (docs/INPUTS.md, conventions), read or not; a key the kind does not describe is an
// unknown field whatever its value.
#include <doctest/doctest.h>

#include "occ/io/api.hpp"

using occ::io::json;

namespace {
json answer(const char* kind, const char* request) { return occ::io::handle(kind, json::parse(request)); }
}  // namespace

TEST_CASE("null is not given: the same answer as without the field") {
    // block is not read when threads is given; cc and device are not read when gpu is.
    CHECK(answer("occupancy", R"({"gpu":"A100","threads":256,"block":null})") == answer("occupancy", R"({"gpu":"A100","threads":256})"));
    CHECK(answer("occupancy", R"({"gpu":"A100","threads":256,"cc":null,"device":null})") ==
          answer("occupancy", R"({"gpu":"A100","threads":256})"));
    // gpu null: the device comes from cc.
    const json cc = answer("occupancy", R"({"gpu":null,"cc":"9.0"})");
    CHECK(cc["error"].is_null());
    CHECK(cc == answer("occupancy", R"({"cc":"9.0"})"));
    CHECK(answer("advise", R"({"gpu":"A100","block":[128],"threads":null})") == answer("advise", R"({"gpu":"A100","block":[128]})"));
    CHECK(answer("coalesce", R"({"gpu":"A100","stride":2,"cc":null})") == answer("coalesce", R"({"gpu":"A100","stride":2})"));
    // A custom op's figures in a matmul, at the top level and inside ops[].
    CHECK(answer("roofline", R"({"gpu":"A100","op":"matmul","flops":null,"bytes":null})") ==
          answer("roofline", R"({"gpu":"A100","op":"matmul"})"));
    CHECK(answer("roofline", R"({"gpu":"A100","ops":[{"op":"softmax","m":null}]})")["error"].is_null());
}

TEST_CASE("a key the kind does not describe stays an unknown field, null or not") {
    CHECK(answer("occupancy", R"({"gpu":"A100","foo":null})")["error"] == "foo: unknown field in occupancy request");
    CHECK(answer("occupancy", R"({"gpu":"A100","thread":null})")["error"] ==
          "thread: unknown field in occupancy request; did you mean \"threads\"?");
    // pattern is a memory field, not an occupancy one.
    CHECK(answer("occupancy", R"({"gpu":"A100","pattern":null})")["error"] == "pattern: unknown field in occupancy request");
    CHECK(answer("roofline", R"({"gpu":"A100","regs":null})")["error"] ==
          "regs: unknown field in roofline request; did you mean \"rows\"?");
}
