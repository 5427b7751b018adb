# occ._arrays: the array faces (sweep, grid, blocks_per_sm), columns as NumPy arrays when NumPy is
# importable and lists otherwise. Imported by occ/__init__.py after the names it takes from there.
from __future__ import annotations

import array as _array
import numbers as _numbers

from . import _occ
from . import Record, _LIMITER_TABLE, _request

try:
    import numpy as _np
except ImportError:  # every array below is then a list
    _np = None


# [SECTION] Arrays (NumPy when importable, lists otherwise)

def _column(raw: bytearray, code: str):
    if _np is not None:
        return _np.frombuffer(raw, dtype=_np.dtype(code))
    return _array.array(code, bytes(raw)).tolist()


def _limiter_names(bits: int) -> list:
    return [key for bit, key, _ in _LIMITER_TABLE if int(bits) & bit]


class Sweep:
    """Occupancy at every value of one input, the others held: columns x (the input's value),
    blocks_per_sm, warps_per_sm, occupancy and limiters (bits; ``limiter_names(i)`` names them)."""

    __slots__ = ("input", "x", "blocks_per_sm", "warps_per_sm", "occupancy", "limiters", "device", "request")

    def __init__(self, raw: dict):
        self.input = raw["input_name"]
        self.x = _column(raw["x"], "q")
        self.blocks_per_sm = _column(raw["blocks_per_sm"], "i")
        self.warps_per_sm = _column(raw["warps_per_sm"], "i")
        self.occupancy = _column(raw["occupancy"], "d")
        self.limiters = _column(raw["limiters"], "I")
        self.device = Record(raw["device"])
        self.request = Record(raw["input"])

    def __len__(self):
        return len(self.x)

    def limiter_names(self, i: int) -> list:
        """The limiters at point i, by name, in the order answers list them."""
        return _limiter_names(self.limiters[i])

    def to_dict(self) -> dict:
        def col(c):
            return c.tolist() if hasattr(c, "tolist") else list(c)
        return {"input": self.input, "x": col(self.x), "blocks_per_sm": col(self.blocks_per_sm),
                "warps_per_sm": col(self.warps_per_sm), "occupancy": col(self.occupancy),
                "limiters": [self.limiter_names(i) for i in range(len(self))]}

    def __repr__(self):
        return f"Sweep(input={self.input!r}, points={len(self)}, device={self.device.name!r})"


def sweep(over: str, step: int = 0, **fields) -> Sweep:
    """Occupancy at every value of one input: ``over`` = "threads" (1..max threads per block,
    every ``step``-th plus the ends), "regs" (0..max registers per thread) or "smem" (dynamic
    shared memory, every ``step`` bytes; 0 = the allocation unit). The other inputs are request
    fields, as for occupancy()."""
    raw = _occ._sweep(_request(fields), over, int(step))
    raw["input_name"] = {"smem": "smem_dynamic"}.get(over, over)
    return Sweep(raw)


class Grid:
    """Blocks per SM for every block size 1..1024 (rows) and register count 0..255 (columns), the
    other inputs held. ``blocks_per_sm[threads - 1][regs]``; 0 beyond the device's limits."""

    __slots__ = ("blocks_per_sm", "threads", "regs", "device", "request")

    def __init__(self, raw: dict):
        rows, cols = raw["threads"], raw["regs"]
        self.threads = range(1, rows + 1)
        self.regs = range(0, cols)
        if _np is not None:
            self.blocks_per_sm = _np.frombuffer(raw["blocks_per_sm"], dtype=_np.uint8).reshape(rows, cols)
        else:
            flat = bytes(raw["blocks_per_sm"])
            self.blocks_per_sm = [list(flat[r * cols:(r + 1) * cols]) for r in range(rows)]
        self.device = Record(raw["device"])
        self.request = Record(raw["input"])

    def at(self, threads: int, regs: int) -> int:
        return int(self.blocks_per_sm[threads - 1][regs])

    @property
    def occupancy(self):
        """Occupancy (0..1) of every cell: blocks x warps per block / max warps per SM."""
        max_warps = self.device.max_warps_per_sm
        if _np is not None:
            warps = (_np.arange(1, len(self.threads) + 1) + 31) // 32
            return self.blocks_per_sm * warps[:, None] / max_warps
        return [[b * ((t + 31) // 32) / max_warps for b in row] for t, row in zip(self.threads, self.blocks_per_sm)]

    def __repr__(self):
        return f"Grid(threads=1..{len(self.threads)}, regs=0..{len(self.regs) - 1}, device={self.device.name!r})"


def grid(**fields) -> Grid:
    """The block-size x registers table of blocks per SM (what the app's heatmap shows), for the
    device and the other inputs given as request fields (shared memory, carveout, opt-in...)."""
    for key in ("threads", "block", "regs", "sweep"):
        if fields.get(key) is not None:
            raise ValueError(f"{key}: grid() covers every block size and register count; leave it out")
    return Grid(_occ._grid(_request(fields)))


# Options blocks_per_sm() takes besides the four columns (the launch fields that are not columns).
_COLUMNS = ("threads", "regs", "smem_static", "smem_dynamic")


def _is_scalar(v) -> bool:
    return isinstance(v, (_numbers.Number, str)) or (_np is not None and isinstance(v, _np.generic)) or \
        (_np is not None and isinstance(v, _np.ndarray) and v.ndim == 0)


def _scalar_int(name: str, v) -> int:
    if isinstance(v, str):
        if name in ("smem_static", "smem_dynamic"):
            return _occ._parse_size(v, name)
        raise ValueError(f"{name}: must be an integer, got {v!r}")
    if isinstance(v, bool):
        raise ValueError(f"{name}: must be an integer, got {v!r}")
    if isinstance(v, _numbers.Integral) or hasattr(v, "__index__"):
        return int(v)
    f = float(v)
    if f.is_integer():
        return int(f)
    raise ValueError(f"{name}: must be a whole number, got {v!r}")


def blocks_per_sm(threads, regs, smem_static=0, smem_dynamic=0, **options):
    """Blocks per SM for many configurations at once, from the same rules as occupancy() (lookup
    tables built once per call): ``threads``, ``regs``, ``smem_static`` and ``smem_dynamic`` are
    numbers or equal-length sequences / arrays (scalars are repeated); ``options`` are the other
    launch fields (gpu, cc or device, optin, barriers, carveout, cache_config, partitioned_gc,
    max_dynamic_smem). Returns an int for scalars, else a NumPy int32 array (a list without
    NumPy). A launch that cannot run counts 0; an input outside the model's ranges raises
    ValueError naming the configuration and the field."""
    for key in ("block", "sweep"):
        if key in options:
            raise ValueError(f"{key}: blocks_per_sm() takes threads (the block's x*y*z) and no sweep")
    cols = dict(zip(_COLUMNS, (threads, regs, smem_static, smem_dynamic)))
    request = _request(options)
    if all(_is_scalar(v) for v in cols.values()):
        values = [_array.array("q", [_scalar_int(k, v)]) for k, v in cols.items()]
        return int(_array.array("i", bytes(_occ._blocks_per_sm(request, *values)))[0])
    if _np is not None:
        arrays = []
        for k, v in cols.items():
            if isinstance(v, str):
                v = _scalar_int(k, v)
            a = _np.asarray(v)
            if a.dtype.kind == "f":
                if not _np.all(_np.isfinite(a)) or not _np.all(a == _np.floor(a)):
                    raise ValueError(f"{k}: must be whole numbers")
            elif a.dtype.kind not in "iu":
                raise ValueError(f"{k}: must be integers, got an array of {a.dtype}")
            arrays.append(a)
        try:
            b = _np.broadcast_arrays(*arrays)
        except ValueError:
            raise ValueError("threads, regs, smem_static and smem_dynamic must have one length (or be scalars)") from None
        shape = b[0].shape
        flat = [_np.ascontiguousarray(x.reshape(-1), dtype=_np.int64) for x in b]
        out = _np.frombuffer(_occ._blocks_per_sm(request, *flat), dtype=_np.int32)
        return out.reshape(shape)
    lengths = {len(v) for v in cols.values() if not _is_scalar(v)}
    if len(lengths) > 1:
        raise ValueError("threads, regs, smem_static and smem_dynamic must have one length (or be scalars)")
    n = lengths.pop()
    columns = []
    for k, v in cols.items():
        seq = [_scalar_int(k, v)] * n if _is_scalar(v) else [_scalar_int(k, x) for x in v]
        try:
            columns.append(_array.array("q", seq))
        except OverflowError:
            raise ValueError(f"{k}: a value is beyond 64 bits") from None
    return _array.array("i", bytes(_occ._blocks_per_sm(request, *columns))).tolist()
