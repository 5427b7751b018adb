// cmd_banks.cpp — `occ banks`: shared-memory bank conflicts of a warp's access (cc >= 5.0), and LDS
// bank conflicts of a wave on an AMD GPU or target (--gpu MI300X, --arch gfx942).
// The request flags are the coalesce request's, shared with `occ coalesce` (cmd_coalesce.cpp).
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "cli.hpp"
#include "occ/amd_lds.hpp"
#include "occ/format.hpp"
#include "occ/io/amd_banks.hpp"
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

// Each lane's bank ('.' inactive), in rows of 16 lanes of 3 columns each: fits 80 columns. A warp
// (32 lanes) and an AMD wave (32 or 64) the same way.
template <typename Banks>
void print_lane_banks(const Banks& lane_bank, int lane_count) {
    for (int row = 0; row < lane_count / 16; ++row) {
        std::string lanes = "  lane  ", banks = "  bank  ";
        for (int lane = row * 16; lane < row * 16 + 16; ++lane) {
            char cell[16];
            std::snprintf(cell, sizeof cell, "%3d", lane);
            lanes += cell;
            const int b = lane_bank[static_cast<std::size_t>(lane)];
            if (b < 0) std::snprintf(cell, sizeof cell, "%3s", ".");
            else std::snprintf(cell, sizeof cell, "%3d", b);
            banks += cell;
        }
        std::printf("%s\n%s\n", lanes.c_str(), banks.c_str());
    }
}

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
    print_lane_banks(w.lane_bank, 32);
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

// An AMD wave: the totals, why, where the rule comes from, then the drawn wave's lanes -> banks
// (two rows of 16 lanes per 32) and each phase's cycles.
void print_amd_banks(const io::AmdBanksAnswer& a, int wi) {
    const amd::LdsBlockResult& r = a.result;
    const amd::AmdArch& arch = *a.input.target.arch;
    const AccessPattern& p = a.input.memory.pattern;
    const bool store = p.op == AccessOp::store;
    const std::string name = io::amd_target_name(a.input.target);
    std::printf("banks  %s (AMD %s %s): %s, wave%d, %d wave%s\n", name.c_str(), std::string(arch.isa).c_str(),
                std::string(arch.family).c_str(), amd::lds_instruction(p.access_bytes, store).c_str(), a.input.wave_size,
                static_cast<int>(r.waves.size()), r.waves.size() == 1 ? "" : "s");
    // No active lane: nothing moved, no efficiency to show.
    const std::string eff = r.cycles > 0 ? std::to_string(static_cast<int>(100.0 * r.efficiency + 0.5)) + "%" : "-";
    std::printf("\n  LDS cycles %lld (ideal %lld)   conflicts %lld   worst %d-way   efficiency %s\n", static_cast<long long>(r.cycles),
                static_cast<long long>(r.ideal_cycles), static_cast<long long>(r.conflicts), r.max_way, eff.c_str());
    std::printf("\n");
    print_wrapped("  why  ", r.reason);
    const json j = io::to_json(a);
    if (j["fix"].is_string()) print_wrapped("  fix  ", j["fix"].get<std::string>());
    const amd::LdsBasis basis = amd::lds_basis(arch, p.access_bytes, store, a.input.wave_size);
    print_wrapped(basis.measured ? "  rule " : "  rule (not measured here) ", basis.note);

    const amd::LdsResult& w = r.waves[static_cast<std::size_t>(wi)];
    std::printf("\n  wave %d: lanes -> banks (%d cycle%s, ideal %d)\n", wi, w.cycles, w.cycles == 1 ? "" : "s", w.ideal_cycles);
    print_lane_banks(w.lane_bank, a.input.wave_size);
    std::printf("\n");
    print_wrapped("  phases  ", amd::lds_phase_text(arch, p.access_bytes, store, a.input.wave_size));
    for (int ph = 0; ph < w.phases; ++ph) {
        std::uint64_t lanes = 0;
        for (int lane = 0; lane < a.input.wave_size; ++lane)
            if (amd::lds_phase_of(w.rule, lane) == ph) lanes |= std::uint64_t{1} << lane;
        std::printf("  phase %d  lanes %-22s %d cycle%s\n", ph, amd::lds_lane_ranges(lanes).c_str(),
                    w.phase_cycles[static_cast<std::size_t>(ph)], w.phase_cycles[static_cast<std::size_t>(ph)] == 1 ? "" : "s");
    }
    if (w.max_way > 1)
        std::printf("\n  worst: bank %d, %d-way, lanes %s (phase %d)\n", w.worst_bank, w.max_way,
                    amd::lds_lane_ranges(w.worst_lanes).c_str(), w.worst_phase);
}

int run_amd_banks(const MemoryFlags& o, const json& request) {
    Result<io::AmdBanksAnswer> a = io::answer_amd_banks(request);
    int wave = 0;
    if (a) {
        const auto w = pick_warp(static_cast<int>(a->result.waves.size()), a->result.worst_wave, o.warp);
        if (!w) a = Result<io::AmdBanksAnswer>::fail(w.error);
        else wave = *w;
    }
    return emit(
        a, o.as_json, [](const io::AmdBanksAnswer& x) { return io::to_json(x); },
        [&](const io::AmdBanksAnswer& x) { print_amd_banks(x, wave); });
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

AMD GPUs (LDS: 32 banks of 4 bytes, 64 for gfx950's reads; a wave runs in phases
that depend on the width; docs/AMD.md "LDS bank conflicts"):
  occ banks --gpu MI300X --threads 64 --stride 2                 # ds_read_b32: 2-way
  occ banks --arch gfx942 --threads 64 --access-bytes 16 --stride 2 # b128: 2-way
  occ banks --gpu MI355X --threads 64 --access-bytes 8 --stride 8   # 64 banks: 8-way

--batch lines carry the same fields as `occ coalesce --batch` (see its --help
and docs/MEMORY.md).)help",
                                   *o);
    cmd->callback([o, &out] {
        // An AMD GPU or target (--gpu MI300X, --arch gfx942): the LDS model (--batch lines: handle() takes the kind's answer_amd).
        if (!o->batch)
            if (Result<json> req = request_from(o->request); req && io::request_vendor(*req) == io::Vendor::amd) {
                out.code = run_amd_banks(*o, *req);
                return;
            }
        out.code = run_memory<io::BanksAnswer>(*o, "banks", io::answer_banks, print_banks);
    });
}

}  // namespace occ::cli
