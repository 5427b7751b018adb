"""The kernel families of scripts/ptx_sweep.py: each generator writes one CUDA kernel's source
lines and the byte address every lane of it gives each access, so that `occ coalesce` and
`occ banks` can cost the same requests from the addresses alone (see ptx_sweep.py --help)."""


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
