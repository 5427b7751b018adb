// main.cpp — `occ`: the command-line face of occ::core.
#include <iostream>

#include "cli.hpp"

int main(int argc, char** argv) {
    CLI::App app{
        "occ — CUDA occupancy and memory-coalescing calculator.\n"
        "Predicts how many blocks of a kernel fit on one SM and why, the same way NVIDIA's occupancy\n"
        "calculator does, for compute capability 3.5 through 12.1.\n\n"
        "Examples:\n"
        "  occ occupancy --gpu A100 --threads 256 --regs 64\n"
        "  occ occupancy --gpu h100 --threads 128 --regs 96 --smem-dynamic 100K --optin --json\n"
        "  occ kernels build/app.so --gpu H100 --threads 256\n"
        "  echo '{\"gpu\":\"A100\",\"threads\":256,\"regs\":64}' | occ occupancy --batch\n"
        "  occ gpus",
        "occ"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "occ 0.1.0");
    app.fallthrough(false);
    occ::cli::Outcome outcome;
    occ::cli::add_occupancy(app, outcome);
    occ::cli::add_gpus(app, outcome);
    occ::cli::add_coalesce(app, outcome);
    occ::cli::add_banks(app, outcome);
    occ::cli::add_validation(app, outcome);
    occ::cli::add_roofline(app, outcome);
    occ::cli::add_advise(app, outcome);
    occ::cli::add_ncu(app, outcome);
    occ::cli::add_kernels(app, outcome);
    occ::cli::add_check(app, outcome);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);  // prints the message and the usage hint
        return occ::cli::kExitUsage;
    }
    return outcome.code;
}
