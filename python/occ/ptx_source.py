"""What ``occ.memory(ptx)`` reads: PTX text as given, or from a path the way ``occ memory FILE``
reads it (a .ptx, a Triton cache entry's <name>.json with its <name>.ptx beside it, or the <hash>
folder holding one such kernel)."""
import os


def read_ptx_source(ptx):
    """(PTX text, Triton metadata text or None) for ``ptx``: text, or a path (str or os.PathLike)."""
    is_path = isinstance(ptx, os.PathLike) or (isinstance(ptx, str) and "\n" not in ptx and ".entry" not in ptx)
    if not is_path:
        return ptx, None
    path = os.fspath(ptx)
    if os.path.isdir(path):
        metas = sorted(f for f in os.listdir(path) if f.endswith(".json") and not f.startswith("__grp__")
                       and os.path.isfile(os.path.join(path, f[:-5] + ".ptx")))
        if len(metas) != 1:
            raise ValueError(f"{path}: expected one Triton <name>.json with its <name>.ptx beside it, found {len(metas)}")
        path = os.path.join(path, metas[0])
    triton = None
    if path.endswith(".json"):
        with open(path, encoding="utf8") as f:
            triton = f.read()
        path = path[:-5] + ".ptx"
    with open(path, encoding="utf8", errors="replace") as f:
        return f.read(), triton
