#!/usr/bin/env python3
"""End-to-end tests of `occ banks` / `occ coalesce` with --expr: the access typed as the kernel
writes it gives the same counts as the pattern pickers, bad expressions exit 2 with a message that
points at the column, and --batch / --warp work through the same request."""
import json
import unittest

from occ_cli import query, run


TILE = ["--block", "32,32"]


class ExprBanks(unittest.TestCase):
    # The 32x32 transpose tile (NVIDIA developer blog, Harris, "An Efficient Matrix Transpose in
    # CUDA C/C++"): reading a column of float tile[32][32] puts all 32 lanes in one bank; one
    # element of padding (tile[32][33]) removes the conflict.
    def test_transpose_column_read(self):
        a = query("banks", "--expr", "tile[threadIdx.x][threadIdx.y]", "--array", "float tile[32][32]", *TILE)
        self.assertEqual((a["wavefronts"], a["ideal_wavefronts"], a["conflicts"], a["max_way"]), (32, 1, 31, 32))
        self.assertEqual(a["input"]["pattern"], "expr")
        self.assertEqual(a["warps"], 1)

    def test_padding_and_xor_remove_it(self):
        pad = query("banks", "--expr", "tile[threadIdx.x][threadIdx.y]", "--array", "float tile[32][33]", *TILE)
        xor = query("banks", "--expr", "tile[threadIdx.x][threadIdx.y ^ threadIdx.x]", "--array", "float tile[32][32]", *TILE)
        self.assertEqual((pad["conflicts"], pad["max_way"]), (0, 1))
        self.assertEqual((xor["conflicts"], xor["max_way"]), (0, 1))

    def test_same_warps_as_the_2d_picker(self):
        for pad, decl in ((0, "float tile[32][32]"), (1, "float tile[32][33]")):
            ref = query("banks", *TILE, "--order", "column", "--pad", str(pad))
            for w in (0, 5, 31):
                a = query("banks", "--expr", "tile[threadIdx.x][threadIdx.y]", "--array", decl, *TILE, "--warp", str(w))
                self.assertEqual(a["input"]["warp"], w)
                got, want = a["per_warp"][0], ref["per_warp"][w]
                self.assertEqual(got["warp"], w)
                for k in ("wavefronts", "conflicts", "max_way", "lane_address", "lane_bank", "bank_way"):
                    self.assertEqual(got[k], want[k], (pad, w, k))

    def test_picture_names_the_warp_and_fits_80_columns(self):
        rc, out, err = run("banks", "--expr", "tile[threadIdx.x][threadIdx.y]", "--array", "float tile[32][32]", *TILE, "--warp", "7")
        self.assertEqual(rc, 0, err)
        self.assertIn("tile[threadIdx.x][threadIdx.y] on float tile[32][32]", out)
        self.assertIn("warp 7: lanes -> banks (32 wavefronts, ideal 1)", out)
        self.assertLessEqual(max(len(line) for line in out.splitlines()), 80)


class ExprCoalesce(unittest.TestCase):
    def test_stride_two(self):
        # A[(blockIdx.x * blockDim.x + threadIdx.x) * 2]: every other float, 8 sectors for 128 bytes
        # (CUDA C++ Best Practices Guide, "Strided Accesses": stride 2 halves the load efficiency).
        a = query("coalesce", "--expr", "A[(blockIdx.x * blockDim.x + threadIdx.x) * 2]", "--threads", "256",
                  "--block-idx", "5", "--warp", "2")
        self.assertEqual((a["sectors"], a["bytes_requested"], a["efficiency"]), (8, 128, 0.5))
        self.assertEqual(a["per_warp"][0]["lane_address"][0], (5 * 256 + 64) * 2 * 4)
        self.assertEqual(a["input"]["grid_dim"], [6, 1, 1])
        ref = query("coalesce", "--stride", "2", "--threads", "256")
        self.assertEqual(a["sectors"], ref["per_warp"][2]["sectors"])

    def test_vector_type_from_the_declaration(self):
        a = query("coalesce", "--expr", "v[blockIdx.x * blockDim.x + threadIdx.x]", "--array", "const float4* v")
        self.assertEqual((a["input"]["access_bytes"], a["sectors"], a["efficiency"]), (16, 16, 1.0))

    def test_consts_and_unsigned_wrap(self):
        a = query("coalesce", "--expr", "A[threadIdx.x][0]", "--consts", "N=32, LD=N+1", "--array", "float A[N][LD]")
        self.assertEqual(a["per_warp"][0]["lane_address"][1], 33 * 4)
        # threadIdx.x - 1 is unsigned: lane 0 reads element 4294967295, as the GPU would.
        a = query("coalesce", "--expr", "A[threadIdx.x - 1]", "--base", "0x100000000")
        self.assertEqual(a["per_warp"][0]["lane_address"][0], 0x100000000 + 4294967295 * 4)


class ExprErrors(unittest.TestCase):
    def test_bad_expression_exits_2_with_the_column(self):
        for kind in ("banks", "coalesce"):
            rc, out, err = run(kind, "--expr", "A[2 * threadIdy.x]")
            self.assertEqual(rc, 2)
            self.assertEqual(out, "")
            self.assertIn("error: expr: unknown name 'threadIdy' at column 7; did you mean threadIdx?", err)
            rc, out, err = run(kind, "--expr", "A[2 * threadIdy.x]", "--json")
            self.assertEqual(rc, 2)
            self.assertEqual(json.loads(out)["error"], "expr: unknown name 'threadIdy' at column 7; did you mean threadIdx?")

    def test_out_of_bounds_names_the_lane(self):
        rc, _, err = run("banks", "--expr", "tile[threadIdx.y][threadIdx.x + 1]", "--array", "float tile[32][32]", *TILE)
        self.assertEqual(rc, 2)
        self.assertIn("error: expr: index 32 is out of bounds for dimension 2 of tile[32][32] (0..31) at column 19 "
                      "(lane 31, threadIdx (31,0,0))", err)

    def test_syntax_and_declaration_errors(self):
        cases = [
            (["--expr", "A[(threadIdx.x + 1]"], "expr: expected ')', got ']' at column 19"),
            (["--expr", "A[threadIdx.x / 0]"], "expr: division by zero at column 15 (lane 0, threadIdx (0,0,0))"),
            (["--expr", "A[threadIdx.x]", "--array", "float A[32"], "array: expected ']', got the end at column 11"),
            (["--expr", "A[threadIdx.x]", "--warp", "1"], "warp: must be 0..0 (the block has 1 warp), got 1"),
            (["--expr", "A[threadIdx.x]", "--stride", "2"], 'stride: does not apply to pattern "expr" (the expression gives every address)'),
        ]
        for flags, msg in cases:
            rc, _, err = run("banks", *flags)
            self.assertEqual(rc, 2, flags)
            self.assertIn("error: " + msg, err)

    def test_batch_goes_on_after_a_bad_line(self):
        lines = [
            {"expr": "tile[threadIdx.x][threadIdx.y]", "array": "float tile[32][32]", "block": [32, 32], "warp": 4, "id": 1},
            {"expr": "tile[threadIdx.x][threadIdx.y", "array": "float tile[32][32]", "block": [32, 32], "id": 2},
            {"expr": "s[threadIdx.x * LD]", "consts": {"LD": 33}, "id": 3},
        ]
        rc, out, _ = run("banks", "--batch", stdin="".join(json.dumps(x) + "\n" for x in lines))
        self.assertEqual(rc, 1)
        answers = [json.loads(x) for x in out.splitlines()]
        self.assertEqual(len(answers), 3)
        self.assertEqual((answers[0]["id"], answers[0]["conflicts"], answers[0]["per_warp"][0]["warp"]), (1, 31, 4))
        self.assertEqual(answers[1]["error"], "expr: expected ']', got the end at column 30")
        self.assertEqual((answers[2]["conflicts"], answers[2]["input"]["consts"]), (0, "LD=33"))
        # The echo is a request: sent back, it gives the same answer.
        again = json.loads(run("banks", "--batch", stdin=json.dumps(answers[0]["input"]) + "\n")[1])
        self.assertEqual(again["per_warp"], answers[0]["per_warp"])


if __name__ == "__main__":
    unittest.main()
