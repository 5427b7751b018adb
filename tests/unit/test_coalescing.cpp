// test_coalescing.cpp — occ/coalescing.hpp: the Best Practices Guide examples, vector widths,
// broadcast, inactive lanes, the 2-D warp split, pattern validation, and a property test against a
// brute-force reference written separately below.
#include <doctest/doctest.h>

#include <cstdint>
#include <iterator>
#include <random>
#include <set>

#include "occ/coalescing.hpp"
#include "occ/device.hpp"
#include "warp_helpers.hpp"

using namespace occ;
using occ::test::affine_warp;

namespace {

const ArchRules& a100() { return *find_arch(8, 0); }

// Brute force: walk every byte each active lane touches and collect sets.
struct Reference {
    std::size_t sectors, lines, bytes;
};
Reference reference(const WarpAccess& w) {
    std::set<std::uint64_t> sec, lin, byt;
    for (int lane = 0; lane < 32; ++lane) {
        if (!((w.active >> lane) & 1u)) continue;
        for (int b = 0; b < w.access_bytes; ++b) {
            const std::uint64_t a = w.addr[static_cast<std::size_t>(lane)] + static_cast<std::uint64_t>(b);
            byt.insert(a);
            sec.insert(a / 32);
            lin.insert(a / 128);
        }
    }
    return {sec.size(), lin.size(), byt.size()};
}

// Every field analyze_global returns, against the brute-force walk.
void check_against_reference(const WarpAccess& w) {
    REQUIRE(check_warp_access(w).empty());
    const GlobalAccessResult r = analyze_global(w);
    const Reference ref = reference(w);
    CHECK(static_cast<std::size_t>(r.sectors) == ref.sectors);
    CHECK(static_cast<std::size_t>(r.lines) == ref.lines);
    CHECK(static_cast<std::size_t>(r.bytes_requested) == ref.bytes);
    CHECK(r.requests == (w.active ? 1 : 0));
    CHECK(r.ideal_sectors == static_cast<int>((ref.bytes + 31) / 32));
    // Per-lane sector indices point at the sector holding the lane's address, in ascending order.
    for (int lane = 0; lane < 32; ++lane) {
        const int s = r.lane_sector[static_cast<std::size_t>(lane)];
        if (!((w.active >> lane) & 1u)) {
            CHECK(s == kNoSector);
            continue;
        }
        REQUIRE(s >= 0);
        REQUIRE(s < r.sectors);
        CHECK(r.sector_addr[static_cast<std::size_t>(s)] == w.addr[static_cast<std::size_t>(lane)] / 32 * 32);
    }
    for (int s = 1; s < r.sectors; ++s) CHECK(r.sector_addr[static_cast<std::size_t>(s - 1)] < r.sector_addr[static_cast<std::size_t>(s)]);
    int used = 0;
    for (int s = 0; s < r.sectors; ++s) used += r.sector_used_bytes[static_cast<std::size_t>(s)];
    CHECK(used == r.bytes_requested);
    // Used bytes of each sector, from the distinct bytes the lanes touch.
    std::set<std::uint64_t> bytes;
    for (int lane = 0; lane < 32; ++lane)
        if ((w.active >> lane) & 1u)
            for (int b = 0; b < w.access_bytes; ++b) bytes.insert(w.addr[static_cast<std::size_t>(lane)] + static_cast<std::uint64_t>(b));
    for (int s = 0; s < r.sectors; ++s) {
        const std::uint64_t lo = r.sector_addr[static_cast<std::size_t>(s)];
        const auto n = std::distance(bytes.lower_bound(lo), bytes.lower_bound(lo + 32));
        CHECK(r.sector_used_bytes[static_cast<std::size_t>(s)] == n);
    }
}

}  // namespace

TEST_CASE("Best Practices Guide: sequential aligned floats -> 4 sectors") {
    const GlobalAccessResult r = analyze_global(affine_warp(4, 0, 1));
    CHECK(r.requests == 1);
    CHECK(r.sectors == 4);
    CHECK(r.lines == 1);
    CHECK(r.bytes_requested == 128);
    CHECK(r.bytes_transferred == 128);
    CHECK(r.efficiency == doctest::Approx(1.0));
    CHECK(r.ideal_sectors == 4);
    CHECK(r.excess_sectors == 0);
    for (int lane = 0; lane < 32; ++lane) CHECK(r.lane_sector[static_cast<std::size_t>(lane)] == lane / 8);
    CHECK(r.sector_addr[3] == 96);
    CHECK(r.sector_used_bytes[0] == 32);
}

TEST_CASE("Best Practices Guide: permuted lanes within the same 128 bytes still -> 4 sectors") {
    WarpAccess w = affine_warp(4, 256, 1);
    for (int lane = 0; lane < 32; ++lane) w.addr[static_cast<std::size_t>(lane)] = 256 + static_cast<std::uint64_t>(((lane * 7) % 32) * 4);
    const GlobalAccessResult r = analyze_global(w);
    CHECK(r.sectors == 4);
    CHECK(r.excess_sectors == 0);
}

TEST_CASE("Best Practices Guide: sequential but misaligned -> 5 sectors") {
    const GlobalAccessResult r = analyze_global(affine_warp(4, 4, 1));
    CHECK(r.sectors == 5);
    CHECK(r.lines == 2);
    CHECK(r.ideal_sectors == 4);
    CHECK(r.excess_sectors == 1);
    CHECK(r.efficiency == doctest::Approx(0.8));
    // Offsets that are multiples of 32 bytes stay at 4 sectors.
    CHECK(analyze_global(affine_warp(4, 32, 1)).sectors == 4);
}

TEST_CASE("Best Practices Guide: stride 2 -> 8 sectors, 50% efficiency") {
    const GlobalAccessResult r = analyze_global(affine_warp(4, 0, 2));
    CHECK(r.sectors == 8);
    CHECK(r.efficiency == doctest::Approx(0.5));
    CHECK(r.ideal_sectors == 4);
    CHECK(r.excess_sectors == 4);
    CHECK(r.sector_used_bytes[0] == 16);
}

TEST_CASE("Best Practices Guide: large stride -> 32 sectors") {
    for (std::int64_t stride : {8, 32, 33, 1024}) {
        const GlobalAccessResult r = analyze_global(affine_warp(4, 0, stride));
        CHECK(r.sectors == 32);
        CHECK(r.bytes_transferred == 1024);
        CHECK(r.efficiency == doctest::Approx(0.125));
    }
}

TEST_CASE("vector widths are one request each") {
    const GlobalAccessResult r8 = analyze_global(affine_warp(8, 0, 1));
    CHECK(r8.requests == 1);
    CHECK(r8.sectors == 8);
    CHECK(r8.lines == 2);
    CHECK(r8.excess_sectors == 0);
    const GlobalAccessResult r16 = analyze_global(affine_warp(16, 0, 1));
    CHECK(r16.requests == 1);
    CHECK(r16.sectors == 16);
    CHECK(r16.lines == 4);
    CHECK(r16.excess_sectors == 0);
    const GlobalAccessResult r1 = analyze_global(affine_warp(1, 0, 1));
    CHECK(r1.sectors == 1);
    CHECK(r1.bytes_requested == 32);
    const GlobalAccessResult r2 = analyze_global(affine_warp(2, 0, 1));
    CHECK(r2.sectors == 2);
}

TEST_CASE("broadcast: every lane reads one float -> 1 sector, nothing wasted") {
    const GlobalAccessResult r = analyze_global(affine_warp(4, 64, 0));
    CHECK(r.sectors == 1);
    CHECK(r.bytes_requested == 4);
    CHECK(r.lane_bytes == 128);
    CHECK(r.ideal_sectors == 1);
    CHECK(r.excess_sectors == 0);
    CHECK(r.efficiency == doctest::Approx(4.0 / 32.0));
}

TEST_CASE("inactive lanes add nothing") {
    const GlobalAccessResult half = analyze_global(affine_warp(4, 0, 1, 0x0000ffffu));
    CHECK(half.active_lanes == 16);
    CHECK(half.sectors == 2);
    CHECK(half.lane_sector[16] == kNoSector);
    const GlobalAccessResult odd = analyze_global(affine_warp(4, 0, 1, 0xaaaaaaaau));
    CHECK(odd.sectors == 4);
    CHECK(odd.ideal_sectors == 2);
    const GlobalAccessResult none = analyze_global(affine_warp(4, 0, 1, 0));
    CHECK(none.requests == 0);
    CHECK(none.sectors == 0);
    CHECK(none.efficiency == 0.0);
}

TEST_CASE("2-D block: threadIdx.x fastest, a 16x16 block puts two rows in each warp") {
    AccessPattern p;
    p.kind = PatternKind::index_2d;
    p.block[0] = 16;
    p.block[1] = 16;
    p.pitch = 1024;
    REQUIRE(check_pattern(p).empty());
    CHECK(p.warps() == 8);
    const WarpAccess w = make_warp_access(p, 0);
    CHECK(w.addr[15] == 15 * 4);
    CHECK(w.addr[16] == 1024 * 4);  // lane 16 = (x 0, y 1)
    const WarpAccess w3 = make_warp_access(p, 3);
    CHECK(w3.addr[0] == 6 * 1024 * 4);  // warp 3 starts at y = 6
    const GlobalAccessResult r = analyze_global(w);
    CHECK(r.sectors == 4);
    CHECK(r.lines == 2);
    // 3-D: z continues the linear order after y.
    AccessPattern q = p;
    q.block[0] = 8;
    q.block[1] = 2;
    q.block[2] = 4;
    q.kind = PatternKind::affine;
    const WarpAccess wq = make_warp_access(q, 0);
    CHECK(wq.addr[31] == 31 * 4);
    CHECK(q.warps() == 2);
}

TEST_CASE("2-D pattern: row order coalesces, column order does not") {
    AccessPattern p;
    p.kind = PatternKind::index_2d;
    p.block[0] = 32;
    p.block[1] = 8;
    const GlobalBlockResult row = analyze_global_block(p, a100());
    REQUIRE(row.ok());
    CHECK(row.sectors == 8 * 4);
    CHECK(row.verdict == GlobalVerdict::coalesced);
    p.order = IndexOrder::column;
    p.pitch = 32;
    const GlobalBlockResult col = analyze_global_block(p, a100());
    REQUIRE(col.ok());
    CHECK(col.sectors == 8 * 32);
    CHECK(col.verdict == GlobalVerdict::strided);
    CHECK(col.contiguous_sectors == 32);
    CHECK(col.contiguous_efficiency == doctest::Approx(1.0));
    CHECK(col.fix.find("swap") != std::string::npos);
}

TEST_CASE("block result: totals, verdicts, reasons and fixes") {
    AccessPattern p;
    p.block[0] = 128;
    p.stride = 2;
    GlobalBlockResult r = analyze_global_block(p, a100());
    REQUIRE(r.ok());
    CHECK(r.warps.size() == 4);
    CHECK(r.requests == 4);
    CHECK(r.sectors == 32);
    CHECK(r.ideal_sectors == 16);
    CHECK(r.excess_sectors == 16);
    CHECK(r.efficiency == doctest::Approx(0.5));
    CHECK(r.verdict == GlobalVerdict::strided);
    CHECK(r.reason.find("stride of 2 floats") != std::string::npos);
    CHECK(r.reason.find("half used") != std::string::npos);
    CHECK(r.fix.find("100%") != std::string::npos);

    p.stride = 1;
    p.offset = 4;
    r = analyze_global_block(p, a100());
    CHECK(r.verdict == GlobalVerdict::misaligned);
    CHECK(r.sectors == 20);

    p.offset = 0;
    p.stride = 0;
    r = analyze_global_block(p, a100());
    CHECK(r.verdict == GlobalVerdict::broadcast);
    CHECK(r.fix.empty());

    p.kind = PatternKind::gather;
    p.range = 1 << 20;
    r = analyze_global_block(p, a100());
    CHECK(r.verdict == GlobalVerdict::scattered);
    CHECK(r.sectors > r.ideal_sectors);

    AccessPattern split;
    split.kind = PatternKind::index_2d;
    split.block[0] = 8;
    split.block[1] = 32;
    split.pitch = 1000;
    split.offset = 16;
    r = analyze_global_block(split, a100());
    CHECK(r.verdict == GlobalVerdict::split_rows);
    CHECK(r.fix.find("multiple of 32") != std::string::npos);
}

TEST_CASE("gather: permutation covers each thread once and is reproducible") {
    AccessPattern p;
    p.kind = PatternKind::gather;
    p.block[0] = 256;
    p.seed = 42;
    std::set<std::uint64_t> seen;
    for (int wi = 0; wi < p.warps(); ++wi) {
        const WarpAccess w = make_warp_access(p, wi);
        for (int lane = 0; lane < 32; ++lane) seen.insert(w.addr[static_cast<std::size_t>(lane)]);
        const WarpAccess again = make_warp_access(p, wi);
        CHECK(again.addr == w.addr);
    }
    CHECK(seen.size() == 256);
    CHECK(*seen.rbegin() == 255 * 4);
    // Same block total whatever the permutation: a block-wide permutation touches every sector.
    const GlobalBlockResult r = analyze_global_block(p, a100());
    CHECK(r.bytes_requested == 1024);
}

TEST_CASE("validation: widths, alignment, block, architecture") {
    AccessPattern p;
    p.access_bytes = 3;
    CHECK(check_pattern(p).find("access_bytes") == 0);
    p.access_bytes = 4;
    p.offset = 2;
    CHECK(check_pattern(p).find("offset") == 0);
    p.offset = -8;
    CHECK(check_pattern(p).find("negative") != std::string::npos);
    p.offset = 0;
    p.block[0] = 1024;
    p.block[1] = 2;
    CHECK(check_pattern(p).find("block") == 0);
    p.block[1] = 1;
    p.access_bytes = 16;
    p.elem_bytes = 4;
    CHECK(check_pattern(p).find("elem_bytes") == 0);  // float index with float4 loads: misaligned
    p.stride = 4;
    CHECK(check_pattern(p).empty());
    WarpAccess w = affine_warp(8, 4, 1);
    CHECK(!check_warp_access(w).empty());
    CHECK(check_warp_access(affine_warp(8, 8, 1)).empty());

    const GlobalBlockResult old = analyze_global_block(AccessPattern{}, *find_arch(5, 2));
    CHECK(!old.ok());
    CHECK(old.error.find("6.0") != std::string::npos);
    CHECK(global_model_unsupported(*find_arch(6, 0)).empty());
    CHECK(global_model_unsupported(*find_arch(9, 0)).empty());
}

TEST_CASE("32-byte lanes (double4_32a, one 256-bit ld/st.global on cc 10.0+): known answers from the sector rule") {
    // The rule (Best Practices Guide, "Coalesced Access to Global Memory"): a warp's request moves the
    // distinct 32-byte-aligned sectors its active lanes touch; lines are the distinct 128-byte lines.
    // A 32-byte lane must be 32-byte aligned (natural alignment), so it fills exactly one sector, and
    // a 128-byte line holds 4 such lanes.
    const ArchRules& b200 = *find_arch(10, 0);

    // Contiguous, aligned: lane i at 4096 + 32i. 32 lanes x 32 B = 1024 B = 32 whole sectors; the span
    // 4096..5119 starts on a line and covers 1024 / 128 = 8 lines; every byte moved is asked for:
    // efficiency 1024 / 1024 = 100 %, ideal = 1024 / 32 = 32, excess 0.
    GlobalAccessResult r = analyze_global(affine_warp(32, 4096, 1));
    CHECK(r.requests == 1);
    CHECK(r.sectors == 32);
    CHECK(r.lines == 8);
    CHECK(r.bytes_requested == 1024);
    CHECK(r.lane_bytes == 1024);
    CHECK(r.bytes_transferred == 1024);
    CHECK(r.efficiency == doctest::Approx(1.0));
    CHECK(r.ideal_sectors == 32);
    CHECK(r.excess_sectors == 0);
    for (std::size_t k = 0; k < 32; ++k) {
        CHECK(r.lane_sector[k] == static_cast<int>(k));  // one sector per lane, in lane order
        CHECK(r.sector_used_bytes[k] == 32);
        CHECK(r.sector_addr[k] == 4096 + 32 * k);
    }
    // The same 1024 bytes as 16-byte lanes take two instructions: 16 sectors (512 B) and 4 lines each.
    r = analyze_global(affine_warp(16, 4096, 1));
    CHECK(r.sectors == 16);
    CHECK(r.lines == 4);

    // Stride 2 (lane i at 4096 + 64i): each lane still fills a sector of its own, and the sectors in
    // between are never fetched, so 32 sectors, 1024 B moved for 1024 B asked: 100 % sector efficiency.
    // The span is 31 x 64 + 32 = 2016 B from a line start: ceil(2016 / 128) = 16 lines (2 lanes each).
    r = analyze_global(affine_warp(32, 4096, 2));
    CHECK(r.sectors == 32);
    CHECK(r.lines == 16);
    CHECK(r.bytes_requested == 1024);
    CHECK(r.efficiency == doctest::Approx(1.0));
    CHECK(r.excess_sectors == 0);

    // Stride 4 (128 B apart): a line per lane, still a whole sector per lane: 32 sectors, 32 lines.
    r = analyze_global(affine_warp(32, 4096, 4));
    CHECK(r.sectors == 32);
    CHECK(r.lines == 32);
    CHECK(r.efficiency == doctest::Approx(1.0));

    // Shifted by one lane (4096 + 32): still sector-aligned, so still 32 sectors and no excess, but the
    // span 4128..5151 crosses 9 lines (4096/128 = 32 .. 5151/128 = 40).
    r = analyze_global(affine_warp(32, 4096 + 32, 1));
    CHECK(r.sectors == 32);
    CHECK(r.lines == 9);
    CHECK(r.excess_sectors == 0);

    // Broadcast: every lane reads the same 32 bytes: one sector, one line, 32 B asked, 32 B moved.
    r = analyze_global(affine_warp(32, 4096, 0));
    CHECK(r.sectors == 1);
    CHECK(r.lines == 1);
    CHECK(r.bytes_requested == 32);
    CHECK(r.sector_used_bytes[0] == 32);
    CHECK(r.efficiency == doctest::Approx(1.0));

    // Half a warp (lanes 0-15): 16 x 32 B = 512 B = 16 sectors over 512 / 128 = 4 lines.
    r = analyze_global(affine_warp(32, 4096, 1, 0x0000ffffu));
    CHECK(r.sectors == 16);
    CHECK(r.lines == 4);
    CHECK(r.bytes_requested == 512);

    // A 32-byte lane off a 32-byte boundary is not an access CUDA makes (natural alignment; PTX requires
    // the vector's size), so the one-lane "two sectors" case cannot arise: it is refused, not counted.
    CHECK(check_warp_access(affine_warp(32, 4096 + 16, 1)).find("not a multiple of access_bytes (32)") != std::string::npos);
    CHECK(check_warp_access(affine_warp(32, 4096, 1)).empty());

    // The block: 64 threads of 32 B on cc 10.0 = 2 requests, 64 sectors, 16 lines, coalesced.
    AccessPattern p;
    p.access_bytes = 32;
    p.block[0] = 64;
    GlobalBlockResult b = analyze_global_block(p, b200);
    REQUIRE(b.ok());
    CHECK(b.requests == 2);
    CHECK(b.sectors == 64);
    CHECK(b.lines == 16);
    CHECK(b.efficiency == doctest::Approx(1.0));
    CHECK(b.verdict == GlobalVerdict::coalesced);
    CHECK(b.reason == "32 lanes read 1024 bytes that fill 32 sectors exactly: every byte moved is used (coalesced)");
    // Offset 16 bytes breaks the lanes' 32-byte alignment: refused, naming offset.
    p.offset = 16;
    CHECK(check_pattern(p).rfind("offset: thread 0 address 16 is not a multiple of access_bytes (32)", 0) == 0);
    p.offset = 0;
    // elem_bytes 32 with 16-byte lanes (each lane reads half of a double4_32a): a 32-byte step, half of
    // each sector used: 32 sectors for 512 B, 50 %; valid on every architecture that has the model.
    p.access_bytes = 16;
    p.elem_bytes = 32;
    p.block[0] = 32;
    b = analyze_global_block(p, *find_arch(9, 0));
    REQUIRE(b.ok());
    CHECK(b.sectors == 32);
    CHECK(b.efficiency == doctest::Approx(0.5));
    CHECK(b.reason == "stride of 1 32-byte vectors (32 bytes) between lanes: every sector is half used; 32 sectors instead of 16");
}

TEST_CASE("32-byte lanes: accepted from compute capability 10.0 (ArchRules::max_global_access_bytes), refused before") {
    AccessPattern p;
    p.access_bytes = 32;
    for (const ArchRules& a : all_archs()) {
        INFO("cc " << a.cc_major << "." << a.cc_minor);
        // PTX ISA 8.8: .v8.b32 / .v4.b64 ld/st need sm_100+ (ptxas 13.0 accepts sm_100, 103, 110, 120, 121).
        const bool wide = a.cc_major >= 10;
        CHECK(a.max_global_access_bytes == (wide ? 32 : 16));
        CHECK(global_access_unsupported(32, a).empty() == wide);
        CHECK(global_access_unsupported(16, a).empty());
        const GlobalBlockResult b = analyze_global_block(p, a);
        CHECK(b.ok() == (wide && a.sectors_model));
    }
    const GlobalBlockResult h100 = analyze_global_block(p, *find_arch(9, 0));
    CHECK(h100.error ==
          "access_bytes: must be 1, 2, 4, 8 or 16 on cc 9.0 (Hopper), got 32; a 32-byte lane (one 256-bit ld/st.global, .v8.b32 or "
          ".v4.b64) needs compute capability 10.0 or newer (PTX ISA 8.8, sm_100+); on this device the compiler splits it into two "
          "16-byte accesses, so model access_bytes 16");
    // The older architectures keep their own refusal (the model itself), not the width's.
    CHECK(analyze_global_block(p, *find_arch(5, 2)).error.find("6.0") != std::string::npos);
    // Widths that no architecture has are refused by the pattern check, as before.
    p.access_bytes = 64;
    CHECK(check_pattern(p) == "access_bytes: must be 1, 2, 4, 8 or 16, got 64");
    CHECK(valid_global_access_bytes(32));
    CHECK(!valid_access_bytes(32));
    CHECK(!valid_global_access_bytes(24));
}

TEST_CASE("property: analyze_global matches a brute-force byte walk") {
    std::mt19937_64 rng(12345);
    const int widths[] = {1, 2, 4, 8, 16, 32};
    for (int iter = 0; iter < 6000; ++iter) {
        WarpAccess w;
        w.access_bytes = widths[rng() % 6];
        w.active = static_cast<std::uint32_t>(rng());
        if (iter % 7 == 0) w.active = 0xffffffffu;
        const std::uint64_t span = std::uint64_t{1} << (rng() % 14 + 4);  // 16 B .. 128 KiB: collisions happen
        const int mode = static_cast<int>(rng() % 3);
        const std::uint64_t base = (rng() % 4096) * static_cast<std::uint64_t>(w.access_bytes);
        const std::uint64_t stride = (rng() % 40) * static_cast<std::uint64_t>(w.access_bytes);
        for (int lane = 0; lane < 32; ++lane) {
            std::uint64_t a = mode == 0   ? base + (rng() % span)
                              : mode == 1 ? base + static_cast<std::uint64_t>(lane) * stride
                                          : rng() % (1ull << 40);
            w.addr[static_cast<std::size_t>(lane)] = a - a % static_cast<std::uint64_t>(w.access_bytes);
        }
        check_against_reference(w);
    }
}

TEST_CASE("property: every full-warp constant step (the closed-form fast path) matches the reference") {
    for (int bytes : {1, 2, 4, 8, 16, 32})
        for (std::uint64_t base = 0; base < 96; base += static_cast<std::uint64_t>(bytes))
            for (std::int64_t step = 0; step <= 80; ++step) {
                WarpAccess w = affine_warp(bytes, 4096 + base, step);
                check_against_reference(w);
                // The same addresses with one lane off the progression take the general path.
                w.addr[31] = w.addr[0];
                check_against_reference(w);
            }
}
