#!/usr/bin/env python3
"""`occ occupancy --batch --fields`: only the named fields, with the whole answer's values for them
(a random sweep of requests, parsed and compared field for field); "error" kept on refusals; an
unknown name refused with exit 2, the name and the allowed ones; --fields without --batch refused;
--help teaches it."""
import json
import os
import random
import sys
import unittest

from occ_cli import run

sys.path.insert(0, os.path.join(os.environ.get("OCC_SOURCE_DIR", "."), "bench"))
import batch_lines  # noqa: E402


def at(answer, path):
    v = answer
    for part in path.split("."):
        if not isinstance(v, dict) or part not in v:
            return KeyError
        v = v[part]
    return v


class BatchFields(unittest.TestCase):
    def test_sweep_field_for_field(self):
        lines = list(batch_lines.lines(400, 7))
        rng = random.Random(7)
        for i in range(0, 400, 50):
            lines.insert(i, json.dumps({"gpu": "H100-SXM5-80GB", "threads": 256, "regs": 64, "sweep": "threads", "id": i}))
        text = "".join(line + "\n" for line in lines)
        rc, full_out, _ = run("occupancy", "--batch", stdin=text)
        self.assertEqual(rc, 1)  # some lines are refused launches
        full = [json.loads(x) for x in full_out.splitlines()]
        self.assertEqual(len(full), len(lines))
        pool = ["blocks_per_sm", "occupancy", "limiters", "limits.registers", "limits", "input.threads", "driver_smem.configured",
                "device.name", "id", "sweep", "smem_per_block_allocated"]
        for _ in range(4):
            fields = rng.sample(pool, rng.randint(1, 4))
            rc, out, err = run("occupancy", "--batch", "--fields", ",".join(fields), stdin=text)
            self.assertEqual(rc, 1, err)
            got = [json.loads(x) for x in out.splitlines()]
            self.assertEqual(len(got), len(full))
            for w, s in zip(full, got):
                self.assertEqual(s["error"], w["error"])
                for f in fields:
                    self.assertEqual(at(s, f), at(w, f), f)
                top = {f.split(".")[0] for f in fields} | {"error"}
                self.assertLessEqual(set(s), top)

    def test_one_field_known_value(self):
        rc, out, _ = run("occupancy", "--batch", "--fields", "blocks_per_sm",
                         stdin='{"gpu":"A100-SXM4-80GB","threads":256,"regs":64}\n')
        self.assertEqual(rc, 0)
        self.assertEqual(out, '{"blocks_per_sm":4,"error":null}\n')

    def test_unknown_field(self):
        rc, out, err = run("occupancy", "--batch", "--fields", "blocks_per_sm,occupancy_pct", stdin="{}\n")
        self.assertEqual(rc, 2)
        self.assertEqual(out, "")
        self.assertIn('"occupancy_pct"', err)
        self.assertIn("allowed: blocks_per_sm, warps_per_sm", err)
        self.assertIn("limits.registers", err)

    def test_needs_batch(self):
        rc, _, _ = run("occupancy", "--fields", "blocks_per_sm", "--threads", "256")
        self.assertEqual(rc, 2)

    def test_memory_kind(self):
        rc, out, _ = run("coalesce", "--batch", "--fields", "efficiency", stdin='{"stride":2}\n')
        self.assertEqual(rc, 0)
        a = json.loads(out)
        rc, full, _ = run("coalesce", "--batch", stdin='{"stride":2}\n')
        self.assertEqual(a["efficiency"], json.loads(full)["efficiency"])

    def test_help(self):
        rc, out, _ = run("occupancy", "--help")
        self.assertEqual(rc, 0)
        self.assertIn("--fields", out)


if __name__ == "__main__":
    unittest.main()
