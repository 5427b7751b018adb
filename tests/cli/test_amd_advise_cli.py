#!/usr/bin/env python3
"""`occ advise` for AMD GPUs (--gpu MI300X, --arch gfx942): the table, --json and --batch agree, the
advice applied through `occ occupancy` reaches what it promises, and the NVIDIA-only parts are absent.
Known answers (tests/unit/test_amd_advisor.cpp cites them):
  [LLVM]     AMDGPUBaseInfo.cpp getNumWavesPerEUWithNumVGPRs: gfx942, 512 VGPRs per SIMD in granules
             of 8: 96 VGPRs -> 5 waves per SIMD, 128 -> 4.
  [CALC]     llvm.org/docs/CommandGuide/llvm-calc-occupancy.html: gfx90a, 512 threads, 50 VGPRs,
             30 SGPRs -> 8 waves/EU.
  [CLR10618] ROCm/rocm-systems PR 10618: gfx942, one-wave workgroups at 92 SGPRs -> 28 per CU."""
import json
import unittest

from occ_cli import query, run


def batch(kind, *requests):
    rc, out, err = run(kind, "--batch", stdin="".join(json.dumps(r) + "\n" for r in requests))
    return rc, [json.loads(line) for line in out.splitlines()]


class AmdAdvise(unittest.TestCase):
    def test_vgpr_cut_on_mi300x(self):
        a = query("advise", "--gpu", "MI300X", "--threads", "256", "--regs", "128", "--grid", "5000")
        self.assertEqual(a["vendor"], "AMD")
        self.assertEqual(a["device"]["isa"], "gfx942")
        r = a["registers"]
        self.assertEqual((r["regs"], r["blocks_per_sm"], r["regs_to_gain_block"]), (128, 4, 96))  # [LLVM]
        self.assertEqual(r["after_cut"]["blocks_per_sm"], 5)
        self.assertEqual(r["after_cut"]["waves_per_simd"], 5)
        self.assertEqual(r["amdgpu_waves_per_eu"], 5)
        self.assertTrue(any("__launch_bounds__(256, 5)" in s for s in a["suggestions"]))
        # Applied: `occ occupancy` with the suggested VGPRs reaches the promised workgroups.
        o = query("occupancy", "--gpu", "MI300X", "--threads", "256", "--regs", str(r["regs_to_gain_block"]))
        self.assertEqual(o["blocks_per_sm"], r["after_cut"]["blocks_per_sm"])
        self.assertEqual(o["occupancy"], r["after_cut"]["occupancy"])
        # Waves: 4 workgroups per CU x 304 CUs.
        w = a["waves"]
        self.assertEqual((w["unit"], w["sm_count"], w["blocks_per_wave"]), ("CU", 304, 1216))
        self.assertEqual(w["tail_blocks"], 5000 - 4 * 1216)
        self.assertIsNone(w["achieved_occupancy"])
        self.assertIn("NVIDIA", w["achieved_occupancy_unknown"])
        # The NVIDIA-only parts are absent, not zero.
        self.assertNotIn("clusters", a)
        self.assertNotIn("register_pool", a)
        self.assertNotIn("effective", a["occupancy"])

    def test_advice_applied_over_a_sweep(self):
        # Every cut advised, applied through `occ occupancy --batch`, fits the workgroups it promises.
        reqs = [{"gpu": g, "threads": t, "regs": v, "smem_dynamic": lds}
                for g in ("MI300X", "MI355X", "RX-7900-XTX") for t in (64, 256, 1024) for v in (40, 100, 170)
                for lds in (0, 20000)]
        rc, answers = batch("advise", *reqs)  # exit 1: 1024 threads x 170 VGPRs do not fit (an answer with its error)
        self.assertEqual(len(answers), len(reqs))
        applied, promised = [], []
        for req, a in zip(reqs, answers):
            for part, key, field in (("registers", "regs_to_gain_block", "regs"),
                                     ("shared_memory", "dynamic_to_gain_block", "smem_dynamic")):
                if a[part].get(key) is not None:
                    applied.append(dict(req, **{field: a[part][key]}))
                    promised.append(a[part]["after_cut"]["blocks_per_sm"])
        self.assertGreater(len(applied), 10)
        rc, got = batch("occupancy", *applied)
        self.assertEqual(rc, 0)  # every cut fits
        self.assertEqual([g["blocks_per_sm"] for g in got], promised)

    def test_table_json_batch_agree(self):
        flags = ["--arch", "gfx90a", "--threads", "512", "--regs", "50", "--sgprs", "30"]
        j = query("advise", *flags)
        rc, b = batch("advise", {"arch": "gfx90a", "threads": 512, "regs": 50, "sgprs": 30})
        self.assertEqual(rc, 0)
        self.assertEqual(b[0], j)
        self.assertEqual(j["occupancy"]["waves_per_simd"], 8)  # [CALC]
        self.assertIsNone(j["registers"]["regs_to_gain_block"])
        self.assertEqual(j["registers"]["headroom"], 14)
        self.assertIsNone(j["block_size"]["min_grid_blocks"])  # a bare target has no CU count
        self.assertIsNotNone(j["waves"]["error"])
        rc, out, err = run("advise", *flags)
        self.assertEqual(rc, 0, err)
        for s in j["suggestions"]:
            self.assertIn(s, out)
        self.assertIn(j["registers"]["note"], out)
        self.assertIn("groups per CU", out)

    def test_sgpr_limited(self):
        a = query("advise", "--gpu", "MI300X", "--threads", "64", "--regs", "8", "--sgprs", "92")
        self.assertEqual(a["occupancy"]["blocks_per_sm"], 28)  # [CLR10618]
        self.assertEqual(a["occupancy"]["limiters"], ["sgprs"])
        self.assertIn("limited by SGPRs", a["registers"]["note"])

    def test_refusals(self):
        rc, out, err = run("advise", "--gpu", "MI300X", "--threads", "256", "--cluster-size", "2")
        self.assertEqual(rc, 2)
        self.assertIn("cluster_size", err)
        self.assertIn("NVIDIA GPUs only", err)
        rc, out, err = run("advise", "--gpu", "A100", "--threads", "256", "--sgprs", "40")
        self.assertEqual(rc, 2)
        self.assertIn("sgprs", err)
        self.assertIn("AMD GPUs only", err)
        rc, out, err = run("advise", "--gpu", "MI300X", "--regs", "300")
        self.assertEqual(rc, 2)
        self.assertIn("regs must be 0..256", err)


if __name__ == "__main__":
    unittest.main()
