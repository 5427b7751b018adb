"""The AMD lines of the --batch regression corpus, appended to the occupancy, banks and
advise files by gen_corpus.py.

Each kind draws from its own random.Random seeded with SEED, "amd" and the kind's name, so the
NVIDIA lines before them are unchanged, and rerunning rewrites byte-identical files. Lines are
valid requests (across every AMD GPU and target of `occ gpus --json`: amd_gpus, amd_targets, and
every field's range) or clean requests with one fault (a field of the other vendor, a wave size or
CU mode the target does not run, a value out of range, an unknown target, gpu and arch together).
"""
import json
import random

# `occ gpus --json`: amd_gpus[].name and amd_targets[] (isa, wave_sizes, wgp_mode, agprs).
AMD_GPUS = ["MI100", "MI210", "MI250", "MI250X", "MI300A", "MI300X", "MI325X", "MI350X", "MI355X", "RX-7900-XTX", "RX-9070-XT"]
AMD_SPELLINGS = {"MI300X": ["AMD Instinct MI300X", "mi300x", "MI300X"], "RX-7900-XTX": ["Radeon RX 7900 XTX", "rx7900xtx"]}
# isa: (wave32, WGP mode, AGPRs, LDS per workgroup)
TARGETS = {
    "gfx908": (False, False, True, 65536),
    "gfx90a": (False, False, True, 65536),
    "gfx942": (False, False, True, 65536),
    "gfx950": (False, False, True, 163840),
    "gfx1030": (True, True, False, 65536),
    "gfx1100": (True, True, False, 65536),
    "gfx1101": (True, True, False, 65536),
    "gfx1102": (True, True, False, 65536),
    "gfx1103": (True, True, False, 65536),
    "gfx1150": (True, True, False, 65536),
    "gfx1151": (True, True, False, 65536),
    "gfx1200": (True, True, False, 65536),
    "gfx1201": (True, True, False, 65536),
}
GPU_ISA = {"MI100": "gfx908", "MI210": "gfx90a", "MI250": "gfx90a", "MI250X": "gfx90a", "MI300A": "gfx942", "MI300X": "gfx942",
           "MI325X": "gfx942", "MI350X": "gfx950", "MI355X": "gfx950", "RX-7900-XTX": "gfx1100", "RX-9070-XT": "gfx1201"}
THREADS = [1, 32, 63, 64, 65, 96, 128, 192, 256, 320, 384, 512, 640, 768, 1024]
COUNTS = {"occupancy": (320, 160), "banks": (200, 100), "advise": (160, 80)}


class AmdGen:
    def __init__(self, seed, kind):
        self.r = random.Random(f"{seed}:amd:{kind}")

    def chance(self, p):
        return self.r.random() < p

    def pick(self, seq):
        return seq[self.r.randrange(len(seq))]

    def target(self):
        """A clean target: (fields, isa)."""
        if self.chance(0.55):
            name = self.pick(AMD_GPUS)
            return {"gpu": self.pick(AMD_SPELLINGS.get(name, [name]))}, GPU_ISA[name]
        isa = self.pick(list(TARGETS))
        return {"arch": isa}, isa

    def launch(self, d, isa, clean=False):
        wave32, wgp, agprs, lds = TARGETS[isa]
        if self.chance(0.15) and not clean:
            d["block"] = [self.pick([8, 16, 32]), self.pick([1, 2, 4, 8]), self.pick([1, 2])]
        else:
            d["threads"] = self.pick(THREADS)
        d["regs"] = self.pick([0, 1, 24, 32, 40, 64, 65, 96, 97, 128, 129, 168, 255, 256, self.r.randrange(0, 257)])
        if agprs and self.chance(0.4):
            d["agprs"] = self.pick([0, 4, 32, 64, 128, 256])
        if self.chance(0.5):
            d["sgprs"] = self.pick([0, 16, 30, 80, 81, 88, 92, 100, 102, 104, 106, self.r.randrange(0, 107)])
        if self.chance(0.5):
            d["smem_static"] = self.pick([0, 512, 4096, 16384, 32768, 65536, lds, self.r.randrange(0, lds + 1)])
        if self.chance(0.4):
            d["smem_dynamic"] = self.pick([0, 1024, "16K", 24576, 32768, self.r.randrange(0, lds // 2)])
        if wave32 and self.chance(0.5):
            d["wave_size"] = self.pick([0, 32, 64])
        if wgp and self.chance(0.4):
            d["cu_mode"] = self.chance(0.5)
        return d


def dumps(d):
    return json.dumps(d, separators=(",", ":")).encode()


def faulted(g, d, isa, kind):
    """d with exactly one fault; the message names the field."""
    wave32, wgp, agprs, lds = TARGETS[isa]
    faults = ["nvidia_field", "regs_range", "threads_range", "unknown_arch", "both", "sgprs_range", "wave_size", "smem_range"]
    if not wgp:
        faults.append("cu_mode")
    if not agprs:
        faults.append("agprs")
    f = g.pick(faults)
    if f == "nvidia_field":
        values = {"cc": "9.0", "carveout": 50, "optin": True, "barriers": 2, "cache_config": "prefer_shared"}
        key = g.pick(list(values))
        d[key] = values[key]
    elif f == "regs_range":
        d["regs"] = g.pick([257, 300, -1, 1 << 20])
    elif f == "threads_range":
        d.pop("block", None)
        d["threads"] = g.pick([0, 1025, 2048, -5])
    elif f == "unknown_arch":
        d.pop("gpu", None)
        d["arch"] = g.pick(["gfx999", "sm_90", "gfx94", "", "GFX942X"])
    elif f == "both":
        d["gpu"] = "MI300X"
        d["arch"] = "gfx942"
    elif f == "sgprs_range":
        d["sgprs"] = g.pick([109, 200, -3])
    elif f == "wave_size":
        d["wave_size"] = g.pick([16, 128, 48] + ([] if wave32 else [32]))
    elif f == "smem_range":
        d["smem_static"] = g.pick([lds + 4096, 1 << 30, -1])
    elif f == "cu_mode":
        d["cu_mode"] = True
    elif f == "agprs":
        d["agprs"] = 8
    return d


def nvidia_with_amd_field(g):
    d = {"gpu": g.pick(["A100", "H100-SXM5-80GB", "RTX-4090"]), "threads": 256, "regs": 32}
    d[g.pick(["agprs", "sgprs", "wave_size", "cu_mode", "arch"])] = g.pick([8, 64, True])
    return d


def occupancy_or_advise_lines(seed, kind):
    g = AmdGen(seed, kind)
    valid_n, invalid_n = COUNTS[kind]
    lines = []
    for name in AMD_GPUS:
        lines.append(dumps({"gpu": name, "threads": 256, "regs": 64}))
    for isa in TARGETS:
        lines.append(dumps({"arch": isa, "threads": 256, "regs": 64, "smem_static": 16384}))
    for _ in range(valid_n):
        d, isa = g.target()
        g.launch(d, isa)
        if kind == "advise":
            if g.chance(0.4):
                d["grid"] = g.pick([1, 304, 1000, 5000, 100000])
            if g.chance(0.3):
                d["target_blocks"] = g.pick([1, 2, 4, 8])
            if g.chance(0.2):
                d["block_size_limit"] = g.pick([64, 256, 1024])
        lines.append(dumps(d))
    for i in range(invalid_n):
        if i % 10 == 0:
            lines.append(dumps(nvidia_with_amd_field(g)))
            continue
        d, isa = g.target()
        lines.append(dumps(faulted(g, g.launch(d, isa, clean=True), isa, kind)))
    return lines


def banks_lines(seed):
    g = AmdGen(seed, "banks")
    valid_n, invalid_n = COUNTS["banks"]
    lines = []
    for _ in range(valid_n):
        d, isa = g.target()
        wave32 = TARGETS[isa][0]
        if wave32 and g.chance(0.4):
            d["wave_size"] = g.pick([0, 32, 64])
        width = g.pick([1, 2, 4, 4, 8, 8, 16, 16])
        d["access_bytes"] = width
        if g.chance(0.3):
            d["op"] = g.pick(["load", "store"])
        how = g.pick(["affine"] * 4 + ["2d"] * 2 + ["addresses"] * 2 + ["gather"])
        if how == "addresses":
            n = g.pick([64, 64, 32, 16, 1, g.r.randrange(1, 65)])
            d["addresses"] = [None if g.chance(0.1) else g.pick([i * width, i * width * 32, i * width * 2, g.r.randrange(0, 4096) * width])
                              for i in range(n)]
        else:
            d["threads"] = g.pick([32, 64, 128, 256])
            if how == "affine":
                d["stride"] = g.pick([0, 1, 2, 4, 8, 16, 32, 33, 64])
            elif how == "2d":
                d["pattern"] = "2d"
                d["pitch"] = g.pick([16, 32, 33, 64, 128])
                if g.chance(0.5):
                    d["order"] = g.pick(["row", "column"])
            else:
                d["pattern"] = "gather"
                d["seed"] = g.r.randrange(0, 1000)
                d["range"] = g.pick([32, 1024, 65536])
        lines.append(dumps(d))
    for _ in range(invalid_n):
        d, isa = g.target()
        d["threads"] = 64
        f = g.pick(["cc", "ldmatrix", "expr", "wave", "addresses", "access"])
        if f == "cc":
            d["cc"] = "9.0"
        elif f == "ldmatrix":
            d["ldmatrix"] = "x4"
        elif f == "expr":
            d["pattern"] = "expr"
        elif f == "wave":
            d["wave_size"] = 32 if not TARGETS[isa][0] else 16
        elif f == "addresses":
            d.pop("threads")
            d["addresses"] = list(range(0, 65 * 4, 4))
        else:
            d["access_bytes"] = g.pick([3, 32, 0])
        lines.append(dumps(d))
    return lines


def amd_lines(seed, kind):
    """The AMD lines of `kind` (occupancy, banks, advise); [] for the other kinds."""
    if kind == "banks":
        return banks_lines(seed)
    if kind in ("occupancy", "advise"):
        return occupancy_or_advise_lines(seed, kind)
    return []
