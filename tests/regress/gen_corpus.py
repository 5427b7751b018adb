#!/usr/bin/env python3
"""Generates the --batch regression corpus: tests/regress/corpus/<kind>.jsonl (JSON Lines, bytes).

Deterministic: every kind draws from its own random.Random seeded with SEED and the kind's name,
so rerunning this script rewrites byte-identical files. The test (regress.py) reads the committed
files, never regenerated ones; this script exists so the corpus can be reproduced or extended
(extending it means regenerating the baseline with `regress.py --update` from a trusted binary).

Kinds: the ones the CLI answers with --batch (native/cli/cmd_*.cpp -> run_batch(kind)):
occupancy, coalesce, banks, roofline, advise. (gpus, waves, clusters, ptxas and roofline_devices
are occ::io kinds with no CLI --batch path; `occ occupancy --ptxas FILE` is not a batch mode.)

Every line is one of:
  valid     a request the reader accepts (field values drawn across the GPU table, every cc, every
            optional field, edge values at both ends of each range, every accepted spelling of a
            value); the model may still answer with an "error" (e.g. a block over the register file)
  invalid   a clean request (one that gets a full answer) with exactly ONE fault injected: bad JSON,
            an empty / blank line, a non-object, an unknown or misspelled key, a wrong type, an
            out-of-range value, a bad custom "device" object, a conflicting pair of fields, or
            invalid UTF-8. One fault per line, so a change in the order errors are checked in cannot
            change which message a line gets.

Usage: python3 tests/regress/gen_corpus.py [OUT_DIR]   (default: tests/regress/corpus)
"""
import json
import os
import random
import sys

SEED = 20261201

# Per kind: (valid lines, invalid lines). Plus a fixed list of hand-written edge lines per kind.
COUNTS = {
    "occupancy": (1900, 1300),
    "coalesce": (1000, 700),
    "banks": (1000, 700),
    "roofline": (1100, 800),
    "advise": (1000, 700),
}

# [SECTION] Device tables (lib/core/src/device_db.cpp; `occ gpus --json`)

# name, cc, sm_count, aliases
GPUS = [
    ("Tesla-K40", "3.5", 15, ["k40", "teslak40"]),
    ("GTX-780-Ti", "3.5", 15, ["780ti", "gtx780ti"]),
    ("Tesla-K80", "3.7", 13, ["k80", "teslak80"]),
    ("GTX-750-Ti", "5.0", 5, ["750ti", "gtx750ti"]),
    ("GTX-980", "5.2", 16, ["980", "gtx980"]),
    ("GTX-Titan-X", "5.2", 24, ["titanx", "gtxtitanx"]),
    ("Tesla-M40", "5.2", 24, ["m40", "teslam40"]),
    ("Jetson-Nano", "5.3", 1, ["nano", "jetsonnano"]),
    ("Tesla-P100", "6.0", 56, ["p100", "teslap100", "p100sxm2", "p100pcie"]),
    ("GTX-1080", "6.1", 20, ["1080", "gtx1080"]),
    ("GTX-1080-Ti", "6.1", 28, ["1080ti", "gtx1080ti"]),
    ("Tesla-P40", "6.1", 30, ["p40", "teslap40"]),
    ("Tesla-P4", "6.1", 20, ["p4", "teslap4"]),
    ("Jetson-TX2", "6.2", 2, ["tx2", "jetsontx2"]),
    ("V100-SXM2-32GB", "7.0", 80, ["v100", "v100sxm2", "v100sxm216gb", "teslav100"]),
    ("V100-PCIe-32GB", "7.0", 80, ["v100pcie", "v100pcie16gb"]),
    ("Titan-V", "7.0", 80, ["titanv"]),
    ("Jetson-AGX-Xavier", "7.2", 8, ["xavier", "agxxavier", "jetsonxavier"]),
    ("Tesla-T4", "7.5", 40, ["t4"]),
    ("RTX-2080-Ti", "7.5", 68, ["2080ti", "rtx2080ti"]),
    ("RTX-2080", "7.5", 46, ["2080", "rtx2080"]),
    ("Quadro-RTX-6000", "7.5", 72, ["rtx6000", "quadrortx6000", "quadrortx8000"]),
    ("A100-SXM4-40GB", "8.0", 108, ["a100sxm440gb", "a10040gb", "a100sxm"]),
    ("A100-SXM4-80GB", "8.0", 108, ["a100", "a10080gb", "a100sxm480gb"]),
    ("A100-PCIe-40GB", "8.0", 108, ["a100pcie", "a100pcie40gb"]),
    ("A100-PCIe-80GB", "8.0", 108, ["a100pcie80gb"]),
    ("A30", "8.0", 56, ["a30"]),
    ("A10", "8.6", 72, ["a10"]),
    ("A40", "8.6", 84, ["a40"]),
    ("RTX-A6000", "8.6", 84, ["a6000", "rtxa6000"]),
    ("RTX-3090", "8.6", 82, ["3090", "rtx3090"]),
    ("RTX-3080", "8.6", 68, ["3080", "rtx3080"]),
    ("RTX-3060", "8.6", 28, ["3060", "rtx3060"]),
    ("Jetson-AGX-Orin", "8.7", 16, ["orin", "agxorin", "jetsonorin"]),
    ("RTX-4090", "8.9", 128, ["4090", "rtx4090"]),
    ("RTX-4080", "8.9", 76, ["4080", "rtx4080"]),
    ("L4", "8.9", 58, ["l4"]),
    ("L40", "8.9", 142, ["l40"]),
    ("L40S", "8.9", 142, ["l40s"]),
    ("RTX-6000-Ada", "8.9", 142, ["rtx6000ada", "6000ada"]),
    ("H100-SXM5-80GB", "9.0", 132, ["h100", "h100sxm", "h100sxm5", "h10080gb"]),
    ("H100-PCIe-80GB", "9.0", 114, ["h100pcie"]),
    ("H100-NVL", "9.0", 132, ["h100nvl"]),
    ("H200", "9.0", 132, ["h200", "h200sxm", "h200sxm141gb"]),
    ("GH200", "9.0", 132, ["gh200", "gracehopper"]),
    ("B200", "10.0", 148, ["b200", "gb200"]),
    ("B300", "10.3", 148, ["b300", "gb300"]),
    ("Jetson-AGX-Thor", "11.0", 20, ["thor", "agxthor", "jetsonthor"]),
    ("RTX-5090", "12.0", 170, ["5090", "rtx5090"]),
    ("RTX-5080", "12.0", 84, ["5080", "rtx5080"]),
    ("RTX-PRO-6000-Blackwell", "12.0", 188, ["rtxpro6000", "pro6000"]),
    ("DGX-Spark-GB10", "12.1", 48, ["gb10", "dgxspark", "spark"]),
]
CCS = ["3.5", "3.7", "5.0", "5.2", "5.3", "6.0", "6.1", "6.2", "7.0", "7.2", "7.5", "8.0", "8.6", "8.7", "8.9",
       "9.0", "10.0", "10.3", "11.0", "12.0", "12.1"]
UNMODELLED_CCS = ["7.7", "1.0", "2.0", "3.0", "3.2", "4.0", "8.8", "9.9", "13.0", "99.9", "0.0"]
MALFORMED_CCS = ["eight", "8", "8.", ".0", "8.00", "sm", "sm_", "8,0", "8.0.0", "1234", "sm_9x", "", " 8.0", "8.0 ", "v8.0"]
ROOFLINE_DEVICES = ["V100-SXM2-32GB", "V100-PCIe-32GB", "Tesla-T4", "A100-SXM4-80GB", "A100-SXM4-40GB", "A100-PCIe-80GB",
                    "A100-PCIe-40GB", "A30", "A10", "A40", "Jetson-AGX-Orin", "RTX-4090", "L4", "L40S", "H100-SXM5-80GB",
                    "H100-PCIe-80GB", "H100-NVL", "H200", "B200", "RTX-5090", "AMD-MI300X", "Apple-M2-Ultra", "Phone-SoC-LPDDR5X"]
ROOFLINE_ALIASES = ["a100", "h100", "h200", "b200", "rtx4090", "4090", "l4", "l40s", "t4", "v100", "mi300x", "instinctmi300x",
                    "m2ultra", "m2", "phone", "soc", "mobile", "snapdragon8gen3", "lpddr5x", "NVIDIA H100 SXM5 80GB",
                    "AMD Instinct MI300X", "Apple M2 Ultra", "NVIDIA GeForce RTX 4090", "a30", "a10", "a40", "orin", "5090"]
UNKNOWN_GPUS = ["H100-SMX5", "A1000", "RTX-9090", "nope", "GTX", "Radeon-7900", "A100-SXM4-80G", "h10", "Tesla", "NVIDIA",
                "x" * 80, "\u00c4100", "H100 \u2013 SXM 9", "rtx 40 90 ti", "B2000", "Jetson"]


def gpu_spellings(name, aliases):
    """Accepted spellings of one GPU: name, aliases, case and separator variants, vendor prefixes."""
    out = [name, name.lower(), name.upper(), name.replace("-", " "), name.replace("-", ""), name.replace("-", "_")]
    out += aliases
    out += ["NVIDIA " + name.replace("-", " "), "nvidia-" + name.lower()]
    if name.startswith(("GTX", "RTX")):
        out.append("NVIDIA GeForce " + name.replace("-", " "))
    return out


# [SECTION] Value helpers

class Gen:
    def __init__(self, kind):
        self.kind = kind
        self.r = random.Random(f"{SEED}:{kind}")

    def chance(self, p):
        return self.r.random() < p

    def pick(self, seq):
        return seq[self.r.randrange(len(seq))]

    def int_repr(self, v):
        """An integer as a JSON number, a whole float or a numeric string (all accepted as integers)."""
        x = self.r.random()
        if x < 0.8:
            return v
        if x < 0.9:
            return float(v)
        return str(v)

    def size_repr(self, v):
        """A byte count as a number or one of the size-string spellings that denote exactly v."""
        x = self.r.random()
        if x < 0.55 or v < 0:
            return v
        if x < 0.62:
            return float(v)
        if x < 0.68:
            return str(v)
        if x < 0.74:
            return hex(v)
        if v % 1024 == 0 and v > 0:
            k = v // 1024
            if v % (1 << 20) == 0 and self.chance(0.4):
                return self.pick([f"{v >> 20}M", f"{v >> 20}MiB", f"{v >> 20}mb", f"{v >> 20} M"])
            return self.pick([f"{k}K", f"{k}KiB", f"{k}kb", f"{k} K", f" {k}k ", f"+{k}K", f"{k}KB"])
        if v % 512 == 0 and v > 0:
            return f"{v // 1024}.5K"
        return self.pick([f"{v}B", f"{v}b", str(v)])

    def bool_repr(self, b):
        x = self.r.random()
        if x < 0.6:
            return b
        if x < 0.7:
            return 1 if b else 0
        return self.pick(["true", "yes", "1", "on", "TRUE", "Yes", "On"] if b else ["false", "no", "0", "off", "FALSE", "No", "Off"])

    def choice_repr(self, s):
        x = self.r.random()
        if x < 0.85:
            return s
        if x < 0.93:
            return s.upper()
        return s.capitalize()

    def id_value(self):
        return self.pick([
            self.r.randrange(1, 10**6), self.r.randrange(-10**6, 0), f"req-{self.r.randrange(10**6)}", None, 0, "", 3.25, True, False,
            [1, "two", None], {"job": self.r.randrange(100), "tag": "x"}, "\u00e9t\u00e9-\u2603", 2**63 - 1, 2**64 - 1, -2**63,
            1e300, "a" * 100, {"nested": {"deep": [1, [2, [3]]]}}, 1.5e-300,
        ])

    # Devices shared by occupancy, coalesce, banks, advise
    def device_fields(self, mode=None, min_cc=0.0):
        """(fields, sm_count, cc): one of gpu / cc / device, or nothing (the A100-SXM4-80GB default).
        min_cc: only devices of at least that compute capability (for clean bases)."""
        mode = mode or self.pick(["gpu"] * 6 + ["cc"] * 3 + ["device", "none"])
        if mode == "gpu":
            name, cc, sms, aliases = self.pick([x for x in GPUS if float(x[1]) >= min_cc])
            return {"gpu": self.pick(gpu_spellings(name, aliases)) if self.chance(0.4) else name}, sms, cc
        if mode == "cc":
            cc = self.pick([c for c in CCS if float(c) >= min_cc])
            maj, mi = cc.split(".")
            spell = self.pick([cc, cc, cc, f"sm_{maj}{mi}", f"sm{maj}{mi}", f"compute_{maj}{mi}", f"cc{cc}", f"{maj}{mi}",
                               f"sm_{maj}{mi}a", f"{maj}{mi}f"])
            if self.chance(0.15) and mi != "0":
                spell = float(cc)   # a JSON number: 8.6 (8.0 would dump as 8.0 too)
            elif self.chance(0.05):
                spell = float(cc)
            return {"cc": spell}, 1, cc
        if mode == "device":
            d = self.custom_device()
            return {"device": d}, int(float(d.get("multiProcessorCount", 1))), f"{int(float(d['major']))}.{int(float(d['minor']))}"
        return {}, 108, "8.0"

    def custom_device(self, full=None):
        cc = self.pick(CCS)
        maj, mi = (int(x) for x in cc.split("."))
        d = {"major": self.int_repr(maj), "minor": self.int_repr(mi)}
        if full is None:
            full = self.chance(0.3)
        opts = [
            ("name", lambda: self.pick(["my gpu", "custom", "x" * 64, "\u00c4-GPU", "", "A100-SXM4-80GB", "cc 8.0"])),
            ("multiProcessorCount", lambda: self.int_repr(self.pick([1, 2, 16, 80, 108, 132, 1024, self.r.randrange(1, 1025)]))),
            ("warpSize", lambda: 32),
            ("maxThreadsPerBlock", lambda: self.pick([32, 64, 256, 512, 1024, self.r.randrange(32, 1025)])),
            ("maxThreadsPerMultiProcessor", lambda: self.pick([32, 1024, 1536, 2048, 4096, self.r.randrange(32, 4097)])),
            ("maxBlocksPerMultiProcessor", lambda: self.pick([1, 8, 16, 24, 32, 64, self.r.randrange(1, 65)])),
            ("regsPerBlock", lambda: self.pick([256, 32768, 65536, 1 << 20, self.r.randrange(256, 1 << 17)])),
            ("regsPerMultiprocessor", lambda: self.pick([256, 65536, 131072, 1 << 20, self.r.randrange(256, 1 << 17)])),
            ("sharedMemPerBlock", lambda: self.size_repr(self.pick([1, 1024, 49152, 65536, 1 << 24, self.r.randrange(1, 200000)]))),
            ("sharedMemPerMultiprocessor", lambda: self.size_repr(self.pick([1, 65536, 167936, 233472, 1 << 24, self.r.randrange(1, 300000)]))),
            ("sharedMemPerBlockOptin", lambda: self.size_repr(self.pick([0, 49152, 101376, 166912, 232448, 1 << 24]))),
            ("reservedSharedMemPerBlock", lambda: self.size_repr(self.pick([0, 1024, 65536, self.r.randrange(0, 65537)]))),
        ]
        for key, fn in opts:
            if full or self.chance(0.2):
                d[key] = fn()
        return d

    def shuffle_keys(self, d):
        if self.chance(0.3):
            items = list(d.items())
            self.r.shuffle(items)
            return dict(items)
        return d

    def dumps(self, d):
        """A request as one JSON line (bytes): compact or spaced, ASCII-escaped or raw UTF-8."""
        x = self.r.random()
        if x < 0.6:
            s = json.dumps(d, separators=(",", ":"), ensure_ascii=self.chance(0.5))
        elif x < 0.9:
            s = json.dumps(d, ensure_ascii=self.chance(0.5))
        else:
            s = json.dumps(d, indent=None, separators=(" , ", " : "))
            s = " " + s + "\t"
        return s.encode("utf-8")


# [SECTION] Single-fault injection (shared by every kind)

JUNK_KEYS = ["foo", "x", "", " ", "threadz", "Threads", "GPU", "unknown_field", "__proto__", "constructor", "a" * 60,
             "\u00fcber", "regs ", " regs", "null", "0", "device.name", "sm_count", "blocksPerSm", "kind", "input"]


def misspell(g, key, known):
    """A near miss of key that is not itself a known key (so it is exactly one unknown field)."""
    for _ in range(40):
        how = g.r.randrange(8)
        k = key
        if how == 0 and len(k) > 2:
            i = g.r.randrange(len(k))
            k = k[:i] + k[i + 1:]
        elif how == 1 and len(k) > 2:
            i = g.r.randrange(len(k) - 1)
            k = k[:i] + k[i + 1] + k[i] + k[i + 2:]
        elif how == 2:
            k = k + "s" if not k.endswith("s") else k[:-1]
        elif how == 3:
            k = k.replace("_", "-") if "_" in k else k.upper()
        elif how == 4:
            parts = k.split("_")
            k = parts[0] + "".join(p.capitalize() for p in parts[1:]) if len(parts) > 1 else k.capitalize()
        elif how == 5:
            i = g.r.randrange(len(k) + 1)
            k = k[:i] + g.pick("abcdefghijklmnopqrstuvwxyz") + k[i:]
        elif how == 6 and len(k) > 1:
            i = g.r.randrange(len(k))
            k = k[:i] + g.pick("aeiou") + k[i + 1:]
        else:
            k = k + "_"
        if k != key and k not in known:
            return k
    return key + "_x"


def break_json(g, text):
    """One syntax fault in an otherwise valid JSON object line."""
    s = text.decode("utf-8")
    how = g.r.randrange(12)
    if how == 0:
        return s.rstrip()[:-1]                         # missing closing brace
    if how == 1:
        return s.rstrip()[:-1] + ",}"                  # trailing comma
    if how == 2:
        return s.replace('"', "'")                     # single quotes
    if how == 3:
        return s.replace(":", "=", 1)                  # = instead of :
    if how == 4:
        return s + "}"                                 # extra brace
    if how == 5:
        return s + " x"                                # trailing garbage
    if how == 6:
        i = s.index('"', s.index('"') + 1)
        return s[:i] + s[i + 1:]                       # unterminated key
    if how == 7:
        return s.replace("{", "{{", 1)
    if how == 8:
        return "{" + s.lstrip()[1:].replace('"', "", 2)  # bare first key
    if how == 9:
        return s.replace("true", "True").replace("false", "False").replace("null", "None") if any(
            w in s for w in ("true", "false", "null")) else s.rstrip()[:-1]
    if how == 10:
        return s[: max(1, len(s) // 2)]                  # cut in half
    return s + s                                       # two objects on one line


def generic_fault(g, base, known, field_faults, fragile=()):
    """One line (bytes) with exactly one fault, from a clean base request (dict).
    fragile: keys whose removal would itself be a fault (never misspelled)."""
    assert not (set(JUNK_KEYS) & known)
    x = g.r.random()
    if x < 0.10:
        text = g.dumps(base)
        try:
            bad = break_json(g, text)
        except ValueError:
            bad = ""
        try:
            json.loads(bad)
            ok = True
        except ValueError:
            ok = False
        if ok or not bad.strip():
            bad = text.decode("utf-8").rstrip()[:-1]   # missing closing brace
        return bad.encode("utf-8")
    if x < 0.13:
        return g.pick([b"", b" ", b"\t", b"  \t ", b"\r", b" \r"])
    if x < 0.17:
        return g.pick([b"[1,2]", b"42", b'"a string"', b"null", b"true", b"[]", b"3.5", b'"{}"', b"-1", b"[{}]",
                       b"[" + g.dumps(base) + b"]", json.dumps(json.dumps(base)).encode()])
    if x < 0.20:
        # invalid UTF-8 inside a string (or as raw junk): the parser refuses the line
        s = g.dumps(base)
        bad = g.pick([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\x80abc", b"\xc0\xaf"])
        if b'"' in s and g.chance(0.7):
            i = s.index(b'"') + 1
            return s[:i] + bad + s[i:]
        return bad + s
    if x < 0.27:
        d = dict(base)
        d[g.pick(JUNK_KEYS)] = g.pick([1, "x", 0, [], {}, True, 256])
        return g.dumps(d)
    if x < 0.40:
        d = dict(base)
        present = [k for k in d if k != "id" and k not in fragile]
        key = g.pick(present) if present and g.chance(0.7) else g.pick(sorted(known))
        val = d.pop(key, None)
        if val is None:
            val = field_default_value(g, key)
        d[misspell(g, key, known)] = val
        return g.dumps(d)
    d = dict(base)
    field_faults(g, d)
    return g.dumps(d)


def field_default_value(g, key):
    return g.pick([1, 32, "8.0", True, "x"]) if key not in ("device", "block", "addresses", "ops", "compare", "gpc_sms") else [1]


def bad_device(g, d):
    """One fault in a custom device object (or a wrong type for the object itself). The object is a
    harmless one (a modelled cc, perhaps a name and an SM count) plus the fault."""
    maj, mi = g.pick(CCS).split(".")
    dev = {"major": int(maj), "minor": int(mi)}
    if g.chance(0.3):
        dev["name"] = g.pick(["my gpu", "custom"])
    if g.chance(0.3):
        dev["multiProcessorCount"] = g.pick([1, 80, 132])
    if g.chance(0.2):
        dev["warpSize"] = 32
    x = g.r.randrange(9)
    if x == 0:
        dev = g.pick([5, "A100", [], [8, 0], True, "{}", 8.0])
    elif x == 1:
        dev.pop(g.pick(["major", "minor"]))
    elif x == 2:
        dev["major"], dev["minor"] = g.pick([(7, 7), (1, 0), (2, 0), (4, 0), (13, 0), (99, 9), (8, 8)])
    elif x == 3:
        key = g.pick(["major", "minor", "multiProcessorCount", "warpSize", "maxThreadsPerBlock", "maxThreadsPerMultiProcessor",
                      "maxBlocksPerMultiProcessor", "regsPerBlock", "regsPerMultiprocessor"])
        lo, hi = {"major": (1, 99), "minor": (0, 9), "multiProcessorCount": (1, 1024), "warpSize": (32, 32),
                  "maxThreadsPerBlock": (32, 1024), "maxThreadsPerMultiProcessor": (32, 4096), "maxBlocksPerMultiProcessor": (1, 64),
                  "regsPerBlock": (256, 1 << 20), "regsPerMultiprocessor": (256, 1 << 20)}[key]
        dev[key] = g.pick([lo - 1, hi + 1, -1, 10**12, 2**64, hi * 2 + 1]) if key != "warpSize" else g.pick([16, 64, 0, 33])
    elif x == 4:
        key = g.pick(["sharedMemPerBlock", "sharedMemPerMultiprocessor", "sharedMemPerBlockOptin", "reservedSharedMemPerBlock"])
        dev[key] = g.pick([-1, "32M", 1 << 25, "1G", 2**40 + 1, "-4K", "1.3", "48Q", 0 if key in ("sharedMemPerBlock", "sharedMemPerMultiprocessor") else -5])
    elif x == 5:
        key = g.pick(["major", "minor", "multiProcessorCount", "maxThreadsPerBlock", "regsPerBlock", "sharedMemPerBlock"])
        dev[key] = g.pick(["abc", [], {}, True, 1.5, "8.0.1", ""])
    elif x == 6:
        dev["name"] = g.pick(["x" * 65, "y" * 200, 5, [], True, {"n": 1}])
    elif x == 7:
        dev[g.pick(["warpsize", "multiprocessorCount", "sharedMemPerSM", "maxThreadsPerSM", "regsPerSM", "computeMode", "Major", "clockRate"])] = 32
    else:
        dev["minor"] = g.pick([10, 12, -1, 100])
    d.pop("gpu", None)
    d.pop("cc", None)
    d["device"] = dev


def device_fault(g, d):
    """One fault in the gpu / cc / device fields of a request (d has at most one of them)."""
    x = g.r.randrange(6)
    for k in ("gpu", "cc", "device"):
        d.pop(k, None)
    if x == 0:
        d["gpu"] = g.pick(UNKNOWN_GPUS)
    elif x == 1:
        d["gpu"] = g.pick([5, 8.0, [], {}, True, ["A100"]])
    elif x == 2:
        d["cc"] = g.pick(UNMODELLED_CCS + [7.7, 3.0, 13.0])
    elif x == 3:
        d["cc"] = g.pick(MALFORMED_CCS + [[8, 0], {}, True, 8])
    elif x == 4:
        a, b = g.r.sample(["gpu", "cc", "device"], 2)
        vals = {"gpu": g.pick(GPUS)[0], "cc": g.pick(CCS), "device": {"major": 8, "minor": 0}}
        d[a] = vals[a]
        d[b] = vals[b]
    else:
        bad_device(g, d)


def write(path, lines):
    with open(path, "wb") as f:
        for line in lines:
            assert b"\n" not in line, line
            f.write(line + b"\n")


# [SECTION] occupancy (and the occupancy fields advise shares)

OCC_KEYS = {"gpu", "cc", "device", "threads", "block", "regs", "smem_static", "smem_dynamic", "carveout", "cache_config", "optin",
            "max_dynamic_smem", "barriers", "partitioned_gc", "grid", "id"}


def occ_fields_valid(g, d):
    """Occupancy launch/kernel fields with any value the reader accepts (the model may still refuse)."""
    if g.chance(0.15):
        n = g.r.randrange(1, 4)
        dims = [g.pick([1, 2, 4, 8, 16, 32, 64, 128, 256, 1024, g.r.randrange(1, 1025)]) for _ in range(n)]
        if n == 3:
            dims[2] = g.pick([1, 2, 4, 64, g.r.randrange(1, 65)])
        d["block"] = dims
    elif g.chance(0.9):
        d["threads"] = g.int_repr(g.pick([1, 31, 32, 33, 64, 96, 128, 192, 256, 384, 512, 640, 768, 1000, 1024, 1025, 2048, 0, -1,
                                         g.r.randrange(1, 1025), 32 * g.r.randrange(1, 33)]))
    if g.chance(0.85):
        d["regs"] = g.int_repr(g.pick([0, 1, 16, 24, 32, 40, 48, 56, 64, 72, 80, 96, 128, 168, 200, 255, 256, -1,
                                      g.r.randrange(0, 256), 8 * g.r.randrange(0, 33)]))
    if g.chance(0.35):
        d["smem_static"] = g.size_repr(g.pick([0, 1, 1024, 4096, 16384, 32768, 49152, -1, g.r.randrange(0, 100000), 1024 * g.r.randrange(0, 64)]))
    if g.chance(0.5):
        d["smem_dynamic"] = g.size_repr(g.pick([0, 1, 512, 1024, 8192, 16384, 32768, 48 * 1024, 64 * 1024, 100 * 1024, 163 * 1024,
                                               227 * 1024, 228 * 1024, 1 << 20, -4096, g.r.randrange(0, 240000), 1024 * g.r.randrange(0, 230)]))
    if g.chance(0.3):
        d["carveout"] = g.int_repr(g.pick([-1, 0, 1, 25, 50, 75, 100, 101, -2, g.r.randrange(0, 101)]))
    if g.chance(0.25):
        d["cache_config"] = g.choice_repr(g.pick(["none", "shared", "l1", "equal"]))
    if g.chance(0.3):
        d["optin"] = g.bool_repr(g.chance(0.6))
    if g.chance(0.15):
        d["max_dynamic_smem"] = g.size_repr(g.pick([-1, 0, 1024, 32768, 49152, 65536, 99 * 1024, 163 * 1024, 227 * 1024, 300 * 1024]))
    if g.chance(0.3):
        d["barriers"] = g.int_repr(g.pick([0, 1, 2, 4, 8, 15, 16, 17, -1, g.r.randrange(0, 17)]))
    if g.chance(0.15):
        d["partitioned_gc"] = g.choice_repr(g.pick(["off", "on", "strict"]))
    if g.chance(0.3):
        d["grid"] = g.int_repr(g.pick([0, 1, 108, 216, 1000, 5000, 65535, 2**31 - 1, (2**31) * 65535, g.r.randrange(0, 10**6)]))
    if g.chance(0.04):
        # an explicit null counts as "not given"
        d[g.pick(["threads", "regs", "smem_static", "smem_dynamic", "carveout", "optin", "grid", "barriers"])] = None


def occ_fields_clean(g, d, sm_count=1, cc="8.0"):
    """Occupancy fields that always give a full answer on any modelled device."""
    if g.chance(0.2):
        d["block"] = g.pick([[32, 4], [16, 16], [8, 8, 2], [64], [32, 2, 2]])
    else:
        d["threads"] = g.pick([32, 64, 96, 128, 192, 256])
    d["regs"] = g.pick([0, 16, 24, 32, 40])
    if g.chance(0.4):
        d["smem_dynamic"] = g.pick([0, 1024, 4096, "2K", 8192])
    if g.chance(0.3):
        d["smem_static"] = g.pick([0, 512, 2048, "1K"])
    if g.chance(0.2):
        d["carveout"] = g.pick([-1, 100])
    if g.chance(0.2):
        d["cache_config"] = g.pick(["none", "shared", "l1", "equal"])
    if g.chance(0.2):
        d["optin"] = g.pick([False, True])
    if g.chance(0.2):
        d["barriers"] = g.pick([0, 1, 2])
    if g.chance(0.1):
        d["partitioned_gc"] = "off"
    if g.chance(0.3):
        d["grid"] = g.pick([1, 1000, 4096])


def volta_or_later(g, d):
    """Moves a clean base onto a cc 7.0+ device if it is not on one (not a fault: another clean base)."""
    cc = None
    if "gpu" in d:
        cc = next((x[1] for x in GPUS if x[0] == d["gpu"]), None)
    elif "cc" in d:
        cc = str(d["cc"]) if isinstance(d["cc"], (int, float)) else None
    elif "device" not in d:
        cc = "8.0"
    if cc is None or float(cc) < 7.0:
        for k in ("gpu", "cc", "device"):
            d.pop(k, None)
        d["gpu"] = g.pick([x[0] for x in GPUS if float(x[1]) >= 7.0])


def occ_field_fault(g, d):
    """One bad occupancy field (type, range, spelling of a value, or a conflicting pair)."""
    x = g.r.randrange(17)
    if x == 0:
        device_fault(g, d)
        return
    d.pop("block", None) if x in (1, 2) else None
    if x == 1:
        d["threads"] = g.pick([0, -1, 2048, 1025, 4096, "abc", "12abc", "", 1.5, True, [], {}, "0x100", 1e300, 2**63, 2**64, -2**63,
                               float("nan") if False else "NaN", "inf", "256 "])
    elif x == 2:
        d.pop("threads", None)
        d["block"] = g.pick([[], [1, 2, 3, 4], [32, 0], [0], [2048], [1, 1, 128], [1, 1, 65], [32, "8"], [32.5], "32,8", 32, {},
                             [[32]], [None], [True], [1024, 2], [32, 32, 2], [-1]])
    elif x == 3:
        d["regs"] = g.pick([256, 300, -1, -100, "many", 1.5, [], {}, True, 10**10, "32K"])
    elif x == 4:
        d[g.pick(["smem_static", "smem_dynamic"])] = g.pick([-1, -4096, "-4K", "48Q", "2048G", "1.3", 1e300, 1.5, "", "K", "0x", "0xZZ",
                                                             "1.5.5K", [], {}, True, "2T", 2**41, "48 K X", "- 4K"])
    elif x == 5:
        d["carveout"] = g.pick([101, -2, 1000, -100, "half", 50.5, [], True])
    elif x == 6:
        d["cache_config"] = g.pick(["big", "L1 ", "prefer_shared", "", 1, True, [], "shared,l1"])
    elif x == 7:
        d["optin"] = g.pick(["maybe", 2, -1, 0.5, [], {}, "tru", "", "y"])
    elif x == 8:
        volta_or_later(g, d)   # max_dynamic_smem only limits cc 7.0+ (no opt-in before Volta)
        d["max_dynamic_smem"] = g.pick([-2, -100, "300K", "1M", "-1", "abc", [], 1.5, 2**41])
    elif x == 9:
        d["barriers"] = g.pick([17, -1, 100, "x", 1.5, [], True])
    elif x == 10:
        d["partitioned_gc"] = g.pick(["yes", "true", 1, "", "strictly", []])
    elif x == 11:
        d["grid"] = g.pick([-1, (2**31) * 65535 + 1, 2**63, "lots", 1.5, [], {}, True, 1e20])
    elif x == 12:
        d.pop("block", None)
        d["threads"] = g.pick([32, 64])
        d["block"] = [32]
    elif x == 13:
        # over a per-block / per-SM limit of the model (the only fault: clean device, clean rest)
        d.pop("block", None)
        d["threads"] = 1024
        d["regs"] = 128
        d.pop("smem_dynamic", None)
    elif x == 14:
        d["smem_dynamic"] = g.pick(["64K", "100K", "300K", 1 << 20])
        d["optin"] = False
        d.pop("max_dynamic_smem", None)
    elif x == 15:
        volta_or_later(g, d)
        d["max_dynamic_smem"] = "32K"
        d["smem_dynamic"] = "40K"
    else:
        d["threads" if "threads" in d else "regs"] = g.pick([{"value": 32}, [32], "32 threads"])


def occupancy_lines():
    g = Gen("occupancy")
    valid_n, invalid_n = COUNTS["occupancy"]
    lines = []
    # Every GPU and every cc, with the defaults and with a typical launch, with each sweep.
    for name, cc, sms, aliases in GPUS:
        lines.append(g.dumps({"gpu": name}))
        for sp in gpu_spellings(name, aliases):
            lines.append(g.dumps({"gpu": sp, "threads": 128, "regs": 32}))
        for sweep in ("threads", "regs", "smem"):
            lines.append(g.dumps({"gpu": name, "threads": 256, "regs": 64, "sweep": sweep, "smem_dynamic": "8K"}))
    for cc in CCS:
        lines.append(g.dumps({"cc": cc}))
        for sweep in ("none", "threads", "regs", "smem"):
            lines.append(g.dumps({"cc": cc, "threads": 192, "regs": 48, "sweep": sweep, "optin": True, "smem_dynamic": "20K"}))
    for line in [b"{}", b'{"id":1}', b'{"id":null}', b'{"threads":256,"threads":512}', b'{"gpu":null,"cc":"9.0"}',
                 b'{"block":[32,32]}', b'{"block":[1024,1,1]}', b'{"block":[1,1,64]}', b'{"threads":"256"}', b'{"threads":256.0}',
                 b'{"smem_dynamic":"0x400"}', b'{"smem_dynamic":"1.5K"}', b'{"smem_dynamic":"48KiB"}', b'{"smem_dynamic":" 48 k "}',
                 b'{"optin":"yes","smem_dynamic":"100K"}', b'{"max_dynamic_smem":-1}', b'{"grid":140735340871680}',
                 b'{"sweep":"SMEM"}', b'{"cache_config":"L1"}', b'{"regs":255,"threads":256}', b'{"regs":0}',
                 b'{"gpu":"a100","id":{"a":[1,2,{"b":null}]}}', b'  {"threads":64}  ', b'{"threads":64}\r',
                 b'{"id":"\\u00e9\\ud83d\\ude00"}', "{\"id\":\"\u00e9\U0001F600\"}".encode(), b'{"threads":1e3}',
                 b'{"threads":1024,"regs":64}', b'{"cc":"sm_90a","threads":384}', b'{"cc":90}', b'{"cc":8.6}', b'{"cc":12.0}']:
        lines.append(line)
    for _ in range(valid_n):
        d, sms, cc = g.device_fields()
        occ_fields_valid(g, d)
        if g.chance(0.2):
            d["sweep"] = g.choice_repr(g.pick(["none", "threads", "regs", "smem"]))
        if g.chance(0.25):
            d["id"] = g.id_value()
        lines.append(g.dumps(g.shuffle_keys(d)))
    known = OCC_KEYS | {"sweep"}

    def faults(g, d):
        if g.chance(0.07):
            d["sweep"] = g.pick(["grid", "blocks", "", 1, True, [], "thread"])
        else:
            occ_field_fault(g, d)

    for _ in range(invalid_n):
        d, sms, cc = g.device_fields(g.pick(["gpu", "gpu", "cc", "none"]))
        occ_fields_clean(g, d)
        if g.chance(0.2):
            d["id"] = g.id_value()
        lines.append(generic_fault(g, d, known, faults))
    return lines


# [SECTION] coalesce and banks

MEM_KEYS = {"gpu", "cc", "device", "access_bytes", "elem_bytes", "op", "pattern", "active_lanes", "addresses", "base", "offset", "stride",
            "threads", "block", "pitch", "pad", "swizzle", "order", "seed", "range", "id"}
WIDTHS = [1, 2, 4, 8, 16]


def mem_block(g, d, big):
    """threads or block; mostly small (the answer lists every warp)."""
    if g.chance(0.25):
        dims = g.pick([[32], [32, 2], [16, 16], [8, 8], [32, 8], [4, 8, 2], [64, 2], [16, 2, 2], [1, 32], [33], [7, 5, 3]])
        if big and g.chance(0.1):
            dims = g.pick([[32, 32], [1024], [16, 16, 4], [1024, 1, 1]])
        d["block"] = dims
    elif g.chance(0.8):
        d["threads"] = g.int_repr(g.pick([1, 2, 16, 31, 32, 33, 64, 96, 128, 1, 17, 48]) if not (big and g.chance(0.1))
                                  else g.pick([256, 512, 1024]))


def mem_valid(g):
    d, sms, cc = g.device_fields()
    d = dict(d)
    width = g.pick(WIDTHS)
    if g.chance(0.7):
        d["access_bytes"] = g.int_repr(width) if g.chance(0.9) else str(width)
    if g.chance(0.2):
        d["elem_bytes"] = g.pick(WIDTHS)
    if g.chance(0.3):
        d["op"] = g.choice_repr(g.pick(["load", "store"]))
    kind = g.pick(["affine"] * 4 + ["2d"] * 3 + ["gather"] * 2 + ["addresses"] * 2)
    if kind == "addresses":
        n = g.pick([32, 32, 32, 1, 8, 16, 31, g.r.randrange(1, 33)])
        w = width if "access_bytes" in d else 4
        eb = d.get("elem_bytes", w)
        how = g.r.randrange(5)
        addrs = []
        for i in range(n):
            if how == 0:
                a = i * w
            elif how == 1:
                a = g.r.randrange(0, 4096) * w
            elif how == 2:
                a = (i * 33) * w
            elif how == 3:
                a = g.r.randrange(0, 2**47 // w) * w
            else:
                a = g.r.randrange(0, 4096)   # may be misaligned: the model's error
            addrs.append(None if g.chance(0.1) else (a if g.chance(0.85) else (hex(a) if g.chance(0.5) else str(a))))
        d["addresses"] = addrs
        if g.chance(0.3):
            d["pattern"] = g.choice_repr("addresses")
        if g.chance(0.2):
            d["active_lanes"] = g.pick([0xffffffff, 0xffff, "0xffff", "0x0000ffff", 0, 1, 0x55555555, str(0xf0f0f0f0), 2**31])
        return d
    if g.chance(0.5) or kind != "affine":
        d["pattern"] = g.choice_repr(kind)
    mem_block(g, d, big=True)
    if g.chance(0.3):
        d["base"] = g.pick([0, 4, 16, 128, 256, 4096, 2**47, "0x1000", "0x7fffffffff00", str(1 << 20), 2**48 - 16, 3])
    if g.chance(0.3):
        d["offset"] = g.int_repr(g.pick([0, 4, 1, -4, 128, -128, 2**40, -(2**40), 12, 64, g.r.randrange(-1024, 1024)]))
    if g.chance(0.2):
        d["active_lanes"] = g.pick([0xffffffff, 0xffff, "0xffff", 0, 1, 0x55555555, "0xAAAAAAAA", str(2**32 - 1), 0x80000000])
    if kind == "affine":
        if g.chance(0.85):
            d["stride"] = g.int_repr(g.pick([0, 1, 2, 3, 4, 8, 16, 17, 32, 33, 64, -1, -2, 2**24, -(2**24), g.r.randrange(-100, 100)]))
    elif kind == "2d":
        if g.chance(0.6):
            d["pitch"] = g.int_repr(g.pick([0, 1, 16, 32, 33, 64, 100, 1024, 2**24, g.r.randrange(0, 2000)]))
        if g.chance(0.5):
            d["pad"] = g.int_repr(g.pick([0, 1, 2, 4, 8, 1024, g.r.randrange(0, 33)]))
        if g.chance(0.4):
            d["swizzle"] = g.bool_repr(g.chance(0.5))
        if g.chance(0.6):
            d["order"] = g.choice_repr(g.pick(["row", "column"]))
    else:
        if g.chance(0.6):
            d["seed"] = g.pick([0, 1, 2, 42, 2**64 - 1, "0xdeadbeef", str(2**63), g.r.randrange(0, 2**32)])
        if g.chance(0.6):
            d["range"] = g.int_repr(g.pick([0, 1, 2, 32, 100, 1024, 2**32, g.r.randrange(0, 10**6)]))
    return d


def mem_clean(g):
    # coalesce models cc 6.0+, banks cc 5.0+: older devices answer with an error, so no clean base uses them
    d, sms, cc = g.device_fields(g.pick(["gpu", "gpu", "cc", "none"]), min_cc=6.0)
    d = dict(d)
    kind = g.pick(["affine", "affine", "2d", "gather", "addresses"])
    w = g.pick([4, 4, 8, 16, 2])
    if g.chance(0.7):
        d["access_bytes"] = w
    else:
        w = 4
    if kind == "addresses":
        d["addresses"] = [i * w * g.pick([1, 2]) for i in range(32)] if g.chance(0.5) else [i * w for i in range(g.r.randrange(1, 33))]
        return d
    if g.chance(0.5):
        d["pattern"] = kind
    if g.chance(0.5):
        d["threads"] = g.pick([32, 64, 96])
    elif g.chance(0.3):
        d["block"] = g.pick([[32, 2], [16, 4]])
    if g.chance(0.3):
        d["op"] = g.pick(["load", "store"])
    if kind == "affine" and g.chance(0.7):
        d["stride"] = g.pick([1, 2, 4, 32])
    if kind == "2d":
        d["pitch"] = g.pick([32, 64])
        if g.chance(0.5):
            d["order"] = g.pick(["row", "column"])
        if g.chance(0.4):
            d["pad"] = g.pick([0, 1])
    if kind == "gather":
        if g.chance(0.6):
            d["seed"] = g.pick([1, 7])
        if g.chance(0.5):
            d["range"] = g.pick([0, 64])
    return d


def mem_kind(d):
    """The pattern a memory request has (as the reader infers it when "pattern" is absent)."""
    if "pattern" in d:
        return d["pattern"]
    if "addresses" in d:
        return "addresses"
    if any(k in d for k in ("pitch", "pad", "swizzle", "order")):
        return "2d"
    if any(k in d for k in ("seed", "range")):
        return "gather"
    return "affine"


def mem_field_fault(g, d):
    x = g.r.randrange(16)
    is_addr = "addresses" in d
    kind = mem_kind(d)
    if not is_addr and x in (8, 11, 12, 13):
        d["pattern"] = kind   # explicit, so a key of another pattern cannot change the inferred one
    if x == 0:
        device_fault(g, d)
    elif x == 1:
        d["access_bytes"] = g.pick([3, 0, 32, 5, -4, "four", 4.5, [], True, 64, 65])
    elif x == 2:
        d["elem_bytes"] = g.pick([32, 3, 0, -1, "x", 2.5, {}])
    elif x == 3:
        d["op"] = g.pick(["read", "write", "", 1, True, "ld"])
    elif x == 4:
        if is_addr:
            d["addresses"] = g.pick([[], list(range(33)), [0, -4], [0, "x"], [0, 2**48], [0, 1.5], "0,4,8", 0, {}, [[0]], [True]])
        else:
            d["pattern"] = g.pick(["random", "", 1, "3d", "strided", "addresses"])
    elif x == 5:
        d["active_lanes"] = g.pick([-1, 2**32, "0x100000000", "ffff", "-1", 1.5, [], True, "0xffff ", " 1"])
    elif x == 6:
        if is_addr:
            d["pattern"] = g.pick(["affine", "2d", "gather"])
        else:
            d["base"] = g.pick(["0x1000000000000", 2**48, -1, "-4", "zz", 1.5, [], "+4"])
    elif x == 7:
        if is_addr:
            if g.chance(0.5):
                d["threads"] = g.pick([32, 64])
            else:
                d["block"] = g.pick([[32], [32, 1]])
        else:
            d["offset"] = g.pick([2**40 + 1, -(2**40) - 1, "x", 1.5, []])
    elif x == 8:
        if is_addr:
            d["stride"] = 2
        elif kind == "affine":
            d["stride"] = g.pick([2**24 + 1, -(2**24) - 1, "x", 1.5, []])
        else:
            d["stride"] = 2   # stride outside affine
    elif x == 9:
        d.pop("block", None)
        if is_addr:
            d["threads"] = 64
        else:
            d["threads"] = g.pick([0, 1025, -1, "x", 1.5, [], 2048])
    elif x == 10:
        d.pop("threads", None)
        if is_addr:
            d["block"] = [32]
        else:
            d["block"] = g.pick([[2048], [], [1, 2, 3, 4], [32, 0], [1, 1, 65], [64, 32], [32, "2"], "32", [1024, 2]])
    elif x == 11:
        if is_addr:
            d["pad"] = 1
        else:
            if kind == "2d" and g.chance(0.5):
                d["pitch"] = g.pick([-1, 2**24 + 1, "x", 1.5, [], True])
            elif kind == "2d":
                d["pad"] = g.pick([-1, 2000, 1025, "x", 1.5])
            else:
                d[g.pick(["pitch", "pad"])] = 4   # a 2d-only key on another pattern
    elif x == 12:
        if is_addr or kind == "2d":
            if is_addr:
                d["swizzle"] = True
            else:
                d[g.pick(["swizzle", "order"])] = g.pick(["x", 2, "diagonal", [], "col"])
        else:
            key, val = g.pick([("order", "row"), ("order", "column"), ("swizzle", True), ("swizzle", False), ("pad", 1), ("pitch", 32)])
            d[key] = val   # a valid 2d-only value on another pattern
    elif x == 13:
        if is_addr:
            d["seed"] = 1
        elif kind == "gather":
            if g.chance(0.5):
                d["seed"] = g.pick([-1, 2**64, "x", 1.5, "-1", "0x", " 1", "+1", []])
            else:
                d["range"] = g.pick([-1, 2**32 + 1, "x", 1.5, "-1", []])
        else:
            d[g.pick(["seed", "range"])] = 4
    elif x == 14:
        d.pop("threads", None)
        if not is_addr:
            d["block"] = [32]
            d["threads"] = 32
        else:
            d["addresses"] = [i * 4 + 2 for i in range(32)]   # misaligned (the model refuses)
            d["access_bytes"] = 4
    else:
        if is_addr:
            d.pop("addresses")
            d["pattern"] = "addresses"
        else:
            d["access_bytes"] = 16
            d["elem_bytes"] = 16
            d["offset"] = 4   # misaligned for 16-byte accesses (the model refuses)
            d.pop("base", None)


def memory_lines(kind):
    g = Gen(kind)
    valid_n, invalid_n = COUNTS[kind]
    lines = []
    for name, cc, sms, aliases in GPUS:
        lines.append(g.dumps({"gpu": name}))
        lines.append(g.dumps({"gpu": name, "stride": 2, "access_bytes": 8}))
    for cc in CCS:
        for w in WIDTHS:
            lines.append(g.dumps({"cc": cc, "access_bytes": w, "pattern": "2d", "order": "column", "pitch": 32, "threads": 64}))
    for p in ("affine", "2d", "gather"):
        for w in WIDTHS:
            for op in ("load", "store"):
                lines.append(g.dumps({"pattern": p, "access_bytes": w, "op": op, "threads": 64}))
    for line in [b"{}", b'{"id":1}', b'{"stride":0}', b'{"stride":-1,"base":"0x1000"}', b'{"addresses":[0]}',
                 b'{"addresses":[null,null,0]}', b'{"addresses":[0,4,8,null,16],"active_lanes":"0xf"}', b'{"pattern":"2d","swizzle":true}',
                 b'{"pattern":"2d","pad":1,"order":"column","block":[32,32]}', b'{"pattern":"gather","range":0,"threads":1024}',
                 b'{"seed":18446744073709551615}', b'{"range":4294967296}', b'{"pitch":16777216}', b'{"stride":16777216}',
                 b'{"offset":-1099511627776,"base":"0xffffffffffff"}', b'{"active_lanes":0}', b'{"threads":"32"}',
                 b'{"block":[1,1,1]}', b'{"block":[1024]}', b'{"elem_bytes":1,"access_bytes":16,"stride":1}', b'{"swizzle":"on"}']:
        lines.append(line)
    for _ in range(valid_n):
        d = mem_valid(g)
        if g.chance(0.25):
            d["id"] = g.id_value()
        lines.append(g.dumps(g.shuffle_keys(d)))
    for _ in range(invalid_n):
        d = mem_clean(g)
        if g.chance(0.2):
            d["id"] = g.id_value()
        lines.append(generic_fault(g, d, MEM_KEYS, mem_field_fault))
    return lines


# [SECTION] roofline

OPS = ["matmul", "attention_decode", "elementwise", "softmax", "layernorm", "custom", "gemm", "attention", "decode", "add", "ln"]
PRECISIONS = ["fp64", "fp64_tensor", "fp32", "tf32", "fp16", "bf16", "fp8", "int8", "double", "float", "half", "bfloat16", "e4m3", "e5m2"]
OP_INT_FIELDS = ["m", "n", "k", "seq_len", "head_dim", "heads", "batch", "elements", "rows", "cols"]
ROOF_KEYS = {"gpu", "peak_tflops", "bandwidth_gbps", "op", "dtype", "precision", "memory", "measured_ms", "compare", "ops", "flops",
             "bytes", "inputs", "flops_per_element", "id"} | set(OP_INT_FIELDS)
OP_FIELDS_FOR = {"matmul": ["m", "n", "k"], "attention_decode": ["seq_len", "head_dim", "heads", "batch"],
                 "elementwise": ["elements", "inputs", "flops_per_element"], "softmax": ["rows", "cols"], "layernorm": ["rows", "cols"]}
OP_CANON = {"gemm": "matmul", "attention": "attention_decode", "decode": "attention_decode", "add": "elementwise", "ln": "layernorm"}


def roof_op_fields(g, d, clean=False):
    op = g.pick(OPS)
    if not clean or g.chance(0.8):
        d["op"] = op if clean else g.choice_repr(op)
    else:
        op = "matmul"
    canon = OP_CANON.get(op, op)
    if g.chance(0.6):
        d["dtype"] = g.pick(PRECISIONS[2:6] if clean else PRECISIONS)
    if canon == "custom":
        d["flops"] = g.pick([0, 1, 1e9, 1e12, 1.5e15, 1e30, "1e12", 123456789]) if not clean else g.pick([1e9, 1e12])
        d["bytes"] = g.pick([1, 1e6, 1e9, 1e30, "4096", 2**40]) if not clean else g.pick([1e6, 1e9])
        return
    fields = OP_FIELDS_FOR[canon]
    for f in fields:
        if g.chance(0.6):
            if f == "inputs":
                d[f] = g.pick([1, 2, 3, 64]) if not clean else 2
            elif f == "flops_per_element":
                d[f] = g.pick([0, 1, 2, 0.5, 1e6, 10, "3", 2.5]) if not clean else 1
            else:
                d[f] = (g.int_repr(g.pick([1, 2, 64, 128, 1000, 4096, 8192, 65536, 2**30, 2**50, g.r.randrange(1, 10**5)]))
                        if not clean else g.pick([128, 1024, 4096]))
    if not clean and g.chance(0.1):
        # fields of another op are read too (and ignored by this op)
        other = g.pick(OP_INT_FIELDS)
        d.setdefault(other, 256)


def roof_valid(g):
    d = {}
    x = g.r.random()
    if x < 0.5:
        d["gpu"] = g.pick(ROOFLINE_DEVICES)
    elif x < 0.75:
        d["gpu"] = g.pick(ROOFLINE_ALIASES)
    elif x < 0.85:
        d["gpu"] = g.pick(["my-accelerator", "custom", "A1000", "TPU", "\u00c4-chip", "x" * 50])
        d["peak_tflops"] = g.pick([1e-6, 0.5, 100, 1000, 1e6, "250"])
        d["bandwidth_gbps"] = g.pick([1e-3, 50, 1000, 3350, 1e7, "800.5"])
    elif x < 0.95:
        pass   # default device
    else:
        d["gpu"] = g.pick(ROOFLINE_DEVICES)
        d[g.pick(["peak_tflops", "bandwidth_gbps"])] = g.pick([1, 10.5, 500, 1e6 if g.chance(0.5) else 1e-3])
    if g.chance(0.12):
        n = g.r.randrange(0, 5)
        ops = []
        for i in range(n):
            o = {}
            roof_op_fields(g, o)
            if g.chance(0.5):
                o["label"] = g.pick([f"op{i}", i, None, {"x": 1}, "\u00e9", ""])
            ops.append(o)
        d["ops"] = ops
    else:
        roof_op_fields(g, d)
        if g.chance(0.2):
            d["compare"] = g.r.sample(ROOFLINE_DEVICES + ROOFLINE_ALIASES[:6], g.r.randrange(0, 5))
    if g.chance(0.25):
        d["precision"] = g.choice_repr(g.pick(PRECISIONS))
    if g.chance(0.2):
        d["memory"] = g.choice_repr(g.pick(["dram", "l2"]))
        if d["memory"].lower() == "l2" and g.chance(0.5):
            d["bandwidth_gbps"] = g.pick([5000, 12000, 1e7])
    if g.chance(0.2):
        d["measured_ms"] = g.pick([1e-9, 0.001, 0.5, 1, 2.5, 100, 1e9, "0.25", 3])
    if g.chance(0.2) and "peak_tflops" not in d:
        d["peak_tflops"] = g.pick([1e-6, 1, 123.4, 1e6])
    return d


def roof_clean(g):
    d = {}
    if g.chance(0.85):
        d["gpu"] = g.pick(["A100-SXM4-80GB", "H100-SXM5-80GB", "H200", "RTX-4090", "L40S", "AMD-MI300X", "h100", "a100"])
    if g.chance(0.1):
        d["ops"] = [{"op": "matmul", "label": "a"}, {"op": "softmax", "rows": 1024}]
    else:
        roof_op_fields(g, d, clean=True)
    if g.chance(0.15):
        d["memory"] = "dram"
    if g.chance(0.15):
        d["measured_ms"] = 1.5
    if g.chance(0.1) and "ops" not in d:
        d["compare"] = ["A100", "H100"]
    return d


def roof_field_fault(g, d):
    x = g.r.randrange(15)
    if x == 0:
        d["gpu"] = g.pick(UNKNOWN_GPUS[:10] + [5, [], {}, True])
        d.pop("peak_tflops", None)
        d.pop("bandwidth_gbps", None)
    elif x == 1:
        d["op"] = g.pick(["conv", "", 1, [], "matmult", "attn"])
    elif x == 2:
        d["dtype"] = g.pick(["fp4", "int4", "", 16, True, "float16"])
    elif x == 3:
        if "ops" in d:
            d["ops"] = g.pick([3, "matmul", {}, {"op": "matmul"}, True])
        else:
            d[g.pick(OP_INT_FIELDS)] = g.pick([0, -1, 2**50 + 1, "x", 1.5, [], {}, True, 1e300])
    elif x == 4:
        if "ops" in d:
            bad = dict(g.pick([{"op": "conv"}, {"m": 0}, {"op": "matmul", "mm": 1}, {"op": "custom"}, {"flops": 1}, {"dtype": "fp4"}]))
            d["ops"] = list(d["ops"]) + [bad] if g.chance(0.5) else [bad]
        else:
            d["inputs"] = g.pick([0, 65, -1, "x", 1.5])
    elif x == 5:
        if "ops" in d:
            d["ops"] = [g.pick([1, "x", [], True])]
        else:
            d["flops_per_element"] = g.pick([-1, 1e6 + 1, "x", [], "nan", "inf", 1e300])
    elif x == 6:
        d.pop("ops", None)
        for k in OP_INT_FIELDS + ["inputs", "flops_per_element"]:
            d.pop(k, None)
        d["op"] = "custom"
        y = g.r.randrange(5)
        if y == 0:
            d["bytes"] = 1
        elif y == 1:
            d["flops"] = 1
        elif y == 2:
            d["flops"], d["bytes"] = 1, 0
        elif y == 3:
            d["flops"], d["bytes"] = -1, 1
        else:
            d["flops"], d["bytes"] = "x", 1
    elif x == 7:
        if d.get("op", "matmul") not in ("custom",) and "ops" not in d:
            d[g.pick(["flops", "bytes"])] = 1
        else:
            d["precision"] = "fp128"
    elif x == 8:
        d["precision"] = g.pick(["fp128", "", 1, "tensor", []])
    elif x == 9:
        d["memory"] = g.pick(["hbm", "l1", "", 2, True, "L3"])
    elif x == 10:
        d["measured_ms"] = g.pick([0, -1, 1e10, "x", [], "0", True])
    elif x == 11:
        d[g.pick(["peak_tflops", "bandwidth_gbps"])] = g.pick([0, -1, 1e7 + 1e6, 1e9, "x", [], 1e-9, "fast"])
    elif x == 12:
        d.pop("ops", None)
        d["compare"] = g.pick(["H100", 5, {}, True, [5], ["nope"], ["H100", None], ["A100", []]])
    elif x == 13:
        if "ops" in d:
            d[g.pick(OP_INT_FIELDS)] = 128   # op fields beside ops are unknown at the top level
        else:
            d["ops"] = g.pick(["x", 5, {}])
    else:
        d.pop("peak_tflops", None)
        d.pop("bandwidth_gbps", None)
        d["gpu"] = "my-accelerator"
        d[g.pick(["peak_tflops", "bandwidth_gbps"])] = 100   # a custom device needs both


def roofline_lines():
    g = Gen("roofline")
    valid_n, invalid_n = COUNTS["roofline"]
    lines = []
    for dev in ROOFLINE_DEVICES:
        lines.append(g.dumps({"gpu": dev}))
        for op in OPS[:5]:
            for dt in PRECISIONS[:8]:
                lines.append(g.dumps({"gpu": dev, "op": op, "dtype": dt}))
        lines.append(g.dumps({"gpu": dev, "op": "custom", "flops": 1e12, "bytes": 1e9, "memory": "l2", "bandwidth_gbps": 7000}))
        lines.append(g.dumps({"gpu": dev, "measured_ms": 0.5, "compare": ROOFLINE_DEVICES}))
    for alias in ROOFLINE_ALIASES:
        lines.append(g.dumps({"gpu": alias, "op": "attention_decode", "seq_len": 8192, "heads": 32, "batch": 8}))
    for line in [b"{}", b'{"id":1}', b'{"ops":[]}', b'{"compare":[]}', b'{"op":"ln"}', b'{"op":"GEMM","dtype":"E4M3"}',
                 b'{"m":1,"n":1,"k":1}', b'{"m":1125899906842624,"n":1125899906842624,"k":1125899906842624}',
                 b'{"op":"custom","flops":0,"bytes":1}', b'{"op":"custom","flops":1e30,"bytes":1e30}', b'{"measured_ms":1e9}',
                 b'{"peak_tflops":1e6,"bandwidth_gbps":1e7}', b'{"gpu":"x","peak_tflops":1,"bandwidth_gbps":1}',
                 b'{"memory":"l2"}', b'{"memory":"l2","gpu":"Apple-M2-Ultra"}', b'{"precision":"fp64_tensor","gpu":"RTX-4090"}',
                 b'{"dtype":"fp8","gpu":"V100"}', b'{"dtype":"int8","gpu":"Apple-M2-Ultra"}', b'{"op":"elementwise","flops_per_element":0}',
                 b'{"ops":[{"op":"matmul","label":"qkv"},{"op":"softmax","rows":4096,"cols":4096}]}']:
        lines.append(line)
    for _ in range(valid_n):
        d = roof_valid(g)
        if g.chance(0.25):
            d["id"] = g.id_value()
        lines.append(g.dumps(g.shuffle_keys(d)))
    for _ in range(invalid_n):
        d = roof_clean(g)
        if g.chance(0.2):
            d["id"] = g.id_value()
        lines.append(generic_fault(g, d, ROOF_KEYS, roof_field_fault, fragile=("op", "flops", "bytes")))
    return lines


# [SECTION] advise

ADV_KEYS = OCC_KEYS | {"smem_per_thread", "smem_fixed", "block_size_limit", "target_blocks", "cluster_size", "non_portable", "gpc_sms"}


def gpc_split(g, sms):
    parts = []
    left = sms
    while left > 0:
        p = min(left, g.r.randrange(1, 65), 64)
        parts.append(p)
        left -= p
    return parts


def advise_lines():
    g = Gen("advise")
    valid_n, invalid_n = COUNTS["advise"]
    lines = []
    for name, cc, sms, aliases in GPUS:
        lines.append(g.dumps({"gpu": name}))
        lines.append(g.dumps({"gpu": name, "threads": 128, "regs": 40, "grid": 5000, "smem_per_thread": 64, "smem_fixed": "2K",
                              "target_blocks": 4}))
        if float(cc) >= 9.0:
            for cs in (1, 2, 4, 8, 16):
                lines.append(g.dumps({"gpu": name, "threads": 256, "regs": 64, "cluster_size": cs, "non_portable": cs > 8}))
    for cc in CCS:
        lines.append(g.dumps({"cc": cc, "threads": 64, "regs": 96, "smem_dynamic": "12K", "block_size_limit": 512}))
    for line in [b"{}", b'{"id":1}', b'{"cluster_size":0}', b'{"gpu":"H100","cluster_size":2,"gpc_sms":[18,18,16,16,16,16,16,16]}',
                 b'{"gpu":"H100","cluster_size":16,"non_portable":true}', b'{"gpu":"A100","cluster_size":2}',
                 b'{"block_size_limit":1048576}', b'{"target_blocks":1024}', b'{"smem_per_thread":"1M"}', b'{"smem_fixed":"1G"}',
                 b'{"smem_per_thread":0,"smem_fixed":0}', b'{"threads":1024,"regs":255}', b'{"grid":1}', b'{"block":[16,16],"grid":216}']:
        lines.append(line)
    for _ in range(valid_n):
        d, sms, cc = g.device_fields()
        occ_fields_valid(g, d)
        if g.chance(0.25):
            d.pop("smem_dynamic", None)
            if g.chance(0.8):
                d["smem_per_thread"] = g.size_repr(g.pick([0, 4, 8, 16, 64, 128, 256, 1024, 1 << 20, g.r.randrange(0, 512)]))
            if g.chance(0.6):
                d["smem_fixed"] = g.size_repr(g.pick([0, 1024, 4096, 16384, 49152, 1 << 30, g.r.randrange(0, 100000)]))
        if g.chance(0.25):
            d["block_size_limit"] = g.int_repr(g.pick([0, 1, 32, 64, 100, 256, 512, 1024, 2048, 1 << 20]))
        if g.chance(0.25):
            d["target_blocks"] = g.int_repr(g.pick([1, 2, 3, 4, 8, 16, 32, 64, 1024]))
        if g.chance(0.25):
            cs = g.pick([0, 1, 2, 3, 4, 8, 9, 12, 16])
            d["cluster_size"] = g.int_repr(cs)
            if cs > 8 or g.chance(0.2):
                d["non_portable"] = g.bool_repr(True if cs > 8 else g.chance(0.5))
            if g.chance(0.3) and sms:
                d["gpc_sms"] = gpc_split(g, sms)
        if g.chance(0.25):
            d["id"] = g.id_value()
        lines.append(g.dumps(g.shuffle_keys(d)))

    def faults(g, d):
        x = g.r.randrange(10)
        grows = "smem_per_thread" in d
        if x == 0:
            d.pop("smem_dynamic", None)
            d["smem_per_thread"] = g.pick([-1, "2M", 1 << 21, "x", [], 1.5])
        elif x == 1:
            d.pop("smem_dynamic", None)
            d["smem_fixed"] = g.pick([-1, "2G", "x", [], 1.5])
        elif x == 2:
            d["smem_per_thread"] = 16
            d["smem_dynamic"] = 1024
        elif x == 3:
            d["block_size_limit"] = g.pick([-1, 1 << 21, "x", [], 1.5])
        elif x == 4:
            d["target_blocks"] = g.pick([0, -1, 1025, "x", [], 1.5])
        elif x == 5:
            d["cluster_size"] = g.pick([17, -1, 9, 12, 16, "x", [], 1.5])
        elif x == 6:
            d["cluster_size"] = 2
            d["non_portable"] = g.pick(["x", 2, [], "maybe"])
        elif x == 7:
            d["cluster_size"] = 2
            d["gpc_sms"] = g.pick([[1, 2], [], [0], [65], "18,18", 18, [18.5], [None], list(range(1, 70))])
        else:
            occ_field_fault(g, d)
            if grows and "smem_dynamic" in d:
                d.pop("smem_per_thread")   # the fault is in smem_dynamic, not the pair

    for _ in range(invalid_n):
        d, sms, cc = g.device_fields(g.pick(["gpu", "gpu", "cc", "none"]))
        occ_fields_clean(g, d)
        if g.chance(0.3):
            d.pop("smem_dynamic", None)
            d["smem_per_thread"] = g.pick([4, 16])
        if g.chance(0.2):
            d["target_blocks"] = g.pick([1, 2])
        if g.chance(0.2):
            d["block_size_limit"] = g.pick([0, 256])
        if g.chance(0.2):
            d["id"] = g.id_value()
        lines.append(generic_fault(g, d, ADV_KEYS, faults))
    return lines


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    os.makedirs(out, exist_ok=True)
    all_lines = {
        "occupancy": occupancy_lines(),
        "coalesce": memory_lines("coalesce"),
        "banks": memory_lines("banks"),
        "roofline": roofline_lines(),
        "advise": advise_lines(),
    }
    from corpus_amd import amd_lines  # the AMD lines, appended (their own random streams)
    for kind in all_lines:
        all_lines[kind] += amd_lines(SEED, kind)
    total = 0
    for kind, lines in all_lines.items():
        write(os.path.join(out, kind + ".jsonl"), lines)
        total += len(lines)
        print(f"{kind}: {len(lines)} lines")
    print(f"total: {total} lines")


if __name__ == "__main__":
    main()
