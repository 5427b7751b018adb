// fuzz_expr.cpp — the index-expression parser and evaluator (occ/expr.hpp).
// Input: the expression, then optionally "\n" + the array declaration, "\n" + the named values,
// "\n" + a launch byte string. Properties: never crashes (deep nesting, huge literals, shifts,
// overflow); an error names its field and points at a column inside that field's text (or just past
// its end); a success gives in-range, naturally aligned addresses and is the same on a second run.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "occ/expr.hpp"

namespace {

// "field: ... at column N..." -> N checked against the length of that field's text.
void check_error(const std::string& e, std::string_view expr, std::string_view array, std::string_view consts) {
    FUZZ_CHECK(!e.empty() && e.size() < 1000, e);
    std::string_view text;
    if (e.rfind("expr: ", 0) == 0) text = expr;
    else if (e.rfind("array: ", 0) == 0) text = array;
    else if (e.rfind("consts: ", 0) == 0) text = consts;
    else FUZZ_CHECK(false, "an error that names no text field: " + e);  // the launch here is always valid
    const auto at = e.rfind(" at column ");                             // the message may quote the text itself
    if (at == std::string::npos) {
        FUZZ_CHECK(e.find("at most 4096 characters") != std::string::npos || e.find("lies outside byte addresses") != std::string::npos, e);
        return;
    }
    const long col = std::strtol(e.c_str() + at + 11, nullptr, 10);
    FUZZ_CHECK(col >= 1 && static_cast<std::size_t>(col) <= text.size() + 1, e);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view in(reinterpret_cast<const char*>(data), size);
    std::string_view part[4];
    for (int i = 0; i < 4; ++i) {
        const auto nl = i < 3 ? in.find('\n') : std::string_view::npos;
        part[i] = in.substr(0, nl);
        in = nl == std::string_view::npos ? std::string_view() : in.substr(nl + 1);
    }
    const occ::IndexExpr e = occ::IndexExpr::parse(part[0], part[1], part[2], 4);
    if (!e.ok()) {
        check_error(e.error(), part[0], part[1], part[2]);
        return 0;
    }
    occ::ExprLaunch l;
    const std::string_view k = part[3];
    auto byte = [&](std::size_t i, int mod) { return i < k.size() ? static_cast<unsigned char>(k[i]) % mod : 0; };
    l.block = {1 + byte(0, 64), 1 + byte(1, 16), 1};
    l.grid_dim = {1 + byte(2, 8), 1 + byte(3, 4), 1 + byte(4, 2)};
    l.block_idx = {byte(5, l.grid_dim[0]), byte(6, l.grid_dim[1]), 0};
    l.warp = byte(7, (l.block[0] * l.block[1] + 31) / 32);
    l.base = static_cast<std::uint64_t>(byte(8, 256)) << 20;
    occ::WarpAccess w, again;
    const std::string err = occ::expr_warp_access(e, l, w);
    if (!err.empty()) {
        check_error(err, part[0], part[1], part[2]);
        return 0;
    }
    FUZZ_CHECK(occ::expr_warp_access(e, l, again).empty() && again.active == w.active, "a second run differs");
    for (int lane = 0; lane < 32; ++lane) {
        if (!w.lane_active(lane)) continue;
        const std::uint64_t a = w.addr[static_cast<std::size_t>(lane)];
        FUZZ_CHECK(a < (std::uint64_t{1} << 48) && a % static_cast<std::uint64_t>(w.access_bytes) == 0, std::to_string(a));
        FUZZ_CHECK(a == again.addr[static_cast<std::size_t>(lane)], "a second run differs");
    }
    FUZZ_CHECK(occ::check_warp_access(w).empty(), occ::check_warp_access(w));
    return 0;
}
