// warp_interp.cpp — the warp interpreter's driver (occ/warp_interp.hpp): registers and operands,
// parameters, .shared placement, min-PC scheduling with per-lane PCs, bounds, and the totals per
// site and per source line. The instructions themselves: warp_interp_alu.cpp, warp_interp_mem.cpp.
//
// [SECTION] Report helpers · [SECTION] Registers and operands · [SECTION] Setup (options, .shared)
// [SECTION] Parameters · [SECTION] One warp · [SECTION] Totals per source line · [SECTION] Entry point
#include <algorithm>
#include <bit>
#include <map>
#include <tuple>

#include "warp_interp_detail.hpp"

namespace occ {

// [SECTION] Report helpers
void CostStat::add(std::int64_t v) {
    if (count == 0 || v < min) min = v;
    if (count == 0 || v > max) max = v;
    ++count;
    sum += v;
}

const char* site_model_name(SiteModel m) {
    switch (m) {
        case SiteModel::global: return "global";
        case SiteModel::shared: return "shared";
        case SiteModel::listed: return "listed";
    }
    return "listed";
}

const AccessSite* InterpReport::find_site(int ptx_line, const std::string& side) const {
    for (const auto& s : sites)
        if (s.ptx_line == ptx_line && s.side == side) return &s;
    return nullptr;
}

SiteExplanation site_explanation(const AccessSite& site, const ArchRules& arch) {
    SiteExplanation out;
    if (!site.has_worst || site.model == SiteModel::listed) return out;
    // The worst execution as a described pattern of one warp: explicit addresses, same width and op.
    AccessPattern p;
    p.kind = PatternKind::addresses;
    p.access_bytes = site.worst.access_bytes;
    p.op = site.worst.op;
    p.active_lanes = site.worst.active;
    p.addresses = site.worst.addr;
    if (site.model == SiteModel::global) {
        const GlobalBlockResult g = analyze_global_block(p, arch);
        out.reason = g.ok() ? g.reason : g.error;
        out.fix = g.ok() ? g.fix : "";
    } else {
        const BankBlockResult b = analyze_banks_block(p, arch);
        out.reason = b.ok() ? b.reason : b.error;
        out.fix = b.ok() ? b.fix : "";
    }
    return out;
}

namespace interp_detail {

// [SECTION] Registers and operands
Reg& Machine::reg(const std::string& name) {
    const auto it = reg_index.find(name);
    if (it != reg_index.end()) return regs[static_cast<std::size_t>(it->second)];
    reg_index.emplace(name, static_cast<int>(regs.size()));
    Reg r;
    r.reason = add_reason(Why::other, name + " is read before it is written");
    regs.push_back(r);
    return regs.back();
}

int Machine::add_reason(Why why, const std::string& text) {
    const std::string key = std::to_string(static_cast<int>(why)) + text;
    const auto it = reason_index.find(key);
    if (it != reason_index.end()) return it->second;
    reasons.push_back({why, text});
    reason_index.emplace(key, static_cast<int>(reasons.size() - 1));
    return static_cast<int>(reasons.size() - 1);
}

void Machine::note_unmodelled(const ptx::Instruction& in, const std::string& what) {
    for (const auto& u : report.unmodelled)
        if (u.compare(0, in.opcode.size() + 1, in.opcode + " ") == 0) return;
    if (report.unmodelled.size() < 200)
        report.unmodelled.push_back(in.opcode + " (PTX line " + std::to_string(in.ptx_line) + ")" + (what.empty() ? "" : ": " + what));
}

std::int64_t Machine::shared_symbol(const std::string& name) const {
    for (std::size_t i = 0; i < entry.shared.size(); ++i)
        if (entry.shared[i].name == name) return shared_offset[i];
    for (std::size_t i = 0; i < prog.shared.size(); ++i)
        if (prog.shared[i].name == name) return shared_offset[entry.shared.size() + i];
    return -1;
}

Val Machine::read(const ptx::Operand& op, int lane, int bits) {
    Val v;
    switch (op.kind) {
        case ptx::OperandKind::reg: {
            const Reg& r = reg(op.name);
            if ((r.unknown >> lane) & 1u) return Val{0, false, r.reason, Tag::none};
            v.v = mask_bits(r.v[static_cast<std::size_t>(lane)], bits);
            v.tag = r.tag;
            if (op.negated) v.v = v.v == 0;
            return v;
        }
        case ptx::OperandKind::imm: v.v = mask_bits(static_cast<std::uint64_t>(op.value), bits); return v;
        case ptx::OperandKind::special: {
            v = special_value(*this, op.name, lane);
            if (!v.known) v.reason = add_reason(Why::unmodelled, "special register " + op.name + " is not modelled");
            v.v = mask_bits(v.v, bits);
            return v;
        }
        case ptx::OperandKind::symbol: {
            const std::int64_t off = shared_symbol(op.name);
            if (off >= 0) return Val{mask_bits(static_cast<std::uint64_t>(off + op.value), bits), true, 0, Tag::shared};
            return Val{0, false, add_reason(Why::other, "the value of '" + op.name + "' (not a .shared variable) is not modelled"),
                       Tag::none};
        }
        default: break;
    }
    return Val{0, false, add_reason(Why::other, "an operand of this form is not modelled here"), Tag::none};
}

void Machine::write(const ptx::Operand& dst, int lane, std::uint64_t v, int bits, Tag tag) {
    if (dst.kind != ptx::OperandKind::reg) return;
    Reg& r = reg(dst.name);
    r.v[static_cast<std::size_t>(lane)] = mask_bits(v, bits);
    r.unknown &= ~(1u << lane);
    r.tag = tag;
}

void Machine::write_unknown(const ptx::Operand& dst, int lane, int reason) {
    if (dst.kind != ptx::OperandKind::reg) return;
    Reg& r = reg(dst.name);
    r.unknown |= 1u << lane;
    r.reason = reason;
}

void Machine::clobber_dest(const ptx::Instruction& in, std::uint32_t lanes, int reason) {
    if (in.operands.empty() || lanes == 0) return;
    const ptx::Operand& d = in.operands[0];
    auto one = [&](const ptx::Operand& x) {
        if (x.kind != ptx::OperandKind::reg) return;
        for (int lane = 0; lane < kWarpLanes; ++lane)
            if ((lanes >> lane) & 1u) write_unknown(x, lane, reason);
    };
    if (d.kind == ptx::OperandKind::vector) {
        for (const auto& e : d.elems) one(e);
    } else {
        one(d);
        for (const auto& e : d.elems) one(e);  // setp's "%p|%q"
    }
}

namespace {

// [SECTION] Setup (options, .shared)
std::string check_options(const ptx::Entry& e, const InterpOptions& o) {
    // CUDA C++ Programming Guide, "Technical Specifications": blockDim.x, y <= 1024, z <= 64,
    // at most 1024 threads; gridDim.x < 2^31, y and z <= 65535.
    const long long threads = static_cast<long long>(o.block[0]) * o.block[1] * o.block[2];
    for (int d = 0; d < 3; ++d) {
        if (o.block[d] < 1 || o.block[d] > (d == 2 ? 64 : 1024)) return "block: each dimension must be 1..1024 (z: 1..64)";
        if (o.grid[d] < 1 || (d > 0 && o.grid[d] > 65535)) return "grid: each dimension must be at least 1 (y, z at most 65535)";
    }
    if (threads > 1024) return "block: at most 1024 threads, got " + std::to_string(threads);
    if (o.warps.empty()) return "warps: name at least one warp to run";
    if (o.warps.size() > 4096) return "warps: at most 4096 warps per run";
    const int warps = static_cast<int>((threads + kWarpLanes - 1) / kWarpLanes);
    for (const auto& w : o.warps) {
        if (w.warp < 0 || w.warp >= warps)
            return "warps: warp " + std::to_string(w.warp) + " is not in a block of " + std::to_string(warps) + " warps";
        for (int d = 0; d < 3; ++d)
            if (w.block[d] < 0 || w.block[d] >= o.grid[d]) return "warps: block index outside the grid";
    }
    if (o.max_steps < 1 || o.max_visits < 1) return "max_steps and max_visits must be at least 1";
    (void)e;
    return {};
}

// Declaration order from offset 0, each at its .align; dynamic (extern) arrays after every static one.
std::vector<std::int64_t> place_shared(const ptx::Program& p, const ptx::Entry& e) {
    std::vector<const ptx::SharedVar*> all;
    for (const auto& v : e.shared) all.push_back(&v);
    for (const auto& v : p.shared) all.push_back(&v);
    std::vector<std::int64_t> off(all.size(), 0);
    std::int64_t at = 0;
    for (int pass = 0; pass < 2; ++pass)
        for (std::size_t i = 0; i < all.size(); ++i) {
            if (all[i]->is_extern != (pass == 1)) continue;
            const std::int64_t a = std::max(1, all[i]->align);
            at = (at + a - 1) / a * a;
            off[i] = at;
            at += all[i]->bytes;
        }
    return off;
}

// [SECTION] Parameters
void exec_param(Machine& m, const ptx::Instruction& in, std::uint32_t lanes) {
    const auto& o = in.operands;
    if (o.size() < 2 || o[1].kind != ptx::OperandKind::address || lanes == 0) return;
    const std::string& name = o[1].name;
    const ptx::Param* p = m.entry.find_param(name);
    int position = -1;
    for (std::size_t i = 0; i < m.entry.params.size(); ++i)
        if (m.entry.params[i].name == name) position = static_cast<int>(i);
    const PtxParamValue* given = nullptr;
    for (const auto& g : m.opt.params)
        if (g.name == name || (position >= 0 && g.name == std::to_string(position))) given = &g;
    const int bits = ptx::type_bytes(ptx::last_type(in)) * 8;
    std::uint64_t value = 0;
    Tag tag = Tag::none;
    int reason = -1;
    if (!p) {
        reason = m.add_reason(Why::param, "'" + name + "' is not a parameter of " + m.entry.name);
    } else if (o[1].value != 0 || p->size > 8) {
        reason = m.add_reason(Why::param, "a field of parameter " + name + " (by-value structs are not modelled)");
    } else if (given) {
        value = given->value;
        tag = bits == 64 ? Tag::global : Tag::none;
    } else if (p->size == 8 || p->pointer) {
        // A symbolic base per parameter, 64 GiB apart and 256-byte aligned (cudaMalloc aligns to at
        // least 256 bytes: CUDA C++ Programming Guide, "Device Memory Accesses").
        value = static_cast<std::uint64_t>(position + 1) << 36;
        tag = Tag::global_symbolic;
        const std::string n = "parameter " + name + " not given: assumed a pointer to a 256-byte-aligned buffer (symbolic base)";
        if (std::find(m.report.notes.begin(), m.report.notes.end(), n) == m.report.notes.end()) m.report.notes.push_back(n);
    } else {
        reason = m.add_reason(Why::param, "parameter " + name + " was not given");
    }
    for (int lane = 0; lane < kWarpLanes; ++lane) {
        if (!((lanes >> lane) & 1u)) continue;
        if (reason >= 0) m.write_unknown(o[0], lane, reason);
        else m.write(o[0], lane, value, bits, tag);
    }
}

// [SECTION] One warp
WarpRun run_warp(Machine& m) {
    WarpRun run;
    run.warp = m.warp;
    const auto& code = m.entry.instructions;
    const int n = static_cast<int>(code.size());
    const int threads = m.opt.block[0] * m.opt.block[1] * m.opt.block[2];
    std::uint32_t live = 0;
    for (int lane = 0; lane < kWarpLanes; ++lane)
        if (m.linear_thread(lane) < threads) live |= 1u << lane;
    std::array<int, kWarpLanes> pc{};
    std::vector<int> visits(code.size(), 0);
    auto stop = [&](const std::string& why) { run.stopped = why; };
    while (live) {
        int at = n;
        for (int lane = 0; lane < kWarpLanes; ++lane)
            if ((live >> lane) & 1u) at = std::min(at, pc[static_cast<std::size_t>(lane)]);
        std::uint32_t group = 0;
        for (int lane = 0; lane < kWarpLanes; ++lane)
            if ((live >> lane) & 1u && pc[static_cast<std::size_t>(lane)] == at) group |= 1u << lane;
        if (at >= n) {  // ran off the end: as ret
            live &= ~group;
            continue;
        }
        const ptx::Instruction& in = code[static_cast<std::size_t>(at)];
        const std::string where = " at PTX line " + std::to_string(in.ptx_line);
        if (run.steps >= m.opt.max_steps) {
            stop("stopped after max_steps = " + std::to_string(m.opt.max_steps) + " warp instructions, before " + in.opcode + where);
            break;
        }
        if (++visits[static_cast<std::size_t>(at)] > m.opt.max_visits) {
            stop("loop cut off: " + in.opcode + where + " would run more than max_visits = " + std::to_string(m.opt.max_visits) + " times");
            break;
        }
        ++run.steps;
        // The guard: lanes where it is false skip the instruction, unknown lanes are kept apart.
        std::uint32_t exec = group, unknown_guard = 0;
        int guard_reason = 0;
        if (!in.guard.empty()) {
            const ptx::Operand g{ptx::OperandKind::reg, in.guard, 0, false, false, false, false, {}};
            for (int lane = 0; lane < kWarpLanes; ++lane) {
                if (!((group >> lane) & 1u)) continue;
                const Val v = m.read(g, lane, 1);
                if (!v.known) {
                    unknown_guard |= 1u << lane;
                    guard_reason = v.reason;
                    exec &= ~(1u << lane);
                } else if ((v.v != 0) == in.guard_negated) {
                    exec &= ~(1u << lane);
                }
            }
        }
        auto next = [&](std::uint32_t lanes) {
            for (int lane = 0; lane < kWarpLanes; ++lane)
                if ((lanes >> lane) & 1u) pc[static_cast<std::size_t>(lane)] = at + 1;
        };
        const auto cls = ptx::classify(in);
        if (cls == ptx::InstrClass::control) {
            if (in.base == "bra") {
                const int target = in.operands.empty() ? -1 : m.entry.label_target(in.operands[0].name);
                if (target < 0) {
                    stop("branch to an unknown label" + where);
                    break;
                }
                if (unknown_guard) {
                    const std::string why = m.reasons[static_cast<std::size_t>(guard_reason)].text;
                    if (m.opt.unknown_branch == UnknownBranch::stop) {
                        stop("branch" + where + " depends on an unknown predicate (" + why + ")");
                        break;
                    }
                    const bool taken = m.opt.unknown_branch == UnknownBranch::taken;
                    const std::string note = std::string("assumed the branch") + where + (taken ? " is taken" : " is not taken") +
                                             " where its predicate is unknown (" + why + ")";
                    if (std::find(m.report.notes.begin(), m.report.notes.end(), note) == m.report.notes.end() &&
                        m.report.notes.size() < 100)
                        m.report.notes.push_back(note);
                    if (taken) exec |= unknown_guard;
                }
                for (int lane = 0; lane < kWarpLanes; ++lane)
                    if ((group >> lane) & 1u) pc[static_cast<std::size_t>(lane)] = (exec >> lane) & 1u ? target : at + 1;
                continue;
            }
            if (in.base == "ret" || in.base == "exit") {
                if (unknown_guard) {
                    stop(in.opcode + where + " depends on an unknown predicate");
                    break;
                }
                live &= ~exec;
                next(group & ~exec);
                continue;
            }
            if (in.base == "call") {
                m.note_unmodelled(in, "the callee is not followed; what it returns is unknown");
                m.clobber_dest(in, exec | unknown_guard,
                               m.add_reason(Why::unmodelled, "returned by " + in.opcode + where + " (not followed)"));
                next(group);
                continue;
            }
            stop(in.opcode + where + " is not modelled");
            break;
        }
        if (cls == ptx::InstrClass::alu) {
            if (!exec_alu(m, in, exec)) {
                m.note_unmodelled(in);
                m.clobber_dest(in, exec, m.add_reason(Why::unmodelled, in.opcode + where + " is not modelled"));
            }
            m.clobber_dest(in, unknown_guard, guard_reason);
        } else if (cls == ptx::InstrClass::memory && ptx::space_of(in) == ptx::Space::param) {
            exec_param(m, in, exec);
            m.clobber_dest(in, unknown_guard, guard_reason);
        } else if (m.first_site[static_cast<std::size_t>(at)] >= 0 || cls == ptx::InstrClass::memory) {
            exec_memory(m, at, exec, unknown_guard);
        } else if (cls != ptx::InstrClass::barrier) {
            // shfl, vote, tex, mma.sync, ...: what they write is unknown.
            if (!in.operands.empty() && in.operands[0].kind != ptx::OperandKind::address) m.note_unmodelled(in);
            m.clobber_dest(in, exec | unknown_guard, m.add_reason(Why::unmodelled, in.opcode + where + " is not modelled"));
        }
        next(group);
    }
    run.finished = live == 0 && run.stopped.empty();
    return run;
}

// [SECTION] Totals per source line
void line_totals(const ptx::Program& p, InterpReport& r) {
    std::map<std::pair<int, int>, std::size_t> at;
    for (std::size_t i = 0; i < r.sites.size(); ++i) {
        const AccessSite& s = r.sites[i];
        const auto key = std::make_pair(s.loc.file, s.loc.line);
        auto it = at.find(key);
        if (it == at.end()) {
            LineCost l;
            l.loc = {s.loc.file, s.loc.line, 0};
            l.file = p.file_path(s.loc.file);
            it = at.emplace(key, r.lines.size()).first;
            r.lines.push_back(std::move(l));
        }
        LineCost& l = r.lines[it->second];
        l.sites.push_back(static_cast<int>(i));
        l.executions += s.executions;
        l.unknown += s.unknown;
        l.sectors += s.sectors.sum;
        l.ideal_sectors += s.ideal_sectors.sum;
        l.wavefronts += s.wavefronts.sum;
        l.ideal_wavefronts += s.ideal_wavefronts.sum;
        l.conflicts += s.conflicts.sum;
    }
    std::sort(r.lines.begin(), r.lines.end(),
              [](const LineCost& a, const LineCost& b) { return std::tie(a.loc.file, a.loc.line) < std::tie(b.loc.file, b.loc.line); });
}

}  // namespace
}  // namespace interp_detail

// [SECTION] Entry point
InterpReport interpret_warps(const ptx::Program& program, const ptx::Entry& entry, const InterpOptions& options, const ArchRules& arch) {
    using namespace interp_detail;
    InterpReport report;
    if (auto err = check_options(entry, options); !err.empty()) {
        report.error = err;
        return report;
    }
    std::vector<int> first_site;
    build_sites(entry, report, first_site);
    const std::vector<std::int64_t> offsets = place_shared(program, entry);
    for (const auto& w : options.warps) {
        Machine m{program, entry, options, arch, report, w, {}, {}, {}, {}, offsets, first_site};
        m.add_reason(Why::other, "never written");
        report.warps.push_back(run_warp(m));
    }
    line_totals(program, report);
    return report;
}

}  // namespace occ
