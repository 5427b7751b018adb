#!/usr/bin/env python3
"""Every limiter x the Python module: the list comes from the C++ module (occ::kLimiters through
_occ.limiters()), and for each launch in tests/fixtures/limiter_cases.json (limited by exactly one
limiter) occ.occupancy(...).limiters, occ.advise(...), occ.ptxas(...) and occ.sweep(...) name it."""
import json
import os
import unittest

import occ
from occ import _occ

SOURCE = os.environ.get("OCC_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
with open(os.path.join(SOURCE, "tests", "fixtures", "limiter_cases.json")) as f:
    CASES = {c["limiter"]: c for c in json.load(f)["cases"]}


class Limiters(unittest.TestCase):
    def test_the_list_is_the_cores(self):
        table = _occ.limiters()
        # cuda_occupancy.h's OCC_LIMIT_* bits, in order; virtual resources is 0x20.
        self.assertEqual([tuple(e) for e in table], [
            (0x01, "warps", "warps"), (0x02, "registers", "registers"), (0x04, "shared_memory", "shared memory"),
            (0x08, "blocks", "blocks"), (0x10, "barriers", "barriers"),
            (0x20, "virtual_resources", "virtual resources"), (0x40, "tmem", "Tensor Memory")])
        self.assertEqual(occ.LIMITERS, tuple(key for _, key, _ in table))
        self.assertEqual(sorted(CASES), sorted(occ.LIMITERS))

    def test_every_limiter_is_named(self):
        for bit, key, _ in _occ.limiters():
            with self.subTest(limiter=key):
                c = CASES[key]
                req = c["request"]
                r = occ.occupancy(**req)
                if c.get("effective"):  # Tensor Memory: the effective count, never the resident limiters
                    self.assertNotIn(key, r.limiters)
                    self.assertEqual(r.effective.limiters, [key])
                    self.assertEqual(r.effective.blocks_per_sm, c["blocks_per_sm"])
                    self.assertEqual(r.limits[key], c["blocks_per_sm"])
                    continue
                self.assertEqual(r.limiters, [key])
                self.assertEqual(r.limits[key], c["blocks_per_sm"])
                a = occ.advise(**req)
                self.assertEqual(a.registers.before.limiters, [key])
                s = occ.sweep("regs", **{k: v for k, v in req.items() if k != "regs"})
                i = req["regs"]   # the register sweep has one point per count, 0 first
                self.assertEqual(int(s.x[i]), req["regs"])
                self.assertEqual(int(s.limiters[i]), bit)
                self.assertEqual(s.limiter_names(i), [key])
                log = ("ptxas info    : Compiling entry function '_Z9my_kernelPf' for 'sm_%s'\n"
                       "ptxas info    : Used %d registers, used %d barriers\n"
                       % ("%d%d" % (r.device.cc_major, r.device.cc_minor), req["regs"], req.get("barriers", 1)))
                p = occ.ptxas(log, **{k: v for k, v in req.items() if k not in ("regs", "barriers")})
                self.assertEqual(p.kernels[0].occupancy.limiters, [key])


if __name__ == "__main__":
    unittest.main()
