// test_limiters_ui.cpp — every limiter in occ::kLimiters x the app: for each launch of
// tests/fixtures/limiter_cases.json (limited by exactly one limiter) the frame names it: the result
// view's limits row and summary, the SM view (a line for the limiters it draws no part for) and the
// hints (core's sentence on why no register cut helps).
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "headless.hpp"
#include "occ/explain.hpp"
#include "occ/io/api.hpp"

namespace {

occ::io::json limiter_cases() {
    std::ifstream f(std::string(OCC_FIXTURES_DIR) + "/limiter_cases.json");
    REQUIRE(f.good());
    return occ::io::json::parse(f)["cases"];
}

std::string frame_texts(occ::ui::App& app) {
    run_frame_all_views(app);
    std::string text;
    for (const std::string& t : occ::ui::drawn_texts()) text += t + "\n";
    return text;
}

}  // namespace

TEST_CASE("every limiter is named by the result view, the SM view and the hints") {
    Headless h;
    occ::ui::App app;
    Headless::upload_fonts();
    const occ::io::json cases = limiter_cases();
    for (const occ::LimiterInfo& e : occ::kLimiters) {
        const std::string key = e.key;
        CAPTURE(key);
        occ::io::json c;
        for (const occ::io::json& x : cases)
            if (x["limiter"] == e.key) c = x;
        REQUIRE_MESSAGE(c.is_object(), "tests/fixtures/limiter_cases.json has no case for " << e.key);
        const occ::io::json& q = c["request"];
        occ::ui::AppState& s = app.state();
        s.req.device = *occ::find_gpu(q["gpu"].get<std::string>());
        s.device_kind = occ::ui::DeviceKind::named;
        s.block_3d = false;
        s.req.launch.threads = q["threads"].get<int>();
        s.req.launch.smem_dynamic = q.value("smem_dynamic", 0);
        s.req.kernel.regs_per_thread = q["regs"].get<int>();
        s.req.kernel.optin = q.value("optin", false);
        s.req.kernel.barriers = q.value("barriers", 1);
        s.req.kernel.virtual_resources = q.value("virtual_resources", 0);
        s.req.kernel.tmem_columns = q.value("tmem_columns", 0);
        occ::ui::sync_block(s);
        occ::ui::mark_changed(s);
        std::string text;
        for (int i = 0; i < 3; ++i) text = frame_texts(app);
        if (e.effective) REQUIRE(occ::effective_limiters(s.derived.result) == e.bit);
        else REQUIRE(s.derived.result.limiters == e.bit);
        const std::string blocks = std::to_string(c["blocks_per_sm"].get<int>()) + " blocks";

        // Wrapped sentences come back a line at a time: read the frame as one text.
        std::string flat = text;
        for (char& ch : flat)
            if (ch == '\n') ch = ' ';
        // Result view: the summary under the headline, and this limiter's row of the limits table
        // (its title whole, not clipped, and its block count).
        if (e.effective) CHECK(flat.find("work at once (" + std::string(e.label) + ")") != std::string::npos);
        else CHECK(text.find("\nlimited by " + std::string(e.label) + "\n") != std::string::npos);
        CHECK(text.find("\n" + std::string(e.title) + "\n") != std::string::npos);
        CHECK(text.find("\n" + blocks + "\n") != std::string::npos);
        for (const auto& clipped : occ::ui::check_layout()["clipped"]) CHECK(clipped["text"] != e.title);
        // SM view: the limiters it has no picture for get a line of their own.
        const bool pictured = e.bit == occ::kLimitWarps || e.bit == occ::kLimitRegisters || e.bit == occ::kLimitSharedMemory ||
                              e.bit == occ::kLimitBlocks;
        if (!pictured) CHECK(flat.find(std::string(e.title) + " limiting: " + blocks) != std::string::npos);
        // Hints: core's note (the sentence `occ advise` prints) names it.
        if (e.bit != occ::kLimitRegisters && !e.effective)
            CHECK(flat.find("no register count fits more blocks: even with 0 registers the launch is limited by " + std::string(e.label)) !=
                  std::string::npos);
    }
}
