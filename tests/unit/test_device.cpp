// The device database (occ/device.hpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>

#include "occ/device.hpp"
#include "occ/names.hpp"

using namespace occ;

TEST_CASE("every compute capability in MODEL.md is modelled") {
    for (const auto& cc : {std::pair{3, 5}, {3, 7}, {5, 0}, {5, 2}, {5, 3}, {6, 0},  {6, 1},  {6, 2},  {7, 0},  {7, 2}, {7, 5},
                           {8, 0},          {8, 6}, {8, 7}, {8, 9}, {9, 0}, {10, 0}, {10, 3}, {11, 0}, {12, 0}, {12, 1}}) {
        const int maj = cc.first, min = cc.second;  // plain locals: clang 14 cannot capture structured bindings
        CAPTURE(maj);
        CAPTURE(min);
        const ArchRules* a = find_arch(maj, min);
        REQUIRE(a != nullptr);
        CHECK(std::string(a->source).size() > 3);
        CHECK(a->max_threads_per_block == 1024);
        CHECK(a->reg_alloc_unit == 256);
        // From 8.0 on, 1 KB reserved per block and a 128-byte unit (Ampere Tuning Guide).
        CHECK(a->smem_reserved_per_block == (maj >= 8 ? 1024 : 0));
        CHECK(a->smem_alloc_unit == (maj >= 8 ? 128 : 256));
        // Opt-in maximum + reserve never exceeds the largest carveout (or the SM's shared memory).
        CHECK(a->smem_per_block_optin + a->smem_reserved_per_block <= a->smem_per_sm);
    }
    CHECK(all_archs().size() == 22);
    CHECK(find_arch(4, 0) == nullptr);
}

TEST_CASE("per-architecture facts from the Programming Guide table") {
    CHECK(find_arch(8, 0)->smem_per_sm == 164 * 1024);
    CHECK(find_arch(8, 0)->smem_per_block_optin == 163 * 1024);
    CHECK(find_arch(9, 0)->smem_per_block_optin == 227 * 1024);
    CHECK(find_arch(8, 6)->max_threads_per_sm == 1536);
    CHECK(find_arch(8, 9)->max_blocks_per_sm == 24);
    CHECK(find_arch(7, 5)->max_threads_per_sm == 1024);
    CHECK(find_arch(3, 7)->regs_per_sm == 131072);
    CHECK(find_arch(6, 0)->subpartitions == 2);
    CHECK(find_arch(5, 3)->regs_per_block == 32768);
}

TEST_CASE("at least 30 named GPUs across segments, Kepler to Blackwell") {
    CHECK(all_gpus().size() >= 30);
    std::set<std::string> segments, families;
    for (const GpuEntry& g : all_gpus()) {
        segments.insert(segment_name(g.segment));
        REQUIRE(find_arch(g.cc_major, g.cc_minor) != nullptr);
        families.insert(find_arch(g.cc_major, g.cc_minor)->family);
        CHECK(g.sm_count > 0);
    }
    CHECK(segments.size() == 4);
    CHECK(families.count("Kepler"));
    CHECK(families.count("Blackwell"));
    for (const char* n : {"K80",
                          "P100",
                          "V100",
                          "T4",
                          "A100-SXM4-40GB",
                          "A100-SXM4-80GB",
                          "A10",
                          "A30",
                          "L4",
                          "L40S",
                          "RTX-2080-Ti",
                          "RTX-3090",
                          "RTX-4090",
                          "RTX-5090",
                          "H100-SXM5-80GB",
                          "H100-PCIe-80GB",
                          "H200",
                          "GH200",
                          "B200",
                          "Jetson-AGX-Orin"}) {
        CAPTURE(n);
        CHECK(find_gpu(n).has_value());
    }
}

TEST_CASE("names and aliases match in any case and spelling") {
    CHECK(find_gpu("h100")->name == "H100-SXM5-80GB");
    CHECK(find_gpu("H100-SXM5-80GB")->sm_count == 132);
    CHECK(find_gpu("NVIDIA GeForce RTX 4090")->name == "RTX-4090");
    CHECK(find_gpu("a100")->arch.cc_major == 8);
    CHECK(find_gpu("Tesla T4")->sm_count == 40);
    CHECK_FALSE(find_gpu("X9000").has_value());
    CHECK_FALSE(find_gpu("").has_value());
}

TEST_CASE("a close but wrong name gets a suggestion") {
    CHECK(suggest_gpu("H100-SXM") == "H100-SXM5-80GB");
    CHECK(suggest_gpu("RTX4009") == "RTX-4090");
    CHECK(suggest_gpu("A1OO") == "A100-SXM4-80GB");
    CHECK(suggest_gpu("completely unrelated") == "");
}

TEST_CASE("compute capability strings") {
    int a = 0, b = 0;
    CHECK(parse_cc("8.0", a, b));
    CHECK((a == 8 && b == 0));
    CHECK(parse_cc("sm_90", a, b));
    CHECK((a == 9 && b == 0));
    CHECK(parse_cc("120", a, b));
    CHECK((a == 12 && b == 0));
    CHECK(parse_cc("sm_90a", a, b));
    CHECK_FALSE(parse_cc("eight", a, b));
    CHECK_FALSE(parse_cc("8.", a, b));
    CHECK(device_for_cc(8, 6)->arch.max_threads_per_sm == 1536);
    CHECK_FALSE(device_for_cc(2, 0).has_value());
}

TEST_CASE("behaviours are fields of the rules table, each on the compute capabilities its source names") {
    const ArchRules* prev = nullptr;
    for (const ArchRules& a : all_archs()) {
        CAPTURE(a.cc_major);
        CAPTURE(a.cc_minor);
        if (prev) CHECK(cc_older(prev->cc_major, prev->cc_minor, a.cc_major, a.cc_minor));  // ascending
        prev = &a;
        const int cc = a.cc_major * 10 + a.cc_minor;
        // [PG] 3.x: L1/shared split; 5.x-6.x: dedicated; Volta+ tuning guides: carveouts.
        CHECK(a.smem_config == (cc < 50 ? SmemConfig::l1_split : cc < 70 ? SmemConfig::dedicated : SmemConfig::carveout));
        CHECK((a.carveout_step_count > 0) == (a.smem_config == SmemConfig::carveout));
        if (a.carveout_step_count > 0) CHECK(a.carveouts().back() == a.smem_per_sm);
        CHECK(a.smem_optin == (cc >= 70));
        CHECK(a.smem_reserve_in_block_limit == (cc >= 80));
        CHECK(a.barriers_limit_blocks == (cc >= 90));
        CHECK(a.clusters == (cc >= 90));
        CHECK(a.banks_model == (cc >= 50));
        CHECK(a.sectors_model == (cc >= 60));
        CHECK(a.compat_subpartitions == (cc == 60 ? 4 : 0));
        CHECK(a.partitioned_gc_supported == (cc == 52 || cc == 53 || cc == 61 || cc == 62));
        // cuda_occupancy.h: 128 virtual resources per SM on 10.x, 11.x and 12.x, none before.
        CHECK(a.virtual_resources_per_sm == (a.cc_major >= 10 ? 128 : 0));
    }
}

TEST_CASE("binary compatibility: sm_XY runs on X.Z with Z >= Y") {
    CHECK(cubin_runs_on(8, 0, *find_arch(8, 6)));
    CHECK(cubin_runs_on(8, 6, *find_arch(8, 6)));
    CHECK_FALSE(cubin_runs_on(8, 6, *find_arch(8, 0)));
    CHECK_FALSE(cubin_runs_on(8, 0, *find_arch(9, 0)));
    CHECK_FALSE(cubin_runs_on(9, 0, *find_arch(8, 9)));
    CHECK(cc_older(8, 9, 9, 0));
    CHECK(cc_older(8, 0, 8, 6));
    CHECK_FALSE(cc_older(10, 0, 9, 0));
    CHECK_FALSE(cc_older(8, 6, 8, 6));
}

TEST_CASE("one catalogue: each GPU entry carries its roofline peaks and GPC layout") {
    std::set<int> positions;
    int with_peaks = 0;
    for (std::span<const GpuEntry> list : {all_gpus(), amd_gpus(), reference_devices()}) {
        for (const GpuEntry& g : list) {
            CAPTURE(g.name);
            CHECK(find_gpu_entry(g.name) == &g);
            if (g.peaks.source) {
                ++with_peaks;
                CHECK(positions.insert(g.peaks.list_position).second);
                CHECK(g.peaks.dram_gbps > 0);
            }
            if (g.gpc.gpcs > 0) {
                CHECK(g.gpc.source != nullptr);
                CHECK(g.gpc.gpcs * g.gpc.max_sms_per_gpc >= g.sm_count);
            }
        }
    }
    CHECK(positions.size() == static_cast<std::size_t>(with_peaks));
    CHECK(*positions.begin() == 1);
    CHECK(*positions.rbegin() == with_peaks);
    for (const GpuEntry& g : reference_devices()) {
        CHECK(g.cc_major == 0);
        CHECK(std::string(g.vendor) != "NVIDIA");
        CHECK_FALSE(find_gpu(g.name).has_value());  // not a CUDA device
    }
    CHECK(lookup_gpu("NVIDIA A100") == find_gpu_entry("A100-SXM4-80GB"));
    CHECK(find_gpu_entry("a100") == nullptr);  // canonical names only
}

TEST_CASE("one normaliser, one edit distance, one did-you-mean") {
    CHECK(fold_name("NVIDIA GeForce RTX-4090") == "nvidiageforcertx4090");
    CHECK(normalise_name("NVIDIA GeForce RTX 4090", {"nvidia", "geforce"}) == "rtx4090");
    CHECK(normalise_name("nvidia", {"nvidia"}) == "nvidia");  // a vendor word alone stays
    CHECK(edit_distance("rtx4009", "rtx4090") == 1);
    CHECK(edit_distance("rtx4009", "rtx4090", /*swaps=*/false) == 2);
    CHECK(edit_distance("", "abc") == 3);
    CHECK(edit_distance("kitten", "sitting") == 3);
    Closest c("thraeds", /*swaps=*/false);
    for (const char* k : {"regs", "threads", "grid"}) c.offer(k);
    CHECK(c.best() == "threads");
    Closest far("zzzzzz");
    far.offer("threads");
    CHECK(far.best().empty());
    Closest prefix("h10", true, /*prefix_bonus=*/true);
    prefix.offer("h20", "H20");
    prefix.offer("h100", "H100");
    CHECK(prefix.best() == "H100");
}

TEST_CASE("every GPU name and alias finds its own entry, or is an ambiguous spelling that lists it") {
    for (const GpuEntry& g : all_gpus()) {
        CAPTURE(g.name);
        CHECK(lookup_gpu(g.name) == &g);
        std::string_view rest(g.aliases);
        while (!rest.empty()) {
            const auto comma = rest.find(',');
            const std::string alias(rest.substr(0, comma));
            CAPTURE(alias);
            const auto shared = ambiguous_gpu(alias);
            CHECK((lookup_gpu(alias) == &g || std::find(shared.begin(), shared.end(), &g) != shared.end()));
            if (comma == std::string_view::npos) break;
            rest.remove_prefix(comma + 1);
        }
    }
}

TEST_CASE("database corrections: GB200/GB300, H20, H800, A800") {
    // GB200 and GB300: their own 152-SM entries, not aliases of B200 / B300 (148).
    CHECK(find_gpu("GB200")->sm_count == 152);
    CHECK(find_gpu("NVIDIA GB200")->arch.cc_major == 10);
    CHECK(find_gpu("gb200")->arch.cc_minor == 0);
    CHECK(find_gpu("GB300")->sm_count == 152);
    CHECK(find_gpu("gb300")->arch.cc_minor == 3);
    CHECK(find_gpu("B200")->sm_count == 148);
    CHECK(find_gpu("B300")->sm_count == 148);
    CHECK(find_gpu("b300")->arch.cc_minor == 3);
    // H20: cc 9.0, 78 SMs; "h20" is not H200.
    CHECK(find_gpu("h20")->name == "H20");
    CHECK(find_gpu("NVIDIA H20")->sm_count == 78);
    CHECK(find_gpu("h20")->arch.cc_major == 9);
    CHECK(find_gpu("h200")->name == "H200");
    CHECK(find_gpu("H800")->sm_count == 132);
    CHECK(find_gpu("NVIDIA H800")->arch.cc_major == 9);
    CHECK(find_gpu("A800")->sm_count == 108);
    CHECK(find_gpu("NVIDIA A800-SXM4-80GB")->arch.cc_major == 8);
}

TEST_CASE("Orin and Xavier name several modules: refused with the choices") {
    CHECK_FALSE(find_gpu("Orin").has_value());
    CHECK_FALSE(find_gpu("jetson orin").has_value());
    CHECK_FALSE(find_gpu("Xavier").has_value());
    const auto orin = ambiguous_gpu("Orin");
    REQUIRE(orin.size() == 5);
    std::set<int> sms;
    for (const GpuEntry* g : orin) {
        CHECK(g->cc_major == 8);
        CHECK(g->cc_minor == 7);
        sms.insert(g->sm_count);
    }
    CHECK(sms == std::set<int>{4, 8, 14, 16});
    const auto xavier = ambiguous_gpu("NVIDIA Xavier");
    REQUIRE(xavier.size() == 2);
    CHECK(xavier[0]->sm_count == 8);
    CHECK(xavier[1]->sm_count == 6);
    const std::string msg = ambiguous_gpu_message("Orin");
    for (const char* part :
         {"\"Orin\"", "Jetson-AGX-Orin (16 SMs)", "Jetson-AGX-Orin-32GB (14 SMs)", "Jetson-Orin-Nano-4GB (4 SMs)", "multiProcessorCount"}) {
        CAPTURE(part);
        CHECK(msg.find(part) != std::string::npos);
    }
    CHECK(ambiguous_gpu("A100").empty());
    CHECK(ambiguous_gpu_message("A100").empty());
    // Each module by its own name.
    CHECK(find_gpu("Jetson-AGX-Orin")->sm_count == 16);
    CHECK(find_gpu("Jetson AGX Orin 32GB")->sm_count == 14);
    CHECK(find_gpu("orin nx")->sm_count == 8);
    CHECK(find_gpu("Jetson Orin Nano 4GB")->sm_count == 4);
    CHECK(find_gpu("agx xavier")->sm_count == 8);
    CHECK(find_gpu("Xavier NX")->sm_count == 6);
}

TEST_CASE("laptop GPUs are their own entries with the laptop SM count (CUDA cores / 128, Turing / 64)") {
    // NVIDIA's laptop specifications (lib/core/src/gpu_laptops.inc): the laptop part of a number has
    // fewer SMs than the desktop card from Ampere on; Turing's laptop parts match the desktop counts.
    const struct {
        const char* printed;
        int cc_major, cc_minor, sms, desktop_sms;
    } cases[] = {
        {"NVIDIA GeForce RTX 3080 Laptop GPU", 8, 6, 48, 68},   // 6,144 cores; desktop RTX 3080 8,704
        {"NVIDIA GeForce RTX 4090 Laptop GPU", 8, 9, 76, 128},  // 9,728 cores; desktop RTX 4090 16,384
        {"NVIDIA GeForce RTX 4080 Laptop GPU", 8, 9, 58, 76},   // 7,424 cores; desktop RTX 4080 9,728
        {"NVIDIA GeForce RTX 5090 Laptop GPU", 12, 0, 82, 170},
        {"NVIDIA GeForce RTX 2080 with Max-Q Design", 7, 5, 46, 46},  // 2,944 cores / 64
    };
    for (const auto& c : cases) {
        CAPTURE(c.printed);
        const auto d = find_gpu(c.printed);
        REQUIRE(d.has_value());
        CHECK(d->arch.cc_major == c.cc_major);
        CHECK(d->arch.cc_minor == c.cc_minor);
        CHECK(d->sm_count == c.sms);
        CHECK(d->segment == Segment::consumer);
        CHECK(c.sms <= c.desktop_sms);
    }
    CHECK(find_gpu("NVIDIA GeForce RTX 4060 Laptop GPU")->sm_count == 24);
    CHECK(find_gpu("4070laptop")->sm_count == 36);
    // One name, two parts: refused with both choices.
    CHECK_FALSE(find_gpu("NVIDIA GeForce RTX 3050 Laptop GPU").has_value());
    CHECK(
        ambiguous_gpu_message("NVIDIA GeForce RTX 3050 Laptop GPU").find("RTX-3050-Laptop-2048 (16 SMs), RTX-3050-Laptop-2560 (20 SMs)") !=
        std::string::npos);
    std::size_t laptops = 0;
    for (const GpuEntry& g : all_gpus()) laptops += std::string_view(g.driver_names).find("Laptop GPU") != std::string_view::npos;
    CHECK(laptops == 19);  // RTX 30 (8 entries), 40 (5) and 50 (6) series names with "Laptop GPU"
}
