// occ/io/schema_ptx.hpp — the descriptions of the fields of kind "memory": a kernel's PTX, run warp
// by warp (occ/warp_interp.hpp) with every access costed (occ/io/schema.hpp says what a description
// holds and what reads it).
#pragma once
#include <climits>
#include <cstdint>

#include "occ/io/schema_launch.hpp"

// Designated initialisers name only the fields a description needs; the rest keep their defaults.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace occ::io::fields {

// [SECTION] A kernel's PTX
inline constexpr FieldSpec ptx_text{.key = "ptx",
                                    .type = FieldType::text,
                                    .def = "-",
                                    .doc_type = "string",
                                    .doc_range = "PTX text (nvcc -ptx, Triton's <name>.ptx) (required)",
                                    .unit = "-",
                                    .help = "The PTX (the CLI reads it from FILE)",
                                    .no_flag = true};
inline constexpr FieldSpec ptx_triton{.key = "triton",
                                      .type = FieldType::any,
                                      .def = "-",
                                      .doc_type = "object or string",
                                      .doc_range = "a Triton cache entry's <name>.json: block = num_warps x warp_size, kernel = its name",
                                      .unit = "-",
                                      .help = "Triton's metadata (the CLI reads it beside FILE)",
                                      .no_flag = true};
inline constexpr FieldSpec ptx_kernel{.key = "kernel",
                                      .type = FieldType::text,
                                      .def = "the only entry",
                                      .doc_type = "string",
                                      .doc_range = "an .entry of the PTX, mangled or as its name starts",
                                      .unit = "-",
                                      .help = "The .entry to run, e.g. _Z8copy_f32PKfPfi [the only entry]"};
// CUDA C++ Programming Guide, "Technical Specifications": blockDim.x and y at most 1024, z at most
// 64, at most 1024 threads a block (the interpreter checks the product and z).
inline constexpr FieldSpec ptx_block{.key = "block",
                                     .type = FieldType::dims,
                                     .lo = 1,
                                     .hi = 1024,
                                     .def = "[128,1,1]",
                                     .doc_type = "array of 1..3 integers",
                                     .doc_range = "each 1..1024, z 1..64, at most 1024 threads",
                                     .unit = "threads",
                                     .help = "blockDim, x fastest: 128 or 32,8 or 16x16"};
// Same source: gridDim.x below 2^31, y and z at most 65535.
inline constexpr FieldSpec ptx_grid{.key = "grid",
                                    .type = FieldType::dims,
                                    .lo = 1,
                                    .hi = INT_MAX,
                                    .def = "[1,1,1]",
                                    .doc_type = "array of 1..3 integers",
                                    .doc_range = "x 1..2^31-1, y and z 1..65535",
                                    .unit = "blocks",
                                    .help = "gridDim: 256 or 16,16"};
inline constexpr FieldSpec ptx_params{.key = "params",
                                      .type = FieldType::list,
                                      .def = "pointers symbolic, others unknown",
                                      .doc_type = "object or array of strings",
                                      .doc_range =
                                          "{\"n\": 4096} or [\"n=4096\"]: a .param name, the name's tail after _param_, or its "
                                          "0-based position; values 0..2^64-1",
                                      .unit = "-",
                                      .help = "Kernel arguments by name or position; the CLI's --param NAME=VALUE (repeatable)",
                                      .no_flag = true};
inline constexpr FieldSpec ptx_warps{.key = "warps",
                                     .type = FieldType::list,
                                     .def = "first,last",
                                     .doc_type = "array of strings or integers",
                                     .doc_range = "each W, first, last or all (warps of block 0), or BX.BY.BZ:W for another block",
                                     .unit = "warps",
                                     .help = "Warps to run: 0,3 or all or 1.0.0:2 (block 1, warp 2) [first,last]"};
inline constexpr FieldSpec ptx_max_visits{.key = "max_visits",
                                          .type = FieldType::integer,
                                          .lo = 1,
                                          .hi = 1 << 20,
                                          .int_default = 256,
                                          .def = "256",
                                          .doc_type = "integer",
                                          .doc_range = "1..1048576",
                                          .unit = "executions",
                                          .help = "Loop bound: executions of one instruction per warp before the warp stops"};
inline constexpr FieldSpec ptx_unknown_branch{.key = "unknown_branch",
                                              .type = FieldType::choice,
                                              .choices = "stop,not_taken,taken",
                                              .def = "stop",
                                              .doc_type = "string",
                                              .doc_range = "stop, not_taken, taken",
                                              .unit = "-",
                                              .help = "A branch on an unknown value: stop the warp, or assume it falls through or jumps"};

}  // namespace occ::io::fields

#pragma GCC diagnostic pop
