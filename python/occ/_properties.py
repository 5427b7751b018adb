# occ._properties: a custom device (the request field "device") from runtime properties objects.
# Imported by occ/__init__.py.
from __future__ import annotations

from . import _occ


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
