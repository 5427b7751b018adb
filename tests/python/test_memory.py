#!/usr/bin/env python3
"""occ.memory(ptx or path, ...): a kernel's PTX accesses, the same dict as `occ memory FILE --json`,
from text, a path and a Triton cache entry; bad input raises ValueError with io's message."""
import json
import os
import subprocess
import tempfile
import unittest

import occ

SRC = os.environ.get("OCC_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
PTX = os.path.join(SRC, "tests", "fixtures", "ptx")
SM80 = os.path.join(PTX, "kernels_sm80.ptx")
OCC_BIN = os.environ.get("OCC_BIN")


class Memory(unittest.TestCase):
    def test_text_and_path_give_the_same_answer(self):
        with open(SM80, encoding="utf8") as f:
            text = f.read()
        a = occ.memory(text, kernel="transpose_naive", block=(32, 32), grid=(2, 2), params={"2": 64})
        b = occ.memory(SM80, kernel="transpose_naive", block=[32, 32], grid=[2, 2], params={"2": 64})
        self.assertEqual(a.to_dict(), b.to_dict())
        worst = a.instructions[0]
        self.assertEqual(worst.space, "shared")
        self.assertEqual(worst.bank_conflicts_per_request, 31)
        self.assertEqual(a.input.block, [32, 32, 1])

    @unittest.skipUnless(OCC_BIN, "OCC_BIN not set")
    def test_equals_the_cli(self):
        a = occ.memory(SM80, kernel="stride2_f32", block=128, params={"0": 0})
        p = subprocess.run([OCC_BIN, "memory", SM80, "--kernel", "stride2_f32", "--block", "128", "--param", "0=0", "--json"],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(a.to_dict(), json.loads(p.stdout))

    def test_triton_entry(self):
        with tempfile.TemporaryDirectory() as d, open(os.path.join(PTX, "triton_add_sm90a.ptx"), encoding="utf8") as f:
            with open(os.path.join(d, "add_kernel.ptx"), "w", encoding="utf8") as out:
                out.write(f.read())
            with open(os.path.join(d, "add_kernel.json"), "w", encoding="utf8") as out:
                json.dump({"name": "add_kernel", "num_warps": 8, "shared": 0, "target": {"backend": "cuda", "arch": 90, "warp_size": 32}},
                          out)
            a = occ.memory(d)
            self.assertEqual(a.input.block, [256, 1, 1])
            self.assertEqual(a.kernel, "add_kernel")

    def test_bad_input(self):
        with self.assertRaises(ValueError) as e:
            occ.memory(SM80, kernel="nope")
        self.assertIn("copy_f32", str(e.exception))
        with self.assertRaises(ValueError) as e:
            occ.memory(SM80, kernel="copy_f32", block=0)
        self.assertIn("block", str(e.exception))


if __name__ == "__main__":
    unittest.main()
