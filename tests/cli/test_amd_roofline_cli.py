#!/usr/bin/env python3
"""`occ roofline` on AMD GPUs: the ridge point computed from the catalogue's datasheet
peaks, the device list, and a precision no source states refused (exit 2). Known answers:
  [MI250X]  AMD's MI200 launch table (lib/core/src/amd_arch.cpp cites the copy read): MI250X FP16
            matrix 383.0 TFLOP/s, FP64 vector 47.9 TFLOP/s, HBM2e 3.2 TB/s.
  [MI350]   Tom's Hardware (ISC 2025): MI350X 8 TB/s; no dense compute figure read."""
import json
import unittest

from occ_cli import run


def run_json(*args):
    rc, out, err = run(*args, "--json")
    return rc, json.loads(out), err


class AmdRoofline(unittest.TestCase):
    def test_mi250x_ridge_from_datasheet(self):
        rc, r, err = run_json("roofline", "--gpu", "MI250X", "--op", "matmul", "--dtype", "fp16")
        self.assertEqual(rc, 0, err)
        self.assertAlmostEqual(r["ridge"], 383.0e12 / 3200e9, places=9)  # 119.6875 FLOP/byte
        self.assertEqual(r["bound"], "compute")
        rc, r, err = run_json("roofline", "--gpu", "AMD Instinct MI250X", "--op", "decode", "--dtype", "fp64")
        self.assertEqual(rc, 0, err)
        self.assertAlmostEqual(r["ridge"], 47.9e12 / 3200e9, places=9)  # 14.97 FLOP/byte
        self.assertEqual(r["bound"], "memory")

    def test_table_names_the_ridge(self):
        rc, out, err = run("roofline", "--gpu", "MI250X", "--op", "matmul", "--dtype", "fp16")
        self.assertEqual(rc, 0, err)
        self.assertIn("MI250X", out)
        self.assertIn("119.7", out)

    def test_list_has_every_amd_gpu(self):
        rc, out, err = run("roofline", "--list")
        self.assertEqual(rc, 0, err)
        names = [line.split()[0] for line in out.splitlines() if line.split()[1:2] == ["AMD"]]
        self.assertEqual(names, ["MI100", "MI210", "MI250", "MI250X", "MI300A", "MI300X", "MI325X", "MI350X", "MI355X",
                                 "RX-7900-XTX", "RX-9070-XT"])

    def test_unpublished_precision_refused(self):
        rc, out, err = run("roofline", "--gpu", "MI350X", "--op", "matmul", "--dtype", "fp16")
        self.assertEqual(rc, 2)
        self.assertIn("MI350X has no published fp16 peak", err + out)


if __name__ == "__main__":
    unittest.main()
