// test_banks.cpp — occ/banks.hpp: the classic bank cases, 8- and 16-byte phases, the 32x32 tile
// with padding and XOR swizzle, and a property test against a brute-force reference written below.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <random>
#include <set>

#include "occ/banks.hpp"
#include "occ/device.hpp"
#include "warp_helpers.hpp"

using namespace occ;
using occ::test::affine_warp;

namespace {

AccessPattern tile(IndexOrder order, std::int64_t pad, bool swizzle) {
    AccessPattern p;
    p.kind = PatternKind::index_2d;
    p.block[0] = 32;
    p.block[1] = 32;
    p.pitch = 32;
    p.pad = pad;
    p.swizzle = swizzle;
    p.order = order;
    return p;
}

const ArchRules& a100() { return *find_arch(8, 0); }

// Brute force, from the rule text: split lanes into phases of 32/(bytes/4) lanes; in each phase
// every 4-byte word a lane touches goes to bank word % 32; a phase costs the largest number of
// distinct words in one bank.
struct Ref {
    int wavefronts = 0, ideal = 0;
    std::array<std::uint32_t, 32> bank_lanes{};
    std::array<int, 32> bank_way{};
    std::uint32_t conflict_lanes = 0;
};
Ref reference(const WarpAccess& w) {
    Ref r;
    const int phases = w.access_bytes <= 4 ? 1 : w.access_bytes / 4;
    const int per = 32 / phases;
    for (int ph = 0; ph < phases; ++ph) {
        std::map<int, std::set<std::uint64_t>> banks;
        std::map<int, std::uint32_t> lanes_of;
        for (int lane = ph * per; lane < ph * per + per; ++lane) {
            if (!((w.active >> lane) & 1u)) continue;
            const std::uint64_t a = w.addr[static_cast<std::size_t>(lane)];
            for (int b = 0; b < w.access_bytes; ++b) {
                const int bank = static_cast<int>(((a + static_cast<std::uint64_t>(b)) / 4) % 32);
                banks[bank].insert((a + static_cast<std::uint64_t>(b)) / 4);
                lanes_of[bank] |= 1u << lane;
            }
        }
        if (banks.empty()) continue;
        std::size_t most = 0;
        for (const auto& [bank, set] : banks) {
            most = std::max(most, set.size());
            r.bank_way[static_cast<std::size_t>(bank)] = std::max(r.bank_way[static_cast<std::size_t>(bank)], static_cast<int>(set.size()));
            r.bank_lanes[static_cast<std::size_t>(bank)] |= lanes_of[bank];
            if (set.size() > 1) r.conflict_lanes |= lanes_of[bank];
        }
        r.wavefronts += static_cast<int>(most);
        r.ideal += 1;
    }
    return r;
}

// Every field analyze_banks returns, against the reference.
void check_against_reference(const WarpAccess& w) {
    const BankResult r = analyze_banks(w);
    const Ref ref = reference(w);
    CHECK(r.wavefronts == ref.wavefronts);
    CHECK(r.ideal_wavefronts == ref.ideal);
    CHECK(r.conflicts == ref.wavefronts - ref.ideal);
    CHECK(r.conflict_lanes == ref.conflict_lanes);
    for (int bank = 0; bank < 32; ++bank) {
        CHECK(r.bank_lanes[static_cast<std::size_t>(bank)] == ref.bank_lanes[static_cast<std::size_t>(bank)]);
        CHECK(r.bank_way[static_cast<std::size_t>(bank)] == ref.bank_way[static_cast<std::size_t>(bank)]);
    }
    int most = 0;
    for (int v : ref.bank_way) most = std::max(most, v);
    CHECK(r.max_way == most);
}

}  // namespace

TEST_CASE("stride 1 word: no conflict") {
    const BankResult r = analyze_banks(affine_warp(4, 0, 1));
    CHECK(r.wavefronts == 1);
    CHECK(r.ideal_wavefronts == 1);
    CHECK(r.conflicts == 0);
    CHECK(r.max_way == 1);
    for (int lane = 0; lane < 32; ++lane) CHECK(r.lane_bank[static_cast<std::size_t>(lane)] == lane);
    CHECK(r.conflict_lanes == 0);
}

TEST_CASE("stride 2 words: 2-way") {
    const BankResult r = analyze_banks(affine_warp(4, 0, 2));
    CHECK(r.wavefronts == 2);
    CHECK(r.conflicts == 1);
    CHECK(r.max_way == 2);
    CHECK(r.bank_lanes[0] == ((1u << 0) | (1u << 16)));
    CHECK(r.bank_way[0] == 2);
    CHECK(r.bank_way[1] == 0);
    std::array<std::int8_t, 32> lanes{};
    CHECK(bank_lane_list(r, 2, lanes) == 2);
    CHECK(lanes[0] == 1);
    CHECK(lanes[1] == 17);
    CHECK(r.conflict_lanes == 0xffffffffu);
}

TEST_CASE("stride 32 words: 32-way") {
    const BankResult r = analyze_banks(affine_warp(4, 0, 32));
    CHECK(r.wavefronts == 32);
    CHECK(r.conflicts == 31);
    CHECK(r.max_way == 32);
    CHECK(r.bank_lanes[0] == 0xffffffffu);
}

TEST_CASE("odd strides are conflict-free, stride s is gcd(s, 32)-way") {
    for (int s = 1; s <= 64; ++s) {
        int g = s, b = 32;
        while (b) {
            const int t = g % b;
            g = b;
            b = t;
        }
        const BankResult r = analyze_banks(affine_warp(4, 0, s));
        CHECK(r.max_way == g);
        CHECK(r.wavefronts == g);
    }
}

TEST_CASE("broadcast: every lane reads one word -> 1 wavefront") {
    const BankResult r = analyze_banks(affine_warp(4, 100 * 4, 0));
    CHECK(r.wavefronts == 1);
    CHECK(r.conflicts == 0);
    CHECK(r.max_way == 1);
    // Half the lanes on word 0, half on word 32 (same bank, different words) -> 2-way.
    WarpAccess w = affine_warp(4, 0, 0);
    for (int lane = 16; lane < 32; ++lane) w.addr[static_cast<std::size_t>(lane)] = 128;
    CHECK(analyze_banks(w).wavefronts == 2);
    // Bytes of one word: no conflict.
    CHECK(analyze_banks(affine_warp(1, 0, 0)).wavefronts == 1);
    CHECK(analyze_banks(affine_warp(1, 0, 1)).wavefronts == 1);
    CHECK(analyze_banks(affine_warp(2, 0, 1)).wavefronts == 1);
}

TEST_CASE("64-bit contiguous: 2 phases of 16 lanes -> 2 wavefronts, 0 conflicts") {
    const BankResult r = analyze_banks(affine_warp(8, 0, 1));
    CHECK(r.phases == 2);
    CHECK(r.wavefronts == 2);
    CHECK(r.ideal_wavefronts == 2);
    CHECK(r.conflicts == 0);
    CHECK(r.max_way == 1);
    CHECK(r.lane_bank[1] == 2);
    CHECK(r.lane_bank[16] == 0);
    // 64-bit stride 2: 2-way within each half-warp.
    const BankResult s2 = analyze_banks(affine_warp(8, 0, 2));
    CHECK(s2.wavefronts == 4);
    CHECK(s2.conflicts == 2);
}

TEST_CASE("128-bit contiguous: 4 phases of 8 lanes -> 4 wavefronts, 0 conflicts") {
    const BankResult r = analyze_banks(affine_warp(16, 0, 1));
    CHECK(r.phases == 4);
    CHECK(r.wavefronts == 4);
    CHECK(r.conflicts == 0);
    // Only the first quarter active: 1 wavefront, ideal 1.
    const BankResult q = analyze_banks(affine_warp(16, 0, 1, 0xffu));
    CHECK(q.wavefronts == 1);
    CHECK(q.ideal_wavefronts == 1);
}

TEST_CASE("inactive lanes do not conflict") {
    // Stride 2 but only lanes 0..15 active: banks 0,2,..30 each once.
    const BankResult r = analyze_banks(affine_warp(4, 0, 2, 0x0000ffffu));
    CHECK(r.wavefronts == 1);
    CHECK(r.conflicts == 0);
    CHECK(r.lane_bank[20] == -1);
    const BankResult none = analyze_banks(affine_warp(4, 0, 1, 0));
    CHECK(none.wavefronts == 0);
    CHECK(none.ideal_wavefronts == 0);
}

TEST_CASE("32x32 float tile read by column: 32-way; one float of padding or an XOR swizzle fixes it") {
    const BankBlockResult col = analyze_banks_block(tile(IndexOrder::column, 0, false), a100());
    REQUIRE(col.ok());
    CHECK(col.warps.size() == 32);
    CHECK(col.max_way == 32);
    CHECK(col.wavefronts == 32 * 32);
    CHECK(col.conflicts == 32 * 31);
    CHECK(col.conflicts_padded == 0);
    CHECK(col.conflicts_swizzled == 0);
    CHECK(col.fix.find("33") != std::string::npos);
    CHECK(col.fix.find("swizzle") != std::string::npos);
    CHECK(col.reason.find("32-way") != std::string::npos);

    const BankBlockResult padded = analyze_banks_block(tile(IndexOrder::column, 1, false), a100());
    CHECK(padded.conflicts == 0);
    CHECK(padded.max_way == 1);
    CHECK(padded.wavefronts == 32);
    CHECK(padded.fix.empty());

    const BankBlockResult swz = analyze_banks_block(tile(IndexOrder::column, 0, true), a100());
    CHECK(swz.conflicts == 0);
    // Row reads of the swizzled tile stay conflict-free too.
    CHECK(analyze_banks_block(tile(IndexOrder::row, 0, true), a100()).conflicts == 0);
    CHECK(analyze_banks_block(tile(IndexOrder::row, 0, false), a100()).conflicts == 0);
}

TEST_CASE("block result: affine stride reason and odd-stride fix; old parts refused") {
    AccessPattern p;
    p.stride = 2;
    const BankBlockResult r = analyze_banks_block(p, a100());
    REQUIRE(r.ok());
    CHECK(r.conflicts == 1);
    CHECK(r.reason.find("stride of 2 words") != std::string::npos);
    CHECK(r.fix.find("stride 3") != std::string::npos);

    const BankBlockResult old = analyze_banks_block(p, *find_arch(3, 5));
    CHECK(!old.ok());
    CHECK(old.error.find("5.0") != std::string::npos);
    CHECK(banks_model_unsupported(*find_arch(5, 0)).empty());
}

TEST_CASE("32-byte lanes are refused for shared memory on every architecture, with the 16-byte instruction to model instead") {
    // PTX ISA 8.8, ld / st: the 256-bit forms (.v8.b32, .v4.b64) exist for .global only; ptxas refuses
    // ld.shared.v8 on every target ("global state space expected for feature '256 bit wide load/store'").
    // So a 32-byte shared access is two 16-byte instructions of 4 phases of 8 lanes each.
    AccessPattern p;
    p.access_bytes = 32;
    const std::string want =
        "access_bytes: shared memory takes 1, 2, 4, 8 or 16 bytes per lane, got 32; the 256-bit ld/st forms (.v8.b32, .v4.b64, PTX ISA "
        "8.8) are .global only (ptxas refuses ld.shared.v8), so a 32-byte shared access is two 16-byte instructions: model "
        "access_bytes 16 (4 phases of 8 lanes each)";
    for (const ArchRules& a : all_archs()) {
        INFO("cc " << a.cc_major << "." << a.cc_minor);
        const BankBlockResult b = analyze_banks_block(p, a);
        CHECK(!b.ok());
        if (a.banks_model) CHECK(b.error == want);  // else the model's own refusal (Kepler's bank modes)
    }
    CHECK(banks_access_unsupported(32) == want);
    for (int bytes : {1, 2, 4, 8, 16}) CHECK(banks_access_unsupported(bytes).empty());
    // What to model instead: each 16-byte half of 32 contiguous 32-byte lanes. Lane i's first half is at
    // 32i: bytes 32i..32i+15 = words 8i..8i+3, banks 8i mod 32 .. +3. A phase of 8 lanes covers banks
    // 0-3, 8-11, 16-19, 24-27 twice (lanes i and i+4 share banks with different words): 2-way, 2
    // wavefronts per phase, 8 in all (ideal 4), 4 conflicts; the second half instruction the same.
    p.access_bytes = 16;
    p.elem_bytes = 32;
    const BankBlockResult half = analyze_banks_block(p, *find_arch(10, 0));
    REQUIRE(half.ok());
    CHECK(half.wavefronts == 8);
    CHECK(half.ideal_wavefronts == 4);
    CHECK(half.conflicts == 4);
    CHECK(half.max_way == 2);
}

TEST_CASE("property: analyze_banks matches a brute-force reference") {
    std::mt19937_64 rng(777);
    const int widths[] = {1, 2, 4, 8, 16};
    for (int iter = 0; iter < 5000; ++iter) {
        WarpAccess w;
        w.access_bytes = widths[rng() % 5];
        w.active = iter % 5 == 0 ? 0xffffffffu : static_cast<std::uint32_t>(rng());
        const int mode = static_cast<int>(rng() % 3);
        const std::uint64_t span = std::uint64_t{1} << (rng() % 12 + 4);
        const std::uint64_t stride = (rng() % 66) * static_cast<std::uint64_t>(w.access_bytes);
        for (int lane = 0; lane < 32; ++lane) {
            std::uint64_t a = mode == 0 ? rng() % span : mode == 1 ? static_cast<std::uint64_t>(lane) * stride : rng() % (1u << 16);
            w.addr[static_cast<std::size_t>(lane)] = a - a % static_cast<std::uint64_t>(w.access_bytes);
        }
        check_against_reference(w);
        const BankResult r = analyze_banks(w);
        const Ref ref = reference(w);
        CHECK(r.wavefronts == ref.wavefronts);
        CHECK(r.ideal_wavefronts == ref.ideal);
        CHECK(r.conflicts == ref.wavefronts - ref.ideal);
        CHECK(r.active_lanes == __builtin_popcount(w.active));
        for (int lane = 0; lane < 32; ++lane) {
            if (!((w.active >> lane) & 1u)) continue;
            const int bank = static_cast<int>((w.addr[static_cast<std::size_t>(lane)] / 4) % 32);
            CHECK(r.lane_bank[static_cast<std::size_t>(lane)] == bank);
            CHECK(((r.bank_lanes[static_cast<std::size_t>(bank)] >> lane) & 1u) == 1u);
        }
    }
}

TEST_CASE("property: every full-warp constant step (the closed-form fast path) matches the reference") {
    for (int bytes : {1, 2, 4, 8, 16})
        for (std::uint64_t base = 0; base < 160; base += static_cast<std::uint64_t>(bytes))
            for (std::int64_t step = 0; step <= 70; ++step) {
                WarpAccess w = affine_warp(bytes, 1024 + base, step);
                check_against_reference(w);
                w.addr[31] = w.addr[0];  // off the progression: the general path
                check_against_reference(w);
            }
}
