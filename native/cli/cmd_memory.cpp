// cmd_memory.cpp — `occ memory FILE`: every global and shared access of a kernel's PTX, run warp by
// warp and costed per instruction and source line (io::answer_ptx_memory), printed from the typed
// answer's table (io::memory_table). FILE is a .ptx, a Triton cache entry (<name>.json with its
// <name>.ptx beside it, or the <hash> folder), or - for stdin.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli.hpp"
#include "occ/io/binary.hpp"
#include "occ/io/ptx_memory.hpp"
#include "occ/text.hpp"

namespace occ::cli {
namespace {

namespace fs = std::filesystem;

struct Options : RequestOptions {
    std::string file;
    std::vector<std::string> params;  // --param NAME=VALUE, repeatable
};

Result<std::string> slurp(const std::string& path) {
    std::stringstream ss;
    if (path == "-") {
        ss << std::cin.rdbuf();
        return Result<std::string>::ok(ss.str());
    }
    std::ifstream f(path, std::ios::binary);
    if (!f) return Result<std::string>::fail("FILE: cannot read \"" + path + "\"");
    ss << f.rdbuf();
    return Result<std::string>::ok(ss.str());
}

// What FILE gives the request: "ptx", and "triton" (the metadata) for a Triton cache entry.
Result<json> read_input(const std::string& path, const std::string& kernel) {
    std::error_code ec;
    fs::path p(path);
    if (path != "-" && fs::is_directory(p, ec)) {
        // A Triton <hash> folder: the <name>.json files with a <name>.ptx beside them.
        std::vector<fs::path> metas;
        for (fs::directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec)) {
            const fs::path& q = it->path();
            fs::path ptx = q;
            ptx.replace_extension(".ptx");
            if (q.extension() == ".json" && q.filename().string().rfind("__grp__", 0) != 0 && fs::is_regular_file(ptx, ec))
                metas.push_back(q);
        }
        std::sort(metas.begin(), metas.end());
        if (metas.empty())
            return Result<json>::fail("FILE: no <name>.json with a <name>.ptx beside it in \"" + path +
                                      "\" (give a .ptx, or a Triton cache entry: ~/.triton/cache/<hash>/)");
        if (metas.size() > 1) {
            std::string names;
            for (const fs::path& m : metas) {
                if (m.stem().string() == kernel) {
                    metas = {m};
                    break;
                }
                join_into(names, ", ", m.stem().string());
            }
            if (metas.size() > 1)
                return Result<json>::fail("FILE: several Triton kernels in \"" + path + "\"; name one with --kernel: " + names);
        }
        p = metas.front();
    }
    if (p.extension() == ".json") {
        const Result<std::string> meta = slurp(p.string());
        if (!meta) return Result<json>::fail(meta.error);
        fs::path ptx = p;
        ptx.replace_extension(".ptx");
        const Result<std::string> text = slurp(ptx.string());
        if (!text)
            return Result<json>::fail("FILE: " + p.string() + " is Triton metadata, but its " + ptx.filename().string() +
                                      " cannot be read");
        return Result<json>::ok(json{{"ptx", *text}, {"triton", *meta}});
    }
    const Result<std::string> text = slurp(path);
    if (!text) return Result<json>::fail(text.error);
    const auto* head = reinterpret_cast<const unsigned char*>(text->data());
    if (io::looks_binary({head, std::min<std::size_t>(text->size(), 64)})) {
        // A cubin, fatbin, object or library: the PTX entries of its fatbins (nvcc -gencode ...,code=compute_XX).
        const io::BinaryRead r = io::read_binary_file(path, /*keep_ptx=*/true);
        if (!r.error.empty()) return Result<json>::fail("FILE: " + r.error);
        const io::BinaryRead::PtxText* pick = nullptr;
        for (const auto& t : r.ptx_texts)
            if (kernel.empty() || t.text.find(kernel) != std::string::npos) pick = &t;  // the last: the newest architecture
        if (!pick)
            return Result<json>::fail(
                "FILE: \"" + path + "\" " +
                (r.ptx_texts.empty()
                     ? std::string("holds no PTX, only machine code: build with -gencode arch=compute_XX,code=compute_XX to "
                                   "embed it, or give the .ptx (nvcc -ptx -lineinfo)")
                     : "has no PTX entry with kernel \"" + kernel + "\""));
        std::fprintf(stderr, "note: %s, %s\n", path.c_str(), pick->entry.c_str());
        return Result<json>::ok(json{{"ptx", pick->text}});
    }
    return Result<json>::ok(json{{"ptx", *text}});
}

void print_human(const io::PtxMemoryAnswer& a) {
    const std::vector<io::MemoryTableRow> rows = io::memory_table(a);
    const std::vector<std::string> summary = io::memory_summary(a);
    if (!summary.empty()) std::printf("%s\n", summary.front().c_str());
    std::size_t w[5] = {0, 0, 0, 0, 0};
    for (const auto& r : rows) {
        w[0] = std::max(w[0], r.where.size());
        w[1] = std::max(w[1], r.instruction.size());
        w[2] = std::max(w[2], r.executions.size());
        w[3] = std::max(w[3], r.sectors.size());
        w[4] = std::max(w[4], r.wavefronts.size());
    }
    for (const auto& r : rows)
        std::printf("%-*s  %-*s  %*s  %-*s  %-*s  %s\n", static_cast<int>(w[0]), r.where.c_str(), static_cast<int>(w[1]),
                    r.instruction.c_str(), static_cast<int>(w[2]), r.executions.c_str(), static_cast<int>(w[3]), r.sectors.c_str(),
                    static_cast<int>(w[4]), r.wavefronts.c_str(), r.fix.c_str());
    if (rows.size() == 1) std::printf("(no global or shared memory instruction in %s)\n", a.entry.c_str());
    for (std::size_t i = 1; i < summary.size(); ++i) std::printf("%s\n", summary[i].c_str());
}

}  // namespace

void add_memory(CLI::App& app, Outcome& out) {
    auto o = std::make_shared<Options>();
    auto* cmd = add_request_command(app, "memory", R"help(
Reads a kernel's PTX, runs the chosen warps of one block lane by lane over the integer, predicate
and address instructions, and costs every global and shared access with the same models as
`occ coalesce` and `occ banks`: sectors per request against the ideal, bank wavefronts and
conflicts, per PTX instruction and per source line (compile with -lineinfo for file:line).
Worst first; the fix column is the model's own sentence for that access's addresses.

FILE: a .ptx (nvcc -ptx -lineinfo k.cu), a Triton cache entry (~/.triton/cache/<hash>/, or its
<name>.json: the block is num_warps x 32 and the kernel its name), or - for stdin.

What it assumes (docs/MEMORY.md, "Reading a kernel's PTX"):
  pointer parameters not given point at 256-byte-aligned buffers (as cudaMalloc returns);
  other parameters not given are unknown, and so is every access that depends on them;
  a value loaded from memory is unknown: an address built from it is a gather, never guessed;
  loops run until one instruction has run --max-visits times in a warp (the warp then stops);
  .shared variables are placed in declaration order at their alignment.
PTX keeps no C parameter names: --param takes the position (0-based) or the .param name.

Examples:
  nvcc -ptx -lineinfo -arch=sm_90 kernels.cu -o kernels.ptx
  occ memory kernels.ptx --kernel transpose_naive --block 32,32 --grid 4,4 --param 2=128
  occ memory kernels.ptx --kernel copy_f32 --block 256 --param 2=4096 --gpu H100 --json
  occ memory ~/.triton/cache/<hash>/ --warps all
  echo '{"ptx": "...", "kernel": "copy_f32", "params": {"2": 4096}}' | occ memory --batch)help",
                                    *o);
    cmd->add_option("file", o->file, "A .ptx, a Triton cache entry (folder or <name>.json), or - for stdin");
    cmd->add_option("--param", o->params,
                    "A kernel argument, NAME=VALUE (repeatable): NAME is the 0-based position or the .param name, e.g. "
                    "--param 2=4096 [pointers: symbolic 256-byte-aligned buffers; others unknown]")
        ->type_name("NAME=VALUE")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd->callback([o, &out] {
        if (o->batch) {
            out.code = run_batch("memory", std::cin, std::cout, o->fields);
            return;
        }
        if (o->file.empty()) {
            out.code = print_error("FILE: give a .ptx file, a Triton cache entry or - for stdin (occ memory --help has examples)",
                                   o->as_json);
            return;
        }
        Result<json> req = request_from(o->request);
        if (!req) {
            out.code = print_error(req.error, o->as_json);
            return;
        }
        const std::string kernel = req->contains("kernel") ? (*req)["kernel"].get<std::string>() : std::string();
        const Result<json> in = read_input(o->file, kernel);
        if (!in) {
            out.code = print_error(in.error, o->as_json);
            return;
        }
        for (const auto& [k, v] : in->items()) (*req)[k] = v;
        if (!o->params.empty()) (*req)["params"] = o->params;
        const Result<io::PtxMemoryAnswer> a = io::answer_ptx_memory(*req);
        out.code = emit(
            a, o->as_json, [](const io::PtxMemoryAnswer& x) { return io::to_json(x); }, print_human);
    });
}

}  // namespace occ::cli
