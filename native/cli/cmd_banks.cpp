// cmd_banks.cpp — `occ banks`: shared-memory bank conflicts of a warp's access (cc >= 5.0).
// The request flags are the coalesce request's, shared with `occ coalesce` (cmd_coalesce.cpp).
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "cli.hpp"
#include "occ/format.hpp"
#include "occ/io/api.hpp"

namespace occ::cli {

// Defined in cmd_coalesce.cpp.
std::string lane_ranges(std::uint32_t mask, std::size_t width);
void print_wrapped(const char* label, const std::string& text);
char index_char(int i);
void print_lane_ruler(const char* label);
void print_memory_heading(const char* what, const io::MemoryRequest& in, int warps);
// Defined in tile_print.cpp.
void print_tile_banks(const io::BanksAnswer& a);

namespace {

void print_banks(const io::BanksAnswer& a, int wi) {
    const BankBlockResult& r = a.result;
    print_memory_heading("banks", a.input, static_cast<int>(r.warps.size()));
    std::printf("\n  wavefronts %lld (ideal %lld)   conflicts %lld   worst %d-way\n", static_cast<long long>(r.wavefronts),
                static_cast<long long>(r.ideal_wavefronts), static_cast<long long>(r.conflicts), r.max_way);
    std::printf("\n");
    print_wrapped("  why  ", r.reason);
    if (!r.fix.empty()) print_wrapped("  fix  ", r.fix);
    if (a.tile) print_tile_banks(a);

    const BankResult& w = r.warps[static_cast<std::size_t>(wi)];
    const int phases = w.phases;
    std::printf("\n  warp %d: lanes -> banks (%d wavefront%s, ideal %d", a.input.expr ? a.input.expr->launch.warp : wi, w.wavefronts,
                w.wavefronts == 1 ? "" : "s", w.ideal_wavefronts);
    if (phases > 1) std::printf("; %d phases of %d lanes", phases, 32 / phases);
    std::printf(")\n");
    // Two rows of 16 lanes, 3 columns each: fits 80 columns.
    for (int half = 0; half < 2; ++half) {
        std::string lanes = "  lane  ", banks = "  bank  ";
        for (int lane = half * 16; lane < half * 16 + 16; ++lane) {
            char cell[16];
            std::snprintf(cell, sizeof cell, "%3d", lane);
            lanes += cell;
            const int b = w.lane_bank[static_cast<std::size_t>(lane)];
            if (b < 0) std::snprintf(cell, sizeof cell, "%3s", ".");
            else std::snprintf(cell, sizeof cell, "%3d", b);
            banks += cell;
        }
        std::printf("%s\n%s\n", lanes.c_str(), banks.c_str());
    }
    std::printf("\n  distinct words per bank within a phase ('.' unused, 1 = no conflict)\n");
    print_lane_ruler("bank");
    std::string ways;
    for (const int v : w.bank_way) ways += v == 0 ? '.' : index_char(v);
    std::printf("  %-8s%s\n", "words", ways.c_str());

    // Banks with a conflict, most loaded first, at most 8 lines.
    int listed = 0, conflicted = 0;
    for (int way = 32; way >= 2; --way)
        for (int bank = 0; bank < 32; ++bank) {
            if (w.bank_way[static_cast<std::size_t>(bank)] != way) continue;
            ++conflicted;
            if (listed == 8) continue;
            if (listed == 0) std::printf("\n  conflicts\n");
            const std::uint32_t mask = w.bank_lanes[static_cast<std::size_t>(bank)];
            std::printf("  bank %2d  %2d-way  lanes %s\n", bank, way, lane_ranges(mask, 52).c_str());
            ++listed;
        }
    if (conflicted > listed) std::printf("  ... %d more banks with conflicts (--json lists them all)\n", conflicted - listed);
}

}  // namespace

void add_banks(CLI::App& app, Outcome& out) {
    auto o = std::make_shared<MemoryFlags>();
    auto* cmd = add_memory_command(app, "banks", R"help(
Shared memory has 32 banks of 4 bytes: bank = (byte offset / 4) mod 32. In one
wavefront each bank serves one 4-byte word; lanes asking for the same word share
it (broadcast). 8-byte accesses run as 2 phases of 16 lanes, 16-byte accesses as
4 phases of 8. conflicts = wavefronts - ideal wavefronts (as Nsight Compute
counts them). Addresses are byte offsets into shared memory.

Examples:
  occ banks                         # consecutive floats: no conflict
  occ banks --stride 2              # 2-way conflict
  occ banks --stride 32             # 32-way conflict
  occ banks --stride 0              # every lane reads one word: broadcast
  occ banks --access-bytes 8        # doubles: 2 wavefronts, 0 conflicts
  occ banks --block 32,32 --order column            # tile[32][32]: 32-way
  occ banks --block 32,32 --order column --pad 1    # tile[32][33]: none
  occ banks --block 32,32 --order column --swizzle  # XOR swizzle: none
  occ banks --block 32,32 --expr 'tile[threadIdx.x][threadIdx.y]' --array 'float tile[32][33]'
  occ banks --tile 64x64 --elem-bytes 2 --ldmatrix x4          # 8-way
  occ banks --tile 64x64 --elem-bytes 2 --ldmatrix x4 --cute-swizzle 3,3,3
  occ banks --tile 64x64 --elem-bytes 2 --ldmatrix x4 --tma-swizzle 128B
  occ banks --tile 32x32 --tile-access row,column   # the swizzle solver
  occ banks --addresses 0,128,256,- --json
  echo '{"stride":2}' | occ banks --batch

--batch lines carry the same fields as `occ coalesce --batch` (see its --help
and docs/MEMORY.md).)help",
                                   *o);
    cmd->callback([o, &out] { out.code = run_memory<io::BanksAnswer>(*o, "banks", io::answer_banks, print_banks); });
}

}  // namespace occ::cli
