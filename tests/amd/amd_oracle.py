#!/usr/bin/env python3
"""Differential test: occ's AMD occupancy model against LLVM's (llc's `; Occupancy:` comment).

For every gfx target that occ knows and an installed Debian llc knows (llc-19, llc-14), and for each
wave size and (RDNA) CU/WGP mode, generate kernels with chosen workgroup size, VGPRs, AGPRs, SGPRs
and LDS (llc_batch.py), compile them in one llc call per target and mode, and check per kernel:
  1. occ's LLVM estimate (amd_llvm_occupancy, with that llc's release rules) == llc's Occupancy
                                                               (must hold: 0 mismatches)
  2. occ's VGPR+AGPR total == llc's TotalNumVgprs              (must hold)
  3. occ's waves_per_simd <= llc's Occupancy, and every difference is one of the three documented ones
     (docs/AMD.md, "Where occ and LLVM differ"): LDS rounded to its allocation granule, gfx9 SGPRs
     rounded to 16 plus the trap handler's 16, or registers counted in whole workgroups.
Usage: amd_oracle.py --probe build/native/bin/occ-amd-probe [--sample | --per-batch N] [--seed S]
(environment OCC_AMD_PER_BATCH=N overrides the sample size when --per-batch is not given)
Exit 0 on success, 1 on a mismatch, 77 when no llc is installed.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import llc_batch  # noqa: E402

# What the generator needs about each target; the model's own table is lib/core/src/amd_arch.cpp
# (the probe reads that). Kept small on purpose: only what decides which kernels are legal.
CDNA = {"gfx908": "separate", "gfx90a": "unified", "gfx942": "unified"}
RDNA = ["gfx1030", "gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1200", "gfx1201"]
LLC_TARGETS = {
    "llc-19": ["gfx908", "gfx90a", "gfx942"] + RDNA,
    "llc-14": ["gfx908", "gfx90a", "gfx1030"],
}
GRANULE_LDS = 512  # every target llc here knows allocates LDS in 512-byte blocks (gfx950: 1280, not in llc-19)


def vgpr_file(isa, wave):
    if isa in CDNA:
        return (512, 8) if CDNA[isa] == "unified" else (256, 4)
    big = isa in ("gfx1100", "gfx1101", "gfx1151", "gfx1200", "gfx1201")
    base = 1536 if big else 1024
    return (base, 24 if big else 16) if wave == 32 else (base // 2, 12 if big else 8)


def modes(isa):
    if isa in CDNA:
        return [(64, False)]
    return [(w, cu) for w in (32, 64) for cu in (False, True)]


def random_kernel(rng, isa, wave, cu):
    simds = 4 if (isa in CDNA or not cu) else 2
    wg = rng.choice([rng.randint(1, 1024), rng.choice([32, 64, 96, 128, 192, 256, 320, 384, 512, 768, 1024]), rng.randint(1, 256)])
    n = -(-wg // wave)
    file, gran = vgpr_file(isa, wave)
    # The most VGPRs LLVM lets a kernel of this workgroup size use (getMaxNumVGPRs at
    # getWavesPerEUForWorkGroup waves): the clobbers stay inside what the allocator accepts.
    waves_needed = -(-n // simds)
    maxv = min(file // waves_needed // gran * gran, 512 if CDNA.get(isa) == "unified" else 256)
    k = llc_batch.Kernel(wg=wg)
    total = rng.randint(0, maxv)
    if CDNA.get(isa) and rng.random() < 0.4:
        k.vgpr = rng.randint(0, min(total, 256))
        room = total - (-(-k.vgpr // 4) * 4) if CDNA[isa] == "unified" else total
        k.agpr = rng.randint(0, max(0, min(room, 256)))
    else:
        k.vgpr = min(total, 256)
    k.sgpr = rng.choice([0, rng.randint(1, 102 if isa in CDNA else 106), rng.randint(70, 102 if isa in CDNA else 106)])
    lds_max = 65536
    r = rng.random()
    if r < 0.2:
        k.lds = 0
    elif r < 0.6:
        k.lds = rng.randint(1, lds_max // GRANULE_LDS) * GRANULE_LDS
    elif r < 0.8:
        k.lds = rng.randint(1, lds_max)
    else:
        k.lds = rng.randint(1, 8192)
    return k


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--probe", required=True)
    ap.add_argument("--sample", action="store_true", help="the make-test size (200 kernels per target and mode)")
    ap.add_argument("--per-batch", type=int, default=0, help="kernels per target and mode (default 200 with --sample, else 3000)")
    ap.add_argument("--seed", type=int, default=27)
    args = ap.parse_args()
    # OCC_AMD_PER_BATCH: the sanitizer run's smaller sample (Makefile _sanitize-ctest).
    per = args.per_batch or int(os.environ.get("OCC_AMD_PER_BATCH", "0")) or (200 if args.sample else 3000)
    llcs = [l for l in LLC_TARGETS if shutil.which(l)]
    if not llcs:
        print("SKIPPED: neither llc-19 nor llc-14 is installed (apt-get install llvm-19)")
        return 77
    rng = random.Random(args.seed)
    t0 = time.time()
    total = mismatches = 0
    coverage = []  # per target and mode: the share of occupancy values 1..max that llc reported
    diffs = {"lds_granule": 0, "sgpr_trap_reserve": 0, "whole_workgroups": 0}
    for llc in llcs:
        for isa in LLC_TARGETS[llc]:
            for wave, cu in modes(isa):
                ks = [random_kernel(rng, isa, wave, cu) for _ in range(per)]
                mattr = ",".join(([] if isa in CDNA or wave == 32 else ["+wavefrontsize64"]) + (["+cumode"] if cu else []))
                llc_batch.run(llc, isa, mattr, ks)
                lines = []
                for k in ks:
                    rep = k.report
                    lines.append(f"{isa} {wave} {int(cu)} {k.wg} {rep.get('vgprs', 0)} {rep.get('agprs', 0)} {rep['sgprs']} {rep['lds']}")
                out = subprocess.run([args.probe], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True).stdout.splitlines()
                seen = {k.report["occupancy"] for k in ks}
                coverage.append(len(seen) / max(seen))
                for k, line, res in zip(ks, lines, out):
                    total += 1
                    rep = k.report
                    if res.startswith("error"):
                        mismatches += 1
                        print(f"MISMATCH {llc} {line}: occ refused ({res}); llc {rep}")
                        continue
                    occ, llvm19, llvm14, rounded19, tv, lds_alloc, _wg, sgpr_w, llvm_sgpr_w = map(int, res.split())
                    llvm = llvm19 if llc == "llc-19" else llvm14
                    llc_total = rep.get("total_vgprs", rep.get("vgprs"))
                    if llvm != rep["occupancy"] or tv != llc_total:
                        mismatches += 1
                        print(f"MISMATCH {llc} {line} (wg {k.wg}): occ llvm-estimate {llvm} total VGPRs {tv}; llc {rep}")
                    elif occ > llvm:
                        mismatches += 1
                        print(f"MISMATCH {llc} {line}: occ {occ} above LLVM's {llvm}")
                    elif occ < llvm:
                        # The LDS granule alone explains it when LLVM's own rules, given the rounded bytes, agree.
                        if lds_alloc != rep["lds"] and (llc != "llc-19" or rounded19 == occ):
                            diffs["lds_granule"] += 1
                        elif sgpr_w < llvm_sgpr_w and sgpr_w < llvm:
                            diffs["sgpr_trap_reserve"] += 1
                        else:
                            diffs["whole_workgroups"] += 1
    dt = time.time() - t0
    print(f"amd_oracle: {total} kernels on {', '.join(f'{l} ({len(LLC_TARGETS[l])} targets)' for l in llcs)}; "
          f"{mismatches} mismatches; occ below LLVM's estimate where documented (docs/AMD.md): "
          f"{diffs['lds_granule']} by the LDS granule, {diffs['sgpr_trap_reserve']} by the SGPR granule and trap reserve, "
          f"{diffs['whole_workgroups']} by whole workgroups; {len(coverage)} target/mode batches, the poorest saw "
          f"{min(coverage):.0%} of the occupancy values from 1 to its highest; {dt:.1f} s")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
