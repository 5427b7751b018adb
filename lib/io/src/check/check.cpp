// check.cpp — `occ check` (occ/io/check.hpp): budgets applied to the kernel rows of artefacts, and
// the comparison of two builds. The rows are evaluated by the "kernels" kind (binary_request.cpp),
// so a Triton kernel is checked at its own launch and a fatbin at the build the GPU loads.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "occ/io/check.hpp"
#include "occ/io/utf8.hpp"

namespace occ::io {
namespace {

// Kernel rows of one evaluation, each with the artefact it came from.
struct Rows {
    KernelsAnswer answer;
    std::vector<std::string> file_of;  // per log.kernels index
};

std::string pct(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f%%", v * 100.0);
    return b;
}

Result<Rows> evaluate(const std::vector<CheckInput>& inputs, const std::optional<std::string>& gpu, int threads) {
    json req{{"threads", threads}};
    if (gpu) req["gpu"] = *gpu;
    std::vector<BinaryRead> files;
    Rows rows;
    for (const CheckInput& in : inputs) {
        for (std::size_t i = 0; i < in.read.kernels.size(); ++i) rows.file_of.push_back(in.path);
        files.push_back(in.read);
    }
    Result<KernelsAnswer> a = answer_kernels(req, std::move(files));
    if (!a) return Result<Rows>::fail(a.error);
    rows.answer = std::move(*a.value);
    return Result<Rows>::ok(std::move(rows));
}

std::optional<std::int64_t> spill_bytes(const PtxasKernel& k) {
    if (!k.spill_stores || !k.spill_loads) return std::nullopt;
    return *k.spill_stores + *k.spill_loads;
}

std::optional<std::int64_t> smem_bytes(const PtxasKernel& k) {
    if (!k.smem_static) return std::nullopt;
    return *k.smem_static + (k.launch ? k.launch->smem_dynamic : 0);
}

CheckResult base_result(const Rows& rows, const PtxasRow& row, std::string check) {
    const PtxasKernel& k = rows.answer.rows.log.kernels[row.kernel];
    CheckResult r;
    r.check = std::move(check);
    r.kernel = k.name.empty() ? k.mangled : k.name;
    r.mangled = k.mangled;
    r.arch = k.arch;
    r.file = k.source_file.empty() ? rows.file_of[row.kernel] : k.source_file;
    r.entry = k.source_entry;
    return r;
}

// The name without "void " and the parameter list: "gemm<float, 128>" for "void gemm<float, 128>(float*)".
std::string short_name(const std::string& name) {
    std::string s = name;
    if (s.rfind("void ", 0) == 0) s = s.substr(5);
    int depth = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '<') ++depth;
        else if (s[i] == '>') --depth;
        else if (s[i] == '(' && depth == 0 && i > 0) return s.substr(0, i);
    }
    return s;
}

bool matches(const std::string& pattern, const PtxasKernel& k) {
    return glob_match(pattern, k.mangled) || glob_match(pattern, k.name) || glob_match(pattern, short_name(k.name));
}

void count(CheckReport& rep) {
    for (const CheckResult& r : rep.results) {
        if (r.verdict == Verdict::pass) ++rep.passed;
        else if (r.verdict == Verdict::fail) ++rep.failed;
        else ++rep.unknown;
    }
}

std::string unreadable(const std::vector<CheckInput>& inputs) {
    for (const CheckInput& in : inputs)
        if (!in.read.error.empty()) return in.read.error;
    return {};
}

// A "max" check: fail when the value is above the limit; unknown when the artefact lacks it.
void add_max(CheckReport& rep, CheckResult r, std::optional<std::int64_t> value, std::int64_t limit, const char* what, const char* unit,
             const std::string& why_unknown) {
    r.limit = static_cast<double>(limit);
    if (!value) {
        r.verdict = Verdict::unknown;
        r.message = std::string(what) + " unknown (" + why_unknown + "); budget at most " + std::to_string(limit) + unit;
    } else {
        r.value = static_cast<double>(*value);
        r.verdict = *value <= limit ? Verdict::pass : Verdict::fail;
        r.message = std::string(what) + " " + std::to_string(*value) + unit + (r.verdict == Verdict::pass ? " within" : " over") +
                    " the budget of " + std::to_string(limit) + unit;
    }
    rep.results.push_back(std::move(r));
}

// A compiler log given with the binary it built (docs/CHECK.md) describes the same kernels. Each
// log record that matches a binary's row (same mangled name, architecture and occurrence) fills in
// what the binary does not record (spills above all) and is then dropped, so each kernel is checked
// once; a figure both hold and that differs is said on the row (not the same build?). Log records
// no binary holds stay rows of their own.
void merge_logs(std::vector<CheckInput>& inputs) {
    using Key = std::tuple<std::string, std::string, int>;
    std::map<Key, std::vector<PtxasKernel*>> in_binaries;
    for (CheckInput& in : inputs)
        if (!in.log)
            for (PtxasKernel& k : in.read.kernels) in_binaries[{k.mangled, k.arch, k.occurrence}].push_back(&k);
    if (in_binaries.empty()) return;
    for (CheckInput& in : inputs) {
        if (!in.log) continue;
        std::vector<PtxasKernel> kept;
        for (PtxasKernel& k : in.read.kernels) {
            const auto it = in_binaries.find({k.mangled, k.arch, k.occurrence});
            if (it == in_binaries.end()) {
                kept.push_back(std::move(k));
                continue;
            }
            for (PtxasKernel* b : it->second) {
                const std::string where = in.path + ":" + std::to_string(k.line);
                const auto take = [&](auto& mine, const auto& logs, const char* what) {
                    if (!logs) return;
                    if (!mine) mine = logs;
                    else if (*mine != *logs)
                        b->diagnostics.push_back(std::string(what) + ": the binary says " + std::to_string(*mine) + ", the log (" + where +
                                                 ") " + std::to_string(*logs) + " (not the same build?)");
                };
                take(b->registers, k.registers, "registers");
                take(b->smem_static, k.smem_static, "static shared memory");
                take(b->barriers, k.barriers, "barriers");
                take(b->stack_frame, k.stack_frame, "stack frame");
                take(b->spill_stores, k.spill_stores, "spill stores");
                take(b->spill_loads, k.spill_loads, "spill loads");
                take(b->cumulative_stack, k.cumulative_stack, "cumulative stack");
                take(b->local, k.local, "local memory");
                take(b->textures, k.textures, "textures");
                if (b->cmem.empty()) b->cmem = k.cmem;
                for (const std::string& d : k.diagnostics) b->diagnostics.push_back(d);
            }
        }
        in.read.kernels = std::move(kept);
    }
}

std::string artefact_word(const PtxasKernel& k) { return k.source_file.empty() ? "the log" : "the binary"; }

}  // namespace

const char* verdict_name(Verdict v) { return v == Verdict::pass ? "pass" : v == Verdict::fail ? "fail" : "unknown"; }

const std::vector<CheckKind>& check_kinds() {
    static const std::vector<CheckKind> kinds = {
        {"max_registers", "Registers per thread within budget",
         "More registers per thread means fewer resident warps; cap them with __launch_bounds__ or -maxrregcount."},
        {"max_spill_bytes", "Spill stores + loads within budget",
         "Spilled registers go to local memory (cached in L1/L2): slower than registers. Raise the register cap or shrink live state."},
        {"max_stack", "Stack frame within budget", "A stack frame lives in local memory: calls, recursion, or arrays indexed at run time."},
        {"max_smem", "Shared memory per block within budget", "Shared memory per block bounds how many blocks fit on an SM."},
        {"min_occupancy", "Occupancy at least the budget", "Too few resident warps leave latency exposed."},
        {"min_blocks_per_sm", "Blocks per SM at least the budget", "Fewer resident blocks than planned changes waves and latency hiding."},
        {"max_sectors_per_request_ratio", "Global accesses coalesced within budget",
         "Sectors per request above the ideal move more bytes than the warp uses: make consecutive lanes read consecutive addresses "
         "(occ memory shows each access)."},
        {"max_bank_conflicts_per_request", "Shared memory bank conflicts within budget",
         "Lanes of a warp on the same bank, different words, serialise the access: pad the array or swizzle the index (occ memory)."},
        {"max_uncoalesced_accesses", "Uncoalesced global accesses within budget",
         "Each global access above its ideal sectors per request wastes bandwidth (occ memory lists them worst first)."},
        {"registers_up", "Registers per thread did not grow", "The head build uses more registers than the base build."},
        {"spills_appear", "Spills did not appear or grow", "The head build spills more bytes than the base build."},
        {"occupancy_down", "Occupancy did not drop", "The head build reaches lower occupancy than the base build."},
    };
    return kinds;
}

bool glob_match(std::string_view p, std::string_view s) {
    std::size_t pi = 0, si = 0, star = std::string_view::npos, mark = 0;
    const auto one = [&](std::size_t& i, char c) -> std::optional<bool> {  // matches p[i..] against c; advances i
        if (p[i] == '?') {
            ++i;
            return true;
        }
        if (p[i] == '[') {
            const std::size_t close = p.find(']', i + 2);
            if (close == std::string_view::npos) return std::nullopt;  // a literal '['
            bool neg = p[i + 1] == '!' || p[i + 1] == '^', hit = false;
            for (std::size_t j = i + 1 + (neg ? 1 : 0); j < close; ++j) {
                if (j + 2 < close && p[j + 1] == '-') {
                    hit = hit || (c >= p[j] && c <= p[j + 2]);
                    j += 2;
                } else hit = hit || c == p[j];
            }
            i = close + 1;
            return hit != neg;
        }
        return std::nullopt;
    };
    while (si < s.size()) {
        if (pi < p.size() && p[pi] == '*') {
            star = pi++;
            mark = si;
            continue;
        }
        if (pi < p.size()) {
            std::size_t next = pi;
            const std::optional<bool> m = one(next, s[si]);
            const bool ok = m ? *m : p[pi] == s[si];
            if (ok) {
                pi = m ? next : pi + 1;
                ++si;
                continue;
            }
        }
        if (star == std::string_view::npos) return false;
        pi = star + 1;
        si = ++mark;
    }
    while (pi < p.size() && p[pi] == '*') ++pi;
    return pi == p.size();
}

CheckInput read_check_input(const std::string& path) {
    CheckInput in{path, read_binary_file(path, /*keep_ptx=*/true)};  // PTX for the memory checks
    if (in.read.not_binary && read_ptx_check_input(path, in.read)) return in;
    in.log = in.read.text_log && in.read.text_log->compiler_log;
    if (in.read.not_binary)
        in.read.error = path +
                        ": neither a binary occ kernels reads nor a compiler log (no \"Used N registers\" lines from nvcc -Xptxas -v)";
    return in;
}

Result<CheckReport> check_budget(const Budget& budget, std::vector<CheckInput> inputs) {
    CheckReport rep;
    rep.mode = "budget";
    for (const CheckInput& in : inputs) rep.inputs.push_back(in.path);
    if (const std::string e = unreadable(inputs); !e.empty()) return Result<CheckReport>::fail(e);
    merge_logs(inputs);
    std::map<std::pair<std::string, int>, Rows> evaluated;
    std::vector<std::string> seen_kernels;
    for (const BudgetRule& rule : budget.rules) {
        const std::optional<std::string> gpu = rule.gpu ? rule.gpu : budget.gpu;
        const int threads = rule.threads.value_or(budget.threads.value_or(256));
        const auto key = std::make_pair(gpu.value_or(""), threads);
        auto it = evaluated.find(key);
        if (it == evaluated.end()) {
            Result<Rows> rows = evaluate(inputs, gpu, threads);
            if (!rows) {
                const std::string at = budget.file.empty() ? "" : budget.file + ":" + std::to_string(rule.line) + ": ";
                return Result<CheckReport>::fail(at + rows.error);
            }
            it = evaluated.emplace(key, std::move(*rows.value)).first;
        }
        const Rows& rows = it->second;
        const std::vector<PtxasKernel>& ks = rows.answer.rows.log.kernels;
        int matched = 0;
        for (const PtxasRow& row : rows.answer.rows.rows) {
            const PtxasKernel& k = ks[row.kernel];
            if (!matches(rule.kernels, k)) continue;
            ++matched;
            const std::string id = k.mangled + " " + k.arch + " " + std::to_string(k.occurrence) + " " + rows.file_of[row.kernel];
            if (std::find(seen_kernels.begin(), seen_kernels.end(), id) == seen_kernels.end()) seen_kernels.push_back(id);
            const auto make = [&](const char* check) {
                CheckResult r = base_result(rows, row, check);
                r.budget_line = rule.line;
                r.pattern = rule.kernels;
                return r;
            };
            const std::string lacks = artefact_word(k) + " does not record it";
            if (rule.max_registers)
                add_max(rep, make("max_registers"), k.registers ? std::optional<std::int64_t>(*k.registers) : std::nullopt,
                        *rule.max_registers, "registers", "", lacks);
            if (rule.max_spill_bytes)
                add_max(rep, make("max_spill_bytes"), spill_bytes(k), *rule.max_spill_bytes, "spill stores + loads", " B",
                        k.source_file.empty() ? lacks : "binaries do not record spills: check the -Xptxas -v log of the build");
            if (rule.max_stack) add_max(rep, make("max_stack"), k.stack_frame, *rule.max_stack, "stack frame", " B", lacks);
            if (rule.max_smem) add_max(rep, make("max_smem"), smem_bytes(k), *rule.max_smem, "shared memory per block", " B", lacks);
            const std::string where = (row.device ? row.device->name : std::string("its own cc")) + " at " +
                                      std::to_string(k.launch ? k.launch->threads : threads) + " threads";
            if (rule.min_occupancy) {
                CheckResult r = make("min_occupancy");
                r.limit = *rule.min_occupancy;
                if (!row.result) {
                    r.verdict = Verdict::unknown;
                    r.message = "occupancy unknown (" + row.error + "); budget at least " + pct(*rule.min_occupancy);
                } else {
                    r.value = row.result->occupancy;
                    r.verdict = row.result->occupancy + 1e-9 >= *rule.min_occupancy ? Verdict::pass : Verdict::fail;
                    r.message = "occupancy " + pct(row.result->occupancy) + " on " + where +
                                (r.verdict == Verdict::pass ? ", at least" : ", below") + " the budget of " + pct(*rule.min_occupancy);
                }
                rep.results.push_back(std::move(r));
            }
            if (rule.min_blocks_per_sm) {
                CheckResult r = make("min_blocks_per_sm");
                r.limit = *rule.min_blocks_per_sm;
                if (!row.result) {
                    r.verdict = Verdict::unknown;
                    r.message = "blocks per SM unknown (" + row.error + "); budget at least " + std::to_string(*rule.min_blocks_per_sm);
                } else {
                    r.value = row.result->blocks_per_sm;
                    r.verdict = row.result->blocks_per_sm >= *rule.min_blocks_per_sm ? Verdict::pass : Verdict::fail;
                    r.message = std::to_string(row.result->blocks_per_sm) + " blocks per SM on " + where +
                                (r.verdict == Verdict::pass ? ", at least" : ", below") + " the budget of " +
                                std::to_string(*rule.min_blocks_per_sm);
                }
                rep.results.push_back(std::move(r));
            }
        }
        if (rule.memory()) {
            // Once per kernel and artefact: a fatbin's cubin and PTX rows are the same kernel.
            std::vector<std::string> done;
            for (const PtxasRow& row : rows.answer.rows.rows) {
                const PtxasKernel& k = ks[row.kernel];
                const std::string& file = rows.file_of[row.kernel];
                const std::string id = file + "\n" + k.mangled;
                if (!matches(rule.kernels, k) || std::find(done.begin(), done.end(), id) != done.end()) continue;
                done.push_back(id);
                const auto in = std::find_if(inputs.begin(), inputs.end(), [&](const CheckInput& x) { return x.path == file; });
                if (in == inputs.end()) continue;
                CheckResult proto = base_result(rows, row, "");
                proto.budget_line = rule.line;
                proto.pattern = rule.kernels;
                check_memory(rep, budget, rule, *in, k, proto, threads);
            }
        }
        if (!matched)
            rep.notes.push_back((budget.file.empty() ? std::string("rule") : budget.file + ":" + std::to_string(rule.line)) +
                                ": pattern \"" + rule.kernels + "\" matches no kernel");
    }
    rep.kernels = static_cast<int>(seen_kernels.size());
    count(rep);
    return Result<CheckReport>::ok(std::move(rep));
}

Result<CheckReport> check_compare(std::vector<CheckInput> base, std::vector<CheckInput> head, const std::optional<std::string>& gpu,
                                  int threads) {
    CheckReport rep;
    rep.mode = "compare";
    for (const CheckInput& in : base) rep.inputs.push_back("base: " + in.path);
    for (const CheckInput& in : head) rep.inputs.push_back("head: " + in.path);
    if (std::string e = unreadable(base); !e.empty()) return Result<CheckReport>::fail("base: " + e);
    if (std::string e = unreadable(head); !e.empty()) return Result<CheckReport>::fail("head: " + e);
    merge_logs(base);
    merge_logs(head);
    Result<Rows> b = evaluate(base, gpu, threads);
    if (!b) return Result<CheckReport>::fail("base: " + b.error);
    Result<Rows> h = evaluate(head, gpu, threads);
    if (!h) return Result<CheckReport>::fail("head: " + h.error);
    using Key = std::tuple<std::string, std::string, int>;
    std::map<Key, const PtxasRow*> base_rows;
    const std::vector<PtxasKernel>& bks = b->answer.rows.log.kernels;
    const std::vector<PtxasKernel>& hks = h->answer.rows.log.kernels;
    for (const PtxasRow& row : b->answer.rows.rows) {
        const PtxasKernel& k = bks[row.kernel];
        base_rows[{k.mangled, k.arch, k.occurrence}] = &row;
    }
    std::map<Key, bool> in_head;
    for (const PtxasRow& row : h->answer.rows.rows) {
        const PtxasKernel& k = hks[row.kernel];
        ++rep.kernels;
        const Key key{k.mangled, k.arch, k.occurrence};
        in_head[key] = true;
        const auto it = base_rows.find(key);
        if (it == base_rows.end()) {
            rep.notes.push_back("new in head: " + (k.name.empty() ? k.mangled : k.name) + " (" + k.arch + ")");
            continue;
        }
        const PtxasRow& brow = *it->second;
        const PtxasKernel& bk = bks[brow.kernel];
        {
            CheckResult r = base_result(*h, row, "registers_up");
            if (!k.registers || !bk.registers) {
                r.message = "registers unknown in " + std::string(!bk.registers ? "base" : "head");
            } else {
                r.value = *k.registers;
                r.limit = *bk.registers;
                r.verdict = *k.registers > *bk.registers ? Verdict::fail : Verdict::pass;
                r.message = "registers " + std::to_string(*bk.registers) + " -> " + std::to_string(*k.registers);
            }
            rep.results.push_back(std::move(r));
        }
        {
            CheckResult r = base_result(*h, row, "spills_appear");
            const auto hs = spill_bytes(k), bs = spill_bytes(bk);
            if (!hs || !bs) {
                r.message = "spill bytes unknown in " + std::string(!bs ? "base" : "head") +
                            " (binaries do not record spills: compare the -Xptxas -v logs of the builds)";
            } else {
                r.value = static_cast<double>(*hs);
                r.limit = static_cast<double>(*bs);
                r.verdict = *hs > *bs ? Verdict::fail : Verdict::pass;
                r.message = "spill stores + loads " + std::to_string(*bs) + " B -> " + std::to_string(*hs) + " B";
            }
            rep.results.push_back(std::move(r));
        }
        {
            CheckResult r = base_result(*h, row, "occupancy_down");
            if (!row.result || !brow.result) {
                r.message = "occupancy unknown in " + std::string(!brow.result ? "base (" + brow.error + ")" : "head (" + row.error + ")");
            } else {
                r.value = row.result->occupancy;
                r.limit = brow.result->occupancy;
                r.verdict = row.result->occupancy + 1e-9 < brow.result->occupancy ? Verdict::fail : Verdict::pass;
                r.message = "occupancy " + pct(brow.result->occupancy) + " -> " + pct(row.result->occupancy) + " (" +
                            std::to_string(brow.result->blocks_per_sm) + " -> " + std::to_string(row.result->blocks_per_sm) +
                            " blocks per SM on " + (row.device ? row.device->name : std::string("its own cc")) + ")";
            }
            rep.results.push_back(std::move(r));
        }
    }
    for (const auto& [key, row] : base_rows)
        if (!in_head.count(key)) {
            const PtxasKernel& k = bks[row->kernel];
            rep.notes.push_back("gone in head: " + (k.name.empty() ? k.mangled : k.name) + " (" + k.arch + ")");
        }
    count(rep);
    return Result<CheckReport>::ok(std::move(rep));
}

json to_json(const CheckReport& rep) {
    json results = json::array();
    const auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
    for (const CheckResult& r : rep.results) {
        json j{{"check", r.check},
               {"verdict", verdict_name(r.verdict)},
               {"kernel", make_valid_utf8(r.kernel)},
               {"mangled", make_valid_utf8(r.mangled)},
               {"arch", r.arch},
               {"file", make_valid_utf8(r.file)},
               {"entry", r.entry.empty() ? json(nullptr) : json(r.entry)},
               {"value", opt(r.value)},
               {"limit", opt(r.limit)},
               {"message", make_valid_utf8(r.message)}};
        if (r.source_line > 0) j["source"] = {{"file", make_valid_utf8(r.source)}, {"line", r.source_line}, {"instruction", r.instruction}};
        if (rep.mode == "budget") {
            j["pattern"] = r.pattern;
            j["budget_line"] = r.budget_line;
        }
        results.push_back(std::move(j));
    }
    json notes = json::array();
    for (const std::string& n : rep.notes) notes.push_back(make_valid_utf8(n));
    json inputs = json::array();
    for (const std::string& n : rep.inputs) inputs.push_back(make_valid_utf8(n));
    return json{{"mode", rep.mode},
                {"ok", rep.failed == 0},
                {"summary",
                 {{"kernels", rep.kernels},
                  {"checks", rep.results.size()},
                  {"passed", rep.passed},
                  {"failed", rep.failed},
                  {"unknown", rep.unknown}}},
                {"results", results},
                {"notes", notes},
                {"inputs", inputs}};
}

}  // namespace occ::io
