// cmd_kernels.cpp — `occ kernels PATH...`: occupancy of every kernel compiled into cubins, fatbins,
// objects, shared libraries and executables, one row per kernel and architecture, printed from the
// typed answer (io::answer_kernels) like `occ occupancy --ptxas`.
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli.hpp"
#include "occ/io/binary.hpp"

namespace occ::cli {
namespace {

struct Options : RequestOptions {
    std::vector<std::string> paths;
};

void print_human(const io::KernelsAnswer& k) {
    const io::PtxasAnswer& a = k.rows;
    int cubins = 0, ptx = 0, code_objects = 0;
    for (const io::BinaryRead& f : k.files) {
        cubins += f.cubins;
        ptx += f.ptx;
        code_objects += f.code_objects;
    }
    int own = 0;  // rows whose artefact fixes the launch (Triton)
    for (const io::PtxasRow& row : a.rows) own += a.log.kernels[row.kernel].launch ? 1 : 0;
    const std::string launch = own == 0 ? std::to_string(a.input.launch.threads) + " threads/block"
                               : own == static_cast<int>(a.rows.size())
                                   ? std::string("each with its Triton launch")
                                   : std::to_string(a.input.launch.threads) + " threads/block (Triton kernels: their own launch)";
    const std::string amd_objects = code_objects ? ", " + std::to_string(code_objects) + " AMD code objects" : "";
    const std::string device = io::rows_device(a);
    std::printf("%zu files (%d cubins, %d PTX%s): %zu rows; %s, %s\n", k.files.size(), cubins, ptx, amd_objects.c_str(), a.rows.size(),
                device.c_str(), launch.c_str());
    print_kernel_table(a);
}

}  // namespace

void add_kernels(CLI::App& app, Outcome& out) {
    auto o = std::make_shared<Options>();
    auto* cmd = add_request_command(app, "kernels", R"help(
Reads the device code nvcc leaves in its outputs, without running anything:
  .cubin               one architecture's machine code (nvcc -cubin)
  .fatbin              several architectures, compressed or not (nvcc -fatbin)
  .o / .so / a.out     the fatbins in .nv_fatbin (and -rdc objects' __nv_relfatbin)
  AMD (HIP)            code objects (.hsaco, .co), clang offload bundles (plain or compressed),
                       and the .hip_fatbin section of objects, libraries and executables
  compiler logs        nvcc -Xptxas -v / cuobjdump --dump-resource-usage output, LLVM's AMDGPU
                       remarks or assembly (the texts occupancy --ptxas reads)
  rocprof-compute      `rocprof-compute analyze` output saved as text (each analysis a row), or a
                       workload's pmc_perf.csv or folder (each dispatch a row, the GPU from its
                       sysinfo.csv): launch stats evaluated by occ, measured figures shown apart
  Triton cache         ~/.triton/cache, one of its <hash> folders, or a kernel's <name>.json:
                       each <name>.cubin (HIP backend: <name>.hsaco) with the launch its metadata
                       fixes (num_warps x warp_size threads, `shared` bytes of dynamic shared
                       memory), whatever --threads says
Each kernel and architecture is a row: registers, static shared memory, stack frame, barriers
and constant bank 0 as the compiler recorded them, then the occupancy at --threads on --gpu
(without a device, each build on its own compute capability). Spill bytes are not recorded in
binaries (null); PTX-only entries are JIT-compiled at load and have no occupancy until then.
docs/ADVANCED.md ("occ kernels") lists which attribute gives which figure.

Examples:
  occ kernels kernels.cubin
  occ kernels build/libmylib.so --gpu H100 --threads 256
  occ kernels app.o app.fatbin --cc 8.6 --json
  occ kernels ~/.triton/cache --gpu H100
  echo '{"files":[{"name":"k.cubin","base64":"..."}],"gpu":"A100"}' | occ kernels --batch)help",
                                    *o);
    cmd->add_option("paths", o->paths, "Cubins, fatbins, objects, shared libraries, executables, compiler logs or Triton cache folders");
    cmd->callback([o, &out] {
        if (o->batch) {
            out.code = run_batch("kernels", std::cin, std::cout, o->fields);
            return;
        }
        if (o->paths.empty()) {
            out.code = print_error("kernels: give one or more files (a .cubin, .fatbin, .o, .so, executable or Triton cache folder)",
                                   o->as_json);
            return;
        }
        const Result<json> req = request_from(o->request);
        if (!req) {
            out.code = print_error(req.error, o->as_json);
            return;
        }
        std::vector<io::BinaryRead> files;
        for (const std::string& p : o->paths) files.push_back(io::read_binary_file(p));
        const Result<io::KernelsAnswer> a = io::answer_kernels(*req, std::move(files));
        if (!a) {
            out.code = print_error(a.error, o->as_json);
            return;
        }
        const std::string& err = a->rows.error;
        if (o->as_json) print_json(io::to_json(*a));
        else {
            if (!a->rows.rows.empty()) print_human(*a);
            if (!err.empty()) std::cerr << "error: " << err << '\n';
        }
        out.code = err.empty() ? kExitOk : kExitUsage;
    });
}

}  // namespace occ::cli
