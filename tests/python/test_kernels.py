#!/usr/bin/env python3
"""occ.kernels(path_or_bytes, **launch) and occ.triton reading a compiled kernel's cubin: the same
rows as `occ kernels --json`, Triton caches at their own launch, clear errors."""
import collections
import glob
import json
import os
import subprocess
import unittest

import occ
import occ.triton as ot

SRC = os.environ.get("OCC_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.path.join(SRC, "tests", "fixtures", "binaries")
TRITON = os.path.join(SRC, "tests", "fixtures", "triton", "cache")
OCC_BIN = os.environ.get("OCC_BIN")

GPUTarget = collections.namedtuple("GPUTarget", "backend arch warp_size")
Metadata = collections.namedtuple("Metadata", "name shared num_warps num_ctas num_stages target")


def triton_file(name):
    return glob.glob(os.path.join(TRITON, "*", name))[0]


def read(path):
    with open(path, "rb") as f:
        return f.read()


class Kernels(unittest.TestCase):
    def test_path_and_bytes_give_the_same_rows(self):
        by_path = occ.kernels(os.path.join(BIN, "sm_80.cubin"), gpu="A100", threads=256)
        by_bytes = occ.kernels(read(os.path.join(BIN, "sm_80.cubin")), gpu="A100", threads=256, name="sm_80.cubin")
        self.assertIsInstance(by_path, occ.KernelsReport)
        self.assertEqual(len(by_path["kernels"]), 21)
        strip = lambda rows: [{k: v for k, v in r.items() if k != "source"} for r in rows]
        self.assertEqual(strip(by_path.to_dict()["kernels"]), strip(by_bytes.to_dict()["kernels"]))
        regs = {r["mangled"]: r["resources"]["registers"] for r in by_path["kernels"]}
        self.assertEqual(regs["_Z11k_many_regsPfi"], 164)

    @unittest.skipUnless(OCC_BIN, "OCC_BIN not set")
    def test_same_as_the_cli(self):
        out = subprocess.run([OCC_BIN, "kernels", TRITON, "--json"], capture_output=True, text=True, check=True).stdout
        self.assertEqual(occ.kernels(TRITON).to_dict(), json.loads(out))

    def test_triton_cache_at_its_launch(self):
        r = occ.kernels(TRITON, gpu="H100")
        rows = {row["mangled"]: row for row in r["kernels"]}
        self.assertEqual(list(rows), ["matmul_kernel"])  # the sm_80 cubin does not load on cc 9.0
        mm = rows["matmul_kernel"]
        self.assertEqual((mm["launch"]["threads"], mm["launch"]["smem_dynamic"]), (256, 98304))
        self.assertEqual(mm["occupancy"]["blocks_per_sm"], 2)
        # A kernel's two files as bytes: the metadata is paired with the cubin of the same stem.
        pair = {"h/add_kernel.json": read(triton_file("add_kernel.json")), "h/add_kernel.cubin": read(triton_file("add_kernel.cubin"))}
        row = occ.kernels(pair, cc="8.0")["kernels"][0]
        self.assertEqual(row["launch"]["threads"], 128)
        self.assertEqual(row["occupancy"]["warps_per_sm"], 64)

    def test_amd_code_objects(self):
        # A HIP offload bundle (tests/fixtures/amd, llc-19 code objects for gfx942 and gfx1100): the
        # gfx942 build on MI300X, each row's figures as llc printed them (kernels_gfx942.s).
        amd = os.path.join(SRC, "tests", "fixtures", "amd")
        r = occ.kernels(os.path.join(amd, "bundle_zlib.hipfb"), gpu="MI300X", threads=128)
        rows = {row["mangled"]: row for row in r["kernels"]}
        self.assertEqual(sorted(rows), ["_Z5scalePfS_i", "_Z9reduce_k2Pf", "mfma_tile"])
        mm = rows["mfma_tile"]
        self.assertEqual((mm["arch"], mm["device"], mm["resources"]["vgprs_total"], mm["resources"]["agprs"]), ("gfx942", "MI300X", 116, 32))
        self.assertIsNone(mm["resources"]["vgprs"])  # the code object gives VGPRs + AGPRs together
        self.assertIn("VGPRs and AGPRs together", mm["unread"]["registers"])
        self.assertEqual(mm["occupancy"]["waves_per_simd"], 4)  # llc-19: "; Occupancy: 4"
        self.assertEqual(len(r["skipped"]), 3)  # the gfx1100 builds
        same = occ.kernels(read(os.path.join(amd, "bundle_zlib.hipfb")), gpu="MI300X", threads=128, name="bundle_zlib.hipfb")
        self.assertEqual(same["kernels"][0]["occupancy"], rows["_Z5scalePfS_i"]["occupancy"])
        with self.assertRaisesRegex(ValueError, "is an NVIDIA GPU"):
            occ.kernels(os.path.join(amd, "kernels_gfx942.hsaco"), gpu="H100")

    def test_amd_profiles_and_triton_hip(self):
        # rocprof-compute: the Omniperf tutorial's ldsbound (tests/fixtures/rocprof/SOURCES.md) on
        # gfx90a at 256 work-items: 1 wave per SIMD, LDS-limited; the run measured 415.52 waves.
        prof = os.path.join(SRC, "tests", "fixtures", "rocprof")
        row = occ.kernels(os.path.join(prof, "tutorial_ldsbound.txt"), arch="gfx90a", threads=256)["kernels"][0]
        self.assertEqual(row["occupancy"]["waves_per_simd"], 1)
        self.assertEqual(row["profile"]["measured"]["wavefront_occupancy"], 415.52)
        # A workload folder: pmc_perf.csv with its sysinfo.csv (gfx942), one row per dispatch.
        rows = occ.kernels(os.path.join(prof, "dispatch_0_mi300x"))["kernels"]
        self.assertEqual([r["arch"] for r in rows], ["gfx942"] * 3)
        # Triton's HIP backend: <name>.hsaco at num_warps x warp_size = 256 work-items, 32 KiB LDS.
        hip = occ.kernels(os.path.join(SRC, "tests", "fixtures", "triton", "hip_cache"))["kernels"][0]
        self.assertEqual((hip["arch"], hip["launch"]["threads"], hip["occupancy"]["waves_per_simd"]), ("gfx942", 256, 2))

    def test_errors(self):
        with self.assertRaisesRegex(ValueError, "no_such.cubin"):
            occ.kernels(os.path.join(BIN, "no_such.cubin"))
        with self.assertRaisesRegex(ValueError, "not a cubin, fatbin or ELF"):
            occ.kernels(b"hello", name="hello.bin")


class TritonCubin(unittest.TestCase):
    """occ.triton without n_regs: the registers come from the compiled kernel's cubin."""

    def kernel(self, **extra):
        cubin = read(triton_file("matmul_kernel.cubin"))
        k = type("K", (), {})()
        k.metadata = Metadata("matmul_kernel", 98304, 8, 1, 3, GPUTarget("cuda", 90, 32))
        k.n_regs = None
        k.asm = {"cubin": cubin, "ptx": "..."}
        k.init_calls = 0
        for key, value in extra.items():
            setattr(k, key, value)
        return k

    def test_registers_from_the_cubin_without_loading(self):
        k = self.kernel()
        k._init_handles = lambda: self.fail("must not need a GPU")
        req = ot.request(k)
        self.assertEqual(req["regs"], 40)  # tests/fixtures/triton/matmul_kernel.log: Used 40 registers
        self.assertEqual(req["threads"], 256)
        self.assertEqual(ot.blocks_per_sm(k, "H100"), 2)

    def test_triton3_binary_attribute(self):
        k = self.kernel()
        del k.asm
        k.kernel = read(triton_file("matmul_kernel.cubin"))
        self.assertEqual(ot.request(k, "H100")["regs"], 40)


if __name__ == "__main__":
    unittest.main()
