"""occ: CUDA occupancy and memory-coalescing calculator, from the same C++ model as the occ CLI.

    >>> import occ
    >>> r = occ.occupancy(gpu="A100", threads=256, regs=64)
    >>> r.occupancy, r.blocks_per_sm, r.limiters
    (0.5, 4, ['registers'])

Every function takes the fields of a CLI ``--batch`` line as keywords (``occ.fields(kind)`` lists
them with their ranges and defaults; docs/INPUTS.md documents them) and returns a typed answer
whose attributes are the fields of the CLI's JSON; ``.to_dict()`` is exactly that JSON. A bad field
raises ``ValueError`` with the CLI's message, which names the field and the range. A launch that
cannot run (too much shared memory, too many registers for the block) is an answer, not an error:
``blocks_per_sm`` is 0 and ``.error`` says why, as in the CLI's JSON.

For autotuners: ``occ.blocks_per_sm`` scores many configurations at once, ``occ.sweep`` gives the
occupancy at every value of one input and ``occ.grid`` the whole block-size x registers table,
as NumPy arrays when NumPy is importable (lists otherwise). ``occ.triton`` reads compiled Triton
kernels and prunes autotune configurations. More in docs/PYTHON.md.
"""
from __future__ import annotations

import array as _array
import copy as _copy
import inspect as _inspect
import numbers as _numbers

from . import _occ

try:
    import numpy as _np
except ImportError:  # every array below is then a list
    _np = None

__version__ = "0.1.0"

__all__ = [
    "occupancy", "advise", "waves", "clusters", "ptxas", "coalesce", "banks", "roofline", "gpus",
    "roofline_devices", "ncu", "kernels", "memory", "solve_swizzle", "call", "fields", "kinds", "sweep", "grid", "blocks_per_sm",
    "device_from_properties", "LIMITERS", "Record", "Answer", "Occupancy", "Advice", "Waves",
    "Clusters", "PtxasReport", "KernelsReport", "NcuReport", "MemoryReport", "Coalesce", "Banks", "Roofline", "Gpus", "RooflineDevices", "Sweep",
    "Grid",
]

# The limiters in the order answers list them, with their bits in Sweep.limiters: the C++ module's
# one list (occ::kLimiters in occ/occupancy.hpp), (bit, key, label) each.
_LIMITER_TABLE = tuple(tuple(e) for e in _occ.limiters())
LIMITERS = tuple(key for _, key, _ in _LIMITER_TABLE)


# [SECTION] Answers: JSON objects with attribute access

def _wrap(value):
    if isinstance(value, dict):
        return Record(value)
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value


class Record:
    """A JSON object of an answer: ``r.blocks_per_sm`` is ``r["blocks_per_sm"]``; nested objects
    are Records too. ``to_dict()`` returns the JSON (a copy), exactly as the CLI prints it."""

    __slots__ = ("_data",)

    def __init__(self, data: dict):
        object.__setattr__(self, "_data", data)

    def __getattr__(self, name):
        data = object.__getattribute__(self, "_data")
        if name in data:
            return _wrap(data[name])
        raise AttributeError(f"{type(self).__name__} has no field {name!r}; fields: {', '.join(data)}")

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __getitem__(self, key):
        return _wrap(self._data[key])

    def __contains__(self, key):
        return key in self._data

    def __iter__(self):
        return iter(self._data)

    def __len__(self):
        return len(self._data)

    def keys(self):
        return self._data.keys()

    def get(self, key, default=None):
        return _wrap(self._data[key]) if key in self._data else default

    def to_dict(self) -> dict:
        return _copy.deepcopy(self._data)

    def __eq__(self, other):
        if isinstance(other, Record):
            return self._data == other._data
        if isinstance(other, dict):
            return self._data == other
        return NotImplemented

    __hash__ = None

    def __dir__(self):
        return sorted(set(object.__dir__(self)) | set(self._data))

    def __repr__(self):
        shown = []
        for key, value in self._data.items():
            if isinstance(value, (dict, list)):
                continue
            shown.append(f"{key}={value!r}")
            if len(shown) == 8:
                shown.append("...")
                break
        return f"{type(self).__name__}({', '.join(shown)})"


class Answer(Record):
    """The answer to one request (the JSON the CLI prints for it)."""

    __slots__ = ()

    @property
    def ok(self) -> bool:
        """True when the answer has no error (for a launch: it can run)."""
        return self._data.get("error") is None


class Occupancy(Answer):
    """Theoretical occupancy of one launch: blocks_per_sm, warps_per_sm, occupancy (0..1), limits,
    limiters, regs_per_warp_allocated, smem_per_block_allocated, smem_per_sm_configured, error,
    device, input, and sweep when asked for; effective (with tmem_columns: the blocks that hold
    their Tensor Memory at once) and register_pool (with warpgroup_regs: the setmaxnreg plan)."""

    __slots__ = ()


class Advice(Answer):
    """Launch advisor: best block size, register and shared-memory headroom, dynamic shared memory
    at a target, waves, clusters and worded suggestions."""

    __slots__ = ()


class Waves(Answer):
    """Blocks per wave, waves and the tail of a grid."""

    __slots__ = ()


class Clusters(Answer):
    """Thread block clusters (9.0+): active clusters per GPU for a cluster size."""

    __slots__ = ()


class PtxasReport(Answer):
    """Occupancy of every kernel of an nvcc -Xptxas -v or cuobjdump --dump-resource-usage log."""

    __slots__ = ()


class KernelsReport(Answer):
    """Occupancy of every kernel of compiled binaries (cubin, fatbin, .o, .so, Triton cache): the
    rows of ``occ kernels --json`` (``kernels``), what each file gave (``files``), the summary."""

    __slots__ = ()


class NcuReport(Answer):
    """An Nsight Compute report read next to occ's prediction, kernel by kernel."""

    __slots__ = ()


class Coalesce(Answer):
    """Global-memory coalescing of one access: requests, sectors, lines, bytes, efficiency, per warp."""

    __slots__ = ()


class Banks(Answer):
    """Shared-memory bank conflicts of one access: wavefronts, conflicts, n-way, per warp."""

    __slots__ = ()


class Roofline(Answer):
    """Roofline point of an operation on a device: intensity, ridge, attainable, bound."""

    __slots__ = ()


class Gpus(Answer):
    """The GPUs (``gpus``) and compute capabilities (``archs``) occ knows."""

    __slots__ = ()


class RooflineDevices(Answer):
    """The devices with roofline figures."""

    __slots__ = ()


class MemoryReport(Answer):
    """``occ memory --json``: a kernel's PTX accesses, per instruction (``instructions``, worst
    first) and per source line (``lines``), with the warps run, the notes and what was unmodelled."""


_ANSWER_TYPES = {
    "occupancy": Occupancy, "advise": Advice, "waves": Waves, "clusters": Clusters,
    "ptxas": PtxasReport, "kernels": KernelsReport, "ncu": NcuReport, "coalesce": Coalesce, "banks": Banks, "roofline": Roofline,
    "gpus": Gpus, "roofline_devices": RooflineDevices, "memory": MemoryReport,
}


# [SECTION] Requests

def _plain(value):
    """A request value as the JSON converter takes it (Records and other mappings as dicts)."""
    if isinstance(value, Record):
        return value.to_dict()
    if _np is not None and isinstance(value, (_np.ndarray, _np.generic)):
        return value.tolist()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "keys") and hasattr(value, "__getitem__") and not isinstance(value, (str, bytes)):
        return {k: _plain(value[k]) for k in value.keys()}
    return value


def _request(fields: dict) -> dict:
    """Keywords -> the JSON object of a --batch line, in the caller's order; None = not given."""
    return {k: _plain(v) for k, v in fields.items() if v is not None}


def _answer(kind: str, fields: dict):
    return _ANSWER_TYPES.get(kind, Answer)(_occ._call(kind, _request(fields)))


_KINDS = {k["name"]: k for k in _occ._kinds()}


def kinds() -> list:
    """The request kinds: occupancy, advise, waves, clusters, ptxas, coalesce, banks, roofline, ..."""
    return list(_KINDS)


def fields(kind: str) -> list:
    """The request fields of `kind` as occ/io/schema.hpp describes them: key, type, range, default,
    unit and help (the same rows as docs/INPUTS.md and the CLI's --help)."""
    if kind not in _KINDS:
        raise ValueError(f"unknown request kind {kind!r}; known: {', '.join(_KINDS)}")
    return [dict(f) for f in _KINDS[kind]["fields"]]


def call(kind: str, request: dict | None = None, **fields) -> dict:
    """Exactly the JSON ``occ <kind> --batch`` writes for one request line, errors included
    (``{"error": ...}``); never raises for a bad request."""
    req = dict(request or {})
    req.update(fields)
    return _occ._call_raw(kind, _request(req))


def _document(fn, kind: str, positional: str | None = None):
    """Signature and docstring from the field descriptions, so help() and IDEs list every field."""
    params = []
    lines = [fn.__doc__.strip(), "", "Fields (keywords; docs/INPUTS.md):"]
    for f in _KINDS[kind]["fields"]:
        key = f["key"]
        if key == positional:
            params.insert(0, _inspect.Parameter(key, _inspect.Parameter.POSITIONAL_OR_KEYWORD))
        else:
            params.append(_inspect.Parameter(key, _inspect.Parameter.KEYWORD_ONLY, default=None))
        unit = f" [{f['unit']}]" if f["unit"] not in ("", "-") else ""
        lines.append(f"    {key} ({f['doc_type']}; {f['range']}; default {f['default']}){unit}: {f['help']}")
    fn.__signature__ = _inspect.Signature(params)
    fn.__doc__ = "\n".join(lines)
    return fn


# [SECTION] One function per kind. Keywords are request fields, passed on in the caller's order.

def occupancy(**fields) -> Occupancy:
    """Theoretical occupancy of a kernel launch on one SM (``occ occupancy``)."""
    return _answer("occupancy", fields)


def advise(**fields) -> Advice:
    """Launch advisor (``occ advise``)."""
    return _answer("advise", fields)


def waves(**fields) -> Waves:
    """Blocks per wave, waves and the tail of a grid."""
    return _answer("waves", fields)


def clusters(**fields) -> Clusters:
    """Thread block clusters (9.0+): active clusters per GPU."""
    return _answer("clusters", fields)


def ptxas(log: str, **fields) -> PtxasReport:
    """Occupancy of every kernel in an ``nvcc -Xptxas -v`` or ``cuobjdump --dump-resource-usage``
    log (``occ occupancy --ptxas FILE --json``)."""
    return _answer("ptxas", {"log": log, **fields})


def kernels(source, **fields) -> KernelsReport:
    """Occupancy of every kernel compiled into binaries (``occ kernels PATH... --json``).

    ``source``: a path (str or os.PathLike) or a list of paths — cubins, fatbins, objects, shared
    libraries, executables, a Triton cache folder or one kernel's ``<name>.json`` — read from disk
    without loading a library whole; or the bytes of one binary (``name=`` names it in messages);
    or a mapping ``{name: bytes}`` of several (a Triton kernel as ``k.json`` + ``k.cubin``).
    Keywords are the launch fields (``gpu``, ``cc``, ``threads``, ``smem_dynamic``, ...). A Triton
    kernel keeps the launch its metadata fixes. ValueError when a file cannot be read."""
    import base64
    import os

    def file(name, data):
        return {"name": str(name), "base64": base64.b64encode(bytes(data)).decode("ascii")}

    if isinstance(source, (bytes, bytearray, memoryview)):
        name = fields.pop("name", None) or "binary"
        return _answer("kernels", {"files": [file(name, source)], **fields})
    if isinstance(source, dict):
        return _answer("kernels", {"files": [file(n, b) for n, b in source.items()], **fields})
    paths = list(source) if isinstance(source, (list, tuple)) else [source]
    return KernelsReport(_occ._kernels_paths([os.fspath(p) for p in paths], _request(fields)))


def ncu(text: str, **fields) -> NcuReport:
    """An Nsight Compute report (ncu's text output, --csv --page details or --page raw) next to
    occ's prediction (``occ ncu FILE --json``)."""
    return _answer("ncu", {"text": text, **fields})


def memory(ptx, **fields) -> MemoryReport:
    """Every global and shared access of a kernel's PTX, costed per instruction and per source line
    (``occ memory FILE --json``).

    ``ptx``: the PTX text, or a path (str or os.PathLike) to a ``.ptx`` file, a Triton cache entry's
    ``<name>.json`` (its ``<name>.ptx`` beside it: block and kernel from the metadata) or the
    ``<hash>`` folder holding one kernel. Keywords: ``kernel``, ``block`` ((x, y, z) or an int),
    ``grid``, ``params`` (``{"2": 4096}`` or ``{"_Z..._param_2": 4096}``: PTX keeps positions and
    .param names, not C names), ``warps`` (``["first", "last"]``, ``"all"``, ``[0, 3]``), ``gpu``/``cc``,
    ``max_visits``, ``unknown_branch``."""
    from .ptx_source import read_ptx_source

    text, triton = read_ptx_source(ptx)
    request = {"ptx": text, **({"triton": triton} if triton is not None else {}), **fields}
    return _answer("memory", request)


def coalesce(**fields) -> Coalesce:
    """Global-memory coalescing of one warp-wide access (``occ coalesce``)."""
    return _answer("coalesce", fields)


def banks(**fields) -> Banks:
    """Shared-memory bank conflicts of one access (``occ banks``)."""
    return _answer("banks", fields)


def solve_swizzle(rows: int, cols: int, elem_bytes: int, accesses=("row", "column"), access_bytes=None, **fields) -> Record:
    """The smallest CuTe ``Swizzle<B,M,S>`` with zero bank conflicts on every access made to a
    rows x cols tile of elem_bytes elements (``occ banks --tile RxC --tile-access ...``), as the
    banks answer's ``tile.solver`` record: ``zero_conflicts``, ``cute_swizzle``, ``expression``,
    ``tma_swizzle`` (None when no TMA mode matches), ``conflicts``, ``conflicts_plain``,
    ``per_access``. ``accesses``: row, column, cp_async, ldmatrix.x1/x2/x4, stmatrix.x1/x2/x4 (with
    .trans); ``access_bytes`` is the width of row and cp_async accesses (default elem_bytes)."""
    request = {"tile": [rows, cols], "elem_bytes": elem_bytes, "access_bytes": access_bytes or elem_bytes,
               "tile_access": list(accesses), **fields}
    return banks(**request).tile.solver


def roofline(**fields) -> Roofline:
    """Roofline point of an operation on a device (``occ roofline``)."""
    return _answer("roofline", fields)


def gpus() -> Gpus:
    """The GPU database (``occ gpus --json``)."""
    return Gpus(_occ._call("gpus", {}))


def roofline_devices() -> RooflineDevices:
    """The devices with roofline figures (``occ roofline --list --json``)."""
    return RooflineDevices(_occ._call("roofline_devices", {}))


for _fn, _kind, _pos in ((occupancy, "occupancy", None), (advise, "advise", None), (waves, "waves", None),
                         (clusters, "clusters", None), (ptxas, "ptxas", "log"), (ncu, "ncu", "text"),
                         (memory, "memory", "ptx"),
                         (coalesce, "coalesce", None),
                         (banks, "banks", None), (roofline, "roofline", None)):
    if _kind in _KINDS:
        _document(_fn, _kind, _pos)


def __getattr__(name):
    # Kinds the C++ side gains later (occ.ncu, ...) are callable without a new release of this file.
    if name in _occ._known_kinds().split(", ") and not name.startswith("_"):
        def kind_function(**fields):
            return _answer(name, fields)
        kind_function.__name__ = name
        kind_function.__doc__ = _KINDS.get(name, {}).get("summary", f"The {name} request.")
        return _document(kind_function, name) if name in _KINDS else kind_function
    raise AttributeError(f"module 'occ' has no attribute {name!r}")


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


# [SECTION] Devices from runtime properties

# cudaDeviceProp names (what the "device" field takes) and the spellings of the same property in
# torch.cuda.get_device_properties, Triton's driver.active.utils.get_device_properties (whose
# max_num_regs is registers per block and max_shared_mem the per-block opt-in maximum) and
# cuda-python / CuPy (which use the cudaDeviceProp names). First spelling found wins.
_PROPERTY_NAMES = {
    "major": ("major",),
    "minor": ("minor",),
    "name": ("name",),
    "multiProcessorCount": ("multiProcessorCount", "multi_processor_count", "multiprocessor_count"),
    "warpSize": ("warpSize", "warp_size"),
    "maxThreadsPerBlock": ("maxThreadsPerBlock", "max_threads_per_block"),
    "maxThreadsPerMultiProcessor": ("maxThreadsPerMultiProcessor", "max_threads_per_multi_processor",
                                    "max_threads_per_multiprocessor"),
    "maxBlocksPerMultiProcessor": ("maxBlocksPerMultiProcessor", "max_blocks_per_multi_processor",
                                   "max_blocks_per_multiprocessor"),
    "regsPerBlock": ("regsPerBlock", "regs_per_block", "max_num_regs"),
    "regsPerMultiprocessor": ("regsPerMultiprocessor", "regs_per_multiprocessor"),
    "sharedMemPerBlock": ("sharedMemPerBlock", "shared_memory_per_block"),
    "sharedMemPerMultiprocessor": ("sharedMemPerMultiprocessor", "shared_memory_per_multiprocessor"),
    "sharedMemPerBlockOptin": ("sharedMemPerBlockOptin", "shared_memory_per_block_optin", "max_shared_mem",
                               "max_shared_memory"),
    "reservedSharedMemPerBlock": ("reservedSharedMemPerBlock", "reserved_shared_memory_per_block"),
}


def _property(props, names):
    for n in names:
        if isinstance(props, dict) or (hasattr(props, "keys") and hasattr(props, "__getitem__")):
            if n in props.keys() and props[n] is not None:
                return props[n]
        elif getattr(props, n, None) is not None:
            return getattr(props, n)
    return None


def device_from_properties(props, *, cc=None, name=None) -> dict:
    """A custom device (the request field ``device``) from runtime properties: a
    ``torch.cuda.get_device_properties()`` object, Triton's ``get_device_properties()`` dict, a
    cuda-python / CuPy ``cudaDeviceProp`` (object or dict), or any object or dict with those field
    names. Properties left out take the value of the compute capability's row. Triton's dict has
    no compute capability: give ``cc`` ("9.0", "sm_90", 90 or (9, 0)). Raises ValueError, naming
    the property, when the device is not one occ can model.

    >>> dev = occ.device_from_properties({"major": 8, "minor": 0, "multi_processor_count": 108})
    >>> occ.occupancy(device=dev, threads=256, regs=64).blocks_per_sm
    4
    """
    out = {}
    for key, names in _PROPERTY_NAMES.items():
        v = _property(props, names)
        if v is None:
            continue
        if key == "name":
            if isinstance(v, (bytes, bytearray)):
                v = bytes(v).split(b"\0", 1)[0].decode("utf-8", "replace")
            v = str(v).strip()[:64]
        out[key] = v
    if cc is not None:
        if isinstance(cc, (tuple, list)) and len(cc) == 2:
            major, minor = cc
        else:
            parsed = _occ._parse_cc(str(cc))
            if parsed is None:
                raise ValueError(f"cc: must be a compute capability like \"8.0\", \"sm_90\" or (9, 0), got {cc!r}")
            major, minor = parsed
        out["major"], out["minor"] = int(major), int(minor)
    if name is not None:
        out["name"] = str(name)[:64]
    # Check it the way every request reads it, so a bad property fails here, not later.
    _occ._call("occupancy", {"device": out})
    return out


from . import triton  # noqa: E402  (occ.triton needs the functions above)
