// cmd_coalesce.cpp — `occ coalesce`: how a warp's global-memory access becomes 32-byte sectors.
// Also holds the access-description flags that `occ banks` (cmd_banks.cpp) shares.
//
// [SECTION] Flags (the coalesce request description, shared with banks)
// [SECTION] Terminal helpers (wrapping, lane ranges)
// [SECTION] The human picture: lanes -> sectors
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "occ/format.hpp"
#include "occ/io/api.hpp"
#include "occ/text.hpp"

namespace occ::cli {

// [SECTION] Flags

CLI::App* add_memory_command(CLI::App& app, std::string_view name, const char* help, MemoryFlags& o) {
    auto* cmd = add_request_command(app, name, help, o);
    cmd->add_option("--warp,-w", o.warp, "Warp to draw [the worst one]; with --expr, the warp to evaluate [0]");
    return cmd;
}

// [SECTION] Terminal helpers

// "0-7", "0, 2, 4" ...: lanes of a mask as compact ranges, at most `width` characters.
std::string lane_ranges(std::uint32_t mask, std::size_t width) {
    std::string s;
    for (int lane = 0; lane < 32;) {
        if (!((mask >> lane) & 1u)) {
            ++lane;
            continue;
        }
        int end = lane;
        while (end + 1 < 32 && ((mask >> (end + 1)) & 1u)) ++end;
        std::string part = end == lane       ? std::to_string(lane)
                           : end == lane + 1 ? std::to_string(lane) + "," + std::to_string(end)
                                             : std::to_string(lane) + "-" + std::to_string(end);
        if (!s.empty()) part = "," + part;
        if (s.size() + part.size() > width) {
            s += ",...";
            break;
        }
        s += part;
        lane = end + 1;
    }
    return s;
}

// Wraps `text` to 80 columns; the first line starts after `label`, the rest are indented to match.
void print_wrapped(const char* label, const std::string& text) {
    const std::size_t indent = std::string(label).size(), width = 80 - indent;
    std::istringstream words(text);
    std::string word, line;
    bool first = true;
    auto flush = [&] {
        std::printf("%s%s\n", first ? label : std::string(indent, ' ').c_str(), line.c_str());
        first = false;
        line.clear();
    };
    while (words >> word) {
        if (!line.empty() && line.size() + 1 + word.size() > width) flush();
        join_into(line, " ", word);
    }
    if (!line.empty() || first) flush();
}

// One character per index: 0-9, then a-z, then A-Z; '.' for none (a negative index).
char index_char(int i) {
    if (i < 0) return '.';
    if (i < 10) return static_cast<char>('0' + i);
    if (i < 36) return static_cast<char>('a' + i - 10);
    if (i < 62) return static_cast<char>('A' + i - 36);
    return '+';
}

// The lane ruler used by both pictures: tens on one line, units on the next.
void print_lane_ruler(const char* label) {
    std::printf("  %-8s0         1         2         3\n", label);
    std::printf("  %-8s01234567890123456789012345678901\n", "");
}

// "4-byte loads, affine stride 2, block 32x1x1 (1 warp)".
std::string describe_input(const AccessPattern& p, int warps) {
    std::string s = std::to_string(p.access_bytes) + "-byte " + access_op_name(p.op) + "s, " + pattern_kind_name(p.kind);
    if (p.kind == PatternKind::affine) s += " stride " + std::to_string(p.stride);
    if (p.kind == PatternKind::index_2d)
        s += std::string(" ") + (p.order == IndexOrder::row ? "row" : "column") + " order, pitch " + std::to_string(p.row_pitch() - p.pad) +
             (p.pad ? " + pad " + std::to_string(p.pad) : "") + (p.swizzle ? ", XOR swizzle" : "");
    if (p.kind == PatternKind::gather) s += p.range ? " random in [0, " + std::to_string(p.range) + ")" : " permutation";
    if (p.kind != PatternKind::addresses) {
        if (p.offset != 0) s += ", offset " + std::to_string(p.offset) + " B";
        s += ", block " + std::to_string(p.block[0]) + "x" + std::to_string(p.block[1]) + "x" + std::to_string(p.block[2]);
    }
    s += " (" + std::to_string(warps) + (warps == 1 ? " warp)" : " warps)");
    return s;
}

// Pattern expr: the access as typed, the declaration and where it was evaluated.
std::string describe_expr(const io::MemoryRequest& r) {
    const io::ExprRequest& x = *r.expr;
    const auto dims = [](const std::array<int, 3>& d) {
        return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
    };
    const auto idx = [](const std::array<int, 3>& d) {
        return "(" + std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]) + ")";
    };
    std::string s = std::to_string(r.pattern.access_bytes) + "-byte " + access_op_name(r.pattern.op) + "s, " + x.expr;
    if (!x.array.empty()) s += " on " + x.array;
    if (!x.consts.empty()) s += " with " + x.consts;
    if (x.launch.offset != 0) s += ", offset " + std::to_string(x.launch.offset) + " B";
    return s + ", warp " + std::to_string(x.launch.warp) + " of block " + idx(x.launch.block_idx) + " of " + dims(x.launch.block) +
           " threads";
}

// Defined in tile_print.cpp.
std::string describe_tile(const io::TileRequest& t);

// The first lines of both pictures: the command and device, then the access as the user gave it.
void print_memory_heading(const char* what, const io::MemoryRequest& in, int warps) {
    std::printf("%s  %s (cc %d.%d)\n", what, in.device.name.c_str(), in.device.arch.cc_major, in.device.arch.cc_minor);
    print_wrapped("  access  ", in.expr ? describe_expr(in) : in.tile ? describe_tile(*in.tile) : describe_input(in.pattern, warps));
}

// Which warp to draw: --warp if given and valid, else the worst one.
Result<int> pick_warp(int warps, int worst, const std::string& flag) {
    if (flag.empty()) return Result<int>::ok(worst);
    long long v = 0;
    if (!parse_long(flag, v) || v < 0 || v >= warps)
        return Result<int>::fail("warp: must be 0.." + std::to_string(warps - 1) + ", got " + flag);
    return Result<int>::ok(static_cast<int>(v));
}

// Defined in tile_print.cpp.
void print_tile_coalesce(const io::CoalesceAnswer& a);

namespace {

// [SECTION] The human picture

void print_coalesce(const io::CoalesceAnswer& a, int wi) {
    const GlobalBlockResult& r = a.result;
    print_memory_heading("coalesce", a.input, static_cast<int>(r.warps.size()));
    std::printf("\n  requests %-6lld sectors %lld (ideal %lld, excess %lld)   lines %lld\n", static_cast<long long>(r.requests),
                static_cast<long long>(r.sectors), static_cast<long long>(r.ideal_sectors), static_cast<long long>(r.excess_sectors),
                static_cast<long long>(r.lines));
    std::printf("  bytes    %s requested / %s transferred   efficiency %s\n", format_count(r.bytes_requested).c_str(),
                format_count(r.bytes_transferred).c_str(), format_percent(r.efficiency).c_str());
    std::printf("\n");
    print_wrapped("  why  ", r.reason);
    if (!r.fix.empty()) print_wrapped("  fix  ", r.fix);
    if (a.tile) print_tile_coalesce(a);

    const GlobalAccessResult& w = r.warps[static_cast<std::size_t>(wi)];
    std::printf("\n  warp %d: lanes -> sectors (%d sectors; '.' = inactive lane)\n", a.input.expr ? a.input.expr->launch.warp : wi,
                w.sectors);
    print_lane_ruler("lane");
    std::string row;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
        const int sec = w.lane_sector[static_cast<std::size_t>(lane)];
        row += index_char(sec == kNoSector ? -1 : sec);
    }
    std::printf("  %-8s%s\n\n", "sector", row.c_str());

    const std::size_t n = static_cast<std::size_t>(w.sectors), shown = n > 16 ? 12 : n;
    std::printf("  %6s  %-18s %5s  %s\n", "sector", "address", "used", "lanes");
    for (std::size_t s = 0; s < shown; ++s) {
        std::uint32_t mask = 0;
        for (int lane = 0; lane < kWarpLanes; ++lane)
            if (w.lane_sector[static_cast<std::size_t>(lane)] == static_cast<int>(s)) mask |= 1u << lane;
        char addr[32];
        std::snprintf(addr, sizeof addr, "0x%llx", static_cast<unsigned long long>(w.sector_addr[s]));
        const int u = w.sector_used_bytes[s];
        std::string bar(static_cast<std::size_t>(u / 4), '#');
        bar.resize(8, '.');
        std::printf("  %6c  %-18s %2d/32  %s  %s\n", index_char(static_cast<int>(s)), addr, u, bar.c_str(), lane_ranges(mask, 30).c_str());
    }
    if (shown < n) std::printf("  ... %zu more sectors (--json lists them all)\n", n - shown);
}

}  // namespace

void add_coalesce(CLI::App& app, Outcome& out) {
    auto o = std::make_shared<MemoryFlags>();
    auto* cmd = add_memory_command(app, "coalesce", R"help(
One warp-level load or store is one request; it moves every distinct 32-byte
sector its active lanes touch. Lanes are numbered threadIdx.x fastest; a block's
warps are 32 consecutive threads.

Examples (CUDA Best Practices Guide, "Coalesced Access to Global Memory"):
  occ coalesce                      # 32 consecutive floats: 4 sectors, 100%
  occ coalesce --offset 4           # shifted one float: 5 sectors, 80%
  occ coalesce --stride 2           # every other float: 8 sectors, 50%
  occ coalesce --stride 32          # a sector per lane: 32 sectors, 12.5%
  occ coalesce --access-bytes 16         # float4 per lane: 16 sectors, 1 request
  occ coalesce --block 16,16 --pitch 1000   # 2-D block: 2 rows per warp
  occ coalesce --block 32,32 --order column # A[threadIdx.x*pitch + threadIdx.y]
  occ coalesce --threads 256 --expr 'A[(blockIdx.x * blockDim.x + threadIdx.x) * 2]' --warp 3
  occ coalesce --range 1000000 --seed 7     # random gather
  occ coalesce --tile 64x64 --elem-bytes 2 --access-bytes 16 --tile-access cp_async
  occ coalesce --addresses 0,4,8,-,16 --json
  echo '{"stride":2}' | occ coalesce --batch

--batch lines carry the fields --json echoes under "input": gpu|cc,
access_bytes, elem_bytes, op, active_lanes, and addresses (up to 32, null =
inactive) or a pattern (affine: base, offset, stride; 2d: block, order, pitch,
pad, swizzle; gather: seed, range), id. See docs/MEMORY.md.)help",
                                   *o);
    cmd->callback([o, &out] { out.code = run_memory<io::CoalesceAnswer>(*o, "coalesce", io::answer_coalesce, print_coalesce); });
}

}  // namespace occ::cli
