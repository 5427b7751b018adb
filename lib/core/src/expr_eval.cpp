// expr_eval.cpp — evaluating an index expression (see occ/expr.hpp): one thread with CUDA C++'s
// integer semantics, the element index of an access, and a warp's addresses (expr_warp_access).
// The rules cite ISO C++17 (N4659), nvcc's default dialect.
#include <algorithm>
#include <cstdio>

#include "expr_detail.hpp"

namespace occ {

using namespace expr_detail;
using Node = IndexExpr::Node;

// [SECTION] Evaluator

bool ExprEval::fail(const Node& n, const std::string& what) {
    if (err.empty()) err = std::string(kSrc[n.src]) + ": " + cut(what, 300) + " at column " + std::to_string(n.col);
    return false;
}

bool ExprEval::overflow(const Node& n, ExprValue x, ExprValue y, ExprType ty) {
    return fail(n, show(x) + " " + kOpText[n.op] + " " + show(y) + " overflows " + expr_type_name(ty));
}

bool ExprEval::eval(int i, ExprValue& out) {
    const Node& n = e.nodes_[static_cast<std::size_t>(i)];
    ExprValue x, y;
    switch (n.op) {
        case lit: out = n.lit; return true;
        case builtin: {
            if (!t) return fail(n, std::string(kBuiltins[n.a / 3]) + "." + static_cast<char>('x' + n.a % 3) + " is not a constant");
            const auto& v = n.a < 3 ? t->thread_idx : n.a < 6 ? t->block_idx : n.a < 9 ? t->block_dim : t->grid_dim;
            out = {v[static_cast<std::size_t>(n.a % 3)], ExprType::u32};
            return true;
        }
        case cref:
            if (static_cast<std::size_t>(n.a) < cvals.size()) return out = cvals[static_cast<std::size_t>(n.a)], true;
            return eval(e.consts_[static_cast<std::size_t>(n.a)].root, out);
        case cast:
            if (!eval(n.a, x)) return false;
            out = convert(x, n.lit.type);
            return true;
        case uplus: return eval(n.a, out);
        case neg:
            if (!eval(n.a, x)) return false;
            if (is_signed(x.type) && x.v == (x.type == ExprType::i32 ? INT32_MIN : INT64_MIN))
                return fail(n, "-(" + show(x) + ") overflows " + expr_type_name(x.type));
            out = convert({static_cast<std::int64_t>(0ull - static_cast<std::uint64_t>(x.v)), x.type}, x.type);
            return true;
        case bnot:
            if (!eval(n.a, x)) return false;
            out = convert({~x.v, x.type}, x.type);
            return true;
        case lnot:
            if (!eval(n.a, x)) return false;
            out = {x.v == 0, ExprType::i32};
            return true;
        case land:
        case lor: {
            if (!eval(n.a, x)) return false;
            if ((x.v != 0) == (n.op == lor)) return out = {n.op == lor, ExprType::i32}, true;
            if (!eval(n.b, y)) return false;
            out = {y.v != 0, ExprType::i32};
            return true;
        }
        case cond:
            if (!eval(n.a, x) || !eval(x.v != 0 ? n.b : n.c, y)) return false;
            out = convert(y, n.lit.type);
            return true;
        default: break;
    }
    if (!eval(n.a, x) || !eval(n.b, y)) return false;
    return binary(n, x, y, out);
}

bool ExprEval::binary(const Node& n, ExprValue x, ExprValue y, ExprValue& out) {
    if (n.op == shl || n.op == shr) {
        // [expr.shift]: the type is the (promoted) left operand's; a count < 0 or >= its width is
        // undefined, so is a left shift of a negative value or one that leaves the unsigned range.
        const int w = width(x.type);
        if ((is_signed(y.type) && y.v < 0) || static_cast<std::uint64_t>(y.v) >= static_cast<std::uint64_t>(w))
            return fail(n, "shift count " + show(y) + " is outside 0.." + std::to_string(w - 1) + " for " + expr_type_name(x.type));
        const auto k = static_cast<int>(y.v);
        const auto bits = static_cast<std::uint64_t>(x.v) & (w == 32 ? 0xffffffffull : ~0ull);
        if (n.op == shr) {
            out = {is_signed(x.type) ? x.v >> k : static_cast<std::int64_t>(bits >> k), x.type};
            return true;
        }
        if (is_signed(x.type) && x.v < 0) return fail(n, "left shift of the negative value " + show(x) + " (undefined in C++17)");
        if (is_signed(x.type) && k > 0 && (bits >> (w - k)) != 0) return overflow(n, x, y, x.type);
        out = convert({static_cast<std::int64_t>(bits << k), x.type}, x.type);
        return true;
    }
    if (n.op >= lt && n.op <= ne) {
        const ExprType ty = common(x.type, y.type);
        const ExprValue a = convert(x, ty), b = convert(y, ty);
        const bool s = is_signed(ty);
        const auto ua = static_cast<std::uint64_t>(a.v), ub = static_cast<std::uint64_t>(b.v);
        const bool less = s ? a.v < b.v : ua < ub, equal = a.v == b.v;
        const bool r = n.op == lt   ? less
                       : n.op == gt ? !less && !equal
                       : n.op == le ? less || equal
                       : n.op == ge ? !less
                       : n.op == eq ? equal
                                    : !equal;
        out = {r, ExprType::i32};
        return true;
    }
    const ExprType ty = n.lit.type;
    const ExprValue a = convert(x, ty), b = convert(y, ty);
    const auto ua = static_cast<std::uint64_t>(a.v), ub = static_cast<std::uint64_t>(b.v);
    std::int64_t r = 0;
    if ((n.op == div_ || n.op == mod) && b.v == 0) return fail(n, std::string(n.op == div_ ? "division" : "remainder") + " by zero");
    if (!is_signed(ty)) {
        std::uint64_t u = 0;
        u = n.op == add    ? ua + ub
            : n.op == sub  ? ua - ub
            : n.op == mul  ? ua * ub
            : n.op == div_ ? ua / ub
            : n.op == mod  ? ua % ub
            : n.op == band ? ua & ub
            : n.op == bor  ? ua | ub
                           : ua ^ ub;
        out = convert({static_cast<std::int64_t>(u), ty}, ty);
        return true;
    }
    bool ovf = false;
    switch (n.op) {
        case add: ovf = __builtin_add_overflow(a.v, b.v, &r); break;
        case sub: ovf = __builtin_sub_overflow(a.v, b.v, &r); break;
        case mul: ovf = __builtin_mul_overflow(a.v, b.v, &r); break;
        case div_:
        case mod:
            // [expr.mul]/4: the quotient is truncated toward zero; (a/b)*b + a%b == a.
            if (b.v == -1 && a.v == (ty == ExprType::i32 ? INT32_MIN : INT64_MIN)) return overflow(n, x, y, ty);
            r = n.op == div_ ? a.v / b.v : a.v % b.v;
            break;
        case band: r = a.v & b.v; break;
        case bor: r = a.v | b.v; break;
        default: r = a.v ^ b.v; break;
    }
    if (ovf || !fits(r, ty)) return overflow(n, x, y, ty);
    out = {r, ty};
    return true;
}

bool ExprEval::consts() {
    for (const auto& k : e.consts_) {
        ExprValue v;
        if (!eval(k.root, v)) return false;
        cvals.push_back(v);
    }
    return true;
}

std::string IndexExpr::value(const ExprThread& t, ExprValue& out) const {
    if (!ok()) return error_;
    ExprEval ev{*this, &t, {}, {}};
    if (!ev.consts()) return ev.err;
    if (root_ >= 0) return ev.eval(root_, out) ? "" : ev.err;
    std::int64_t flat = 0;
    std::string err = element_index(t, flat);
    out = {flat, ExprType::i64};
    return err;
}

std::string IndexExpr::element_index(const ExprThread& t, std::int64_t& flat) const {
    if (!ok()) return error_;
    ExprEval ev{*this, &t, {}, {}};
    if (!ev.consts()) return ev.err;
    auto decl = [&] {
        std::string d = name_;
        for (auto x : dims_) d += "[" + (x ? std::to_string(x) : std::string()) + "]";
        return d;
    };
    auto index = [&](int root, std::int64_t bound, std::int64_t& out, const char* what) {
        ExprValue v;
        if (!ev.eval(root, v)) return false;
        const Node& n = nodes_[static_cast<std::size_t>(root)];
        if ((v.type == ExprType::u64 && v.v < 0) || (bound > 0 && (v.v < 0 || v.v >= bound)))
            return ev.fail(n, "index " + show(v) + " is out of bounds for " + what + " of " + decl() +
                                  (bound > 0 ? " (0.." + std::to_string(bound - 1) + ")" : " (above 2^63)"));
        out = v.v;
        return true;
    };
    if (root_ >= 0) {
        std::int64_t total = 1;
        for (auto d : dims_) total = d == 0 ? 0 : total * d;
        return index(root_, total, flat, "the elements") ? "" : ev.err;
    }
    flat = 0;
    for (std::size_t k = 0; k < subs_.size(); ++k) {
        std::int64_t i = 0;
        const std::string what = "dimension " + std::to_string(k + 1);
        if (!index(subs_[k], dims_[k], i, what.c_str())) return ev.err;
        if (__builtin_mul_overflow(flat, k == 0 ? 1 : dims_[k], &flat) || __builtin_add_overflow(flat, i, &flat))
            return (ev.fail(nodes_[static_cast<std::size_t>(subs_[k])], "the element index overflows long long"), ev.err);
    }
    return "";
}

// [SECTION] expr_warp_access

std::string check_expr_launch(const ExprLaunch& l) {
    auto dims = [](const std::array<int, 3>& d) { return std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]); };
    const auto& b = l.block;
    if (b[0] < 1 || b[0] > 1024 || b[1] < 1 || b[1] > 1024 || b[2] < 1 || b[2] > 64 || b[0] * b[1] * b[2] > 1024)
        return "block: each dimension 1..1024 (z 1..64), at most 1024 threads, got " + dims(b);
    const auto& g = l.grid_dim;
    if (g[0] < 1 || g[1] < 1 || g[1] > 65535 || g[2] < 1 || g[2] > 65535) return "grid_dim: x 1..2^31-1, y and z 1..65535, got " + dims(g);
    for (int i = 0; i < 3; ++i)
        if (l.block_idx[static_cast<std::size_t>(i)] < 0 || l.block_idx[static_cast<std::size_t>(i)] >= g[static_cast<std::size_t>(i)])
            return "block_idx: each 0..grid_dim-1 (grid_dim " + dims(g) + "), got " + dims(l.block_idx);
    if (l.base >= (std::uint64_t{1} << 48)) return "base: must be a byte address 0..2^48-1, got " + std::to_string(l.base);
    if (l.offset < -(std::int64_t{1} << 40) || l.offset > (std::int64_t{1} << 40))
        return "offset: must be -2^40..2^40, got " + std::to_string(l.offset);
    const int warps = (b[0] * b[1] * b[2] + kWarpLanes - 1) / kWarpLanes;
    if (l.warp < 0 || l.warp >= warps)
        return "warp: must be 0.." + std::to_string(warps - 1) + " (the block has " + std::to_string(warps) + " warp" +
               (warps == 1 ? "" : "s") + "), got " + std::to_string(l.warp);
    return "";
}

std::string expr_warp_access(const IndexExpr& e, const ExprLaunch& l, WarpAccess& out) {
    if (!e.ok()) return e.error();
    if (std::string err = check_expr_launch(l); !err.empty()) return err;
    out = WarpAccess{};
    out.active = 0;
    out.access_bytes = e.elem_bytes();
    out.op = l.op;
    ExprThread t;
    for (std::size_t i = 0; i < 3; ++i) {
        t.block_dim[i] = static_cast<std::uint32_t>(l.block[i]);
        t.block_idx[i] = static_cast<std::uint32_t>(l.block_idx[i]);
        t.grid_dim[i] = static_cast<std::uint32_t>(l.grid_dim[i]);
    }
    const int threads = l.block[0] * l.block[1] * l.block[2];
    constexpr std::int64_t kMax = std::int64_t{1} << 48;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
        const int th = l.warp * kWarpLanes + lane;
        if (th >= threads || !((l.active_lanes >> lane) & 1u)) continue;
        t.thread_idx = {static_cast<std::uint32_t>(th % l.block[0]), static_cast<std::uint32_t>(th / l.block[0] % l.block[1]),
                        static_cast<std::uint32_t>(th / (l.block[0] * l.block[1]))};
        char who[64];
        std::snprintf(who, sizeof who, " (lane %d, threadIdx (%u,%u,%u))", lane, t.thread_idx[0], t.thread_idx[1], t.thread_idx[2]);
        std::int64_t flat = 0, addr = 0;
        if (std::string err = e.element_index(t, flat); !err.empty()) return err + who;
        if (__builtin_mul_overflow(flat, static_cast<std::int64_t>(e.elem_bytes()), &addr) ||
            __builtin_add_overflow(addr, static_cast<std::int64_t>(l.base) + l.offset, &addr) || addr < 0 || addr >= kMax)
            return "expr: element " + std::to_string(flat) + " lies outside byte addresses 0..2^48-1 (base + offset + index x " +
                   std::to_string(e.elem_bytes()) + ")" + who;
        if (addr % e.elem_bytes() != 0)
            return "offset: address " + std::to_string(addr) + " is not a multiple of the element size " + std::to_string(e.elem_bytes()) +
                   " (CUDA accesses are naturally aligned)" + who;
        out.addr[static_cast<std::size_t>(lane)] = static_cast<std::uint64_t>(addr);
        out.active |= 1u << lane;
    }
    return "";
}

}  // namespace occ
