// test_memory_fastpath.cpp — analyze_global and analyze_banks (closed-form, ordered, ranked and
// sorted paths alike) against plain references written here from the rules in coalescing.hpp /
// banks.hpp, on many random warps: gathers over small and huge spans, duplicate addresses, shuffled
// contiguous lanes, strides, partially active and empty warps, misaligned lanes (rounded down to
// their width, as documented) and every width (1, 2, 4, 8, 16 bytes; 32 for the global model, where
// a lane is a whole sector). Every output field is compared, including the per-lane and per-sector /
// per-bank arrays.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <map>
#include <random>
#include <set>

#include "occ/banks.hpp"
#include "occ/coalescing.hpp"

using namespace occ;

namespace {

// A random warp. Addresses may be misaligned; the models round each lane down to its width.
// width 0: any of 1, 2, 4, 8, 16 (both models); else that width (32: the global model only).
WarpAccess random_warp(std::mt19937_64& rng, int iter, int width = 0) {
    static const int widths[] = {1, 2, 4, 8, 16};
    WarpAccess w;
    w.access_bytes = width != 0 ? width : widths[rng() % 5];
    switch (iter % 6) {
        case 0: w.active = 0xffffffffu; break;
        case 1: w.active = static_cast<std::uint32_t>(rng()); break;
        case 2: w.active = 1u << (rng() % 32) | 1u << (rng() % 32); break;  // one or two lanes
        case 3: w.active = static_cast<std::uint32_t>(rng()) & static_cast<std::uint32_t>(rng()); break;
        case 4: w.active = 0xffffffffu >> (rng() % 32); break;  // a tail warp
        default: w.active = iter % 97 == 0 ? 0u : 0xffffffffu; break;
    }
    const int span_bits = static_cast<int>(rng() % 45) + 3;  // 8 B .. 16 TiB
    const std::uint64_t span = std::uint64_t{1} << span_bits;
    const std::uint64_t base = rng() % (std::uint64_t{1} << 48);
    const bool misalign = rng() % 4 == 0;
    const int mode = static_cast<int>(rng() % 5);
    std::array<std::uint64_t, 4> pool{};
    for (auto& p : pool) p = base + rng() % span;
    const std::uint64_t stride = rng() % 300;
    std::array<int, 32> perm{};
    for (int i = 0; i < 32; ++i) perm[static_cast<std::size_t>(i)] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    for (std::size_t lane = 0; lane < 32; ++lane) {
        std::uint64_t a = 0;
        switch (mode) {
            case 0: a = base + rng() % span; break;        // gather
            case 1: a = pool[rng() % pool.size()]; break;  // duplicates
            case 2:
                a = base + static_cast<std::uint64_t>(perm[lane]) * static_cast<std::uint64_t>(w.access_bytes);
                break;                                                                                // shuffled contiguous
            case 3: a = base + lane * stride; break;                                                  // any step in bytes
            default: a = base + static_cast<std::uint64_t>(perm[lane] % 8) * 32 + rng() % 64; break;  // a few sectors
        }
        if (!misalign) a -= a % static_cast<std::uint64_t>(w.access_bytes);
        w.addr[lane] = a % (std::uint64_t{1} << 56);
    }
    return w;
}

std::uint64_t rounded(const WarpAccess& w, std::size_t lane) {
    return w.addr[lane] - w.addr[lane] % static_cast<std::uint64_t>(w.access_bytes);
}

// Global: the sectors, lines and bytes the active lanes touch, as sets.
void check_global(const WarpAccess& w) {
    const GlobalAccessResult r = analyze_global(w);
    std::set<std::uint64_t> sectors, lines, bytes;
    int active = 0;
    for (std::size_t lane = 0; lane < 32; ++lane) {
        if (!((w.active >> lane) & 1u)) continue;
        ++active;
        for (int b = 0; b < w.access_bytes; ++b) {
            const std::uint64_t a = rounded(w, lane) + static_cast<std::uint64_t>(b);
            bytes.insert(a);
            sectors.insert(a / 32);
            lines.insert(a / 128);
        }
    }
    const std::vector<std::uint64_t> sorted(sectors.begin(), sectors.end());
    const auto n_bytes = static_cast<std::int64_t>(bytes.size());
    CHECK(r.requests == (active > 0 ? 1 : 0));
    CHECK(r.active_lanes == active);
    CHECK(r.sectors == static_cast<int>(sorted.size()));
    CHECK(r.lines == static_cast<int>(lines.size()));
    CHECK(r.bytes_requested == n_bytes);
    CHECK(r.lane_bytes == static_cast<std::int64_t>(active) * w.access_bytes);
    CHECK(r.bytes_transferred == static_cast<std::int64_t>(sorted.size()) * 32);
    CHECK(r.efficiency == (active > 0 ? static_cast<double>(n_bytes) / static_cast<double>(sorted.size() * 32) : 0.0));
    CHECK(r.ideal_sectors == static_cast<int>((n_bytes + 31) / 32));
    CHECK(r.excess_sectors == static_cast<int>(sorted.size()) - static_cast<int>((n_bytes + 31) / 32));
    for (std::size_t lane = 0; lane < 32; ++lane) {
        int want = kNoSector;
        if ((w.active >> lane) & 1u)
            want = static_cast<int>(std::lower_bound(sorted.begin(), sorted.end(), rounded(w, lane) / 32) - sorted.begin());
        CHECK(r.lane_sector[lane] == want);
    }
    for (std::size_t k = 0; k < 32; ++k) {
        const std::uint64_t addr = k < sorted.size() ? sorted[k] * 32 : 0;
        std::size_t used = 0;
        if (k < sorted.size()) used = static_cast<std::size_t>(std::distance(bytes.lower_bound(addr), bytes.lower_bound(addr + 32)));
        CHECK(r.sector_addr[k] == addr);
        CHECK(r.sector_used_bytes[k] == used);
    }
}

// Banks: per phase, the distinct 4-byte words (addresses modulo 4 GiB) each bank is asked for.
void check_banks(const WarpAccess& w) {
    const BankResult r = analyze_banks(w);
    const int phases = w.access_bytes <= 4 ? 1 : w.access_bytes / 4;
    const int per = 32 / phases;
    std::array<std::uint32_t, 32> bank_lanes{};
    std::array<int, 32> bank_way{};
    std::array<int, 4> phase_wf{};
    std::uint32_t conflict_lanes = 0;
    int wavefronts = 0, ideal = 0, max_way = 0, active = 0;
    for (int ph = 0; ph < phases; ++ph) {
        std::map<int, std::set<std::uint32_t>> words;
        std::map<int, std::uint32_t> lanes_of;
        for (int lane = ph * per; lane < ph * per + per; ++lane) {
            if (!((w.active >> lane) & 1u)) continue;
            ++active;
            const auto a = static_cast<std::uint32_t>(rounded(w, static_cast<std::size_t>(lane)));
            for (int b = 0; b < std::max(4, w.access_bytes); b += 4) {
                const std::uint32_t word = (a + static_cast<std::uint32_t>(b)) / 4;
                words[static_cast<int>(word % 32)].insert(word);
                lanes_of[static_cast<int>(word % 32)] |= 1u << lane;
            }
        }
        if (words.empty()) continue;
        int most = 0;
        for (const auto& [bank, set] : words) {
            const int n = static_cast<int>(set.size());
            most = std::max(most, n);
            bank_way[static_cast<std::size_t>(bank)] = std::max(bank_way[static_cast<std::size_t>(bank)], n);
            bank_lanes[static_cast<std::size_t>(bank)] |= lanes_of[bank];
            if (n > 1) conflict_lanes |= lanes_of[bank];
        }
        phase_wf[static_cast<std::size_t>(ph)] = most;
        wavefronts += most;
        ideal += 1;
        max_way = std::max(max_way, most);
    }
    CHECK(r.active_lanes == active);
    CHECK(r.phases == phases);
    CHECK(r.wavefronts == wavefronts);
    CHECK(r.ideal_wavefronts == ideal);
    CHECK(r.conflicts == wavefronts - ideal);
    CHECK(r.max_way == max_way);
    CHECK(r.conflict_lanes == conflict_lanes);
    for (std::size_t ph = 0; ph < 4; ++ph) CHECK(r.phase_wavefronts[ph] == (static_cast<int>(ph) < phases ? phase_wf[ph] : 0));
    for (std::size_t lane = 0; lane < 32; ++lane) {
        const int want = (w.active >> lane) & 1u ? static_cast<int>((static_cast<std::uint32_t>(rounded(w, lane)) / 4) % 32) : -1;
        CHECK(r.lane_bank[lane] == want);
    }
    for (std::size_t bank = 0; bank < 32; ++bank) {
        CHECK(r.bank_lanes[bank] == bank_lanes[bank]);
        CHECK(r.bank_way[bank] == bank_way[bank]);
    }
}

}  // namespace

TEST_CASE("property: analyze_global equals a plain set-based reference on 40,000 random warps (all fields)") {
    std::mt19937_64 rng(20261201);
    for (int iter = 0; iter < 40000; ++iter) check_global(random_warp(rng, iter));
}

TEST_CASE("property: analyze_banks equals a plain set-based reference on 40,000 random warps (all fields)") {
    std::mt19937_64 rng(20261202);
    for (int iter = 0; iter < 40000; ++iter) check_banks(random_warp(rng, iter));
}

TEST_CASE("property: warps of at most 16 active lanes (either half, or spread) equal the reference, spans near the 64 MiB cut") {
    // The vector sort of up to 16 lanes: lanes 0-15 or 16-31 all active, random masks of <= 16 lanes,
    // addresses shuffled within a small span, around 64 MiB from the first lane's line and past it.
    std::mt19937_64 rng(20261203);
    const std::uint64_t spans[] = {64, 1024, 1u << 16, (1u << 26) - 256, 1u << 26, (1u << 26) + 4096, std::uint64_t{1} << 40};
    for (int iter = 0; iter < 30000; ++iter) {
        WarpAccess w = random_warp(rng, iter);
        switch (iter % 3) {
            case 0: w.active = 0x0000ffffu; break;
            case 1: w.active = 0xffff0000u; break;
            default: {
                std::uint32_t m = 0;
                for (int k = 0, n = static_cast<int>(rng() % 16) + 1; k < n; ++k) m |= 1u << (rng() % 32);
                w.active = m;
            }
        }
        const std::uint64_t base = rng() % (std::uint64_t{1} << 44), span = spans[static_cast<std::size_t>(iter / 3) % 7];
        for (auto& a : w.addr) a = base + rng() % span;
        if (iter % 5 == 0) w.addr[31] = w.addr[30];  // a repeated address
        check_global(w);
        check_banks(w);
    }
}

TEST_CASE("gathers at and past the ranked path's reach (2^30 sectors from the first lane's) take the sorted path, same answers") {
    // Two clusters 2^40 bytes apart: the ranked path refuses the span, the sort handles it.
    std::mt19937_64 rng(7);
    for (int iter = 0; iter < 2000; ++iter) {
        WarpAccess w = random_warp(rng, iter);
        for (std::size_t lane = 0; lane < 32; lane += 3) w.addr[lane] += std::uint64_t{1} << 40;
        check_global(w);
        check_banks(w);
    }
    // Clusters either side of the reach (2^30 sectors = 2^35 bytes), above and below the first lane.
    const std::uint64_t reach = std::uint64_t{1} << 35;
    for (const std::uint64_t apart : {reach - 64, reach - 32, reach, reach + 32, reach + 4096}) {
        for (int iter = 0; iter < 200; ++iter) {
            WarpAccess w = random_warp(rng, iter);
            for (auto& a : w.addr) a += reach + 4096;  // room below
            for (std::size_t lane = 1; lane < 32; lane += 2) w.addr[lane] += (iter & 1) ? apart : 0 - apart;
            check_global(w);
            check_banks(w);
        }
    }
}

TEST_CASE("partial warps within 1 KiB of the first active lane's line (the window path), at and past its edges") {
    // The window is [line - 512, line + 512) around the first active lane's 128-byte line: lanes on
    // its first and last bytes, one byte outside either way (the sort takes those), any width, repeated
    // addresses, near address 0 (the window's start wraps below 0).
    std::mt19937_64 rng(20261204);
    const int widths[] = {1, 2, 4, 8, 16};
    for (int iter = 0; iter < 20000; ++iter) {
        WarpAccess w;
        w.access_bytes = widths[rng() % 5];
        const std::uint64_t ab = static_cast<std::uint64_t>(w.access_bytes);
        do w.active = static_cast<std::uint32_t>(rng()) & static_cast<std::uint32_t>(rng());
        while (w.active == 0 || w.active == 0xffffffffu);
        const std::uint64_t line = iter % 4 == 0 ? 128 * (rng() % 8) : 4096 + 128 * (rng() % 1000000);  // near 0, or anywhere
        const int first = std::countr_zero(w.active);
        for (std::size_t lane = 0; lane < 32; ++lane) {
            std::uint64_t a = line + 512 + rng() % 1024 - 1024;  // anywhere in the window (mod 2^64 near 0)
            switch (rng() % 6) {
                case 0: a = line - 512; break;  // its first byte
                case 1: a = line + 511; break;  // its last byte
                case 2: a = line + 512; break;  // one past it
                case 3: a = line - 513; break;  // one before it
                default: break;
            }
            if (a >= (std::uint64_t{1} << 56)) a = line + rng() % 128;  // no negative addresses
            w.addr[lane] = a - a % ab;
        }
        w.addr[static_cast<std::size_t>(first)] = line + (rng() % 128) / ab * ab;  // the first active lane on the line
        if (iter % 3 == 0) w.addr[31] = w.addr[static_cast<std::size_t>(first)];   // a repeated address
        check_global(w);
    }
}

TEST_CASE("full warps of 32 distinct sectors (the sorted gather) equal the reference, sectors below and above lane 0's") {
    // Lane 0's sector is the keys' origin: the others both sides of it, on shared and separate lines,
    // and at the ranked path's reach; plus the same warps with one sector shared (dense ranks instead).
    std::mt19937_64 rng(20261205);
    for (int iter = 0; iter < 20000; ++iter) {
        WarpAccess w;
        w.access_bytes = 4;
        std::set<std::uint64_t> used;
        const std::uint64_t span = iter % 4 == 0   ? 2048
                                   : iter % 4 == 1 ? (std::uint64_t{1} << 22)
                                   : iter % 4 == 2 ? (std::uint64_t{1} << 34)
                                                   : 1u << 12;
        const std::uint64_t mid = (std::uint64_t{1} << 36) + 32 * (rng() % 1000);
        for (std::size_t lane = 0; lane < 32; ++lane) {
            std::uint64_t sector;
            do sector = (mid - span / 2 + rng() % span) / 32;
            while (!used.insert(sector).second);
            w.addr[lane] = sector * 32 + 4 * (rng() % 8);
        }
        if (iter % 5 == 0) w.addr[rng() % 32] = w.addr[rng() % 32];  // one repeated address: shared sectors
        check_global(w);
    }
}

TEST_CASE("property: 32-byte lanes (a whole sector each) equal the reference on every path of analyze_global") {
    // The closed form (constant steps), the ordered walk, the 1 KiB window and the ranked path (their
    // byte masks: a 32-byte lane's is all 32 bits), the vector sort of up to 16 lanes and the sort.
    std::mt19937_64 rng(20261206);
    for (int iter = 0; iter < 20000; ++iter) check_global(random_warp(rng, iter, 32));
    // Partial warps within the window (shuffled lanes of a few lines) and of at most 16 lanes.
    for (int iter = 0; iter < 20000; ++iter) {
        WarpAccess w;
        w.access_bytes = 32;
        do w.active = static_cast<std::uint32_t>(rng()) & static_cast<std::uint32_t>(rng());
        while (w.active == 0);
        if (iter % 2 == 0) w.active &= iter % 4 == 0 ? 0x0000ffffu : 0xffff0000u;
        if (w.active == 0) w.active = 1u << (rng() % 32);
        const std::uint64_t line = 4096 + 128 * (rng() % 100000);
        const std::uint64_t span = iter % 3 == 0 ? 1024 : iter % 3 == 1 ? 256 : (std::uint64_t{1} << 20);
        for (auto& a : w.addr) a = (line - 512 + rng() % span) / 32 * 32;
        w.addr[static_cast<std::size_t>(std::countr_zero(w.active))] = line + 32 * (rng() % 4);
        if (iter % 5 == 0) w.addr[31] = w.addr[0];  // a repeated address
        check_global(w);
    }
    // Every constant step from 0 to 40 sectors, from each sector of a line, full and partial warps.
    for (std::uint64_t start = 0; start < 128; start += 32)
        for (std::uint64_t step = 0; step <= 40 * 32; step += 32)
            for (std::uint32_t mask : {0xffffffffu, 0x7fffffffu, 0x0000ffffu, 0x00ff00ffu}) {
                WarpAccess w;
                w.access_bytes = 32;
                w.active = mask;
                for (std::size_t lane = 0; lane < 32; ++lane) w.addr[lane] = 8192 + start + lane * step;
                check_global(w);
                std::swap(w.addr[3], w.addr[17]);  // out of order: the other paths
                check_global(w);
            }
}

TEST_CASE("known answer: a random gather of 32 distinct floats in separate sectors") {
    // Best Practices Guide, "Coalesced Access to Global Memory": each 32-byte sector touched is a
    // transaction; 32 lanes in 32 different sectors -> 32 sectors, 4 of 32 bytes used in each.
    WarpAccess w;
    const std::array<int, 32> order = {7,  30, 2, 19, 11, 0,  25, 14, 31, 5,  22, 9,  16, 28, 3,  12,
                                       27, 20, 1, 8,  24, 15, 6,  29, 10, 18, 4,  26, 13, 21, 17, 23};
    for (std::size_t lane = 0; lane < 32; ++lane) w.addr[lane] = 4096 + static_cast<std::uint64_t>(order[lane]) * 64;
    const GlobalAccessResult r = analyze_global(w);
    CHECK(r.sectors == 32);
    CHECK(r.lines == 16);
    CHECK(r.bytes_requested == 128);
    CHECK(r.lane_sector[0] == 7);
    CHECK(r.lane_sector[5] == 0);
    CHECK(r.sector_addr[31] == 4096 + 31 * 64);
    for (std::size_t k = 0; k < 32; ++k) CHECK(r.sector_used_bytes[k] == 4);
    // The same addresses as shared memory (Programming Guide, "Shared Memory": successive 32-bit words in
    // successive banks): word = 1024 + 16 * order, so the bank is 0 (even order) or 16 (odd order), two
    // banks with 16 distinct words each -> 16 wavefronts, 15 of them conflicts.
    const BankResult b = analyze_banks(w);
    CHECK(b.wavefronts == 16);
    CHECK(b.conflicts == 15);
    CHECK(b.bank_way[0] == 16);
    CHECK(b.bank_way[16] == 16);
}
