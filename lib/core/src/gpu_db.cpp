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
//             B300"; a second report quotes 74 and 33 for B300).
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
//   [M2U]     Apple newsroom, "Apple introduces M2 Ultra" (June 2023): 76-core GPU, 27.2 TFLOP/s, 800 GB/s.
//   [LP5X]    JEDEC LPDDR5X at 9,600 MT/s on a 64-bit bus = 76.8 GB/s (e.g. Snapdragon 8 Gen 3 product brief:
//             "LPDDR5x up to 4800 MHz"); the GPU FP32 figure (~4.6 TFLOP/s) is a third-party estimate, not
//             a vendor number: use this device for memory-bound comparisons.
//   [TX1]     NVIDIA Jetson TX1 module: 256-core Maxwell GPU (GM20B; 2 SMM of 128 cores, e.g. TechPowerUp's
//             "SMM count 2"). deviceQuery prints "NVIDIA Tegra X1" on the TX1 and on the Jetson Nano (1 SMM):
//             that name is ambiguous.
//   [A10G]    AWS EC2 G5 instances' NVIDIA A10G (cc 8.6; "g5.12xlarge ... nvidia a10g is 8.6",
//             vantage-sh/ec2instances.info #724): GA102 with 80 SMs, 10,240 CUDA cores. Device name from a
//             deviceQuery run on a G5 ("Device 0: \"NVIDIA A10G\"", bottlerocket-os/bottlerocket PR #3561).
//   [R40]     NVIDIA GeForce RTX 4070 Ti SUPER specifications: 8,448 CUDA cores (128 per SM on Ada).
//   [L20]     NVIDIA L20 (China-market AD102 board): 11,776 CUDA cores; torch / nvidia-smi name "NVIDIA L20".
//   [H800P]   H800 PCIe: GH100 as H100 PCIe (14,592 CUDA cores, 128 per SM).
//   [R50]     NVIDIA GeForce RTX 50 series specifications (desktop): 5070 Ti 8,960, 5070 6,144, 5060 Ti 4,608,
//             5060 3,840, 5050 2,560 CUDA cores, 128 per SM (press tables: "SMs 48 | 36 | 30 | 20" for 5070,
//             5060 Ti, 5060, 5050, Tom's Hardware, "Nvidia RTX 5060 Ti final specs").
//   [RPRO]    NVIDIA RTX PRO Blackwell desktop cards: PRO 5000 14,080 (GB202), PRO 4500 10,496 and PRO 4000
//             8,960 (GB203) CUDA cores, 128 per SM; PRO 6000 24,064 (cudnn-frontend PR #1164 quotes the RTX
//             Blackwell whitepaper's table: RTX PRO 6000 Blackwell 94 TPCs, 188 SMs).
//   Driver-printed names (each entry's driver_names), from public dumps: nvidia-smi tables ("NVIDIA H100 80GB
//   HBM3", NVIDIA/nccl #1264; "NVIDIA A800-SXM4-80GB", dexmal/dexbotic #41; "NVIDIA A100-SXM4-40GB",
//   bottlerocket-core-kit PR #834; "NVIDIA H100 NVL", NVIDIA/gpu-admin-tools #4), nvidia-smi -q "Product
//   Name" ("Tesla V100-SXM2-16GB", "Tesla V100-SXM2-32GB", "Tesla V100-PCIE-16GB": NVIDIA/nvidia-docker
//   #738, #1076, #1285), torch.cuda.get_device_name() in issues ("NVIDIA GeForce RTX 5070 Ti",
//   RVC-Project #2636; "NVIDIA RTX PRO 6000 Blackwell Server Edition" / "... Workstation Edition",
//   zzc0721/torch-performance-test-data #160-#162; "GeForce RTX 5090 D", pytorch/pytorch #150733; "NVIDIA
//   GeForce RTX 4070 Ti SUPER", ibid. #71), mixbench / deviceQuery ("NVIDIA A100 80GB PCIe", ekondis/mixbench
//   #47; "Orin", tmcdonell/cuda #77), the CUDA driver API on a Jetson AGX Thor ("NVIDIA Thor", 20 SMs, NVIDIA
//   developer forum "Clarification on CUDA Core and Tensor Core counts for Jetson AGX Thor").
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
constexpr GpcSplit kBlackwellDcGpc{
    .gpcs = 11,
    .max_sms_per_gpc = 20,
    .source = "[BWCL] measured cluster counts fit only 20,20,20,18,18,18,18 SMs + 16 SMs acting as 10,2,2,2 (8 GPCs of 20 SMs: [BUBLOG])",
    .sms = kBlackwellDcGpcSms,
    .measured = true};
// GH100 products with H100 PCIe's 114 SMs.
constexpr GpcSplit kGH100AsPcie{
    .gpcs = 8, .max_sms_per_gpc = 18, .source = "[HWP] 57 TPCs (114 SMs) on 7 or 8 GPCs: 8 assumed, 1 GPC of 16 SMs + 7 of 14"};
// GH100 products with H100 SXM5's 132 SMs.
constexpr GpcSplit kGH100AsSxm5{
    .gpcs = 8, .max_sms_per_gpc = 18, .source = "[HWP] GH100 with 132 SMs as H100 SXM5: 2 GPCs of 18 SMs + 6 of 16 (assumed even)"};

// Every A100 has the same compute figures ([A100DS]); memory bandwidth differs by model.
constexpr GpuPeaks a100_peaks(double dram_gbps, int list_position, const char* source) {
    return {.fp64 = 9.7,
            .fp64_tensor = 19.5,
            .fp32 = 19.5,
            .tf32 = 156,
            .fp16 = 312,
            .bf16 = 312,
            .int8 = 624,
            .dram_gbps = dram_gbps,
            .list_position = list_position,
            .source = source};
}

// One catalogue entry: name, compute capability, SM count, segment, aliases and where the SM count
// comes from; a GPU with published roofline figures or a known GPC layout adds them.
constexpr GpuEntry gpu(const char* name, int cc_major, int cc_minor, int sm_count, Segment segment, const char* aliases,
                       const char* driver_names, const char* source, GpuPeaks peaks = {}, GpcSplit gpc = {}) {
    return {.name = name,
            .cc_major = cc_major,
            .cc_minor = cc_minor,
            .sm_count = sm_count,
            .segment = segment,
            .aliases = aliases,
            .driver_names = driver_names,
            .source = source,
            .peaks = peaks,
            .gpc = gpc};
}

constexpr GpuEntry kGpus[] = {
    // Kepler
    gpu("Tesla-K40", 3, 5, 15, Segment::datacenter, "k40,teslak40", "Tesla K40c|Tesla K40m",
        "Tesla K40 datasheet: 2880 CUDA cores = 15 SMX"),
    gpu("GTX-780-Ti", 3, 5, 15, Segment::consumer, "780ti,gtx780ti", "GeForce GTX 780 Ti", "GK110 whitepaper: 15 SMX"),
    gpu("Tesla-K80", 3, 7, 13, Segment::datacenter, "k80,teslak80", "Tesla K80", "Tesla K80 datasheet: 2496 cores per GPU = 13 SMX"),
    // Maxwell
    gpu("GTX-750-Ti", 5, 0, 5, Segment::consumer, "750ti,gtx750ti", "GeForce GTX 750 Ti", "GM107 whitepaper: 5 SMM"),
    gpu("GTX-980", 5, 2, 16, Segment::consumer, "980,gtx980", "GeForce GTX 980|NVIDIA GeForce GTX 980", "GM204 whitepaper: 16 SMM"),
    gpu("GTX-Titan-X", 5, 2, 24, Segment::consumer, "titanx,gtxtitanx", "GeForce GTX TITAN X|NVIDIA GeForce GTX TITAN X",
        "GM200: 3072 cores = 24 SMM"),
    gpu("Tesla-M40", 5, 2, 24, Segment::datacenter, "m40,teslam40", "Tesla M40|Tesla M40 24GB", "Tesla M40 datasheet: 3072 cores = 24 SMM"),
    gpu("Jetson-Nano", 5, 3, 1, Segment::embedded, "jetsonnano,tegrax1,nano", "NVIDIA Tegra X1", "Jetson Nano: 128 CUDA cores = 1 SMM"),
    gpu("Jetson-TX1", 5, 3, 2, Segment::embedded, "tx1,jetsontx1,tegrax1", "NVIDIA Tegra X1",
        "[TX1] Jetson TX1 module: 256-core Maxwell GPU = 2 SMM (128 cores per SMM)"),
    // Pascal
    gpu("Tesla-P100", 6, 0, 56, Segment::datacenter, "p100,teslap100,p100sxm2,p100pcie",
        "Tesla P100-PCIE-16GB|Tesla P100-PCIE-12GB|Tesla P100-SXM2-16GB", "Pascal P100 whitepaper: 56 SMs"),
    gpu("GTX-1080", 6, 1, 20, Segment::consumer, "1080,gtx1080", "GeForce GTX 1080|NVIDIA GeForce GTX 1080", "GP104: 2560 cores = 20 SMs"),
    gpu("GTX-1080-Ti", 6, 1, 28, Segment::consumer, "1080ti,gtx1080ti", "GeForce GTX 1080 Ti|NVIDIA GeForce GTX 1080 Ti",
        "GP102: 3584 cores = 28 SMs"),
    gpu("Tesla-P40", 6, 1, 30, Segment::datacenter, "p40,teslap40", "Tesla P40", "Tesla P40 datasheet: 3840 cores = 30 SMs"),
    gpu("Tesla-P4", 6, 1, 20, Segment::datacenter, "p4,teslap4", "Tesla P4", "Tesla P4 datasheet: 2560 cores = 20 SMs"),
    gpu("Jetson-TX2", 6, 2, 2, Segment::embedded, "tx2,jetsontx2", "NVIDIA Tegra X2", "Jetson TX2: 256 CUDA cores = 2 SMs"),
    // Volta
    gpu("V100-SXM2-32GB", 7, 0, 80, Segment::datacenter, "v100,v100sxm2,v100sxm216gb,teslav100",
        "Tesla V100-SXM2-32GB|Tesla V100-SXM2-16GB", "Volta V100 whitepaper: 80 SMs",
        {.fp64 = 7.8, .fp32 = 15.7, .fp16 = 125, .dram_gbps = 900, .list_position = 1, .source = "[V100DS]"}),
    gpu("V100-PCIe-32GB", 7, 0, 80, Segment::datacenter, "v100pcie,v100pcie16gb", "Tesla V100-PCIE-32GB|Tesla V100-PCIE-16GB",
        "V100 PCIe datasheet: 5120 cores = 80 SMs",
        {.fp64 = 7.0, .fp32 = 14.0, .fp16 = 112, .dram_gbps = 900, .list_position = 2, .source = "[V100DS]"}),
    gpu("V100S-PCIe-32GB", 7, 0, 80, Segment::datacenter, "v100s,v100spcie,v100spcie32gb", "Tesla V100S-PCIE-32GB",
        "V100S PCIe datasheet: 5120 CUDA cores = 80 SMs (64 per SM)"),
    gpu("Titan-V", 7, 0, 80, Segment::workstation, "titanv", "TITAN V|NVIDIA TITAN V", "Titan V: 5120 cores = 80 SMs"),
    gpu("Jetson-AGX-Xavier", 7, 2, 8, Segment::embedded, "agxxavier,jetsonagxxavier,xavier,jetsonxavier", "Xavier",
        "[JETSON] Jetson AGX Xavier: 512 cores = 8 SMs"),
    gpu("Jetson-Xavier-NX", 7, 2, 6, Segment::embedded, "xaviernx,jetsonxaviernx,xavier,jetsonxavier", "Xavier",
        "[JETSON] Jetson Xavier NX: 384 cores = 6 SMs"),
    // Turing
    gpu("Tesla-T4", 7, 5, 40, Segment::datacenter, "t4", "Tesla T4|NVIDIA T4", "Turing whitepaper / T4 datasheet: 2560 cores = 40 SMs",
        {.fp32 = 8.1, .fp16 = 65, .int8 = 130, .dram_gbps = 320, .list_position = 3, .source = "[T4DS]"}),
    gpu("RTX-2080-Ti", 7, 5, 68, Segment::consumer, "2080ti,rtx2080ti", "GeForce RTX 2080 Ti|NVIDIA GeForce RTX 2080 Ti",
        "Turing whitepaper: 68 SMs"),
    gpu("RTX-2080", 7, 5, 46, Segment::consumer, "2080,rtx2080", "GeForce RTX 2080|NVIDIA GeForce RTX 2080", "Turing whitepaper: 46 SMs"),
    gpu("Quadro-RTX-6000", 7, 5, 72, Segment::workstation, "quadrortx6000,quadrortx8000,rtx6000", "Quadro RTX 6000|Quadro RTX 8000",
        "TU102 full: 72 SMs"),
    // Ampere
    gpu("A100-SXM4-40GB", 8, 0, 108, Segment::datacenter, "a100sxm440gb,a10040gb,a100sxm", "NVIDIA A100-SXM4-40GB|A100-SXM4-40GB",
        "Ampere A100 whitepaper: 108 SMs", a100_peaks(1555, 5, "[A100DS] 40GB SXM4")),
    gpu("A100-SXM4-80GB", 8, 0, 108, Segment::datacenter, "a100,a10080gb,a100sxm480gb", "NVIDIA A100-SXM4-80GB|A100-SXM4-80GB",
        "A100 80GB datasheet: 108 SMs", a100_peaks(2039, 4, "[A100DS] 80GB SXM4")),
    gpu("A100-PCIe-40GB", 8, 0, 108, Segment::datacenter, "a100pcie,a100pcie40gb", "NVIDIA A100-PCIE-40GB|A100-PCIE-40GB",
        "A100 PCIe datasheet: 108 SMs", a100_peaks(1555, 7, "[A100DS] 40GB PCIe")),
    gpu("A100-PCIe-80GB", 8, 0, 108, Segment::datacenter, "a100pcie80gb", "NVIDIA A100 80GB PCIe", "A100 PCIe 80GB datasheet: 108 SMs",
        a100_peaks(1935, 6, "[A100DS] 80GB PCIe")),
    gpu("A30", 8, 0, 56, Segment::datacenter, "a30", "NVIDIA A30", "A30 datasheet: 3584 cores = 56 SMs",
        {.fp64 = 5.2,
         .fp64_tensor = 10.3,
         .fp32 = 10.3,
         .tf32 = 82,
         .fp16 = 165,
         .bf16 = 165,
         .int8 = 330,
         .dram_gbps = 933,
         .list_position = 8,
         .source = "[A30DS]"}),
    gpu("A800-SXM4-80GB", 8, 0, 108, Segment::datacenter, "a800,a800sxm,a800sxm4,a80080gb,a800pcie,a800pcie80gb,a80040gb",
        "NVIDIA A800-SXM4-80GB|NVIDIA A800 80GB PCIe", "[A800] 6,912 cores = 108 SMs (SXM4 and PCIe)"),
    gpu("A10", 8, 6, 72, Segment::datacenter, "a10", "NVIDIA A10", "A10 datasheet: 9216 cores = 72 SMs",
        {.fp32 = 31.2, .tf32 = 62.5, .fp16 = 125, .bf16 = 125, .int8 = 250, .dram_gbps = 600, .list_position = 9, .source = "[A10DS]"}),
    gpu("A10G", 8, 6, 80, Segment::datacenter, "a10g", "NVIDIA A10G", "[A10G] AWS EC2 G5's A10G: GA102 with 80 SMs (10,240 CUDA cores)"),
    gpu("A40", 8, 6, 84, Segment::datacenter, "a40", "NVIDIA A40", "A40 datasheet: 10752 cores = 84 SMs",
        {.fp32 = 37.4,
         .tf32 = 74.8,
         .fp16 = 149.7,
         .bf16 = 149.7,
         .int8 = 299.3,
         .dram_gbps = 696,
         .list_position = 10,
         .source = "[A40DS]"}),
    gpu("RTX-A6000", 8, 6, 84, Segment::workstation, "a6000,rtxa6000", "NVIDIA RTX A6000", "RTX A6000 datasheet: 10752 cores = 84 SMs"),
    gpu("RTX-3090", 8, 6, 82, Segment::consumer, "3090,rtx3090", "NVIDIA GeForce RTX 3090|GeForce RTX 3090",
        "GA102 whitepaper: RTX 3090 82 SMs"),
    gpu("RTX-3080", 8, 6, 68, Segment::consumer, "3080,rtx3080", "NVIDIA GeForce RTX 3080|GeForce RTX 3080",
        "GA102 whitepaper: RTX 3080 68 SMs"),
    gpu("RTX-3060", 8, 6, 28, Segment::consumer, "3060,rtx3060", "NVIDIA GeForce RTX 3060|GeForce RTX 3060", "GA106: 3584 cores = 28 SMs"),
    gpu("Jetson-AGX-Orin", 8, 7, 16, Segment::embedded, "agxorin,jetsonagxorin,agxorin64gb,jetsonagxorin64gb,orin,jetsonorin", "Orin",
        "[JETSON] Jetson AGX Orin 64GB: 2048 cores = 16 SMs",
        {.fp32 = 5.3, .int8 = 85, .dram_gbps = 204.8, .list_position = 11, .source = "[ORINDS] (INT8 170 sparse TOPS halved)"}),
    gpu("Jetson-AGX-Orin-32GB", 8, 7, 14, Segment::embedded, "agxorin32gb,jetsonagxorin32gb,orin,jetsonorin", "Orin",
        "[JETSON] Jetson AGX Orin 32GB: 1792 cores = 14 SMs"),
    gpu("Jetson-Orin-NX", 8, 7, 8, Segment::embedded, "orinnx,jetsonorinnx,orinnx16gb,orinnx8gb,orin,jetsonorin", "Orin",
        "[JETSON] Jetson Orin NX 16GB / 8GB: 1024 cores = 8 SMs"),
    gpu("Jetson-Orin-Nano", 8, 7, 8, Segment::embedded, "orinnano,jetsonorinnano,orinnano8gb,jetsonorinnano8gb,orin,jetsonorin,nano",
        "Orin", "[JETSON] Jetson Orin Nano 8GB: 1024 cores = 8 SMs"),
    gpu("Jetson-Orin-Nano-4GB", 8, 7, 4, Segment::embedded, "orinnano4gb,jetsonorinnano4gb,orin,jetsonorin,nano", "Orin",
        "[JETSON] Jetson Orin Nano 4GB: 512 cores = 4 SMs"),
    // Ada
    gpu("RTX-4090", 8, 9, 128, Segment::consumer, "4090,rtx4090", "NVIDIA GeForce RTX 4090", "Ada whitepaper: RTX 4090 128 SMs",
        {.fp64 = 1.3,
         .fp32 = 82.6,
         .tf32 = 82.6,
         .fp16 = 165.2,
         .bf16 = 165.2,
         .fp8 = 330.3,
         .int8 = 660.6,
         .dram_gbps = 1008,
         .list_position = 12,
         .source = "[AdaWP] (tensor figures with FP32 accumulate)"}),
    gpu("RTX-4080", 8, 9, 76, Segment::consumer, "4080,rtx4080", "NVIDIA GeForce RTX 4080", "Ada whitepaper: RTX 4080 76 SMs"),
    gpu("RTX-4070-Ti-SUPER", 8, 9, 66, Segment::consumer, "4070tisuper,rtx4070tisuper", "NVIDIA GeForce RTX 4070 Ti SUPER",
        "[R40] RTX 4070 Ti SUPER: 8448 CUDA cores = 66 SMs"),
    gpu("L4", 8, 9, 58, Segment::datacenter, "l4", "NVIDIA L4", "L4 datasheet: 7424 cores = 58 SMs",
        {.fp32 = 30.3,
         .tf32 = 60,
         .fp16 = 121,
         .bf16 = 121,
         .fp8 = 242.5,
         .int8 = 242.5,
         .dram_gbps = 300,
         .list_position = 13,
         .source = "[L4DS] (sparse figures halved)"}),
    gpu("L40", 8, 9, 142, Segment::datacenter, "l40", "NVIDIA L40", "L40 datasheet: 18176 cores = 142 SMs"),
    gpu("L40S", 8, 9, 142, Segment::datacenter, "l40s", "NVIDIA L40S", "L40S datasheet: 18176 cores = 142 SMs",
        {.fp32 = 91.6,
         .tf32 = 183,
         .fp16 = 362.05,
         .bf16 = 362.05,
         .fp8 = 733,
         .int8 = 733,
         .dram_gbps = 864,
         .list_position = 14,
         .source = "[L40SDS] (dense figures)"}),
    gpu("L20", 8, 9, 92, Segment::datacenter, "l20", "NVIDIA L20", "[L20] NVIDIA L20: AD102 with 11,776 CUDA cores = 92 SMs"),
    gpu("RTX-6000-Ada", 8, 9, 142, Segment::workstation, "rtx6000ada,6000ada,rtx6000", "NVIDIA RTX 6000 Ada Generation",
        "RTX 6000 Ada datasheet: 18176 cores = 142 SMs"),
    // Hopper
    gpu("H100-SXM5-80GB", 9, 0, 132, Segment::datacenter, "h100,h100sxm,h100sxm5,h10080gb", "NVIDIA H100 80GB HBM3",
        "Hopper whitepaper: H100 SXM5 132 SMs",
        {.fp64 = 33.5,
         .fp64_tensor = 66.9,
         .fp32 = 66.9,
         .tf32 = 494.7,
         .fp16 = 989.4,
         .bf16 = 989.4,
         .fp8 = 1978.9,
         .int8 = 1978.9,
         .dram_gbps = 3350,
         .list_position = 15,
         .source = "[HWP] table 3; [H100DS] 3.35 TB/s"},
        {.gpcs = 8,
         .max_sms_per_gpc = 18,
         .source = "[HWP] 8 GPCs, 66 TPCs (132 SMs), TPCs assumed spread evenly: 2 GPCs of 18 SMs + 6 of 16"}),
    gpu("H100-PCIe-80GB", 9, 0, 114, Segment::datacenter, "h100pcie", "NVIDIA H100 PCIe", "Hopper whitepaper: H100 PCIe 114 SMs",
        {.fp64 = 25.6,
         .fp64_tensor = 51.2,
         .fp32 = 51.2,
         .tf32 = 378,
         .fp16 = 756,
         .bf16 = 756,
         .fp8 = 1513,
         .int8 = 1513,
         .dram_gbps = 2000,
         .list_position = 16,
         .source = "[HWP] table 3; [H100DS] 2 TB/s"},
        kGH100AsPcie),
    gpu("H100-NVL", 9, 0, 132, Segment::datacenter, "h100nvl", "NVIDIA H100 NVL", "H100 NVL datasheet: 132 SMs",
        {.fp64 = 30,
         .fp64_tensor = 60,
         .fp32 = 60,
         .tf32 = 417.5,
         .fp16 = 835.5,
         .bf16 = 835.5,
         .fp8 = 1670.5,
         .int8 = 1670.5,
         .dram_gbps = 3900,
         .list_position = 17,
         .source = "[H100DS] H100 NVL (sparse figures halved)"},
        kGH100AsSxm5),
    gpu("H200", 9, 0, 132, Segment::datacenter, "h200,h200sxm,h200sxm141gb", "NVIDIA H200", "H200 datasheet: GH100 with 132 SMs",
        {.fp64 = 33.5,
         .fp64_tensor = 66.9,
         .fp32 = 66.9,
         .tf32 = 494.7,
         .fp16 = 989.4,
         .bf16 = 989.4,
         .fp8 = 1978.9,
         .int8 = 1978.9,
         .dram_gbps = 4800,
         .list_position = 18,
         .source = "[H200DS] compute as [HWP] H100 SXM5; 4.8 TB/s"},
        kGH100AsSxm5),
    gpu("H200-NVL", 9, 0, 132, Segment::datacenter, "h200nvl", "NVIDIA H200 NVL", "[H200DS] H200 NVL: GH100 with 132 SMs, as H200 SXM", {},
        kGH100AsSxm5),
    gpu("GH200", 9, 0, 132, Segment::datacenter, "gh200,gracehopper", "NVIDIA GH200 480GB", "GH200 datasheet: H100 GPU with 132 SMs", {},
        kGH100AsSxm5),
    gpu("H800", 9, 0, 132, Segment::datacenter, "h800,h800sxm,h800sxm5,h80080gb", "NVIDIA H800", "[DSV3] H800 (SXM5): 132 SMs", {},
        kGH100AsSxm5),
    gpu("H800-PCIe", 9, 0, 114, Segment::datacenter, "h800pcie,h800pcie80gb", "NVIDIA H800 PCIe",
        "[H800P] H800 PCIe: 14,592 CUDA cores = 114 SMs (GH100 as H100 PCIe)", {}, kGH100AsPcie),
    gpu("H20", 9, 0, 78, Segment::datacenter, "h20,h2096gb", "NVIDIA H20", "[H20] NVIDIA H20: GH100 with 78 SMs"),
    // Blackwell
    gpu("B200", 10, 0, 148, Segment::datacenter, "b200,hgxb200,dgxb200", "NVIDIA B200",
        "[AO4002] Blackwell B200: 148 SMs (cudaDeviceProp on B200)",
        {.fp64 = 37,
         .fp64_tensor = 37,
         .fp32 = 75,
         .tf32 = 1125,
         .fp16 = 2250,
         .bf16 = 2250,
         .fp8 = 4500,
         .int8 = 4500,
         .dram_gbps = 7700,
         .list_position = 19,
         .source = "[B200DS] per GPU (8-GPU figures / 8, sparse halved); [BWT] FP32 75, 7.7 TB/s (8 TB/s in [B200DS])"},
        kBlackwellDcGpc),
    gpu("GB200", 10, 0, 152, Segment::datacenter, "gb200,gb200nvl72,gb200nvl4", "NVIDIA GB200",
        "[GBSM] Grace Blackwell GB200: each Blackwell GPU reports 152 SMs"),
    gpu("B300", 10, 3, 148, Segment::datacenter, "b300,hgxb300,dgxb300", "",
        "Blackwell Ultra B300: 148 of the 160 SMs of [BUBLOG] enabled (public B300 cluster counts [BWCL] use all 148)", {},
        kBlackwellDcGpc),
    // GB300's per-GPC split is not measured publicly as far as occ's sources go: an even split is assumed (and says so);
    // one public measurement of 14 active clusters of 8 is reported against it but could not be traced to its source.
    gpu("GB300", 10, 3, 152, Segment::datacenter, "gb300,gb300nvl72", "", "[GBSM] Grace Blackwell Ultra GB300: each GPU reports 152 SMs"),
    gpu("Jetson-AGX-Thor", 11, 0, 20, Segment::embedded, "agxthor,jetsonagxthor,thor,jetsonthor", "NVIDIA Thor",
        "Jetson AGX Thor: 2560 cores = 20 SMs", {},
        GpcSplit{.gpcs = 3,
                 .max_sms_per_gpc = 8,
                 .source = "Jetson Thor: GPCs of at most 8 SMs (NVIDIA's Jetson Thor documentation, as reported to occ; not read here); "
                           "20 SMs in 3 GPCs, split assumed even (8, 6, 6)"}),
    gpu("RTX-5090", 12, 0, 170, Segment::consumer, "5090,rtx5090,rtx5090d", "NVIDIA GeForce RTX 5090|NVIDIA GeForce RTX 5090 D",
        "RTX Blackwell whitepaper: RTX 5090 170 SMs",
        {.fp32 = 104.8,
         .tf32 = 104.8,
         .fp16 = 209.5,
         .bf16 = 209.5,
         .fp8 = 419,
         .int8 = 838,
         .dram_gbps = 1792,
         .list_position = 20,
         .source = "[RBWP] (tensor figures with FP32 accumulate)"},
        {.gpcs = 11, .max_sms_per_gpc = 16, .source = "[RBWP] GB202, 170 SMs (85 TPCs) on 11 GPCs (assumed): 8 GPCs of 16 SMs + 3 of 14"}),
    gpu("RTX-5080", 12, 0, 84, Segment::consumer, "5080,rtx5080", "NVIDIA GeForce RTX 5080", "RTX Blackwell whitepaper: RTX 5080 84 SMs",
        {}, {.gpcs = 7, .max_sms_per_gpc = 12, .source = "[RBWP] full GB203: 7 GPCs of 12 SMs (84 SMs)"}),
    gpu("RTX-5070-Ti", 12, 0, 70, Segment::consumer, "5070ti,rtx5070ti", "NVIDIA GeForce RTX 5070 Ti",
        "[R50] RTX 5070 Ti: 8960 CUDA cores = 70 SMs"),
    gpu("RTX-5070", 12, 0, 48, Segment::consumer, "5070,rtx5070", "NVIDIA GeForce RTX 5070", "[R50] RTX 5070: 6144 CUDA cores = 48 SMs"),
    gpu("RTX-5060-Ti", 12, 0, 36, Segment::consumer, "5060ti,rtx5060ti", "NVIDIA GeForce RTX 5060 Ti",
        "[R50] RTX 5060 Ti (8 GB and 16 GB): 4608 CUDA cores = 36 SMs"),
    gpu("RTX-5060", 12, 0, 30, Segment::consumer, "5060,rtx5060", "NVIDIA GeForce RTX 5060", "[R50] RTX 5060: 3840 CUDA cores = 30 SMs"),
    gpu("RTX-5050", 12, 0, 20, Segment::consumer, "5050,rtx5050", "NVIDIA GeForce RTX 5050", "[R50] RTX 5050: 2560 CUDA cores = 20 SMs"),
    gpu("RTX-PRO-6000-Blackwell", 12, 0, 188, Segment::workstation, "rtxpro6000,pro6000,rtx6000",
        "NVIDIA RTX PRO 6000 Blackwell Workstation Edition|NVIDIA RTX PRO 6000 Blackwell Server Edition|NVIDIA RTX PRO 6000 Blackwell "
        "Max-Q Workstation Edition",
        "RTX PRO 6000 Blackwell datasheet: 24064 cores = 188 SMs", {},
        {.gpcs = 12, .max_sms_per_gpc = 16, .source = "[RBWP] GB202, 188 SMs (94 TPCs) on 12 GPCs: 10 of 16 SMs + 2 of 14 (assumed even)"}),
    gpu("RTX-PRO-5000-Blackwell", 12, 0, 110, Segment::workstation, "rtxpro5000,pro5000,rtxpro5000blackwell",
        "NVIDIA RTX PRO 5000 Blackwell", "[RPRO] RTX PRO 5000 Blackwell (48 GB and 72 GB): GB202 with 14,080 CUDA cores = 110 SMs"),
    gpu("RTX-PRO-4500-Blackwell", 12, 0, 82, Segment::workstation, "rtxpro4500,pro4500,rtxpro4500blackwell",
        "NVIDIA RTX PRO 4500 Blackwell", "[RPRO] RTX PRO 4500 Blackwell: GB203 with 10,496 CUDA cores = 82 SMs"),
    gpu("RTX-PRO-4000-Blackwell", 12, 0, 70, Segment::workstation, "rtxpro4000,pro4000,rtxpro4000blackwell",
        "NVIDIA RTX PRO 4000 Blackwell", "[RPRO] RTX PRO 4000 Blackwell: GB203 with 8,960 CUDA cores = 70 SMs"),
    gpu("DGX-Spark-GB10", 12, 1, 48, Segment::workstation, "gb10,dgxspark,spark", "NVIDIA GB10", "DGX Spark GB10: 6144 cores = 48 SMs"),
// Laptop GPUs: their own SM counts and driver names, with their sources.
#include "gpu_laptops.inc"
};

constexpr GpuEntry kReferenceDevices[] = {
    {.name = "Apple-M2-Ultra",
     .vendor = "Apple",
     .aliases = "m2ultra,m2",
     .peaks = {.fp32 = 27.2, .dram_gbps = 800, .matrix_units = false, .list_position = 32, .source = "[M2U]"}},
    {.name = "Phone-SoC-LPDDR5X",
     .vendor = "reference",
     .aliases = "phone,phonesoc,soc,mobile,snapdragon8gen3,lpddr5x",
     .peaks =
         {.fp32 = 4.6, .dram_gbps = 76.8, .matrix_units = false, .list_position = 33, .source = "[LP5X] 76.8 GB/s; FP32 is an estimate"}},
};

// Names a family of GPUs shares with members outside the catalogue: refused even where one entry
// answers to them, with a word on the others. (A name several entries answer to is refused without
// being listed here: see ambiguous_gpu.)
struct FamilyName {
    const char* name;     // normalised
    const char* outside;  // the family's members occ does not have
};
constexpr FamilyName kFamilyNames[] = {
    // deviceQuery prints "NVIDIA Thor" on every Jetson Thor module; the T4000 has fewer SMs than the
    // AGX Thor (T5000), and no source occ cites gives its SM count.
    {"thor", "Jetson T4000 (a Jetson Thor module with fewer SMs, not in occ's catalogue)"},
    {"jetsonthor", "Jetson T4000 (a Jetson Thor module with fewer SMs, not in occ's catalogue)"},
    // Apple's M2 GPUs range from 8 to 76 cores; occ has only the M2 Ultra's figures.
    {"m2", "Apple M2, M2 Pro and M2 Max (GPUs with fewer cores, not in occ's list)"},
};

// [SECTION] Lookup
// Vendor words a GPU name may start with ("NVIDIA GeForce RTX 4090", "Tesla T4", "AMD Instinct MI300X",
// "AMD Radeon RX 7900 XTX").
std::string normalise(std::string_view s) { return normalise_name(s, {"nvidia", "amd", "geforce", "tesla", "instinct", "radeon"}); }

template <typename Fn>
void for_each_in(std::string_view list, char sep, Fn&& fn) {
    while (!list.empty()) {
        const auto at = list.find(sep);
        fn(list.substr(0, at));
        if (at == std::string_view::npos) break;
        list.remove_prefix(at + 1);
    }
}

// The canonical name, every alias and every name the driver prints.
template <typename Fn>
void for_each_name(const GpuEntry& g, Fn&& fn) {
    fn(std::string_view(g.name));
    for_each_in(g.aliases, ',', fn);
    for_each_in(g.driver_names, '|', fn);
}

bool answers_to(const GpuEntry& g, const std::string& key) {
    bool hit = false;
    for_each_name(g, [&](std::string_view n) { hit = hit || normalise(n) == key; });
    return hit;
}

const FamilyName* family_name(const std::string& key) {
    for (const FamilyName& f : kFamilyNames)
        if (key == f.name) return &f;
    return nullptr;
}

// Every catalogue entry (CUDA GPUs, AMD GPUs, then reference devices) that answers to the normalised name.
std::vector<const GpuEntry*> entries_answering(const std::string& key) {
    std::vector<const GpuEntry*> out;
    if (key.empty()) return out;
    for (std::span<const GpuEntry> list : {std::span<const GpuEntry>(kGpus), amd_gpus(), std::span<const GpuEntry>(kReferenceDevices)})
        for (const GpuEntry& g : list)
            if (answers_to(g, key)) out.push_back(&g);
    return out;
}

// A user's text in a message: whole, unless it is longer than any GPU name could be.
std::string quoted(std::string_view name) {
    constexpr std::size_t kLongest = 200;
    if (name.size() <= kLongest) return "\"" + std::string(name) + "\"";
    return "\"" + std::string(name.substr(0, kLongest)) + "...\" (" + std::to_string(name.size()) + " characters)";
}

}  // namespace

std::span<const GpuEntry> all_gpus() { return kGpus; }
std::span<const GpuEntry> reference_devices() { return kReferenceDevices; }

const GpuEntry* find_gpu_entry(std::string_view canonical_name) {
    for (std::span<const GpuEntry> list : {all_gpus(), amd_gpus(), reference_devices()})
        for (const GpuEntry& g : list)
            if (canonical_name == g.name) return &g;
    return nullptr;
}

const GpuEntry* lookup_gpu(std::string_view name) {
    const std::string key = normalise(name);
    // Exact after normalisation, and only when the name means one GPU: a name several entries answer
    // to (rtx6000, orin, nano) or a family with members outside the catalogue (thor) is refused.
    const std::vector<const GpuEntry*> hits = entries_answering(key);
    if (hits.size() != 1 || family_name(key) || hits.front()->cc_major == 0) return nullptr;
    return hits.front();
}

const GpuEntry* lookup_amd_gpu(std::string_view name) {
    const std::string key = normalise(name);
    const std::vector<const GpuEntry*> hits = entries_answering(key);
    if (hits.size() != 1 || family_name(key) || !*hits.front()->isa) return nullptr;
    return hits.front();
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
    const std::string key = normalise(name);
    std::vector<const GpuEntry*> hits = entries_answering(key);
    if (hits.size() < 2 && !family_name(key)) hits.clear();
    return hits;
}

std::string ambiguous_gpu_message(std::string_view name) {
    const std::vector<const GpuEntry*> choices = ambiguous_gpu(name);
    if (choices.empty()) return {};
    const FamilyName* family = family_name(normalise(name));
    std::string msg = quoted(name) + " names several GPUs with different SM counts: ";
    const GpuEntry* cuda = nullptr;
    for (std::size_t i = 0; i < choices.size(); ++i) {
        const GpuEntry& g = *choices[i];
        msg += (i ? ", " : "") + std::string(g.name) +
               (g.cc_major ? " (" + std::to_string(g.sm_count) + " SMs)"
                : *g.isa   ? " (" + std::to_string(g.sm_count) + " CUs)"
                           : std::string(" (a roofline reference device)"));
        if (!cuda && g.cc_major) cuda = &g;
    }
    if (family) msg += std::string("; also ") + family->outside;
    msg += "; give one of these";
    if (cuda)
        msg += ", or the SM count as a custom device, e.g. {\"major\":" + std::to_string(cuda->cc_major) +
               ",\"minor\":" + std::to_string(cuda->cc_minor) + ",\"multiProcessorCount\":" + std::to_string(cuda->sm_count) + "}";
    return msg;
}

std::string gpu_family_outside(std::string_view name) {
    const FamilyName* f = family_name(normalise(name));
    return f ? f->outside : "";
}

std::string unknown_gpu_message(std::string_view name) {
    std::string msg = "unknown GPU " + quoted(name);
    if (const std::string s = suggest_gpu(name); !s.empty()) msg += "; did you mean \"" + s + "\"?";
    return msg;
}

std::string suggest_gpu(std::string_view name) {
    const std::string key = normalise(name);
    if (key.empty()) return {};
    Closest closest(key, /*swaps=*/true, /*prefix_bonus=*/true);
    for (std::span<const GpuEntry> list : {std::span<const GpuEntry>(kGpus), amd_gpus()})
        for (const GpuEntry& g : list) for_each_name(g, [&](std::string_view n) { closest.offer(normalise(n), g.name); });
    return closest.best();
}

}  // namespace occ
