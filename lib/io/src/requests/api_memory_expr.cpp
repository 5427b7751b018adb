// api_memory_expr.cpp — pattern "expr": the access as the kernel writes it (occ/expr.hpp), for one warp.
#include <string>

#include "api_memory_expr.hpp"
#include "api_memory_tile.hpp"
#include "occ/expr.hpp"
#include "occ/io/fields.hpp"
#include "occ/io/schema.hpp"
#include "occ/io/size.hpp"
#include "occ/text.hpp"

namespace occ::io {
namespace {

// [x], [x, y] or [x, y, z] with each in lo..hi; missing dimensions keep `out`'s values.
void read_dims(FieldReader& f, std::string_view key, std::int64_t lo, std::int64_t hi, std::array<int, 3>& out) {
    const json* b = f.raw(key);
    if (!b) return;
    if (!b->is_array() || b->empty() || b->size() > 3) f.fail(key, "must be [x], [x, y] or [x, y, z], got " + shown(*b));
    for (std::size_t i = 0; i < b->size(); ++i) {
        const json& e = (*b)[i];
        if (!e.is_number_integer() || e.get<std::int64_t>() < lo || e.get<std::int64_t>() > hi)
            f.fail(key, "each dimension must be an integer " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " + shown(e));
        out[i] = static_cast<int>(e.get<std::int64_t>());
    }
}

// A non-negative integer, a JSON number or a decimal / "0x.." string, at most s.hi.
std::uint64_t read_u64(FieldReader& f, const FieldSpec& s, std::uint64_t def, const char* what) {
    const json* v = f.raw(s);
    if (!v) return def;
    std::uint64_t x = 0;
    bool ok = v->is_number_unsigned() || (v->is_number_integer() && v->get<std::int64_t>() >= 0);
    if (ok) x = v->get<std::uint64_t>();
    else if (v->is_string()) {
        const std::string t = v->get<std::string>();
        ok = parse_unsigned(t, x);
    }
    if (!ok || x > static_cast<std::uint64_t>(s.hi)) f.fail(s.key, std::string("must be ") + what + ", got " + shown(*v));
    return x;
}

json dims_json(const std::array<int, 3>& d) { return json::array({d[0], d[1], d[2]}); }

}  // namespace

void read_expr_request(FieldReader& f, MemoryRequest& r) {
    namespace F = fields;
    ExprRequest x;
    x.expr = f.string(F::expr);
    x.array = f.string(F::array.key, "");
    if (const json* c = f.raw(F::consts); c && c->is_object()) {  // {"N": 1024, "LD": "N + 1"} reads as "N=1024, LD=N + 1"
        for (const auto& [k, v] : c->items()) {
            if (!v.is_number_integer() && !v.is_string())
                f.fail(F::consts.key, "each value must be an integer or an expression, got " + shown(v));
            join_into(x.consts, ", ", k + "=" + (v.is_string() ? v.get<std::string>() : v.dump()));
        }
    } else {
        x.consts = f.string(F::consts.key, "");
    }
    for (auto k : {"addresses", "stride", "pitch", "pad", "swizzle", "order", "seed", "range"})
        if (f.has(k)) f.fail(k, "does not apply to pattern \"expr\" (the expression gives every address)");
    for (const char* k : kTileKeys)
        if (f.has(k)) f.fail(k, "does not apply to pattern \"expr\" (the expression gives every address)");

    ExprLaunch& l = x.launch;
    if (f.has(F::mem_block) && f.has(F::mem_threads)) f.fail(F::mem_threads.key, "give threads or block, not both");
    l.block[0] = static_cast<int>(f.integer(F::mem_threads));
    read_dims(f, F::mem_block.key, 1, 1024, l.block);
    read_dims(f, F::block_idx.key, 0, F::block_idx.hi, l.block_idx);
    for (std::size_t i = 0; i < 3; ++i) l.grid_dim[i] = l.block_idx[i] + 1;
    read_dims(f, F::grid_dim.key, 1, F::grid_dim.hi, l.grid_dim);
    l.warp = static_cast<int>(f.integer(F::warp));
    l.active_lanes = static_cast<std::uint32_t>(
        read_u64(f, F::active_lanes, 0xffffffffu, "a 32-bit lane mask 0..0xffffffff (e.g. 65535 or \"0xffff\")"));
    l.base = read_u64(f, F::base, 0, "a byte address 0..2^48 (number or \"0x...\" string)");
    l.offset = f.integer(F::offset);
    l.op = f.choice(F::mem_op) == "store" ? AccessOp::store : AccessOp::load;

    // The element size: the declaration's type, else elem_bytes or access_bytes (4 when neither).
    const bool sized = f.has(F::elem_bytes) || f.has(F::access_bytes);
    const std::string_view size_key = f.has(F::elem_bytes) ? F::elem_bytes.key : F::access_bytes.key;
    const int given = static_cast<int>(f.has(F::elem_bytes) ? f.integer(F::elem_bytes, 4) : f.integer(F::access_bytes));
    if (sized && !valid_global_access_bytes(given))
        f.fail(size_key, "must be 1, 2, 4, 8 or 16 (bytes per lane), got " + std::to_string(given));
    if (f.has(F::elem_bytes) && f.has(F::access_bytes) && f.integer(F::elem_bytes, 4) != f.integer(F::access_bytes))
        f.fail(F::access_bytes.key,
               "pattern \"expr\" moves one element per lane: access_bytes must equal elem_bytes (declare float4 for 16 bytes)");
    const IndexExpr e = IndexExpr::parse(x.expr, x.array, x.consts, sized ? given : 4);
    if (!e.ok()) throw RequestError(e.error());
    if (sized && !x.array.empty() && given != e.elem_bytes())
        f.fail(size_key, "the array holds " + e.type_name() + " (" + std::to_string(e.elem_bytes()) + " bytes), got " +
                             std::to_string(given) + "; change the declared type instead");

    WarpAccess w;
    if (std::string err = expr_warp_access(e, l, w); !err.empty()) throw RequestError(err);
    AccessPattern& p = r.pattern;
    p = AccessPattern{};
    p.kind = PatternKind::addresses;
    p.access_bytes = p.elem_bytes = w.access_bytes;
    p.op = w.op;
    p.active_lanes = w.active;
    p.addresses = w.addr;
    r.expr = std::move(x);
    if (std::string err = check_pattern(p); !err.empty()) throw RequestError(err);
}

json expr_request_to_json(const MemoryRequest& r) {
    const ExprRequest& x = *r.expr;
    const ExprLaunch& l = x.launch;
    return json{{"pattern", "expr"},
                {"active_lanes", l.active_lanes},
                {"expr", x.expr},
                {"array", x.array},
                {"consts", x.consts},
                {"block", dims_json(l.block)},
                {"block_idx", dims_json(l.block_idx)},
                {"grid_dim", dims_json(l.grid_dim)},
                {"warp", l.warp},
                {"base", l.base},
                {"offset", l.offset}};
}

}  // namespace occ::io
