#!/usr/bin/env python3
"""rocprof-compute analyze output and Triton HIP caches through the CLI (`occ kernels`, `occ
occupancy --ptxas`), as tables and JSON. Known answers: the Omniperf tutorial "Occupancy limiters
example" (ROCm/omniperf docs/tutorial/includes/occupancy-limiters-example.rst; fixtures and sources in
tests/fixtures/rocprof/SOURCES.md): ldsbound on an MI250 GCD (gfx90a), 256 work-items per workgroup
(sample/occupancy.hip), 64 KiB of LDS -> 1 workgroup per CU, 1 wave per SIMD; the run measured 415.52
waves on the GPU and "Insufficient CU LDS" 96.47 %."""
import json
import os
import unittest

from occ_cli import query, run

ROOT = os.environ.get("OCC_SOURCE_DIR", ".")
LDS = os.path.join(ROOT, "tests/fixtures/rocprof/tutorial_ldsbound.txt")
HIP = os.path.join(ROOT, "tests/fixtures/triton/hip_cache")


class RocprofCompute(unittest.TestCase):
    def test_kernels_json_keeps_measured_apart(self):
        a = query("kernels", LDS, "--arch", "gfx90a", "--threads", "256")
        self.assertIsNone(a["error"])
        row = a["kernels"][0]
        self.assertEqual(row["occupancy"]["waves_per_simd"], 1)
        self.assertEqual(row["occupancy"]["blocks_per_sm"], 1)
        self.assertEqual(row["occupancy"]["limiters"], ["lds"])
        self.assertEqual(row["resources"]["lds"], 65536)
        self.assertEqual(row["profile"]["from"], "rocprof-compute analyze")
        self.assertEqual(row["profile"]["measured"]["wavefront_occupancy"], 415.52)
        self.assertEqual(row["profile"]["measured"]["insufficient_cu_lds_pct"], 96.47)
        self.assertIn("kernel_time_ns", row["profile"]["unread"])
        self.assertNotIn("wavefront_occupancy", row["occupancy"])

    def test_ptxas_table_prints_measured_section(self):
        rc, out, err = run("occupancy", "--ptxas", LDS, "--arch", "gfx90a", "--threads", "256")
        self.assertEqual(rc, 0, err)
        self.assertIn("measured by rocprof-compute analyze", out)
        self.assertIn("insufficient_cu_lds_pct 96.47", out)

    def test_no_target_is_the_rows_reason(self):
        rc, out, err = run("kernels", LDS, "--json")
        a = json.loads(out)
        self.assertIn("give gpu (MI300X) or arch (gfx942)", a["kernels"][0]["error"])
        self.assertIn("arch", a["kernels"][0]["unread"])


class PmcPerfCsv(unittest.TestCase):
    def test_workload_folder(self):
        # ROCm/omniperf tests/workloads/dispatch_0/MI300X_A1 (tests/fixtures/rocprof/SOURCES.md).
        a = query("kernels", os.path.join(ROOT, "tests/fixtures/rocprof/dispatch_0_mi300x"))
        self.assertIsNone(a["error"])
        self.assertEqual(len(a["kernels"]), 3)
        row = a["kernels"][0]
        self.assertEqual(row["arch"], "gfx942")
        self.assertEqual(row["source"]["entry"], "Dispatch_ID 0")
        self.assertEqual(row["occupancy"]["waves_per_simd"], 8)
        self.assertEqual(row["profile"]["measured"]["total_wavefronts"], 16384.0)


class TritonHip(unittest.TestCase):
    def test_hip_cache(self):
        a = query("kernels", HIP)
        self.assertIsNone(a["error"])
        row = a["kernels"][0]
        self.assertEqual(row["arch"], "gfx942")
        self.assertEqual(row["launch"]["threads"], 256)
        self.assertEqual(row["launch"]["smem_dynamic"], 32768)
        self.assertEqual(row["occupancy"]["waves_per_simd"], 2)
        self.assertEqual(row["occupancy"]["limiters"], ["lds"])


if __name__ == "__main__":
    unittest.main()
