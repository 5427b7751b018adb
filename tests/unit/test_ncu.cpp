// test_ncu.cpp — the Nsight Compute reader on one fixture per format (tests/fixtures/ncu, each
// modelled on a public paste cited in its README), and occ's prediction next to the report.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ncu_helpers.hpp"
#include "occ/io/ncu.hpp"

namespace {

using occ::io::json;

using ncu_test::fixture;

// A public report's launch rebuilt on a device of its compute capability.
struct ReportLaunch {
    occ::Device dev;
    occ::KernelResources k;
    occ::LaunchConfig l;
};
ReportLaunch launch_of(const json& r) {
    int major = 0, minor = 0;
    REQUIRE(occ::parse_cc(r["cc"].get<std::string>(), major, minor));
    auto dev = occ::device_for_cc(major, minor);
    REQUIRE(dev.has_value());
    ReportLaunch x{*dev, {}, {}};
    x.l.threads = r["block_size"].get<int>();
    x.k.regs_per_thread = r["registers_per_thread"].get<int>();
    x.k.smem_static = r["static_shared_memory_per_block"].is_number() ? r["static_shared_memory_per_block"].get<std::int64_t>() : 0;
    x.l.smem_dynamic = r["dynamic_shared_memory_per_block"].is_number() ? r["dynamic_shared_memory_per_block"].get<std::int64_t>() : 0;
    x.k.optin = x.k.smem_static + x.l.smem_dynamic > x.dev.arch.smem_per_block;
    return x;
}

json expected() { return json::parse(fixture("expected.json")); }

}  // namespace

TEST_CASE("ncu: every fixture's kernels, launch shapes and values read as the README lists them") {
    const json all = expected();
    for (auto it = all.begin(); it != all.end(); ++it) {
        INFO("fixture " << it.key());
        const occ::io::NcuReport rep = occ::io::parse_ncu(fixture(it.key()));
        REQUIRE(rep.kernels.size() == it->size());
        for (std::size_t i = 0; i < it->size(); ++i) {
            const json& e = (*it)[i];
            const occ::io::NcuKernel& k = rep.kernels[i];
            INFO("kernel " << i << " " << k.name);
            if (e.contains("name") && e["name"].is_string()) CHECK(k.name.rfind(e["name"].get<std::string>(), 0) == 0);
            if (e.contains("cc") && e["cc"].is_string())
                CHECK(std::to_string(k.cc_major) + "." + std::to_string(k.cc_minor) == e["cc"].get<std::string>());
            if (e.contains("cc") && e["cc"].is_null()) CHECK(k.cc_major == 0);
            if (e.contains("block") && e["block"].is_array() && e["block"][1].is_number()) {
                REQUIRE(k.block.has_value());
                for (int d = 0; d < 3; ++d)
                    CHECK((*k.block)[static_cast<std::size_t>(d)] == e["block"][static_cast<std::size_t>(d)].get<std::int64_t>());
            }
            if (e.contains("grid") && e["grid"].is_array() && e["grid"][1].is_number()) {
                REQUIRE(k.grid.has_value());
                for (int d = 0; d < 3; ++d)
                    CHECK((*k.grid)[static_cast<std::size_t>(d)] == e["grid"][static_cast<std::size_t>(d)].get<std::int64_t>());
            }
            for (auto m = e["measured"].begin(); m != e["measured"].end(); ++m) {
                INFO("value " << m.key());
                const occ::io::NcuValue* v = k.get(m.key());
                if (m->is_null()) {
                    CHECK(v == nullptr);  // never a number the report did not print
                } else {
                    REQUIRE(v != nullptr);
                    CHECK(std::fabs(v->value - m->get<double>()) < 1e-6);
                }
            }
        }
    }
}

TEST_CASE("ncu: values keep what was printed, the interval it can mean and the best reading") {
    auto v = occ::io::ncu_value("32.77", "Kbyte");
    REQUIRE(v);
    CHECK(v->value == 32768);
    CHECK(v->lo == doctest::Approx(32765));
    CHECK(v->hi == doctest::Approx(32775));
    CHECK(occ::io::ncu_value("8.19", "Kbyte")->value == 8192);
    CHECK(occ::io::ncu_value("1.02", "Kbyte/block")->value == 1024);
    CHECK(occ::io::ncu_value("102.40", "Kbyte")->value == 102400);
    CHECK(occ::io::ncu_value("167.94", "Kbyte")->value == 167936);
    CHECK(occ::io::ncu_value("4.22", "Kbyte/block")->value == 4224);  // no whole KiB fits: the 128-byte unit does
    CHECK(occ::io::ncu_value("2,048", "")->value == 2048);
    CHECK(occ::io::ncu_value("1,048,576", "thread")->value == 1048576);
    CHECK(occ::io::ncu_value("66.67", "%")->value == doctest::Approx(66.67));
    CHECK_FALSE(occ::io::ncu_value("2,04", ""));
    CHECK_FALSE(occ::io::ncu_value("n/a", ""));
    CHECK_FALSE(occ::io::ncu_value("", "byte"));
}

TEST_CASE("ncu: the prediction agrees with the report where the model is exact, and explains the driver's carveout") {
    auto a = occ::io::answer_ncu(json{{"text", fixture("default_two_kernels.txt")}});
    REQUIRE(a);
    REQUIRE(a->kernels.size() == 2);
    for (const auto& k : a->kernels) {
        REQUIRE(k.device.has_value());
        CHECK(k.device->sm_count == 82);
        for (const auto& d : k.differences) {
            INFO(k.measured.name << ": " << d.field);
            // Only the driver's configuration (and the limit ncu computes against it) may differ.
            CHECK((d.field == "shared_memory_configuration_size" || d.field == "block_limit_shared_mem"));
        }
    }
    const json j = occ::io::to_json(*a);
    CHECK(j["kernels"][0]["measured"]["theoretical_occupancy"] == 100);
    CHECK(j["kernels"][0]["predicted"]["theoretical_occupancy"] == 100);
    CHECK(j["kernels"][0]["predicted"]["block_limit_registers"] == 10);
    CHECK(j["kernels"][0]["measured"]["block_limit_barriers"].is_null());
}

TEST_CASE("ncu: bad input never crashes and says what is missing") {
    auto empty = occ::io::answer_ncu(json{{"text", "hello\nworld\n"}});
    REQUIRE(empty);
    CHECK(empty->kernels.empty());
    REQUIRE_FALSE(empty->report.diagnostics.empty());
    auto missing = occ::io::answer_ncu(json::object());
    REQUIRE_FALSE(missing);
    CHECK(missing.error.rfind("text: required", 0) == 0);
    auto truncated = occ::io::answer_ncu(json{{"text", fixture("truncated.txt")}});
    REQUIRE(truncated);
    REQUIRE_FALSE(truncated->kernels.empty());
    bool said = false;
    for (const auto& k : truncated->kernels) said |= !k.diagnostics.empty();
    CHECK(said);
}

TEST_CASE("ncu: on every gathered public report occ's register, warp and block-slot limits and theoretical occupancy equal ncu's") {
    // tests/fixtures/ncu/public_reports.json: numbers read from reports users published (each row
    // names its source); the launch is rebuilt from the report and run through occ's model.
    const json reports = json::parse(fixture("public_reports.json"));
    int compared = 0;
    for (const json& r : reports) {
        if (!r["cc"].is_string() || !r["block_size"].is_number() || !r["registers_per_thread"].is_number()) continue;
        INFO(r["source"].get<std::string>());
        const ReportLaunch x = launch_of(r);
        const occ::OccupancyResult res = occ::compute_occupancy(x.dev, x.k, x.l);
        REQUIRE(res.ok());
        if (r["block_limit_registers"].is_number()) CHECK(res.limit_registers == r["block_limit_registers"].get<int>());
        if (r["block_limit_warps"].is_number()) CHECK(res.limit_warps == r["block_limit_warps"].get<int>());
        if (r["block_limit_sm"].is_number()) CHECK(res.limit_blocks == r["block_limit_sm"].get<int>());
        if (r["theoretical_occupancy"].is_number())
            CHECK(std::fabs(res.occupancy * 100 - r["theoretical_occupancy"].get<double>()) <= 0.005 + 1e-9);  // printed with 2 decimals
        ++compared;
    }
    CHECK(compared >= 100);
}

TEST_CASE("ncu: the driver's carveout choice matches at least 90 % of the gathered public reports") {
    // Rule: occ::driver_smem_config (fitted per cc in driver_smem.cpp, scripts/fit_carveout.py); evidence
    // and every miss: tests/fixtures/ncu/README.md and docs/MODEL.md.
    const json reports = json::parse(fixture("public_reports.json"));
    int compared = 0, fit = 0;
    for (const json& r : reports) {
        if (!r["cc"].is_string() || !r["block_size"].is_number() || !r["registers_per_thread"].is_number() ||
            !r["shared_memory_configuration_size"].is_number() || !r["block_limit_shared_mem"].is_number())
            continue;
        if (r["source"].get<std::string>().find("occ_sweep.csv") != std::string::npos) continue;  // the sweep rows are counted apart
        const ReportLaunch x = launch_of(r);
        const occ::OccupancyResult res = occ::compute_occupancy(x.dev, x.k, x.l);
        const occ::DriverSmemConfig d = occ::driver_smem_config(x.dev.arch, x.k, res);
        ++compared;
        const bool ok = d.bytes == r["shared_memory_configuration_size"].get<std::int64_t>() &&
                        d.block_limit == r["block_limit_shared_mem"].get<int>();
        if (ok) ++fit;
        else
            MESSAGE("miss: " << r["source"].get<std::string>() << ": ncu " << r["shared_memory_configuration_size"] << " B, occ " << d.bytes
                             << " B" << std::string(d.may_be_larger ? " (flagged: may be larger)" : ""));
    }
    CHECK(compared >= 55);
    CHECK(fit * 10 >= compared * 9);
}

// [SECTION] Every line explained (tests/fixtures/ncu/README.md, "Version behaviours")

namespace {

using occ::io::NcuStatus;

// A kernel of public_reports.json as the parser would have read it: each number with the interval
// its printed digits stand for (sizes from the printed configuration string where there is one).
occ::io::NcuKernel kernel_of(const json& r) {
    occ::io::NcuKernel k;
    k.name = r["source"].get<std::string>();
    REQUIRE(occ::parse_cc(r["cc"].get<std::string>(), k.cc_major, k.cc_minor));
    if (r["block"].is_array())
        k.block = std::array<std::int64_t, 3>{r["block"][0].get<std::int64_t>(), r["block"][1].get<std::int64_t>(),
                                              r["block"][2].get<std::int64_t>()};
    for (const char* key : occ::io::kNcuKeys) {
        if (!r.contains(key) || !r[key].is_number()) continue;
        const std::string key_s = key;
        std::optional<occ::io::NcuValue> v;
        if (key_s == "shared_memory_configuration_size" && r["shared_memory_configuration_size_printed"].is_string()) {
            const std::string p = r["shared_memory_configuration_size_printed"].get<std::string>();
            v = occ::io::ncu_value(p.substr(0, p.find(' ')), p.substr(p.find(' ') + 1));
        } else if (r[key].is_number_integer()) {
            v = occ::io::ncu_value(std::to_string(r[key].get<std::int64_t>()),
                                   key_s.find("shared_memory") != std::string::npos ? "byte" : "");
        } else {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.2f", r[key].get<double>());  // ncu prints these with two decimals
            v = occ::io::ncu_value(buf, "");
        }
        REQUIRE(v.has_value());
        k.values[key] = *v;
    }
    return k;
}

// Every line where ncu and occ differ is explained; none asks to check the device.
void check_explained(const occ::io::NcuKernelAnswer& k, const std::string& where) {
    for (const auto& d : k.differences) {
        INFO(where << ": " << k.measured.name << ": " << d.field << ": " << d.why);
        CHECK(d.status == NcuStatus::explained);
        CHECK(d.why.find("check the device") == std::string::npos);
    }
}

using ncu_test::difference;

}  // namespace

TEST_CASE("ncu: every line of every report in tests/fixtures/ncu agrees with occ or is explained") {
    int kernels = 0, compared = 0;
    // Also the public pastes of tests/fixtures/ncu_public/ where a checkout has them.
    std::vector<std::filesystem::path> files;
    for (const char* dir : {"/tests/fixtures/ncu", "/tests/fixtures/ncu_public"}) {
        const std::filesystem::path root = std::string(OCC_SOURCE_DIR) + dir;
        if (!std::filesystem::is_directory(root)) continue;
        for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
            const std::string ext = e.path().extension().string();
            if (e.is_regular_file() && (ext == ".txt" || ext == ".csv" || ext == ".log")) files.push_back(e.path());
        }
    }
    for (const auto& path : files) {
        std::ifstream f(path, std::ios::binary);
        std::stringstream ss;
        ss << f.rdbuf();
        auto a = occ::io::answer_ncu(json{{"text", ss.str()}});
        REQUIRE(a);
        for (const auto& k : a->kernels) {
            ++kernels;
            if (k.device) ++compared;
            check_explained(k, path.filename().string());
        }
    }
    CHECK(kernels >= 20);
    CHECK(compared >= 18);
    // The public reports (numbers only): 106 kernels from 40 sources and one sweep.
    int reports = 0;
    for (const json& r : json::parse(fixture("public_reports.json"))) {
        if (!r["cc"].is_string() || !r["block_size"].is_number() || !r["registers_per_thread"].is_number()) continue;
        const occ::io::NcuKernelAnswer k = occ::io::compare_ncu_kernel(kernel_of(r), std::nullopt);
        REQUIRE(k.device.has_value());
        check_explained(k, "public_reports.json");
        ++reports;
    }
    CHECK(reports >= 100);
}

TEST_CASE("ncu: older ncu divides the largest carveout for Block Limit Shared Mem (164 and 100 with 8.19 KB configured)") {
    // ncu 2021.2.5 on a Jetson Orin: 512 threads, 17 registers, no shared memory, 8.19 KB configured,
    // Block Limit Shared Mem 164 = 164 KiB / 1 KiB (tests/fixtures/ncu/public_orin_ncu2021.txt).
    auto orin = occ::io::answer_ncu(json{{"text", fixture("public_orin_ncu2021.txt")}});
    REQUIRE(orin);
    CHECK(orin->report.ncu_version == "2021.2.5");
    REQUIRE(orin->kernels.size() == 1);
    const auto& o = orin->kernels[0];
    REQUIRE(o.device.has_value());
    CHECK(o.device->arch.cc_major == 8);
    CHECK(o.device->arch.cc_minor == 7);  // no CC in the older header: inferred from the numbers
    CHECK(o.device->sm_count == 16);      // 32768 / (682.67 waves x 3 blocks)
    const auto* smem = difference(o, "block_limit_shared_mem");
    REQUIRE(smem != nullptr);
    CHECK(smem->status == NcuStatus::explained);
    CHECK(*smem->measured == 164);
    CHECK(smem->why.find("largest carveout (164 KiB)") != std::string::npos);
    CHECK(smem->why.find("ncu 2021.2.5") != std::string::npos);
    check_explained(o, "orin");
    // An RTX 3060 Ti class GA104 (38 SMs) under an older ncu (dated header, Jan 2024): 100 = 100 KiB / 1 KiB.
    auto ga104 = occ::io::answer_ncu(json{{"text", fixture("public_dated_ga104.txt")}});
    REQUIRE(ga104);
    REQUIRE(ga104->kernels.size() == 1);
    const auto& g = ga104->kernels[0];
    REQUIRE(g.device.has_value());
    CHECK(g.device->arch.cc_minor == 6);
    CHECK_FALSE(g.sm_count_known);  // 16 blocks at 0.07 waves fit 36 to 40 SMs
    const auto* l = difference(g, "block_limit_shared_mem");
    REQUIRE(l != nullptr);
    CHECK(*l->measured == 100);
    CHECK(*l->predicted == 8);  // 8 KiB configured / 1 KiB
    CHECK(l->status == NcuStatus::explained);
    CHECK(l->why.find("older ncu") != std::string::npos);
    check_explained(g, "ga104");
    // An A100 under an older ncu (dated header, Oct 2020), the report kept in // comments of a .cu file:
    // 32.77 KB configured, 164 = 164 KiB / 1 KiB; cc 8.0 and 108 SMs (4096 / (4.74 waves x 8 blocks)).
    auto a100 = occ::io::answer_ncu(json{{"text", fixture("public_a100_comment.txt")}});
    REQUIRE(a100);
    REQUIRE(a100->kernels.size() == 1);
    const auto& x = a100->kernels[0];
    REQUIRE(x.device.has_value());
    CHECK(x.device->arch.cc_major == 8);
    CHECK(x.device->arch.cc_minor == 0);
    CHECK(x.device->sm_count == 108);
    const auto* xs = difference(x, "block_limit_shared_mem");
    REQUIRE(xs != nullptr);
    CHECK(*xs->measured == 164);
    CHECK(*xs->predicted == 32);
    CHECK(xs->status == NcuStatus::explained);
    CHECK(x.differences.size() == 1);
    // The same on an A100 with shared memory (dated header, April 2023): 667 threads, 80 registers,
    // 32.16 KB static -> 32.5 KiB per block with the reserve; 164 KiB / 32.5 KiB = 5 (65.54 KB configured gives 1).
    auto tvm = occ::io::answer_ncu(json{{"text", fixture("public_a100_older_smem.txt")}});
    REQUIRE(tvm);
    REQUIRE(tvm->kernels.size() == 1);
    const auto* ts = difference(tvm->kernels[0], "block_limit_shared_mem");
    REQUIRE(ts != nullptr);
    CHECK(*ts->measured == 5);
    CHECK(*ts->predicted == 1);
    CHECK(ts->status == NcuStatus::explained);
    CHECK(tvm->kernels[0].result.smem_per_block_allocated == 33280);
    CHECK(tvm->kernels[0].differences.size() == 1);
    // A V100 under an older ncu: nothing declared, 0 bytes configured, the limit is the 32 slots.
    auto v100 = occ::io::answer_ncu(json{{"text", fixture("public_dated_v100.txt")}});
    REQUIRE(v100);
    REQUIRE(v100->kernels.size() == 1);
    REQUIRE(v100->kernels[0].device.has_value());
    CHECK(v100->kernels[0].device->arch.cc_major == 7);
    CHECK(v100->kernels[0].device->arch.cc_minor == 0);
    CHECK(v100->kernels[0].device->sm_count == 80);
    CHECK(v100->kernels[0].differences.empty());
}

TEST_CASE("ncu: Block Limit Barriers on cc 9.0 is the 32 block slots where cuda_occupancy.h gives 64; 9 on cc 10.0 is 64 / 7") {
    // H100 (cc 9.0, 132 SMs), two kernels of 256 threads: ncu prints 32 (tests/fixtures/ncu/public_h100_barriers.txt).
    auto h = occ::io::answer_ncu(json{{"text", fixture("public_h100_barriers.txt")}});
    REQUIRE(h);
    REQUIRE(h->kernels.size() == 2);
    for (const auto& k : h->kernels) {
        const auto* b = difference(k, "block_limit_barriers");
        REQUIRE(b != nullptr);
        CHECK(*b->measured == 32);
        CHECK(*b->predicted == 64);  // cudaOccMaxBlocksPerSMBlockBarrierLimit: 32 slots x 2 on cc 9.x, one barrier
        CHECK(b->status == NcuStatus::explained);
        CHECK(k.differences.size() == 1);  // the block count and everything else agree
    }
    CHECK(h->kernels[1].result.limit_registers == 3);
    // cc 10.0 cuBLASLt kernel (public_reports.json, GB200 details page): 9 = 64 barriers / 7 per block.
    for (const json& r : json::parse(fixture("public_reports.json"))) {
        if (r["cc"] != "10.0") continue;
        const auto k = occ::io::compare_ncu_kernel(kernel_of(r), std::nullopt);
        REQUIRE(k.launch.has_value());
        CHECK(k.launch->kernel.barriers == 7);
        CHECK(k.result.limit_barriers == 9);
        CHECK(difference(k, "block_limit_barriers") == nullptr);
    }
}

TEST_CASE("ncu: only a report whose own lines contradict the device asks to check it") {
    std::string text = fixture("public_h100_barriers.txt");
    const std::string from = "Block Limit SM                        block           32";
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), "Block Limit SM                        block           16");
    auto a = occ::io::answer_ncu(json{{"text", text}});
    REQUIRE(a);
    const auto* sm = difference(a->kernels[0], "block_limit_sm");
    REQUIRE(sm != nullptr);
    CHECK(sm->status == NcuStatus::contradiction);
    CHECK(sm->why.find("check the device") != std::string::npos);
    // A configuration that is none of the device's carveouts.
    std::string odd = fixture("public_h100_barriers.txt");
    odd.replace(odd.find("32.77"), 5, "50.00");
    auto b = occ::io::answer_ncu(json{{"text", odd}});
    REQUIRE(b);
    const auto* cfg = difference(b->kernels[0], "shared_memory_configuration_size");
    REQUIRE(cfg != nullptr);
    CHECK(cfg->status == NcuStatus::contradiction);
}

TEST_CASE("ncu: reports pasted in code comments, quotes, fences and Python strings read like the plain report") {
    auto plain = occ::io::answer_ncu(json{{"text", fixture("default_two_kernels.txt")}});
    REQUIRE(plain);
    const auto& want = plain->kernels[0];  // scale_rows
    auto same = [&](const occ::io::NcuKernelAnswer& k, const std::string& where) {
        INFO(where);
        CHECK(k.measured.name == want.measured.name);
        CHECK(k.measured.cc_minor == 6);
        REQUIRE(k.measured.values.size() == want.measured.values.size());
        for (const auto& [key, v] : want.measured.values) CHECK(k.measured.get(key)->value == v.value);
    };
    // Hand-written files: a C++ source with the report in // and /* * */ comments, a Python file with it
    // in # comments, a triple-quoted string and a docstring quoting it with "> " inside a fence.
    for (const auto& [file, n] : {std::pair<std::string, std::size_t>{"pasted_cpp_comment.txt", 2}, {"pasted_python.txt", 3}}) {
        auto a = occ::io::answer_ncu(json{{"text", fixture(file)}});
        REQUIRE(a);
        REQUIRE(a->kernels.size() == n);
        for (const auto& k : a->kernels) same(k, file);
    }
    // Every marker on every line of the whole two-kernel report, alone and stacked.
    const std::string text = fixture("default_two_kernels.txt");
    for (const std::string prefix : {"// ", "# ", "> ", ">> ", " * ", "# > ", "/// ", "12: "}) {
        std::string wrapped = "```text\n";
        std::size_t pos = 0;
        while (pos < text.size()) {
            const std::size_t end = text.find('\n', pos);
            wrapped += prefix + text.substr(pos, end - pos) + "\n";
            pos = end == std::string::npos ? text.size() : end + 1;
        }
        wrapped += "```\n";
        auto a = occ::io::answer_ncu(json{{"text", wrapped}});
        REQUIRE(a);
        REQUIRE(a->kernels.size() == 2);
        same(a->kernels[0], "prefix '" + prefix + "'");
        CHECK(a->kernels[1].measured.grid == plain->kernels[1].measured.grid);
    }
    auto py = occ::io::answer_ncu(json{{"text", "report = \"\"\"\n" + text + "\"\"\"\n"}});
    REQUIRE(py);
    CHECK(py->kernels.size() == 2);
    // The CSV pages too: "# " before every row of --page details, "> " before --page raw.
    for (const auto& [file, prefix] : {std::pair<std::string, std::string>{"details_page.csv", "# "}, {"raw_page.csv", "> "}}) {
        const std::string csv = fixture(file);
        std::string wrapped;
        for (std::size_t pos = 0; pos < csv.size();) {
            const std::size_t end = csv.find('\n', pos);
            wrapped += prefix + csv.substr(pos, end - pos) + "\n";
            pos = end == std::string::npos ? csv.size() : end + 1;
        }
        auto a = occ::io::answer_ncu(json{{"text", wrapped}});
        auto b = occ::io::answer_ncu(json{{"text", csv}});
        REQUIRE(a);
        REQUIRE(b);
        CHECK(a->report.format == b->report.format);
        REQUIRE(a->kernels.size() == b->kernels.size());
        for (std::size_t i = 0; i < a->kernels.size(); ++i)
            CHECK(a->kernels[i].measured.values.size() == b->kernels[i].measured.values.size());
    }
}
