#!/usr/bin/env python3
"""Hopper/Blackwell inputs as Python keywords: tmem_columns (Tensor Memory, an effective limit) and
warpgroup_regs (a setmaxnreg plan). Known answers: FlashAttention-3's plan (hopper/flash_fwd_kernel_sm90.h:82-83,
3 warpgroups at 168 registers: 24 + 2 x 240) fits exactly; PTX ISA tcgen05.alloc: 512 columns per SM."""
import unittest

import occ


class WarpSpecialisation(unittest.TestCase):
    def test_register_plan(self):
        r = occ.occupancy(gpu="H100", threads=384, regs=168, warpgroup_regs=[24, 240, 240])
        self.assertTrue(r.register_pool.fits)
        self.assertEqual(r.register_pool.left, 0)
        self.assertEqual(r.register_pool.max_consumer_regs, 240)
        over = occ.occupancy(gpu="H100", threads=384, regs=168, warpgroup_regs=[24, 240, 256])
        self.assertFalse(over.register_pool.fits)
        self.assertIn("hang risk", over.register_pool.summary)
        self.assertEqual(over.blocks_per_sm, r.blocks_per_sm)

    def test_tmem(self):
        r = occ.occupancy(gpu="B200", threads=128, regs=64, tmem_columns=256)
        self.assertEqual(r.blocks_per_sm, 8)
        self.assertEqual(r.effective.blocks_per_sm, 2)
        self.assertEqual(r.effective.limiters, ["tmem"])
        with self.assertRaises(Exception) as e:
            occ.occupancy(gpu="B200", tmem_columns=100)
        self.assertIn("tmem_columns", str(e.exception))


if __name__ == "__main__":
    unittest.main()
