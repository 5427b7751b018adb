#!/usr/bin/env python3
"""AMD GPUs from Python: occ.occupancy(gpu="MI300X", ...) answers what `occ occupancy --batch`
answers, the AMD fields are listed by occ.fields("occupancy"), and a bad one raises ValueError
with the CLI's message. Known answers as in tests/cli/test_amd_cli.py: [CALC] the
llvm-calc-occupancy manual's example (gfx90a, 512 threads, 50 VGPRs, 30 SGPRs: 8 waves/EU);
[CLR10618] ROCm/rocm-systems PR 10618 (gfx942, one-wave workgroups at 92 SGPRs: 28 per CU)."""
import json
import os
import subprocess
import unittest

import occ

ROOT = os.environ.get("OCC_SOURCE_DIR") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OCC_BIN = os.environ.get("OCC_BIN", os.path.join(ROOT, "build", "native", "bin", "occ"))


def cli(request, kind="occupancy"):
    p = subprocess.run([OCC_BIN, kind, "--batch"], input=json.dumps(request) + "\n", capture_output=True, text=True,
                       timeout=60)
    return json.loads(p.stdout)


class Amd(unittest.TestCase):
    def test_known_answers(self):
        r = occ.occupancy(arch="gfx90a", threads=512, regs=50, sgprs=30)
        self.assertEqual((r.waves_per_simd, r.warps_per_sm, r.occupancy), (8, 32, 1.0))  # [CALC]
        r = occ.occupancy(gpu="MI300X", threads=64, regs=8, sgprs=92)
        self.assertEqual((r.blocks_per_sm, r.limiters, r.llvm_waves_per_simd), (28, ["sgprs"], 8))  # [CLR10618]

    def test_equals_cli(self):
        for req in ({"gpu": "MI300X", "threads": 256, "regs": 128, "sgprs": 40},
                    {"gpu": "MI355X", "threads": 512, "regs": 64, "agprs": 64, "smem_dynamic": 96 * 1024},
                    {"arch": "gfx1201", "block": [16, 16], "regs": 120, "wave_size": 64},
                    {"gpu": "RX 7900 XTX", "threads": 1024, "regs": 64, "cu_mode": True}):
            with self.subTest(req=req):
                self.assertEqual(occ.occupancy(**req).to_dict(), cli(req))

    def test_fields_and_errors(self):
        keys = {f["key"] if isinstance(f, dict) else f.key for f in occ.fields("occupancy")}
        self.assertTrue({"arch", "agprs", "sgprs", "wave_size", "cu_mode"} <= keys)
        with self.assertRaises(ValueError) as e:
            occ.occupancy(gpu="MI300X", regs=300)
        self.assertEqual(str(e.exception), cli({"gpu": "MI300X", "regs": 300})["error"])
        # A workgroup whose registers do not fit is an answer with its error, as in the CLI.
        r = occ.occupancy(gpu="MI300X", threads=1024, regs=256)
        self.assertEqual(r.blocks_per_sm, 0)
        self.assertIn("needs more registers", r.error)

    def test_advise_and_waves(self):
        # occ.advise / occ.waves answer an AMD GPU as `occ advise --batch` does ([LLVM] in
        # tests/cli/test_amd_advise_cli.py: gfx942, 128 VGPRs -> 96 gains a workgroup).
        req = {"gpu": "MI300X", "threads": 256, "regs": 128, "grid": 5000}
        a = occ.advise(**req)
        self.assertEqual(a.to_dict(), cli(req, "advise"))
        self.assertEqual(a.registers["regs_to_gain_block"], 96)
        self.assertEqual(a.registers["amdgpu_waves_per_eu"], 5)
        self.assertEqual(occ.occupancy(gpu="MI300X", threads=256, regs=96).blocks_per_sm, 5)
        w = occ.waves(**req)
        self.assertEqual((w.blocks_per_wave, w.tail_blocks, w.unit), (1216, 5000 - 4864, "CU"))
        self.assertEqual(w.to_dict()["waves"], a.to_dict()["waves"]["waves"])
        with self.assertRaises(ValueError) as e:
            occ.advise(gpu="MI300X", cluster_size=2)
        self.assertIn("cluster_size", str(e.exception))


if __name__ == "__main__":
    unittest.main()
