#!/usr/bin/env python3
"""End-to-end tests of `occ banks` for AMD GPUs: LDS bank conflicts of a wave on
MI300X / gfx942, MI355X / gfx950 and RDNA, --batch equal to --json, and the refusals.

Known answers (docs/AMD.md "LDS bank conflicts" lists the sources):
  [EMP]   github.com/nod-ai/amd-shark-ai docs/empirical-lds/cdna3info.md: rocprof bank conflicts per
          64 ds_read on MI300X (stride sweeps); cdna4info.md: MI350X reads have 64 banks
  [BLOG]  rocm.blogs.amd.com/software-tools-optimization/lds-bank-conflict/README.html ("Naive
          Solution": the MFMA A-tile ds_read_b128 is 2-way)
"""
import json
import unittest

from occ_cli import query, run

W64 = ["--threads", "64"]

# (flags, expected fields). Conflicts per ds_read = [EMP]'s count per 64-read block / 64.
CASES = [
    # Without threads or block: one full wave (64 lanes on CDNA), not CUDA's warp of 32.
    (["--gpu", "MI300X"], {"wavefronts": 2, "warps": 1, "ideal_wavefronts": 2, "conflicts": 0, "max_way": 1,
                                 "instruction": "ds_read_b32", "banks": 32, "phases": 2, "lanes_per_phase": 32}),
    (["--gpu", "MI300X", *W64, "--stride", "2"], {"conflicts": 2, "max_way": 2}),                  # 128 / 64
    (["--gpu", "MI300X", *W64, "--stride", "32"], {"conflicts": 62, "max_way": 32}),               # 3968 / 64
    (["--arch", "gfx942", *W64, "--access-bytes", "8", "--stride", "4"], {"conflicts": 12}),       # 768 / 64
    (["--arch", "gfx942", *W64, "--access-bytes", "16", "--stride", "2"],
     {"conflicts": 8, "phases": 8, "lanes_per_phase": 8, "instruction": "ds_read_b128"}),          # 512 / 64
    (["--arch", "gfx942", *W64, "--access-bytes", "16", "--stride", "8"], {"conflicts": 56}),      # 3584 / 64
    (["--gpu", "MI300X", *W64, "--stride", "0"], {"wavefronts": 2, "conflicts": 0}),               # broadcast
    (["--gpu", "MI300X", *W64, "--op", "store", "--access-bytes", "16"],
     {"conflicts": 0, "instruction": "ds_write_b128"}),
    # gfx950 reads: 64 banks; a ds_read_b64 stride of 128 B is 16-way there (and on gfx942, in 16-lane phases).
    (["--gpu", "MI355X", *W64, "--access-bytes", "8", "--stride", "16"], {"max_way": 16, "banks": 64, "phases": 2}),
    (["--gpu", "MI355X", *W64, "--access-bytes", "8", "--stride", "32"], {"max_way": 32}),
    (["--gpu", "MI355X", *W64], {"wavefronts": 1, "phases": 1, "lanes_per_phase": 64}),
    # RDNA: wave32 by default, one phase of 32 for b32.
    (["--arch", "gfx1100", "--threads", "32", "--stride", "32"], {"wave_size": 32, "wavefronts": 32, "max_way": 32}),
    (["--arch", "gfx1201", "--threads", "64"], {"warps": 2, "wave_size": 32}),
    (["--arch", "gfx1100", "--threads", "64", "--wave-size", "64"], {"warps": 1, "wave_size": 64, "phases": 2}),
    # A 2-D tile read down a column: the padding and swizzle the CUDA answer offers, evaluated on gfx942.
    (["--gpu", "MI300X", "--block", "32,32", "--order", "column"],
     {"max_way": 32, "warps": 16, "conflicts_padded": 0, "conflicts_swizzled": 0}),
    (["--gpu", "MI300X", "--addresses", "0,128,256,-"], {"wavefronts": 3, "max_way": 3, "warps": 1}),
    (["--gpu", "MI300X", "--active-lanes", "0-15,32-47", *W64, "--stride", "32"], {"max_way": 16, "wavefronts": 32}),
    (["--gpu", "MI300X", "--active-lanes", "0x0"], {"wavefronts": 0, "ideal_wavefronts": 0, "efficiency": None}),
]


def blog_tile_addresses():
    """[BLOG] A [64 x 32] fp16 tile, 64-byte rows; lane l reads row l % 16 at column 8 * (l // 16)."""
    return ",".join(str((lane % 16) * 64 + (lane // 16) * 16) for lane in range(64))


class AmdBanks(unittest.TestCase):
    def test_cases(self):
        for flags, expected in CASES:
            with self.subTest(flags=flags):
                a = query("banks", *flags)
                self.assertEqual(a["vendor"], "AMD")
                self.assertIsNone(a["error"])
                for k, v in expected.items():
                    self.assertEqual(a[k], v, k)

    def test_blog_mfma_tile_is_2_way(self):
        a = query("banks", "--gpu", "MI300X", "--access-bytes", "16", "--addresses", blog_tile_addresses())
        self.assertEqual((a["max_way"], a["wavefronts"], a["ideal_wavefronts"]), (2, 16, 8))
        self.assertAlmostEqual(a["efficiency"], 0.5)

    def test_which_lanes_collide(self):
        a = query("banks", "--gpu", "MI300X", *W64, "--stride", "2")
        w = a["per_warp"][0]
        self.assertEqual(len(w["lane_address"]), 64)
        self.assertEqual(w["lane_bank"][16], 0)
        self.assertEqual(w["bank_lanes"][0], [0, 16, 32, 48])
        self.assertEqual(w["phase_wavefronts"], [2, 2])
        self.assertEqual(len(w["conflict_lanes"]), 64)
        self.assertIn("lanes 0, 16 ask bank 0", a["reason"])
        self.assertTrue(a["basis"]["measured"])
        self.assertFalse(query("banks", "--arch", "gfx90a", *W64)["basis"]["measured"])  # gfx942's, assumed
        # The CUDA keys mean the same: a warp's answer on an NVIDIA GPU has them too.
        cuda = query("banks", "--stride", "2")
        for k in ("wavefronts", "ideal_wavefronts", "conflicts", "max_way", "warps", "worst_warp", "per_warp", "reason", "fix"):
            self.assertIn(k, cuda)
            self.assertIn(k, a)

    def test_human_picture(self):
        rc, out, err = run("banks", "--gpu", "MI300X", *W64, "--access-bytes", "16", "--stride", "2")
        self.assertEqual(rc, 0, err)
        self.assertIn("ds_read_b128", out)
        self.assertIn("lanes 0-3, 20-23", out)
        self.assertIn("worst 2-way", out)
        for line in out.splitlines():
            self.assertLessEqual(len(line), 80, line)

    def test_batch_equals_single(self):
        line = {"gpu": "MI300X", "threads": 64, "stride": 2}
        rc, out, err = run("banks", "--batch", stdin=json.dumps(line) + "\n")
        self.assertEqual(rc, 0, err)
        self.assertEqual(json.loads(out), query("banks", "--gpu", "MI300X", "--threads", "64", "--stride", "2"))

    def test_refusals_exit_2(self):
        for flags, needle in [
            (["--gpu", "MI300X", "--tile", "64x64", "--ldmatrix", "x4"], "NVIDIA's tile model"),
            (["--gpu", "MI300X", "--expr", "A[threadIdx.x]"], "not modelled for AMD"),
            (["--gpu", "MI300X", "--access-bytes", "16", "--addresses", "0,8"], "not a multiple of 16"),
            (["--gpu", "MI300X", "--access-bytes", "16", "--offset", "8"], "occ models LDS accesses as naturally aligned"),
            (["--gpu", "MI300X", "--wave-size", "32"], "must be 0 or 64 on gfx942 (0 = the target's own, 64), got 32"),
            (["--gpu", "MI300X", "--cc", "9.0"], "NVIDIA GPUs only"),
            (["--gpu", "MI300X", "--access-bytes", "32"], "access_bytes"),
            (["--arch", "gfx9999"], "unknown AMD target"),
        ]:
            with self.subTest(flags=flags):
                rc, out, err = run("banks", *flags)
                self.assertEqual(rc, 2, out)
                self.assertIn(needle, err)
        # Coalescing (global memory) stays NVIDIA-only.
        rc, _, err = run("coalesce", "--gpu", "MI300X")
        self.assertEqual(rc, 2)
        self.assertIn("NVIDIA GPUs only", err)


if __name__ == "__main__":
    unittest.main()
