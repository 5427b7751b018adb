// test_gpu_names.cpp — every catalogue GPU answers to the names the driver prints for it
// (nvidia-smi, torch.cuda.get_device_name(), deviceQuery, cudaDeviceProp::name); ambiguous
// spellings list their choices; unknown names are refused whole, never mapped to another GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "occ/device.hpp"

using namespace occ;

namespace {

std::vector<std::string> split(std::string_view list, char sep) {
    std::vector<std::string> out;
    while (!list.empty()) {
        const auto at = list.find(sep);
        out.emplace_back(list.substr(0, at));
        if (at == std::string_view::npos) break;
        list.remove_prefix(at + 1);
    }
    return out;
}

bool lists(const std::vector<const GpuEntry*>& choices, const GpuEntry& g) {
    return std::find(choices.begin(), choices.end(), &g) != choices.end();
}

}  // namespace

TEST_CASE("every catalogue GPU resolves by each of its driver-printed names, or the name lists it among the choices") {
    for (const GpuEntry& g : all_gpus()) {
        CAPTURE(g.name);
        for (const std::string& printed : split(g.driver_names, '|')) {
            CAPTURE(printed);
            if (const GpuEntry* hit = lookup_gpu(printed)) {
                CHECK(hit == &g);
                CHECK(find_gpu(printed)->sm_count == g.sm_count);
                CHECK(ambiguous_gpu(printed).empty());
            } else {
                // A name several modules print ("Orin", "NVIDIA Tegra X1", "NVIDIA Thor"): refused with the choices.
                const auto choices = ambiguous_gpu(printed);
                CHECK(lists(choices, g));
                CHECK_FALSE(find_gpu(printed).has_value());
                CHECK(ambiguous_gpu_message(printed).find(std::string(g.name) + " (" + std::to_string(g.sm_count) + " SMs)") !=
                      std::string::npos);
            }
        }
        // The canonical name always resolves to its own entry.
        CHECK(lookup_gpu(g.name) == &g);
    }
}

TEST_CASE("names as nvidia-smi, torch and deviceQuery print them") {
    const struct {
        const char* printed;
        const char* canonical;
        int sms;
    } cases[] = {
        {"NVIDIA H100 80GB HBM3", "H100-SXM5-80GB", 132},
        {"NVIDIA A100-SXM4-80GB", "A100-SXM4-80GB", 108},
        {"NVIDIA A100 80GB PCIe", "A100-PCIe-80GB", 108},
        {"NVIDIA A100-PCIE-40GB", "A100-PCIe-40GB", 108},
        {"NVIDIA A10G", "A10G", 80},
        {"NVIDIA A10", "A10", 72},
        {"NVIDIA GeForce RTX 4090", "RTX-4090", 128},
        {"NVIDIA RTX PRO 6000 Blackwell Server Edition", "RTX-PRO-6000-Blackwell", 188},
        {"NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "RTX-PRO-6000-Blackwell", 188},
        {"Tesla V100-SXM2-16GB", "V100-SXM2-32GB", 80},
        {"Tesla V100S-PCIE-32GB", "V100S-PCIe-32GB", 80},
        {"NVIDIA GH200 480GB", "GH200", 132},
        {"NVIDIA B200", "B200", 148},
        {"NVIDIA H200 NVL", "H200-NVL", 132},
        {"NVIDIA H800 PCIe", "H800-PCIe", 114},
        {"NVIDIA L20", "L20", 92},
        {"NVIDIA GeForce RTX 4070 Ti SUPER", "RTX-4070-Ti-SUPER", 66},
        {"NVIDIA GeForce RTX 5070 Ti", "RTX-5070-Ti", 70},
        {"NVIDIA GeForce RTX 5070 Ti Laptop GPU", "RTX-5070-Ti-Laptop", 46},
        // Laptop parts: their own SM counts, not the desktop card's (gpu_laptops.inc).
        {"NVIDIA GeForce RTX 4060 Laptop GPU", "RTX-4060-Laptop", 24},
        {"NVIDIA GeForce RTX 3080 Laptop GPU", "RTX-3080-Laptop", 48},
        {"NVIDIA GeForce RTX 3060 Laptop GPU", "RTX-3060-Laptop", 30},
        {"NVIDIA GeForce RTX 4090 Laptop GPU", "RTX-4090-Laptop", 76},
        {"NVIDIA GeForce RTX 2070 with Max-Q Design", "RTX-2070-Max-Q", 36},
        {"GeForce RTX 2060 with Max-Q Design", "RTX-2060-Max-Q", 30},
        {"NVIDIA GeForce RTX 2050", "RTX-2050", 16},
        {"NVIDIA GeForce RTX 5090 D", "RTX-5090", 170},
        {"NVIDIA RTX PRO 4000 Blackwell", "RTX-PRO-4000-Blackwell", 70},
        {"NVIDIA RTX 6000 Ada Generation", "RTX-6000-Ada", 142},
        {"Quadro RTX 6000", "Quadro-RTX-6000", 72},
        {"  nvidia   h100 80gb hbm3 ", "H100-SXM5-80GB", 132},  // case and spaces
    };
    for (const auto& c : cases) {
        CAPTURE(c.printed);
        const auto d = find_gpu(c.printed);
        REQUIRE(d.has_value());
        CHECK(d->name == c.canonical);
        CHECK(d->sm_count == c.sms);
    }
}

TEST_CASE("exact after normalisation: a longer or different name is never mapped to a GPU it merely contains") {
    // Each of these contains a known name but is another GPU (different SM count) or none at all.
    for (const char* other : {"NVIDIA GeForce RTX 4080 SUPER", "NVIDIA GeForce RTX 3050 A Laptop GPU", "NVIDIA GeForce RTX 4090 D",
                              "NVIDIA A100X", "NVIDIA H100 80GB HBM3 MIG 1g.10gb", "NVIDIA GeForce RTX 4060 Ti Laptop GPU",
                              "NVIDIA RTX PRO 6000D Blackwell Workstation Edition", "NVIDIA L40G"}) {
        CAPTURE(other);
        CHECK_FALSE(find_gpu(other).has_value());
    }
}

TEST_CASE("ambiguous spellings list the choices instead of picking one") {
    const struct {
        const char* name;
        std::set<std::string> members;
    } cases[] = {
        {"rtx6000", {"Quadro-RTX-6000", "RTX-6000-Ada", "RTX-PRO-6000-Blackwell"}},
        {"NVIDIA RTX 6000", {"Quadro-RTX-6000", "RTX-6000-Ada", "RTX-PRO-6000-Blackwell"}},
        {"nano", {"Jetson-Nano", "Jetson-Orin-Nano", "Jetson-Orin-Nano-4GB"}},
        {"NVIDIA Tegra X1", {"Jetson-Nano", "Jetson-TX1"}},
        {"orin", {"Jetson-AGX-Orin", "Jetson-AGX-Orin-32GB", "Jetson-Orin-NX", "Jetson-Orin-Nano", "Jetson-Orin-Nano-4GB"}},
        {"Xavier", {"Jetson-AGX-Xavier", "Jetson-Xavier-NX"}},
        {"thor", {"Jetson-AGX-Thor"}},
        {"NVIDIA Thor", {"Jetson-AGX-Thor"}},
        {"m2", {"Apple-M2-Ultra"}},
        // One driver name for 2,048- and 2,560-core parts (16 and 20 SMs).
        {"NVIDIA GeForce RTX 3050 Laptop GPU", {"RTX-3050-Laptop-2048", "RTX-3050-Laptop-2560"}},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        CHECK_FALSE(find_gpu(c.name).has_value());
        CHECK(lookup_gpu(c.name) == nullptr);
        std::set<std::string> got;
        for (const GpuEntry* g : ambiguous_gpu(c.name)) got.insert(g->name);
        CHECK(got == c.members);
        const std::string msg = ambiguous_gpu_message(c.name);
        CHECK(msg.find("\"" + std::string(c.name) + "\"") == 0);
        for (const std::string& m : c.members) CHECK(msg.find(m + " (") != std::string::npos);
    }
    // Family names with members occ lacks say so.
    CHECK(ambiguous_gpu_message("thor").find("Jetson T4000") != std::string::npos);
    CHECK(ambiguous_gpu_message("rtx6000").find("Quadro-RTX-6000 (72 SMs), RTX-6000-Ada (142 SMs), RTX-PRO-6000-Blackwell (188 SMs)") !=
          std::string::npos);
    // Each member still answers to its own name.
    CHECK(find_gpu("Quadro RTX 6000")->sm_count == 72);
    CHECK(find_gpu("RTX 6000 Ada")->sm_count == 142);
    CHECK(find_gpu("RTX PRO 6000")->sm_count == 188);
    CHECK(find_gpu("Jetson Nano")->sm_count == 1);
    CHECK(find_gpu("Jetson TX1")->sm_count == 2);
    CHECK(find_gpu("Jetson AGX Thor")->sm_count == 20);
    CHECK(find_gpu("Orin Nano")->sm_count == 8);
    // A laptop part is never read as the desktop card of the same number (RTX 3080: 68 SMs).
    CHECK(find_gpu("NVIDIA GeForce RTX 3080")->sm_count == 68);
    CHECK(find_gpu("NVIDIA GeForce RTX 3080 Laptop GPU")->sm_count == 48);
}

TEST_CASE("no two catalogue entries answer to the same name unless that name is meant to be ambiguous") {
    // Every name of every entry either resolves to that entry or is one of the ambiguous spellings.
    for (const GpuEntry& g : all_gpus()) {
        std::vector<std::string> names = split(g.aliases, ',');
        for (const std::string& n : names) {
            CAPTURE(g.name);
            CAPTURE(n);
            const GpuEntry* hit = lookup_gpu(n);
            CHECK((hit == &g || lists(ambiguous_gpu(n), g)));
        }
    }
}

TEST_CASE("an unknown name is refused whole, with a suggestion, never mapped to another GPU") {
    const std::string long_name = "NVIDIA RTX PRO 6000 Blackwell Server Edition Rev 2 Experimental";
    CHECK_FALSE(find_gpu(long_name).has_value());
    const std::string msg = unknown_gpu_message(long_name);
    CHECK(msg.find("\"" + long_name + "\"") != std::string::npos);
    CHECK(unknown_gpu_message("NVIDIA GeForce RTX 4009").find("did you mean \"RTX-4090\"?") != std::string::npos);
    // Absurdly long input is shown up to 200 characters with its length.
    const std::string huge(500, 'x');
    CHECK(unknown_gpu_message(huge).find("(500 characters)") != std::string::npos);
}
