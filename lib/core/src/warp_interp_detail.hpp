// warp_interp_detail.hpp — the state of one warp being interpreted, shared by warp_interp.cpp (setup,
// scheduling, control flow, totals), warp_interp_alu.cpp (integer and predicate instructions) and
// warp_interp_mem.cpp (memory accesses and their cost).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "occ/warp_interp.hpp"

namespace occ::interp_detail {

// Which state space an address value points into, as far as the interpreter followed it.
// global_symbolic: derived from a pointer parameter the caller did not give (a symbolic base).
enum class Tag : std::uint8_t { none, global, global_symbolic, shared };

// Why a lane's value is unknown.
enum class Why : std::uint8_t { unset, loaded, unmodelled, param, other };
struct Reason {
    Why why = Why::unset;
    std::string text;
};

struct Reg {
    std::array<std::uint64_t, kWarpLanes> v{};
    std::uint32_t unknown = 0xffffffffu;  // lanes whose value is unknown
    int reason = 0;                       // index into Machine::reasons for the unknown lanes
    Tag tag = Tag::none;
};

// A value one lane reads from an operand.
struct Val {
    std::uint64_t v = 0;
    bool known = true;
    int reason = 0;
    Tag tag = Tag::none;
};

struct Machine {
    const ptx::Program& prog;
    const ptx::Entry& entry;
    const InterpOptions& opt;
    const ArchRules& arch;
    InterpReport& report;
    WarpSelect warp;

    std::vector<Reg> regs;
    std::unordered_map<std::string, int> reg_index;
    std::vector<Reason> reasons;  // [0] is set first: "never written"
    std::unordered_map<std::string, int> reason_index;
    std::vector<std::int64_t> shared_offset;  // per entry.shared then prog.shared: placed offsets
    std::vector<int> first_site;              // instruction -> index of its first site, or -1

    Reg& reg(const std::string& name);
    int add_reason(Why why, const std::string& text);
    void note_unmodelled(const ptx::Instruction& in, const std::string& what = {});

    // Operand value for one lane, read as `bits` wide (zero-extended); a symbol naming a .shared
    // variable is its placed offset.
    Val read(const ptx::Operand& op, int lane, int bits);
    void write(const ptx::Operand& dst, int lane, std::uint64_t v, int bits, Tag tag = Tag::none);
    void write_unknown(const ptx::Operand& dst, int lane, int reason);
    // Every register operand 0 names (a vector's elements too) becomes unknown in `lanes`.
    void clobber_dest(const ptx::Instruction& in, std::uint32_t lanes, int reason);
    std::int64_t shared_symbol(const std::string& name) const;  // -1 when not a .shared variable
    int linear_thread(int lane) const { return warp.warp * kWarpLanes + lane; }
};

// warp_interp_alu.cpp: executes an integer / predicate / conversion instruction for `lanes`
// (guard already applied). False when the instruction is not modelled (the caller clobbers).
bool exec_alu(Machine& m, const ptx::Instruction& in, std::uint32_t lanes);
// warp_interp_alu.cpp: the value of a special register for a lane; known = false when not modelled.
Val special_value(const Machine& m, const std::string& name, int lane);

// warp_interp_mem.cpp: executes a memory instruction (ld/st/atom/red, cp.async, ldmatrix/stmatrix,
// the listed ones) for `lanes`; `unknown_guard` are lanes whose guard could not be evaluated.
void exec_memory(Machine& m, int index, std::uint32_t lanes, std::uint32_t unknown_guard);
// warp_interp_mem.cpp: the sites of an entry (one per memory instruction; two for cp.async).
void build_sites(const ptx::Entry& entry, InterpReport& report, std::vector<int>& first_site);

inline std::uint64_t mask_bits(std::uint64_t v, int bits) { return bits >= 64 ? v : (v & ((std::uint64_t{1} << bits) - 1)); }
inline std::int64_t sign_extend(std::uint64_t v, int bits) {
    if (bits >= 64) return static_cast<std::int64_t>(v);
    const std::uint64_t m = std::uint64_t{1} << (bits - 1);
    v = mask_bits(v, bits);
    return static_cast<std::int64_t>((v ^ m) - m);
}

}  // namespace occ::interp_detail
