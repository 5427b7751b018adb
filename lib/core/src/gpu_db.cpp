// gpu_db.cpp — the GPU catalogue: one entry per GPU with everything occ knows about it (compute
// capability, SM count, roofline peaks, GPC layout), and the lookups by name.
//
// [SECTION] Sources
//   SM counts: the vendor datasheet or whitepaper named in each entry's source.
//   Roofline peaks are DENSE (vendors often print the 2:4-sparsity figure, twice as high, with an
//   asterisk; those are halved here). TFLOP/s = 10^12 FLOP/s, GB/s = 10^9 byte/s.
//   [A100DS]  NVIDIA A100 Tensor Core GPU datasheet (2021): FP64 9.7, FP64 TC 19.5, FP32 19.5, TF32 156,
//             FP16/BF16 312, INT8 624 TOPS; 80GB SXM 2,039 GB/s, 80GB PCIe 1,935 GB/s, 40GB 1,555 GB/s.
//   [V100DS]  NVIDIA V100 datasheet: SXM2 7.8 / 15.7 / 125 tensor; PCIe 7 / 14 / 112; 900 GB/s.
//   [T4DS]    NVIDIA T4 datasheet: FP32 8.1, FP16 mixed-precision tensor 65, INT8 130 TOPS, 320 GB/s.
//   [A10DS]   NVIDIA A10 datasheet: FP32 31.2, TF32 62.5, FP16/BF16 125, INT8 250, 600 GB/s.
//   [A30DS]   NVIDIA A30 datasheet: FP64 5.2, FP64 TC 10.3, FP32 10.3, TF32 82, FP16/BF16 165, INT8 330, 933 GB/s.
//   [A40DS]   NVIDIA A40 datasheet: FP32 37.4, TF32 74.8, FP16/BF16 149.7, INT8 299.3, 696 GB/s.
//   [L4DS]    NVIDIA L4 datasheet: FP32 30.3, TF32 120*, FP16/BF16 242*, FP8 485*, INT8 485* (* sparse), 300 GB/s.
//   [L40SDS]  NVIDIA L40S datasheet: FP32 91.6, TF32 183 | 366*, FP16/BF16 362.05 | 733*, FP8 733 | 1,466*,
//             INT8 733 | 1,466* (dense | * sparse: the sparse figures are not exactly twice the dense ones), 864 GB/s.
//   [AdaWP]   NVIDIA Ada GPU Architecture whitepaper, appendix (RTX 4090): FP32 82.6, TF32 82.6,
//             FP16/BF16 tensor with FP32 accumulate 165.2, FP8 330.3, INT8 660.6, FP64 1.3, 1,008 GB/s.
//   [HWP]     NVIDIA H100 Tensor Core GPU Architecture whitepaper: table 3 (dense): H100 SXM5 FP64 33.5,
//             FP64 TC 66.9, FP32 66.9, TF32 494.7, FP16/BF16 989.4, FP8 1,978.9, INT8 1,978.9;
//             H100 PCIe 25.6 / 51.2 / 51.2 / 378 / 756 / 1,513 / 1,513. GPCs: full GH100 = 8 GPCs x 9 TPCs
//             x 2 SMs (144 SMs); H100 SXM5 enables 66 TPCs / 132 SMs; H100 PCIe 57 TPCs / 114 SMs ("7 or 8 GPCs").
//   [H100DS]  NVIDIA H100 datasheet: SXM 3.35 TB/s, PCIe 2 TB/s; H100 NVL FP64 30, FP64 TC 60, FP32 60,
//             TF32 835*, FP16 1,671*, FP8 3,341*, INT8 3,341* (* sparse), 3.9 TB/s.
//   [H200DS]  NVIDIA H200 datasheet: compute as H100 SXM, 4.8 TB/s.
//   [B200DS]  NVIDIA HGX B200 datasheet (8 GPUs): FP64/FP64 TC 296, TF32 18 P*, FP16/BF16 36 P*, FP8 72 P*,
//             INT8 72 P* (* sparse), 64 TB/s; divided by 8 and sparse figures halved. FP32 not published there.
//   [BWT]     NVIDIA's current per-GPU Blackwell table (GB300 / GB200 / B300 / B200 columns; reproduced e.g. in
//             Verda's "GB300 NVL72 architecture" post): B200 FP32 75 TFLOP/s (also HGX B200: 600 / 8 GPUs) and
//             memory bandwidth 7.7 TB/s. The earlier [B200DS] figure is 8 TB/s (64 TB/s / 8); deviceQuery on a
//             B200 gives 7,680-bit x 3,996 MHz x 2 = 7.67 TB/s (pytorch/ao PR #4002). occ uses 7.7 TB/s.
//   [BUBLOG]  NVIDIA Technical Blog, "Inside NVIDIA Blackwell Ultra" (2025): the full Blackwell Ultra GPU has
//             160 SMs in 8 GPCs on two dies.
//   [BWCL]    Public cuOccupancyMaxActiveClusters results at one block per SM, identical on B200 and B300
//             (cluster size: clusters) 2: 74, 3: 45, 4: 33, 5: 26, 6: 22, 7: 15, 8: 15, 9: 15, 10: 11, 12: 7,
//             14: 7, 16: 7 (a decode-kernel planner's DECODE_MAX_ACTIVE_CLUSTERS table, "measured on B200 /
//             B300"; issue 11 quotes 74 and 33 for B300).
//             Under occ's cluster model (a GPC of S SMs holds floor(S / size) clusters) exactly one split of
//             148 SMs into whole TPCs gives all twelve: 20, 20, 20, 18, 18, 18, 18, 10, 2, 2, 2 (found by
//             exhaustive search). The 8-GPC die of [BUBLOG] fits only if the 16 enabled SMs of one GPC
//             schedule clusters as four groups (10 + 2 + 2 + 2): that reading is assumed; the numbers are not.
//   [GBSM]    GB200 and GB300 report 152 SMs (torch.cuda.get_device_properties on GB200 NVL72 nodes:
//             name='NVIDIA GB200', major=10, minor=0, multi_processor_count=152; public GB300 benchmark notes
//             "GB300 (152 SMs)"), B200 and B300 148 ([AO4002]: "Number of SMs: 148" on a B200).
//   [AO4002]  pytorch/ao PR #4002 (2026): a CUDA device query on "NVIDIA B200": cc 10.0, 148 SMs, 7,680-bit bus.
//   [H20]     deviceQuery / torch on "NVIDIA H20": major=9, minor=0, multi_processor_count=78 (e.g. RightNow-AI/
//             AutoMegaKernel PR #3: "Compute capability 9.0, SMs: 78", H20 96GB).
//   [DSV3]    DeepSeek-V3 Technical Report (arXiv 2412.19437) §3.5.1: "20 out of the 132 SMs available in the
//             H800 GPU". H800 = GH100 as H100 SXM5 with NVLink cut to 400 GB/s.
//   [A800]    NVIDIA A800 datasheets: 6,912 CUDA cores (64 per SM: Ampere whitepaper) = 108 SMs; the A100 die with
//             NVLink cut to 400 GB/s for the China market.
//   [JETSON]  deviceQuery on Jetson modules prints the same device name for a whole family: "Orin" with 16
//             (AGX Orin 64GB), 8 (Orin NX 16GB, Orin Nano 8GB) or 4 (Orin Nano 4GB) multiprocessors, "Xavier"
//             with 8 (AGX Xavier) or 6 (Xavier NX). Module datasheets: AGX Orin 64GB 2048 cores, AGX Orin 32GB
//             1792, Orin NX 16GB / 8GB 1024, Orin Nano 8GB 1024, Orin Nano 4GB 512 (128 per SM); AGX Xavier
//             512, Xavier NX 384 (64 per SM). So "Orin" and "Xavier" name no single SM count: refused.
//   [RBWP]    NVIDIA RTX Blackwell GPU Architecture whitepaper: RTX 5090 FP32 104.8, TF32 104.8,
//             FP16/BF16 tensor with FP32 accumulate 209.5, FP8 419, INT8 838, 1,792 GB/s; GB202 = 12 GPCs
//             x 8 TPCs x 2 SMs (192 SMs); GB203 = 7 GPCs x 6 TPCs x 2 SMs (84 SMs).
//   [ORINDS]  NVIDIA Jetson AGX Orin 64GB datasheet: 2048 CUDA cores at 1.3 GHz = 5.3 FP32 TFLOP/s,
//             GPU INT8 170 sparse TOPS, LPDDR5 204.8 GB/s.
//   [MI300X]  AMD Instinct MI300X datasheet: FP64 vector 81.7, FP64 matrix 163.4, FP32 vector 163.4,
//             TF32 653.7, FP16/BF16 1,307.4, FP8 2,614.9, INT8 2,614.9 (dense), HBM3 5.3 TB/s.
//   [M2U]     Apple newsroom, "Apple introduces M2 Ultra" (June 2023): 76-core GPU, 27.2 TFLOP/s, 800 GB/s.
//   [LP5X]    JEDEC LPDDR5X at 9,600 MT/s on a 64-bit bus = 76.8 GB/s (e.g. Snapdragon 8 Gen 3 product brief:
//             "LPDDR5x up to 4800 MHz"); the GPU FP32 figure (~4.6 TFLOP/s) is a third-party estimate, not
//             a vendor number: use this device for memory-bound comparisons.
//   L2 bandwidth: none of these datasheets publishes it, so the model refuses memory level "l2"
//   unless the request supplies a bandwidth.
//   GPC layouts: which TPCs are fused off on a given chip is not published (it varies from chip to
//   chip), so every split spreads the enabled TPCs as evenly as possible over `gpcs` GPCs, except
//   where public cudaOccupancyMaxActiveClusters results determine the split ([BWCL]); the
//   cuda_validation check against cudaOccupancyMaxActiveClusters should confirm it.
// [SECTION] Catalogue
// [SECTION] Lookup
#include "occ/device.hpp"
#include "occ/names.hpp"

namespace occ {
namespace {

// [SECTION] Catalogue
// B200 and B300 SMs per GPC, from the measured cluster counts ([BWCL]).
constexpr int kBlackwellDcGpcSms[] = {20, 20, 20, 18, 18, 18, 18, 10, 2, 2, 2};

constexpr GpuEntry kGpus[] = {
    // Kepler
    {.name = "Tesla-K40", .cc_major = 3, .cc_minor = 5, .sm_count = 15, .segment = Segment::datacenter, .aliases = "k40,teslak40",
     .source = "Tesla K40 datasheet: 2880 CUDA cores = 15 SMX"},
    {.name = "GTX-780-Ti", .cc_major = 3, .cc_minor = 5, .sm_count = 15, .segment = Segment::consumer, .aliases = "780ti,gtx780ti",
     .source = "GK110 whitepaper: 15 SMX"},
    {.name = "Tesla-K80", .cc_major = 3, .cc_minor = 7, .sm_count = 13, .segment = Segment::datacenter, .aliases = "k80,teslak80",
     .source = "Tesla K80 datasheet: 2496 cores per GPU = 13 SMX"},
    // Maxwell
    {.name = "GTX-750-Ti", .cc_major = 5, .cc_minor = 0, .sm_count = 5, .segment = Segment::consumer, .aliases = "750ti,gtx750ti",
     .source = "GM107 whitepaper: 5 SMM"},
    {.name = "GTX-980", .cc_major = 5, .cc_minor = 2, .sm_count = 16, .segment = Segment::consumer, .aliases = "980,gtx980",
     .source = "GM204 whitepaper: 16 SMM"},
    {.name = "GTX-Titan-X", .cc_major = 5, .cc_minor = 2, .sm_count = 24, .segment = Segment::consumer, .aliases = "titanx,gtxtitanx",
     .source = "GM200: 3072 cores = 24 SMM"},
    {.name = "Tesla-M40", .cc_major = 5, .cc_minor = 2, .sm_count = 24, .segment = Segment::datacenter, .aliases = "m40,teslam40",
     .source = "Tesla M40 datasheet: 3072 cores = 24 SMM"},
    {.name = "Jetson-Nano", .cc_major = 5, .cc_minor = 3, .sm_count = 1, .segment = Segment::embedded, .aliases = "nano,jetsonnano",
     .source = "Jetson Nano: 128 CUDA cores = 1 SMM"},
    // Pascal
    {.name = "Tesla-P100", .cc_major = 6, .cc_minor = 0, .sm_count = 56, .segment = Segment::datacenter,
     .aliases = "p100,teslap100,p100sxm2,p100pcie", .source = "Pascal P100 whitepaper: 56 SMs"},
    {.name = "GTX-1080", .cc_major = 6, .cc_minor = 1, .sm_count = 20, .segment = Segment::consumer, .aliases = "1080,gtx1080",
     .source = "GP104: 2560 cores = 20 SMs"},
    {.name = "GTX-1080-Ti", .cc_major = 6, .cc_minor = 1, .sm_count = 28, .segment = Segment::consumer, .aliases = "1080ti,gtx1080ti",
     .source = "GP102: 3584 cores = 28 SMs"},
    {.name = "Tesla-P40", .cc_major = 6, .cc_minor = 1, .sm_count = 30, .segment = Segment::datacenter, .aliases = "p40,teslap40",
     .source = "Tesla P40 datasheet: 3840 cores = 30 SMs"},
    {.name = "Tesla-P4", .cc_major = 6, .cc_minor = 1, .sm_count = 20, .segment = Segment::datacenter, .aliases = "p4,teslap4",
     .source = "Tesla P4 datasheet: 2560 cores = 20 SMs"},
    {.name = "Jetson-TX2", .cc_major = 6, .cc_minor = 2, .sm_count = 2, .segment = Segment::embedded, .aliases = "tx2,jetsontx2",
     .source = "Jetson TX2: 256 CUDA cores = 2 SMs"},
    // Volta
    {.name = "V100-SXM2-32GB", .cc_major = 7, .cc_minor = 0, .sm_count = 80, .segment = Segment::datacenter,
     .aliases = "v100,v100sxm2,v100sxm216gb,teslav100", .source = "Volta V100 whitepaper: 80 SMs",
     .peaks = {.fp64 = 7.8, .fp32 = 15.7, .fp16 = 125, .dram_gbps = 900, .list_position = 1, .source = "[V100DS]"}},
    {.name = "V100-PCIe-32GB", .cc_major = 7, .cc_minor = 0, .sm_count = 80, .segment = Segment::datacenter,
     .aliases = "v100pcie,v100pcie16gb", .source = "V100 PCIe datasheet: 5120 cores = 80 SMs",
     .peaks = {.fp64 = 7.0, .fp32 = 14.0, .fp16 = 112, .dram_gbps = 900, .list_position = 2, .source = "[V100DS]"}},
    {.name = "Titan-V", .cc_major = 7, .cc_minor = 0, .sm_count = 80, .segment = Segment::workstation, .aliases = "titanv",
     .source = "Titan V: 5120 cores = 80 SMs"},
    {.name = "Jetson-AGX-Xavier", .cc_major = 7, .cc_minor = 2, .sm_count = 8, .segment = Segment::embedded,
     .aliases = "agxxavier,jetsonagxxavier", .source = "[JETSON] Jetson AGX Xavier: 512 cores = 8 SMs"},
    {.name = "Jetson-Xavier-NX", .cc_major = 7, .cc_minor = 2, .sm_count = 6, .segment = Segment::embedded,
     .aliases = "xaviernx,jetsonxaviernx", .source = "[JETSON] Jetson Xavier NX: 384 cores = 6 SMs"},
    // Turing
    {.name = "Tesla-T4", .cc_major = 7, .cc_minor = 5, .sm_count = 40, .segment = Segment::datacenter, .aliases = "t4",
     .source = "Turing whitepaper / T4 datasheet: 2560 cores = 40 SMs",
     .peaks = {.fp32 = 8.1, .fp16 = 65, .int8 = 130, .dram_gbps = 320, .list_position = 3, .source = "[T4DS]"}},
    {.name = "RTX-2080-Ti", .cc_major = 7, .cc_minor = 5, .sm_count = 68, .segment = Segment::consumer, .aliases = "2080ti,rtx2080ti",
     .source = "Turing whitepaper: 68 SMs"},
    {.name = "RTX-2080", .cc_major = 7, .cc_minor = 5, .sm_count = 46, .segment = Segment::consumer, .aliases = "2080,rtx2080",
     .source = "Turing whitepaper: 46 SMs"},
    {.name = "Quadro-RTX-6000", .cc_major = 7, .cc_minor = 5, .sm_count = 72, .segment = Segment::workstation,
     .aliases = "rtx6000,quadrortx6000,quadrortx8000", .source = "TU102 full: 72 SMs"},
    // Ampere
    {.name = "A100-SXM4-40GB", .cc_major = 8, .cc_minor = 0, .sm_count = 108, .segment = Segment::datacenter,
     .aliases = "a100sxm440gb,a10040gb,a100sxm", .source = "Ampere A100 whitepaper: 108 SMs",
     .peaks = {.fp64 = 9.7, .fp64_tensor = 19.5, .fp32 = 19.5, .tf32 = 156, .fp16 = 312, .bf16 = 312, .int8 = 624, .dram_gbps = 1555,
      .list_position = 5, .source = "[A100DS] 40GB SXM4"}},
    {.name = "A100-SXM4-80GB", .cc_major = 8, .cc_minor = 0, .sm_count = 108, .segment = Segment::datacenter,
     .aliases = "a100,a10080gb,a100sxm480gb", .source = "A100 80GB datasheet: 108 SMs",
     .peaks = {.fp64 = 9.7, .fp64_tensor = 19.5, .fp32 = 19.5, .tf32 = 156, .fp16 = 312, .bf16 = 312, .int8 = 624, .dram_gbps = 2039,
      .list_position = 4, .source = "[A100DS] 80GB SXM4"}},
    {.name = "A100-PCIe-40GB", .cc_major = 8, .cc_minor = 0, .sm_count = 108, .segment = Segment::datacenter,
     .aliases = "a100pcie,a100pcie40gb", .source = "A100 PCIe datasheet: 108 SMs",
     .peaks = {.fp64 = 9.7, .fp64_tensor = 19.5, .fp32 = 19.5, .tf32 = 156, .fp16 = 312, .bf16 = 312, .int8 = 624, .dram_gbps = 1555,
      .list_position = 7, .source = "[A100DS] 40GB PCIe"}},
    {.name = "A100-PCIe-80GB", .cc_major = 8, .cc_minor = 0, .sm_count = 108, .segment = Segment::datacenter, .aliases = "a100pcie80gb",
     .source = "A100 PCIe 80GB datasheet: 108 SMs",
     .peaks = {.fp64 = 9.7, .fp64_tensor = 19.5, .fp32 = 19.5, .tf32 = 156, .fp16 = 312, .bf16 = 312, .int8 = 624, .dram_gbps = 1935,
      .list_position = 6, .source = "[A100DS] 80GB PCIe"}},
    {.name = "A30", .cc_major = 8, .cc_minor = 0, .sm_count = 56, .segment = Segment::datacenter, .aliases = "a30",
     .source = "A30 datasheet: 3584 cores = 56 SMs",
     .peaks = {.fp64 = 5.2, .fp64_tensor = 10.3, .fp32 = 10.3, .tf32 = 82, .fp16 = 165, .bf16 = 165, .int8 = 330, .dram_gbps = 933,
      .list_position = 8, .source = "[A30DS]"}},
    {.name = "A800-SXM4-80GB", .cc_major = 8, .cc_minor = 0, .sm_count = 108, .segment = Segment::datacenter,
     .aliases = "a800,a800sxm,a800sxm4,a80080gb,a800pcie,a800pcie80gb,a80040gb", .source = "[A800] 6,912 cores = 108 SMs (SXM4 and PCIe)"},
    {.name = "A10", .cc_major = 8, .cc_minor = 6, .sm_count = 72, .segment = Segment::datacenter, .aliases = "a10",
     .source = "A10 datasheet: 9216 cores = 72 SMs",
     .peaks = {.fp32 = 31.2, .tf32 = 62.5, .fp16 = 125, .bf16 = 125, .int8 = 250, .dram_gbps = 600, .list_position = 9,
      .source = "[A10DS]"}},
    {.name = "A40", .cc_major = 8, .cc_minor = 6, .sm_count = 84, .segment = Segment::datacenter, .aliases = "a40",
     .source = "A40 datasheet: 10752 cores = 84 SMs",
     .peaks = {.fp32 = 37.4, .tf32 = 74.8, .fp16 = 149.7, .bf16 = 149.7, .int8 = 299.3, .dram_gbps = 696, .list_position = 10,
      .source = "[A40DS]"}},
    {.name = "RTX-A6000", .cc_major = 8, .cc_minor = 6, .sm_count = 84, .segment = Segment::workstation, .aliases = "a6000,rtxa6000",
     .source = "RTX A6000 datasheet: 10752 cores = 84 SMs"},
    {.name = "RTX-3090", .cc_major = 8, .cc_minor = 6, .sm_count = 82, .segment = Segment::consumer, .aliases = "3090,rtx3090",
     .source = "GA102 whitepaper: RTX 3090 82 SMs"},
    {.name = "RTX-3080", .cc_major = 8, .cc_minor = 6, .sm_count = 68, .segment = Segment::consumer, .aliases = "3080,rtx3080",
     .source = "GA102 whitepaper: RTX 3080 68 SMs"},
    {.name = "RTX-3060", .cc_major = 8, .cc_minor = 6, .sm_count = 28, .segment = Segment::consumer, .aliases = "3060,rtx3060",
     .source = "GA106: 3584 cores = 28 SMs"},
    {.name = "Jetson-AGX-Orin", .cc_major = 8, .cc_minor = 7, .sm_count = 16, .segment = Segment::embedded,
     .aliases = "agxorin,jetsonagxorin,agxorin64gb,jetsonagxorin64gb", .source = "[JETSON] Jetson AGX Orin 64GB: 2048 cores = 16 SMs",
     .peaks = {.fp32 = 5.3, .int8 = 85, .dram_gbps = 204.8, .list_position = 11, .source = "[ORINDS] (INT8 170 sparse TOPS halved)"}},
    {.name = "Jetson-AGX-Orin-32GB", .cc_major = 8, .cc_minor = 7, .sm_count = 14, .segment = Segment::embedded,
     .aliases = "agxorin32gb,jetsonagxorin32gb", .source = "[JETSON] Jetson AGX Orin 32GB: 1792 cores = 14 SMs"},
    {.name = "Jetson-Orin-NX", .cc_major = 8, .cc_minor = 7, .sm_count = 8, .segment = Segment::embedded,
     .aliases = "orinnx,jetsonorinnx,orinnx16gb,orinnx8gb", .source = "[JETSON] Jetson Orin NX 16GB / 8GB: 1024 cores = 8 SMs"},
    {.name = "Jetson-Orin-Nano", .cc_major = 8, .cc_minor = 7, .sm_count = 8, .segment = Segment::embedded,
     .aliases = "orinnano,jetsonorinnano,orinnano8gb,jetsonorinnano8gb", .source = "[JETSON] Jetson Orin Nano 8GB: 1024 cores = 8 SMs"},
    {.name = "Jetson-Orin-Nano-4GB", .cc_major = 8, .cc_minor = 7, .sm_count = 4, .segment = Segment::embedded,
     .aliases = "orinnano4gb,jetsonorinnano4gb", .source = "[JETSON] Jetson Orin Nano 4GB: 512 cores = 4 SMs"},
    // Ada
    {.name = "RTX-4090", .cc_major = 8, .cc_minor = 9, .sm_count = 128, .segment = Segment::consumer, .aliases = "4090,rtx4090",
     .source = "Ada whitepaper: RTX 4090 128 SMs",
     .peaks = {.fp64 = 1.3, .fp32 = 82.6, .tf32 = 82.6, .fp16 = 165.2, .bf16 = 165.2, .fp8 = 330.3, .int8 = 660.6, .dram_gbps = 1008,
      .list_position = 12, .source = "[AdaWP] (tensor figures with FP32 accumulate)"}},
    {.name = "RTX-4080", .cc_major = 8, .cc_minor = 9, .sm_count = 76, .segment = Segment::consumer, .aliases = "4080,rtx4080",
     .source = "Ada whitepaper: RTX 4080 76 SMs"},
    {.name = "L4", .cc_major = 8, .cc_minor = 9, .sm_count = 58, .segment = Segment::datacenter, .aliases = "l4",
     .source = "L4 datasheet: 7424 cores = 58 SMs",
     .peaks = {.fp32 = 30.3, .tf32 = 60, .fp16 = 121, .bf16 = 121, .fp8 = 242.5, .int8 = 242.5, .dram_gbps = 300, .list_position = 13,
      .source = "[L4DS] (sparse figures halved)"}},
    {.name = "L40", .cc_major = 8, .cc_minor = 9, .sm_count = 142, .segment = Segment::datacenter, .aliases = "l40",
     .source = "L40 datasheet: 18176 cores = 142 SMs"},
    {.name = "L40S", .cc_major = 8, .cc_minor = 9, .sm_count = 142, .segment = Segment::datacenter, .aliases = "l40s",
     .source = "L40S datasheet: 18176 cores = 142 SMs",
     .peaks = {.fp32 = 91.6, .tf32 = 183, .fp16 = 362.05, .bf16 = 362.05, .fp8 = 733, .int8 = 733, .dram_gbps = 864, .list_position = 14,
      .source = "[L40SDS] (dense figures)"}},
    {.name = "RTX-6000-Ada", .cc_major = 8, .cc_minor = 9, .sm_count = 142, .segment = Segment::workstation,
     .aliases = "rtx6000ada,6000ada", .source = "RTX 6000 Ada datasheet: 18176 cores = 142 SMs"},
    // Hopper
    {.name = "H100-SXM5-80GB", .cc_major = 9, .cc_minor = 0, .sm_count = 132, .segment = Segment::datacenter,
     .aliases = "h100,h100sxm,h100sxm5,h10080gb", .source = "Hopper whitepaper: H100 SXM5 132 SMs",
     .peaks = {.fp64 = 33.5, .fp64_tensor = 66.9, .fp32 = 66.9, .tf32 = 494.7, .fp16 = 989.4, .bf16 = 989.4, .fp8 = 1978.9,
      .int8 = 1978.9, .dram_gbps = 3350, .list_position = 15, .source = "[HWP] table 3; [H100DS] 3.35 TB/s"},
     .gpc = {.gpcs = 8, .max_sms_per_gpc = 18,
      .source = "[HWP] 8 GPCs, 66 TPCs (132 SMs), TPCs assumed spread evenly: 2 GPCs of 18 SMs + 6 of 16"}},
    {.name = "H100-PCIe-80GB", .cc_major = 9, .cc_minor = 0, .sm_count = 114, .segment = Segment::datacenter, .aliases = "h100pcie",
     .source = "Hopper whitepaper: H100 PCIe 114 SMs",
     .peaks = {.fp64 = 25.6, .fp64_tensor = 51.2, .fp32 = 51.2, .tf32 = 378, .fp16 = 756, .bf16 = 756, .fp8 = 1513, .int8 = 1513,
      .dram_gbps = 2000, .list_position = 16, .source = "[HWP] table 3; [H100DS] 2 TB/s"},
     .gpc = {.gpcs = 8, .max_sms_per_gpc = 18, .source = "[HWP] 57 TPCs (114 SMs) on 7 or 8 GPCs: 8 assumed, 1 GPC of 16 SMs + 7 of 14"}},
    {.name = "H100-NVL", .cc_major = 9, .cc_minor = 0, .sm_count = 132, .segment = Segment::datacenter, .aliases = "h100nvl",
     .source = "H100 NVL datasheet: 132 SMs",
     .peaks = {.fp64 = 30, .fp64_tensor = 60, .fp32 = 60, .tf32 = 417.5, .fp16 = 835.5, .bf16 = 835.5, .fp8 = 1670.5, .int8 = 1670.5,
      .dram_gbps = 3900, .list_position = 17, .source = "[H100DS] H100 NVL (sparse figures halved)"},
     .gpc = {.gpcs = 8, .max_sms_per_gpc = 18,
      .source = "[HWP] GH100 with 132 SMs as H100 SXM5: 2 GPCs of 18 SMs + 6 of 16 (assumed even)"}},
    {.name = "H200", .cc_major = 9, .cc_minor = 0, .sm_count = 132, .segment = Segment::datacenter,
     .aliases = "h200,h200sxm,h200sxm141gb", .source = "H200 datasheet: GH100 with 132 SMs",
     .peaks = {.fp64 = 33.5, .fp64_tensor = 66.9, .fp32 = 66.9, .tf32 = 494.7, .fp16 = 989.4, .bf16 = 989.4, .fp8 = 1978.9,
      .int8 = 1978.9, .dram_gbps = 4800, .list_position = 18, .source = "[H200DS] compute as [HWP] H100 SXM5; 4.8 TB/s"},
     .gpc = {.gpcs = 8, .max_sms_per_gpc = 18,
      .source = "[HWP] GH100 with 132 SMs as H100 SXM5: 2 GPCs of 18 SMs + 6 of 16 (assumed even)"}},
    {.name = "GH200", .cc_major = 9, .cc_minor = 0, .sm_count = 132, .segment = Segment::datacenter, .aliases = "gh200,gracehopper",
     .source = "GH200 datasheet: H100 GPU with 132 SMs",
     .gpc = {.gpcs = 8, .max_sms_per_gpc = 18,
      .source = "[HWP] GH100 with 132 SMs as H100 SXM5: 2 GPCs of 18 SMs + 6 of 16 (assumed even)"}},
    {.name = "H800", .cc_major = 9, .cc_minor = 0, .sm_count = 132, .segment = Segment::datacenter,
     .aliases = "h800,h800sxm,h800sxm5,h80080gb", .source = "[DSV3] H800 (SXM5): 132 SMs",
     .gpc = {.gpcs = 8, .max_sms_per_gpc = 18,
      .source = "[HWP] GH100 with 132 SMs as H100 SXM5: 2 GPCs of 18 SMs + 6 of 16 (assumed even)"}},
    {.name = "H20", .cc_major = 9, .cc_minor = 0, .sm_count = 78, .segment = Segment::datacenter, .aliases = "h20,h2096gb",
     .source = "[H20] NVIDIA H20: GH100 with 78 SMs"},
    // Blackwell
    {.name = "B200", .cc_major = 10, .cc_minor = 0, .sm_count = 148, .segment = Segment::datacenter, .aliases = "b200,hgxb200,dgxb200",
     .source = "[AO4002] Blackwell B200: 148 SMs (cudaDeviceProp on B200)",
     .peaks = {.fp64 = 37, .fp64_tensor = 37, .fp32 = 75, .tf32 = 1125, .fp16 = 2250, .bf16 = 2250, .fp8 = 4500, .int8 = 4500,
      .dram_gbps = 7700, .list_position = 19, .source = "[B200DS] per GPU (8-GPU figures / 8, sparse halved); [BWT] FP32 75, 7.7 TB/s (8 TB/s in [B200DS])"},
     .gpc = {.gpcs = 11, .max_sms_per_gpc = 20,
      .source = "[BWCL] measured cluster counts fit only 20,20,20,18,18,18,18 SMs + 16 SMs acting as 10,2,2,2 (8 GPCs of 20 SMs: [BUBLOG])",
      .sms = kBlackwellDcGpcSms, .measured = true}},
    {.name = "GB200", .cc_major = 10, .cc_minor = 0, .sm_count = 152, .segment = Segment::datacenter,
     .aliases = "gb200,gb200nvl72,gb200nvl4",
     .source = "[GBSM] Grace Blackwell GB200: each Blackwell GPU reports 152 SMs"},
    {.name = "B300", .cc_major = 10, .cc_minor = 3, .sm_count = 148, .segment = Segment::datacenter, .aliases = "b300,hgxb300,dgxb300",
     .source = "Blackwell Ultra B300: 148 of the 160 SMs of [BUBLOG] enabled (public B300 cluster counts [BWCL] use all 148)",
     .gpc = {.gpcs = 11, .max_sms_per_gpc = 20,
      .source = "[BWCL] measured cluster counts fit only 20,20,20,18,18,18,18 SMs + 16 SMs acting as 10,2,2,2 (8 GPCs of 20 SMs: [BUBLOG])",
      .sms = kBlackwellDcGpcSms, .measured = true}},
    {.name = "GB300", .cc_major = 10, .cc_minor = 3, .sm_count = 152, .segment = Segment::datacenter, .aliases = "gb300,gb300nvl72",
     .source = "[GBSM] Grace Blackwell Ultra GB300: each GPU reports 152 SMs"},
    {.name = "Jetson-AGX-Thor", .cc_major = 11, .cc_minor = 0, .sm_count = 20, .segment = Segment::embedded,
     .aliases = "thor,agxthor,jetsonthor", .source = "Jetson AGX Thor: 2560 cores = 20 SMs"},
    {.name = "RTX-5090", .cc_major = 12, .cc_minor = 0, .sm_count = 170, .segment = Segment::consumer, .aliases = "5090,rtx5090",
     .source = "RTX Blackwell whitepaper: RTX 5090 170 SMs",
     .peaks = {.fp32 = 104.8, .tf32 = 104.8, .fp16 = 209.5, .bf16 = 209.5, .fp8 = 419, .int8 = 838, .dram_gbps = 1792,
      .list_position = 20, .source = "[RBWP] (tensor figures with FP32 accumulate)"},
     .gpc = {.gpcs = 11, .max_sms_per_gpc = 16,
      .source = "[RBWP] GB202, 170 SMs (85 TPCs) on 11 GPCs (assumed): 8 GPCs of 16 SMs + 3 of 14"}},
    {.name = "RTX-5080", .cc_major = 12, .cc_minor = 0, .sm_count = 84, .segment = Segment::consumer, .aliases = "5080,rtx5080",
     .source = "RTX Blackwell whitepaper: RTX 5080 84 SMs",
     .gpc = {.gpcs = 7, .max_sms_per_gpc = 12, .source = "[RBWP] full GB203: 7 GPCs of 12 SMs (84 SMs)"}},
    {.name = "RTX-PRO-6000-Blackwell", .cc_major = 12, .cc_minor = 0, .sm_count = 188, .segment = Segment::workstation,
     .aliases = "rtxpro6000,pro6000", .source = "RTX PRO 6000 Blackwell datasheet: 24064 cores = 188 SMs",
     .gpc = {.gpcs = 12, .max_sms_per_gpc = 16,
      .source = "[RBWP] GB202, 188 SMs (94 TPCs) on 12 GPCs: 10 of 16 SMs + 2 of 14 (assumed even)"}},
    {.name = "DGX-Spark-GB10", .cc_major = 12, .cc_minor = 1, .sm_count = 48, .segment = Segment::workstation,
     .aliases = "gb10,dgxspark,spark", .source = "DGX Spark GB10: 6144 cores = 48 SMs"},
};

constexpr GpuEntry kReferenceDevices[] = {
    {.name = "AMD-MI300X", .vendor = "AMD", .aliases = "mi300x,instinctmi300x",
     .peaks = {.fp64 = 81.7, .fp64_tensor = 163.4, .fp32 = 163.4, .tf32 = 653.7, .fp16 = 1307.4, .bf16 = 1307.4, .fp8 = 2614.9,
      .int8 = 2614.9, .dram_gbps = 5300, .list_position = 21, .source = "[MI300X] (matrix cores)"}},
    {.name = "Apple-M2-Ultra", .vendor = "Apple", .aliases = "m2ultra,m2",
     .peaks = {.fp32 = 27.2, .dram_gbps = 800, .matrix_units = false, .list_position = 22, .source = "[M2U]"}},
    {.name = "Phone-SoC-LPDDR5X", .vendor = "reference", .aliases = "phone,phonesoc,soc,mobile,snapdragon8gen3,lpddr5x",
     .peaks = {.fp32 = 4.6, .dram_gbps = 76.8, .matrix_units = false, .list_position = 23,
      .source = "[LP5X] 76.8 GB/s; FP32 is an estimate"}},
};

// Device names that several entries of different SM counts share ([JETSON]: what deviceQuery prints
// on every module of the family), with those entries (canonical names, comma-separated). Refused by
// find_gpu; no entry has them as an alias.
struct SharedName {
    const char* name;      // normalised
    const char* members;
};
constexpr const char* kOrinModules = "Jetson-AGX-Orin,Jetson-AGX-Orin-32GB,Jetson-Orin-NX,Jetson-Orin-Nano,Jetson-Orin-Nano-4GB";
constexpr const char* kXavierModules = "Jetson-AGX-Xavier,Jetson-Xavier-NX";
constexpr SharedName kSharedNames[] = {
    {"orin", kOrinModules}, {"jetsonorin", kOrinModules}, {"xavier", kXavierModules}, {"jetsonxavier", kXavierModules},
};

// [SECTION] Lookup
// Vendor words a GPU name may start with ("NVIDIA GeForce RTX 4090", "Tesla T4").
std::string normalise(std::string_view s) { return normalise_name(s, {"nvidia", "geforce", "tesla"}); }

template <typename Fn>
void for_each_name(const GpuEntry& g, Fn&& fn) {
    fn(std::string_view(g.name));
    std::string_view rest(g.aliases);
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        fn(rest.substr(0, comma));
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
    }
}

}  // namespace

std::span<const GpuEntry> all_gpus() { return kGpus; }
std::span<const GpuEntry> reference_devices() { return kReferenceDevices; }

const GpuEntry* find_gpu_entry(std::string_view canonical_name) {
    for (std::span<const GpuEntry> list : {all_gpus(), reference_devices()})
        for (const GpuEntry& g : list)
            if (canonical_name == g.name) return &g;
    return nullptr;
}

const GpuEntry* lookup_gpu(std::string_view name) {
    const std::string key = normalise(name);
    if (key.empty()) return nullptr;
    for (const GpuEntry& g : kGpus) {
        bool hit = false;
        for_each_name(g, [&](std::string_view n) { hit = hit || normalise(n) == key; });
        if (hit) return &g;
    }
    return nullptr;
}

std::optional<Device> find_gpu(std::string_view name) {
    const GpuEntry* g = lookup_gpu(name);
    if (!g) return std::nullopt;
    Device d;
    d.name = g->name;
    d.sm_count = g->sm_count;
    d.segment = g->segment;
    d.arch = *find_arch(g->cc_major, g->cc_minor);
    return d;
}

std::vector<const GpuEntry*> ambiguous_gpu(std::string_view name) {
    std::vector<const GpuEntry*> out;
    const std::string key = normalise(name);
    for (const SharedName& shared : kSharedNames) {
        if (key != shared.name) continue;
        std::string_view rest(shared.members);
        while (!rest.empty()) {
            const auto comma = rest.find(',');
            if (const GpuEntry* g = find_gpu_entry(rest.substr(0, comma))) out.push_back(g);
            if (comma == std::string_view::npos) break;
            rest.remove_prefix(comma + 1);
        }
    }
    return out;
}

std::string ambiguous_gpu_message(std::string_view name) {
    const std::vector<const GpuEntry*> choices = ambiguous_gpu(name);
    if (choices.empty()) return {};
    std::string msg = "\"" + std::string(name.substr(0, 40)) + "\" is the device name of several GPUs with different SM counts: ";
    for (std::size_t i = 0; i < choices.size(); ++i)
        msg += (i ? ", " : "") + std::string(choices[i]->name) + " (" + std::to_string(choices[i]->sm_count) + " SMs)";
    const GpuEntry& g = *choices.front();
    msg += "; give one of these, or the SM count as a custom device, e.g. {\"major\":" + std::to_string(g.cc_major) +
           ",\"minor\":" + std::to_string(g.cc_minor) + ",\"multiProcessorCount\":" + std::to_string(g.sm_count) + "}";
    return msg;
}

std::string suggest_gpu(std::string_view name) {
    const std::string key = normalise(name);
    if (key.empty()) return {};
    Closest closest(key, /*swaps=*/true, /*prefix_bonus=*/true);
    for (const GpuEntry& g : kGpus) for_each_name(g, [&](std::string_view n) { closest.offer(normalise(n), g.name); });
    return closest.best();
}

}  // namespace occ
