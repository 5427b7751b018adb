// main.cpp — `occ`: the command-line face of occ::core.
#include <iostream>
#include <string>

#include "cli.hpp"
#include "occ/names.hpp"

namespace {

// What a typo meant, for the parse errors CLI11 words without it: a subcommand that does not exist
// ("A subcommand is required") or a flag the subcommand lacks ("arguments were not expected").
std::string typo_hint(CLI::App& app, int argc, char** argv) {
    CLI::App* sub = nullptr;
    int i = 1;
    for (; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.empty() || a[0] == '-') continue;
        for (CLI::App* s : app.get_subcommands([](CLI::App*) { return true; }))
            if (s->get_name() == a) sub = s;
        if (sub) break;
        occ::Closest closest(a, /*swaps=*/true, /*prefix_bonus=*/true);
        for (CLI::App* s : app.get_subcommands([](CLI::App*) { return true; })) closest.offer(s->get_name());
        const std::string best = closest.best();
        return "unknown command \"" + a + "\"" + (best.empty() ? "" : "; did you mean \"occ " + best + "\"?") +
               " (occ --help lists the commands)";
    }
    if (!sub) return {};
    for (++i; i < argc; ++i) {
        std::string a = argv[i];
        if (a.rfind("--", 0) != 0 || a.size() < 3) continue;
        if (const auto eq = a.find('='); eq != std::string::npos) a.resize(eq);
        const std::string name = a.substr(2);
        bool known = false;
        occ::Closest closest(name, /*swaps=*/true, /*prefix_bonus=*/true);
        for (const CLI::Option* o : sub->get_options()) {
            for (const std::string& l : o->get_lnames()) {
                known |= l == name;
                closest.offer(l);
            }
        }
        if (known) continue;
        const std::string best = closest.best();
        return "unknown flag \"" + a + "\" for occ " + sub->get_name() + (best.empty() ? "" : "; did you mean \"--" + best + "\"?") +
               " (occ " + sub->get_name() + " --help lists its flags)";
    }
    return {};
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{
        "occ — CUDA occupancy and memory-coalescing calculator.\n"
        "Predicts how many blocks of a kernel fit on one SM and why, the same way NVIDIA's occupancy\n"
        "calculator does, for compute capability 3.5 through 12.1.\n\n"
        "Examples:\n"
        "  occ occupancy --gpu A100 --threads 256 --regs 64\n"
        "  occ occupancy --gpu h100 --threads 128 --regs 96 --smem-dynamic 100K --optin --json\n"
        "  occ kernels build/app.so --gpu H100 --threads 256\n"
        "  occ memory kernels.ptx --kernel transpose_naive --block 32,32 --param 2=1024\n"
        "  echo '{\"gpu\":\"A100\",\"threads\":256,\"regs\":64}' | occ occupancy --batch\n"
        "  occ gpus\n"
        "  occ mcp    (a Model Context Protocol server on stdio: docs/MCP.md)",
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
    occ::cli::add_memory(app, outcome);
    occ::cli::add_mcp(app, outcome);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        if (const std::string hint = typo_hint(app, argc, argv); !hint.empty()) std::cerr << "error: " << hint << '\n';
        else app.exit(e);  // prints the message and the usage hint
        return occ::cli::kExitUsage;
    }
    return outcome.code;
}
