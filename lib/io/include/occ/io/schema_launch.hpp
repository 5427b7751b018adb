// occ/io/schema_launch.hpp — the descriptions of the device, launch, kernel-resource, advisor,
// artefact and report fields (occ/io/schema.hpp says what a description holds and what reads it).
// The doc_* strings are the columns of docs/INPUTS.md; tests/unit/test_schema.cpp checks that the
// two agree. Constant expressions, so the bindings (occ/io/binding.hpp) work out defaults at
// compile time.
#pragma once
#include <climits>
#include <cstdint>

#include "occ/cluster.hpp"
#include "occ/device.hpp"
#include "occ/io/schema.hpp"
#include "occ/occupancy.hpp"
#include "occ/register_pool.hpp"

// Designated initialisers name only the fields a description needs; the rest keep their defaults.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace occ::io::fields {

// [SECTION] Device
inline constexpr FieldSpec gpu{
    .key = "gpu",
    .type = FieldType::text,
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
inline constexpr FieldSpec cc{.key = "cc",
                              .type = FieldType::cc,
                              .def = "-",
                              .doc_type = "string or number",
                              .doc_range = "a modelled compute capability, \"8.0\", \"sm_90\", 8.6",
                              .unit = "-",
                              .help = "Compute capability instead of a GPU (one SM), e.g. 8.0 or sm_90"};
inline constexpr FieldSpec device{.key = "device",
                                  .type = FieldType::device,
                                  .def = "-",
                                  .doc_type = "object",
                                  .doc_range = "cudaDeviceProp field names (below)",
                                  .unit = "-",
                                  .help = "Custom device: JSON file or inline JSON with cudaDeviceProp field names"};

inline constexpr FieldSpec arch{
    .key = "arch",
    .type = FieldType::text,
    .def = "-",
    .doc_type = "string",
    .doc_range =
        "an AMD target occ models (`occ gpus`: gfx908, gfx90a, gfx942, gfx950, gfx1030, gfx1100..gfx1103, gfx1150, "
        "gfx1151, gfx1200, gfx1201)",
    .unit = "-",
    .help = "AMD target instead of a GPU (one CU or WGP), e.g. gfx942 or gfx1100"};

// [SECTION] Launch and kernel resources
inline constexpr FieldSpec threads{.key = "threads",
                                   .type = FieldType::integer,
                                   .lo = -detail::kI,
                                   .hi = detail::kI,
                                   .expect = "an integer 1..1024 (threads per block)",
                                   .int_default = 256,
                                   .def = "256",
                                   .doc_type = "integer (number or numeric string)",
                                   .doc_range = "1..max threads per block (1024)",
                                   .unit = "threads per block",
                                   .help = "Threads per block",
                                   .short_flag = 't'};
inline constexpr FieldSpec block{.key = "block",
                                 .type = FieldType::dims,
                                 .lo = 1,
                                 .hi = 1024,
                                 .def = "-",
                                 .doc_type = "array of 1..3 integers",
                                 .doc_range = "each 1..1024, z 1..64",
                                 .unit = "threads",
                                 .help = "3-D block instead of --threads, e.g. 32,8 or 16x16x4"};
inline constexpr FieldSpec regs{.key = "regs",
                                .type = FieldType::integer,
                                .lo = -detail::kI,
                                .hi = detail::kI,
                                .expect = "an integer 0..255 (registers per thread)",
                                .int_default = 32,
                                .def = "32",
                                .doc_type = "integer",
                                .doc_range = "0..max registers per thread (255)",
                                .unit = "registers per thread",
                                .help = "Registers per thread",
                                .short_flag = 'r'};
inline constexpr FieldSpec smem_static{.key = "smem_static",
                                       .type = FieldType::size,
                                       .lo = -detail::kTiB,
                                       .hi = detail::kTiB,
                                       .expect = detail::kSizeExpect,
                                       .def = "0",
                                       .doc_type = "size (bytes or \"48K\")",
                                       .doc_range = ">= 0",
                                       .unit = "bytes",
                                       .help = "Static shared memory per block (bytes or 48K)"};
inline constexpr FieldSpec smem_dynamic{.key = "smem_dynamic",
                                        .type = FieldType::size,
                                        .lo = -detail::kTiB,
                                        .hi = detail::kTiB,
                                        .expect = detail::kSizeExpect,
                                        .def = "0",
                                        .doc_type = "size",
                                        .doc_range = ">= 0",
                                        .unit = "bytes",
                                        .help = "Dynamic shared memory per block",
                                        .short_flag = 's'};
inline constexpr FieldSpec carveout{.key = "carveout",
                                    .type = FieldType::integer,
                                    .lo = -detail::kI,
                                    .hi = detail::kI,
                                    .expect = "an integer: -1 (default) or 0..100 percent",
                                    .int_default = -1,
                                    .def = "-1",
                                    .doc_type = "integer",
                                    .doc_range = "-1 (default) or 0..100",
                                    .unit = "percent",
                                    .help = "Preferred shared-memory carveout in percent, -1 = the driver's default"};
inline constexpr FieldSpec cache_config{.key = "cache_config",
                                        .type = FieldType::choice,
                                        .choices = "none,shared,l1,equal",
                                        .def = "none",
                                        .doc_type = "string",
                                        .doc_range = "none, shared, l1, equal",
                                        .unit = "-",
                                        .help = "Cache preference (cudaFuncSetCacheConfig): none, shared, l1, equal"};
inline constexpr FieldSpec optin{.key = "optin",
                                 .type = FieldType::boolean,
                                 .def = "false",
                                 .doc_type = "boolean",
                                 .doc_range = "true/false (also 0/1, \"yes\"/\"no\", \"on\"/\"off\")",
                                 .unit = "-",
                                 .help = "Kernel raised its dynamic shared-memory limit to the device's opt-in maximum"};
inline constexpr FieldSpec max_dynamic_smem{.key = "max_dynamic_smem",
                                            .type = FieldType::size,
                                            .lo = -1,
                                            .hi = detail::kTiB,
                                            .expect = "a size in bytes >= 0, or -1 to derive it from optin",
                                            .int_default = -1,
                                            .def = "-1",
                                            .doc_type = "size",
                                            .doc_range = "-1..1 TiB; -1 = from optin; at most the opt-in maximum minus static",
                                            .unit = "bytes",
                                            .help = "cudaFuncAttributeMaxDynamicSharedMemorySize, -1 = from --optin"};
inline constexpr FieldSpec barriers{.key = "barriers",
                                    .type = FieldType::integer,
                                    .lo = -detail::kI,
                                    .hi = detail::kI,
                                    .expect = "an integer 0..16 (named barriers per block)",
                                    .int_default = 1,
                                    .def = "1",
                                    .doc_type = "integer",
                                    .doc_range = "0..16",
                                    .unit = "named barriers per block",
                                    .help = "Named barriers per block (counted from cc 9.0)"};
inline constexpr FieldSpec virtual_resources{
    .key = "virtual_resources",
    .type = FieldType::integer,
    .lo = -detail::kI,
    .hi = detail::kI,
    .expect = "an integer >= 0 (virtual resources per block, 0 = none)",
    .int_default = 0,
    .def = "0",
    .doc_type = "integer",
    .doc_range = ">= 0 (0 = none; counted from cc 10.0: 128 per SM)",
    .unit = "virtual resources per block",
    .help = "Virtual resources per block (cuda_occupancy.h virtualResourceCount; 128 per SM from cc 10.0)"};
inline constexpr FieldSpec max_threads{
    .key = "max_threads",
    .type = FieldType::integer,
    .lo = 0,
    .hi = detail::kI,
    .expect = "an integer >= 0 (the kernel's most threads per block, 0 = the device's maximum)",
    .int_default = 0,
    .def = "0",
    .doc_type = "integer",
    .doc_range = ">= 0 (0 = not given: the device's maximum)",
    .unit = "threads per block",
    .help = "The kernel's maxThreadsPerBlock (__launch_bounds__; AMD: .max_flat_workgroup_size): a larger block fails to launch; 0 = none"};
inline constexpr FieldSpec tmem_columns{.key = "tmem_columns",
                                        .type = FieldType::integer,
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
inline constexpr FieldSpec warpgroup_regs{.key = "warpgroup_regs",
                                          .type = FieldType::list,
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
inline constexpr FieldSpec agprs{.key = "agprs",
                                 .type = FieldType::integer,
                                 .lo = -detail::kI,
                                 .hi = detail::kI,
                                 .expect = "an integer 0..256 (AGPRs per lane)",
                                 .def = "0",
                                 .doc_type = "integer",
                                 .doc_range = "0..256 on gfx908/gfx90a/gfx942/gfx950 (AMD only); 0 elsewhere",
                                 .unit = "accumulation VGPRs per lane",
                                 .help = "AMD: accumulation VGPRs (AGPRs) per lane, .agpr_count / NumAgprs"};
inline constexpr FieldSpec sgprs{.key = "sgprs",
                                 .type = FieldType::integer,
                                 .lo = -detail::kI,
                                 .hi = detail::kI,
                                 .expect = "an integer 0..108 (SGPRs per wave)",
                                 .int_default = 32,
                                 .def = "32",
                                 .doc_type = "integer",
                                 .doc_range = "0..108 (AMD only; with VCC, flat scratch and XNACK mask, as the compiler reports)",
                                 .unit = "SGPRs per wave",
                                 .help = "AMD: SGPRs per wave, .sgpr_count / NumSgprs (limits occupancy on gfx9 only)"};
inline constexpr FieldSpec wave_size{.key = "wave_size",
                                     .type = FieldType::integer,
                                     .lo = 0,
                                     .hi = 64,
                                     .expect = "0 (the target's default), 32 or 64",
                                     .def = "0",
                                     .doc_type = "integer",
                                     .doc_range = "0 (the target's: 64 on CDNA, 32 on RDNA), 32, 64 (AMD only)",
                                     .unit = "lanes",
                                     // Which of 32 and 64 the target runs is the model's check (its message names the target).
                                     .help = "AMD: wave size 32 or 64; 0 = the target's default (64 on CDNA, 32 on RDNA)"};
inline constexpr FieldSpec cu_mode{.key = "cu_mode",
                                   .type = FieldType::boolean,
                                   .def = "false",
                                   .doc_type = "boolean",
                                   .doc_range = "true/false (AMD RDNA only: -mcumode, a workgroup on one CU instead of a WGP)",
                                   .unit = "-",
                                   .help = "AMD RDNA: compiled with -mcumode (a workgroup on one CU, not a WGP of two)"};
inline constexpr FieldSpec partitioned_gc{.key = "partitioned_gc",
                                          .type = FieldType::choice,
                                          .choices = "off,on,strict",
                                          .def = "off",
                                          .doc_type = "string",
                                          .doc_range = "off, on, strict",
                                          .unit = "-",
                                          .help = "Partitioned global caching on 5.2/5.3/6.1/6.2: off, on, strict"};
inline constexpr FieldSpec grid{.key = "grid",
                                .type = FieldType::integer,
                                .lo = 0,
                                .hi = (std::int64_t{1} << 31) * 65535,
                                .def = "0",
                                .doc_type = "integer",
                                .doc_range = "0..2^31 x 65535 (0 = not given)",
                                .unit = "blocks",
                                .help = "Blocks in the grid (waves and the tail)"};
inline constexpr FieldSpec sweep{.key = "sweep",
                                 .type = FieldType::choice,
                                 .choices = "none,threads,regs,smem",
                                 .def = "none",
                                 .doc_type = "string",
                                 .doc_range = "none, threads, regs, smem",
                                 .unit = "-",
                                 .help = "Also show occupancy against one input: threads, regs or smem"};

// [SECTION] Advisor and clusters
inline constexpr FieldSpec smem_per_thread{.key = "smem_per_thread",
                                           .type = FieldType::size,
                                           .lo = 0,
                                           .hi = 1 << 20,
                                           .def = "0",
                                           .doc_type = "size",
                                           .doc_range = "0..1 MiB",
                                           .unit = "bytes per thread",
                                           .help = "Dynamic smem that grows with the block: bytes per thread (instead of --smem-dynamic)"};
inline constexpr FieldSpec smem_fixed{.key = "smem_fixed",
                                      .type = FieldType::size,
                                      .lo = 0,
                                      .hi = std::int64_t{1} << 30,
                                      .def = "smem_dynamic",
                                      .doc_type = "size",
                                      .doc_range = "0..1 GiB",
                                      .unit = "bytes per block",
                                      .help = "Dynamic smem per block that does not grow with it (with --smem-per-thread)"};
inline constexpr FieldSpec block_size_limit{.key = "block_size_limit",
                                            .type = FieldType::integer,
                                            .lo = 0,
                                            .hi = 1 << 20,
                                            .def = "0",
                                            .doc_type = "integer",
                                            .doc_range = "0..2^20 (0 = none)",
                                            .unit = "threads",
                                            .help = "Largest block size the kernel supports, 0 = the device's maximum"};
inline constexpr FieldSpec target_blocks{.key = "target_blocks",
                                         .type = FieldType::integer,
                                         .lo = 1,
                                         .hi = 1024,
                                         .int_default = 1,
                                         .def = "1",
                                         .doc_type = "integer",
                                         .doc_range = "1..1024",
                                         .unit = "blocks per SM",
                                         .help = "Blocks per SM wanted: the dynamic smem available per block there [current]"};
inline constexpr FieldSpec cluster_size{.key = "cluster_size",
                                        .type = FieldType::integer,
                                        .lo = 0,
                                        .hi = kMaxNonPortableClusterSize,
                                        .def = "0",
                                        .doc_type = "integer",
                                        .doc_range = "1..8, or 9..16 with non_portable",
                                        .unit = "blocks",
                                        .help = "Thread block cluster size (9.0+): 1..8, up to 16 with --non-portable"};
inline constexpr FieldSpec cluster_size_required{.key = "cluster_size",
                                                 .type = FieldType::integer,
                                                 .lo = 1,
                                                 .hi = kMaxNonPortableClusterSize,
                                                 .def = "-",
                                                 .doc_type = "integer",
                                                 .doc_range = "1..8, or 9..16 with non_portable (required for clusters)",
                                                 .unit = "blocks",
                                                 .help = "Thread block cluster size: 1..8, up to 16 with --non-portable (required)"};
inline constexpr FieldSpec non_portable{.key = "non_portable",
                                        .type = FieldType::boolean,
                                        .def = "false",
                                        .doc_type = "boolean",
                                        .doc_range = "true/false",
                                        .unit = "-",
                                        .help = "Allow cluster sizes 9..16 (cudaFuncAttributeNonPortableClusterSizeAllowed)"};
inline constexpr FieldSpec gpc_sms{.key = "gpc_sms",
                                   .type = FieldType::list,
                                   .lo = 1,
                                   .hi = 64,
                                   .def = "assumed layout",
                                   .doc_type = "array of integers",
                                   .doc_range = "each 1..64, adding up to the device's SMs",
                                   .unit = "SMs",
                                   .help = "SMs per GPC, overriding the assumed layout, e.g. 18,18,16,16,16,16,16,16"};

// [SECTION] Compiler logs
inline constexpr FieldSpec log{.key = "log",
                               .type = FieldType::text,
                               .def = "-",
                               .doc_type = "string",
                               .doc_range = "text printed by nvcc -Xptxas -v or cuobjdump --dump-resource-usage (required)",
                               .unit = "-",
                               .help = "The compiler log (the CLI reads it with --ptxas FILE)",
                               .no_flag = true};

inline constexpr FieldSpec files{
    .key = "files",
    .type = FieldType::objects,
    .def = "-",
    .doc_type = "array of file objects",
    .doc_range = "each {\"name\": string, \"base64\": the file's bytes}: a cubin, fatbin, .o, .so or executable (required)",
    .unit = "-",
    .help = "The binaries (the CLI takes their paths)",
    .no_flag = true};

// [SECTION] Nsight Compute reports
inline constexpr FieldSpec ncu_text{
    .key = "text",
    .type = FieldType::text,
    .def = "-",
    .doc_type = "string",
    .doc_range = "an Nsight Compute report: ncu's text output, --csv --page details or --page raw (required)",
    .unit = "-",
    .help = "The report (the CLI reads it from FILE or -)",
    .no_flag = true};

inline constexpr FieldSpec id{.key = "id",
                              .type = FieldType::any,
                              .def = "-",
                              .doc_type = "any JSON",
                              .doc_range = "echoed back unchanged",
                              .unit = "-",
                              .help = "Any JSON value, echoed back unchanged",
                              .no_flag = true};

}  // namespace occ::io::fields

#pragma GCC diagnostic pop
