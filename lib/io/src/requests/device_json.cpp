// device_json.cpp — devices in and out of JSON.
#include <algorithm>
#include <iterator>
#include <type_traits>
#include <variant>
#include <vector>

#include "occ/gpu_cache.hpp"
#include "occ/io/amd.hpp"
#include "occ/io/api.hpp"
#include "occ/io/fields.hpp"

namespace occ::io {

json device_to_json(const Device& d) {
    const ArchRules& a = d.arch;
    json carve = json::array();
    for (auto s : a.carveouts()) carve.push_back(s);
    return json{
        {"name", d.name},
        {"segment", segment_name(d.segment)},
        {"family", a.family},
        {"cc_major", a.cc_major},
        {"cc_minor", a.cc_minor},
        {"sm_count", d.sm_count},
        {"warp_size", a.warp_size},
        {"max_threads_per_block", a.max_threads_per_block},
        {"max_threads_per_sm", a.max_threads_per_sm},
        {"max_warps_per_sm", a.max_warps_per_sm()},
        {"max_blocks_per_sm", a.max_blocks_per_sm},
        {"regs_per_sm", a.regs_per_sm},
        {"regs_per_block", a.regs_per_block},
        {"max_regs_per_thread", a.max_regs_per_thread},
        {"reg_alloc_unit", a.reg_alloc_unit},
        {"subpartitions", a.subpartitions},
        {"smem_per_sm", a.smem_per_sm},
        {"smem_per_block", a.smem_per_block},
        {"smem_per_block_optin", a.smem_per_block_optin},
        {"smem_reserved_per_block", a.smem_reserved_per_block},
        {"smem_alloc_unit", a.smem_alloc_unit},
        {"carveouts", carve},
        {"source", a.source},
    };
}

namespace {

// The ArchRules fields a custom device (cudaDeviceProp names) gives, once, in echo order: key,
// member and accepted range. Integers are int members; sizes (int64 members) also take "48K".
struct PropField {
    const char* key;
    std::variant<int ArchRules::*, std::int64_t ArchRules::*> member;
    std::int64_t lo, hi;
};
const PropField kPropFields[] = {
    {"warpSize", &ArchRules::warp_size, 32, 32},
    {"maxThreadsPerBlock", &ArchRules::max_threads_per_block, 32, 1024},
    {"maxThreadsPerMultiProcessor", &ArchRules::max_threads_per_sm, 32, 4096},
    {"maxBlocksPerMultiProcessor", &ArchRules::max_blocks_per_sm, 1, 64},
    {"regsPerBlock", &ArchRules::regs_per_block, 256, 1 << 20},
    {"regsPerMultiprocessor", &ArchRules::regs_per_sm, 256, 1 << 20},
    {"sharedMemPerBlock", &ArchRules::smem_per_block, 1, 1 << 24},
    {"sharedMemPerMultiprocessor", &ArchRules::smem_per_sm, 1, 1 << 24},
    {"sharedMemPerBlockOptin", &ArchRules::smem_per_block_optin, 0, 1 << 24},
    {"reservedSharedMemPerBlock", &ArchRules::smem_reserved_per_block, 0, 1 << 16},
};

std::int64_t prop_value(const ArchRules& a, const PropField& p) {
    return std::visit([&](auto member) { return static_cast<std::int64_t>(a.*member); }, p.member);
}

// A "cc X.Y" device exactly as device_for_cc() makes it (else it came from a device object).
bool is_generic_cc_device(const Device& d) {
    const auto g = device_for_cc(d.arch.cc_major, d.arch.cc_minor);
    if (!g || g->name != d.name || g->sm_count != d.sm_count) return false;
    return std::all_of(std::begin(kPropFields), std::end(kPropFields),
                       [&](const PropField& p) { return prop_value(d.arch, p) == prop_value(g->arch, p); });
}

}  // namespace

json device_props_json(const Device& d) {
    json j{{"major", d.arch.cc_major}, {"minor", d.arch.cc_minor}, {"name", d.name}, {"multiProcessorCount", d.sm_count}};
    for (const PropField& p : kPropFields) std::visit([&](auto member) { j[p.key] = d.arch.*member; }, p.member);
    return j;
}

json device_echo(const Device& d) {
    if (d.segment == Segment::custom && is_generic_cc_device(d))
        return json{{"cc", std::to_string(d.arch.cc_major) + "." + std::to_string(d.arch.cc_minor)}};
    if (d.segment == Segment::custom) return json{{"device", device_props_json(d)}};
    return json{{"gpu", d.name}};
}

json gpus_json() {
    json gpus = json::array();
    for (const GpuEntry& g : all_gpus()) {
        json aliases = json::array();
        std::string_view rest(g.aliases);
        while (!rest.empty()) {
            auto c = rest.find(',');
            aliases.push_back(std::string(rest.substr(0, c)));
            if (c == std::string_view::npos) break;
            rest.remove_prefix(c + 1);
        }
        json driver_names = json::array();
        for (std::string_view rest(g.driver_names); !rest.empty();) {
            const auto bar = rest.find('|');
            driver_names.push_back(std::string(rest.substr(0, bar)));
            if (bar == std::string_view::npos) break;
            rest.remove_prefix(bar + 1);
        }
        gpus.push_back(json{{"name", g.name},
                            {"cc", std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor)},
                            {"sm_count", g.sm_count},
                            {"segment", segment_name(g.segment)},
                            {"family", find_arch(g.cc_major, g.cc_minor)->family},
                            {"aliases", aliases},
                            {"driver_names", driver_names},
                            {"source", g.source}});
    }
    json archs = json::array();
    for (const ArchRules& a : all_archs()) {
        Device d{std::to_string(a.cc_major) + "." + std::to_string(a.cc_minor), 1, Segment::custom, a};
        json j = device_to_json(d);
        j.erase("name");
        j.erase("sm_count");
        j.erase("segment");
        archs.push_back(j);
    }
    // AMD GPUs and targets (occ/io/amd.hpp), apart: their rules are not a compute capability's.
    json amd_gpus_j = json::array();
    for (const GpuEntry& g : amd_gpus()) {
        json aliases = json::array();
        for (std::string_view rest(g.aliases); !rest.empty();) {
            const auto c = rest.find(',');
            aliases.push_back(std::string(rest.substr(0, c)));
            if (c == std::string_view::npos) break;
            rest.remove_prefix(c + 1);
        }
        const AmdRequest r = amd_target(g.name);
        amd_gpus_j.push_back(json{{"name", g.name},
                                  {"vendor", g.vendor},
                                  {"isa", g.isa},
                                  {"family", r.arch->family},
                                  {"compute_units", g.sm_count},
                                  {"segment", segment_name(g.segment)},
                                  {"aliases", aliases},
                                  {"source", g.source}});
    }
    json amd_targets = json::array();
    for (const amd::AmdArch& a : amd::amd_archs()) {
        AmdRequest r;
        r.arch = &a;
        json j = amd_device_to_json(r);
        j.erase("name");
        j.erase("compute_units");
        j.erase("source");
        amd_targets.push_back(j);
    }
    return json{{"gpus", gpus}, {"archs", archs}, {"amd_gpus", amd_gpus_j}, {"amd_targets", amd_targets}};
}

Result<Device> device_from_json(const json& obj) {
    return read_with<Device>(obj, "device", [](FieldReader& f) {
        const int major = static_cast<int>(f.integer_required("major", 1, 99));
        const int minor = static_cast<int>(f.integer_required("minor", 0, 9));
        const ArchRules* base = find_arch(major, minor);
        if (!base)
            f.fail("major", "compute capability " + std::to_string(major) + "." + std::to_string(minor) +
                                " is not modelled; known: " + supported_cc_list());
        Device d;
        d.arch = *base;
        d.segment = Segment::custom;
        d.name = f.string("name", "custom " + std::to_string(major) + "." + std::to_string(minor));
        if (d.name.size() > 64) f.fail("name", "must be at most 64 characters");
        ArchRules& a = d.arch;
        d.sm_count = static_cast<int>(f.integer("multiProcessorCount", 1, 1024, 1));
        for (const PropField& p : kPropFields)
            std::visit(
                [&](auto member) {
                    auto& v = a.*member;
                    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(v)>, int>)
                        v = static_cast<int>(f.integer(p.key, p.lo, p.hi, v));
                    else v = f.size(p.key, p.lo, p.hi, v);
                },
                p.member);
        f.finish();
        if (a.smem_per_block_optin < a.smem_per_block) a.smem_per_block_optin = a.smem_per_block;
        return d;
    });
}

Device read_device(FieldReader& f, std::string_view fallback_gpu) {
    const bool has_gpu = f.has("gpu"), has_cc = f.has("cc"), has_dev = f.has("device");
    if (int(has_gpu) + int(has_cc) + int(has_dev) > 1) f.fail(has_gpu ? "gpu" : "cc", "give only one of gpu, cc or device");
    if (has_dev) {
        auto d = device_from_json(*f.raw("device"));
        if (!d) throw RequestError("device." + d.error);
        return *d;
    }
    if (has_cc) {
        const json* v = f.raw("cc");
        std::string s = v->is_string() ? v->get<std::string>() : v->is_number() ? v->dump() : std::string();
        int maj = 0, min = 0;
        if (!parse_cc(s, maj, min))
            f.fail("cc", "must be a compute capability like \"8.0\" (one of " + supported_cc_list() + "), got " + v->dump().substr(0, 40));
        auto d = device_for_cc(maj, min);
        if (!d) f.fail("cc", "compute capability " + s + " is not modelled; known: " + supported_cc_list());
        return *d;
    }
    const std::string name = f.string("gpu", fallback_gpu);
    // --batch answers a line per request, mostly naming the same few GPUs: core resolves each
    // spelling once (occ/gpu_cache.hpp).
    const Device* d = find_gpu_cached(name);
    if (!d) {
        // An AMD GPU: the occupancy, advise, waves and banks kinds model it (handle() gives an AMD request to the kind's answer_amd, before any device is read).
        if (const GpuEntry* amd = lookup_amd_gpu(name))
            f.fail("gpu", std::string(amd->name) + " is an AMD GPU: `occ occupancy`, `occ advise` and `occ banks` model it (--gpu " +
                              amd->name + "); this request kind models NVIDIA GPUs only");
        // A name several GPUs of different SM counts share ("Orin", "Xavier"): ask which one.
        if (std::string shared = ambiguous_gpu_message(name); !shared.empty()) f.fail("gpu", shared);
        std::string msg = unknown_gpu_message(name) + " (`occ gpus` lists them; or give cc, e.g. \"8.0\")";
        f.fail("gpu", msg);
    }
    return *d;
}

}  // namespace occ::io
