#!/usr/bin/env python3
"""The nvcc differential sweep of `occ memory`: generated CUDA kernels whose every access has a
known address per lane, compiled by nvcc to PTX, read back by `occ memory`, and each access row
held equal to what `occ coalesce` / `occ banks` answer for the lane addresses the generator wrote.

How it works
  1. Generate --count kernels (seeded by --seed), --per-file to a .cu file, in five families
     (t = tx + blockDim.x*ty, ty = threadIdx.y + blockDim.y*threadIdx.z: 1-D, 2-D, 3-D blocks):
       global   out[...] = in[B + S*t + O] or in[B + P*ty + S*tx + O], out indexed the same way;
                T is char, short, float, double, float2 or float4 (1..16 bytes); strides -65..65;
                int, unsigned or long long indices; an optional predicated tail `if (t < n)` or
                `if (i < n)` (i the load's index) with n given as --param; a third of the kernels
                get their pointers as --param at element-aligned offsets from 256-byte
                boundaries, some a G * blockIdx.x term, run in a block b > 0 of a 1-D grid
       loop     acc += in[B + S*t + O + k*KS] for k < K (a constant or --param) under
                `#pragma unroll 1` (one PTX load executed K times per warp; occ's figures are the
                means over those executions) or `#pragma unroll` (K loads on one line, matched
                as a set); some guarded by a tile tail `if (t + k*GS < m)`
       shared   __shared__ T s[R][C+pad] (4, 8, 16-byte T, pads 0/1/2) written and read
                row-wise s[ty][tx] or column-wise s[tx][ty] (transpose-like)
       shared1d __shared__ T s[M] (or extern __shared__ T s[]) written at one affine index and
                read at another: the 8- and 16-byte bank phases for any stride
       intops   global and shared accesses at t / D, t % D, shifts, masks, xor, min, max of t
     A line holds one load and one store at most (or an unrolled loop's loads), so a row of
     `occ memory` is matched to its access by (source line, state space, ld/st) through
     -lineinfo's .loc directives.
  2. nvcc -ptx -lineinfo -arch=sm_80 per file (and --sm90-files files again for sm_90).
  3. One `occ memory --batch` per PTX file (a JSON line per kernel with that kernel's part of
     the module), run on the first and the last warp of one block (block 0, or block b of the
     grid for a kernel with blockIdx.x); pointers not given are symbolic and 256-byte aligned
     (CUDA C++ Programming Guide, "Device Memory Accesses": cudaMalloc's alignment), so the
     generator's addresses are byte offsets from 0.
  4. The generator's own lane addresses for the same warps go to `occ coalesce --batch` /
     `occ banks --batch` (pattern "addresses"); the means over executions are compared with
     each row's sectors_per_request, ideal_sectors_per_request, wavefronts_per_request,
     ideal_wavefronts_per_request, bank_conflicts_per_request, access_bytes and executions.
     This checks the warp interpreter (PTX to addresses, guards, trip counts), not the models,
     which both sides share.

Output: counts of kernels, accesses compared, equal, different (each printed with the kernel's
source line, the PTX instruction and both answers), unknown (with occ's reason) and the fraction
equal. Exit status 1 on any difference (or a kernel nvcc or occ could not handle), else 0.

Examples
  scripts/ptx_sweep.py --count 3000                       # the full sweep, build/native/bin/occ
  scripts/ptx_sweep.py --count 150 --seed 7 --occ path/to/occ --keep /tmp/sweep
  OCC_BIN=build/native/bin/occ scripts/ptx_sweep.py --count 200 --families shared
"""
import argparse
import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

from ptx_sweep_kernels import FAMILIES, GENERATORS, expected_requests, run_warps  # beside this file


def run_batch(occ, kind, lines, fields=None):
    cmd = [occ, kind, "--batch"] + (["--fields", fields] if fields else [])
    p = subprocess.run(cmd, input="".join(json.dumps(x) + "\n" for x in lines), capture_output=True, text=True, timeout=1800)
    out = p.stdout.splitlines()
    if len(out) != len(lines):
        raise RuntimeError(f"occ {kind} --batch: {len(out)} answers for {len(lines)} lines (rc {p.returncode}): {p.stderr[-500:]}")
    return [json.loads(x) for x in out]


def split_ptx(text):
    """Each kernel's own PTX: the module header (.version, .target, .address_size), every
    module-scope declaration and directive (.extern, .file), and the kernel's part from its
    `// .globl` comment to the next, so that occ memory does not read 200 kernels for each one (PTX ISA, "PTX Module
    Directives": a module is the directives and the entries, in any number)."""
    lines = text.splitlines(keepends=True)
    starts = [i for i, l in enumerate(lines) if l.lstrip().startswith("// .globl")]
    if not starts:
        return {}
    # Module-scope declarations (nvcc writes `.extern .shared ... dyn[];` between entries) go to
    # every part: a line at column 0 that starts with a directive and ends with ';', and .file.
    decl = {i for i in range(starts[0], len(lines))
            if (lines[i].startswith(".") and lines[i].rstrip().endswith(";")) or lines[i].lstrip().startswith(".file")}
    header = "".join(lines[:starts[0]]) + "".join(lines[i] for i in sorted(decl))
    parts = {}
    for a, b in zip(starts, starts[1:] + [len(lines)]):
        name = lines[a].split()[-1]
        parts[name] = header + "".join(lines[i] for i in range(a, b) if i not in decl)
    return parts


def process_file(job):
    """Compile one .cu file, run occ memory on each kernel; (per-kernel rows or an error, ptx lines)."""
    occ, nvcc, cu, arch, kernels, gpu = job
    ptx = cu[:-3] + f"_{arch}.ptx"
    p = subprocess.run([nvcc, "-ptx", "-lineinfo", f"-arch={arch}", cu, "-o", ptx], capture_output=True, text=True)
    if p.returncode != 0:
        return {"error": f"nvcc {cu}: {p.stderr[-2000:]}"}
    with open(ptx, encoding="utf8") as f:
        text = f.read()
    parts = split_ptx(text)
    reqs = [{"ptx": parts.get(k.name, text), "kernel": k.name, "block": list(k.block), "grid": [k.grid, 1, 1], "params": k.params, "gpu": gpu,
             "warps": [f"{k.block_idx}.0.0:{w}" for w in run_warps(k)]} for k in kernels]
    answers = run_batch(occ, "memory", reqs)
    return {"answers": answers, "ptx_lines": text.splitlines()}


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-6 * max(1.0, abs(b))


def mean(xs):
    return sum(xs) / len(xs) if xs else None


def compare(args, files, results, described, tally, out):
    """Hold every access row against the described answers; print each difference."""
    for (cu, arch, kernels, first_line), res in zip(files, results):
        if "error" in res:
            tally["errors"] += 1
            print(f"ERROR {res['error']}", file=out)
            continue
        for k, line0, ans in zip(kernels, first_line, res["answers"]):
            tally["kernels"] += 1
            if ans.get("error"):
                tally["errors"] += 1
                print(f"ERROR {k.name} ({arch}): occ memory: {ans['error']}", file=out)
                continue
            rows = ans["instructions"]
            groups = {}  # accesses on one line in one space with one op (an unrolled loop's copies)
            for j, acc in enumerate(k.accesses):
                groups.setdefault(acc[:3], []).append(j)
            for (off, space, op), js in groups.items():
                size = k.accesses[js[0]][3]
                line = line0 + off + 1
                mine = sorted((r for r in rows if r.get("line") == line and r["space"] == space and r["instruction"].startswith(op)
                               and r.get("side") in (None, "")), key=lambda r: r["ptx_line"])
                src = f"{os.path.basename(cu)}:{line} ({arch}, {k.name}, block {k.block}): {k.lines[off].strip()}"
                tally["accesses"] += len(js)
                if len(mine) != len(js):
                    tally["different"] += len(js)
                    print(f"DIFFERENT {src}\n  expected {len(js)} {space} {op} row(s) at that line, occ gave {len(mine)}: "
                          f"{[r['instruction'] for r in mine]}", file=out)
                    continue
                left = list(js)
                for r in mine:  # each row against the first described access it equals (copies may be reordered)
                    verdicts = [(j, judge(r, described[(cu, arch, k.name, j)], space, size)) for j in left]
                    j, (verdict, detail) = next((v for v in verdicts if v[1][0] != "different"), verdicts[0])
                    left.remove(j)
                    if not (r.get("file") or "").endswith(os.path.basename(cu)):
                        verdict, detail = "different", f"occ memory's file is {r.get('file')!r}"
                    if verdict == "unknown":
                        tally["unknown"] += 1
                        if args.verbose:
                            print(f"UNKNOWN {src}: {r['unknown']}", file=out)
                        reason = r["unknown"].split(":")[0]
                        tally["unknown_reasons"][reason] = tally["unknown_reasons"].get(reason, 0) + 1
                    elif verdict == "different":
                        tally["different"] += 1
                        print(f"DIFFERENT {src}\n  PTX line {r['ptx_line']}: {r['instruction']}\n{detail}", file=out)
                    else:
                        tally["equal"] += 1
                        tally["not_executed"] += verdict == "not_executed"


def judge(r, want_reqs, space, size):
    """(verdict, detail) of one occ memory row against the described requests of one access."""
    if not want_reqs and r["executions"] == 0:  # no lane of the warps run reaches it, on both sides
        return "not_executed", ""
    if r.get("unknown"):
        return "unknown", r["unknown"]
    got, want = row_figures(r, space), described_figures(want_reqs, space)
    bad = [f for f in want if not close(got[f], want[f])]
    if r["access_bytes"] != size:
        bad.append("access_bytes")
        got["access_bytes"], want["access_bytes"] = r["access_bytes"], size
    if not bad:
        return "equal", ""
    return "different", (f"  occ memory: {json.dumps({f: got[f] for f in bad})}  (executions {r['executions']})\n"
                         f"  described : {json.dumps({f: want[f] for f in bad})}  (requests {len(want_reqs)})")


def row_figures(r, space):
    if space == "global":
        return {"sectors": r["sectors_per_request"], "ideal_sectors": r["ideal_sectors_per_request"], "requests": r["executions"]}
    return {"wavefronts": r["wavefronts_per_request"], "ideal_wavefronts": r["ideal_wavefronts_per_request"],
            "conflicts": r["bank_conflicts_per_request"], "requests": r["executions"]}


def described_figures(answers, space):
    keys = ("sectors", "ideal_sectors") if space == "global" else ("wavefronts", "ideal_wavefronts", "conflicts")
    out = {k: mean([a[k] for a in answers]) for k in keys}
    out["requests"] = len(answers)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=3000, help="kernels to generate [3000]")
    ap.add_argument("--seed", type=int, default=1, help="random seed; the same seed gives the same kernels [1]")
    ap.add_argument("--per-file", type=int, default=200, help="kernels per .cu file (one nvcc call each) [200]")
    ap.add_argument("--sm90-files", type=int, default=1, help="files also compiled with -arch=sm_90 [1]")
    ap.add_argument("--families", default=",".join(FAMILIES), help=f"kernel families [{','.join(FAMILIES)}]")
    ap.add_argument("--occ", default=os.environ.get("OCC_BIN", "build/native/bin/occ"), help="occ binary [$OCC_BIN or build/native/bin/occ]")
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc", help="nvcc [on PATH, else /usr/local/cuda/bin/nvcc]")
    ap.add_argument("--gpu", default="A100", help="device for occ's models, sm_80 files [A100]")
    ap.add_argument("--gpu90", default="H100", help="device for the sm_90 files [H100]")
    ap.add_argument("--jobs", type=int, default=2, help="files compiled and read at once [2]")
    ap.add_argument("--keep", help="write the .cu and .ptx files here (else a temporary folder)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every unknown access too")
    args = ap.parse_args()
    fams = [f for f in args.families.split(",") if f]
    for f in fams:
        if f not in GENERATORS:
            ap.error(f"--families: {f} is not one of {', '.join(FAMILIES)}")
    for tool in (args.occ, args.nvcc):
        if not (os.path.isfile(tool) and os.access(tool, os.X_OK)):
            ap.error(f"not an executable: {tool}")
    start = time.time()
    rng = random.Random(args.seed)
    work = args.keep or tempfile.mkdtemp(prefix="occ_ptx_sweep_")
    os.makedirs(work, exist_ok=True)
    files = []  # (cu, arch, kernels, first source line of each kernel)
    for fi in range(0, args.count, args.per_file):
        kernels = [GENERATORS[fams[(fi + j) % len(fams)]](rng, f"k{fi + j}") for j in range(min(args.per_file, args.count - fi))]
        cu = os.path.join(work, f"sweep_{fi // args.per_file:03d}.cu")
        text, first = ["// Generated by scripts/ptx_sweep.py --seed %d" % args.seed], []
        for k in kernels:
            first.append(len(text))
            text.extend(k.lines)
        with open(cu, "w", encoding="utf8") as f:
            f.write("\n".join(text) + "\n")
        files.append((cu, "sm_80", kernels, first))
        if fi // args.per_file < args.sm90_files:
            files.append((cu, "sm_90", kernels, first))
    print(f"ptx_sweep: {args.count} kernels in {len(set(f[0] for f in files))} files under {work}", file=sys.stderr)
    gpu = {"sm_80": args.gpu, "sm_90": args.gpu90}
    jobs = [(args.occ, args.nvcc, cu, arch, kernels, gpu[arch]) for cu, arch, kernels, _ in files]
    results = [None] * len(jobs)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futs = {pool.submit(process_file, j): i for i, j in enumerate(jobs)}
        for n, fut in enumerate(concurrent.futures.as_completed(futs), 1):
            i = futs[fut]
            try:
                results[i] = fut.result()
            except Exception as e:  # noqa: BLE001 - reported as an error, the sweep goes on
                results[i] = {"error": f"{jobs[i][2]} ({jobs[i][3]}): {e}"}
            print(f"ptx_sweep: {n}/{len(jobs)} files compiled and read ({time.time() - start:.0f} s)", file=sys.stderr)
    # The described side: one occ coalesce --batch and one occ banks --batch for every request.
    keys, reqs = {"global": [], "shared": []}, {"global": [], "shared": []}
    for cu, arch, kernels, _ in files:
        for k in kernels:
            for j, acc in enumerate(k.accesses):
                space = acc[1]
                for r in expected_requests(k, acc):
                    r["gpu"] = gpu[arch]
                    keys[space].append((cu, arch, k.name, j))
                    reqs[space].append(r)
    described = {}
    for space, kind, fields in (("global", "coalesce", "sectors,ideal_sectors"), ("shared", "banks", "wavefronts,ideal_wavefronts,conflicts")):
        if not reqs[space]:
            continue
        print(f"ptx_sweep: occ {kind} --batch: {len(reqs[space])} described requests", file=sys.stderr)
        for key, a in zip(keys[space], run_batch(args.occ, kind, reqs[space], fields)):
            if a.get("error"):
                raise SystemExit(f"occ {kind} refused a described request of {key}: {a['error']}")
            described.setdefault(key, []).append(a)
    for cu, arch, kernels, _ in files:  # an access no warp reaches has no request on either side
        for k in kernels:
            for j in range(len(k.accesses)):
                described.setdefault((cu, arch, k.name, j), [])
    tally = {"not_executed": 0, "kernels": 0, "accesses": 0, "equal": 0, "different": 0, "unknown": 0, "errors": 0, "unknown_reasons": {}}
    compare(args, files, results, described, tally, sys.stdout)
    dt = time.time() - start
    frac = tally["equal"] / tally["accesses"] if tally["accesses"] else 0.0
    print(f"kernels {args.count} generated, {tally['kernels']} read ({len(files)} PTX files: sm_80, and sm_90 for "
          f"{sum(f[1] == 'sm_90' for f in files)} of them), "
          f"accesses compared {tally['accesses']}: equal {tally['equal']}, different {tally['different']}, "
          f"unknown {tally['unknown']}, errors {tally['errors']}; equal fraction {frac:.4f}; {dt:.1f} s")
    if tally["not_executed"]:
        print(f"  of the equal: {tally['not_executed']} accesses no lane of the warps run reaches (both sides: no request)")
    for reason, n in sorted(tally["unknown_reasons"].items(), key=lambda x: -x[1]):
        print(f"  unknown ({n}): {reason}")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if tally["different"] or tally["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
