// The JSON contract for occupancy requests (occ/io/api.hpp): field names, errors, custom devices.
#include <doctest/doctest.h>

#include "occ/io/api.hpp"

using occ::io::handle;
using occ::io::handle_text;
using json = occ::io::json;

TEST_CASE("occupancy response carries the documented snake_case fields") {
    const json r = handle("occupancy",
                          json{{"gpu", "A100-SXM4-80GB"}, {"threads", 256}, {"regs", 64}, {"smem_dynamic", "48K"}, {"optin", true}});
    CHECK(r["error"].is_null());
    CHECK(r["blocks_per_sm"] == 3);
    CHECK(r["warps_per_sm"] == 24);
    CHECK(r["threads_per_sm"] == 768);
    CHECK(r["occupancy"].get<double>() == doctest::Approx(0.375));
    CHECK(r["limits"]["warps"] == 8);
    CHECK(r["limits"]["registers"] == 4);
    CHECK(r["limits"]["shared_memory"] == 3);
    CHECK(r["limits"]["blocks"] == 32);
    CHECK(r["limits"]["barriers"].is_null());
    CHECK(r["limiters"] == json::array({"shared_memory"}));
    CHECK(r["regs_per_warp_allocated"] == 2048);
    CHECK(r["regs_per_block_allocated"] == 16384);
    CHECK(r["smem_per_block_allocated"] == 50176);
    CHECK(r["smem_per_sm_configured"] == 167936);
    for (const char* k :
         {"cc_major", "cc_minor", "max_threads_per_block", "max_threads_per_sm", "max_blocks_per_sm", "regs_per_sm", "regs_per_block",
          "max_regs_per_thread", "smem_per_sm", "smem_per_block", "smem_per_block_optin", "smem_reserved_per_block", "sm_count", "name"}) {
        CAPTURE(k);
        CHECK(r["device"].contains(k));
    }
    CHECK(r["device"]["sm_count"] == 108);
    CHECK(r["device"]["smem_reserved_per_block"] == 1024);
}

TEST_CASE("cc instead of a GPU, 3-D blocks, ids are echoed") {
    const json r = handle("occupancy", json{{"cc", "8.6"}, {"block", {16, 16, 2}}, {"regs", 32}, {"id", "row-7"}});
    CHECK(r["error"].is_null());
    CHECK(r["warps_per_block"] == 16);
    CHECK(r["blocks_per_sm"] == 3);  // 48 warps / 16
    CHECK(r["id"] == "row-7");
    CHECK(r["input"]["block"] == json::array({16, 16, 2}));
}

TEST_CASE("bad requests give one error naming the field") {
    CHECK(handle_text("occupancy", "{nope")["error"].get<std::string>().find("not valid JSON") == 0);
    CHECK(handle("occupancy", json{{"gpu", "H100-SMX5"}})["error"].get<std::string>().find("did you mean \"H100-SXM5-80GB\"") !=
          std::string::npos);
    CHECK(handle("occupancy", json{{"thread", 5}})["error"] == "thread: unknown field in occupancy request; did you mean \"threads\"?");
    CHECK(handle("occupancy", json{{"threads", "many"}})["error"].get<std::string>().find("threads: must be an integer") == 0);
    CHECK(handle("occupancy", json{{"smem_dynamic", "48Q"}})["error"].get<std::string>().find("smem_dynamic: unknown unit") == 0);
    CHECK(handle("occupancy", json{{"cc", "4.0"}})["error"].get<std::string>().find("cc: compute capability 4.0 is not modelled") == 0);
    CHECK(handle("occupancy", json{{"optin", "maybe"}})["error"] == "optin: must be true or false, got \"maybe\"");
    CHECK(handle("occupancy", json::array())["error"].get<std::string>().find("must be a JSON object") != std::string::npos);
    CHECK(handle("nonsense", json::object())["error"].get<std::string>().find("unknown request kind") == 0);
    // Model-level errors keep the full result, with 0 blocks and the reason.
    const json t = handle("occupancy", json{{"threads", 0}});
    CHECK(t["blocks_per_sm"] == 0);
    CHECK(t["error"] == "threads must be 1..1024 (threads per block), got 0");
}

TEST_CASE("custom devices use cudaDeviceProp field names") {
    const json dev = {
        {"name", "my-a100-slice"}, {"major", 8}, {"minor", 0}, {"multiProcessorCount", 14}, {"sharedMemPerMultiprocessor", 100 * 1024}};
    const json r = handle("occupancy", json{{"device", dev}, {"threads", 256}, {"regs", 32}, {"smem_dynamic", 30 * 1024}});
    CHECK(r["error"].is_null());
    CHECK(r["device"]["name"] == "my-a100-slice");
    CHECK(r["device"]["sm_count"] == 14);
    CHECK(r["limits"]["shared_memory"] == 3);  // 100 KiB carveout / 31 KiB
    const json bad = handle("occupancy", json{{"device", {{"major", 8}, {"minor", 0}, {"warpSize", 64}}}});
    CHECK(bad["error"].get<std::string>().find("device.warpSize: must be an integer 32..32") == 0);
    const json unknown = handle("occupancy", json{{"device", {{"major", 8}, {"minor", 0}, {"regsPerSM", 1}}}});
    CHECK(unknown["error"].get<std::string>().find("regsPerSM: unknown field") != std::string::npos);
}

TEST_CASE("gpus kind lists the database") {
    const json g = handle("gpus", json::object());
    CHECK(g["gpus"].size() >= 30);
    CHECK(g["archs"].size() == 22);
}

TEST_CASE("every kind echoes its device so the echoed input reads back to the same answer") {
    const json dev = {
        {"name", "half-h100"}, {"major", 9}, {"minor", 0}, {"multiProcessorCount", 66}, {"sharedMemPerMultiprocessor", 100 * 1024}};
    for (const char* kind : {"occupancy", "coalesce", "banks"}) {
        CAPTURE(kind);
        json req = {{"device", dev}};
        if (std::string(kind) != "occupancy") req["stride"] = 2;
        const json first = handle(kind, req);
        REQUIRE(first["error"].is_null());
        CHECK(first["input"]["device"]["multiProcessorCount"] == 66);
        const json again = handle(kind, first["input"]);
        CHECK(again == first);
    }
    CHECK(handle("coalesce", json{{"cc", "8.6"}})["input"]["cc"] == "8.6");
    CHECK(handle("banks", json{{"gpu", "h100"}})["input"]["gpu"] == "H100-SXM5-80GB");
}
