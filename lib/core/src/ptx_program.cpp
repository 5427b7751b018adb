// ptx_program.cpp — the helpers of occ/ptx_program.hpp: type widths, state spaces, classes.
//
// [SECTION] Lookups on the program · [SECTION] Types · [SECTION] Spaces and classes
#include "occ/ptx_program.hpp"

#include <algorithm>
#include <array>

namespace occ::ptx {

// [SECTION] Lookups on the program
bool Instruction::has_mod(std::string_view m) const { return std::find(mods.begin(), mods.end(), m) != mods.end(); }

int Entry::label_target(std::string_view label) const {
    for (const auto& [name, index] : labels)
        if (name == label) return index;
    return -1;
}

const Param* Entry::find_param(std::string_view n) const {
    for (const auto& p : params)
        if (p.name == n) return &p;
    return nullptr;
}

const Entry* Program::find_entry(std::string_view n) const {
    for (const auto& e : entries)
        if (e.name == n) return &e;
    return nullptr;
}

std::string Program::file_path(int index) const {
    for (const auto& f : files)
        if (f.index == index) return f.path;
    return {};
}

// [SECTION] Types
// PTX ISA, "Fundamental Types": .s8-.s64, .u8-.u64, .b8-.b128, .f16, .f16x2, .bf16, .bf16x2,
// .tf32, .f32, .f64, .pred, and the narrow float formats (.e4m3, .e5m2, ...) which occupy a byte.
int type_bytes(std::string_view t) {
    struct Row {
        std::string_view name;
        int bytes;
    };
    static constexpr std::array<Row, 31> kTypes{{
        {"s8", 1},     {"s16", 2},  {"s32", 4},    {"s64", 8},   {"u8", 1},    {"u16", 2},   {"u32", 4},    {"u64", 8},
        {"b8", 1},     {"b16", 2},  {"b32", 4},    {"b64", 8},   {"b128", 16}, {"f16", 2},   {"f16x2", 4},  {"bf16", 2},
        {"bf16x2", 4}, {"tf32", 4}, {"f32", 4},    {"f64", 8},   {"e4m3", 1},  {"e5m2", 1},  {"e4m3x2", 2}, {"e5m2x2", 2},
        {"e2m3", 1},   {"e3m2", 1}, {"e2m1x2", 1}, {"ue8m0", 1}, {"f32x2", 8}, {"s16x2", 4}, {"u16x2", 4},
    }};
    for (const auto& r : kTypes)
        if (r.name == t) return r.bytes;
    return 0;
}

bool is_type_name(std::string_view t) { return t == "pred" || type_bytes(t) > 0; }
bool is_signed_type(std::string_view t) { return !t.empty() && t[0] == 's'; }
bool is_float_type(std::string_view t) {
    return !t.empty() && (t[0] == 'f' || t[0] == 'e' || t.substr(0, 2) == "bf" || t == "tf32" || t == "ue8m0");
}

int vector_count(const Instruction& in) {
    for (const auto& m : in.mods) {
        if (m == "v2") return 2;
        if (m == "v4") return 4;
        if (m == "v8") return 8;
    }
    return 1;
}

std::string_view last_type(const Instruction& in) {
    for (auto it = in.mods.rbegin(); it != in.mods.rend(); ++it)
        if (is_type_name(*it)) return *it;
    return {};
}

// [SECTION] Spaces and classes
const char* space_name(Space s) {
    switch (s) {
        case Space::none: return "none";
        case Space::global: return "global";
        case Space::shared: return "shared";
        case Space::local: return "local";
        case Space::param: return "param";
        case Space::constant: return "const";
        case Space::generic: return "generic";
    }
    return "none";
}

Space space_of(const Instruction& in) {
    for (const auto& m : in.mods) {
        if (m == "global") return Space::global;
        // PTX ISA, "State Spaces": .shared::cta is .shared; .shared::cluster reaches a peer block's
        // shared memory, still one bank-organised array per SM.
        if (m == "shared" || m.rfind("shared::", 0) == 0) return Space::shared;
        if (m == "local") return Space::local;
        if (m == "param") return Space::param;
        if (m == "const") return Space::constant;
    }
    return Space::generic;
}

const char* instr_class_name(InstrClass c) {
    switch (c) {
        case InstrClass::alu: return "alu";
        case InstrClass::memory: return "memory";
        case InstrClass::async_copy: return "async_copy";
        case InstrClass::bulk_copy: return "bulk_copy";
        case InstrClass::tensor_copy: return "tensor_copy";
        case InstrClass::matrix: return "matrix";
        case InstrClass::mma: return "mma";
        case InstrClass::barrier: return "barrier";
        case InstrClass::control: return "control";
        case InstrClass::other: return "other";
    }
    return "other";
}

InstrClass classify(const Instruction& in) {
    const std::string_view b = in.base;
    if (b == "ld" || b == "st" || b == "atom" || b == "red" || b == "ldu") return InstrClass::memory;
    if (b == "cp" || b == "cp.reduce") {
        // PTX ISA, "Data Movement": cp.async (per thread, 4/8/16 bytes), cp.async.bulk (one thread,
        // a byte count), cp.async.bulk.tensor (a tensor map), cp.async.wait_group / commit_group.
        if (in.has_mod("tensor")) return InstrClass::tensor_copy;
        if (in.has_mod("bulk")) {
            for (const auto& m : in.mods)
                if (m == "commit_group" || m == "wait_group" || m.rfind("wait_group", 0) == 0) return InstrClass::barrier;
            return InstrClass::bulk_copy;
        }
        for (const auto& m : in.mods)
            if (m == "commit_group" || m == "wait_group" || m == "wait_all" || m == "mbarrier") return InstrClass::barrier;
        return InstrClass::async_copy;
    }
    if (b == "ldmatrix" || b == "stmatrix") return InstrClass::matrix;
    if (b == "mma" || b == "wgmma" || b == "tcgen05" || b == "wmma") return InstrClass::mma;
    if (b == "bar" || b == "barrier" || b == "mbarrier" || b == "fence" || b == "membar" || b == "griddepcontrol" || b == "elect")
        return InstrClass::barrier;
    if (b == "bra" || b == "ret" || b == "exit" || b == "call" || b == "brx" || b == "trap") return InstrClass::control;
    static constexpr std::array<std::string_view, 40> kAlu{"mov", "add",  "sub",  "mul", "mad",  "div",   "rem",   "shl",   "shr",  "and",
                                                           "or",  "xor",  "not",  "min", "max",  "selp",  "setp",  "cvt",   "cvta", "bfe",
                                                           "bfi", "prmt", "neg",  "abs", "fma",  "rcp",   "sqrt",  "rsqrt", "ex2",  "lg2",
                                                           "sin", "cos",  "popc", "clz", "brev", "mul24", "mad24", "set",   "slct", "cnot"};
    if (std::find(kAlu.begin(), kAlu.end(), b) != kAlu.end()) return InstrClass::alu;
    return InstrClass::other;
}

// PTX ISA, "Special Registers".
bool is_special_register(std::string_view n) {
    static constexpr std::array<std::string_view, 30> kNames{"%tid",
                                                             "%ntid",
                                                             "%ctaid",
                                                             "%nctaid",
                                                             "%laneid",
                                                             "%warpid",
                                                             "%nwarpid",
                                                             "%smid",
                                                             "%nsmid",
                                                             "%gridid",
                                                             "%clock",
                                                             "%clock64",
                                                             "%globaltimer",
                                                             "%lanemask_eq",
                                                             "%lanemask_le",
                                                             "%lanemask_lt",
                                                             "%lanemask_ge",
                                                             "%lanemask_gt",
                                                             "%clusterid",
                                                             "%nclusterid",
                                                             "%cluster_ctaid",
                                                             "%cluster_nctaid",
                                                             "%cluster_ctarank",
                                                             "%cluster_nctarank",
                                                             "%is_explicit_cluster",
                                                             "%dynamic_smem_size",
                                                             "%total_smem_size",
                                                             "%aggr_smem_size",
                                                             "%globaltimer_lo",
                                                             "%globaltimer_hi"};
    const std::string_view head = n.substr(0, n.find('.'));
    if (std::find(kNames.begin(), kNames.end(), head) != kNames.end()) return true;
    return n.rfind("%envreg", 0) == 0 || n.rfind("%pm", 0) == 0 || n.rfind("%reserved_smem", 0) == 0;
}

}  // namespace occ::ptx
