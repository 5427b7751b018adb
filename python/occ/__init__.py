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

import copy as _copy
import inspect as _inspect

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


# The array faces and the device reader live in their own files; they take Record and _request from here.
from ._arrays import Grid, Sweep, blocks_per_sm, grid, sweep  # noqa: E402
from ._properties import device_from_properties  # noqa: E402
from . import triton  # noqa: E402  (occ.triton needs the functions above)
