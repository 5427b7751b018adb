#!/usr/bin/env python3
"""End-to-end tests of `occ coalesce` and `occ banks`: every documented case, the 80-column pictures,
--batch answers equal to single --json answers, and exit codes."""
import json
import unittest

from occ_cli import query, run


# (flags, expected fields) — CUDA Best Practices Guide "Coalesced Access to Global Memory" and the
# vector / broadcast / inactive-lane cases.
COALESCE_CASES = [
    ([], {"requests": 1, "sectors": 4, "lines": 1, "bytes_requested": 128, "bytes_transferred": 128,
          "efficiency": 1.0, "ideal_sectors": 4, "excess_sectors": 0}),
    (["--offset", "4"], {"sectors": 5, "ideal_sectors": 4, "excess_sectors": 1, "efficiency": 0.8, "verdict": "misaligned"}),
    (["--stride", "2"], {"sectors": 8, "efficiency": 0.5, "excess_sectors": 4, "verdict": "strided"}),
    (["--stride", "32"], {"sectors": 32, "bytes_transferred": 1024, "efficiency": 0.125}),
    (["--access-bytes", "8"], {"requests": 1, "sectors": 8, "excess_sectors": 0}),
    (["--access-bytes", "16"], {"requests": 1, "sectors": 16, "excess_sectors": 0}),
    (["--stride", "0"], {"sectors": 1, "bytes_requested": 4, "excess_sectors": 0, "verdict": "broadcast"}),
    (["--active-lanes", "0-15"], {"sectors": 2, "bytes_requested": 64}),
    (["--active-lanes", "0x0"], {"requests": 0, "sectors": 0}),
    (["--addresses", "0,4,8,-,16"], {"sectors": 1, "bytes_requested": 16}),
    (["--block", "32,8"], {"requests": 8, "sectors": 32, "warps": 8}),
    (["--block", "32,32", "--order", "column"], {"sectors": 1024, "ideal_sectors": 128, "contiguous_sectors": 128}),
    (["--block", "8,32", "--pitch", "1000", "--offset", "16"], {"sectors": 64, "verdict": "split_rows"}),
    (["--range", "1000000", "--seed", "7"], {"verdict": "scattered"}),
    (["--op", "store", "--stride", "2"], {"sectors": 8}),
    (["--cc", "6.0"], {"sectors": 4}),
    # 32-byte lanes (one 256-bit ld.global, cc 10.0+): an aligned lane is one whole sector, 4 lanes a
    # 128-byte line. 32 x 32 B = 1024 B = 32 sectors over 8 lines; stride 2 (64 B apart) still 32
    # sectors, each fully used, over 31 x 64 + 32 = 2016 B = 16 lines.
    (["--cc", "10.0", "--access-bytes", "32"], {"requests": 1, "sectors": 32, "lines": 8, "bytes_requested": 1024,
                                                "bytes_transferred": 1024, "efficiency": 1.0, "excess_sectors": 0}),
    (["--cc", "12.0", "--access-bytes", "32", "--stride", "2"], {"sectors": 32, "lines": 16, "efficiency": 1.0,
                                                                 "excess_sectors": 0}),
    (["--cc", "10.0", "--access-bytes", "32", "--offset", "32"], {"sectors": 32, "lines": 9, "excess_sectors": 0}),
]

BANK_CASES = [
    ([], {"wavefronts": 1, "ideal_wavefronts": 1, "conflicts": 0, "max_way": 1}),
    (["--stride", "2"], {"wavefronts": 2, "conflicts": 1, "max_way": 2}),
    (["--stride", "32"], {"wavefronts": 32, "conflicts": 31, "max_way": 32}),
    (["--stride", "0"], {"wavefronts": 1, "conflicts": 0}),
    (["--access-bytes", "8"], {"wavefronts": 2, "ideal_wavefronts": 2, "conflicts": 0}),
    (["--access-bytes", "16"], {"wavefronts": 4, "ideal_wavefronts": 4, "conflicts": 0}),
    (["--block", "32,32", "--order", "column"], {"max_way": 32, "wavefronts": 1024, "conflicts": 992,
                                                  "conflicts_padded": 0, "conflicts_swizzled": 0}),
    (["--block", "32,32", "--order", "column", "--pad", "1"], {"max_way": 1, "conflicts": 0, "wavefronts": 32}),
    (["--block", "32,32", "--order", "column", "--swizzle"], {"max_way": 1, "conflicts": 0}),
    (["--addresses", "0,128,256,-"], {"wavefronts": 3, "max_way": 3}),
    (["--cc", "5.0"], {"conflicts": 0}),
    # Paired loads (NVIDIA forum 77228, "requests/instruction should reduce from 4 to 2"; reported counter
    # measurements): one address for every lane halves 8- and 16-byte loads, never stores; Maxwell keeps 4.
    (["--access-bytes", "16", "--stride", "0"], {"wavefronts": 2, "ideal_wavefronts": 2, "conflicts": 0}),
    (["--access-bytes", "8", "--stride", "0"], {"wavefronts": 1, "conflicts": 0}),
    (["--access-bytes", "16", "--stride", "0", "--op", "store"], {"wavefronts": 4, "conflicts": 0}),
    (["--access-bytes", "16", "--stride", "0", "--cc", "5.2"], {"wavefronts": 4}),
    (["--access-bytes", "16", "--addresses", ",".join(str(t % 4 * 16) for t in range(32))], {"wavefronts": 4}),
    # cp.async from a source 16 bytes off a sector: 8 instructions of 17 sectors, 5 wavefronts each (4 + 1).
    (["--tile", "16x64", "--elem-bytes", "4", "--access-bytes", "16", "--tile-access", "cp_async", "--global-base", "16"],
     {"wavefronts": 40, "ideal_wavefronts": 32, "conflicts": 8}),
    # Blackwell's TMA modes and a rotation on ldmatrix.x4 of 64 x 64 halves (ideal 64).
    (["--cc", "10.0", "--tile", "64x64", "--elem-bytes", "2", "--ldmatrix", "x4", "--tma-swizzle", "128B_ATOM_32B"],
     {"wavefronts": 128, "max_way": 2}),
    (["--cc", "10.0", "--tile", "64x64", "--elem-bytes", "2", "--ldmatrix", "x4", "--tma-swizzle", "128b_atom_64b"],
     {"wavefronts": 256, "max_way": 4}),
    (["--tile", "64x64", "--elem-bytes", "2", "--ldmatrix", "x4", "--rotate", "8"], {"wavefronts": 64, "conflicts": 0}),
]


class Coalesce(unittest.TestCase):
    def test_cases(self):
        for flags, want in COALESCE_CASES:
            with self.subTest(flags=flags):
                r = query("coalesce", *flags)
                self.assertIsNone(r["error"])
                for k, v in want.items():
                    if isinstance(v, float):
                        self.assertAlmostEqual(r[k], v, msg=k)
                    else:
                        self.assertEqual(r[k], v, msg=k)

    def test_per_warp_lane_sectors_and_2d_split(self):
        r = query("coalesce", "--block", "16,16", "--pitch", "1000")
        w0 = r["per_warp"][0]
        self.assertEqual(w0["lane_address"][15], 60)
        self.assertEqual(w0["lane_address"][16], 4000)       # lane 16 = (x 0, y 1)
        self.assertEqual(w0["lane_sector"][:16], [0] * 8 + [1] * 8)
        self.assertEqual(w0["lines"], 2)
        self.assertIn("2 rows", r["reason"])
        r = query("coalesce", "--active-lanes", "0-7")
        self.assertEqual(r["per_warp"][0]["lane_sector"][8], None)
        self.assertEqual(r["per_warp"][0]["sector_used_bytes"], [32])

    def test_reason_and_fix(self):
        r = query("coalesce", "--stride", "2")
        self.assertIn("stride of 2 floats", r["reason"])
        self.assertIn("half used", r["reason"])
        self.assertIn("100%", r["fix"])
        self.assertAlmostEqual(r["contiguous_efficiency"], 1.0)
        self.assertIsNone(query("coalesce")["fix"])

    def test_human_picture_fits_80_columns(self):
        for flags, _ in COALESCE_CASES:
            with self.subTest(flags=flags):
                rc, out, err = run("coalesce", *flags)
                self.assertEqual(rc, 0, err)
                self.assertLessEqual(max(len(l) for l in out.splitlines()), 80, out)
        rc, out, _ = run("coalesce", "--stride", "2")
        self.assertIn("sector  00001111222233334444555566667777", out)
        self.assertIn("efficiency 50%", out)


class Banks(unittest.TestCase):
    def test_cases(self):
        for flags, want in BANK_CASES:
            with self.subTest(flags=flags):
                r = query("banks", *flags)
                self.assertIsNone(r["error"])
                for k, v in want.items():
                    self.assertEqual(r[k], v, msg=k)

    def test_which_lanes_collide(self):
        r = query("banks", "--stride", "2")
        w = r["per_warp"][0]
        self.assertEqual(w["bank_lanes"][0], [0, 16])
        self.assertEqual(w["bank_way"][0], 2)
        self.assertEqual(w["lane_bank"][1], 2)
        self.assertEqual(len(w["conflict_lanes"]), 32)
        self.assertIn("stride 3", r["fix"])
        r = query("banks", "--block", "32,32", "--order", "column")
        self.assertIn("33", r["fix"])
        self.assertIn("swizzle", r["fix"])

    def test_cp_async_source_and_tile_echo(self):
        r = query("banks", "--tile", "16x64", "--elem-bytes", "4", "--access-bytes", "16", "--tile-access", "cp_async",
                  "--global-base", "16")
        acc = r["tile"]["accesses"][0]
        self.assertEqual((acc["source_wavefronts"], acc["source_extra"]), (40, 8))
        self.assertIn("align cp_async's global source to 32 bytes", r["fix"])
        self.assertEqual(r["input"]["global_base"], 16)
        aligned = query("banks", "--tile", "16x64", "--elem-bytes", "4", "--access-bytes", "16", "--tile-access", "cp_async",
                        "--global-base", "32")
        self.assertEqual(aligned["tile"]["accesses"][0]["source_extra"], 0)
        self.assertIsNone(aligned["fix"])
        rot = query("banks", "--tile", "32x32", "--tile-access", "column", "--rotate", "1")
        self.assertEqual((rot["conflicts"], rot["tile"]["layout"], rot["input"]["rotate"]), (0, "rotate 1", 1))
        tma = query("banks", "--tile", "64x64", "--elem-bytes", "2", "--ldmatrix", "x4", "--tma-swizzle", "128b_Atom_32b")
        self.assertEqual(tma["input"]["tma_swizzle"], "128B_ATOM_32B")

    def test_human_picture_fits_80_columns(self):
        for flags, _ in BANK_CASES:
            with self.subTest(flags=flags):
                rc, out, err = run("banks", *flags)
                self.assertEqual(rc, 0, err)
                self.assertLessEqual(max(len(l) for l in out.splitlines()), 80, out)
        rc, out, _ = run("banks", "--block", "32,32", "--order", "column")
        self.assertIn("worst 32-way", out)
        self.assertIn("bank  0  32-way  lanes 0-31", out)


class Batch(unittest.TestCase):
    def flags_to_request(self, flags):
        # The same request, written as a --batch line by hand (not through the CLI's flag parser).
        names = {"--offset": "offset", "--stride": "stride", "--access-bytes": "access_bytes", "--pitch": "pitch", "--pad": "pad",
                 "--order": "order", "--range": "range", "--seed": "seed", "--op": "op", "--cc": "cc"}
        req, i = {}, 0
        while i < len(flags):
            f = flags[i]
            if f == "--swizzle":
                req["swizzle"] = True
                i += 1
                continue
            v = flags[i + 1]
            if f == "--block":
                req["block"] = [int(x) for x in v.split(",")]
            elif f == "--addresses":
                req["addresses"] = [None if x == "-" else int(x) for x in v.split(",")]
            elif f == "--active-lanes":
                if v.startswith("0x"):
                    req["active_lanes"] = v
                else:
                    lo, hi = (int(x) for x in v.split("-"))
                    req["active_lanes"] = sum(1 << l for l in range(lo, hi + 1))
            elif f == "--tile":
                req["tile"] = [int(x) for x in v.split("x")]
            elif f in ("--stride", "--offset", "--access-bytes", "--pitch", "--pad", "--range", "--seed", "--elem-bytes",
                       "--global-base", "--rotate"):
                req[f[2:].replace("-", "_")] = int(v)
            else:
                req[names.get(f, f[2:].replace("-", "_"))] = v
            i += 2
        return req

    def check_batch_matches(self, kind, cases):
        lines = [json.dumps(self.flags_to_request(flags)) for flags, _ in cases]
        rc, out, err = run(kind, "--batch", stdin="\n".join(lines) + "\n")
        self.assertEqual(rc, 0, err)
        got = [json.loads(l) for l in out.splitlines()]
        self.assertEqual(len(got), len(cases))
        for (flags, _), b in zip(cases, got):
            with self.subTest(kind=kind, flags=flags):
                self.assertEqual(b, query(kind, *flags))

    def test_coalesce_batch_equals_single(self):
        self.check_batch_matches("coalesce", COALESCE_CASES)

    def test_banks_batch_equals_single(self):
        self.check_batch_matches("banks", BANK_CASES)

    def test_bad_line_keeps_its_place(self):
        stdin = '{"stride": 2, "id": "a"}\n{"access_bytes": 3}\nnot json\n\n{"stride": 32, "id": "b"}\n'
        rc, out, _ = run("coalesce", "--batch", stdin=stdin)
        self.assertEqual(rc, 1)
        got = [json.loads(l) for l in out.splitlines()]
        self.assertEqual(len(got), 5)
        self.assertEqual(got[0]["sectors"], 8)
        self.assertEqual(got[0]["id"], "a")
        self.assertIn("access_bytes: must be 1, 2, 4, 8 or 16", got[1]["error"])
        self.assertIn("not valid JSON", got[2]["error"])
        self.assertIn("empty line", got[3]["error"])
        self.assertEqual(got[4]["sectors"], 32)

    def test_batch_field_errors(self):
        cases = [
            ({"stride": "x"}, "stride: must be an integer"),
            ({"addresses": [0, 4], "stride": 2}, "stride"),
            ({"addresses": list(range(33))}, "addresses: must be an array of 1..32"),
            ({"addresses": [2]}, "not a multiple of access_bytes"),
            ({"order": "diagonal"}, "order: must be one of row, column"),
            ({"strid": 2}, 'did you mean "stride"'),
            ({"block": [2000]}, "block: each dimension must be an integer 1..1024"),
            ({"cc": "5.2"}, "6.0"),
            ({"gpu": "A1OO"}, "unknown GPU"),
            ({"active_lanes": "0x1ffffffff"}, "active_lanes"),
        ]
        stdin = "\n".join(json.dumps(c) for c, _ in cases) + "\n"
        rc, out, _ = run("coalesce", "--batch", stdin=stdin)
        self.assertEqual(rc, 1)
        for (req, msg), line in zip(cases, out.splitlines()):
            with self.subTest(req=req):
                self.assertIn(msg, json.loads(line)["error"])


class ExitCodes(unittest.TestCase):
    def test_32_byte_lanes_need_cc_10_and_global_memory(self):
        # PTX ISA 8.8: 256-bit ld/st (.v8.b32, .v4.b64) on sm_100+ and in .global only.
        lines = [
            {"gpu": "H100", "access_bytes": 32},
            {"cc": "10.0", "access_bytes": 32, "offset": 16},
            {"cc": "10.0", "tile": [32, 64], "elem_bytes": 4, "access_bytes": 32},
            {"cc": "9.0", "tile": [32, 64], "elem_bytes": 4, "access_bytes": 32},
            {"cc": "10.0", "expr": "A[threadIdx.x]", "array": "double4_32a A[32]"},
            {"cc": "12.0", "expr": "A[threadIdx.x]", "array": "double4 A[32]"},
        ]
        rc, out, _ = run("coalesce", "--batch", stdin="".join(json.dumps(l) + "\n" for l in lines))
        self.assertEqual(rc, 1)
        got = [json.loads(l) for l in out.splitlines()]
        self.assertTrue(got[0]["error"].startswith("access_bytes: must be 1, 2, 4, 8 or 16 on cc 9.0 (Hopper), got 32"))
        self.assertIn("needs compute capability 10.0 or newer (PTX ISA 8.8, sm_100+)", got[0]["error"])
        self.assertIn("not a multiple of access_bytes (32)", got[1]["error"])
        # The tile's rows: 32 x 64 floats = 8192 B = 256 sectors, 64 lines, in 8 instructions of 32 lanes.
        self.assertIsNone(got[2]["error"])
        self.assertEqual((got[2]["sectors"], got[2]["lines"], got[2]["requests"], got[2]["efficiency"]), (256, 64, 8, 1.0))
        self.assertIn("10.0 or newer", got[3]["error"])
        self.assertIsNone(got[4]["error"])
        self.assertEqual((got[4]["input"]["access_bytes"], got[4]["sectors"], got[4]["lines"]), (32, 32, 8))
        self.assertIn("double4 is 32 bytes but 16-byte aligned", got[5]["error"])
        # Shared memory: refused on every architecture, with what to model instead.
        lines = [{"cc": "10.0", "access_bytes": 32}, {"cc": "12.0", "tile": [32, 64], "elem_bytes": 4, "access_bytes": 32}]
        rc, out, _ = run("banks", "--batch", stdin="".join(json.dumps(l) + "\n" for l in lines))
        self.assertEqual(rc, 1)
        for line in out.splitlines():
            e = json.loads(line)["error"]
            self.assertTrue(e.startswith("access_bytes: shared memory takes 1, 2, 4, 8 or 16 bytes per lane, got 32"), e)
            self.assertIn("two 16-byte instructions", e)
        # The flag gives the same refusal, exit status 2.
        rc, _, err = run("banks", "--cc", "10.0", "--access-bytes", "32")
        self.assertEqual(rc, 2)
        self.assertIn(".global only", err)

    def test_bad_flags_and_values_exit_2(self):
        for args in (["coalesce", "--bogus"], ["coalesce", "--bytes", "3"], ["coalesce", "--offset", "2"],
                     ["coalesce", "--cc", "5.2"], ["banks", "--cc", "3.5"], ["banks", "--order", "up"],
                     ["coalesce", "--block", "16,x"], ["banks", "--active-lanes", "0-40"], ["coalesce", "--warp", "3"],
                     ["banks", "--stride", "2", "--pitch", "4"]):
            with self.subTest(args=args):
                rc, out, err = run(*args)
                self.assertEqual(rc, 2, out + err)
                self.assertTrue(err.strip(), "an error message on stderr")

    def test_json_error_object(self):
        rc, out, _ = run("banks", "--cc", "3.5", "--json")
        self.assertEqual(rc, 2)
        self.assertIn("5.0", json.loads(out)["error"])

    def test_help_teaches(self):
        for kind in ("coalesce", "banks"):
            rc, out, _ = run(kind, "--help")
            self.assertEqual(rc, 0)
            self.assertIn("Examples", out)
            self.assertIn("--batch", out)


if __name__ == "__main__":
    unittest.main()
