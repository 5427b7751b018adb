#!/usr/bin/env python3
"""occ.triton with duck-typed stand-ins for Triton's objects (Triton is not installable here).

The stand-ins mirror the attributes occ.triton reads:
  Triton 3.x CompiledKernel: n_regs, n_spills (None until _init_handles() loads the binary),
      metadata = a namedtuple with shared, num_warps, num_ctas, target = GPUTarget(backend, arch,
      warp_size) (python/triton/compiler/compiler.py, python/triton/backends/compiler.py)
  Triton 2.x CompiledKernel: metadata a dict; shared, num_warps, num_ctas also as attributes
  triton.Config: kwargs, num_warps (default 4), num_stages, num_ctas, maxnreg
"""
import collections
import types
import unittest

import occ
import occ.triton as ot

GPUTarget = collections.namedtuple("GPUTarget", "backend arch warp_size")
Metadata = collections.namedtuple("Metadata", "name shared num_warps num_ctas num_stages target")


class Kernel3:
    """Triton 3.x: n_regs and n_spills appear when the binary is loaded."""

    def __init__(self, n_regs, shared, num_warps, num_ctas=1, arch=80, n_spills=0, loaded=True):
        self.metadata = Metadata("kernel", shared, num_warps, num_ctas, 3, GPUTarget("cuda", arch, 32))
        self._regs, self._spills = n_regs, n_spills
        self.n_regs = n_regs if loaded else None
        self.n_spills = n_spills if loaded else None
        self.init_calls = 0

    def _init_handles(self):
        self.init_calls += 1
        self.n_regs, self.n_spills = self._regs, self._spills


class Kernel2:
    """Triton 2.x: metadata is a dict; the launch attributes also sit on the kernel."""

    def __init__(self, n_regs, shared, num_warps):
        self.metadata = {"shared": shared, "num_warps": num_warps, "num_ctas": 1}
        self.shared, self.num_warps, self.num_ctas = shared, num_warps, 1
        self.n_regs, self.n_spills = n_regs, 0


def Config(num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, **kwargs):
    return types.SimpleNamespace(kwargs=kwargs, num_warps=num_warps, num_stages=num_stages, num_ctas=num_ctas, maxnreg=maxnreg)


def matmul_smem(cfg):
    """fp16 A and B tiles per pipeline stage: (BM*BK + BK*BN) * 2 bytes * num_stages."""
    k = cfg.kwargs
    return (k["BLOCK_M"] * k["BLOCK_K"] + k["BLOCK_K"] * k["BLOCK_N"]) * 2 * cfg.num_stages


class CompiledKernels(unittest.TestCase):
    def test_same_as_occupancy(self):
        for kernel, gpu in ((Kernel3(40, 16384, 4), "A100"), (Kernel3(96, 0, 8), "H100"), (Kernel2(64, 32768, 4), "RTX-4090"),
                            (Kernel3(32, 98304, 4), "A100"), (Kernel3(255, 200000, 8), "H100")):
            md = kernel.metadata
            shared = md["shared"] if isinstance(md, dict) else md.shared
            warps = md["num_warps"] if isinstance(md, dict) else md.num_warps
            extra = {"optin": True, "cache_config": "shared"} if shared > 49152 else {}
            want = occ.occupancy(gpu=gpu, threads=warps * 32, regs=kernel.n_regs, smem_dynamic=shared, **extra)
            self.assertEqual(ot.blocks_per_sm(kernel, gpu), want.blocks_per_sm, (gpu, kernel.n_regs, shared, warps))
            self.assertEqual(ot.occupancy(kernel, gpu).to_dict(), want.to_dict())

    def test_request_is_how_triton_launches(self):
        self.assertEqual(ot.request(Kernel3(40, 16384, 4), "A100"), {"gpu": "A100", "threads": 128, "regs": 40, "smem_dynamic": 16384})
        # Above 48 KiB Triton's loader opts in to the device maximum and prefers shared memory.
        self.assertEqual(ot.request(Kernel3(40, 98304, 8), "H100"),
                         {"gpu": "H100", "threads": 256, "regs": 40, "smem_dynamic": 98304, "optin": True, "cache_config": "shared"})
        r = ot.occupancy(Kernel3(40, 98304, 8), "A100")
        self.assertEqual((r.blocks_per_sm, r.limiters), (1, ["shared_memory"]))
        self.assertEqual(ot.blocks_per_sm(Kernel3(40, 200 * 1024, 4), "A100"), 0)
        self.assertIn("above the kernel's max_dynamic_smem 163 KiB", ot.occupancy(Kernel3(40, 200 * 1024, 4), "A100").error)

    def test_device_from_kernel_target(self):
        k = Kernel3(64, 0, 4, arch=90)
        self.assertEqual(ot.request(k)["cc"], "9.0")
        self.assertEqual(ot.blocks_per_sm(k), occ.occupancy(cc="9.0", threads=128, regs=64).blocks_per_sm)
        self.assertEqual(ot.request(Kernel3(64, 0, 4, arch=120))["cc"], "12.0")
        self.assertEqual(ot.request(Kernel3(64, 0, 4, arch=86))["cc"], "8.6")
        with self.assertRaisesRegex(ValueError, "^device: give a GPU name"):
            ot.request(Kernel2(64, 0, 4))

    def test_device_forms(self):
        k = Kernel3(64, 0, 4)
        a100 = ot.blocks_per_sm(k, "A100")
        self.assertEqual(ot.blocks_per_sm(k, "8.0"), a100)
        self.assertEqual(ot.blocks_per_sm(k, "sm_80"), a100)
        self.assertEqual(ot.blocks_per_sm(k, (8, 0)), a100)
        torch_props = types.SimpleNamespace(name="NVIDIA A100-SXM4-80GB", major=8, minor=0, multi_processor_count=108,
                                            shared_memory_per_block_optin=166912, regs_per_multiprocessor=65536)
        self.assertEqual(ot.blocks_per_sm(k, torch_props), a100)
        self.assertEqual(ot.request(k, torch_props)["device"]["multiProcessorCount"], 108)
        with self.assertRaisesRegex(ValueError, "^gpu: unknown GPU"):
            ot.blocks_per_sm(k, "A1000000")

    def test_lazy_load(self):
        k = Kernel3(72, 0, 4, loaded=False)
        self.assertEqual(ot.request(k, "A100")["regs"], 72)
        self.assertEqual(k.init_calls, 1)
        k = types.SimpleNamespace(n_regs=None, metadata=Metadata("k", 0, 4, 1, 3, GPUTarget("cuda", 80, 32)))
        with self.assertRaisesRegex(ValueError, "^kernel: n_regs is not known"):
            ot.request(k)

    def test_clusters(self):
        c = ot.clusters(Kernel3(64, 0, 4, num_ctas=2, arch=90), "H100")
        want = occ.clusters(gpu="H100", threads=128, regs=64, smem_dynamic=0, cluster_size=2)
        self.assertEqual(c.to_dict(), want.to_dict())


class Prune(unittest.TestCase):
    CONFIGS = [Config(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, num_warps=w, num_stages=s)
               for bm, bn, bk, w, s in ((64, 64, 32, 4, 3), (128, 128, 32, 4, 4), (128, 256, 64, 8, 3),
                                        (256, 128, 64, 8, 4), (128, 128, 64, 4, 5), (64, 256, 32, 4, 4))]

    def test_shared_memory(self):
        for gpu in ("A100", "H100", "RTX-4090", "Tesla-T4"):
            kept, dropped = ot.prune(self.CONFIGS, gpu, shared=matmul_smem)
            self.assertEqual(len(kept) + len(dropped), len(self.CONFIGS))
            for cfg in self.CONFIGS:
                smem = matmul_smem(cfg)
                extra = {"optin": True, "cache_config": "shared"} if smem > 49152 else {}
                r = occ.occupancy(gpu=gpu, threads=cfg.num_warps * 32, regs=0, smem_dynamic=smem, **extra)
                if r.blocks_per_sm > 0:
                    self.assertIn(cfg, kept, (gpu, cfg))
                else:
                    self.assertIn((cfg, r.error), dropped, (gpu, cfg))
        kept, dropped = ot.prune(self.CONFIGS, "A100", shared=matmul_smem)
        # 128x256x64 fp16, 3 stages = 147,456 B: fits A100's 163 KiB opt-in; 256x128x64, 4 stages = 196,608 B does not.
        self.assertIn(self.CONFIGS[2], kept)
        self.assertEqual([c for c, _ in dropped], [self.CONFIGS[3]])
        self.assertEqual(dropped[0][1], "smem_dynamic 192 KiB is above the kernel's max_dynamic_smem 163 KiB "
                                        "(cudaFuncAttributeMaxDynamicSharedMemorySize)")

    def test_registers(self):
        kept, dropped = ot.prune([Config(num_warps=8, maxnreg=255), Config(num_warps=16, maxnreg=128), Config(num_warps=16, maxnreg=168)],
                                 "A100")
        self.assertEqual(len(kept), 2)
        self.assertEqual(len(dropped), 1)
        self.assertTrue(dropped[0][1].startswith("regs: 168 registers x 512 threads"), dropped[0][1])
        kept, dropped = ot.prune([Config(num_warps=4)], "A100", regs=lambda cfg: 300)
        self.assertEqual(dropped[0][1], "regs must be 0..255 (registers per thread), got 300")

    def test_min_blocks(self):
        kept, dropped = ot.prune(self.CONFIGS, "A100", shared=matmul_smem, regs=96, min_blocks_per_sm=2)
        for cfg, reason in dropped:
            self.assertTrue("fewer than min_blocks_per_sm=2" in reason or "max_dynamic_smem 163 KiB" in reason, reason)
        for cfg in kept:
            self.assertGreaterEqual(occ.occupancy(gpu="A100", threads=cfg.num_warps * 32, regs=96, smem_dynamic=matmul_smem(cfg),
                                                  optin=True).blocks_per_sm, 2)

    def test_compiled_kernels(self):
        kernels = [Kernel3(40, 16384, 4), Kernel3(40, 200 * 1024, 4), Kernel2(128, 0, 16)]
        kept, dropped = ot.prune(kernels, "A100")
        self.assertEqual(kept, [kernels[0], kernels[2]])
        self.assertEqual(dropped[0][0], kernels[1])

    def test_bad_device_is_the_callers_error(self):
        with self.assertRaisesRegex(ValueError, "^gpu: unknown GPU"):
            ot.prune(self.CONFIGS, "H1OO", shared=matmul_smem)

    def test_early_config_prune(self):
        seen = []
        fn = ot.early_config_prune("A100", shared=lambda cfg, args: matmul_smem(cfg) * args["elem_bytes"] // 2,
                                   on_drop=lambda c, r: seen.append((c, r)))
        kept = fn(self.CONFIGS, {"elem_bytes": 2}, extra_kwarg=1)
        self.assertEqual(kept, [c for c in self.CONFIGS if c is not self.CONFIGS[3]])
        self.assertEqual([c for c, _ in seen], [self.CONFIGS[3]])
        kept = fn(self.CONFIGS, {"elem_bytes": 4})   # fp32 tiles: twice the shared memory
        self.assertLess(len(kept), len(self.CONFIGS) - 1)
        with self.assertRaisesRegex(ValueError, "^no configuration can launch on A100"):
            fn(self.CONFIGS, {"elem_bytes": 64})


if __name__ == "__main__":
    unittest.main(verbosity=2)
