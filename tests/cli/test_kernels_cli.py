#!/usr/bin/env python3
"""End-to-end tests of `occ kernels PATH...` on the committed corpus (tests/fixtures/binaries,
rebuilt by make_corpus.sh): the table, --json rows of the same shape as `occ occupancy --ptxas`,
--batch with base64 files, --help, and exit codes."""
import base64
import json
import os
import unittest

from occ_cli import run

SRC = os.environ.get("OCC_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.path.join(SRC, "tests", "fixtures", "binaries")


def path(name):
    return os.path.join(BIN, name)


class Kernels(unittest.TestCase):
    def test_amd_bundle_and_llvm_text(self):
        # tests/fixtures/amd: llc-19's code objects in an offload bundle, and llc-19's assembly of the
        # same kernels; the same VGPRs, SGPRs, LDS and answer from both.
        amd = os.path.join(SRC, "tests", "fixtures", "amd")
        rc, out, err = run("kernels", os.path.join(amd, "host_hip.o"), "--gpu", "MI300X", "--threads", "128")
        self.assertEqual(rc, 0, err)
        self.assertIn("1 files (0 cubins, 0 PTX, 2 AMD code objects): 3 rows; MI300X, 128 threads/block", out)
        self.assertRegex(out, r"mfma_tile\s+gfx942\s+\?\s+0 B\s+0\s+\?/\?\s+\?\s+8\s+50%\s+VGPRs \(4/8 waves per SIMD, MI300X\)")
        rc, out, err = run("kernels", os.path.join(amd, "host_hip.o"), "--gpu", "MI300X", "--threads", "128", "--json")
        from_binary = {r["mangled"]: r for r in json.loads(out)["kernels"]}
        rc, out, err = run("occupancy", "--ptxas", os.path.join(amd, "kernels_gfx942.s"), "--gpu", "MI300X", "--threads", "128", "--json")
        self.assertEqual(rc, 0, err)
        for row in json.loads(out)["kernels"]:
            b = from_binary[row["mangled"]]
            for key in ("sgprs", "vgprs_total", "lds", "scratch", "max_workgroup_size"):
                self.assertEqual(b["resources"][key], row["resources"][key], key)
            self.assertEqual(b["occupancy"]["waves_per_simd"], row["occupancy"]["waves_per_simd"])
        rc, out, err = run("kernels", os.path.join(amd, "kernels_gfx942.hsaco"), "--gpu", "H100")
        self.assertEqual(rc, 2)
        self.assertIn("compiled for gfx942 (AMD), but H100-SXM5-80GB is an NVIDIA GPU", err)

    def test_table(self):
        rc, out, err = run("kernels", path("sm_80.cubin"), "--gpu", "A100", "--threads", "256")
        self.assertEqual(rc, 0, err)
        self.assertIn("1 files (1 cubins, 0 PTX): 21 rows; A100-SXM4-80GB, 256 threads/block", out)
        self.assertRegex(out, r"k_smem_static\s+sm_80\s+\d+\s+3\.906 KiB")
        self.assertIn("spill stores and loads are not recorded in binaries", out)
        self.assertIn("__launch_bounds__: at most 128x1x1", out)

    def test_json_rows_have_the_ptxas_shape_and_numbers(self):
        rc, out, err = run("kernels", path("sm_80.cubin"), "--gpu", "A100", "--json")
        self.assertEqual(rc, 0, err)
        k = json.loads(out)
        rc, out, err = run("occupancy", "--ptxas", path("sm_80.log"), "--gpu", "A100", "--json")
        self.assertEqual(rc, 0, err)
        p = json.loads(out)
        self.assertEqual(len(k["kernels"]), len(p["kernels"]))
        from_log = {r["mangled"]: r for r in p["kernels"]}
        for row in k["kernels"]:
            with self.subTest(kernel=row["mangled"]):
                log_row = from_log[row["mangled"]]
                # One shape: every key of a log row, plus where it was read from ("note" is the
                # log's spill sentence, present only when the log reports spills).
                self.assertEqual((set(log_row) - {"note"}) | {"source"}, set(row))
                self.assertEqual(set(log_row["resources"]), set(row["resources"]))
                self.assertEqual(row["format"], "cubin")
                self.assertEqual(row["arch"], "sm_80")
                self.assertEqual(row["source"], {"file": path("sm_80.cubin"), "entry": None})
                for key in ("registers", "smem_static", "stack_frame", "barriers"):
                    self.assertEqual(row["resources"][key], log_row["resources"][key], key)
                self.assertIsNone(row["spill_stores"])   # never 0 for a figure a binary does not hold
                self.assertIsNone(row["resources"]["spill_stores"])
                self.assertIsNone(row["resources"]["spill_loads"])
                self.assertEqual(row["occupancy"], log_row["occupancy"])

    def test_fatbin_with_a_device_uses_the_build_it_loads(self):
        rc, out, err = run("kernels", path("fatbin_size.fatbin"), "--gpu", "H100", "--json")
        self.assertEqual(rc, 0, err)
        r = json.loads(out)
        archs = {row["arch"] for row in r["kernels"]}
        self.assertEqual(archs, {"sm_90", "compute_90"})
        ptx = [row for row in r["kernels"] if row["format"] == "ptx"]
        self.assertTrue(ptx)
        for row in ptx:
            self.assertIsNone(row["occupancy"])
            self.assertEqual(row["error"], "PTX only: JIT-compiled at load, occupancy unknown until compiled")
            self.assertIsNone(row["resources"]["registers"])
        self.assertTrue(all(s["arch"] == "sm_80" for s in r["skipped"]))
        self.assertEqual(r["files"][0]["format"], "fatbin")
        self.assertEqual(r["files"][0]["cubins"], 2)

    def test_host_files(self):
        rc, out, err = run("kernels", path("host.o"), path("libkernels.so"), path("rdc.o"), "--json")
        self.assertEqual(rc, 0, err)
        r = json.loads(out)
        self.assertEqual([f["format"] for f in r["files"]], ["object file", "shared library", "object file"])
        entries = {row["source"]["entry"].split(" ")[0] for row in r["kernels"]}
        self.assertEqual(entries, {".nv_fatbin", "__nv_relfatbin"})

    def test_batch_base64(self):
        with open(path("sm_86.cubin"), "rb") as f:
            b64 = base64.b64encode(f.read()).decode()
        lines = json.dumps({"files": [{"name": "k.cubin", "base64": b64}], "cc": "8.6", "threads": 128}) + "\n" + '{"threads":1}\n'
        rc, out, err = run("kernels", "--batch", stdin=lines)
        self.assertEqual(rc, 1, err)
        first, second = [json.loads(x) for x in out.splitlines()]
        self.assertIsNone(first["error"])
        self.assertEqual(first["kernels"][0]["source"]["file"], "k.cubin")
        self.assertIn("files: required", second["error"])

    def test_help_teaches(self):
        rc, out, _ = run("kernels", "--help")
        self.assertEqual(rc, 0)
        for text in (".cubin", ".fatbin", ".nv_fatbin", "Examples:", "occ kernels build/libmylib.so --gpu H100"):
            self.assertIn(text, out)
        rc, out, _ = run("--help")
        self.assertIn("kernels", out)

    def test_compiler_log_reads_as_its_binary(self):
        # make_corpus.sh keeps nvcc -Xptxas -v's output beside each cubin: `occ kernels` takes the log
        # as --ptxas does (one table of text formats), with the cubin's registers, shared memory and
        # answer for every kernel; the log adds the spills the cubin does not record.
        rc, out, err = run("kernels", path("sm_80.log"), "--gpu", "A100", "--threads", "256", "--json")
        self.assertEqual(rc, 0, err)
        log = json.loads(out)
        self.assertEqual(log["files"][0]["format"], "ptxas log")
        rc, out, err = run("kernels", path("sm_80.cubin"), "--gpu", "A100", "--threads", "256", "--json")
        self.assertEqual(rc, 0, err)
        cubin = {r["mangled"]: r for r in json.loads(out)["kernels"]}
        entries = [r for r in log["kernels"] if r["mangled"] in cubin]
        self.assertGreaterEqual(len(entries), 3)
        for row in entries:
            b = cubin[row["mangled"]]
            self.assertEqual(row["resources"]["registers"], b["resources"]["registers"], row["mangled"])
            self.assertEqual(row["occupancy"]["blocks_per_sm"], b["occupancy"]["blocks_per_sm"], row["mangled"])
        rc, out, err = run("occupancy", "--ptxas", path("sm_80.log"), "--gpu", "A100", "--threads", "256", "--json")
        self.assertEqual(rc, 0, err)
        self.assertEqual([r["mangled"] for r in json.loads(out)["kernels"]], [r["mangled"] for r in log["kernels"]])

    def test_exit_codes(self):
        rc, out, err = run("kernels")
        self.assertEqual(rc, 2)
        self.assertIn("give one or more files", err)
        rc, out, err = run("kernels", path("missing.cubin"))
        self.assertEqual(rc, 2)
        self.assertIn("missing.cubin: cannot open", err)
        # A text that is neither a binary nor a log or profile occ reads (this test's own source).
        rc, out, err = run("kernels", os.path.abspath(__file__), "--json")
        self.assertEqual(rc, 2)
        self.assertIn("test_kernels_cli.py: not a cubin, fatbin or ELF file", json.loads(out)["error"])
        # One bad file among good ones: the good rows, the error, exit 2.
        rc, out, err = run("kernels", path("sm_80.cubin"), os.path.abspath(__file__))
        self.assertEqual(rc, 2)
        self.assertIn("k_plain", out)
        self.assertIn("error: ", err)
        rc, out, err = run("kernels", path("sm_80.cubin"), "--regs", "32")
        self.assertEqual(rc, 2)
        rc, out, err = run("kernels", path("sm_80.cubin"), "--gpu", "nosuchgpu")
        self.assertEqual(rc, 2)
        self.assertIn("gpu", err)
        # Builds that cannot load on the chosen GPU: the error names what the files hold and what to do.
        rc, out, err = run("kernels", path("libkernels.so"), "--gpu", "A100-SXM4-80GB")
        self.assertEqual(rc, 2)
        self.assertIn("no kernel in the files runs on A100-SXM4-80GB (cc 8.0): they are built for sm_86, sm_120; "
                      "choose a GPU of one of those", err)


TRITON = os.path.join(SRC, "tests", "fixtures", "triton", "cache")


class Triton(unittest.TestCase):
    """A Triton cache (tests/fixtures/triton, its README cites the Triton source): each kernel with
    the launch its metadata fixes."""

    def test_cache_rows_have_the_triton_launch(self):
        rc, out, err = run("kernels", TRITON, "--json")
        self.assertEqual(rc, 0, err)
        r = json.loads(out)
        rows = {row["mangled"]: row for row in r["kernels"]}
        self.assertEqual(rows["matmul_kernel"]["device"], "cc 9.0")
        self.assertEqual(r["files"][0]["format"], "Triton cache")
        mm = rows["matmul_kernel"]
        self.assertEqual(mm["launch"]["threads"], 256)
        self.assertEqual(mm["launch"]["smem_dynamic"], 98304)
        self.assertEqual(mm["occupancy"]["blocks_per_sm"], 2)
        self.assertEqual(mm["occupancy"]["limiters"], ["shared_memory"])
        self.assertEqual(rows["add_kernel"]["launch"]["threads"], 128)
        self.assertTrue(mm["source"]["file"].endswith("matmul_kernel.cubin"))
        # On H100 the sm_80 cubin does not load (a cubin runs only on its own major version).
        rc, out, err = run("kernels", TRITON, "--gpu", "H100", "--json")
        self.assertEqual(rc, 0, err)
        self.assertEqual([row["mangled"] for row in json.loads(out)["kernels"]], ["matmul_kernel"])

    def test_table_says_the_launch(self):
        rc, out, err = run("kernels", TRITON, "--threads", "512")
        self.assertEqual(rc, 0, err)
        self.assertIn("each with its Triton launch", out)
        self.assertIn("launch from Triton metadata (matmul_kernel.json): 8 warps x 32 = 256 threads, 96 KiB dynamic shared memory "
                      "(the request's 512 threads are not used for it)", out)

    def test_one_kernel_json(self):
        d = [os.path.join(TRITON, h) for h in sorted(os.listdir(TRITON))
             if os.path.exists(os.path.join(TRITON, h, "add_kernel.json"))][0]
        rc, out, err = run("kernels", os.path.join(d, "add_kernel.json"), "--cc", "8.0", "--json")
        self.assertEqual(rc, 0, err)
        row = json.loads(out)["kernels"][0]
        self.assertEqual(row["occupancy"]["warps_per_sm"], 64)


if __name__ == "__main__":
    unittest.main()
