// check_budget.cpp — the budget file of `occ check` (occ/io/check.hpp): TOML, read with toml++
// (Debian's libtomlplusplus-dev, header-only). TOML: comments, no indentation traps, and one obvious
// syntax for a list of tables of rules ([[rule]]); docs/CHECK.md shows the format.
#include <array>
#include <fstream>
#include <sstream>

#ifdef OCC_HAVE_TOMLPP
#define TOML_HEADER_ONLY 1
#define TOML_EXCEPTIONS 1
#include <toml++/toml.h>
#endif

#include "occ/io/check.hpp"
#include "occ/io/schema_ptx.hpp"

namespace occ::io {
#ifdef OCC_HAVE_TOMLPP
namespace {

// TOML: comments, no indentation traps, and one obvious syntax for a list of tables of rules
// ([[rule]]); docs/CHECK.md shows the format.
std::string at(const std::string& file, const toml::source_region& src) { return file + ":" + std::to_string(src.begin.line); }

}  // namespace

Result<Budget> parse_budget(std::string_view text, const std::string& path) {
    Budget b;
    b.file = path;
    // ASCII only: Debian's toml++ 3.x reaches __builtin_unreachable on some non-ASCII whitespace
    // (fuzz finding, tests/fuzz/crashes/budget/), and kernel patterns and GPU names are ASCII anyway.
    int line = 1;
    for (const char ch : text) {
        if (ch == '\n') ++line;
        if (static_cast<unsigned char>(ch) >= 0x80)
            return Result<Budget>::fail(path + ":" + std::to_string(line) +
                                        ": a non-ASCII byte: budget files are ASCII (kernel patterns, GPU names and comments)");
    }
    toml::table doc;
    try {
        doc = toml::parse(text, path);
    } catch (const toml::parse_error& e) {
        std::ostringstream os;
        os << path << ":" << e.source().begin.line << ":" << e.source().begin.column << ": " << e.description();
        return Result<Budget>::fail(os.str());
    }
    std::string error;
    const auto bad = [&](const std::string& where, const std::string& what) {
        if (error.empty()) error = where + ": " + what;
    };
    const auto integer = [&](const toml::node& n, const std::string& key, const std::string& where, std::int64_t lo,
                             std::int64_t hi) -> std::optional<std::int64_t> {
        const auto v = n.value_exact<std::int64_t>();
        if (!v || *v < lo || *v > hi) {
            bad(where, "\"" + key + "\" must be an integer " + std::to_string(lo) + ".." + std::to_string(hi));
            return std::nullopt;
        }
        return *v;
    };
    const auto string = [&](const toml::node& n, const std::string& key, const std::string& where) -> std::optional<std::string> {
        const auto v = n.value_exact<std::string>();
        if (!v) bad(where, "\"" + key + "\" must be a string");
        return v;
    };
    const auto number = [&](const toml::node& n, const std::string& key, const std::string& where, double lo, double hi,
                            const char* meaning) -> std::optional<double> {
        const auto v = n.value<double>();  // 1.5 or 2 (an integer is accepted)
        if (!v || !(*v >= lo && *v <= hi)) {
            std::ostringstream os;
            os << "\"" << key << "\" must be a number " << lo << ".." << hi << " (" << meaning << ")";
            bad(where, os.str());
            return std::nullopt;
        }
        return *v;
    };
    // block = [256, 1, 1] (or [256], or 256); grid the same: the memory checks' launch, in the
    // ranges of the memory request's own fields (schema_ptx.hpp: blockDim and gridDim limits).
    const auto dims = [&](const toml::node& n, const std::string& key, const std::string& where,
                          const FieldSpec& spec) -> std::optional<std::array<int, 3>> {
        std::array<int, 3> d{1, 1, 1};
        const std::string what = "\"" + key + "\" must be [x], [x, y] or [x, y, z] (or x), " + std::string(spec.doc_range);
        const toml::array* a = n.as_array();
        const std::size_t count = a ? a->size() : 1;
        if ((a && (a->empty() || a->size() > 3)) || (!a && !n.is_integer())) return bad(where, what), std::nullopt;
        for (std::size_t i = 0; i < count; ++i) {
            const auto v = (a ? (*a)[i] : n).value_exact<std::int64_t>();
            if (!v || *v < spec.lo || *v > spec.hi) return bad(where, what), std::nullopt;
            d[i] = static_cast<int>(*v);
        }
        const bool block = spec.key == fields::ptx_block.key;
        if (block ? (d[2] > 64 || std::int64_t{d[0]} * d[1] * d[2] > 1024) : (d[1] > 65535 || d[2] > 65535))
            return bad(where, what), std::nullopt;
        return d;
    };
    // params = {n = 4096, 2 = 128}: the kernel's arguments by .param name or 0-based position.
    const auto params = [&](const toml::node& n, const std::string& where, std::vector<std::pair<std::string, std::int64_t>>& out) {
        const toml::table* t = n.as_table();
        if (!t) return bad(where, "\"params\" must be a table of integers: params = {n = 4096} (a .param name or 0-based position)");
        for (const auto& [pk, pv] : *t) {
            const auto v = pv.value_exact<std::int64_t>();
            if (!v) return bad(at(path, pv.source()), "\"params." + std::string(pk.str()) + "\" must be an integer");
            out.emplace_back(std::string(pk.str()), *v);
        }
    };
    for (const auto& [k, node] : doc) {
        const std::string key(k.str());
        const std::string where = at(path, node.source());
        if (key == "gpu") b.gpu = string(node, key, where);
        else if (key == "threads") {
            if (auto v = integer(node, key, where, 1, 1024)) b.threads = static_cast<int>(*v);
        } else if (key == "block") b.block = dims(node, key, where, fields::ptx_block);
        else if (key == "grid") b.grid = dims(node, key, where, fields::ptx_grid);
        else if (key == "params") params(node, where, b.params);
        else if (key == "rule") {
            const toml::array* rules = node.as_array();
            if (!rules) {
                bad(where, "\"rule\" must be an array of tables: write each rule under [[rule]]");
                continue;
            }
            for (const toml::node& rn : *rules) {
                const toml::table* t = rn.as_table();
                const std::string rwhere = at(path, rn.source());
                if (!t) {
                    bad(rwhere, "each rule must be a table ([[rule]])");
                    continue;
                }
                BudgetRule r;
                r.line = static_cast<int>(rn.source().begin.line);
                bool kernels_given = false, limit_given = false;
                for (const auto& [rk, rv] : *t) {
                    const std::string key2(rk.str());
                    const std::string w = at(path, rv.source());
                    if (key2 == "kernels") {
                        kernels_given = true;
                        if (auto s = string(rv, key2, w)) r.kernels = *s;
                    } else if (key2 == "gpu") r.gpu = string(rv, key2, w);
                    else if (key2 == "threads") {
                        if (auto v = integer(rv, key2, w, 1, 1024)) r.threads = static_cast<int>(*v);
                    } else if (key2 == "max_registers") {
                        limit_given = true;
                        if (auto v = integer(rv, key2, w, 0, 255)) r.max_registers = static_cast<int>(*v);
                    } else if (key2 == "max_spill_bytes") {
                        limit_given = true;
                        r.max_spill_bytes = integer(rv, key2, w, 0, std::int64_t{1} << 40);
                    } else if (key2 == "max_stack") {
                        limit_given = true;
                        r.max_stack = integer(rv, key2, w, 0, std::int64_t{1} << 40);
                    } else if (key2 == "max_smem") {
                        limit_given = true;
                        r.max_smem = integer(rv, key2, w, 0, std::int64_t{1} << 40);
                    } else if (key2 == "min_blocks_per_sm") {
                        limit_given = true;
                        if (auto v = integer(rv, key2, w, 1, 64)) r.min_blocks_per_sm = static_cast<int>(*v);
                    } else if (key2 == "min_occupancy") {
                        limit_given = true;
                        const auto v = rv.value<double>();  // 0.5 or 1 (an integer is accepted)
                        if (!v || *v < 0 || *v > 1) bad(w, "\"min_occupancy\" must be a number 0..1 (0.5 = half the SM's warps)");
                        else r.min_occupancy = *v;
                    } else if (key2 == "block") r.block = dims(rv, key2, w, fields::ptx_block);
                    else if (key2 == "grid") r.grid = dims(rv, key2, w, fields::ptx_grid);
                    else if (key2 == "params") params(rv, w, r.params);
                    else if (key2 == "max_sectors_per_request_ratio") {
                        limit_given = true;
                        r.max_sectors_per_request_ratio = number(
                            rv, key2, w, 1, 32, "the worst global access's sectors per request over its ideal; 1 = coalesced");
                    } else if (key2 == "max_bank_conflicts_per_request") {
                        limit_given = true;
                        r.max_bank_conflicts_per_request = number(rv, key2, w, 0, 1024,
                                                                  "the worst shared access's bank conflicts per request; 0 = none");
                    } else if (key2 == "max_uncoalesced_accesses") {
                        limit_given = true;
                        if (auto v = integer(rv, key2, w, 0, 1000000)) r.max_uncoalesced_accesses = static_cast<int>(*v);
                    } else {
                        bad(w, "unknown key \"" + key2 +
                                   "\" in a rule (known: kernels, gpu, threads, block, grid, params, max_registers, max_spill_bytes, "
                                   "max_stack, max_smem, min_occupancy, min_blocks_per_sm, max_sectors_per_request_ratio, "
                                   "max_bank_conflicts_per_request, max_uncoalesced_accesses)");
                    }
                }
                if (!kernels_given) bad(rwhere, "a rule needs \"kernels\" (a name pattern such as \"matmul_*\" or \"*\")");
                if (!limit_given) bad(rwhere, "a rule needs at least one limit (max_registers, max_spill_bytes, ...)");
                b.rules.push_back(std::move(r));
            }
        } else {
            bad(where, "unknown key \"" + key + "\" (known: gpu, threads, block, grid, params, and [[rule]] tables)");
        }
    }
    if (error.empty() && b.rules.empty()) error = path + ": no rules: add a [[rule]] table (docs/CHECK.md)";
    if (!error.empty()) return Result<Budget>::fail(error);
    return Result<Budget>::ok(std::move(b));
}
#else
Result<Budget> parse_budget(std::string_view, const std::string& path) {
    return Result<Budget>::fail(path + ": this occ was built without toml++ (Debian's libtomlplusplus-dev): budget files cannot be read");
}
#endif

Result<Budget> read_budget(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Result<Budget>::fail(path + ": cannot open the budget file");
    std::ostringstream text;
    text << in.rdbuf();
    return parse_budget(text.str(), path);
}

}  // namespace occ::io
