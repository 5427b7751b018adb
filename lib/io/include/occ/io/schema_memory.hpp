// occ/io/schema_memory.hpp — the descriptions of the memory-access (coalesce, banks) and roofline
// fields (occ/io/schema.hpp says what a description holds and what reads it).
#pragma once
#include <climits>
#include <cstdint>

#include "occ/device.hpp"
#include "occ/io/schema_launch.hpp"

// Designated initialisers name only the fields a description needs; the rest keep their defaults.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace occ::io::fields {

// [SECTION] Memory access
inline constexpr FieldSpec access_bytes{.key = "access_bytes",
                                        .type = FieldType::integer,
                                        .lo = 1,
                                        .hi = 32,
                                        .int_default = 4,
                                        .def = "4",
                                        .doc_type = "integer",
                                        .doc_range = "1, 2, 4, 8 or 16; 32 in global memory on cc 10.0+",
                                        .unit = "bytes per lane",
                                        .help = "Bytes per lane: 1, 2, 4, 8, 16 (float4); 32 (double4_32a) global only, cc 10.0+",
                                        .short_flag = 'b'};
inline constexpr FieldSpec elem_bytes{.key = "elem_bytes",
                                      .type = FieldType::integer,
                                      .lo = 1,
                                      .hi = 32,
                                      .def = "access_bytes",
                                      .doc_type = "integer",
                                      .doc_range = "1, 2, 4, 8, 16 or 32",
                                      .unit = "bytes",
                                      .help = "Element size for indexing [= --access-bytes]"};
inline constexpr FieldSpec mem_op{.key = "op",
                                  .type = FieldType::choice,
                                  .choices = "load,store",
                                  .def = "load",
                                  .doc_type = "string",
                                  .doc_range = "load, store",
                                  .unit = "-",
                                  .help = "load or store"};
inline constexpr FieldSpec pattern{.key = "pattern",
                                   .type = FieldType::choice,
                                   .choices = "affine,2d,gather,addresses,tile,expr",
                                   .def = "affine",
                                   .doc_type = "string",
                                   .doc_range = "affine, 2d, gather, addresses, tile, expr",
                                   .unit = "-",
                                   .help = "affine, 2d, gather, addresses, tile or expr [from the fields given]",
                                   .short_flag = 'p'};
inline constexpr FieldSpec active_lanes{.key = "active_lanes",
                                        .type = FieldType::mask,
                                        .lo = 0,
                                        .hi = 0xffffffffll,
                                        .int_default = 0xffffffffll,
                                        .def = "0xffffffff",
                                        .doc_type = "integer or \"0x..\" string",
                                        .doc_range = "0..0xffffffff",
                                        .unit = "lane mask",
                                        .help = "Lane mask 0xffff or lane ranges 0-15,20 [all]"};
inline constexpr FieldSpec addresses{.key = "addresses",
                                     .type = FieldType::addresses,
                                     .def = "-",
                                     .doc_type = "array of 1..32 addresses or null",
                                     .doc_range = "each 0..2^48",
                                     .unit = "bytes",
                                     .help = "Byte address per lane: 0,4,8,-,16 (- = inactive)",
                                     .short_flag = 'a'};
inline constexpr FieldSpec base{.key = "base",
                                .type = FieldType::u64,
                                .lo = 0,
                                .hi = (std::int64_t{1} << 48) - 1,
                                .def = "0",
                                .doc_type = "integer or \"0x..\" string",
                                .doc_range = "0..2^48-1",
                                .unit = "bytes",
                                .help = "Base byte address, decimal or 0x hex"};
inline constexpr FieldSpec offset{.key = "offset",
                                  .type = FieldType::integer,
                                  .lo = -detail::kTiB,
                                  .hi = detail::kTiB,
                                  .def = "0",
                                  .doc_type = "integer",
                                  .doc_range = "-2^40..2^40",
                                  .unit = "bytes",
                                  .help = "Bytes added to every address (4 = one float)"};
inline constexpr FieldSpec stride{.key = "stride",
                                  .type = FieldType::integer,
                                  .lo = -(1 << 24),
                                  .hi = 1 << 24,
                                  .int_default = 1,
                                  .def = "1",
                                  .doc_type = "integer",
                                  .doc_range = "-2^24..2^24 (affine only)",
                                  .unit = "elements",
                                  .help = "affine: elements between consecutive threads"};
inline constexpr FieldSpec mem_threads{.key = "threads",
                                       .type = FieldType::integer,
                                       .lo = 1,
                                       .hi = 1024,
                                       .int_default = 32,
                                       .def = "32",
                                       .doc_type = "integer",
                                       .doc_range = "1..1024",
                                       .unit = "threads",
                                       .help = "1-D block size instead of --block",
                                       .short_flag = 't'};
inline constexpr FieldSpec mem_block{.key = "block",
                                     .type = FieldType::dims,
                                     .lo = 1,
                                     .hi = 1024,
                                     .def = "[32,1,1]",
                                     .doc_type = "array of 1..3 integers",
                                     .doc_range = "each 1..1024",
                                     .unit = "threads",
                                     .help = "Block shape, x fastest: 32,8 or 16x16"};
inline constexpr FieldSpec pitch{.key = "pitch",
                                 .type = FieldType::integer,
                                 .lo = 0,
                                 .hi = 1 << 24,
                                 .def = "0",
                                 .doc_type = "integer",
                                 .doc_range = "0..2^24 (2d only; 0 = block extent)",
                                 .unit = "elements",
                                 .help = "2d: elements per row [block extent]"};
inline constexpr FieldSpec pad{.key = "pad",
                               .type = FieldType::integer,
                               .lo = 0,
                               .hi = 1024,
                               .def = "0",
                               .doc_type = "integer",
                               .doc_range = "0..1024 (2d and tile)",
                               .unit = "elements",
                               .help = "2d, tile: padding elements per row, tile[32][32+pad]"};
inline constexpr FieldSpec swizzle{.key = "swizzle",
                                   .type = FieldType::boolean,
                                   .def = "false",
                                   .doc_type = "boolean",
                                   .doc_range = "true/false (2d and tile)",
                                   .unit = "-",
                                   .help = "2d, tile: XOR-swizzle the column: col ^ row"};
inline constexpr FieldSpec order{.key = "order",
                                 .type = FieldType::choice,
                                 .choices = "row,column",
                                 .def = "row",
                                 .doc_type = "string",
                                 .doc_range = "row, column (2d only)",
                                 .unit = "-",
                                 .help = "2d: row = A[ty*pitch+tx], column = A[tx*pitch+ty]"};
inline constexpr FieldSpec seed{.key = "seed",
                                .type = FieldType::u64,
                                .lo = 0,
                                .hi = -1,
                                .int_default = 1,
                                .def = "1",
                                .doc_type = "integer",
                                .doc_range = "0..2^64-1 (gather only)",
                                .unit = "-",
                                .help = "gather: random seed"};
inline constexpr FieldSpec range{.key = "range",
                                 .type = FieldType::integer,
                                 .lo = 0,
                                 .hi = std::int64_t{1} << 32,
                                 .def = "0",
                                 .doc_type = "integer",
                                 .doc_range = "0..2^32 (gather only; 0 = permutation)",
                                 .unit = "elements",
                                 .help = "gather: random index < range; 0 = a permutation"};
inline constexpr FieldSpec tile{.key = "tile",
                                .type = FieldType::dims,
                                .lo = 1,
                                .hi = 1024,
                                .def = "-",
                                .doc_type = "array of 2 integers",
                                .doc_range = "rows, columns: each 1..1024 (pattern tile)",
                                .unit = "elements",
                                .help = "A shared-memory tile of ROWSxCOLS elements, e.g. 64x64 (pattern tile)"};
inline constexpr FieldSpec tile_access{
    .key = "tile_access",
    .type = FieldType::list,
    .def = "row",
    .doc_type = "array of strings",
    .doc_range = "row, column, cp_async, ldmatrix.x1/x2/x4, stmatrix.x1/x2/x4, each matrix one with optional .trans (tile only)",
    .unit = "-",
    .help = "tile: the accesses made to it, e.g. row,column or ldmatrix.x4.trans"};
inline constexpr FieldSpec ldmatrix{.key = "ldmatrix",
                                    .type = FieldType::choice,
                                    .choices = "x1,x2,x4,x1.trans,x2.trans,x4.trans",
                                    .def = "-",
                                    .doc_type = "string",
                                    .doc_range = "x1, x2, x4, x1.trans, x2.trans, x4.trans (tile only)",
                                    .unit = "-",
                                    .help = "tile: add an ldmatrix of 1, 2 or 4 8x8 matrices (stmatrix with --op store)"};
inline constexpr FieldSpec cute_swizzle{.key = "cute_swizzle",
                                        .type = FieldType::text,
                                        .def = "-",
                                        .doc_type = "string",
                                        .doc_range = "Swizzle<B,M,S> or B,M,S: B 0..8, M 0..16, abs(S) >= B (tile only)",
                                        .unit = "-",
                                        .help = "tile: CuTe Swizzle<B,M,S> on the element offset, e.g. Swizzle<3,3,3>"};
inline constexpr FieldSpec tma_swizzle{
    .key = "tma_swizzle",
    .type = FieldType::choice,
    .choices = "none,32b,64b,128b,128b_atom_32b,128b_atom_32b_flip_8b,128b_atom_64b",
    .def = "none",
    .doc_type = "string",
    .doc_range = "none, 32B, 64B, 128B, 128B_ATOM_32B, 128B_ATOM_32B_FLIP_8B, 128B_ATOM_64B, any case (tile only)",
    .unit = "-",
    .help = "tile: the TMA swizzle mode (CU_TENSOR_MAP_SWIZZLE_*) that wrote the tile"};
inline constexpr FieldSpec rotate{.key = "rotate",
                                  .type = FieldType::integer,
                                  .lo = 0,
                                  .hi = 1024,
                                  .def = "0",
                                  .doc_type = "integer",
                                  .doc_range = "0..1024, dividing the tile's columns (tile only; 0 = off)",
                                  .unit = "elements",
                                  .help = "tile: rotation swizzle: chunk c of row r (chunks of N elements) moves to (c + r) mod chunks"};
inline constexpr FieldSpec global_base{
    .key = "global_base",
    .type = FieldType::integer,
    .lo = 0,
    .hi = (std::int64_t{1} << 48) - 1,
    .def = "-",
    .doc_type = "integer",
    .doc_range = "0..2^48-1 (tile only; default banks 0, coalesce base)",
    .unit = "bytes",
    .help = "tile: byte address of the global matrix cp_async copies from (its 32-byte alignment counts)"};
inline constexpr FieldSpec global_pitch{.key = "global_pitch",
                                        .type = FieldType::integer,
                                        .lo = 0,
                                        .hi = 1 << 24,
                                        .def = "0",
                                        .doc_type = "integer",
                                        .doc_range = "0..2^24 (tile only; 0 = the tile's columns)",
                                        .unit = "elements",
                                        .help = "tile: elements between rows of the global matrix it is copied from"};
inline constexpr FieldSpec expr{.key = "expr",
                                .type = FieldType::text,
                                .def = "-",
                                .doc_type = "string",
                                .doc_range = "a C++ access: A[...], tile[...][...] or an element index (pattern expr)",
                                .unit = "-",
                                .help = "expr: the access as the kernel writes it, e.g. 'tile[threadIdx.y][threadIdx.x]'"};
inline constexpr FieldSpec array{.key = "array",
                                 .type = FieldType::text,
                                 .def = "1-D, elem_bytes",
                                 .doc_type = "string",
                                 .doc_range = "a declaration: float tile[32][33], __shared__ double s[N][LD], const float* A (expr only)",
                                 .unit = "-",
                                 .help = "expr: the array's declaration, e.g. 'float tile[32][33]' [1-D of --elem-bytes]"};
inline constexpr FieldSpec consts{.key = "consts",
                                  .type = FieldType::text,
                                  .def = "-",
                                  .doc_type = "string or object",
                                  .doc_range = "NAME=EXPR, ... each may use the built-ins and earlier names (expr only)",
                                  .unit = "-",
                                  .help = "expr: named values, e.g. N=1024,LD=N+1"};
inline constexpr FieldSpec block_idx{.key = "block_idx",
                                     .type = FieldType::dims,
                                     .lo = 0,
                                     .hi = INT_MAX - 1,
                                     .def = "[0,0,0]",
                                     .doc_type = "array of 1..3 integers",
                                     .doc_range = "each 0..grid_dim-1 (expr only)",
                                     .unit = "blocks",
                                     .help = "expr: blockIdx of the block, e.g. 3 or 3,1"};
inline constexpr FieldSpec grid_dim{.key = "grid_dim",
                                    .type = FieldType::dims,
                                    .lo = 1,
                                    .hi = INT_MAX,
                                    .def = "block_idx + 1",
                                    .doc_type = "array of 1..3 integers",
                                    .doc_range = "x 1..2^31-1, y and z 1..65535 (expr only)",
                                    .unit = "blocks",
                                    .help = "expr: gridDim [block_idx + 1]"};
inline constexpr FieldSpec warp{.key = "warp",
                                .type = FieldType::integer,
                                .lo = 0,
                                .hi = 31,
                                .def = "0",
                                .doc_type = "integer",
                                .doc_range = "0..31, below the block's warps (expr only)",
                                .unit = "warp",
                                .help = "expr: the warp of the block to evaluate (threads 32*warp ..); the CLI's --warp",
                                .no_flag = true};

// [SECTION] Roofline
inline constexpr FieldSpec roof_gpu{.key = "gpu",
                                    .type = FieldType::text,
                                    .def = kDefaultGpu,
                                    .doc_type = "string",
                                    .doc_range = "a device with roofline data (`occ roofline --list`)",
                                    .unit = "-",
                                    .help = "Device name or alias (see --list)",
                                    .short_flag = 'g'};
inline constexpr FieldSpec op{
    .key = "op",
    .type = FieldType::choice,
    .choices = "matmul,attention_decode,elementwise,softmax,layernorm,custom,gemm,attention,decode,add,ln",
    .def = "matmul",
    .doc_type = "string",
    .doc_range = "matmul, attention_decode, elementwise, softmax, layernorm, custom (gemm, attention, decode, add, ln)",
    .unit = "-",
    .help = "matmul, attention_decode, elementwise, softmax, layernorm, custom"};
inline constexpr FieldSpec dtype{
    .key = "dtype",
    .type = FieldType::choice,
    .choices = "fp64,fp64_tensor,fp32,tf32,fp16,bf16,fp8,int8,double,float,half,bfloat16,e4m3,e5m2",
    .def = "fp16",
    .doc_type = "string",
    .doc_range = "fp64, fp64_tensor, fp32, tf32, fp16, bf16, fp8, int8 (double, float, half, bfloat16, e4m3, e5m2)",
    .unit = "-",
    .help = "Element type: fp64, fp32, tf32, fp16, bf16, fp8, int8"};
#define OCC_OP_INT(name, unit_, help_)                          \
    inline constexpr FieldSpec name{.key = #name,               \
                                    .type = FieldType::integer, \
                                    .lo = 1,                    \
                                    .hi = detail::kBig,         \
                                    .def = "op default",        \
                                    .doc_type = "integer",      \
                                    .doc_range = "1..2^50",     \
                                    .unit = unit_,              \
                                    .help = help_};
OCC_OP_INT(m, "elements", "matmul M")
OCC_OP_INT(n, "elements", "matmul N")
OCC_OP_INT(k, "elements", "matmul K")
OCC_OP_INT(seq_len, "tokens", "attention: tokens in the KV cache")
OCC_OP_INT(head_dim, "elements", "attention: head dimension")
OCC_OP_INT(heads, "-", "attention: heads")
OCC_OP_INT(elements, "elements", "elementwise: element count")
OCC_OP_INT(rows, "-", "softmax/layernorm rows")
OCC_OP_INT(cols, "-", "softmax/layernorm columns")
#undef OCC_OP_INT
inline constexpr FieldSpec batch{.key = "batch_size",
                                 .type = FieldType::integer,
                                 .lo = 1,
                                 .hi = detail::kBig,
                                 .def = "op default",
                                 .doc_type = "integer",
                                 .doc_range = "1..2^50",
                                 .unit = "-",
                                 .help = "attention: sequences in the batch"};
inline constexpr FieldSpec inputs{.key = "inputs",
                                  .type = FieldType::integer,
                                  .lo = 1,
                                  .hi = 64,
                                  .def = "op default",
                                  .doc_type = "integer",
                                  .doc_range = "1..64",
                                  .unit = "tensors",
                                  .help = "elementwise: input tensors"};
inline constexpr FieldSpec flops_per_element{.key = "flops_per_element",
                                             .type = FieldType::number,
                                             .dlo = 0,
                                             .dhi = 1e6,
                                             .def = "op default",
                                             .doc_type = "number",
                                             .doc_range = "0..1e6",
                                             .unit = "FLOP",
                                             .help = "elementwise: FLOPs per element"};
inline constexpr FieldSpec flops{.key = "flops",
                                 .type = FieldType::number,
                                 .dlo = 0,
                                 .dhi = 1e30,
                                 .def = "-",
                                 .doc_type = "number",
                                 .doc_range = "0..1e30 (op custom only, required there)",
                                 .unit = "FLOP",
                                 .help = "custom: FLOPs"};
inline constexpr FieldSpec bytes{.key = "bytes",
                                 .type = FieldType::number,
                                 .dlo = 1,
                                 .dhi = 1e30,
                                 .def = "-",
                                 .doc_type = "number",
                                 .doc_range = "1..1e30 (op custom only, required there)",
                                 .unit = "bytes",
                                 .help = "custom: bytes moved"};
inline constexpr FieldSpec precision{.key = "precision",
                                     .type = FieldType::choice,
                                     .choices = "fp64,fp64_tensor,fp32,tf32,fp16,bf16,fp8,int8,double,float,half,bfloat16,e4m3,e5m2",
                                     .def = "the op's",
                                     .doc_type = "string",
                                     .doc_range = "as dtype",
                                     .unit = "-",
                                     .help = "Peak to use (default: matmul in its dtype on tensor cores, other ops fp32)"};
inline constexpr FieldSpec memory{.key = "memory",
                                  .type = FieldType::choice,
                                  .choices = "dram,l2",
                                  .def = "dram",
                                  .doc_type = "string",
                                  .doc_range = "dram, l2",
                                  .unit = "-",
                                  .help = "Memory level: dram or l2 (l2 needs --bandwidth-gbps)"};
inline constexpr FieldSpec measured_ms{.key = "measured_ms",
                                       .type = FieldType::duration,
                                       .dlo = 0,
                                       .dhi = 1e9,
                                       .def = "-",
                                       .doc_type = "number",
                                       .doc_range = "> 0..1e9",
                                       .unit = "milliseconds",
                                       .help = "Measured kernel time in ms (or 0.5ms, 120us, 0.002s): adds the % of the roofline reached"};
inline constexpr FieldSpec peak_tflops{.key = "peak_tflops",
                                       .type = FieldType::number,
                                       .dlo = 1e-6,
                                       .dhi = 1e6,
                                       .def = "device table",
                                       .doc_type = "number",
                                       .doc_range = "1e-6..1e6",
                                       .unit = "TFLOP/s",
                                       .help = "Override (or give, for a custom device) the peak in TFLOP/s"};
inline constexpr FieldSpec bandwidth_gbps{.key = "bandwidth_gbps",
                                          .type = FieldType::number,
                                          .dlo = 1e-3,
                                          .dhi = 1e7,
                                          .def = "device table",
                                          .doc_type = "number",
                                          .doc_range = "1e-3..1e7",
                                          .unit = "GB/s",
                                          .help = "Override (or give) the bandwidth in GB/s"};
inline constexpr FieldSpec compare{.key = "compare",
                                   .type = FieldType::list,
                                   .def = "-",
                                   .doc_type = "array of device names",
                                   .doc_range = "-",
                                   .unit = "-",
                                   .help = "Other devices to compare on the same op (comma-separated or repeated)"};
inline constexpr FieldSpec ops{.key = "ops",
                               .type = FieldType::objects,
                               .def = "-",
                               .doc_type = "array of op objects",
                               .doc_range = "each with the op fields above and label",
                               .unit = "-",
                               .help = "Several operations at once",
                               .no_flag = true};

}  // namespace occ::io::fields

#pragma GCC diagnostic pop
