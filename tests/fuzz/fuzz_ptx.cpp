// fuzz_ptx.cpp — the PTX reader (occ/io/ptx.hpp) and the warp interpreter (occ/warp_interp.hpp) fed
// any bytes. The reader's answer, when it reads the text, is run for warp 0 and the last warp of a
// 2-D block, on cc 8.0's rules, with small bounds. Seeds: tests/fixtures/ptx (nvcc 13 output and
// Triton-style text).
// Properties: never crashes, hangs or allocates without bound; a refused text says which line; every
// costed site has sectors >= ideal sectors > 0 or wavefronts >= ideal wavefronts > 0; a site is
// costed or says why not.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_common.hpp"
#include "occ/device.hpp"
#include "occ/io/ptx.hpp"
#include "occ/warp_interp.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    occ::io::PtxLimits limits;
    limits.max_instructions = 20000;
    const auto program = occ::io::read_ptx(text, limits);
    if (!program) {
        FUZZ_CHECK(!program.error.empty(), "a refused text says why");
        return 0;
    }
    const occ::ArchRules& arch = *occ::find_arch(8, 0);
    for (const occ::ptx::Entry& entry : program->entries) {
        occ::InterpOptions o;
        o.block[0] = 16;
        o.block[1] = 4;
        o.grid[0] = 3;
        o.warps = {occ::WarpSelect{}, occ::WarpSelect{{2, 0, 0}, 1}};
        o.max_steps = 4000;
        o.max_visits = 8;
        o.unknown_branch = size % 2 ? occ::UnknownBranch::taken : occ::UnknownBranch::not_taken;
        const occ::InterpReport r = occ::interpret_warps(*program, entry, o, arch);
        for (const occ::AccessSite& s : r.sites) {
            FUZZ_CHECK(s.costed + s.unknown <= s.executions, s.opcode);
            if (s.unknown > 0) FUZZ_CHECK(!s.unknown_reason.empty(), s.opcode);
            if (s.costed > 0 && s.model == occ::SiteModel::global)
                FUZZ_CHECK(s.sectors.min >= s.ideal_sectors.min && s.ideal_sectors.min > 0, s.opcode);
            if (s.costed > 0 && s.model == occ::SiteModel::shared)
                FUZZ_CHECK(s.wavefronts.min >= s.ideal_wavefronts.min && s.ideal_wavefronts.min > 0, s.opcode);
        }
        if (entry.instructions.size() > 2000) break;  // one big entry per input is enough
    }
    return 0;
}
