// ptxas_request.cpp — the "ptxas" request kind: occupancy for every kernel of a compiler log as a
// typed answer (PtxasAnswer: what `occ occupancy --ptxas` prints) and its JSON (--json, --batch,
// window.occ).
#include <algorithm>
#include <string>
#include <vector>

#include "occ/device.hpp"
#include "occ/io/amd.hpp"
#include "occ/io/amd_artefacts.hpp"
#include "occ/io/api.hpp"
#include "occ/io/fields.hpp"
#include "occ/io/ptxas.hpp"
#include "occ/io/schema.hpp"
#include "occ/io/utf8.hpp"
#include "occ/occupancy.hpp"
#include "ptxas_eval.hpp"

namespace occ::io {
namespace {

std::string cc_text(const PtxasKernel& k) { return std::to_string(k.cc_major) + "." + std::to_string(k.cc_minor); }
bool arch_known(const PtxasKernel& k) { return !k.arch.empty() && k.cc_major > 0; }
bool same_cc(const PtxasKernel& a, const PtxasKernel& b) { return a.cc_major == b.cc_major && a.cc_minor == b.cc_minor; }

void add_row(PtxasAnswer& a, std::size_t kernel) {
    PtxasRow row;
    row.kernel = kernel;
    a.rows.push_back(std::move(row));
}

// Without a device every compilation is a row. With one: of each kernel's builds that can run on
// it, the newest architecture is the one the runtime loads (Programming Guide, "Binary
// Compatibility": a cubin for sm_XY runs on X.Z, Z >= Y), and every compilation for that
// architecture is a row. Builds for an architecture occ does not model are rows too when nothing
// else of that kernel runs, so their resources still show; builds that do not say their
// architecture are evaluated on the device, with a note.
void choose(PtxasAnswer& a) {
    const std::vector<PtxasKernel>& ks = a.log.kernels;
    const ArchRules& dev = a.input.device.arch;
    for (std::size_t i = 0; i < ks.size(); ++i) {
        const PtxasKernel& k = ks[i];
        if (!k.entry) {
            a.functions.push_back(i);
            continue;
        }
        ++a.compilations;
        if (a.amd && k.amd && !k.arch.empty() && k.arch != a.amd->arch->isa) {
            // A code object runs on its own target only: a build for the named one is used when there is one.
            const std::string_view isa = a.amd->arch->isa;
            if (std::any_of(ks.begin(), ks.end(),
                            [&](const PtxasKernel& o) { return o.entry && o.amd && o.mangled == k.mangled && o.arch == isa; })) {
                a.skipped.push_back({i, "compiled for " + k.arch + "; the build for " + std::string(isa) + " is used"});
                continue;
            }
        }
        if (!a.has_device || !arch_known(k) || a.amd || k.amd) {
            add_row(a, i);
            continue;
        }
        const PtxasKernel* best = nullptr;
        for (const PtxasKernel& o : ks)
            if (o.entry && o.mangled == k.mangled && arch_known(o) && cubin_runs_on(o.cc_major, o.cc_minor, dev, arch_suffix(o.arch)) &&
                (!best || cc_older(best->cc_major, best->cc_minor, o.cc_major, o.cc_minor)))
                best = &o;
        const std::string dev_cc = std::to_string(dev.cc_major) + "." + std::to_string(dev.cc_minor);
        if (best && same_cc(*best, k)) add_row(a, i);
        else if (best && cubin_runs_on(k.cc_major, k.cc_minor, dev, arch_suffix(k.arch)))
            a.skipped.push_back({i, "a newer compatible build (" + best->arch + ") is used"});
        else if (!best && !device_for_cc(k.cc_major, k.cc_minor)) add_row(a, i);
        else if (arch_suffix(k.arch) == 'a' && k.cc_major == dev.cc_major)
            a.skipped.push_back({i, "compiled for " + k.arch + ", an architecture-specific build that runs only on cc " +
                                        std::to_string(k.cc_major) + "." + std::to_string(k.cc_minor) + ", not on cc " + dev_cc});
        else a.skipped.push_back({i, "compiled for " + k.arch + ", which does not run on cc " + dev_cc});
    }
}

bool from_binary(const PtxasKernel& k) { return !k.source_file.empty(); }

std::string kib(std::int64_t bytes) { return bytes % 1024 == 0 ? std::to_string(bytes / 1024) + " KiB" : std::to_string(bytes) + " B"; }

}  // namespace

std::string artefact_launch_note(const PtxasAnswer& a, const ArtefactLaunch& l) {
    std::string note = "launch from " + l.from + ": " + std::to_string(l.num_warps) + " warps x " + std::to_string(l.warp_size) + " = " +
                       std::to_string(l.threads) + " threads, " + kib(l.smem_dynamic) + " dynamic shared memory";
    if (a.threads_given && a.input.launch.threads != l.threads)
        note += " (the request's " + std::to_string(a.input.launch.threads) + " threads are not used for it)";
    if (a.smem_dynamic_given && a.input.launch.smem_dynamic != l.smem_dynamic)
        note += " (the request's smem_dynamic " + std::to_string(a.input.launch.smem_dynamic) + " B is not used for it)";
    return note;
}

namespace {

// A kernel whose artefact fixes its launch (Triton) runs with that launch whatever the request says:
// it was compiled for num_warps warps, and Triton's launcher passes `shared` bytes of dynamic shared
// memory. Above 48 KiB that launcher also opts the kernel in to the device's largest dynamic shared
// memory and asks for the shared-memory carveout (loadBinary in triton-lang/triton
// third_party/nvidia/backend/driver.c: cuFuncSetCacheConfig PREFER_SHARED, then
// MAX_DYNAMIC_SHARED_SIZE_BYTES = optin - static).
void apply_artefact_launch(const PtxasAnswer& a, const ArtefactLaunch& l, KernelResources& kr, LaunchConfig& launch,
                           std::vector<std::string>& notes) {
    notes.push_back(artefact_launch_note(a, l));
    launch.threads = l.threads;
    launch.smem_dynamic = l.smem_dynamic;
    if (l.smem_dynamic > 48 * 1024) {
        kr.optin = true;
        if (launch.cache_config == CacheConfig::none && launch.carveout < 0) launch.cache_config = CacheConfig::prefer_shared;
        notes.push_back("over 48 KiB of shared memory: Triton's launcher opts in to the device's maximum and prefers shared memory");
    }
    if (l.tmem_columns > 0 && tmem_columns_valid(l.tmem_columns)) kr.tmem_columns = l.tmem_columns;
    if (l.num_ctas > 1)
        notes.push_back("compiled for clusters of " + std::to_string(l.num_ctas) +
                        " blocks (num_ctas): the per-SM figures are per block; occ clusters gives cluster residency");
}

void evaluate(PtxasAnswer& a, PtxasRow& row) {
    const PtxasKernel& k = a.log.kernels[row.kernel];
    if (k.amd || a.amd) {
        evaluate_amd(a, row);
        return;
    }
    Device dev = a.input.device;
    const char* artefact = from_binary(k) ? "the binary" : "the log";
    if (k.format == "ptx") {
        row.error = kPtxOnlyReason;
        return;
    }
    if (k.format == kSpillWarningFormat || k.format == kZstdEntryFormat) {
        row.error = k.format == kZstdEntryFormat ? kZstdEntryReason : kSpillOnlyReason;
        return;
    }
    if (!arch_known(k)) {
        if (!a.has_device) {
            row.error = k.arch.empty() ? "the log does not say which architecture this kernel was compiled for; give gpu or cc"
                                       : "architecture \"" + k.arch + "\" is not a compute capability; give gpu or cc";
            return;
        }
        row.notes.push_back("the log does not say which architecture this was compiled for: evaluated on " + dev.name);
    } else if (auto d = device_for_cc(k.cc_major, k.cc_minor); !d) {
        const std::string list = supported_cc_list();  // "3.5, 3.7, ..., 12.1"
        const std::string range = list.substr(0, list.find(',')) + " to " + list.substr(list.rfind(' ') + 1);
        row.error = "occupancy not modelled for " + k.arch + " (cc " + cc_text(k) + "; occ models cc " + range + ")";
        return;
    } else if (!a.has_device) {
        dev = *d;
    }
    if (!k.registers) {
        row.error = std::string(artefact) + " gives no register count for this compilation";
        return;
    }
    if (!k.smem_static) {
        row.error = std::string(artefact) + " gives no static shared memory figure for this compilation";
        return;
    }
    KernelResources kr = a.input.kernel;
    kr.regs_per_thread = *k.registers;
    kr.smem_static = *k.smem_static;
    kr.barriers = k.barriers.value_or(0);
    if (!k.barriers && dev.arch.barriers_limit_blocks)
        row.notes.push_back("the log does not say how many named barriers it uses: the named-barrier limit is not applied");
    LaunchConfig launch = a.input.launch;
    if (k.launch) apply_artefact_launch(a, *k.launch, kr, launch, row.notes);
    const OccupancyResult r = compute_occupancy(dev, kr, launch);
    row.device = dev;
    if (r.ok()) {
        row.result = r;
        OccupancyRequest q = a.input;
        q.device = dev;
        q.kernel = kr;
        q.launch = launch;
        if (launch.threads != a.input.launch.threads) {  // the artefact's block: 1-D
            q.block[0] = launch.threads;
            q.block[1] = q.block[2] = 1;
        }
        row.request = std::move(q);
    } else {
        row.error = r.error_message();
    }
}

std::string no_rows_error(const PtxasAnswer& a) {
    if (a.compilations > 0) return "no kernel in the log runs on " + (a.amd ? std::string(a.amd->arch->isa) : a.input.device.name);
    std::string e = "no kernels found in the log: expected the output of nvcc -Xptxas -v or cuobjdump --dump-resource-usage";
    if (a.log.diagnostics.empty()) return e;
    // Warnings alone (XLA's spill reports, "stack size cannot be statically determined"): say them.
    e = "no kernels found in the log (no \"Used N registers\" resource lines); it reports: ";
    const std::size_t n = a.log.diagnostics.size();
    for (std::size_t i = 0; i < std::min<std::size_t>(n, 3); ++i) e += (i ? "; " : "") + utf8_prefix(a.log.diagnostics[i], 200);
    if (n > 3) e += "; and " + std::to_string(n - 3) + " more";
    return e;
}

template <typename T>
json opt(const std::optional<T>& v) {
    return v ? json(*v) : json(nullptr);
}

template <typename T>
json legacy(const PtxasKernel& k, const std::optional<T>& v) {
    return from_binary(k) || k.amd || k.format == kSpillWarningFormat ? opt(v) : json(v.value_or(0));
}

json cmem_json(const PtxasKernel& k) {
    json j = json::object();
    for (const auto& [bank, bytes] : k.cmem) j[std::to_string(bank)] = bytes;
    return j;
}

json kernel_json(const PtxasKernel& k) {
    json diagnostics = json::array();
    for (const std::string& d : k.diagnostics) diagnostics.push_back(d);
    json j{
        {"name", k.name},
        {"mangled", k.mangled},
        {"arch", k.arch},  // "" when the log does not say (cc is then null)
        {"cc", arch_known(k) ? json(cc_text(k)) : json(nullptr)},
        {"occurrence", k.occurrence},
        {"occurrences", k.occurrences},
        {"entry", k.entry},
        {"registers", opt(k.registers)},
        // Kept numeric for earlier readers of logs (0 when the log does not say); "resources" has them
        // as read. Rows read from binaries have no earlier readers: null when not in the binary.
        {"smem_static", legacy(k, k.smem_static)},
        {"barriers", legacy(k, k.barriers)},
        {"stack_frame", opt(k.stack_frame)},
        {"spill_stores", legacy(k, k.spill_stores)},
        {"spill_loads", legacy(k, k.spill_loads)},
        {"cumulative_stack", opt(k.cumulative_stack)},
        {"local", opt(k.local)},
        {"cmem", cmem_json(k)},
        {"resources",
         {{"registers", opt(k.registers)},
          {"smem_static", opt(k.smem_static)},
          {"barriers", opt(k.barriers)},
          {"stack_frame", opt(k.stack_frame)},
          {"spill_stores", opt(k.spill_stores)},
          {"spill_loads", opt(k.spill_loads)},
          {"cumulative_stack", opt(k.cumulative_stack)},
          {"local", opt(k.local)},
          {"textures", opt(k.textures)},
          {"cmem", k.registers || !k.cmem.empty() ? cmem_json(k) : json(nullptr)}}},
        {"format", k.format},
        {"line", from_binary(k) ? json(nullptr) : json(k.line)},  // binaries: no log line
        {"diagnostics", diagnostics},
    };
    // Read from a binary: where (a log's rows have "line" only).
    if (from_binary(k))
        j["source"] = json{{"file", k.source_file}, {"entry", k.source_entry.empty() ? json(nullptr) : json(k.source_entry)}};
    // The launch the artefact fixes (Triton): what the row was evaluated with.
    if (k.launch)
        j["launch"] = json{{"from", k.launch->from},
                           {"threads", k.launch->threads},
                           {"smem_dynamic", k.launch->smem_dynamic},
                           {"num_warps", k.launch->num_warps},
                           {"warp_size", k.launch->warp_size},
                           {"num_ctas", k.launch->num_ctas},
                           {"tmem_columns", k.launch->tmem_columns},
                           {"maxnreg", opt(k.launch->maxnreg)},
                           {"triton_version", k.launch->triton_version.empty() ? json(nullptr) : json(k.launch->triton_version)}};
    amd_kernel_json(k, j);
    return j;
}

}  // namespace

void read_artefact_launch(FieldReader& f, PtxasAnswer& a, std::string_view artefact) {
    if (read_amd_artefact_launch(f, a, artefact)) return;
    for (const FieldBinding<OccupancyRequest>& b : launch_bindings())
        if (b.from == From::artefact && f.has(*b.spec))
            f.fail(b.spec->key, "comes from the " + std::string(artefact) + " for each kernel; leave it out");
    a.has_device = f.has(fields::gpu) || f.has(fields::cc) || f.has(fields::device);
    a.threads_given = f.has(fields::threads) || f.has(fields::block);
    a.smem_dynamic_given = f.has(fields::smem_dynamic);
    a.input = read_occupancy_request(f);
}

void evaluate_kernels(PtxasAnswer& a) {
    choose(a);
    for (PtxasRow& row : a.rows) {
        evaluate(a, row);
        const PtxasKernel& k = a.log.kernels[row.kernel];
        if (!row.result && !row.amd_result) ++a.failed;
        if (k.spill_stores.value_or(0) > 0 || k.spill_loads.value_or(0) > 0) ++a.with_spills;
    }
}

Result<PtxasAnswer> answer_ptxas(const json& request) {
    return answer_with<PtxasAnswer>(request, "ptxas request", [](FieldReader& f, PtxasAnswer& a) {
        const json* log_field = f.raw(fields::log);
        if (!log_field || !log_field->is_string())
            f.fail(fields::log.key, "required: the text printed by nvcc -Xptxas -v or cuobjdump --dump-resource-usage");
        read_artefact_launch(f, a, "log");
        f.finish();
        const std::string& text = log_field->get_ref<const std::string&>();
        a.log = text_log_format(text).parse(text);
        evaluate_kernels(a);
        if (a.rows.empty()) a.error = no_rows_error(a);
        else a.error = vendor_mismatch_error(a);
    });
}

std::string rows_device(const PtxasAnswer& a) {
    if (a.amd) return amd_target_name(*a.amd);
    return a.has_device ? a.input.device.name : std::string("each on its own compute capability (AMD: its own target)");
}

json to_json(const PtxasAnswer& a) {
    const std::vector<PtxasKernel>& ks = a.log.kernels;
    json rows = json::array();
    for (const PtxasRow& row : a.rows) {
        const PtxasKernel& k = ks[row.kernel];
        json j = kernel_json(k);
        if (row.device) j["device"] = row.device->name;
        if (row.amd_result) {
            j["device"] = row.amd_device;
            j["occupancy"] = amd_result_to_json(*row.amd_result);
        } else if (row.result) {
            const OccupancyResult& r = *row.result;
            json limiters = json::array();
            for (const LimiterInfo& e : kLimiters)
                if (r.limiters & e.bit) limiters.push_back(e.key);
            j["occupancy"] = json{
                {"blocks_per_sm", r.blocks_per_sm},
                {"warps_per_sm", r.warps_per_sm},
                {"occupancy", r.occupancy},
                {"limiters", limiters},
                {"smem_per_block_allocated", r.smem_per_block_allocated},
                {"regs_per_block_allocated", r.regs_per_block_allocated},
            };
        } else {
            j["occupancy"] = nullptr;
        }
        j["error"] = row.error.empty() ? json(nullptr) : json(row.error);
        j["notes"] = row.notes;
        if (k.spill_stores.value_or(0) > 0 || k.spill_loads.value_or(0) > 0)
            j["note"] = "spills " + (k.spill_stores ? std::to_string(*k.spill_stores) : std::string("?")) + " B stores / " +
                        (k.spill_loads ? std::to_string(*k.spill_loads) : std::string("?")) + " B loads to local memory per thread";
        rows.push_back(j);
    }
    json functions = json::array();
    for (std::size_t i : a.functions) functions.push_back(kernel_json(ks[i]));
    json skipped = json::array();
    for (const PtxasSkipped& s : a.skipped) {
        const PtxasKernel& k = ks[s.kernel];
        skipped.push_back(json{{"name", k.name},
                               {"mangled", k.mangled},
                               {"arch", k.arch},
                               {"occurrence", k.occurrence},
                               {"line", from_binary(k) ? json(nullptr) : json(k.line)},  // binaries: no log line
                               {"reason", s.reason}});
    }
    json input = a.amd ? amd_request_to_json(*a.amd) : occupancy_request_to_json(a.input);
    for (const char* key : {"regs", "smem_static", "barriers", "agprs", "sgprs"}) input.erase(key);
    if (!a.has_device) {
        input.erase("gpu");
        input.erase("cc");
    }
    json out{
        {"kernels", rows},
        {"functions", functions},
        {"skipped", skipped},
        {"summary",
         {{"kernels", a.rows.size()},
          {"device_functions", a.functions.size()},
          {"compilations", a.compilations},
          {"with_spills", a.with_spills},
          {"failed", a.failed},
          {"gmem", opt(a.log.gmem)},
          {"lines", a.log.lines},
          {"recognised_lines", a.log.recognised_lines},
          {"skipped_lines", a.log.skipped_lines},
          {"unknown_lines", a.log.unknown_lines}}},
        {"diagnostics", a.log.diagnostics},
        {"device", a.amd || a.has_device ? json(rows_device(a)) : json(nullptr)},
        {"input", input},
        {"error", a.error.empty() ? json(nullptr) : json(a.error)},
    };
    if (!a.log.setmaxnreg_ignored.empty()) {
        json ignored = json::array();
        for (const std::string& r : a.log.setmaxnreg_ignored) ignored.push_back({{"reason", r}, {"advice", setmaxnreg_advice(r)}});
        out["setmaxnreg_ignored"] = ignored;
    }
    if (a.id) out["id"] = *a.id;
    return out;
}

// Unlike json_or_throw, a bad request comes back as {"error": ...}: no exception leaves this public
// function (the fuzz target calls it directly).
json api_ptxas(const json& request) {
    const Result<PtxasAnswer> a = answer_ptxas(request);
    if (!a) return json{{"error", make_valid_utf8(a.error)}};
    return to_json(*a);
}

}  // namespace occ::io
