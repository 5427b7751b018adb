#!/usr/bin/env python3
"""End-to-end tests of `occ occupancy` and `occ gpus`: output, JSON, batch, exit codes, bad flags."""
import json
import unittest

from occ_cli import run


class Occupancy(unittest.TestCase):
    def test_seed_example_human_table(self):
        # ../shared/MODEL.md: A100, 256 threads x 64 regs -> 4 blocks, 50 %.
        rc, out, err = run("occupancy", "--gpu", "A100-SXM4-80GB", "--threads", "256", "--regs", "64")
        self.assertEqual(rc, 0, err)
        self.assertIn("Occupancy        50%", out)
        self.assertIn("4 blocks, 32 warps, 1,024 threads", out)
        self.assertIn("limited by registers", out)
        self.assertIn("Registers / warp    2,048 regs (64 x 32, rounded up to 256)", out)

    def test_issue_example_json(self):
        rc, out, err = run("occupancy", "--gpu", "A100-SXM4-80GB", "--threads", "256", "--regs", "64",
                           "--smem-dynamic", "48K", "--optin", "--json")
        self.assertEqual(rc, 0, err)
        r = json.loads(out)
        self.assertEqual(r["blocks_per_sm"], 3)
        self.assertEqual(r["limiters"], ["shared_memory"])
        self.assertEqual(r["smem_per_block_allocated"], 49 * 1024)
        self.assertEqual(r["smem_per_sm_configured"], 164 * 1024)
        self.assertEqual(r["limits"]["registers"], 4)
        self.assertIsNone(r["limits"]["barriers"])
        self.assertIsNone(r["error"])
        self.assertEqual(r["device"]["name"], "A100-SXM4-80GB")

    def test_sizes_accept_all_spellings(self):
        outs = []
        for s in ("48K", "48KiB", "49152"):
            rc, out, _ = run("occupancy", "--gpu", "a100", "--smem-dynamic", s, "--json")
            self.assertEqual(rc, 0)
            outs.append(json.loads(out)["smem_per_block_allocated"])
        self.assertEqual(outs, [50176] * 3)

    def test_bad_values_exit_2_with_field_and_range(self):
        rc, _, err = run("occupancy", "--threads", "0")
        self.assertEqual(rc, 2)
        self.assertIn("threads must be 1..1024", err)
        rc, _, err = run("occupancy", "--regs", "300")
        self.assertEqual(rc, 2)
        self.assertIn("regs must be 0..255", err)
        rc, _, err = run("occupancy", "--smem-dynamic", "-4K")
        self.assertEqual(rc, 2)
        self.assertIn("smem_dynamic", err)
        rc, _, err = run("occupancy", "--gpu", "H100-SMX5")
        self.assertEqual(rc, 2)
        self.assertIn('did you mean "H100-SXM5-80GB"', err)
        rc, _, err = run("occupancy", "--gpu", "a100", "--smem-dynamic", "64K")
        self.assertEqual(rc, 2)
        self.assertIn("opt in", err)

    def test_bad_flags_exit_2(self):
        rc, _, err = run("occupancy", "--no-such-flag")
        self.assertEqual(rc, 2)
        rc, _, _ = run("frobnicate")
        self.assertEqual(rc, 2)
        rc, _, _ = run()
        self.assertEqual(rc, 2)

    def test_an_error_prints_the_error_only(self):
        # A refused launch used to print "256 threads (0 warps)" and "Block slots 0" before the error.
        for args in (["--gpu", "A100", "--threads", "256", "--regs", "300"], ["--gpu", "a100", "--smem-dynamic", "64K"],
                     ["--gpu", "MI300X", "--threads", "256", "--regs", "600"]):
            rc, out, err = run("occupancy", *args)
            self.assertEqual(rc, 2, args)
            self.assertEqual(out, "", args)
            self.assertTrue(err.startswith("error: "), args)
        # --json still gives the whole answer: every limit and the error.
        rc, out, _ = run("occupancy", "--gpu", "A100", "--regs", "300", "--json")
        self.assertEqual(rc, 2)
        self.assertEqual(json.loads(out)["error"], "regs must be 0..255 (registers per thread), got 300")

    def test_typos_get_the_nearest_command_and_flag(self):
        for args, hint in ((["ocupancy"], 'did you mean "occ occupancy"?'), (["kernel", "x.so"], 'did you mean "occ kernels"?'),
                           (["occupancy", "--thread", "256"], 'did you mean "--threads"?'),
                           (["occupancy", "--smem-dynamc=48K"], 'did you mean "--smem-dynamic"?'),
                           (["coalesce", "--strid", "2"], 'did you mean "--stride"?')):
            rc, out, err = run(*args)
            self.assertEqual(rc, 2, args)
            self.assertIn(hint, err, args)
        rc, _, err = run("frobnicate")
        self.assertIn('unknown command "frobnicate" (occ --help lists the commands)', err)
        # --batch and JSON: the nearest field, or the one another tool's name stands for.
        for line, hint in (('{"thread":256}', 'did you mean "threads"?'), ('{"num_warps":4}', 'did you mean "threads" (threads per block'),
                           ('{"smem":"48K"}', 'did you mean "smem_dynamic"'), ('{"numRegs":32}', 'did you mean "regs"?')):
            rc, out, _ = run("occupancy", "--batch", stdin=line + "\n")
            self.assertEqual(rc, 1)
            self.assertIn(hint, json.loads(out)["error"], line)

    def test_help_teaches(self):
        rc, out, _ = run("occupancy", "--help")
        self.assertEqual(rc, 0)
        self.assertIn("--smem-dynamic", out)
        self.assertIn("Example", out)

    def test_custom_device_inline(self):
        dev = json.dumps({"major": 9, "minor": 0, "multiProcessorCount": 66, "name": "half-h100"})
        rc, out, err = run("occupancy", "--device", dev, "--threads", "128", "--json")
        self.assertEqual(rc, 0, err)
        self.assertEqual(json.loads(out)["device"]["sm_count"], 66)


class Sweep(unittest.TestCase):
    def test_register_sweep_steps(self):
        # A100, 256 threads: 64 regs -> 4 blocks, 65 -> 3 (2,080 -> 2,304 per warp), 33 -> 6.
        rc, out, _ = run("occupancy", "--gpu", "A100", "--threads", "256", "--regs", "64", "--sweep", "regs", "--json")
        self.assertEqual(rc, 0)
        pts = {p["x"]: p["blocks_per_sm"] for p in json.loads(out)["sweep"]["points"]}
        self.assertEqual(pts[49], 4)
        self.assertEqual(pts[65], 3)
        self.assertEqual(pts[33], 6)
        self.assertEqual(pts[0], 8)
        rc, out, _ = run("occupancy", "--gpu", "A100", "--regs", "64", "--sweep", "regs")
        self.assertIn("sweep of regs", out)
        rc, _, err = run("occupancy", "--sweep", "bogus")
        self.assertEqual(rc, 2)
        self.assertIn("sweep: must be one of none, threads, regs, smem", err)


class Batch(unittest.TestCase):
    def test_batch_lines_align_and_match_single_queries(self):
        reqs = [{"gpu": "A100", "threads": t, "regs": r, "smem_dynamic": s, "optin": True}
                for t in (64, 256, 1000) for r in (0, 32, 64, 128) for s in (0, 20000)]
        lines = [json.dumps(q) for q in reqs]
        lines.insert(3, "this is not json")
        lines.insert(7, json.dumps({"gpu": "A100", "threds": 5}))
        rc, out, _ = run("occupancy", "--batch", stdin="\n".join(lines) + "\n")
        self.assertEqual(rc, 1)   # some lines failed
        got = out.splitlines()
        self.assertEqual(len(got), len(lines))
        self.assertIn("not valid JSON", json.loads(got[3])["error"])
        self.assertIn('did you mean "threads"', json.loads(got[7])["error"])
        good = [json.loads(g) for i, g in enumerate(got) if i not in (3, 7)]
        for q, r in zip(reqs, good):
            rc, out, _ = run("occupancy", "--gpu", q["gpu"], "--threads", str(q["threads"]), "--regs", str(q["regs"]),
                             "--smem-dynamic", str(q["smem_dynamic"]), "--optin", "--json")
            self.assertEqual(json.loads(out), r)

    def test_batch_all_good_exits_0(self):
        rc, out, _ = run("occupancy", "--batch", stdin='{"cc":"9.0","threads":128,"regs":90}\n{"gpu":"t4"}\n')
        self.assertEqual(rc, 0)
        self.assertEqual([json.loads(l)["blocks_per_sm"] for l in out.splitlines()], [5, 4])


class Gpus(unittest.TestCase):
    def test_lists_database(self):
        rc, out, _ = run("gpus")
        self.assertEqual(rc, 0)
        for name in ("H100-SXM5-80GB", "RTX-4090", "Jetson-AGX-Orin", "Tesla-K80", "B200"):
            self.assertIn(name, out)
        rc, out, _ = run("gpus", "--json")
        db = json.loads(out)
        self.assertGreaterEqual(len(db["gpus"]), 30)
        self.assertEqual(len(db["archs"]), 22)
        rc, out, _ = run("gpus", "--archs")
        self.assertIn("164 KiB", out)
        by_name = {g["name"]: g for g in db["gpus"]}
        self.assertIn("NVIDIA H100 80GB HBM3", by_name["H100-SXM5-80GB"]["driver_names"])

    def test_driver_printed_names(self):
        # What nvidia-smi and torch.cuda.get_device_name() print resolves to the catalogue entry.
        for printed, canonical in (("NVIDIA H100 80GB HBM3", "H100-SXM5-80GB"), ("NVIDIA A10G", "A10G"),
                                   ("NVIDIA RTX PRO 6000 Blackwell Server Edition", "RTX-PRO-6000-Blackwell")):
            rc, out, err = run("occupancy", "--gpu", printed, "--threads", "256", "--json")
            self.assertEqual(rc, 0, err)
            self.assertEqual(json.loads(out)["device"]["name"], canonical)

    def test_unknown_long_name_refused_whole(self):
        name = "NVIDIA RTX PRO 6000 Blackwell Server Edition Rev 2 Experimental"
        rc, out, err = run("occupancy", "--gpu", name, "--threads", "256", "--json")
        self.assertNotEqual(rc, 0)
        msg = json.loads(out)["error"] if out.strip().startswith("{") else err
        self.assertIn('unknown GPU "' + name + '"', msg)
        rc, out, err = run("occupancy", "--gpu", name, "--threads", "256")
        self.assertNotEqual(rc, 0)
        self.assertIn('"' + name + '"', out + err)

    def test_ambiguous_name_lists_choices(self):
        rc, out, err = run("occupancy", "--gpu", "rtx6000", "--threads", "256")
        self.assertNotEqual(rc, 0)
        text = out + err
        for choice in ("Quadro-RTX-6000 (72 SMs)", "RTX-6000-Ada (142 SMs)", "RTX-PRO-6000-Blackwell (188 SMs)"):
            self.assertIn(choice, text)


if __name__ == "__main__":
    unittest.main(verbosity=1)
