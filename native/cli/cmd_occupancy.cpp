// cmd_occupancy.cpp — `occ occupancy`.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli.hpp"
#include "occ/io/api.hpp"
#include "occ/io/table.hpp"

namespace occ::cli {
namespace {

struct Options : RequestOptions {
    std::string ptxas;  // --ptxas FILE: see ptxas_table.cpp
};

// One answer of either vendor (io::OccupancyView): its rows, found by id, in the target's words.
void print_human(const io::OccupancyView& v) {
    const bool tty = stdout_is_tty();
    const char* bold = tty ? "\033[1m" : "";
    const char* reset = tty ? "\033[0m" : "";
    const std::vector<io::TableRow>& rows = v.rows;
    std::printf("%s%s%s  %s\n", bold, v.name.c_str(), reset, v.device.c_str());
    std::printf("kernel: %s\n\n", v.kernel.c_str());
    std::printf("  %sOccupancy        %s%s\n", bold, io::row_value(rows, io::RowId::occupancy).c_str(), reset);
    std::printf("  Active per %-5s %s\n", v.per.c_str(), io::row_value(rows, io::RowId::active).c_str());
    // The other result lines in the rows' order: the summary alone, the rest named.
    for (const io::TableRow& row : rows) {
        if (row.id == io::RowId::summary) std::printf("  %s\n", row.value.c_str());
        else if (row.id == io::RowId::effective || row.id == io::RowId::estimate)
            std::printf("  %-16s %s\n", row.key.c_str(), row.value.c_str());
    }
    std::printf("\n");
    // The name column fits the longest row shown ("Virtual resources" only where the kernel declares them).
    int width = 14;
    for (const io::TableRow& row : rows)
        if (row.kind == io::RowKind::limit) width = std::max(width, static_cast<int>(row.key.size()));
    const int count_width = std::max(9, static_cast<int>(v.limit_column.size()));
    std::printf("  %-*s %*s   %s\n", width, "limit", count_width, v.limit_column.c_str(), "how");
    for (const io::TableRow& row : rows)
        if (row.kind == io::RowKind::limit)
            std::printf("  %-*s %*s %s %s\n", width, row.key.c_str(), count_width, row.count.c_str(),
                        row.hit ? (tty ? "\u25c0" : "<") : " ", row.note.c_str());
    std::printf("\n  allocated\n");
    for (const io::TableRow& row : rows)
        if (row.kind == io::RowKind::allocated || row.kind == io::RowKind::waves)
            std::printf("  %-19s %s\n", row.key.c_str(), row.value.c_str());
    bool pool = false;
    for (const io::TableRow& row : rows)
        if (row.kind == io::RowKind::pool) {
            if (!pool) std::printf("\n  register plan (setmaxnreg)\n");
            pool = true;
            std::printf("  %-19s %s\n", row.key.c_str(), row.value.c_str());
        }
    if (!v.sweep_input.empty()) {
        std::printf("\n  sweep of %s (each row holds until the next)\n", v.sweep_input.c_str());
        std::printf("  %12s %9s %9s   %s\n", v.sweep_input.c_str(), "blocks/SM", "occupancy", "limited by");
        for (const auto& [x, blocks, occupancy, limited] : v.sweep)
            std::printf("  %12s %9s %9s   %s\n", x.c_str(), blocks.c_str(), occupancy.c_str(), limited.c_str());
    }
    if (const std::string fix = io::row_value(rows, io::RowId::fix); !fix.empty()) std::printf("\n  %s\n", fix.c_str());
}

}  // namespace

void add_occupancy(CLI::App& app, Outcome& out) {
    auto o = std::make_shared<Options>();
    auto* cmd = add_request_command(app, "occupancy", R"help(
Sizes accept bytes or K/M suffixes: 49152, 48K, 48KiB. Every flag is a JSON field of a
--batch line with '-' turned into '_' (--smem-dynamic = "smem_dynamic"); docs/INPUTS.md
lists each field's range. The device defaults to A100-SXM4-80GB.

Examples:
  occ occupancy --gpu A100 --threads 256 --regs 64
  occ occupancy --gpu h100 --threads 128 --regs 96 --smem-dynamic 100K --optin --json
  occ occupancy --gpu A100 --regs 64 --sweep threads
  occ occupancy --gpu A100 --ptxas build.log        # every kernel of a compiler log
  occ occupancy --gpu MI300X --threads 256 --regs 128 --sgprs 40   # AMD: regs = VGPRs
  occ occupancy --arch gfx1100 --threads 256 --regs 96 --smem-static 32K --cu-mode
  echo '{"gpu":"A100","threads":256,"regs":64}' | occ occupancy --batch
  occ occupancy --batch --fields blocks_per_sm,occupancy,limiters < lines.jsonl

--fields writes only the named answer fields (dotted for nested ones: limits.registers,
input.threads; "error" always stays), the same bytes as the whole answer's; a name the
answer does not have is refused with the list of those it has.)help",
                                    *o);
    cmd->add_option("--ptxas", o->ptxas,
                    "Occupancy of every kernel in an nvcc -Xptxas -v / cuobjdump --dump-resource-usage log (- = stdin)");
    cmd->callback([o, &out] {
        if (!o->ptxas.empty()) {
            out.code = run_ptxas_table(o->ptxas, request_from(o->request), o->as_json);
            return;
        }
        if (o->batch) {
            out.code = run_batch("occupancy", std::cin, std::cout, o->fields);
            return;
        }
        // A launch the model refuses still has an answer (every limit, and why) in its JSON; the
        // table of a refused launch would show zeros, so the human output is the error alone.
        out.code = run_answer(
            o->request, o->as_json, [](const json& r) { return io::occupancy_view(r); }, print_human,
            [](const io::OccupancyView& v) { return v.error; });
    });
}

}  // namespace occ::cli
