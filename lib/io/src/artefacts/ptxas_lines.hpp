// ptxas_lines.hpp — io-internal: reading one line of a compiler log (ptxas_lines.cpp); the record
// bookkeeping that ties lines to kernels is in ptxas_log.cpp.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "occ/io/ptxas.hpp"
#include "occ/text.hpp"

namespace occ::io::ptxas_detail {

using occ::trim;
bool starts_with(std::string_view s, std::string_view p);
// All of s (blanks around it trimmed, at most 64 characters) as a finite decimal number ("12.5",
// "-3", "1e3"), else nullopt: the cells of profiler tables and CSV files.
std::optional<double> whole_number(std::string_view s);
// Each kernel's n-th compilation of its name for its architecture, of all in `ks` (occurrence,
// occurrences: the table's "#n"); every reader of AMD artefacts and binaries numbers them here.
void number_occurrences(std::vector<PtxasKernel>& ks);

// A decimal number at the start of s, or "N+M" (sm_1x: declared + system bytes) as their sum when
// `allow_sum`. Saturates instead of overflowing. `used`: characters read.
std::optional<std::int64_t> leading_number(std::string_view s, std::size_t* used = nullptr, bool allow_sum = false);

// The tool tag a line carries, wherever it starts: MSBuild ("1>  "), log timestamps ("2025-03-17
// 11:23:16: I ...cc:346] "), comment markers and indentation come before it.
enum class TagKind : std::uint8_t {
    none,
    info,       // "ptxas info" (also "txas info" when a progress bar took the 'p')
    warning,    // "ptxas warning", "nvlink warning"
    error,      // "ptxas error", "ptxas fatal", "nvlink error", "nvlink fatal"
    link_info,  // "nvlink info", and the JIT linker's "info    :" (cuLink, nvJitLink, numba, CuPy)
};
struct Tag {
    TagKind kind = TagKind::none;
    std::size_t pos = 0;    // where the tag starts
    std::string_view rest;  // after the tag's colon, trimmed
    bool nvlink = false;    // "nvlink ..." rather than the driver's JIT linker
};
Tag find_tag(std::string_view line);

// The first quoted text at or after `from`: 'x', `x', ‘x’, “x”, "x" (typographic quotes appear when
// a log went through a forum or a word processor). `end`: just past the closing quote.
std::optional<std::string_view> quoted(std::string_view s, std::size_t from = 0, std::size_t* end = nullptr);

// The function a warning or note is about: its quoted name, else the word after "entry " or
// "function ". Empty when it names none.
std::string_view named_function(std::string_view message);

// The values one resource line gives ("Used 26 registers, used 1 barriers, 4224 bytes smem, ...",
// the JIT linker's "used 28 registers, 0 stack, 0 bytes smem, ...", cuobjdump's
// "REG:26 STACK:0 SHARED:4224 ..."). Items it does not know are kept in `unread`.
struct Resources {
    std::optional<int> registers, barriers, textures;
    std::optional<std::int64_t> smem, local, cumulative_stack, stack;
    std::vector<std::pair<int, std::int64_t>> cmem;
    std::optional<std::int64_t> gmem;  // cuobjdump "GLOBAL:N" (Common section)
    std::vector<std::string> unread;
};
// Adds what `from` read to `into` (the second half of a wrapped line).
void merge(Resources& into, const Resources& from);
// Each figure a resource line gives, as its Resources member and the PtxasKernel member it sets:
// fn(&Resources::x, &PtxasKernel::y) for every pair (gmem and cmem are not per-figure).
template <typename Fn>
void for_each_figure(Fn&& fn) {
    fn(&Resources::registers, &PtxasKernel::registers);
    fn(&Resources::barriers, &PtxasKernel::barriers);
    fn(&Resources::textures, &PtxasKernel::textures);
    fn(&Resources::smem, &PtxasKernel::smem_static);
    fn(&Resources::local, &PtxasKernel::local);
    fn(&Resources::cumulative_stack, &PtxasKernel::cumulative_stack);
    fn(&Resources::stack, &PtxasKernel::stack_frame);
}
// One comma-separated item of a "Used" line; false when it is not one.
bool read_used_item(std::string_view item, Resources& r);
// The items of a "Used ..." text. Returns the last item when it was not understood and could be the
// first half of a line the terminal or the paste wrapped ("56 bytes cumulative" / "stack size"), or
// "" after a trailing comma; nullopt when the line is complete. Other items not understood go to
// r.unread.
std::optional<std::string> read_used_items(std::string_view text, Resources& r);
// "N bytes stack frame, N bytes spill stores, N bytes spill loads" anywhere in the line (the number is
// the one right before "bytes stack frame", so "1>      296 bytes stack frame" reads 296). False
// when the line has no stack frame figure.
struct StackLine {
    std::optional<std::int64_t> stack_frame, spill_stores, spill_loads;
    std::vector<std::string> unread;
};
bool read_stack_line(std::string_view line, StackLine& s);
// cuobjdump's "REG:26 STACK:0 SHARED:4224 LOCAL:0 CONSTANT[0]:376 TEXTURE:0 SURFACE:0 SAMPLER:0".
bool read_cuobjdump_usage(std::string_view line, Resources& r);
// cuobjdump's header lines ("arch = sm_80", "code version = [1,7]", "producer = <unknown>", ...):
// the key and value, or nullopt.
std::optional<std::pair<std::string_view, std::string_view>> cuobjdump_header(std::string_view line);

}  // namespace occ::io::ptxas_detail
