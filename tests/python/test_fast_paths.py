#!/usr/bin/env python3
"""Every fast path answers what the full answer does, for every bound launch field.

The fast paths: occ.blocks_per_sm() (occ::PreparedDevice's tables, or the general rules when the
request gives a field the tables do not take: io::prepared_takes) and `occ occupancy --batch`'s
fast line reader (batch.cpp). The full answer: occ.occupancy() and `--batch` with a line the fast
reader passes on (an "id" that is an object).

The random sweep sets every bound launch field (kinds.cpp, kLaunchBindings) on its own and
together, at values inside the model's ranges: a fast path that drops a field, or a binding whose
`Fast` tag says the tables take a field they ignore, gives a different block count here. Seeded:
a failure names the request. The list of fields swept is checked against occ.fields("occupancy"),
so a new launch field fails this test until it is swept.
Environment: OCC_BIN (the CLI), PYTHONPATH (the built package).
"""
import json
import os
import random
import subprocess
import unittest

import occ

OCC = os.environ.get("OCC_BIN", "occ")

# The occupancy fields that are not launch bindings: the device, the block's shape, the register
# plan, the AMD request's own fields, the sweep and the id.
NOT_BOUND = {"gpu", "cc", "device", "threads", "block", "warpgroup_regs", "arch", "agprs", "sgprs", "wave_size", "cu_mode", "sweep", "id"}

# A value inside the model's range for each bound field (occ.fields("occupancy") ranges).
SWEEP = {
    "regs": lambda r: r.choice([0, 16, 32, 40, 64, 96, 128, 168, 255]),
    "smem_static": lambda r: r.choice([0, 1024, 4096, 12288, 40000]),
    "smem_dynamic": lambda r: r.choice([0, 2048, 16384, 49152, 65536, 99999]),
    "carveout": lambda r: r.choice([-1, 0, 25, 50, 100]),
    "cache_config": lambda r: r.choice(["none", "shared", "l1", "equal"]),
    "optin": lambda r: r.choice([False, True]),
    "max_dynamic_smem": lambda r: r.choice([-1, 0, 8192, 32768, 65536]),
    "barriers": lambda r: r.randint(0, 16),
    "partitioned_gc": lambda r: r.choice(["off", "on", "strict"]),
    "grid": lambda r: r.choice([0, 1, 108, 100000]),
    "virtual_resources": lambda r: r.choice([0, 1, 8, 64]),
    "max_threads": lambda r: r.choice([0, 64, 128, 256, 1024]),
    "tmem_columns": lambda r: r.choice([0, 32, 128, 512]),
}
GPUS = ["A100-SXM4-80GB", "H100-SXM5-80GB", "RTX-4090", "V100-SXM2-32GB", "GTX-1080", "B200", "Tesla-K40"]
COLUMNS = ("regs", "smem_static", "smem_dynamic")


def requests(seed, n):
    rng = random.Random(seed)
    fields = sorted(SWEEP)
    for i in range(n):
        req = {"gpu": rng.choice(GPUS), "threads": rng.choice([32, 64, 96, 128, 256, 384, 512, 768, 1024])}
        # one field alone, then several at once
        chosen = [fields[i % len(fields)]] if i < 4 * len(fields) else rng.sample(fields, rng.randint(2, len(fields)))
        for f in chosen:
            req[f] = SWEEP[f](rng)
        yield req


def full_blocks(req):
    """The full answer's block count; 0 for a launch that cannot run; None when the inputs are out of range."""
    try:
        a = occ.occupancy(**req)
    except ValueError:
        return None
    return a.blocks_per_sm if a.ok else 0


class FastPaths(unittest.TestCase):
    def test_the_sweep_covers_every_bound_field(self):
        keys = {f["key"] for f in occ.fields("occupancy")}
        self.assertEqual(set(SWEEP), keys - NOT_BOUND, "sweep every launch field (and say which ones are not bound)")

    def test_blocks_per_sm_equals_the_full_answer(self):
        checked = 0
        for req in requests(20261207, 1500):
            want = full_blocks(req)
            options = {k: v for k, v in req.items() if k not in COLUMNS and k != "threads"}
            cols = {k: req.get(k, 0 if k != "regs" else 32) for k in COLUMNS}
            try:
                got = occ.blocks_per_sm(req["threads"], cols["regs"], cols["smem_static"], cols["smem_dynamic"], **options)
            except ValueError:
                got = None
            self.assertEqual(got, want, json.dumps(req))
            checked += want is not None
        self.assertGreater(checked, 1000)

    def test_a_kernel_that_takes_fewer_threads(self):
        # A kernel built for at most 256 threads (__launch_bounds__(256)) launched with 512: the launch
        # fails (CUDA Runtime API, cudaFuncAttributes::maxThreadsPerBlock), so it counts 0 (it was 4).
        self.assertEqual(occ.blocks_per_sm(512, 32, gpu="A100", max_threads=256), 0)
        self.assertFalse(occ.occupancy(gpu="A100", threads=512, regs=32, max_threads=256).ok)
        self.assertEqual(occ.blocks_per_sm(256, 32, gpu="A100", max_threads=256), 8)

    def test_the_batch_fast_reader_equals_the_full_reader(self):
        reqs = list(requests(7, 800))
        fast = [json.dumps(r) for r in reqs]
        full = [json.dumps({**r, "id": {"slow": i}}) for i, r in enumerate(reqs)]  # an object id: the full reader
        out = subprocess.run([OCC, "occupancy", "--batch"], input="\n".join(fast + full) + "\n", capture_output=True,
                             text=True, timeout=120).stdout.splitlines()
        self.assertEqual(len(out), 2 * len(reqs))
        for i, r in enumerate(reqs):
            a, b = json.loads(out[i]), json.loads(out[len(reqs) + i])
            self.assertEqual(b.pop("id"), {"slow": i})
            self.assertEqual(a, b, json.dumps(r))


if __name__ == "__main__":
    unittest.main()
