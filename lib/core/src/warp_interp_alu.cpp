// warp_interp_alu.cpp — the integer, predicate and conversion instructions of the warp interpreter
// (warp_interp_detail.hpp), lane by lane. Semantics from the PTX ISA document, "Integer Arithmetic
// Instructions", "Comparison and Selection Instructions", "Logic and Shift Instructions", "Data
// Movement and Conversion Instructions" (mov, cvt, cvta) and "Special Registers".
//
// [SECTION] Types · [SECTION] Special registers · [SECTION] Arithmetic · [SECTION] The dispatch
#include <bit>
#include <string_view>

#include "warp_interp_detail.hpp"

namespace occ::interp_detail {
namespace {

// [SECTION] Types
struct Ty {
    int bits = 0;
    bool sign = false;
    bool flt = false;
    bool pred = false;
};

Ty type_of(std::string_view t) {
    if (t == "pred") return {1, false, false, true};
    return {ptx::type_bytes(t) * 8, ptx::is_signed_type(t), ptx::is_float_type(t), false};
}

// The first and second type modifiers (cvt.dst.src), "" when absent.
std::string_view nth_type(const ptx::Instruction& in, int n) {
    for (const auto& m : in.mods)
        if (ptx::is_type_name(m) && n-- == 0) return m;
    return {};
}

std::uint64_t as_signed_or_not(std::uint64_t v, const Ty& t) {
    return t.sign ? static_cast<std::uint64_t>(sign_extend(v, t.bits)) : mask_bits(v, t.bits);
}

int component(const std::string& name) {
    const auto dot = name.rfind('.');
    if (dot == std::string::npos || dot + 2 != name.size()) return -1;
    const char c = name.back();
    return c == 'x' ? 0 : c == 'y' ? 1 : c == 'z' ? 2 : -1;
}

}  // namespace

// [SECTION] Special registers
Val special_value(const Machine& m, const std::string& name, int lane) {
    const int t = m.linear_thread(lane);
    const int bx = m.opt.block[0], by = m.opt.block[1];
    const int d = component(name);
    const std::string head = name.substr(0, name.find('.'));
    Val v;
    if (head == "%tid" && d >= 0) {
        // Lanes take linear thread indices with x fastest (CUDA C++ Programming Guide, "Thread Hierarchy").
        const int xyz[3] = {t % bx, (t / bx) % by, t / (bx * by)};
        v.v = static_cast<std::uint64_t>(xyz[d]);
    } else if (head == "%ntid" && d >= 0) {
        v.v = static_cast<std::uint64_t>(m.opt.block[d]);
    } else if (head == "%ctaid" && d >= 0) {
        v.v = static_cast<std::uint64_t>(m.warp.block[d]);
    } else if (head == "%nctaid" && d >= 0) {
        v.v = static_cast<std::uint64_t>(m.opt.grid[d]);
    } else if (name == "%laneid") {
        v.v = static_cast<std::uint64_t>(lane);
    } else if (name == "%warpid") {
        // PTX ISA: %warpid is the hardware slot and may change; the warp's index in its block is
        // what code that reads it expects (InterpReport::notes says so).
        v.v = static_cast<std::uint64_t>(m.warp.warp);
    } else if (name == "%lanemask_lt" || name == "%lanemask_le" || name == "%lanemask_eq" || name == "%lanemask_ge" ||
               name == "%lanemask_gt") {
        const std::uint64_t bit = std::uint64_t{1} << lane;
        const std::uint64_t lt = bit - 1;
        v.v = name == "%lanemask_lt"   ? lt
              : name == "%lanemask_le" ? (lt | bit)
              : name == "%lanemask_eq" ? bit
              : name == "%lanemask_ge" ? (~lt & 0xffffffffu)
                                       : (~(lt | bit) & 0xffffffffu);
    } else {
        v.known = false;
    }
    return v;
}

namespace {

// [SECTION] Arithmetic
// The product of two W-bit values as 2W bits (W <= 64), signed or not, low and high halves.
void product(std::uint64_t a, std::uint64_t b, const Ty& t, std::uint64_t& lo, std::uint64_t& hi) {
    if (t.bits <= 32) {
        const std::uint64_t p = t.sign ? static_cast<std::uint64_t>(sign_extend(a, t.bits) * sign_extend(b, t.bits))
                                       : mask_bits(a, t.bits) * mask_bits(b, t.bits);
        lo = mask_bits(p, t.bits);
        hi = mask_bits(p >> t.bits, t.bits);
        return;
    }
    __extension__ using i128 = __int128;
    __extension__ using u128 = unsigned __int128;
    const u128 p = t.sign ? static_cast<u128>(static_cast<i128>(static_cast<std::int64_t>(a)) * static_cast<std::int64_t>(b))
                          : static_cast<u128>(a) * b;
    lo = static_cast<std::uint64_t>(p);
    hi = static_cast<std::uint64_t>(p >> 64);
}

bool compare(std::string_view op, std::uint64_t a, std::uint64_t b, const Ty& t, bool& ok) {
    ok = true;
    const std::int64_t sa = sign_extend(a, t.bits), sb = sign_extend(b, t.bits);
    const std::uint64_t ua = mask_bits(a, t.bits), ub = mask_bits(b, t.bits);
    // PTX ISA "setp": eq ne lt le gt ge (signed on .s types), lo ls hi hs (unsigned).
    const bool s = t.sign;
    if (op == "eq") return ua == ub;
    if (op == "ne") return ua != ub;
    if (op == "lt") return s ? sa < sb : ua < ub;
    if (op == "le") return s ? sa <= sb : ua <= ub;
    if (op == "gt") return s ? sa > sb : ua > ub;
    if (op == "ge") return s ? sa >= sb : ua >= ub;
    if (op == "lo") return ua < ub;
    if (op == "ls") return ua <= ub;
    if (op == "hi") return ua > ub;
    if (op == "hs") return ua >= ub;
    ok = false;
    return false;
}

std::uint64_t bfe(std::uint64_t a, std::uint64_t pos, std::uint64_t len, const Ty& t) {
    // PTX ISA "bfe": pos and len are taken from the low 8 bits; the field is sign-filled on .s types.
    pos &= 0xff;
    len &= 0xff;
    const std::uint64_t msb = static_cast<std::uint64_t>(t.bits - 1);
    const std::uint64_t top = pos + len == 0 ? 0 : std::min(pos + len - 1, msb);
    const std::uint64_t sbit = (!t.sign || len == 0) ? 0 : (a >> top) & 1;
    std::uint64_t d = 0;
    for (std::uint64_t i = 0; i <= msb; ++i) {
        const std::uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
        d |= bit << i;
    }
    return d;
}

std::uint64_t bfi(std::uint64_t f, std::uint64_t b, std::uint64_t pos, std::uint64_t len, const Ty& t) {
    pos &= 0xff;
    len &= 0xff;
    std::uint64_t d = b;
    for (std::uint64_t i = 0; i < len && pos + i < static_cast<std::uint64_t>(t.bits); ++i) {
        const std::uint64_t bit = std::uint64_t{1} << (pos + i);
        d = ((f >> i) & 1) ? (d | bit) : (d & ~bit);
    }
    return d;
}

std::uint64_t prmt(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
    // PTX ISA "prmt", default mode: bytes {b, a} numbered 7..0; each selector nibble picks one, its
    // bit 3 replicates the picked byte's sign bit.
    const std::uint64_t bytes = (mask_bits(b, 32) << 32) | mask_bits(a, 32);
    std::uint64_t d = 0;
    for (int n = 0; n < 4; ++n) {
        const std::uint64_t sel = (c >> (4 * n)) & 0xf;
        std::uint64_t byte = (bytes >> (8 * (sel & 7))) & 0xff;
        if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
        d |= byte << (8 * n);
    }
    return d;
}

}  // namespace

// [SECTION] The dispatch
bool exec_alu(Machine& m, const ptx::Instruction& in, std::uint32_t lanes) {
    const std::string& op = in.base;
    const auto& o = in.operands;
    const Ty t = type_of(ptx::last_type(in));
    if (o.empty() || (o[0].kind != ptx::OperandKind::reg && o[0].kind != ptx::OperandKind::vector)) return false;
    for (const auto& mod : in.mods)
        if (mod == "cc" || mod == "sat" || mod == "relu" || mod == "ftz" || mod == "approx") return false;
    if (op == "addc" || op == "subc" || op == "mul24" || op == "mad24" || op == "madc") return false;
    const bool bitwise_move = op == "mov" || op == "selp";
    if (t.bits == 0 || (t.flt && !bitwise_move && op != "cvta")) return false;
    const bool cvt = op == "cvt";
    const Ty src_t = cvt ? type_of(nth_type(in, 1)) : t;
    if (cvt && (src_t.bits == 0 || src_t.flt || t.flt)) return false;
    for (const auto& mod : in.mods)
        if (cvt && (mod.rfind("rn", 0) == 0 || mod.rfind("rz", 0) == 0 || mod.rfind("rm", 0) == 0 || mod.rfind("rp", 0) == 0)) return false;

    for (int lane = 0; lane < kWarpLanes; ++lane) {
        if (!((lanes >> lane) & 1u)) continue;
        // Sources: read each operand after the destination at the width it has.
        auto src = [&](std::size_t i, int bits) { return i < o.size() ? m.read(o[i], lane, bits) : Val{0, false, 0, Tag::none}; };
        auto fail = [&](const Val& v) { m.write_unknown(o[0], lane, v.reason); };

        if (op == "mov") {
            if (o.size() < 2) return false;
            if (o[0].kind == ptx::OperandKind::vector) {  // mov.b64 {%r1, %r2}, %rd1: unpack
                const Val v = src(1, t.bits);
                const int n = static_cast<int>(o[0].elems.size());
                if (n == 0 || t.bits % n) return false;
                for (int k = 0; k < n; ++k) {
                    if (!v.known) m.write_unknown(o[0].elems[static_cast<std::size_t>(k)], lane, v.reason);
                    else m.write(o[0].elems[static_cast<std::size_t>(k)], lane, v.v >> (k * (t.bits / n)), t.bits / n);
                }
                continue;
            }
            if (o[1].kind == ptx::OperandKind::vector) {  // mov.b64 %rd1, {%r1, %r2}: pack
                const int n = static_cast<int>(o[1].elems.size());
                if (n == 0 || t.bits % n) return false;
                std::uint64_t acc = 0;
                Val bad;
                for (int k = 0; k < n; ++k) {
                    const Val e = m.read(o[1].elems[static_cast<std::size_t>(k)], lane, t.bits / n);
                    if (!e.known) bad = e;
                    acc |= e.v << (k * (t.bits / n));
                }
                if (!bad.known) fail(bad);
                else m.write(o[0], lane, acc, t.bits);
                continue;
            }
            const Val v = src(1, t.bits);
            if (!v.known) fail(v);
            else m.write(o[0], lane, v.v, t.bits, v.tag);
            continue;
        }
        if (op == "cvta") {
            // PTX ISA "cvta": generic <-> state-space addresses. The interpreter keeps one number for
            // both and remembers the space the value points into.
            const Val v = src(1, t.bits);
            const ptx::Space sp = ptx::space_of(in);
            const Tag tag = sp == ptx::Space::shared ? Tag::shared : sp == ptx::Space::global ? Tag::global : Tag::none;
            if (tag == Tag::none) return false;
            if (!v.known) fail(v);
            else m.write(o[0], lane, v.v, t.bits, (tag == Tag::global && v.tag == Tag::global_symbolic) ? v.tag : tag);
            continue;
        }
        if (op == "cvt") {
            const Val v = src(1, src_t.bits);
            if (!v.known) fail(v);
            else m.write(o[0], lane, as_signed_or_not(v.v, src_t), t.bits, v.tag);
            continue;
        }
        if (op == "setp") {
            if (in.mods.empty() || o.size() < 3) return false;
            const Val a = src(1, t.bits), b = src(2, t.bits);
            std::string_view bool_op = in.mods.size() > 2 ? std::string_view(in.mods[1]) : std::string_view{};
            if (bool_op != "and" && bool_op != "or" && bool_op != "xor") bool_op = {};
            const Val c = bool_op.empty() ? Val{} : src(3, 1);
            const Val& bad = !a.known ? a : !b.known ? b : c;
            if (!bad.known) {
                fail(bad);
                if (!o[0].elems.empty()) m.write_unknown(o[0].elems[0], lane, bad.reason);
                continue;
            }
            bool ok = true;
            const bool r = compare(in.mods[0], a.v, b.v, t, ok);
            if (!ok) return false;
            auto combine = [&](bool x) {
                if (bool_op == "and") return x && c.v;
                if (bool_op == "or") return x || c.v;
                if (bool_op == "xor") return x != static_cast<bool>(c.v);
                return x;
            };
            m.write(o[0], lane, combine(r), 1);
            if (!o[0].elems.empty()) m.write(o[0].elems[0], lane, combine(!r), 1);
            continue;
        }
        if (op == "selp") {
            const Val a = src(1, t.bits), b = src(2, t.bits), c = src(3, 1);
            if (!c.known) fail(c);
            else if (c.v ? !a.known : !b.known) fail(c.v ? a : b);
            else m.write(o[0], lane, c.v ? a.v : b.v, t.bits, c.v ? a.tag : b.tag);
            continue;
        }
        // Unary
        if (op == "not" || op == "cnot" || op == "neg" || op == "abs" || op == "popc" || op == "clz" || op == "brev") {
            const Val a = src(1, t.bits);
            if (!a.known) {
                fail(a);
                continue;
            }
            std::uint64_t r = 0;
            if (op == "not") r = t.pred ? !a.v : ~a.v;
            else if (op == "cnot") r = a.v == 0;
            else if (op == "neg") r = static_cast<std::uint64_t>(-sign_extend(a.v, t.bits));
            else if (op == "abs") {
                const std::int64_t s = sign_extend(a.v, t.bits);
                r = static_cast<std::uint64_t>(s < 0 ? -s : s);
            } else if (op == "popc") r = static_cast<std::uint64_t>(std::popcount(mask_bits(a.v, t.bits)));
            else if (op == "clz") r = static_cast<std::uint64_t>(std::countl_zero(mask_bits(a.v, t.bits)) - (64 - t.bits));
            else {
                for (int i = 0; i < t.bits; ++i) r |= ((a.v >> i) & 1) << (t.bits - 1 - i);
            }
            m.write(o[0], lane, r, (op == "popc" || op == "clz") ? 32 : t.bits);
            continue;
        }
        // Binary and ternary
        const bool wide = in.has_mod("wide"), hi = in.has_mod("hi");
        const int nsrc = (op == "mad" || op == "bfe" || op == "prmt") ? 3 : op == "bfi" ? 4 : 2;
        const int dst_bits = wide ? 2 * t.bits : t.bits;
        Val s[4];
        int bad = -1;
        for (int k = 0; k < nsrc; ++k) {
            int bits = t.bits;
            if (op == "mad" && k == 2) bits = dst_bits;
            if ((op == "shl" || op == "shr") && k == 1) bits = 32;
            if ((op == "bfe" && k > 0) || (op == "bfi" && k > 1)) bits = 32;
            s[k] = src(static_cast<std::size_t>(k + 1), bits);
            if (!s[k].known && bad < 0) bad = k;
        }
        if (bad >= 0) {
            fail(s[bad]);
            continue;
        }
        const Tag tag = s[0].tag != Tag::none ? s[0].tag : s[1].tag != Tag::none ? s[1].tag : (nsrc > 2 ? s[2].tag : Tag::none);
        const std::uint64_t a = s[0].v, b = s[1].v;
        std::uint64_t r = 0;
        if (op == "add") r = a + b;
        else if (op == "sub") r = a - b;
        else if (op == "mul" || op == "mad") {
            if (wide && t.bits > 32) return false;
            std::uint64_t lo = 0, h = 0;
            product(a, b, t, lo, h);
            r = wide ? (lo | (h << t.bits)) : hi ? h : lo;
            if (!wide && !hi && !in.has_mod("lo")) return false;
            if (op == "mad") r += s[2].v;
        } else if (op == "div" || op == "rem") {
            if (mask_bits(b, t.bits) == 0) {
                m.write_unknown(o[0], lane, m.add_reason(Why::other, op + " by zero at PTX line " + std::to_string(in.ptx_line)));
                continue;
            }
            if (t.sign) {
                const std::int64_t x = sign_extend(a, t.bits), y = sign_extend(b, t.bits);
                if (y == -1 && x == sign_extend(std::uint64_t{1} << (t.bits - 1), t.bits)) {
                    m.write_unknown(o[0], lane, m.add_reason(Why::other, op + " overflow at PTX line " + std::to_string(in.ptx_line)));
                    continue;
                }
                r = static_cast<std::uint64_t>(op == "div" ? x / y : x % y);
            } else {
                const std::uint64_t x = mask_bits(a, t.bits), y = mask_bits(b, t.bits);
                r = op == "div" ? x / y : x % y;
            }
        } else if (op == "shl" || op == "shr") {
            // PTX ISA "shl"/"shr": shift amounts above the width are clamped to the width.
            const std::uint64_t n = std::min<std::uint64_t>(b, static_cast<std::uint64_t>(t.bits));
            if (op == "shl") r = n >= 64 ? 0 : a << n;
            else if (t.sign) r = static_cast<std::uint64_t>(sign_extend(a, t.bits) >> std::min<std::uint64_t>(n, 63));
            else r = n >= 64 ? 0 : mask_bits(a, t.bits) >> n;
        } else if (op == "and") r = a & b;
        else if (op == "or") r = a | b;
        else if (op == "xor") r = a ^ b;
        else if (op == "min" || op == "max") {
            const bool less = t.sign ? sign_extend(a, t.bits) < sign_extend(b, t.bits) : mask_bits(a, t.bits) < mask_bits(b, t.bits);
            r = (op == "min") == less ? a : b;
        } else if (op == "bfe") r = bfe(a, b, s[2].v, t);
        else if (op == "bfi") r = bfi(a, b, s[2].v, s[3].v, t);
        else if (op == "prmt") {
            if (in.mods.size() > 1) return false;  // f4e, b4e, rc8, ecl, ecr, rc16 modes
            r = prmt(a, b, s[2].v);
        } else {
            return false;
        }
        m.write(o[0], lane, r, dst_bits, (op == "add" || op == "sub" || op == "mad") ? tag : Tag::none);
    }
    return true;
}

}  // namespace occ::interp_detail
