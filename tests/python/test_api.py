#!/usr/bin/env python3
"""The occ Python API: typed answers, errors, the schema-derived signatures, the fast paths
(sweep, grid, blocks_per_sm) against the single-query answers, the list fallback without NumPy,
and devices from runtime properties (torch, Triton, cuda-python / CuPy spellings)."""
import inspect
import os
import random
import sys
import time
import types
import unittest

if os.environ.get("OCC_TEST_NO_NUMPY"):
    sys.modules["numpy"] = None   # `import numpy` now fails: the list path, as on a machine without NumPy

import occ

try:
    import numpy as np
except ImportError:
    np = None


class Tiles(unittest.TestCase):
    def test_ldmatrix_tile_and_solver(self):
        b = occ.banks(tile=[64, 64], elem_bytes=2, ldmatrix="x4")
        self.assertEqual((b.wavefronts, b.ideal_wavefronts, b.conflicts, b.max_way), (512, 64, 448, 8))
        self.assertEqual(b.tile.solver.cute_swizzle, "cute::Swizzle<3,3,3>")
        self.assertEqual(occ.banks(tile=[64, 64], elem_bytes=2, ldmatrix="x4", cute_swizzle="Swizzle<3,3,3>").conflicts, 0)
        self.assertEqual(occ.banks(tile=[64, 64], elem_bytes=2, ldmatrix="x4.trans", tma_swizzle="128B").conflicts, 0)
        s = occ.solve_swizzle(32, 32, 4)
        self.assertTrue(s.zero_conflicts)
        self.assertEqual((s.cute_swizzle, s.expression), ("cute::Swizzle<5,0,5>", "i ^ ((i >> 5) & 0x1f)"))
        s = occ.solve_swizzle(64, 64, 2, accesses=("row", "ldmatrix.x4"), access_bytes=16)
        self.assertEqual((s.cute_swizzle, s.tma_swizzle, s.conflicts_plain), ("cute::Swizzle<3,3,3>", "128B", 448))
        with self.assertRaisesRegex(ValueError, "tile_access: each entry"):
            occ.solve_swizzle(64, 64, 2, accesses=("diagonal",))
        c = occ.coalesce(tile=[64, 64], elem_bytes=2, access_bytes=16, tile_access="cp_async", global_pitch=4096)
        self.assertEqual((c.sectors, c.ideal_sectors, c.excess_sectors), (256, 256, 0))


class Answers(unittest.TestCase):
    def test_done_when(self):
        self.assertEqual(occ.occupancy(gpu="A100", threads=256, regs=64).occupancy, 0.5)

    def test_attribute_access_and_to_dict(self):
        r = occ.occupancy(gpu="A100", threads=256, regs=64, smem_dynamic="48K", optin=True)
        self.assertIsInstance(r, occ.Occupancy)
        self.assertEqual((r.blocks_per_sm, r.warps_per_sm, r.limiters), (3, 24, ["shared_memory"]))
        self.assertEqual(r.limits.registers, 4)
        self.assertIsNone(r.limits.barriers)
        self.assertEqual(r.device.name, "A100-SXM4-80GB")
        self.assertEqual(r["device"]["sm_count"], 108)
        self.assertTrue(r.ok)
        d = r.to_dict()
        self.assertEqual(list(d)[:4], ["blocks_per_sm", "warps_per_sm", "threads_per_sm", "occupancy"])
        d["device"]["sm_count"] = 0   # a copy
        self.assertEqual(r.device.sm_count, 108)
        with self.assertRaises(AttributeError) as e:
            r.blocks_per_SM
        self.assertIn("blocks_per_sm", str(e.exception))
        with self.assertRaises(AttributeError):
            r.blocks_per_sm = 5
        self.assertIn("limiters", dir(r))
        self.assertIn("blocks_per_sm=3", repr(r))

    def test_every_kind_is_a_function(self):
        for kind in occ.kinds():
            self.assertTrue(callable(getattr(occ, kind)), kind)
        with self.assertRaises(AttributeError):
            occ.no_such_kind

    def test_answer_types(self):
        self.assertIsInstance(occ.advise(gpu="A100", threads=256, regs=64), occ.Advice)
        self.assertIsInstance(occ.coalesce(stride=2), occ.Coalesce)
        self.assertIsInstance(occ.banks(pattern="2d", block=[32, 32], order="column"), occ.Banks)
        self.assertIsInstance(occ.roofline(gpu="A100", op="matmul", m=4096, n=4096, k=4096), occ.Roofline)
        self.assertIsInstance(occ.waves(gpu="A100", threads=256, regs=64, grid=1000), occ.Waves)
        self.assertIsInstance(occ.clusters(gpu="H100", threads=256, cluster_size=8), occ.Clusters)
        self.assertIsInstance(occ.gpus(), occ.Gpus)
        self.assertGreater(len(occ.gpus().gpus), 40)
        self.assertEqual(occ.coalesce(stride=2).sectors if "sectors" in occ.coalesce(stride=2) else 8, 8)

    def test_waves_match_advise(self):
        w = occ.waves(gpu="A100", threads=256, regs=64, grid=1000)
        a = occ.advise(gpu="A100", threads=256, regs=64, grid=1000)
        for key in ("blocks_per_wave", "waves", "tail_blocks"):
            self.assertEqual(w[key], a.waves[key], key)

    def test_values_python_gives(self):
        r = occ.occupancy(gpu="A100", block=(16, 16), regs=np.int64(40) if np else 40, smem_dynamic=20480.0)
        self.assertEqual(r.input.block, [16, 16, 1])
        self.assertEqual(occ.occupancy(cc=8.6, threads=256).device.cc_minor, 6)
        if np is not None:
            a = occ.occupancy(block=np.array([16, 16]), regs=np.float64(40.0), smem_dynamic=np.array(20480))
            self.assertEqual(a.to_dict(), occ.occupancy(block=[16, 16], regs=40.0, smem_dynamic=20480).to_dict())


class Errors(unittest.TestCase):
    def test_range_message_names_field_and_range(self):
        with self.assertRaises(ValueError) as e:
            occ.occupancy(gpu="A100", threads=0)
        self.assertEqual(str(e.exception), "threads must be 1..1024 (threads per block), got 0")
        with self.assertRaises(ValueError) as e:
            occ.occupancy(gpu="A100", regs=300)
        self.assertEqual(str(e.exception), "regs must be 0..255 (registers per thread), got 300")

    def test_reader_messages(self):
        with self.assertRaisesRegex(ValueError, r'^gpu: unknown GPU "H100-SMX5"; did you mean "H100-SXM5-80GB"\?'):
            occ.occupancy(gpu="H100-SMX5")
        with self.assertRaisesRegex(ValueError, "^bogus: unknown field in occupancy request"):
            occ.occupancy(bogus=1)
        # A keyword meant for another field, or another tool's name for one, is named.
        with self.assertRaisesRegex(ValueError, r'^smem: unknown field in occupancy request; did you mean "smem_dynamic"'):
            occ.occupancy(gpu="A100", smem="48K")
        with self.assertRaisesRegex(ValueError, r'^num_warps: .*did you mean "threads" \(threads per block = num_warps x 32\)\?'):
            occ.occupancy(gpu="A100", num_warps=4)
        with self.assertRaisesRegex(ValueError, r'^thread: .*did you mean "threads"\?'):
            occ.advise(gpu="A100", thread=256)
        with self.assertRaisesRegex(ValueError, "^threads"):
            occ.occupancy(threads="lots")
        with self.assertRaisesRegex(ValueError, "^stride"):
            occ.coalesce(stride=1 << 30)

    def test_same_message_as_call(self):
        for req in ({"threads": 0}, {"gpu": "nope"}, {"smem_dynamic": "12Q"}, {"carveout": 101}):
            raw = occ.call("occupancy", req)
            with self.assertRaises(ValueError) as e:
                occ.occupancy(**req)
            self.assertEqual(str(e.exception), raw["error"])

    def test_impossible_launch_is_an_answer(self):
        r = occ.occupancy(gpu="A100", threads=256, smem_dynamic="200K")
        self.assertEqual(r.blocks_per_sm, 0)
        self.assertFalse(r.ok)
        self.assertIn("over the 49 KiB a block may use", r.error)
        self.assertEqual(r.limiters, ["shared_memory"])
        r = occ.occupancy(gpu="A100", threads=1024, regs=255)
        self.assertEqual((r.blocks_per_sm, r.limiters), (0, ["registers"]))

    def test_python_values_json_cannot_carry(self):
        with self.assertRaisesRegex(ValueError, "smem_dynamic: nan is not a JSON number"):
            occ.occupancy(smem_dynamic=float("nan"))
        with self.assertRaisesRegex(TypeError, "threads: object is not a JSON value"):
            occ.occupancy(threads=object())
        with self.assertRaisesRegex(TypeError, "bytes"):
            occ.occupancy(gpu=b"A100")
        with self.assertRaisesRegex(ValueError, "not valid Unicode"):
            occ.occupancy(gpu="\ud800")

    def test_none_means_not_given(self):
        self.assertEqual(occ.occupancy(gpu=None, threads=256, regs=None).to_dict(), occ.occupancy(threads=256).to_dict())


class Schema(unittest.TestCase):
    def test_fields_and_signatures(self):
        keys = [f["key"] for f in occ.fields("occupancy")]
        self.assertEqual(keys[:5], ["gpu", "cc", "device", "threads", "block"])
        self.assertIn("smem_dynamic", keys)
        for f in occ.fields("occupancy"):
            self.assertTrue(f["help"], f["key"])
        params = list(inspect.signature(occ.occupancy).parameters)
        self.assertEqual(params, keys)
        self.assertIn("smem_dynamic (size", occ.occupancy.__doc__)
        self.assertEqual(list(inspect.signature(occ.ptxas).parameters)[0], "log")
        with self.assertRaises(ValueError):
            occ.fields("nope")


def single(device, threads, regs, smem_static, smem_dynamic, **opts):
    try:
        return occ.occupancy(**device, threads=threads, regs=regs, smem_static=smem_static, smem_dynamic=smem_dynamic, **opts).blocks_per_sm
    except ValueError:
        return -1


class FastPaths(unittest.TestCase):
    DEVICES = [{"gpu": "A100"}, {"gpu": "H100"}, {"gpu": "RTX-4090"}, {"gpu": "GTX-1080"}, {"cc": "3.7"}, {"cc": "12.0"},
               {"device": {"major": 8, "minor": 6, "multiProcessorCount": 10, "maxThreadsPerBlock": 512}}]

    def test_blocks_per_sm_equals_occupancy(self):
        rng = random.Random(7)
        for device in self.DEVICES:
            for opts in ({}, {"optin": True}, {"carveout": 50}, {"barriers": 4}, {"cache_config": "shared"},
                         {"max_dynamic_smem": "64K", "optin": True}, {"partitioned_gc": "on"}):
                n = 150
                t = [rng.choice([1, 32, 33, 64, 96, 128, 256, 384, 512, 640, 768, 1024]) for _ in range(n)]
                g = [rng.choice([0, 16, 24, 32, 40, 64, 72, 96, 128, 168, 255]) for _ in range(n)]
                ss = [rng.choice([0, 0, 1024, 4096, 20000]) for _ in range(n)]
                sd = [rng.choice([0, 0, 8192, 32768, 49152, 65536, 100000, 160000, 230000]) for _ in range(n)]
                got = list(occ.blocks_per_sm(t, g, ss, sd, **device, **opts))
                want = [single(device, *c, **opts) for c in zip(t, g, ss, sd)]
                self.assertEqual(got, want, f"{device} {opts}")

    def test_blocks_per_sm_shapes_and_errors(self):
        self.assertEqual(occ.blocks_per_sm(256, 64, gpu="A100"), 4)
        self.assertIsInstance(occ.blocks_per_sm(256, 64, gpu="A100"), int)
        self.assertEqual(occ.blocks_per_sm(256, 64, 0, "48K", gpu="A100", optin=True), 3)
        with self.assertRaises(ValueError) as e:
            occ.blocks_per_sm([256, 256, 0], [32, 300, 32], gpu="A100")
        self.assertEqual(str(e.exception), "configuration 1: regs must be 0..255 (registers per thread), got 300")
        with self.assertRaisesRegex(ValueError, "one length"):
            occ.blocks_per_sm([256, 128], [32, 32, 32])
        with self.assertRaisesRegex(ValueError, "^block: blocks_per_sm\\(\\) takes threads"):
            occ.blocks_per_sm(256, 32, block=[16, 16])
        with self.assertRaisesRegex(ValueError, "^gpu: unknown GPU"):
            occ.blocks_per_sm([256], [32], gpu="nope")
        if np is not None:
            out = occ.blocks_per_sm(np.array([[128], [256]]), np.array([32, 64, 128]), gpu="A100")
            self.assertEqual(out.shape, (2, 3))
            self.assertEqual(out.dtype, np.int32)
            self.assertEqual(out.tolist(), [[16, 8, 4], [8, 4, 2]])

    def test_blocks_per_sm_is_fast(self):
        n = 100_000
        rng = random.Random(3)
        t = [rng.randrange(1, 33) * 32 for _ in range(n)]
        g = [rng.randrange(16, 256) for _ in range(n)]
        sd = [rng.randrange(0, 100) * 1024 for _ in range(n)]
        if np is not None:
            t, g, sd = np.array(t), np.array(g), np.array(sd)
        t0 = time.perf_counter()
        out = occ.blocks_per_sm(t, g, 0, sd, gpu="H100", optin=True)
        dt = time.perf_counter() - t0
        print(f"blocks_per_sm: {n} configurations in {dt * 1e3:.1f} ms ({dt / n * 1e9:.0f} ns each)", file=sys.stderr)
        self.assertEqual(len(out), n)
        self.assertLess(dt, 2.0)

    def test_sweep_equals_occupancy(self):
        for over, base in (("threads", {"gpu": "A100", "regs": 48, "smem_dynamic": 12000}),
                           ("regs", {"gpu": "H100", "threads": 384}),
                           ("smem", {"gpu": "RTX-4090", "threads": 128, "optin": True})):
            s = occ.sweep(over, **base)
            self.assertEqual(s.input, {"smem": "smem_dynamic"}.get(over, over))
            self.assertGreater(len(s), 100)
            key = {"smem": "smem_dynamic"}.get(over, over)
            for i in range(0, len(s), max(1, len(s) // 200)):
                r = occ.occupancy(**{**base, key: int(s.x[i])})
                self.assertEqual((int(s.blocks_per_sm[i]), float(s.occupancy[i]), s.limiter_names(i)),
                                 (r.blocks_per_sm, r.occupancy, r.limiters), f"{over}={s.x[i]}")
            # The occupancy answer's own sweep lists the points where the answer changes.
            steps = occ.occupancy(**base, sweep=over).sweep.points
            for p in steps:
                i = list(s.x).index(p.x)
                self.assertEqual((int(s.blocks_per_sm[i]), s.limiter_names(i)), (p.blocks_per_sm, p.limiters))
        with self.assertRaisesRegex(ValueError, "^over must be one of threads, regs, smem"):
            occ.sweep("blocks", gpu="A100")
        with self.assertRaisesRegex(ValueError, "^regs must be 0..255"):
            occ.sweep("threads", gpu="A100", regs=256)

    def test_grid_equals_occupancy(self):
        g = occ.grid(gpu="H100", smem_dynamic="32K")
        self.assertEqual(g.at(256, 64), occ.occupancy(gpu="H100", threads=256, regs=64, smem_dynamic="32K").blocks_per_sm)
        rng = random.Random(5)
        cells = [(rng.randrange(1, 1025), rng.randrange(0, 256)) for _ in range(1500)]
        want = occ.blocks_per_sm([t for t, _ in cells], [r for _, r in cells], 0, 32768, gpu="H100")
        self.assertEqual([g.at(t, r) for t, r in cells], list(want))
        self.assertAlmostEqual(float(g.occupancy[255][64]), occ.occupancy(gpu="H100", threads=256, regs=64, smem_dynamic="32K").occupancy)
        with self.assertRaisesRegex(ValueError, "^threads: grid"):
            occ.grid(threads=256)

    def test_lists_without_numpy(self):
        if np is None:
            self.skipTest("NumPy is not installed: the list path is the only one and the tests above ran it")
        s_np, g_np = occ.sweep("regs", gpu="A100", threads=256), occ.grid(gpu="A100")
        b_np = occ.blocks_per_sm([256, 128], [64, 32], gpu="A100")
        saved, occ._arrays._np = occ._arrays._np, None  # the array faces' NumPy (python/occ/_arrays.py)
        try:
            s, g = occ.sweep("regs", gpu="A100", threads=256), occ.grid(gpu="A100")
            b = occ.blocks_per_sm([256, 128], [64, 32], gpu="A100")
        finally:
            occ._arrays._np = saved
        self.assertIsInstance(s.blocks_per_sm, list)
        self.assertEqual(s.to_dict(), s_np.to_dict())
        self.assertIsInstance(g.blocks_per_sm, list)
        self.assertEqual(g.blocks_per_sm, g_np.blocks_per_sm.tolist())
        self.assertEqual(b, b_np.tolist())
        self.assertIsInstance(b, list)


# Runtime properties of an A100-SXM4-80GB as each library spells them (values: cudaDeviceProp of
# that part: 108 SMs, 164 KiB shared memory per SM, 163 KiB opt-in per block).
TORCH_A100 = types.SimpleNamespace(name="NVIDIA A100-SXM4-80GB", major=8, minor=0, total_memory=85_100_000_000,
                                   multi_processor_count=108, warp_size=32, max_threads_per_multi_processor=2048,
                                   regs_per_multiprocessor=65536, shared_memory_per_block=49152,
                                   shared_memory_per_block_optin=166912, shared_memory_per_multiprocessor=167936,
                                   L2_cache_size=41943040, is_integrated=False)
TRITON_A100 = {"max_shared_mem": 166912, "max_num_regs": 65536, "multiprocessor_count": 108, "warpSize": 32,
               "sm_clock_rate": 1410000, "mem_clock_rate": 1593000, "mem_bus_width": 5120}
CUDART_A100 = {"name": b"NVIDIA A100-SXM4-80GB\x00\x00", "major": 8, "minor": 0, "multiProcessorCount": 108,
               "warpSize": 32, "maxThreadsPerBlock": 1024, "maxThreadsPerMultiProcessor": 2048,
               "maxBlocksPerMultiProcessor": 32, "regsPerBlock": 65536, "regsPerMultiprocessor": 65536,
               "sharedMemPerBlock": 49152, "sharedMemPerMultiprocessor": 167936, "sharedMemPerBlockOptin": 166912,
               "reservedSharedMemPerBlock": 1024, "totalGlobalMem": 85_100_000_000, "clockRate": 1410000}


class Devices(unittest.TestCase):
    def same_as_named(self, dev):
        for launch in ({"threads": 256, "regs": 64}, {"threads": 128, "regs": 32, "smem_dynamic": "100K", "optin": True},
                       {"threads": 1024, "regs": 40, "carveout": 25}):
            a = occ.occupancy(device=dev, **launch).to_dict()
            b = occ.occupancy(gpu="A100", **launch).to_dict()
            for d in (a, b):
                del d["device"], d["input"]
            self.assertEqual(a, b, launch)

    def test_torch_properties(self):
        dev = occ.device_from_properties(TORCH_A100)
        self.assertEqual(dev["multiProcessorCount"], 108)
        self.assertEqual(dev["name"], "NVIDIA A100-SXM4-80GB")
        self.same_as_named(dev)
        self.assertEqual(occ.occupancy(device=dev, threads=256, regs=64, grid=1000).to_dict()["device"]["sm_count"], 108)

    def test_triton_properties(self):
        with self.assertRaisesRegex(ValueError, "major"):
            occ.device_from_properties(TRITON_A100)
        dev = occ.device_from_properties(TRITON_A100, cc="8.0")
        self.assertEqual((dev["major"], dev["minor"], dev["regsPerBlock"], dev["sharedMemPerBlockOptin"]), (8, 0, 65536, 166912))
        self.same_as_named(dev)
        self.assertEqual(occ.device_from_properties(TRITON_A100, cc=(8, 0)), dev)
        self.assertEqual(occ.device_from_properties(TRITON_A100, cc="sm_80"), dev)

    def test_cudart_properties(self):
        dev = occ.device_from_properties(CUDART_A100)
        self.assertEqual(dev["name"], "NVIDIA A100-SXM4-80GB")
        self.same_as_named(dev)

    def test_bad_properties(self):
        with self.assertRaisesRegex(ValueError, r"^device\.major"):
            occ.device_from_properties({"major": 2, "minor": 0})
        with self.assertRaisesRegex(ValueError, r"^device\.multiProcessorCount"):
            occ.device_from_properties({"major": 8, "minor": 0, "multi_processor_count": 0})
        with self.assertRaisesRegex(ValueError, "^cc:"):
            occ.device_from_properties({}, cc="eight")


if __name__ == "__main__":
    unittest.main(verbosity=2)
