// schema.cpp — the request fields (see occ/io/schema.hpp). The doc_* strings are the columns of
// docs/INPUTS.md; tests/unit/test_schema.cpp checks that the two agree.
#include "occ/io/schema.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <string>

#include "occ/cluster.hpp"
#include "occ/io/api.hpp"
#include "occ/io/binary.hpp"
#include "occ/io/binding.hpp"
#include "occ/io/ncu.hpp"
#include "occ/register_pool.hpp"

// Designated initialisers name only the fields a description needs; the rest keep their defaults.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace occ::io {

std::string flag_name(std::string_view key) {
    std::string s = "--";
    for (char c : key) s += c == '_' ? '-' : c;
    return s;
}

namespace fields {
namespace {
constexpr std::int64_t kI = INT_MAX;  // the model checks the real range and names the device's limit
constexpr std::int64_t kTiB = std::int64_t{1} << 40;
constexpr std::int64_t kBig = std::int64_t{1} << 50;
constexpr std::string_view kSizeExpect = "a size in bytes >= 0 (e.g. 49152 or \"48K\")";
}  // namespace

using T = FieldType;

// [SECTION] Device
constexpr FieldSpec gpu{
    .key = "gpu",
    .type = T::text,
    .def = kDefaultGpu,
    .doc_type = "string",
    .doc_range =
        "a name, alias or driver-printed name from `occ gpus` (\"NVIDIA H100 80GB HBM3\", \"AMD Instinct MI300X\"; any case, "
        "spaces/dashes and a leading NVIDIA/GeForce/Tesla/AMD/Instinct/Radeon ignored; exact, never a part of the name)",
    .unit = "-",
    .help =
        "GPU name, alias or the name nvidia-smi / torch print (see `occ gpus`), e.g. A100, h100, RTX-4090, "
        "\"NVIDIA H100 80GB HBM3\", MI300X (AMD)",
    .short_flag = 'g'};
constexpr FieldSpec cc{.key = "cc",
                       .type = T::cc,
                       .def = "-",
                       .doc_type = "string or number",
                       .doc_range = "a modelled compute capability, \"8.0\", \"sm_90\", 8.6",
                       .unit = "-",
                       .help = "Compute capability instead of a GPU (one SM), e.g. 8.0 or sm_90"};
constexpr FieldSpec device{.key = "device",
                           .type = T::device,
                           .def = "-",
                           .doc_type = "object",
                           .doc_range = "cudaDeviceProp field names (below)",
                           .unit = "-",
                           .help = "Custom device: JSON file or inline JSON with cudaDeviceProp field names"};

constexpr FieldSpec arch{.key = "arch",
                         .type = T::text,
                         .def = "-",
                         .doc_type = "string",
                         .doc_range =
                             "an AMD target occ models (`occ gpus`: gfx908, gfx90a, gfx942, gfx950, gfx1030, gfx1100..gfx1103, gfx1150, "
                             "gfx1151, gfx1200, gfx1201)",
                         .unit = "-",
                         .help = "AMD target instead of a GPU (one CU or WGP), e.g. gfx942 or gfx1100"};

// [SECTION] Launch and kernel resources
constexpr FieldSpec threads{.key = "threads",
                            .type = T::integer,
                            .lo = -kI,
                            .hi = kI,
                            .expect = "an integer 1..1024 (threads per block)",
                            .int_default = 256,
                            .def = "256",
                            .doc_type = "integer (number or numeric string)",
                            .doc_range = "1..max threads per block (1024)",
                            .unit = "threads per block",
                            .help = "Threads per block",
                            .short_flag = 't'};
constexpr FieldSpec block{.key = "block",
                          .type = T::dims,
                          .lo = 1,
                          .hi = 1024,
                          .def = "-",
                          .doc_type = "array of 1..3 integers",
                          .doc_range = "each 1..1024, z 1..64",
                          .unit = "threads",
                          .help = "3-D block instead of --threads, e.g. 32,8 or 16x16x4"};
constexpr FieldSpec regs{.key = "regs",
                         .type = T::integer,
                         .lo = -kI,
                         .hi = kI,
                         .expect = "an integer 0..255 (registers per thread)",
                         .int_default = 32,
                         .def = "32",
                         .doc_type = "integer",
                         .doc_range = "0..max registers per thread (255)",
                         .unit = "registers per thread",
                         .help = "Registers per thread",
                         .short_flag = 'r'};
constexpr FieldSpec smem_static{.key = "smem_static",
                                .type = T::size,
                                .lo = -kTiB,
                                .hi = kTiB,
                                .expect = kSizeExpect,
                                .def = "0",
                                .doc_type = "size (bytes or \"48K\")",
                                .doc_range = ">= 0",
                                .unit = "bytes",
                                .help = "Static shared memory per block (bytes or 48K)"};
constexpr FieldSpec smem_dynamic{.key = "smem_dynamic",
                                 .type = T::size,
                                 .lo = -kTiB,
                                 .hi = kTiB,
                                 .expect = kSizeExpect,
                                 .def = "0",
                                 .doc_type = "size",
                                 .doc_range = ">= 0",
                                 .unit = "bytes",
                                 .help = "Dynamic shared memory per block",
                                 .short_flag = 's'};
constexpr FieldSpec carveout{.key = "carveout",
                             .type = T::integer,
                             .lo = -kI,
                             .hi = kI,
                             .expect = "an integer: -1 (default) or 0..100 percent",
                             .int_default = -1,
                             .def = "-1",
                             .doc_type = "integer",
                             .doc_range = "-1 (default) or 0..100",
                             .unit = "percent",
                             .help = "Preferred shared-memory carveout in percent, -1 = the driver's default"};
constexpr FieldSpec cache_config{.key = "cache_config",
                                 .type = T::choice,
                                 .choices = "none,shared,l1,equal",
                                 .def = "none",
                                 .doc_type = "string",
                                 .doc_range = "none, shared, l1, equal",
                                 .unit = "-",
                                 .help = "Cache preference (cudaFuncSetCacheConfig): none, shared, l1, equal"};
constexpr FieldSpec optin{.key = "optin",
                          .type = T::boolean,
                          .def = "false",
                          .doc_type = "boolean",
                          .doc_range = "true/false (also 0/1, \"yes\"/\"no\", \"on\"/\"off\")",
                          .unit = "-",
                          .help = "Kernel raised its dynamic shared-memory limit to the device's opt-in maximum"};
constexpr FieldSpec max_dynamic_smem{.key = "max_dynamic_smem",
                                     .type = T::size,
                                     .lo = -1,
                                     .hi = kTiB,
                                     .expect = "a size in bytes >= 0, or -1 to derive it from optin",
                                     .int_default = -1,
                                     .def = "-1",
                                     .doc_type = "size",
                                     .doc_range = "-1..1 TiB; -1 = from optin; at most the opt-in maximum minus static",
                                     .unit = "bytes",
                                     .help = "cudaFuncAttributeMaxDynamicSharedMemorySize, -1 = from --optin"};
constexpr FieldSpec barriers{.key = "barriers",
                             .type = T::integer,
                             .lo = -kI,
                             .hi = kI,
                             .expect = "an integer 0..16 (named barriers per block)",
                             .int_default = 1,
                             .def = "1",
                             .doc_type = "integer",
                             .doc_range = "0..16",
                             .unit = "named barriers per block",
                             .help = "Named barriers per block (counted from cc 9.0)"};
constexpr FieldSpec virtual_resources{
    .key = "virtual_resources",
    .type = T::integer,
    .lo = -kI,
    .hi = kI,
    .expect = "an integer >= 0 (virtual resources per block, 0 = none)",
    .int_default = 0,
    .def = "0",
    .doc_type = "integer",
    .doc_range = ">= 0 (0 = none; counted from cc 10.0: 128 per SM)",
    .unit = "virtual resources per block",
    .help = "Virtual resources per block (cuda_occupancy.h virtualResourceCount; 128 per SM from cc 10.0)"};
constexpr FieldSpec max_threads{.key = "max_threads",
                                .type = T::integer,
                                .lo = 0,
                                .hi = kI,
                                .expect = "an integer >= 0 (the kernel's most threads per block, 0 = the device's maximum)",
                                .int_default = 0,
                                .def = "0",
                                .doc_type = "integer",
                                .doc_range = ">= 0 (0 = not given: the device's maximum)",
                                .unit = "threads per block",
                                .help = "The kernel's maxThreadsPerBlock (__launch_bounds__): a larger block fails to launch; 0 = none"};
constexpr FieldSpec tmem_columns{.key = "tmem_columns",
                                 .type = T::integer,
                                 .lo = 0,
                                 .hi = 512,
                                 .expect = "0 (none) or a power of two from 32 to 512 (tcgen05.alloc columns)",
                                 .int_default = 0,
                                 .def = "0",
                                 .doc_type = "integer",
                                 .doc_range = "0, 32, 64, 128, 256 or 512 (cc 10.0, 10.3, 11.0)",
                                 .unit = "TMEM columns per block",
                                 .help =
                                     "Tensor Memory columns each block allocates (tcgen05.alloc, 512 per SM): blocks beyond "
                                     "512 / columns wait, limiting the effective occupancy; 0 = none",
                                 .valid = [](std::int64_t c) { return tmem_columns_valid(c); }};
constexpr FieldSpec warpgroup_regs{.key = "warpgroup_regs",
                                   .type = T::list,
                                   .lo = kSetmaxnregMin,
                                   .hi = kSetmaxnregMax,
                                   .expect = "24..256 in steps of 8 (PTX ISA setmaxnreg)",
                                   .def = "-",
                                   .doc_type = "array of integers",
                                   .doc_range = "one per warpgroup (threads / 128), each 24..256 in steps of 8",
                                   .unit = "registers per thread",
                                   .help =
                                       "Register counts after setmaxnreg, one per warpgroup (e.g. 24,240,240 at --regs 168): "
                                       "checked against the block's register pool",
                                   .valid = [](std::int64_t v) { return v % kSetmaxnregStep == 0; }};
// AMD GPUs (occ/io/amd.hpp): regs are the arch VGPRs, smem_static / smem_dynamic the LDS.
constexpr FieldSpec agprs{.key = "agprs",
                          .type = T::integer,
                          .lo = -kI,
                          .hi = kI,
                          .expect = "an integer 0..256 (AGPRs per lane)",
                          .def = "0",
                          .doc_type = "integer",
                          .doc_range = "0..256 on gfx908/gfx90a/gfx942/gfx950 (AMD only); 0 elsewhere",
                          .unit = "accumulation VGPRs per lane",
                          .help = "AMD: accumulation VGPRs (AGPRs) per lane, .agpr_count / NumAgprs"};
constexpr FieldSpec sgprs{.key = "sgprs",
                          .type = T::integer,
                          .lo = -kI,
                          .hi = kI,
                          .expect = "an integer 0..108 (SGPRs per wave)",
                          .int_default = 32,
                          .def = "32",
                          .doc_type = "integer",
                          .doc_range = "0..108 (AMD only; with VCC, flat scratch and XNACK mask, as the compiler reports)",
                          .unit = "SGPRs per wave",
                          .help = "AMD: SGPRs per wave, .sgpr_count / NumSgprs (limits occupancy on gfx9 only)"};
constexpr FieldSpec wave_size{.key = "wave_size",
                              .type = T::integer,
                              .lo = 0,
                              .hi = 64,
                              .expect = "0 (the target's default), 32 or 64",
                              .def = "0",
                              .doc_type = "integer",
                              .doc_range = "0 (the target's: 64 on CDNA, 32 on RDNA), 32, 64 (AMD only)",
                              .unit = "lanes",
                              .help = "AMD: wave size 32 or 64; 0 = the target's default (64 on CDNA, 32 on RDNA)",
                              .valid = [](std::int64_t v) { return v == 0 || v == 32 || v == 64; }};
constexpr FieldSpec cu_mode{.key = "cu_mode",
                            .type = T::boolean,
                            .def = "false",
                            .doc_type = "boolean",
                            .doc_range = "true/false (AMD RDNA only: -mcumode, a workgroup on one CU instead of a WGP)",
                            .unit = "-",
                            .help = "AMD RDNA: compiled with -mcumode (a workgroup on one CU, not a WGP of two)"};
constexpr FieldSpec partitioned_gc{.key = "partitioned_gc",
                                   .type = T::choice,
                                   .choices = "off,on,strict",
                                   .def = "off",
                                   .doc_type = "string",
                                   .doc_range = "off, on, strict",
                                   .unit = "-",
                                   .help = "Partitioned global caching on 5.2/5.3/6.1/6.2: off, on, strict"};
constexpr FieldSpec grid{.key = "grid",
                         .type = T::integer,
                         .lo = 0,
                         .hi = (std::int64_t{1} << 31) * 65535,
                         .def = "0",
                         .doc_type = "integer",
                         .doc_range = "0..2^31 x 65535 (0 = not given)",
                         .unit = "blocks",
                         .help = "Blocks in the grid (waves and the tail)"};
constexpr FieldSpec sweep{.key = "sweep",
                          .type = T::choice,
                          .choices = "none,threads,regs,smem",
                          .def = "none",
                          .doc_type = "string",
                          .doc_range = "none, threads, regs, smem",
                          .unit = "-",
                          .help = "Also show occupancy against one input: threads, regs or smem"};

// [SECTION] Advisor and clusters
constexpr FieldSpec smem_per_thread{.key = "smem_per_thread",
                                    .type = T::size,
                                    .lo = 0,
                                    .hi = 1 << 20,
                                    .def = "0",
                                    .doc_type = "size",
                                    .doc_range = "0..1 MiB",
                                    .unit = "bytes per thread",
                                    .help = "Dynamic smem that grows with the block: bytes per thread (instead of --smem-dynamic)"};
constexpr FieldSpec smem_fixed{.key = "smem_fixed",
                               .type = T::size,
                               .lo = 0,
                               .hi = std::int64_t{1} << 30,
                               .def = "smem_dynamic",
                               .doc_type = "size",
                               .doc_range = "0..1 GiB",
                               .unit = "bytes per block",
                               .help = "Dynamic smem per block that does not grow with it (with --smem-per-thread)"};
constexpr FieldSpec block_size_limit{.key = "block_size_limit",
                                     .type = T::integer,
                                     .lo = 0,
                                     .hi = 1 << 20,
                                     .def = "0",
                                     .doc_type = "integer",
                                     .doc_range = "0..2^20 (0 = none)",
                                     .unit = "threads",
                                     .help = "Largest block size the kernel supports, 0 = the device's maximum"};
constexpr FieldSpec target_blocks{.key = "target_blocks",
                                  .type = T::integer,
                                  .lo = 1,
                                  .hi = 1024,
                                  .int_default = 1,
                                  .def = "1",
                                  .doc_type = "integer",
                                  .doc_range = "1..1024",
                                  .unit = "blocks per SM",
                                  .help = "Blocks per SM wanted: the dynamic smem available per block there [current]"};
constexpr FieldSpec cluster_size{.key = "cluster_size",
                                 .type = T::integer,
                                 .lo = 0,
                                 .hi = kMaxNonPortableClusterSize,
                                 .def = "0",
                                 .doc_type = "integer",
                                 .doc_range = "1..8, or 9..16 with non_portable",
                                 .unit = "blocks",
                                 .help = "Thread block cluster size (9.0+): 1..8, up to 16 with --non-portable"};
constexpr FieldSpec cluster_size_required{.key = "cluster_size",
                                          .type = T::integer,
                                          .lo = 1,
                                          .hi = kMaxNonPortableClusterSize,
                                          .def = "-",
                                          .doc_type = "integer",
                                          .doc_range = "1..8, or 9..16 with non_portable (required for clusters)",
                                          .unit = "blocks",
                                          .help = "Thread block cluster size: 1..8, up to 16 with --non-portable (required)"};
constexpr FieldSpec non_portable{.key = "non_portable",
                                 .type = T::boolean,
                                 .def = "false",
                                 .doc_type = "boolean",
                                 .doc_range = "true/false",
                                 .unit = "-",
                                 .help = "Allow cluster sizes 9..16 (cudaFuncAttributeNonPortableClusterSizeAllowed)"};
constexpr FieldSpec gpc_sms{.key = "gpc_sms",
                            .type = T::list,
                            .lo = 1,
                            .hi = 64,
                            .def = "assumed layout",
                            .doc_type = "array of integers",
                            .doc_range = "each 1..64, adding up to the device's SMs",
                            .unit = "SMs",
                            .help = "SMs per GPC, overriding the assumed layout, e.g. 18,18,16,16,16,16,16,16"};

// [SECTION] Compiler logs
constexpr FieldSpec log{.key = "log",
                        .type = T::text,
                        .def = "-",
                        .doc_type = "string",
                        .doc_range = "text printed by nvcc -Xptxas -v or cuobjdump --dump-resource-usage (required)",
                        .unit = "-",
                        .help = "The compiler log (the CLI reads it with --ptxas FILE)",
                        .no_flag = true};

constexpr FieldSpec files{
    .key = "files",
    .type = T::objects,
    .def = "-",
    .doc_type = "array of file objects",
    .doc_range = "each {\"name\": string, \"base64\": the file's bytes}: a cubin, fatbin, .o, .so or executable (required)",
    .unit = "-",
    .help = "The binaries (the CLI takes their paths)",
    .no_flag = true};

// [SECTION] Nsight Compute reports
constexpr FieldSpec ncu_text{.key = "text",
                             .type = T::text,
                             .def = "-",
                             .doc_type = "string",
                             .doc_range = "an Nsight Compute report: ncu's text output, --csv --page details or --page raw (required)",
                             .unit = "-",
                             .help = "The report (the CLI reads it from FILE or -)",
                             .no_flag = true};

// [SECTION] Memory access
constexpr FieldSpec access_bytes{.key = "access_bytes",
                                 .type = T::integer,
                                 .lo = 1,
                                 .hi = 32,
                                 .int_default = 4,
                                 .def = "4",
                                 .doc_type = "integer",
                                 .doc_range = "1, 2, 4, 8 or 16; 32 in global memory on cc 10.0+",
                                 .unit = "bytes per lane",
                                 .help = "Bytes per lane: 1, 2, 4, 8, 16 (float4); 32 (double4_32a) global only, cc 10.0+",
                                 .short_flag = 'b'};
constexpr FieldSpec elem_bytes{.key = "elem_bytes",
                               .type = T::integer,
                               .lo = 1,
                               .hi = 32,
                               .def = "access_bytes",
                               .doc_type = "integer",
                               .doc_range = "1, 2, 4, 8, 16 or 32",
                               .unit = "bytes",
                               .help = "Element size for indexing [= --access-bytes]"};
constexpr FieldSpec mem_op{.key = "op",
                           .type = T::choice,
                           .choices = "load,store",
                           .def = "load",
                           .doc_type = "string",
                           .doc_range = "load, store",
                           .unit = "-",
                           .help = "load or store"};
constexpr FieldSpec pattern{.key = "pattern",
                            .type = T::choice,
                            .choices = "affine,2d,gather,addresses,tile,expr",
                            .def = "affine",
                            .doc_type = "string",
                            .doc_range = "affine, 2d, gather, addresses, tile, expr",
                            .unit = "-",
                            .help = "affine, 2d, gather, addresses, tile or expr [from the fields given]",
                            .short_flag = 'p'};
constexpr FieldSpec active_lanes{.key = "active_lanes",
                                 .type = T::mask,
                                 .lo = 0,
                                 .hi = 0xffffffffll,
                                 .int_default = 0xffffffffll,
                                 .def = "0xffffffff",
                                 .doc_type = "integer or \"0x..\" string",
                                 .doc_range = "0..0xffffffff",
                                 .unit = "lane mask",
                                 .help = "Lane mask 0xffff or lane ranges 0-15,20 [all]"};
constexpr FieldSpec addresses{.key = "addresses",
                              .type = T::addresses,
                              .def = "-",
                              .doc_type = "array of 1..32 addresses or null",
                              .doc_range = "each 0..2^48",
                              .unit = "bytes",
                              .help = "Byte address per lane: 0,4,8,-,16 (- = inactive)",
                              .short_flag = 'a'};
constexpr FieldSpec base{.key = "base",
                         .type = T::u64,
                         .lo = 0,
                         .hi = (std::int64_t{1} << 48) - 1,
                         .def = "0",
                         .doc_type = "integer or \"0x..\" string",
                         .doc_range = "0..2^48-1",
                         .unit = "bytes",
                         .help = "Base byte address, decimal or 0x hex"};
constexpr FieldSpec offset{.key = "offset",
                           .type = T::integer,
                           .lo = -kTiB,
                           .hi = kTiB,
                           .def = "0",
                           .doc_type = "integer",
                           .doc_range = "-2^40..2^40",
                           .unit = "bytes",
                           .help = "Bytes added to every address (4 = one float)"};
constexpr FieldSpec stride{.key = "stride",
                           .type = T::integer,
                           .lo = -(1 << 24),
                           .hi = 1 << 24,
                           .int_default = 1,
                           .def = "1",
                           .doc_type = "integer",
                           .doc_range = "-2^24..2^24 (affine only)",
                           .unit = "elements",
                           .help = "affine: elements between consecutive threads"};
constexpr FieldSpec mem_threads{.key = "threads",
                                .type = T::integer,
                                .lo = 1,
                                .hi = 1024,
                                .int_default = 32,
                                .def = "32",
                                .doc_type = "integer",
                                .doc_range = "1..1024",
                                .unit = "threads",
                                .help = "1-D block size instead of --block",
                                .short_flag = 't'};
constexpr FieldSpec mem_block{.key = "block",
                              .type = T::dims,
                              .lo = 1,
                              .hi = 1024,
                              .def = "[32,1,1]",
                              .doc_type = "array of 1..3 integers",
                              .doc_range = "each 1..1024",
                              .unit = "threads",
                              .help = "Block shape, x fastest: 32,8 or 16x16"};
constexpr FieldSpec pitch{.key = "pitch",
                          .type = T::integer,
                          .lo = 0,
                          .hi = 1 << 24,
                          .def = "0",
                          .doc_type = "integer",
                          .doc_range = "0..2^24 (2d only; 0 = block extent)",
                          .unit = "elements",
                          .help = "2d: elements per row [block extent]"};
constexpr FieldSpec pad{.key = "pad",
                        .type = T::integer,
                        .lo = 0,
                        .hi = 1024,
                        .def = "0",
                        .doc_type = "integer",
                        .doc_range = "0..1024 (2d and tile)",
                        .unit = "elements",
                        .help = "2d, tile: padding elements per row, tile[32][32+pad]"};
constexpr FieldSpec swizzle{.key = "swizzle",
                            .type = T::boolean,
                            .def = "false",
                            .doc_type = "boolean",
                            .doc_range = "true/false (2d and tile)",
                            .unit = "-",
                            .help = "2d, tile: XOR-swizzle the column: col ^ row"};
constexpr FieldSpec order{.key = "order",
                          .type = T::choice,
                          .choices = "row,column",
                          .def = "row",
                          .doc_type = "string",
                          .doc_range = "row, column (2d only)",
                          .unit = "-",
                          .help = "2d: row = A[ty*pitch+tx], column = A[tx*pitch+ty]"};
constexpr FieldSpec seed{.key = "seed",
                         .type = T::u64,
                         .lo = 0,
                         .hi = -1,
                         .int_default = 1,
                         .def = "1",
                         .doc_type = "integer",
                         .doc_range = "0..2^64-1 (gather only)",
                         .unit = "-",
                         .help = "gather: random seed"};
constexpr FieldSpec range{.key = "range",
                          .type = T::integer,
                          .lo = 0,
                          .hi = std::int64_t{1} << 32,
                          .def = "0",
                          .doc_type = "integer",
                          .doc_range = "0..2^32 (gather only; 0 = permutation)",
                          .unit = "elements",
                          .help = "gather: random index < range; 0 = a permutation"};
constexpr FieldSpec tile{.key = "tile",
                         .type = T::dims,
                         .lo = 1,
                         .hi = 1024,
                         .def = "-",
                         .doc_type = "array of 2 integers",
                         .doc_range = "rows, columns: each 1..1024 (pattern tile)",
                         .unit = "elements",
                         .help = "A shared-memory tile of ROWSxCOLS elements, e.g. 64x64 (pattern tile)"};
constexpr FieldSpec tile_access{
    .key = "tile_access",
    .type = T::list,
    .def = "row",
    .doc_type = "array of strings",
    .doc_range = "row, column, cp_async, ldmatrix.x1/x2/x4, stmatrix.x1/x2/x4, each matrix one with optional .trans (tile only)",
    .unit = "-",
    .help = "tile: the accesses made to it, e.g. row,column or ldmatrix.x4.trans"};
constexpr FieldSpec ldmatrix{.key = "ldmatrix",
                             .type = T::choice,
                             .choices = "x1,x2,x4,x1.trans,x2.trans,x4.trans",
                             .def = "-",
                             .doc_type = "string",
                             .doc_range = "x1, x2, x4, x1.trans, x2.trans, x4.trans (tile only)",
                             .unit = "-",
                             .help = "tile: add an ldmatrix of 1, 2 or 4 8x8 matrices (stmatrix with --op store)"};
constexpr FieldSpec cute_swizzle{.key = "cute_swizzle",
                                 .type = T::text,
                                 .def = "-",
                                 .doc_type = "string",
                                 .doc_range = "Swizzle<B,M,S> or B,M,S: B 0..8, M 0..16, abs(S) >= B (tile only)",
                                 .unit = "-",
                                 .help = "tile: CuTe Swizzle<B,M,S> on the element offset, e.g. Swizzle<3,3,3>"};
constexpr FieldSpec tma_swizzle{
    .key = "tma_swizzle",
    .type = T::choice,
    .choices = "none,32b,64b,128b,128b_atom_32b,128b_atom_32b_flip_8b,128b_atom_64b",
    .def = "none",
    .doc_type = "string",
    .doc_range = "none, 32B, 64B, 128B, 128B_ATOM_32B, 128B_ATOM_32B_FLIP_8B, 128B_ATOM_64B, any case (tile only)",
    .unit = "-",
    .help = "tile: the TMA swizzle mode (CU_TENSOR_MAP_SWIZZLE_*) that wrote the tile"};
constexpr FieldSpec rotate{.key = "rotate",
                           .type = T::integer,
                           .lo = 0,
                           .hi = 1024,
                           .def = "0",
                           .doc_type = "integer",
                           .doc_range = "0..1024, dividing the tile's columns (tile only; 0 = off)",
                           .unit = "elements",
                           .help = "tile: rotation swizzle: chunk c of row r (chunks of N elements) moves to (c + r) mod chunks"};
constexpr FieldSpec global_base{.key = "global_base",
                                .type = T::integer,
                                .lo = 0,
                                .hi = (std::int64_t{1} << 48) - 1,
                                .def = "-",
                                .doc_type = "integer",
                                .doc_range = "0..2^48-1 (tile only; default banks 0, coalesce base)",
                                .unit = "bytes",
                                .help = "tile: byte address of the global matrix cp_async copies from (its 32-byte alignment counts)"};
constexpr FieldSpec global_pitch{.key = "global_pitch",
                                 .type = T::integer,
                                 .lo = 0,
                                 .hi = 1 << 24,
                                 .def = "0",
                                 .doc_type = "integer",
                                 .doc_range = "0..2^24 (tile only; 0 = the tile's columns)",
                                 .unit = "elements",
                                 .help = "tile: elements between rows of the global matrix it is copied from"};
constexpr FieldSpec expr{.key = "expr",
                         .type = T::text,
                         .def = "-",
                         .doc_type = "string",
                         .doc_range = "a C++ access: A[...], tile[...][...] or an element index (pattern expr)",
                         .unit = "-",
                         .help = "expr: the access as the kernel writes it, e.g. 'tile[threadIdx.y][threadIdx.x]'"};
constexpr FieldSpec array{.key = "array",
                          .type = T::text,
                          .def = "1-D, elem_bytes",
                          .doc_type = "string",
                          .doc_range = "a declaration: float tile[32][33], __shared__ double s[N][LD], const float* A (expr only)",
                          .unit = "-",
                          .help = "expr: the array's declaration, e.g. 'float tile[32][33]' [1-D of --elem-bytes]"};
constexpr FieldSpec consts{.key = "consts",
                           .type = T::text,
                           .def = "-",
                           .doc_type = "string or object",
                           .doc_range = "NAME=EXPR, ... each may use the built-ins and earlier names (expr only)",
                           .unit = "-",
                           .help = "expr: named values, e.g. N=1024,LD=N+1"};
constexpr FieldSpec block_idx{.key = "block_idx",
                              .type = T::dims,
                              .lo = 0,
                              .hi = INT_MAX - 1,
                              .def = "[0,0,0]",
                              .doc_type = "array of 1..3 integers",
                              .doc_range = "each 0..grid_dim-1 (expr only)",
                              .unit = "blocks",
                              .help = "expr: blockIdx of the block, e.g. 3 or 3,1"};
constexpr FieldSpec grid_dim{.key = "grid_dim",
                             .type = T::dims,
                             .lo = 1,
                             .hi = INT_MAX,
                             .def = "block_idx + 1",
                             .doc_type = "array of 1..3 integers",
                             .doc_range = "x 1..2^31-1, y and z 1..65535 (expr only)",
                             .unit = "blocks",
                             .help = "expr: gridDim [block_idx + 1]"};
constexpr FieldSpec warp{.key = "warp",
                         .type = T::integer,
                         .lo = 0,
                         .hi = 31,
                         .def = "0",
                         .doc_type = "integer",
                         .doc_range = "0..31, below the block's warps (expr only)",
                         .unit = "warp",
                         .help = "expr: the warp of the block to evaluate (threads 32*warp ..); the CLI's --warp",
                         .no_flag = true};

// [SECTION] Roofline
constexpr FieldSpec roof_gpu{.key = "gpu",
                             .type = T::text,
                             .def = kDefaultGpu,
                             .doc_type = "string",
                             .doc_range = "a device with roofline data (`occ roofline --list`)",
                             .unit = "-",
                             .help = "Device name or alias (see --list)",
                             .short_flag = 'g'};
constexpr FieldSpec op{.key = "op",
                       .type = T::choice,
                       .choices = "matmul,attention_decode,elementwise,softmax,layernorm,custom,gemm,attention,decode,add,ln",
                       .def = "matmul",
                       .doc_type = "string",
                       .doc_range = "matmul, attention_decode, elementwise, softmax, layernorm, custom (gemm, attention, decode, add, ln)",
                       .unit = "-",
                       .help = "matmul, attention_decode, elementwise, softmax, layernorm, custom"};
constexpr FieldSpec dtype{.key = "dtype",
                          .type = T::choice,
                          .choices = "fp64,fp64_tensor,fp32,tf32,fp16,bf16,fp8,int8,double,float,half,bfloat16,e4m3,e5m2",
                          .def = "fp16",
                          .doc_type = "string",
                          .doc_range = "fp64, fp64_tensor, fp32, tf32, fp16, bf16, fp8, int8 (double, float, half, bfloat16, e4m3, e5m2)",
                          .unit = "-",
                          .help = "Element type: fp64, fp32, tf32, fp16, bf16, fp8, int8"};
#define OCC_OP_INT(name, unit_, help_)           \
    const FieldSpec name{.key = #name,           \
                         .type = T::integer,     \
                         .lo = 1,                \
                         .hi = kBig,             \
                         .def = "op default",    \
                         .doc_type = "integer",  \
                         .doc_range = "1..2^50", \
                         .unit = unit_,          \
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
constexpr FieldSpec batch{.key = "batch_size",
                          .type = T::integer,
                          .lo = 1,
                          .hi = kBig,
                          .def = "op default",
                          .doc_type = "integer",
                          .doc_range = "1..2^50",
                          .unit = "-",
                          .help = "attention: sequences in the batch"};
constexpr FieldSpec inputs{.key = "inputs",
                           .type = T::integer,
                           .lo = 1,
                           .hi = 64,
                           .def = "op default",
                           .doc_type = "integer",
                           .doc_range = "1..64",
                           .unit = "tensors",
                           .help = "elementwise: input tensors"};
constexpr FieldSpec flops_per_element{.key = "flops_per_element",
                                      .type = T::number,
                                      .dlo = 0,
                                      .dhi = 1e6,
                                      .def = "op default",
                                      .doc_type = "number",
                                      .doc_range = "0..1e6",
                                      .unit = "FLOP",
                                      .help = "elementwise: FLOPs per element"};
constexpr FieldSpec flops{.key = "flops",
                          .type = T::number,
                          .dlo = 0,
                          .dhi = 1e30,
                          .def = "-",
                          .doc_type = "number",
                          .doc_range = "0..1e30 (op custom only, required there)",
                          .unit = "FLOP",
                          .help = "custom: FLOPs"};
constexpr FieldSpec bytes{.key = "bytes",
                          .type = T::number,
                          .dlo = 1,
                          .dhi = 1e30,
                          .def = "-",
                          .doc_type = "number",
                          .doc_range = "1..1e30 (op custom only, required there)",
                          .unit = "bytes",
                          .help = "custom: bytes moved"};
constexpr FieldSpec precision{.key = "precision",
                              .type = T::choice,
                              .choices = "fp64,fp64_tensor,fp32,tf32,fp16,bf16,fp8,int8,double,float,half,bfloat16,e4m3,e5m2",
                              .def = "the op's",
                              .doc_type = "string",
                              .doc_range = "as dtype",
                              .unit = "-",
                              .help = "Peak to use (default: matmul in its dtype on tensor cores, other ops fp32)"};
constexpr FieldSpec memory{.key = "memory",
                           .type = T::choice,
                           .choices = "dram,l2",
                           .def = "dram",
                           .doc_type = "string",
                           .doc_range = "dram, l2",
                           .unit = "-",
                           .help = "Memory level: dram or l2 (l2 needs --bandwidth-gbps)"};
constexpr FieldSpec measured_ms{.key = "measured_ms",
                                .type = T::duration,
                                .dlo = 0,
                                .dhi = 1e9,
                                .def = "-",
                                .doc_type = "number",
                                .doc_range = "> 0..1e9",
                                .unit = "milliseconds",
                                .help = "Measured kernel time in ms (or 0.5ms, 120us, 0.002s): adds the % of the roofline reached"};
constexpr FieldSpec peak_tflops{.key = "peak_tflops",
                                .type = T::number,
                                .dlo = 1e-6,
                                .dhi = 1e6,
                                .def = "device table",
                                .doc_type = "number",
                                .doc_range = "1e-6..1e6",
                                .unit = "TFLOP/s",
                                .help = "Override (or give, for a custom device) the peak in TFLOP/s"};
constexpr FieldSpec bandwidth_gbps{.key = "bandwidth_gbps",
                                   .type = T::number,
                                   .dlo = 1e-3,
                                   .dhi = 1e7,
                                   .def = "device table",
                                   .doc_type = "number",
                                   .doc_range = "1e-3..1e7",
                                   .unit = "GB/s",
                                   .help = "Override (or give) the bandwidth in GB/s"};
constexpr FieldSpec compare{.key = "compare",
                            .type = T::list,
                            .def = "-",
                            .doc_type = "array of device names",
                            .doc_range = "-",
                            .unit = "-",
                            .help = "Other devices to compare on the same op (comma-separated or repeated)"};
constexpr FieldSpec ops{.key = "ops",
                        .type = T::objects,
                        .def = "-",
                        .doc_type = "array of op objects",
                        .doc_range = "each with the op fields above and label",
                        .unit = "-",
                        .help = "Several operations at once",
                        .no_flag = true};

constexpr FieldSpec id{.key = "id",
                       .type = T::any,
                       .def = "-",
                       .doc_type = "any JSON",
                       .doc_range = "echoed back unchanged",
                       .unit = "-",
                       .help = "Any JSON value, echoed back unchanged",
                       .no_flag = true};

}  // namespace fields

// [SECTION] Launch bindings
// The occupancy launch's plain fields, bound to the members they fill, in the order the echo
// writes them and the flags are listed. threads and block fill the same member and are read by
// read_occupancy_request itself; the device by read_device.
namespace {
using namespace fields;
using R = OccupancyRequest;
using K = KernelResources;
using L = LaunchConfig;
constexpr FieldBinding<R> kLaunchBindings[] = {
    bind<&R::kernel, &K::regs_per_thread>(regs, Fast::query, Echo::always, From::artefact),
    bind<&R::kernel, &K::smem_static>(smem_static, Fast::query, Echo::always, From::artefact),
    bind<&R::launch, &L::smem_dynamic>(smem_dynamic, Fast::query),
    bind<&R::launch, &L::carveout>(carveout, Fast::device),
    bind<&R::launch, &L::cache_config>(cache_config, Fast::device),
    bind<&R::kernel, &K::optin>(optin, Fast::query),
    bind<&R::kernel, &K::max_dynamic_smem>(max_dynamic_smem, Fast::general, Echo::unless_default),
    bind<&R::kernel, &K::barriers>(barriers, Fast::query, Echo::always, From::artefact),
    bind<&R::kernel, &K::partitioned_gc>(partitioned_gc, Fast::device),
    bind<&R::launch, &L::grid_blocks>(grid, Fast::no_count, Echo::unless_default),
    bind<&R::kernel, &K::virtual_resources>(virtual_resources, Fast::query, Echo::unless_default),
    bind<&R::kernel, &K::max_threads>(max_threads, Fast::general, Echo::unless_default),
    bind<&R::kernel, &K::tmem_columns>(tmem_columns, Fast::no_count, Echo::unless_default),
};

// [SECTION] Kinds
template <std::size_t... N>
constexpr auto join(const std::array<const FieldSpec*, N>&... parts) {
    std::array<const FieldSpec*, (N + ...)> out{};
    std::size_t i = 0;
    ((std::copy(parts.begin(), parts.end(), out.begin() + i), i += N), ...);
    return out;
}
template <typename... F>
constexpr auto specs(const F&... f) {
    return std::array<const FieldSpec*, sizeof...(F)>{&f...};
}
// The launch fields a request gives: all of them, or (without_artefact) those a compiled kernel does not.
constexpr std::size_t launch_count(bool without_artefact) {
    std::size_t n = 0;
    for (const auto& b : kLaunchBindings) n += !(without_artefact && b.from == From::artefact);
    return n;
}
template <bool WithoutArtefact>
constexpr auto launch_specs() {
    std::array<const FieldSpec*, launch_count(WithoutArtefact)> out{};
    std::size_t i = 0;
    for (const auto& b : kLaunchBindings)
        if (!(WithoutArtefact && b.from == From::artefact)) out[i++] = b.spec;
    return out;
}
constexpr auto kDevice = specs(gpu, cc, device);
constexpr auto kLaunch = join(specs(threads, block), launch_specs<false>(), specs(warpgroup_regs));

// AMD GPUs take these besides gpu, threads/block, regs and smem_* (occ/io/amd.hpp).
constexpr auto kAmdOnly = specs(arch, agprs, sgprs, wave_size, cu_mode);
constexpr auto kOccupancy = join(kDevice, kLaunch, specs(arch, agprs, sgprs, wave_size, cu_mode, sweep, id));
// advise and waves answer for AMD GPUs too (occ/io/amd.hpp, api_advisor.cpp).
constexpr auto kAdvise = join(kDevice, kLaunch, kAmdOnly,
                              specs(smem_per_thread, smem_fixed, block_size_limit, target_blocks, cluster_size, non_portable, gpc_sms, id));
constexpr auto kWaves = join(kDevice, kLaunch, kAmdOnly, specs(id));
constexpr auto kClusters = join(kDevice, kLaunch, specs(cluster_size_required, non_portable, gpc_sms, id));
// Registers, static shared memory and barriers come from the log.
// AMD: arch instead of gpu, wave_size and cu_mode (the kernels' registers and LDS come from the artefact).
constexpr auto kPtxas = join(specs(log), kDevice, specs(arch, threads, block), launch_specs<true>(), specs(wave_size, cu_mode, id));
constexpr auto kKernels = join(specs(files), kDevice, specs(arch, threads, block), launch_specs<true>(), specs(wave_size, cu_mode, id));
constexpr auto kNcu = join(specs(ncu_text), kDevice, specs(id));
constexpr auto kMemory = join(
    kDevice, specs(access_bytes, elem_bytes, mem_op, pattern, active_lanes, addresses, base, offset, stride, mem_threads, mem_block, pitch,
                   pad, swizzle, order, seed, range, tile, tile_access, ldmatrix, cute_swizzle, tma_swizzle, rotate, global_pitch,
                   global_base, expr, array, consts, block_idx, grid_dim, warp, id));
// Banks also answers for AMD GPUs (occ/io/amd_banks.hpp): an LLVM target instead of a GPU, and the wave size.
constexpr auto kBanks = join(kMemory, specs(arch, wave_size));
constexpr auto kRoofline = specs(roof_gpu, op, dtype, m, n, k, seq_len, head_dim, heads, batch, elements, inputs, flops_per_element, rows,
                                 cols, flops, bytes, precision, memory, measured_ms, peak_tflops, bandwidth_gbps, compare, ops, id);

const KindSpec kKinds[] = {
    {"occupancy", "Theoretical occupancy of a kernel launch on one SM", kOccupancy, "", &api_occupancy},
    {"advise", "Launch advisor: best block size, register/shared-memory headroom, waves, clusters", kAdvise, "occupancy,clusters",
     &api_advise},
    {"waves", "Blocks per wave, waves and the tail of a grid", kWaves, "occupancy", &api_waves},
    {"clusters", "Thread block clusters (9.0+): active clusters per GPU", kClusters, "occupancy", &api_clusters},
    {"ptxas", "Occupancy of every kernel in an nvcc -Xptxas -v / cuobjdump log", kPtxas, "occupancy", &api_ptxas},
    {"kernels", "Occupancy of every kernel in cubins, fatbins, objects, libraries and executables", kKernels, "occupancy", &api_kernels},
    {"coalesce", "Global-memory coalescing: sectors, lines, efficiency (cc >= 6.0)", kMemory, "occupancy", &api_coalesce},
    {"banks", "Shared-memory (LDS) bank conflicts: wavefronts, n-way, lanes (cc >= 5.0; AMD GPUs)", kBanks, "occupancy", &api_banks},
    {"roofline", "Roofline: intensity, attainable FLOP/s, ridge point and bound of an operation", kRoofline, "occupancy", &api_roofline},
    {"ncu", "An Nsight Compute report next to occ's prediction, line by line", kNcu, "occupancy", &api_ncu},
    {"gpus", "The GPUs and compute capabilities occ knows", {}, "", &api_gpus},
    {"roofline_devices", "The devices with roofline figures", {}, "", &api_roofline_devices},
};

}  // namespace

std::span<const FieldBinding<OccupancyRequest>> launch_bindings() { return kLaunchBindings; }

bool prepared_takes(const OccupancyRequest& r) {
    for (const FieldBinding<OccupancyRequest>& b : kLaunchBindings)
        if (b.fast == Fast::general && b.get(r) != b.def) return false;
    return true;
}
std::span<const FieldSpec* const> amd_only_fields() { return kAmdOnly; }

std::span<const KindSpec> request_kinds() { return kKinds; }

const KindSpec* find_kind(std::string_view name) {
    for (const KindSpec& k : kKinds)
        if (k.name == name) return &k;
    return nullptr;
}

const FieldSpec* find_field(const KindSpec& kind, std::string_view key) {
    for (const FieldSpec* f : kind.fields)
        if (f->key == key) return f;
    return nullptr;
}

}  // namespace occ::io
