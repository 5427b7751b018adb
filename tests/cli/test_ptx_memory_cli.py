#!/usr/bin/env python3
"""End-to-end tests of `occ memory FILE`: a kernel's PTX (tests/fixtures/ptx, nvcc 13 -lineinfo)
run warp by warp, each access costed and held equal to what `occ coalesce` and `occ banks` answer for
the same pattern described by hand; the per-line totals, the table, Triton cache entries, --batch,
and bad input (exit 2, the flag named)."""
import json
import os
import tempfile
import unittest

from occ_cli import query, run

SRC = os.environ.get("OCC_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
PTX = os.path.join(SRC, "tests", "fixtures", "ptx")
SM80 = os.path.join(PTX, "kernels_sm80.ptx")
SM90 = os.path.join(PTX, "kernels_sm90.ptx")
BIN = os.path.join(SRC, "tests", "fixtures", "binaries")


def memory(*flags, ptx=SM80):
    return query("memory", ptx, *flags)


def sites(answer, space, op=None):
    return [r for r in answer["instructions"] if r["space"] == space and (op is None or r["instruction"].startswith(op))]


def per_warp(answer, key):
    """A block total of `occ coalesce`/`occ banks` per warp (every warp of these patterns is alike)."""
    return answer[key] / len(answer["per_warp"]) if "per_warp" in answer else answer[key]


class Coalescing(unittest.TestCase):
    def test_copy_is_ideal_and_equals_the_described_pattern(self):
        a = memory("--kernel", "copy_f32", "--block", "256", "--param", "2=4096")
        described = query("coalesce")  # 32 lanes, 4 bytes each, consecutive
        glob = sites(a, "global")
        self.assertEqual(len(glob), 2)
        for r in glob:
            self.assertEqual(r["sectors_per_request"], described["sectors"])
            self.assertEqual(r["sectors_per_request"], r["ideal_sectors_per_request"])
            self.assertEqual(r["sectors_per_request"], 4)
            self.assertIsNone(r["unknown"])
            self.assertIsNone(r["bank_conflicts_per_request"])  # not a shared access
            self.assertIsNone(r["fix"])
            self.assertEqual(r["executions"], 2)  # warps 0 and 7 (first, last)
            self.assertTrue(r["file"].endswith("kernels.cu"))
            self.assertIsInstance(r["line"], int)

    def test_stride_two_costs_what_coalesce_says_with_its_words(self):
        a = memory("--kernel", "stride2_f32", "--block", "128")
        worst = a["instructions"][0]
        described = query("coalesce", "--stride", "2")
        self.assertTrue(worst["instruction"].startswith("ld.global"))
        self.assertEqual(worst["sectors_per_request"], described["sectors"])
        self.assertEqual(worst["ideal_sectors_per_request"], described["ideal_sectors"])
        self.assertGreater(worst["sectors_per_request"], worst["ideal_sectors_per_request"])
        # The reason and fix are the coalescing model's own sentences for those addresses.
        self.assertEqual(worst["reason"], described["reason"])
        self.assertEqual(worst["fix"], described["fix"])
        # The store is coalesced and comes after.
        store = sites(a, "global", "st")[0]
        self.assertEqual(store["sectors_per_request"], 4)
        self.assertIn("symbolic", " ".join(a["notes"]))  # pointers not given: said so

    def test_vector_copy(self):
        a = memory("--kernel", "copy_f4", "--block", "64")
        described = query("coalesce", "--access-bytes", "16")
        for r in sites(a, "global"):
            self.assertEqual(r["sectors_per_request"], described["sectors"])
            self.assertEqual(r["access_bytes"], 16)

    def test_gather_is_unknown_never_a_number(self):
        a = memory("--kernel", "gather_f32", "--param", "3=4096")
        gathered = [r for r in sites(a, "global", "ld") if r["unknown"]]
        self.assertEqual(len(gathered), 1)
        self.assertIsNone(gathered[0]["sectors_per_request"])
        self.assertIn("gather", gathered[0]["unknown"])

    def test_unknown_bound_says_which_parameter(self):
        a = memory("--kernel", "copy_f32")  # n not given: the guard i < n is unknown
        self.assertTrue(any(r["unknown"] for r in a["instructions"]) or any(w["stopped"] for w in a["warps"]))


class Banks(unittest.TestCase):
    LAUNCH = ("--block", "32,32", "--grid", "2,2", "--param", "2=64")

    def test_naive_transpose_is_a_32_way_conflict(self):
        a = memory("--kernel", "transpose_naive", *self.LAUNCH)
        described = query("banks", "--block", "32,32", "--order", "column")
        read = sites(a, "shared", "ld")[0]
        self.assertEqual(read["wavefronts_per_request"], per_warp(described, "wavefronts"))
        self.assertEqual(read["bank_conflicts_per_request"], per_warp(described, "conflicts"))
        self.assertEqual(read["wavefronts_per_request"], 32)
        self.assertEqual(read["ideal_wavefronts_per_request"], 1)
        self.assertIsNone(read["sectors_per_request"])
        self.assertIs(a["instructions"][0], a["instructions"][0])
        self.assertEqual(a["instructions"][0]["ptx_line"], read["ptx_line"])  # worst first
        self.assertIn("pad", read["fix"])
        write = sites(a, "shared", "st")[0]
        self.assertEqual(write["bank_conflicts_per_request"], 0)
        # Per source line: the line of the column read carries the conflicts.
        line = [l for l in a["lines"] if read["ptx_line"] in l["ptx_lines"]][0]
        self.assertEqual(line["line"], read["line"])
        self.assertEqual(line["bank_conflicts_per_request"], 31)
        self.assertTrue(line["file"].endswith("kernels.cu"))

    def test_padded_transpose_has_none(self):
        for ptx in (SM80, SM90):
            a = memory("--kernel", "transpose_padded", *self.LAUNCH, ptx=ptx)
            described = query("banks", "--block", "32,32", "--order", "column", "--pad", "1")
            for r in sites(a, "shared"):
                self.assertEqual(r["bank_conflicts_per_request"], described["conflicts"])
                self.assertEqual(r["bank_conflicts_per_request"], 0)
                self.assertEqual(r["wavefronts_per_request"], r["ideal_wavefronts_per_request"])

    def test_table_worst_first(self):
        rc, out, err = run("memory", SM80, "--kernel", "transpose_naive", *self.LAUNCH)
        self.assertEqual(rc, 0, err)
        lines = out.splitlines()
        header = [i for i, l in enumerate(lines) if l.startswith("where")][0]
        self.assertIn("kernels.cu:", lines[header + 1])
        self.assertIn("32 / 1", lines[header + 1])
        self.assertIn("ran block (0,0,0) warp 0", out)


class Faces(unittest.TestCase):
    def test_batch_equals_json(self):
        with open(SM80, encoding="utf8") as f:
            text = f.read()
        req = {"ptx": text, "kernel": "stride2_f32", "block": [128], "params": {"0": 0}}
        rc, out, err = run("memory", "--batch", stdin=json.dumps(req) + "\n")
        self.assertEqual(rc, 0, err)
        batch = json.loads(out)
        single = memory("--kernel", "stride2_f32", "--block", "128", "--param", "0=0")
        self.assertEqual(batch["instructions"], single["instructions"])
        self.assertEqual(batch["lines"], single["lines"])

    def test_triton_cache_entry_gives_the_block(self):
        with tempfile.TemporaryDirectory() as d, open(os.path.join(PTX, "triton_add_sm90a.ptx"), encoding="utf8") as f:
            with open(os.path.join(d, "add_kernel.ptx"), "w", encoding="utf8") as out:
                out.write(f.read())
            meta = {"name": "add_kernel", "num_warps": 4, "shared": 0, "target": {"backend": "cuda", "arch": 90, "warp_size": 32}}
            with open(os.path.join(d, "add_kernel.json"), "w", encoding="utf8") as out:
                json.dump(meta, out)
            for path in (d, os.path.join(d, "add_kernel.json")):
                a = query("memory", path)
                self.assertEqual(a["input"]["block"], [128, 1, 1])
                self.assertEqual(a["kernel"], "add_kernel")
                self.assertIn("Triton metadata", a["input"]["launch_from"])
                self.assertTrue(sites(a, "global"))

    def test_ptx_inside_binaries(self):
        # nvcc -gencode arch=compute_90,code=compute_90 embeds PTX in the fatbin (make_corpus.sh).
        for name in ("fatbin_none.fatbin", "host.o"):
            a = query("memory", os.path.join(BIN, name), "--kernel", "k_plain", "--block", "32")
            self.assertEqual(a["kernel"], "k_plain")
            self.assertEqual(a["target"], "sm_90")
            glob = sites(a, "global")
            self.assertEqual(len(glob), 2)
            for r in glob:
                self.assertEqual(r["sectors_per_request"], query("coalesce")["sectors"])
                self.assertIsNone(r["line"])  # built without -lineinfo: no .loc, the PTX line stands in

    def test_help_teaches(self):
        rc, out, _ = run("memory", "--help")
        self.assertEqual(rc, 0)
        for words in ("Examples:", "occ memory kernels.ptx", "--param", "256-byte-aligned", "--max-visits"):
            self.assertIn(words, out)


class BadInput(unittest.TestCase):
    def refused(self, *args, words=()):
        rc, out, err = run("memory", *args)
        self.assertEqual(rc, 2, out)
        self.assertTrue(err.startswith("error: "), err)
        for w in words:
            self.assertIn(w, err)
        return err

    def test_missing_file(self):
        self.refused("/nonexistent/k.ptx", words=("FILE", "/nonexistent/k.ptx"))
        self.refused(words=("FILE",))

    def test_kernels_are_listed(self):
        self.refused(SM80, "--kernel", "nope", words=("kernel", "copy_f32", "transpose_padded"))
        self.refused(SM80, words=("kernel", "9 kernels", "row_sum"))

    def test_block_and_grid(self):
        self.refused(SM80, "--kernel", "copy_f32", "--block", "0", words=("block", "1..1024"))
        self.refused(SM80, "--kernel", "copy_f32", "--block", "64,32", words=("block", "1024 threads"))
        self.refused(SM80, "--kernel", "copy_f32", "--block", "a,b", words=("block",))
        self.refused(SM80, "--kernel", "copy_f32", "--grid", "1,70000", words=("grid", "65535"))

    def test_params(self):
        self.refused(SM80, "--kernel", "copy_f32", "--param", "4096", words=("params", "NAME=VALUE"))
        self.refused(SM80, "--kernel", "copy_f32", "--param", "n=4096", words=("params", "copy_f32_param_2", "position"))
        self.refused(SM80, "--kernel", "copy_f32", "--param", "2=abc", words=("params", "integer"))

    def test_warps(self):
        self.refused(SM80, "--kernel", "copy_f32", "--block", "64", "--warps", "5", words=("warps", "0..1"))
        self.refused(SM80, "--kernel", "copy_f32", "--warps", "3:0", words=("warps", "blockIdx.x"))

    def test_not_ptx(self):
        with tempfile.NamedTemporaryFile("wb", suffix=".cubin") as f:
            f.write(b"\x7fELF" + bytes(60))
            f.flush()
            self.refused(f.name, words=("FILE", f.name))
        # A cubin is machine code only: no PTX to run.
        self.refused(os.path.join(BIN, "sm_80.cubin"), words=("FILE", "no PTX", "compute_XX"))
        with tempfile.NamedTemporaryFile("w", suffix=".ptx") as f:
            f.write(".version 8.0\n.target sm_80\n.visible .entry k(\n{\n ld.global.f32 %f1, [%rd1\n}\n")
            f.flush()
            self.refused(f.name, words=("ptx", "line"))

    def test_json_error_object(self):
        rc, out, _ = run("memory", SM80, "--kernel", "nope", "--json")
        self.assertEqual(rc, 2)
        self.assertIn("copy_f32", json.loads(out)["error"])


if __name__ == "__main__":
    unittest.main()
