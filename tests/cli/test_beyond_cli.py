#!/usr/bin/env python3
"""occ roofline, occ advise and occ occupancy --ptxas end to end: human tables, --json,
--batch, exit codes (0 ok, 1 a batch line failed, 2 bad input)."""
import json
import os
import unittest

from occ_cli import run
SRC = os.environ.get("OCC_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
FIX = os.path.join(SRC, "tests", "fixtures", "ptxas")


def run_json(*args, stdin=None):
    rc, out, err = run(*args, "--json", stdin=stdin)
    return rc, json.loads(out), err


class Roofline(unittest.TestCase):
    def test_decode_attention_vs_phone(self):
        rc, out, err = run("roofline", "--gpu", "A100", "--op", "attention_decode", "--seq-len", "4096", "--head-dim", "128",
                           "--dtype", "fp16", "--compare", "phone")
        self.assertEqual(rc, 0, err)
        self.assertIn("memory-bound", out)
        self.assertIn("intensity          1 FLOP/byte", out)
        self.assertIn("26.5x faster", out)

    def test_json_matmul_ridge_and_measured(self):
        rc, r, err = run_json("roofline", "--gpu", "A100", "--op", "matmul", "--dtype", "fp16", "--measured-ms", "0.5ms")
        self.assertEqual(rc, 0, err)
        self.assertAlmostEqual(r["ridge"], 312e12 / 2039e9, places=6)
        self.assertEqual(r["bound"], "compute")
        self.assertAlmostEqual(r["fraction_of_roofline"], 274.877906944 / 312, places=6)

    def test_fp32_decode_intensity(self):
        rc, r, _ = run_json("roofline", "--op", "decode", "--dtype", "fp32")
        self.assertEqual(rc, 0)
        self.assertAlmostEqual(r["intensity"], 0.5)

    def test_list(self):
        rc, out, _ = run("roofline", "--list")
        self.assertEqual(rc, 0)
        for name in ("A100-SXM4-80GB", "H100-SXM5-80GB", "Phone-SoC-LPDDR5X", "MI300X"):
            self.assertIn(name, out)

    def test_bad_input_exits_2(self):
        for args in (["--gpu", "nope"], ["--op", "conv"], ["--m", "0"], ["--measured-ms", "3 parsecs"], ["--memory", "l2"]):
            rc, out, err = run("roofline", *args)
            self.assertEqual(rc, 2, args)
            self.assertIn("error", err)
        rc, _, _ = run("roofline", "--no-such-flag")
        self.assertEqual(rc, 2)

    def test_batch(self):
        lines = '{"gpu":"H100","op":"softmax","rows":1024,"cols":1024}\n{"gpu":"x"}\n{"op":"matmul","m":1,"n":4096,"k":4096}\n'
        rc, out, _ = run("roofline", "--batch", stdin=lines)
        rows = [json.loads(l) for l in out.splitlines()]
        self.assertEqual(len(rows), 3)
        self.assertEqual(rc, 1)
        self.assertEqual(rows[0]["bound"], "memory")
        self.assertIsNotNone(rows[1]["error"])
        self.assertEqual(rows[2]["bound"], "memory")   # a GEMV


class Advise(unittest.TestCase):
    def test_human(self):
        rc, out, err = run("advise", "--gpu", "A100", "--threads", "256", "--regs", "64", "--grid", "1000")
        self.assertEqual(rc, 0, err)
        self.assertIn("registers 64 -> 48 per thread", out)
        self.assertIn("50% -> 62.5%", out)
        self.assertIn("432", out)          # blocks per wave
        self.assertIn("2.31 waves", out)

    def test_json_sections(self):
        rc, r, err = run_json("advise", "--gpu", "A100", "--regs", "32", "--smem-per-thread", "128")
        self.assertEqual(rc, 0, err)
        self.assertEqual(r["block_size"]["threads"], 320)
        self.assertEqual(r["block_size"]["after"]["blocks_per_sm"], 4)
        for k in ("registers", "shared_memory", "dynamic_smem_at_target", "waves", "suggestions"):
            self.assertIn(k, r)

    def test_clusters(self):
        rc, r, err = run_json("advise", "--gpu", "H100", "--threads", "1024", "--regs", "64", "--cluster-size", "16", "--non-portable")
        self.assertEqual(rc, 0, err)
        self.assertEqual(r["clusters"]["max_active_clusters"], 8)
        rc, out, err = run("advise", "--gpu", "H100", "--threads", "1024", "--regs", "64", "--cluster-size", "16")
        self.assertEqual(rc, 2)
        self.assertIn("non_portable", err)
        rc, out, err = run("advise", "--gpu", "A100", "--cluster-size", "2")
        self.assertEqual(rc, 0)   # the advice still stands; the cluster section carries the error
        self.assertIn("9.0", out)

    def test_bad_input_exits_2(self):
        for args in (["--regs", "300"], ["--gpu", "nope"], ["--gpc-sms", "a,b"], ["--target-blocks", "0"]):
            rc, _, err = run("advise", *args)
            self.assertEqual(rc, 2, args)
            self.assertIn("error", err)


class Ptxas(unittest.TestCase):
    def test_table_from_file(self):
        rc, out, err = run("occupancy", "--ptxas", os.path.join(FIX, "kernels_sm80.log"), "--gpu", "A100", "--threads", "256")
        self.assertEqual(rc, 0, err)
        self.assertIn("transpose_tile", out)
        self.assertIn("block_reduce<double, 512>", out)
        self.assertIn("3456/4080", out)   # spill_heavy's spill stores/loads
        self.assertIn("helper_poly", out)  # device function listed
        self.assertIn("warps, registers", out)

    def test_stdin_and_json(self):
        with open(os.path.join(FIX, "mixed_build_sm86.log")) as f:
            log = f.read()
        rc, r, err = run_json("occupancy", "--ptxas", "-", stdin=log)
        self.assertEqual(rc, 0, err)
        self.assertEqual(len(r["kernels"]), 8)
        self.assertTrue(all(k["device"] == "cc 8.6" for k in r["kernels"]))
        self.assertGreater(r["summary"]["skipped_lines"], 0)

    def test_fat_log_on_h100(self):
        rc, out, err = run("occupancy", "--ptxas", os.path.join(FIX, "kernels_fat_sm80_sm90.log"), "--gpu", "H100")
        self.assertEqual(rc, 0, err)
        self.assertIn("sm_90", out)
        self.assertIn("skipped:", out)

    def test_every_architecture(self):
        for sm in ("75", "80", "90", "100", "120"):
            rc, r, err = run_json("occupancy", "--ptxas", os.path.join(FIX, f"kernels_sm{sm}.log"))
            self.assertEqual(rc, 0, err)
            self.assertEqual(len(r["kernels"]), 8, sm)
            self.assertTrue(all(k["error"] is None for k in r["kernels"]), sm)

    def test_errors_exit_2(self):
        rc, _, err = run("occupancy", "--ptxas", "/no/such/file.log")
        self.assertEqual(rc, 2)
        self.assertIn("cannot read", err)
        rc, _, err = run("occupancy", "--ptxas", "-", stdin="just some text\n")
        self.assertEqual(rc, 2)
        self.assertIn("no kernels", err)
        rc, _, err = run("occupancy", "--ptxas", os.path.join(FIX, "kernels_sm80.log"), "--regs", "32")
        self.assertEqual(rc, 2)
        self.assertIn("regs", err)

    def test_help_has_examples(self):
        for cmd in ("roofline", "advise"):
            rc, out, _ = run(cmd, "--help")
            self.assertEqual(rc, 0)
            self.assertIn("Examples:", out)
        rc, out, _ = run("occupancy", "--help")
        self.assertIn("--ptxas", out)


if __name__ == "__main__":
    unittest.main()
