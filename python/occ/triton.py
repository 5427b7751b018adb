"""occ.triton: occupancy of compiled Triton kernels, and pruning of autotune configurations.

Duck-typed: nothing here imports Triton. A compiled kernel is anything with ``n_regs``,
``n_spills`` and ``metadata`` (``shared``, ``num_warps``, ``num_ctas``, ``target.arch``), as
``triton.compile()`` and ``kernel.warmup()`` return them; a configuration is anything with
``num_warps`` (and optionally ``num_ctas``, ``maxnreg``, ``kwargs``), as ``triton.Config``.

How Triton launches, which the requests below reproduce (third_party/nvidia/backend/driver.c,
``load_binary``): a kernel's shared memory is all dynamic (``metadata.shared`` bytes at launch);
above 48 KiB the loader opts in (``CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES`` = the
device's opt-in maximum) and sets ``CU_FUNC_CACHE_PREFER_SHARED``; a block is ``num_warps`` x 32
threads.
"""
from __future__ import annotations

import inspect as _inspect
from typing import NamedTuple

import occ as _occ_pkg
from . import _occ

__all__ = ["request", "occupancy", "blocks_per_sm", "clusters", "prune", "early_config_prune", "Pruned"]

_WARP = 32            # threads per warp on every NVIDIA GPU Triton targets
_PLAIN_SMEM = 49152   # above this Triton's loader opts in to more dynamic shared memory (driver.c)


def _meta(obj, name):
    """A metadata field of a compiled kernel: metadata namedtuple or dict (Triton 3), or the
    kernel's own attribute (Triton 2)."""
    md = getattr(obj, "metadata", None)
    if md is not None:
        v = md.get(name) if isinstance(md, dict) else getattr(md, name, None)
        if v is not None:
            return v
    return getattr(obj, name, None)


def _target_cc(kernel):
    target = _meta(kernel, "target")
    arch = target.get("arch") if isinstance(target, dict) else getattr(target, "arch", None)
    if arch is None:
        return None
    parsed = _occ._parse_cc("sm_" + str(arch))
    return None if parsed is None else f"{parsed[0]}.{parsed[1]}"


def _device_fields(device, kernel=None) -> dict:
    """The device part of a request: a GPU name ("H100"), a compute capability ("9.0", "sm_90",
    90, (9, 0)), runtime properties (torch, Triton, cuda-python: see occ.device_from_properties),
    or None for the compute capability the kernel was compiled for (metadata.target.arch)."""
    if device is None:
        cc = _target_cc(kernel) if kernel is not None else None
        if cc is None:
            raise ValueError("device: give a GPU name, a compute capability or device properties "
                             "(the kernel's metadata.target.arch is not set)")
        return {"cc": cc}
    if isinstance(device, str):
        return {"cc": device} if _occ._parse_cc(device) is not None else {"gpu": device}
    if isinstance(device, int) and not isinstance(device, bool):
        return {"cc": str(device)}
    if isinstance(device, tuple) and len(device) == 2:
        return {"cc": f"{int(device[0])}.{int(device[1])}"}
    return {"device": _occ_pkg.device_from_properties(device)}


def _cubin(kernel):
    """The compiled kernel's cubin bytes: ``asm["cubin"]`` (Triton 2 and 3) or ``kernel`` (Triton 3's
    binary attribute); None when it holds none."""
    asm = getattr(kernel, "asm", None)
    data = None
    if asm is not None:
        try:
            data = asm.get("cubin") if hasattr(asm, "get") else None
        except Exception:  # Triton's AsmDict computes some keys lazily
            data = None
    if data is None:
        data = getattr(kernel, "kernel", None)
    return bytes(data) if isinstance(data, (bytes, bytearray, memoryview)) else None


def _regs_from_cubin(kernel):
    """Registers of the kernel as its cubin records them (what the driver reports as n_regs once
    loaded), without a GPU: occ.kernels() over the cubin, the row named metadata.name."""
    data = _cubin(kernel)
    if data is None:
        return None
    name = _meta(kernel, "name")
    try:
        rows = _occ_pkg.kernels(data, name=f"{name or 'kernel'}.cubin")["kernels"]
    except ValueError:
        return None
    regs = [r["resources"]["registers"] for r in rows if (name is None or r["mangled"] == name)]
    regs = [r for r in regs if r is not None]
    return regs[0] if regs else None


def _n_regs(kernel):
    n = getattr(kernel, "n_regs", None)
    if n is None:
        # Not loaded yet: the cubin Triton compiled holds the register count (no GPU needed).
        n = _regs_from_cubin(kernel)
    if n is None and callable(getattr(kernel, "_init_handles", None)):
        # Triton 3 loads the binary (and learns n_regs) lazily, on the first launch or here.
        kernel._init_handles()
        n = getattr(kernel, "n_regs", None)
    if n is None:
        raise ValueError("kernel: n_regs is not known and it has no cubin to read (load the kernel on a GPU first: "
                         "kernel._init_handles())")
    return int(n)


def _is_kernel(obj) -> bool:
    return getattr(obj, "n_regs", None) is not None or getattr(obj, "metadata", None) is not None


def _launch_fields(kernel) -> dict:
    num_warps = _meta(kernel, "num_warps")
    if num_warps is None:
        raise ValueError("kernel: metadata.num_warps is missing")
    shared = int(_meta(kernel, "shared") or 0)
    req = {"threads": int(num_warps) * _WARP, "regs": _n_regs(kernel), "smem_dynamic": shared}
    if shared > _PLAIN_SMEM:
        req.update(optin=True, cache_config="shared")
    return req


def request(kernel, device=None) -> dict:
    """The occupancy request for one launch of a compiled Triton kernel (the fields an
    ``occ occupancy --batch`` line would carry)."""
    return {**_device_fields(device, kernel), **_launch_fields(kernel)}


def occupancy(kernel, device=None) -> "_occ_pkg.Occupancy":
    """occ.occupancy() for one launch of a compiled Triton kernel."""
    return _occ_pkg.occupancy(**request(kernel, device))


def blocks_per_sm(kernel, device=None) -> int:
    """Blocks (Triton programs) resident per SM for a compiled Triton kernel: 0 when it cannot
    launch on the device. ``device`` as in request(); None = the architecture it was compiled for.
    Multiply by the SM count for the number of programs a persistent kernel should launch."""
    return occupancy(kernel, device).blocks_per_sm


def clusters(kernel, device=None) -> "_occ_pkg.Clusters":
    """Active clusters of ``metadata.num_ctas`` blocks per GPU (9.0+; Triton's num_ctas > 1)."""
    return _occ_pkg.clusters(**request(kernel, device), cluster_size=int(_meta(kernel, "num_ctas") or 1))


class Pruned(NamedTuple):
    """prune()'s answer: the configurations that can launch, and the others with the reason."""
    kept: list
    dropped: list   # [(config, reason)]


def _estimate(estimator, config, extra):
    if estimator is None or isinstance(estimator, (int, str)):
        return estimator
    params = _inspect.signature(estimator).parameters
    return estimator(config, extra) if len(params) >= 2 and extra is not None else estimator(config)


def _config_request(config, device_fields, shared, regs, extra) -> dict:
    num_warps = getattr(config, "num_warps", None)
    if num_warps is None:
        num_warps = 4   # triton.Config's default
    smem = _estimate(shared, config, extra)
    nregs = _estimate(regs, config, extra)
    if nregs is None:
        nregs = getattr(config, "maxnreg", None)
    req = dict(device_fields)
    req["threads"] = int(num_warps) * _WARP
    req["regs"] = 0 if nregs is None else nregs
    if smem is not None:
        if isinstance(smem, str):
            smem = _occ._parse_size(smem, "shared")
        smem = int(smem)
        req["smem_dynamic"] = smem
        if smem > _PLAIN_SMEM:
            req.update(optin=True, cache_config="shared")
    return req


def prune(configs, device, *, shared=None, regs=None, min_blocks_per_sm=1, extra=None) -> Pruned:
    """Split autotune configurations into those that can launch on ``device`` and those that
    cannot, with the reason for each (the model's own message: shared memory over the per-block
    limit, registers over the per-block file, too few blocks per SM).

    ``configs``: triton.Config-like objects (num_warps, num_ctas, maxnreg, kwargs) or compiled
    kernels (their own n_regs and metadata.shared are used). For configurations, ``shared`` and
    ``regs`` estimate shared memory (bytes) and registers per thread: a number, or a function of
    the configuration (and of ``extra``, e.g. Triton's named_args, when it takes two arguments).
    Registers default to the configuration's ``maxnreg``, else 0 (shared memory and block size
    are still checked). ``min_blocks_per_sm`` raises the bar above "can launch".
    """
    device_fields = _device_fields(device)
    _occ._call("occupancy", dict(device_fields))   # a bad device is the caller's error, not a config's
    kept, dropped = [], []
    for config in configs:
        try:
            if _is_kernel(config):
                req = {**device_fields, **_launch_fields(config)}
            else:
                req = _config_request(config, device_fields, shared, regs, extra)
            r = _occ_pkg.occupancy(**req)
        except ValueError as e:
            dropped.append((config, str(e)))
            continue
        if r.blocks_per_sm == 0:
            dropped.append((config, r.error or "0 blocks per SM"))
        elif r.blocks_per_sm < min_blocks_per_sm:
            blocks = f"{r.blocks_per_sm} block{'s' if r.blocks_per_sm > 1 else ''} per SM"
            dropped.append((config, f"{blocks} (limited by {', '.join(r.limiters)}), fewer than min_blocks_per_sm={min_blocks_per_sm}"))
        else:
            kept.append(config)
    return Pruned(kept, dropped)


def early_config_prune(device, *, shared=None, regs=None, min_blocks_per_sm=1, on_drop=None):
    """A function for ``triton.autotune(prune_configs_by={"early_config_prune": ...})``: it keeps
    the configurations prune() keeps and calls ``on_drop(config, reason)`` for each other one.
    Raises ValueError when no configuration can launch (the autotuner would have nothing to run)."""
    def early_prune(configs, named_args, **kwargs):
        kept, dropped = prune(configs, device, shared=shared, regs=regs, min_blocks_per_sm=min_blocks_per_sm,
                              extra=named_args)
        for config, reason in dropped:
            if on_drop is not None:
                on_drop(config, reason)
        if not kept:
            reasons = "; ".join(f"{c}: {r}" for c, r in dropped[:3])
            raise ValueError(f"no configuration can launch on {device}: {reasons}")
        return kept
    return early_prune
