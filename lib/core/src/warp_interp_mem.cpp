// warp_interp_mem.cpp — the memory instructions of the warp interpreter: which sites an entry has,
// the lane addresses of each execution, and their cost with analyze_global / analyze_banks.
//
// [SECTION] Sites · [SECTION] Lane addresses · [SECTION] Costing one execution
// [SECTION] ld/st/atom/red · cp.async · ldmatrix/stmatrix · listed instructions
#include <algorithm>
#include <bit>
#include <string_view>

#include "warp_interp_detail.hpp"

namespace occ::interp_detail {
namespace {

void add_note(std::vector<std::string>& notes, const std::string& n) {
    if (std::find(notes.begin(), notes.end(), n) == notes.end() && notes.size() < 16) notes.push_back(n);
}

// [SECTION] Sites
// Why an instruction is listed and not costed; "" when it is costed.
std::string listed_reason(const ptx::Instruction& in, ptx::InstrClass c) {
    // PTX ISA, "Data Movement": the tensor copies take their addresses from a tensor map (a
    // CUtensorMap in memory), the bulk copies move a byte count issued by one thread.
    if (c == ptx::InstrClass::tensor_copy) return "TMA tensor copy: the tensor-map descriptor decides the addresses; not costed";
    if (c == ptx::InstrClass::bulk_copy) return "bulk copy: one thread moves a byte count, not a per-lane access; not costed";
    if (in.base == "wgmma") return "wgmma: shared-memory operands are given by matrix descriptors; not costed";
    if (in.base == "tcgen05") return "tcgen05: tensor memory and matrix descriptors; not costed";
    if (in.base == "wmma") return "wmma load/store: the fragment layout is unspecified; not costed";
    if (in.base == "mbarrier") return "mbarrier: a barrier object in shared memory, not a data access; not costed";
    return {};
}

bool is_listed(const ptx::Instruction& in, ptx::InstrClass c) {
    if (c == ptx::InstrClass::tensor_copy || c == ptx::InstrClass::bulk_copy) return true;
    if (in.base == "wgmma" || in.base == "tcgen05" || in.base == "mbarrier") return true;
    return in.base == "wmma" && (in.has_mod("load") || in.has_mod("store"));
}

AccessSite new_site(const ptx::Instruction& in, int index) {
    AccessSite s;
    s.instruction = index;
    s.opcode = in.opcode;
    s.ptx_line = in.ptx_line;
    s.loc = in.loc;
    s.outer = in.outer;
    return s;
}

}  // namespace

void build_sites(const ptx::Entry& entry, InterpReport& report, std::vector<int>& first_site) {
    first_site.assign(entry.instructions.size(), -1);
    for (std::size_t i = 0; i < entry.instructions.size(); ++i) {
        const auto& in = entry.instructions[i];
        const auto c = ptx::classify(in);
        const int idx = static_cast<int>(i);
        if (is_listed(in, c)) {
            first_site[i] = static_cast<int>(report.sites.size());
            AccessSite s = new_site(in, idx);
            s.model = SiteModel::listed;
            s.listed_reason = listed_reason(in, c);
            report.sites.push_back(std::move(s));
        } else if (c == ptx::InstrClass::memory) {
            const ptx::Space sp = ptx::space_of(in);
            if (sp != ptx::Space::global && sp != ptx::Space::shared && sp != ptx::Space::generic) continue;
            first_site[i] = static_cast<int>(report.sites.size());
            AccessSite s = new_site(in, idx);
            s.model = sp == ptx::Space::shared ? SiteModel::shared : SiteModel::global;
            s.op = (in.base == "ld" || in.base == "ldu") ? AccessOp::load : AccessOp::store;
            s.access_bytes = ptx::vector_count(in) * ptx::type_bytes(ptx::last_type(in));
            if (in.base == "atom" || in.base == "red") add_note(s.notes, "atomic: costed as one access per active lane");
            report.sites.push_back(std::move(s));
        } else if (c == ptx::InstrClass::async_copy) {
            first_site[i] = static_cast<int>(report.sites.size());
            AccessSite g = new_site(in, idx), sh = new_site(in, idx);
            g.side = "global side";
            g.model = SiteModel::global;
            g.op = AccessOp::load;
            sh.side = "shared side";
            sh.model = SiteModel::shared;
            sh.op = AccessOp::store;
            report.sites.push_back(std::move(g));
            report.sites.push_back(std::move(sh));
        } else if (c == ptx::InstrClass::matrix) {
            first_site[i] = static_cast<int>(report.sites.size());
            AccessSite s = new_site(in, idx);
            s.model = SiteModel::shared;
            s.op = in.base == "ldmatrix" ? AccessOp::load : AccessOp::store;
            s.access_bytes = 16;
            report.sites.push_back(std::move(s));
        }
    }
}

namespace {

// [SECTION] Lane addresses
Val address_of(Machine& m, const ptx::Operand& a, int lane) {
    Val v;
    if (a.kind != ptx::OperandKind::address) {
        v.known = false;
        v.reason = m.add_reason(Why::other, "the address operand is not of the form [base+offset]");
        return v;
    }
    if (a.base_is_reg) {
        v = m.read(ptx::Operand{ptx::OperandKind::reg, a.name, 0, false, false, false, false, {}}, lane, 64);
    } else if (!a.name.empty()) {
        const std::int64_t off = m.shared_symbol(a.name);
        if (off < 0) {
            v.known = false;
            v.reason = m.add_reason(Why::other, "the address of '" + a.name + "' (not a .shared variable) is not modelled");
            return v;
        }
        v.v = static_cast<std::uint64_t>(off);
        v.tag = Tag::shared;
    }
    v.v += static_cast<std::uint64_t>(a.value);
    return v;
}

// [SECTION] Costing one execution
void keep_worst(AccessSite& s, const WarpAccess& w, std::int64_t excess, const WarpSelect& warp) {
    if (excess <= s.worst_excess) return;
    s.worst = w;
    s.has_worst = true;
    s.worst_excess = excess;
    s.worst_warp = warp;
}

void record(Machine& m, int site_index, const std::array<Val, kWarpLanes>& addr, std::uint32_t lanes, std::uint32_t unknown_guard,
            int bytes, SiteModel model) {
    if ((lanes | unknown_guard) == 0) return;  // no lane on it: not a request
    AccessSite& s = m.report.sites[static_cast<std::size_t>(site_index)];
    s.executions++;
    if (bytes > 0) s.access_bytes = bytes;
    s.model = model;
    auto unknown = [&](const std::string& why) {
        s.unknown++;
        if (s.unknown_reason.empty()) s.unknown_reason = why;
    };
    if (unknown_guard) {
        unknown("the guard predicate is unknown: " + m.reasons[static_cast<std::size_t>(addr[0].reason)].text);
        return;
    }
    bool symbolic = false;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
        if (!((lanes >> lane) & 1u)) continue;
        const Val& v = addr[static_cast<std::size_t>(lane)];
        if (!v.known) {
            const Reason& r = m.reasons[static_cast<std::size_t>(v.reason)];
            unknown(r.why == Why::loaded ? "data-dependent (gather): the address depends on " + r.text : "address unknown: " + r.text);
            return;
        }
        symbolic = symbolic || v.tag == Tag::global_symbolic;
    }
    WarpAccess w;
    w.active = lanes;
    w.access_bytes = bytes;
    w.op = s.op;
    if (model == SiteModel::global) {
        if (!valid_global_access_bytes(bytes))
            return unknown("access of " + std::to_string(bytes) + " bytes per lane is not one global request");
        if (auto why = global_access_unsupported(bytes, m.arch); !why.empty()) return unknown(why);
        // Rebase on a 4 KiB boundary: sectors and lines depend on the address modulo 128 only.
        std::uint64_t lo = ~std::uint64_t{0};
        for (int lane = 0; lane < kWarpLanes; ++lane)
            if ((lanes >> lane) & 1u) lo = std::min(lo, addr[static_cast<std::size_t>(lane)].v);
        lo &= ~std::uint64_t{0xfff};
        for (int lane = 0; lane < kWarpLanes; ++lane)
            if ((lanes >> lane) & 1u) w.addr[static_cast<std::size_t>(lane)] = addr[static_cast<std::size_t>(lane)].v - lo;
    } else {
        if (auto why = banks_access_unsupported(bytes); !why.empty()) return unknown(why);
        for (int lane = 0; lane < kWarpLanes; ++lane)
            if ((lanes >> lane) & 1u) w.addr[static_cast<std::size_t>(lane)] = addr[static_cast<std::size_t>(lane)].v & 0xffffffffu;
    }
    if (auto why = check_warp_access(w); !why.empty()) return unknown(why);
    s.costed++;
    s.active_lanes.add(std::popcount(lanes));
    if (model == SiteModel::global) {
        const GlobalAccessResult g = analyze_global(w);
        s.sectors.add(g.sectors);
        s.ideal_sectors.add(g.ideal_sectors);
        keep_worst(s, w, g.sectors - g.ideal_sectors, m.warp);
        if (symbolic) add_note(s.notes, "pointer parameter not given: assumed a 256-byte-aligned buffer at a symbolic base");
    } else {
        const BankResult b = analyze_banks(w, m.arch);
        s.wavefronts.add(b.wavefronts);
        s.ideal_wavefronts.add(b.ideal_wavefronts);
        s.conflicts.add(b.conflicts);
        keep_worst(s, w, b.conflicts, m.warp);
        add_note(s.notes, "shared variables placed in declaration order from offset 0 at their .align (assumed)");
    }
}

std::string loaded_text(const ptx::Instruction& in) {
    return "a value loaded by " + in.opcode + " at PTX line " + std::to_string(in.ptx_line);
}

SiteModel resolve(const std::array<Val, kWarpLanes>& addr, std::uint32_t lanes, ptx::Space sp, bool& ok) {
    ok = true;
    if (sp == ptx::Space::shared) return SiteModel::shared;
    if (sp == ptx::Space::global) return SiteModel::global;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
        if (!((lanes >> lane) & 1u) || !addr[static_cast<std::size_t>(lane)].known) continue;
        const Tag t = addr[static_cast<std::size_t>(lane)].tag;
        if (t == Tag::shared) return SiteModel::shared;
        if (t == Tag::global || t == Tag::global_symbolic) return SiteModel::global;
    }
    ok = false;
    return SiteModel::global;
}

}  // namespace

// [SECTION] ld/st/atom/red · cp.async · ldmatrix/stmatrix · listed instructions
void exec_memory(Machine& m, int index, std::uint32_t lanes, std::uint32_t unknown_guard) {
    const auto& in = m.entry.instructions[static_cast<std::size_t>(index)];
    const auto c = ptx::classify(in);
    const int site = m.first_site[static_cast<std::size_t>(index)];
    const auto& o = in.operands;
    const int loaded = m.add_reason(Why::loaded, loaded_text(in));
    std::array<Val, kWarpLanes> addr{};
    if (unknown_guard)
        addr[0] = m.read(ptx::Operand{ptx::OperandKind::reg, in.guard, 0, false, false, false, false, {}}, std::countr_zero(unknown_guard),
                         1);

    if (site >= 0 && m.report.sites[static_cast<std::size_t>(site)].model == SiteModel::listed) {
        if (lanes | unknown_guard) m.report.sites[static_cast<std::size_t>(site)].executions++;
        m.clobber_dest(in, lanes | unknown_guard, m.add_reason(Why::unmodelled, "written by " + in.opcode + " (not modelled)"));
        return;
    }
    if (c == ptx::InstrClass::memory) {
        const ptx::Space sp = ptx::space_of(in);
        const bool reads = in.base == "ld" || in.base == "ldu" || in.base == "atom";
        if (site < 0) {  // .local / .const: not costed, and what they load is unknown
            if (reads)
                m.clobber_dest(in, lanes | unknown_guard, m.add_reason(Why::loaded, loaded_text(in) + " (." + ptx::space_name(sp) + ")"));
            return;
        }
        const std::size_t ai = reads ? 1 : 0;
        if (ai < o.size())
            for (int lane = 0; lane < kWarpLanes; ++lane)
                if ((lanes >> lane) & 1u) addr[static_cast<std::size_t>(lane)] = address_of(m, o[ai], lane);
        bool ok = true;
        const SiteModel model = resolve(addr, lanes, sp, ok);
        if (!ok && lanes) {
            for (int lane = 0; lane < kWarpLanes; ++lane)
                if ((lanes >> lane) & 1u && addr[static_cast<std::size_t>(lane)].known) {
                    addr[static_cast<std::size_t>(lane)].known = false;
                    addr[static_cast<std::size_t>(lane)].reason = m.add_reason(
                        Why::other, "a generic address whose state space (global or shared) was not followed");
                }
        }
        record(m, site, addr, lanes, unknown_guard, m.report.sites[static_cast<std::size_t>(site)].access_bytes, model);
        if (reads) m.clobber_dest(in, lanes | unknown_guard, loaded);
        return;
    }
    if (c == ptx::InstrClass::async_copy) {
        // PTX ISA "cp.async": cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size{, src-size}
        // {, cache-policy}: each thread copies cp-size (4, 8 or 16) bytes.
        int bytes = 0;
        if (o.size() >= 3 && o[2].kind == ptx::OperandKind::imm) bytes = static_cast<int>(o[2].value);
        std::array<Val, kWarpLanes> dst{};
        for (int lane = 0; lane < kWarpLanes; ++lane) {
            if (!((lanes >> lane) & 1u)) continue;
            if (o.size() >= 2) {
                dst[static_cast<std::size_t>(lane)] = address_of(m, o[0], lane);
                addr[static_cast<std::size_t>(lane)] = address_of(m, o[1], lane);
            }
        }
        if (unknown_guard) dst[0] = addr[0];
        // The optional src-size (Triton's mask): a lane with src-size 0 reads nothing from global
        // memory and zero-fills its shared bytes (PTX ISA "cp.async").
        std::uint32_t reading = lanes;
        if (o.size() >= 4 && (o[3].kind == ptx::OperandKind::reg || o[3].kind == ptx::OperandKind::imm))
            for (int lane = 0; lane < kWarpLanes; ++lane) {
                if (!((lanes >> lane) & 1u)) continue;
                const Val n = m.read(o[3], lane, 32);
                if (n.known && n.v == 0) reading &= ~(1u << lane);
                else if (!n.known) addr[static_cast<std::size_t>(lane)] = n;  // the read is unknown too
            }
        record(m, site, addr, reading, unknown_guard, bytes, SiteModel::global);
        record(m, site + 1, dst, lanes, unknown_guard, bytes, SiteModel::shared);
        return;
    }
    if (c == ptx::InstrClass::matrix) {
        // PTX ISA "ldmatrix"/"stmatrix" (.m8n8): each 8x8 matrix has 8 rows of 16 bytes, and lanes
        // 8i..8i+7 give the row addresses of matrix i: .x1 uses lanes 0-7, .x2 0-15, .x4 all 32.
        std::uint32_t providers = 0xffffffffu;
        if (in.has_mod("x1")) providers = 0xffu;
        else if (in.has_mod("x2")) providers = 0xffffu;
        const bool load = in.base == "ldmatrix";
        const std::size_t ai = load ? 1 : 0;
        const std::uint32_t use = lanes & providers;
        for (int lane = 0; lane < kWarpLanes; ++lane)
            if ((use >> lane) & 1u && ai < o.size()) addr[static_cast<std::size_t>(lane)] = address_of(m, o[ai], lane);
        if (!in.has_mod("m8n8")) {
            AccessSite& s = m.report.sites[static_cast<std::size_t>(site)];
            if (use | unknown_guard) {
                s.executions++;
                s.unknown++;
                if (s.unknown_reason.empty()) s.unknown_reason = "matrix shape other than .m8n8 is not modelled";
            }
        } else {
            record(m, site, addr, use, unknown_guard & providers, 16, SiteModel::shared);
        }
        if (load) m.clobber_dest(in, lanes | unknown_guard, loaded);
        return;
    }
    m.clobber_dest(in, lanes | unknown_guard,
                   m.add_reason(Why::unmodelled, in.opcode + " at PTX line " + std::to_string(in.ptx_line) + " is not modelled"));
}

}  // namespace occ::interp_detail
