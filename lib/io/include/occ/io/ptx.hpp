// occ/io/ptx.hpp — PTX text (nvcc 11-13, Triton 3.x) into the plain program of occ/ptx_program.hpp.
//
// What is read: .version / .target / .address_size, .file, every .entry (and .func with a body) with
// its .param list (Triton's ".ptr .global .align N" attributes included), .reg declarations
// (%r<12>), .shared variables (module scope, inside bodies, .extern dynamic arrays), labels,
// instructions with their guard and operands, and the .loc before each instruction (its
// "function_name ..., inlined_at f l c" tail gives the outermost caller). // and /* */ comments and
// the .section debug blocks are skipped; other directives become diagnostics.
//
// The rule: hostile or truncated text never crashes the reader. Sizes are bounded (PtxLimits) and a
// syntax error is an error value whose message names the line ("line 12: unterminated '['").
#pragma once
#include <cstddef>
#include <string_view>

#include "occ/ptx_program.hpp"
#include "occ/result.hpp"

namespace occ::io {

struct PtxLimits {
    std::size_t max_bytes = std::size_t{64} << 20;  // the biggest Triton / CUTLASS PTX is a few MiB
    std::size_t max_statement = 1 << 16;            // bytes of one statement
    std::size_t max_instructions = 2'000'000;       // over all entries
    std::size_t max_entries = 100'000;
    std::size_t max_operands = 64;  // operands of one instruction (a {..} list is one)
    std::size_t max_vector = 256;   // tcgen05.ld.32x32b.x128 has 128 registers
    int max_scope_depth = 256;
    std::size_t max_diagnostics = 100;
};

Result<ptx::Program> read_ptx(std::string_view text, const PtxLimits& limits = {});

}  // namespace occ::io
