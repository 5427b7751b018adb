// api_memory_expr.hpp — io-internal: pattern "expr" of the coalesce and banks requests (api_memory_expr.cpp).
#pragma once
#include "occ/io/api.hpp"

namespace occ::io {

// The keys only pattern "expr" takes.
inline constexpr std::string_view kExprKeys[] = {"expr", "array", "consts", "block_idx", "grid_dim", "warp"};

// Reads the expression fields into r.expr, evaluates the chosen warp and stores its lanes in
// r.pattern (kind addresses), so the existing analyses count them. Throws RequestError naming the
// field ("expr: unknown name 'threadIdy' at column 7; did you mean threadIdx?").
void read_expr_request(FieldReader& f, MemoryRequest& r);
json expr_request_to_json(const MemoryRequest& r);  // the echo's fields for pattern "expr"

}  // namespace occ::io
