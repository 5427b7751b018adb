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

TYPES = {1: "char", 2: "short", 4: "float", 8: "double", 16: "float4"}
SCALAR = {1: "char", 2: "short", 4: "float", 8: "double"}
SHARED_TYPES = {4: "float", 8: "double", 16: "float4"}
FAMILIES = ("global", "loop", "shared", "shared1d", "intops")


class Kernel:
    """One generated kernel: its source lines, launch, and the expected accesses."""

    def __init__(self, name, family):
        self.name = name
        self.family = family
        self.lines = []
        self.block = (32, 1, 1)
        self.grid = 1
        self.block_idx = 0  # the block whose first and last warps occ memory runs
        self.params = {}
        # (line offset in self.lines, space, op, access_bytes, addr(tx, ty, k) -> byte address or
        # None when the lane is off, iterations)
        self.accesses = []

    def emit(self, text):
        self.lines.append(text)
        return len(self.lines) - 1


def rand_stride(rng):
    s = rng.choice([1, 1, 1, 2, 3, 4, 8, 16, 32, 33, 64, 65] + [rng.randint(1, 65)])
    return -s if rng.random() < 0.2 else s


def rand_block(rng, max_threads=1024):
    if rng.random() < 0.5:
        return (rng.choice([32, 64, 96, 128, 256, 40, 48, 100]), 1, 1)
    bx = rng.choice([8, 16, 32, 64])
    by = rng.randint(1, max(1, min(16, max_threads // bx)))
    bz = rng.randint(2, 4) if rng.random() < 0.2 and bx * by * 4 <= max_threads else 1
    return (bx, by, bz)


def affine(rng, block, size):
    """(C expression, addr(tx, ty)) of an affine index with every address >= 0."""
    bx, by = block[0], block[1] * block[2]  # ty below is threadIdx.y + blockDim.y * threadIdx.z
    stride = rand_stride(rng)
    offset = rng.randint(-8, 40)
    if by > 1 and rng.random() < 0.5:
        pitch = rng.choice([bx, bx + 1, 2 * bx, 1000, rng.randint(1, 2048)])
        low = min(0, stride * (bx - 1)) + offset
        base = -low if low < 0 else 0
        expr = f"{base} + {pitch} * ty + ({stride}) * tx + ({offset})"
        return expr, lambda tx, ty: (base + pitch * ty + stride * tx + offset) * size
    n = bx * by
    low = min(0, stride * (n - 1)) + offset
    base = -low if low < 0 else 0
    expr = f"{base} + ({stride}) * t + ({offset})"
    return expr, lambda tx, ty: (base + stride * (tx + bx * ty) + offset) * size


def index_decl(rng):
    """tx, ty, t as int, unsigned or long long: every index the generator writes is >= 0, so the
    32-bit unsigned wrap of a negative term (C++ [basic.fundamental], modulo 2^32) ends at the same
    value, and the PTX differs (mul.wide.s32 / mul.wide.u32 / mul.lo.s64)."""
    it = rng.choice(["int", "int", "unsigned", "long long"])
    return it, (f"    {it} tx = threadIdx.x, ty = threadIdx.y + blockDim.y * threadIdx.z; {it} t = tx + blockDim.x * ty;"
                " (void)t;")


def pointer_bases(rng, k, size):
    """Byte addresses of in and out: 0 (occ's symbolic 256-byte-aligned buffers), or, for a third
    of the kernels, given with --param at an element-aligned offset from a 256-byte boundary."""
    if rng.random() >= 0.3:
        return 0, 0
    b = [256 * rng.randint(1, 1 << 20) + size * rng.randrange(256 // size) for _ in range(2)]
    k.params.update({"0": b[0], "1": b[1]})
    return b[0], b[1]


def in_block(rng, k, expr, addr, size):
    """The index plus G * blockIdx.x, run in block b of a 1-D grid (occ memory --grid, --warps b.0.0:w)."""
    if k.block_idx == 0:
        k.grid = rng.randint(2, 9)
        k.block_idx = rng.randint(1, k.grid - 1)
    g = rng.choice([k.block[0] * k.block[1], 32, 1000, rng.randint(1, 4096)])
    b = k.block_idx
    return f"{expr} + {g} * blockIdx.x", lambda tx, ty: addr(tx, ty) + g * b * size


def gen_global(rng, name):
    k = Kernel(name, "global")
    size = rng.choice(list(TYPES) + [8])  # 8 twice: double and float2
    ctype = TYPES[size] if not (size == 8 and rng.random() < 0.5) else "float2"
    k.block = rand_block(rng)
    bx, by = k.block[0], k.block[1] * k.block[2]
    tail = rng.random() < 0.4
    n = rng.randint(1, bx * by) if tail else None
    ld_expr, ld_addr = affine(rng, k.block, size)
    st_expr, st_addr = affine(rng, k.block, size)
    if rng.random() < 0.3:  # a block of a grid other than block 0: the index has G * blockIdx.x
        ld_expr, ld_addr = in_block(rng, k, ld_expr, ld_addr, size)
        st_expr, st_addr = in_block(rng, k, st_expr, st_addr, size)
    on = (lambda tx, ty: tx + bx * ty < n) if tail else (lambda tx, ty: True)
    on_index = tail and rng.random() < 0.5  # the guard on the load's index: if (i < n)
    if on_index:
        idx = [ld_addr(p[0], p[1]) // size for w in range((bx * by + 31) // 32) for p in lanes(k.block, w) if p]
        n = rng.randint(min(idx), max(idx) + 1)
        on = lambda tx, ty: ld_addr(tx, ty) // size < n  # noqa: E731
    k.emit(f'extern "C" __global__ void {name}(const {ctype}* __restrict__ in, {ctype}* __restrict__ out, int n) {{')
    it, decl = index_decl(rng)
    k.emit(decl)
    if on_index:
        k.emit(f"    {it} i = {ld_expr};")
        ld_expr = "i"
    if tail:
        k.params = {"2": n}
        k.emit("    if (i < n) {" if on_index else "    if (t < n) {")
    b_in, b_out = pointer_bases(rng, k, size)
    # One line for both: nvcc's .loc may give a vector load the line of the store that uses it.
    ld = st = k.emit(f"        out[{st_expr}] = in[{ld_expr}];")
    if tail:
        k.emit("    }")
    k.emit("}")
    k.accesses.append((ld, "global", "ld", size, lambda tx, ty, i: b_in + ld_addr(tx, ty) if on(tx, ty) else None, 1))
    k.accesses.append((st, "global", "st", size, lambda tx, ty, i: b_out + st_addr(tx, ty) if on(tx, ty) else None, 1))
    return k


def gen_loop(rng, name):
    k = Kernel(name, "loop")
    size = rng.choice(list(SCALAR))
    ctype = SCALAR[size]
    acc = "float" if size >= 4 else "int"
    if size == 8:
        acc = "double"
    k.block = rand_block(rng)
    bx, by = k.block[0], k.block[1] * k.block[2]
    expr, addr = affine(rng, k.block, size)
    iters = rng.randint(2, 6)
    step = rng.choice([1, 32, bx * by, rng.randint(1, 300)])
    bound = str(iters)
    unrolled = rng.random() < 0.25  # #pragma unroll: one PTX load per k, all on the loop's line
    if not unrolled and rng.random() < 0.6:  # the trip count as a parameter, given to occ memory with --param
        bound, k.params = "n", {"2": iters}
    guard, on = "", lambda tx, ty, i: True
    if rng.random() < 0.4:  # a tile loop's tail: lanes drop out as t + k * GS reaches m
        gs = rng.choice([1, 8, 32, bx * by])
        m = rng.randint(1, bx * by + iters * gs)
        k.params = dict(k.params, **{"3": m})
        guard = f"if ((long long)t + k * {gs} < m) "
        on = lambda tx, ty, i: tx + bx * ty + i * gs < m  # noqa: E731
    k.emit(f'extern "C" __global__ void {name}(const {ctype}* __restrict__ in, {ctype}* __restrict__ out, int n, int m) {{')
    k.emit(index_decl(rng)[1])
    b_in, b_out = pointer_bases(rng, k, size)
    k.emit(f"    {acc} acc = 0;")
    k.emit("#pragma unroll" if unrolled else "#pragma unroll 1")
    k.emit(f"    for (int k = 0; k < {bound}; ++k)")
    ld = k.emit(f"        {guard}acc += in[{expr} + k * {step}];")
    st = k.emit(f"    out[t] = ({ctype})acc;")
    k.emit("}")
    load = lambda tx, ty, i: b_in + addr(tx, ty) + i * step * size if on(tx, ty, i) else None  # noqa: E731
    if unrolled:
        for kk in range(iters):
            k.accesses.append((ld, "global", "ld", size, lambda tx, ty, i, kk=kk: load(tx, ty, kk), 1))
    else:
        k.accesses.append((ld, "global", "ld", size, load, iters))
    k.accesses.append((st, "global", "st", size, lambda tx, ty, i: b_out + (tx + bx * ty) * size, 1))
    return k


def gen_shared(rng, name):
    k = Kernel(name, "shared")
    size = rng.choice(list(SHARED_TYPES))
    ctype = SHARED_TYPES[size]
    bx = rng.choice([8, 16, 32])
    by = rng.choice([1, 2, 4, 8, 16, 32] if bx <= 32 else [1, 2, 4])
    k.block = (bx, by, 1)
    dim = max(bx, by)
    pad = rng.choice([0, 1, 2])
    cols = dim + pad
    wr_col = rng.random() < 0.3
    rd_col = rng.random() < 0.6

    def cell(col):
        if col:  # s[tx][ty]
            return "tx][ty", lambda tx, ty: (tx * cols + ty) * size
        return "ty][tx", lambda tx, ty: (ty * cols + tx) * size

    wr_expr, wr_addr = cell(wr_col)
    rd_expr, rd_addr = cell(rd_col)
    k.emit(f'extern "C" __global__ void {name}(const {ctype}* __restrict__ in, {ctype}* __restrict__ out) {{')
    k.emit(f"    __shared__ {ctype} s[{dim}][{cols}];")
    k.emit("    int tx = threadIdx.x, ty = threadIdx.y; int t = tx + blockDim.x * ty;")
    wr = k.emit(f"    s[{wr_expr}] = in[t];")
    k.emit("    __syncthreads();")
    rd = k.emit(f"    out[t] = s[{rd_expr}];")
    k.emit("}")
    lin = lambda tx, ty, i: (tx + bx * ty) * size  # noqa: E731
    k.accesses.append((wr, "global", "ld", size, lin, 1))
    k.accesses.append((wr, "shared", "st", size, lambda tx, ty, i: wr_addr(tx, ty), 1))
    k.accesses.append((rd, "shared", "ld", size, lambda tx, ty, i: rd_addr(tx, ty), 1))
    k.accesses.append((rd, "global", "st", size, lin, 1))
    return k


def gen_shared1d(rng, name):
    """A 1-D __shared__ T s[M] written at one affine index and read at another (strides -65..65):
    the 8- and 16-byte bank phases (half / quarter warps) for any stride."""
    k = Kernel(name, "shared1d")
    size = rng.choice(list(SHARED_TYPES))
    ctype = SHARED_TYPES[size]
    while True:
        k.block = rand_block(rng, 256)
        bx, by = k.block[0], k.block[1] * k.block[2]
        wr_expr, wr_addr = affine(rng, k.block, size)
        rd_expr, rd_addr = affine(rng, k.block, size)
        top = max(max(wr_addr(x, y), rd_addr(x, y)) for x in range(bx) for y in range(by)) // size + 1
        if top * size <= 48 * 1024:  # static __shared__ limit (CUDA C++ Programming Guide)
            break
    k.emit(f'extern "C" __global__ void {name}(const {ctype}* __restrict__ in, {ctype}* __restrict__ out) {{')
    if rng.random() < 0.3:  # dynamic shared memory: the only shared variable, so at offset 0 too
        # One name per kernel: extern __shared__ arrays of one file share a declaration.
        k.emit(f"    extern __shared__ {ctype} dyn_{name}[]; {ctype}* s = dyn_{name};  // {top} elements")
    else:
        k.emit(f"    __shared__ {ctype} s[{top}];")
    k.emit("    int tx = threadIdx.x, ty = threadIdx.y + blockDim.y * threadIdx.z; int t = tx + blockDim.x * ty;")
    wr = k.emit(f"    s[{wr_expr}] = in[t];")
    k.emit("    __syncthreads();")
    rd = k.emit(f"    out[t] = s[{rd_expr}];")
    k.emit("}")
    lin = lambda tx, ty, i: (tx + bx * ty) * size  # noqa: E731
    k.accesses.append((wr, "global", "ld", size, lin, 1))
    k.accesses.append((wr, "shared", "st", size, lambda tx, ty, i: wr_addr(tx, ty), 1))
    k.accesses.append((rd, "shared", "ld", size, lambda tx, ty, i: rd_addr(tx, ty), 1))
    k.accesses.append((rd, "global", "st", size, lin, 1))
    return k


# Index functions of t >= 0 with their value in Python; C's / and % truncate, which for t >= 0 is
# Python's // and %. nvcc turns a division by a constant into mul.hi and shifts (PTX ISA, `mul`).
def index_fn(rng):
    d = rng.choice([2, 3, 5, 7, 8, 12, 32, 33, 100])
    m = rng.choice([1, 3, 7, 15, 31, 63])
    sh = rng.randint(1, 5)
    c = rng.randint(1, 200)
    return rng.choice([
        (f"t / {d}", lambda t: t // d),
        (f"t % {d}", lambda t: t % d),
        (f"(t / {d}) * {c} + t % {d}", lambda t: (t // d) * c + t % d),
        (f"(t >> {sh}) * {c}", lambda t: (t >> sh) * c),
        (f"t & {m}", lambda t: t & m),
        (f"t ^ {m}", lambda t: t ^ m),
        (f"(t & {m}) * {c} + (t >> {sh})", lambda t: (t & m) * c + (t >> sh)),
        (f"min(t, {c})", lambda t: min(t, c)),
        (f"max((int)t - {c}, 0)", lambda t: max(t - c, 0)),  # (int): unsigned t - c would wrap
        (f"t * {c} % 1024", lambda t: t * c % 1024),
    ])


def gen_intops(rng, name):
    """Global and shared accesses at non-affine indices of t (division, remainder, shifts, masks,
    min/max): the interpreter's integer instructions, one access per source line."""
    k = Kernel(name, "intops")
    size = rng.choice([1, 2, 4, 8, 16])
    ctype = TYPES[size]
    k.block = (rng.choice([32, 64, 128, 256, 96]), 1, 1)
    g_expr, g_fn = index_fn(rng)
    s_expr, s_fn = index_fn(rng)
    top = max(s_fn(t) for t in range(k.block[0])) + 1
    shared = size >= 4 and top * size <= 48 * 1024
    b_in, b_out = pointer_bases(rng, k, size)
    k.emit(f'extern "C" __global__ void {name}(const {ctype}* __restrict__ in, {ctype}* __restrict__ out) {{')
    k.emit(f"    {rng.choice(['int', 'unsigned'])} t = threadIdx.x;")
    if shared:
        k.emit(f"    __shared__ {ctype} s[{top}];")
        wr = k.emit(f"    s[{s_expr}] = in[{g_expr}];")
        k.emit("    __syncthreads();")
        rd = k.emit("    out[t] = s[t % " + str(top) + "];")
        k.accesses.append((wr, "global", "ld", size, lambda tx, ty, i: b_in + g_fn(tx) * size, 1))
        k.accesses.append((wr, "shared", "st", size, lambda tx, ty, i: s_fn(tx) * size, 1))
        k.accesses.append((rd, "shared", "ld", size, lambda tx, ty, i: (tx % top) * size, 1))
        k.accesses.append((rd, "global", "st", size, lambda tx, ty, i: b_out + tx * size, 1))
    else:
        ld = k.emit(f"    out[{s_expr}] = in[{g_expr}];")
        k.accesses.append((ld, "global", "ld", size, lambda tx, ty, i: b_in + g_fn(tx) * size, 1))
        k.accesses.append((ld, "global", "st", size, lambda tx, ty, i: b_out + s_fn(tx) * size, 1))
    k.emit("}")
    return k


GENERATORS = {"global": gen_global, "loop": gen_loop, "shared": gen_shared, "shared1d": gen_shared1d, "intops": gen_intops}


def lanes(block, warp):
    """(tx, ty) of the 32 lanes of a warp (x fastest, then y, then z; ty counts y and z together as the
    kernels' ty does; None past the block's last thread)."""
    bx, by, bz = block
    total = bx * by * bz
    out = []
    for lane in range(32):
        t = warp * 32 + lane
        out.append((t % bx, t // bx) if t < total else None)  # (tx, threadIdx.y + blockDim.y * threadIdx.z)
    return out


def run_warps(k):
    """The warps run (occ memory's default, given explicitly): the first and the last of the block."""
    bx, by, bz = k.block
    return sorted({0, (bx * by * bz + 31) // 32 - 1})


def expected_requests(k, access):
    """The described requests (one per warp execution with an active lane) of an access."""
    _, space, op, size, addr, iters = access
    reqs = []
    for w in run_warps(k):
        for i in range(iters):
            addrs = [None if p is None else addr(p[0], p[1], i) for p in lanes(k.block, w)]
            if any(a is not None for a in addrs):
                reqs.append({"addresses": addrs, "access_bytes": size, "op": "load" if op == "ld" else "store"})
    return reqs


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
