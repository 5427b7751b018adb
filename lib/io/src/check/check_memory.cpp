// check_memory.cpp — the memory checks of `occ check` (occ/io/check.hpp): a kernel's PTX run by the
// "memory" kind (answer_ptx_memory, occ/io/ptx_memory.hpp, the answer `occ memory` prints) at the
// rule's launch, and its worst access held to the rule's bounds. The result names that access's
// source line (the PTX's .loc), the instruction and the numbers; accesses that could not be costed
// are notes, never a pass.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "occ/io/check.hpp"
#include "occ/io/ptx.hpp"
#include "occ/io/ptx_memory.hpp"
#include "occ/text.hpp"

namespace occ::io {
namespace {

constexpr const char* kNoPtx =
    "not checked: no PTX (compile with -lineinfo and keep PTX: e.g. -gencode arch=compute_80,code=[sm_80,compute_80])";

std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.2f", v);
    return b;
}

bool holds_entry(const std::string& text, const std::string& name) {
    for (std::size_t at = text.find(".entry " + name); at != std::string::npos; at = text.find(".entry " + name, at + 1)) {
        const std::size_t end = at + 7 + name.size();
        if (end >= text.size() || text[end] == '(' || text[end] == ' ' || text[end] == '\t' || text[end] == '\n' || text[end] == '\r')
            return true;
    }
    return false;
}

// The PTX that holds the kernel: the artefact's PTX entries (the one for the row's architecture,
// else the newest), else a Triton kernel's <name>.ptx beside its cubin. "" when there is none.
std::string ptx_for(const CheckInput& in, const PtxasKernel& k) {
    const BinaryRead::PtxText* pick = nullptr;
    const std::string want = k.arch.rfind("sm_", 0) == 0 ? "compute_" + k.arch.substr(3) : k.arch;
    for (const BinaryRead::PtxText& t : in.read.ptx_texts) {
        if (!holds_entry(t.text, k.mangled)) continue;
        if (!pick || t.arch == want || (pick->arch != want)) pick = &t;
        if (t.arch == want) break;
    }
    if (pick) return pick->text;
    namespace fs = std::filesystem;
    fs::path p(k.source_file);
    if (p.extension() != ".cubin") return {};
    p.replace_extension(".ptx");
    std::ifstream f(p, std::ios::binary);
    if (!f) return {};
    std::ostringstream ss;
    ss << f.rdbuf();
    const std::string text = ss.str();
    return holds_entry(text, k.mangled) ? text : std::string();
}

json dims_json(const std::array<int, 3>& d) { return json::array({d[0], d[1], d[2]}); }

// One costed access: where, what, and the figure the check bounds.
struct Worst {
    const AccessSite* site = nullptr;
    double value = 0;
    std::string numbers;  // "8.00 sectors per request vs 4.00 ideal (2.00x)"
};

}  // namespace

bool read_ptx_check_input(const std::string& path, BinaryRead& out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    std::ostringstream ss;
    ss << f.rdbuf();
    std::string text = ss.str();
    if (text.find(".version") == std::string::npos || text.find(".entry") == std::string::npos) return false;
    Result<ptx::Program> prog = read_ptx(text);
    if (!prog) return false;
    BinaryRead r;
    r.file = path;
    r.format = "ptx";
    r.ptx = 1;
    r.keep_ptx = true;
    for (const ptx::Entry& e : prog->entries) {
        if (!e.is_kernel) continue;
        PtxasKernel k;
        k.mangled = e.name;
        k.name = demangle(e.name);
        if (k.name.empty()) k.name = e.name;
        // As a fatbin's PTX entry: compute_80 for .target sm_80 (ptxas has not run: no registers).
        k.arch = prog->target.rfind("sm_", 0) == 0 ? "compute_" + prog->target.substr(3) : prog->target;
        k.format = "ptx";
        k.source_file = path;
        r.kernels.push_back(std::move(k));
    }
    r.ptx_texts.push_back({r.kernels.empty() ? prog->target : r.kernels.front().arch, "", std::move(text)});
    out = std::move(r);
    return true;
}

void check_memory(CheckReport& rep, const Budget& budget, const BudgetRule& rule, const CheckInput& in, const PtxasKernel& k,
                  const CheckResult& proto, int threads) {
    struct Bound {
        const char* key;
        std::optional<double> limit;
    };
    const Bound bounds[] = {
        {"max_sectors_per_request_ratio", rule.max_sectors_per_request_ratio},
        {"max_bank_conflicts_per_request", rule.max_bank_conflicts_per_request},
        {"max_uncoalesced_accesses", rule.max_uncoalesced_accesses ? std::optional<double>(*rule.max_uncoalesced_accesses) : std::nullopt},
    };
    const auto unknown = [&](const std::string& why) {
        for (const Bound& b : bounds) {
            if (!b.limit) continue;
            CheckResult r = proto;
            r.check = b.key;
            r.limit = b.limit;
            r.verdict = Verdict::unknown;
            r.message = why;
            rep.results.push_back(std::move(r));
        }
    };
    const std::string text = ptx_for(in, k);
    if (text.empty()) return unknown(kNoPtx);

    // The launch: the rule's, else the budget's; the block else the artefact's (Triton), else `threads`.
    json req{{"ptx", text}, {"kernel", k.mangled}};
    const std::optional<std::string> gpu = rule.gpu ? rule.gpu : budget.gpu;
    if (gpu) req["gpu"] = *gpu;
    const auto block = rule.block ? rule.block : budget.block;
    if (block) req["block"] = dims_json(*block);
    else req["block"] = json::array({k.launch && k.launch->threads > 0 ? k.launch->threads : threads});
    if (const auto grid = rule.grid ? rule.grid : budget.grid) req["grid"] = dims_json(*grid);
    json params = json::object();
    for (const auto& [name, v] : budget.params) params[name] = v;
    for (const auto& [name, v] : rule.params) params[name] = v;
    if (!params.empty()) req["params"] = params;
    const Result<PtxMemoryAnswer> a = answer_ptx_memory(req);
    if (!a) return unknown("not checked: occ memory could not run the kernel's PTX: " + a.error);

    const auto path_of = [&](const AccessSite& s) {
        for (const ptx::FileEntry& f : a->files)
            if (f.index == s.loc.file) return f.path;
        return std::string();
    };
    const auto where = [&](const AccessSite& s) {
        if (s.loc.line <= 0) return "ptx:" + std::to_string(s.ptx_line);
        const std::string p = path_of(s);
        const auto slash = p.find_last_of('/');
        return (p.empty() ? std::string("?") : p.substr(slash == std::string::npos ? 0 : slash + 1)) + ":" + std::to_string(s.loc.line);
    };

    // The worst costed access of each kind, the uncoalesced count, and the accesses not checked.
    Worst global, shared;
    int uncoalesced = 0, global_unknown = 0, shared_unknown = 0;
    for (const int i : a->order) {
        const AccessSite& s = a->report.sites[static_cast<std::size_t>(i)];
        const std::string missing = site_unknown(s, a->report);
        if (!missing.empty()) {
            (s.model == SiteModel::shared ? shared_unknown : global_unknown) += 1;
            const std::string note = proto.kernel + ": " + where(s) + " " + s.opcode + " not checked: " + missing;
            if (std::find(rep.notes.begin(), rep.notes.end(), note) == rep.notes.end()) rep.notes.push_back(note);
        }
        if (s.model == SiteModel::global) {
            const PerRequest v = sectors_per_request(s), ideal = ideal_sectors_per_request(s);
            if (!v.value || !ideal.value || *ideal.value <= 0) continue;
            const double ratio = *v.value / *ideal.value;
            if (ratio > 1 + 1e-9) ++uncoalesced;
            if (!global.site || ratio > global.value)
                global = {&s, ratio, num(*v.value) + " sectors per request vs " + num(*ideal.value) + " ideal (" + num(ratio) + "x)"};
        } else if (s.model == SiteModel::shared) {
            const PerRequest v = bank_conflicts_per_request(s);
            if (!v.value) continue;
            if (!shared.site || *v.value > shared.value) {
                const PerRequest w = wavefronts_per_request(s), iw = ideal_wavefronts_per_request(s);
                shared = {&s, *v.value,
                          num(*v.value) + " bank conflicts per request (" + (w.value ? num(*w.value) : std::string("?")) +
                              " wavefronts vs " + (iw.value ? num(*iw.value) : std::string("?")) + " ideal)"};
            }
        }
    }
    const std::string launch = " (block " + req["block"].dump() + (req.contains("grid") ? ", grid " + req["grid"].dump() : "") + ")";
    for (const Bound& b : bounds) {
        if (!b.limit) continue;
        CheckResult r = proto;
        r.check = b.key;
        r.limit = b.limit;
        const bool is_shared = std::string(b.key) == "max_bank_conflicts_per_request";
        const Worst& w = is_shared ? shared : global;
        const int not_checked = is_shared ? shared_unknown : global_unknown;
        const std::string space = is_shared ? "shared" : "global";
        const std::string tail = not_checked ? "; " + std::to_string(not_checked) + " " + space + " access" +
                                                   (not_checked == 1 ? "" : "es") + " not checked (notes)"
                                             : "";
        const bool count = std::string(b.key) == "max_uncoalesced_accesses";
        const std::string bound = count ? std::to_string(static_cast<int>(*b.limit)) : num(*b.limit);
        if (!w.site) {
            r.verdict = not_checked ? Verdict::unknown : Verdict::pass;
            r.message = not_checked ? "not checked: no " + space + " access could be costed" + launch + tail
                                    : "no " + space + " memory access in " + a->entry + launch;
            if (!not_checked) r.value = 0;
            rep.results.push_back(std::move(r));
            continue;
        }
        const AccessSite& s = *w.site;
        r.source = path_of(s);
        r.source_line = s.loc.line;
        r.instruction = s.opcode;
        const double value = count ? uncoalesced : w.value;
        r.value = value;
        r.verdict = value <= *b.limit + 1e-9 ? Verdict::pass : Verdict::fail;
        const std::string verdict = r.verdict == Verdict::pass ? ", within" : ", over";
        if (count)
            r.message = std::to_string(uncoalesced) + " uncoalesced global access" + (uncoalesced == 1 ? "" : "es") + verdict +
                        " the budget of " + bound + "; worst " + where(s) + " " + s.opcode + ": " + w.numbers + launch + tail;
        else
            r.message = "worst " + space + " access " + where(s) + " " + s.opcode + ": " + w.numbers + verdict + " the budget of " + bound +
                        launch + tail;
        rep.results.push_back(std::move(r));
    }
}

}  // namespace occ::io
