#!/usr/bin/env python3
"""AMD GPUs through the CLI: `occ occupancy --gpu MI300X` / `--arch gfx942` as a table, as JSON and
as a --batch line, `occ gpus`, and the refusals. The known answers are the public ones the core's
unit tests cite (tests/unit/test_amd.cpp, docs/AMD.md):
  [CALC]     llvm.org/docs/CommandGuide/llvm-calc-occupancy.html: gfx90a, 512 threads, 50 VGPRs,
             30 SGPRs -> "Occupancy: 8 waves/EU (32 waves/CU)".
  [CLR10618] ROCm/rocm-systems PR 10618: gfx942, one-wave workgroups at 92 SGPRs -> the hardware
             fit 28 blocks per CU (the runtime reported 32).
  [CLR11038] ROCm/rocm-systems PR 11038 review: CDNA3, 104 SGPRs -> six waves per SIMD.
  [WGP]      ROCm/rocm-systems PR 9571: a gfx11 WGP's workgroups share 128 KB of LDS."""
import json
import unittest

from occ_cli import query, run


def batch(*requests):
    rc, out, err = run("occupancy", "--batch", stdin="".join(json.dumps(r) + "\n" for r in requests))
    return rc, [json.loads(line) for line in out.splitlines()]


class AmdOccupancy(unittest.TestCase):
    def test_calc_example_by_arch(self):
        a = query("occupancy", "--arch", "gfx90a", "--threads", "512", "--regs", "50", "--sgprs", "30")
        self.assertEqual(a["vendor"], "AMD")
        self.assertEqual(a["waves_per_simd"], 8)
        self.assertEqual(a["warps_per_sm"], 32)  # waves per CU
        self.assertEqual(a["occupancy"], 1.0)
        self.assertEqual(a["device"]["isa"], "gfx90a")
        self.assertIsNone(a["device"]["compute_units"])  # a target, not a product
        self.assertEqual(a["input"]["arch"], "gfx90a")

    def test_trap_handler_sgprs_on_mi300x(self):
        a = query("occupancy", "--gpu", "MI300X", "--threads", "64", "--regs", "8", "--sgprs", "92")
        self.assertEqual(a["blocks_per_sm"], 28)  # [CLR10618]: 28 per CU on the hardware
        self.assertEqual(a["limiters"], ["sgprs"])
        self.assertEqual(a["llvm_waves_per_simd"], 8)  # LLVM 19's estimate: the over-report
        self.assertIn("LLVM's estimate", a["why"])
        self.assertEqual(a["device"]["compute_units"], 304)
        b = query("occupancy", "--gpu", "MI300X", "--threads", "64", "--regs", "8", "--sgprs", "104")
        self.assertEqual(b["waves_per_simd"], 6)  # [CLR11038]

    def test_rdna_wgp_lds(self):
        a = query("occupancy", "--gpu", "RX 7900 XTX", "--threads", "256", "--regs", "32", "--smem-static", "32K")
        self.assertEqual(a["unit"], "WGP")
        self.assertEqual(a["limits"]["lds"], 4)  # 128 KB per WGP [WGP] / 32 KB
        self.assertEqual(a["limiters"], ["lds"])
        c = query("occupancy", "--gpu", "RX 7900 XTX", "--threads", "256", "--regs", "32", "--smem-static", "32K", "--cu-mode")
        self.assertEqual(c["unit"], "CU")
        self.assertEqual(c["limits"]["lds"], 2)  # 64 KB per CU

    def test_same_answer_from_every_path(self):
        req = {"gpu": "AMD Instinct MI300X", "threads": 512, "regs": 81, "smem_static": 4096}
        rc, [line] = batch(req)
        self.assertEqual(rc, 0)
        flags = query("occupancy", "--gpu", "AMD Instinct MI300X", "--threads", "512", "--regs", "81", "--smem-static", "4096")
        self.assertEqual(line, flags)
        # Whole workgroups: 88 VGPRs -> 5 waves per SIMD = 20 slots = 2 workgroups of 8 waves.
        self.assertEqual(line["blocks_per_sm"], 2)
        self.assertEqual(line["waves_per_simd"], 4)
        self.assertEqual(line["llvm_waves_per_simd"], 5)
        # The echo is a request that gives the same answer again.
        rc, [again] = batch(line["input"])
        self.assertEqual(again["blocks_per_sm"], 2)

    def test_table(self):
        rc, out, err = run("occupancy", "--gpu", "MI300X", "--threads", "256", "--regs", "128", "--sgprs", "40")
        self.assertEqual(rc, 0, err)
        self.assertIn("MI300X  AMD gfx942 CDNA3, 304 CUs", out)
        self.assertIn("4 of 8 waves per SIMD (50%)", out)
        self.assertIn("limited by VGPRs", out)
        self.assertIn("To fit at most 96 VGPRs+AGPRs per lane", out)

    def test_launch_that_fails(self):
        rc, out, err = run("occupancy", "--gpu", "MI300X", "--threads", "1024", "--regs", "256", "--json")
        self.assertEqual(rc, 2)
        a = json.loads(out)
        self.assertEqual(a["blocks_per_sm"], 0)
        self.assertIn("needs more registers", a["error"])
        # 1024 threads = 16 waves, 4 per SIMD; 256 VGPRs allow 2: the VGPRs are what limits, named
        # as NVIDIA names "registers" for a block its register file cannot hold.
        self.assertEqual(a["limits"]["vgprs"], 0)
        self.assertEqual(a["limiters"], ["vgprs"])
        rc, [b] = batch({"arch": "gfx942", "threads": 256, "regs": 32, "sgprs": 20})
        self.assertEqual(b["limiters"], ["wave_slots"])  # an answer keeps the limits equal to it

    def test_max_threads_flag(self):
        # --max-threads on an AMD GPU: the kernel's .max_flat_workgroup_size (HIP __launch_bounds__);
        # a larger workgroup fails to launch: the error alone on stderr, exit 2, the answer in --json.
        rc, out, err = run("occupancy", "--gpu", "MI300X", "--threads", "512", "--regs", "32", "--max-threads", "256")
        self.assertEqual(rc, 2)
        self.assertEqual(out, "")
        self.assertIn("exceeds the kernel's max_flat_workgroup_size 256", err)
        rc, out, err = run("occupancy", "--gpu", "MI300X", "--threads", "512", "--regs", "32", "--max-threads", "256", "--json")
        self.assertEqual(rc, 2)
        self.assertEqual(json.loads(out)["input"]["max_threads"], 256)
        rc, out, err = run("occupancy", "--gpu", "MI300X", "--threads", "256", "--regs", "32", "--max-threads", "256")
        self.assertEqual(rc, 0, err)
        self.assertIn("8 of 8 waves per SIMD", out)

    def test_grid_waves(self):
        # MI300X: 304 CUs (the catalogue's AMD datasheet figure). 256 threads = 4 waves, one per SIMD;
        # 64 VGPRs allow 8 waves per SIMD, so 8 workgroups per CU and 8 x 304 = 2432 per wave.
        # 5000 = 2 x 2432 + 136: a tail of 136 workgroups (5.6 % of a wave).
        rc, out, err = run("occupancy", "--gpu", "MI300X", "--threads", "256", "--regs", "64", "--grid", "5000")
        self.assertEqual(rc, 0, err)
        self.assertIn("Workgroups / wave   2,432 workgroups (8 / CU x 304 CUs)", out)
        self.assertIn("2.06 waves: 2 full + a tail of 136 workgroups (5.6% full); grid 4864 or 7296 ends on a whole wave", out)
        # The grid reads back from --batch's echo, and advise's waves agree with the table.
        rc, [a] = batch({"gpu": "MI300X", "threads": 256, "regs": 64, "grid": 5000})
        self.assertEqual(a["input"]["grid"], 5000)
        rc, out, err = run("advise", "--gpu", "MI300X", "--threads", "256", "--regs", "64", "--grid", "5000", "--json")
        w = json.loads(out)["waves"]
        self.assertEqual((w["blocks_per_wave"], w["tail_blocks"], w["full_waves"]), (2432, 136, 2))
        # A bare target has no CU count: no wave rows.
        rc, out, err = run("occupancy", "--arch", "gfx942", "--threads", "256", "--regs", "64", "--grid", "5000")
        self.assertEqual(rc, 0, err)
        self.assertNotIn("Workgroups / wave", out)

    def test_refusals_name_the_field(self):
        rc, answers = batch({"gpu": "MI300X", "carveout": 50}, {"gpu": "A100", "sgprs": 40}, {"arch": "gfx999"},
                            {"gpu": "MI300X", "regs": 300}, {"gpu": "MI300X", "cu_mode": True})
        errors = [a["error"] for a in answers]
        self.assertTrue(errors[0].startswith("carveout: applies to NVIDIA GPUs only; MI300X is an AMD GPU"))
        self.assertTrue(errors[1].startswith("sgprs: applies to AMD GPUs only"))
        self.assertTrue(errors[2].startswith('arch: unknown AMD target "gfx999"; known: gfx908'))
        self.assertEqual(errors[3], "regs must be 0..256 (VGPRs per lane), got 300")
        self.assertTrue(errors[4].startswith("cu_mode: applies to RDNA targets only"))
        rc, out, err = run("coalesce", "--gpu", "MI300X")
        self.assertEqual(rc, 2)
        self.assertIn("MI300X is an AMD GPU: `occ occupancy`, `occ advise` and `occ banks` model it", err)

    def test_gpus_lists_amd(self):
        db = query("gpus")
        names = {g["name"]: g for g in db["amd_gpus"]}
        self.assertEqual(names["MI300X"]["compute_units"], 304)
        self.assertEqual(names["MI355X"]["isa"], "gfx950")
        self.assertEqual({t["isa"] for t in db["amd_targets"]} >= {"gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1201"}, True)
        rc, out, err = run("gpus")
        self.assertIn("MI300X                   gfx942", out)
        rc, out, err = run("gpus", "--archs")
        self.assertIn("gfx950", out)


if __name__ == "__main__":
    unittest.main()
