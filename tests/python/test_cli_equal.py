#!/usr/bin/env python3
"""The Python package answers what the CLI answers, request for request.

Requests: every line of the --batch regression corpus (tests/regress/corpus: valid requests and
single-fault invalid ones) that is a JSON object, plus requests generated here from the field
descriptions (occ.fields(kind): every field, values inside, at and outside its range, several
fields at once). Each goes through occ.<kind>(**request) and through `occ <kind> --batch`.

  - When Python raises ValueError, the CLI answered with an "error" and the message is the same.
  - Otherwise .to_dict() equals the CLI's JSON: same keys in the same order, same values, same
    JSON types (1 is not 1.0).
  - Python raises exactly for the bad requests: an error-only answer, any error of a kind that is
    not a launch, and a launch error where the model found an input outside its ranges (the
    answer's limiters are empty). A launch that cannot run (limiters name what stops it) is an
    answer with its error, as in the CLI.

Also: occ.ncu() on the Nsight Compute fixtures against `occ ncu --batch`, and occ.gpus(),
occ.roofline_devices() and occ.ptxas() on the compiler-log fixtures against `occ gpus --json`,
`occ roofline --list --json` and `occ occupancy --ptxas FILE --json`.
Environment: OCC_BIN (the CLI), OCC_SOURCE_DIR (the repository), PYTHONPATH (the built package).
"""
import gzip
import json
import os
import random
import subprocess
import sys
import time
import unittest

import occ

ROOT = os.environ.get("OCC_SOURCE_DIR") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OCC_BIN = os.environ.get("OCC_BIN", os.path.join(ROOT, "build", "native", "bin", "occ"))
LAUNCH_KINDS = {"occupancy", "advise"}
GENERATED = 1500   # generated requests per kind, on top of the corpus
SEED = 16


def same(a, b):
    """JSON equality that tells 1 from 1.0 and True from 1, and checks key order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def corpus(kind):
    path = os.path.join(ROOT, "tests", "regress", "corpus", kind + ".jsonl")
    if os.path.exists(path + ".gz"):
        with gzip.open(path + ".gz", "rb") as f:
            data = f.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    out = []
    for line in data.split(b"\n"):
        try:
            req = json.loads(line)
        except ValueError:
            continue   # not JSON (or not UTF-8): a test of the CLI's text reader, not of this API
        if isinstance(req, dict):
            out.append(req)
    return out


# [SECTION] Requests from the field descriptions

INTS = [-(2 ** 31), -1, 0, 1, 2, 3, 7, 8, 16, 31, 32, 33, 48, 63, 64, 65, 96, 127, 128, 129, 168, 192, 200,
        232, 255, 256, 257, 384, 512, 640, 768, 1000, 1023, 1024, 1025, 2048, 4096, 65535, 65536, 2 ** 31]
SIZES = [0, 1, 100, 1024, 4000, 4096, 16384, 32768, 48000, 49152, 65536, 100000, 101376, 166912, 200000,
         232448, -1, "48K", "0x400", "1.5K", "100KiB", "2M", "12KB", "abc", "", 1.5]
NUMBERS = [0, 0.5, 1, 2.5, 3, 100, 1e3, 1e6, 1e9, -1, 1e31, "2", "x"]
CCS = ["3.5", "5.0", "5.2", "6.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0", "sm_90",
       "sm_80", 8.6, 9, "compute_90", "2.0", "x"]
IDS = [1, "job-7", None, [1, 2], {"a": 1}, 2.5, True]


def gen_value(f, rng, names):
    key, t = f["key"], f["type"]
    if key == "gpu":
        return rng.choice(names + ["h100", "a100", "NVIDIA GeForce RTX 4090", "H100-SMX5", "", "tesla v100"])
    if key == "compare":
        return rng.sample(names + ["phone", "bogus"], rng.randint(0, 3))
    if key == "gpc_sms":
        return [rng.choice([1, 2, 7, 8, 9, 16, 18, 0, 65]) for _ in range(rng.randint(0, 8))]
    if key == "ops":
        ops = [{"op": rng.choice(["matmul", "elementwise", "softmax", "attention_decode", "layernorm"]),
                "m": rng.choice([64, 4096]), "n": 512, "k": 256} for _ in range(rng.randint(0, 3))]
        return ops
    if t == "integer":
        v = rng.choice(INTS)
        return str(v) if rng.random() < 0.05 else v
    if t == "size":
        return rng.choice(SIZES)
    if t in ("number", "duration"):
        return rng.choice(NUMBERS + (["0.5ms", "120us", "0.002s", "1 ms"] if t == "duration" else []))
    if t == "boolean":
        return rng.choice([True, False, True, False, "yes", 1])
    if t == "choice":
        choices = f["choices"].split(",")
        return rng.choice(choices * 6 + ["bogus", choices[0].upper()])
    if t == "cc":
        return rng.choice(CCS)
    if t == "mask":
        return rng.choice([0xFFFFFFFF, 0xFFFF, 0, 1, "0x0000ffff", "0-15", -1, 2 ** 33])
    if t == "u64":
        return rng.choice([0, 4, 128, 2 ** 40, "0x1000", 2 ** 48, -1, 2 ** 64 - 1])
    if t == "dims":
        return rng.choice([[32], [16, 16], [32, 8, 1], [8, 8, 8], [1024, 2], [0], [2, 2, 2, 2], [4, 4, 65], [33, 7]])
    if t == "addresses":
        n = rng.choice([32, 32, 32, 16, 1, 33])
        step = rng.choice([4, 8, 16, 128, 132, 0])
        return [None if rng.random() < 0.1 else i * step + rng.choice([0, 0, 4]) for i in range(n)]
    if t == "list":
        return [rng.choice(names)]
    if t == "device":
        d = {"major": rng.choice([7, 8, 8, 9, 12, 2]), "minor": rng.choice([0, 0, 6, 9, 5])}
        for k, pool in (("multiProcessorCount", [1, 46, 108, 132, 2000]), ("sharedMemPerBlockOptin", [49152, 101376, 232448]),
                        ("maxThreadsPerBlock", [512, 1024]), ("regsPerMultiprocessor", [32768, 65536]),
                        ("name", ["my gpu", "x" * 70]), ("bogusProp", [1])):
            if rng.random() < 0.3:
                d[k] = rng.choice(pool)
        return d
    if t == "text":
        return rng.choice(["", "x", "some text"])
    if t == "objects":
        return [{"op": "matmul", "m": 128, "n": 128, "k": 128}]
    return rng.choice(IDS)


def generated(kind, rng, names):
    specs = [f for f in occ.fields(kind) if f["key"] != "log"]
    out = []
    for _ in range(GENERATED):
        req = {}
        for f in rng.sample(specs, rng.randint(0, min(6, len(specs)))):
            req[f["key"]] = gen_value(f, rng, names)
        if rng.random() < 0.02:
            req["bogus_field"] = 1
        out.append(req)
    return out


# [SECTION] The comparison

def cli_batch(kind, lines):
    p = subprocess.run([OCC_BIN, kind, "--batch"], input=b"".join(l + b"\n" for l in lines), capture_output=True, timeout=300)
    out = p.stdout.split(b"\n")[:-1]
    assert len(out) == len(lines), f"{kind}: {len(lines)} lines in, {len(out)} out: {p.stderr[:300]!r}"
    return [json.loads(l) for l in out]


def should_raise(kind, cli):
    if cli.get("error") is None:
        return False
    if len(cli) == 1 or kind not in LAUNCH_KINDS:
        return True
    launch = cli if kind == "occupancy" else cli["occupancy"]
    return launch["limiters"] == []   # the model's input errors name no limiter


class SameAsCli(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.exists(OCC_BIN):
            raise unittest.SkipTest(f"no CLI at {OCC_BIN}")
        cls.names = [g["name"] for g in occ.gpus().to_dict()["gpus"]]

    def check_kind(self, kind):
        rng = random.Random(f"{SEED}-{kind}")
        # None means "not given" in Python, so a JSON null at the top level is left out on both sides
        # (the CLI reads {"gpu": null} as an unknown field gpu).
        requests = [{k: v for k, v in r.items() if v is not None} for r in corpus(kind) + generated(kind, rng, self.names)]
        counts = self.compare(kind, requests)
        self.assertGreater(counts["answers"], 300)
        self.assertGreater(counts["ValueError"], 100)

    def compare(self, kind, requests):
        lines = [json.dumps(r).encode() for r in requests]
        t0 = time.perf_counter()
        expected = cli_batch(kind, lines)
        t1 = time.perf_counter()
        fn = getattr(occ, kind)
        counts = {"answers": 0, "answers with an error": 0, "ValueError": 0}
        for req, line, cli in zip(requests, lines, expected):
            try:
                got = fn(**req)
            except ValueError as e:
                counts["ValueError"] += 1
                self.assertIsNotNone(cli.get("error"), f"{kind}: Python raised {e} for {line[:300]!r}; CLI answered")
                if cli["error"].startswith("not valid JSON"):
                    continue   # a lone surrogate: Python holds it, JSON text cannot; both refuse
                self.assertEqual(str(e), cli["error"], f"{kind}: {line[:300]!r}")
                self.assertTrue(should_raise(kind, cli), f"{kind}: raised for an answer the CLI gives: {line[:300]!r}")
                continue
            self.assertFalse((cli.get("error") or "").startswith("not valid JSON"), line[:300])
            counts["answers"] += 1
            counts["answers with an error"] += int(got.get("error") is not None)
            self.assertFalse(should_raise(kind, cli), f"{kind}: no ValueError for {line[:300]!r}: {cli.get('error')}")
            self.assertTrue(same(got.to_dict(), cli), f"{kind}: {line[:300]!r}\n python {json.dumps(got.to_dict())[:600]}\n cli    {json.dumps(cli)[:600]}")
        t2 = time.perf_counter()
        print(f"{kind}: {len(requests)} requests ({counts}); CLI {t1 - t0:.2f} s, Python {t2 - t1:.2f} s", file=sys.stderr)
        return counts

    def test_occupancy(self):
        self.check_kind("occupancy")

    def test_coalesce(self):
        self.check_kind("coalesce")

    def test_banks(self):
        self.check_kind("banks")

    def test_roofline(self):
        self.check_kind("roofline")

    def test_advise(self):
        self.check_kind("advise")

    def test_ncu_reports(self):
        folder = os.path.join(ROOT, "tests", "fixtures", "ncu")
        if "ncu" not in occ.kinds() or not os.path.isdir(folder):
            self.skipTest("no ncu kind in this build")
        texts = []
        for name in sorted(os.listdir(folder)):
            if name.endswith((".txt", ".csv")):
                with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                    texts.append(f.read())
        self.assertGreater(len(texts), 3)
        options = ({}, {"gpu": "A100"}, {"gpu": "H100"}, {"cc": "8.6"}, {"gpu": "nope"}, {"bogus": 1}, {"id": 7})
        requests = [{"text": t, **o} for t in texts + ["", "not a report\n", 5] for o in options]
        counts = self.compare("ncu", requests)
        self.assertGreater(counts["answers"], 10)

    def test_gpus_and_roofline_devices(self):
        cli = json.loads(subprocess.run([OCC_BIN, "gpus", "--json"], capture_output=True, check=True).stdout)
        self.assertTrue(same(occ.gpus().to_dict(), cli))
        cli = json.loads(subprocess.run([OCC_BIN, "roofline", "--list", "--json"], capture_output=True, check=True).stdout)
        self.assertTrue(same(occ.roofline_devices().to_dict(), cli))

    def test_ptxas_logs(self):
        folder = os.path.join(ROOT, "tests", "fixtures", "ptxas")
        logs = sorted(f for f in os.listdir(folder) if f.endswith(".log"))
        self.assertGreater(len(logs), 3)
        options = [{}, {"gpu": "H100"}, {"gpu": "A100", "threads": 128, "smem_dynamic": "32K"}, {"cc": "8.6", "threads": 1024}]
        for name in logs:
            with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                text = f.read()
            for opts in options:
                flags = [a for k, v in opts.items() for a in ("--" + k.replace("_", "-"), str(v))]
                p = subprocess.run([OCC_BIN, "occupancy", "--ptxas", os.path.join(folder, name), "--json", *flags], capture_output=True)
                cli = json.loads(p.stdout)
                try:
                    got = occ.ptxas(text, **opts).to_dict()
                except ValueError as e:
                    self.assertEqual(str(e), cli.get("error"), f"{name} {opts}")
                    continue
                self.assertTrue(same(got, cli), f"{name} {opts}\n python {json.dumps(got)[:400]}\n cli    {json.dumps(cli)[:400]}")


if __name__ == "__main__":
    unittest.main(verbosity=2)
