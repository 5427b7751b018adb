#!/usr/bin/env python3
"""Triton's fused-softmax tutorial formula against occ: the table in docs/PYTHON.md.

The tutorial (python/tutorials/02-fused-softmax.py) sizes its persistent grid with
    occupancy = NUM_REGS // (n_regs * WARP_SIZE * num_warps)
    occupancy = min(occupancy, SIZE_SMEM // size_smem)
    num_programs = NUM_SM * occupancy
where NUM_REGS = get_device_properties()["max_num_regs"] (registers per block, 65,536) and
SIZE_SMEM = ["max_shared_mem"] (the opt-in shared memory one block may use). Each case below is a
launch where the two disagree; occ's numbers and the explanation's figures come from the occ
answer, so the table cannot drift from the model.

Run it to print the table (the test, test_docs.py, checks that docs/PYTHON.md shows this output):
    PYTHONPATH=build/native/python python3 tests/python/tutorial_table.py
"""
import occ


def tutorial_formula(n_regs, shared, num_warps, props):
    """The tutorial's blocks per SM, with Triton's property names."""
    blocks = props["max_num_regs"] // (n_regs * props["warpSize"] * num_warps)
    return min(blocks, props["max_shared_mem"] // shared)


def triton_properties(device):
    """What Triton's driver.active.utils.get_device_properties() reports for this device."""
    return {"max_num_regs": device.regs_per_block, "max_shared_mem": device.smem_per_block_optin,
            "multiprocessor_count": device.sm_count, "warpSize": device.warp_size}


def kib(n):
    return f"{n // 1024} KiB" if n % 1024 == 0 else f"{n:,} B"


def why_rounding(c, r, d):
    return (f"registers are allocated per warp in units of {d.reg_alloc_unit}: {c['n_regs']} x 32 = {c['n_regs'] * 32} "
            f"-> {r.regs_per_warp_allocated} per warp, {r.warps_per_sm} warps fit, not {c['formula'] * c['num_warps']}")


def why_subpartitions(c, r, d):
    quarter = d.regs_per_sm // d.subpartitions
    per = quarter // r.regs_per_warp_allocated
    return (f"a warp's registers come from one of {d.subpartitions} sub-partitions of {quarter:,}: "
            f"{per} warps of {r.regs_per_warp_allocated:,} each, {per * d.subpartitions} per SM")


def why_warps(c, r, d):
    return f"an SM holds at most {d.max_warps_per_sm} warps ({d.max_threads_per_sm:,} threads): {d.max_warps_per_sm} / {c['num_warps']}"


def why_slots(c, r, d):
    return f"an SM holds at most {d.max_blocks_per_sm} blocks (cc {d.cc_major}.{d.cc_minor})"


def why_reserve(c, r, d):
    return (f"each block also takes the driver's {d.smem_reserved_per_block:,} B reserve: {kib(r.smem_per_block_allocated)} per block, "
            f"{r.smem_per_sm_configured // 1024} KiB per SM / {r.smem_per_block_allocated // 1024} KiB = {r.blocks_per_sm}")


# (GPU, num_warps, n_regs, shared bytes, explanation)
CASES = [
    ("A100-SXM4-80GB", 4, 42, 2048, why_rounding),
    ("A100-SXM4-80GB", 1, 200, 1024, why_subpartitions),
    ("H100-SXM5-80GB", 4, 16, 1024, why_warps),
    ("A100-SXM4-80GB", 1, 32, 1024, why_slots),
    ("RTX-4090", 16, 32, 4096, why_warps),
    ("A100-SXM4-80GB", 4, 32, 32768, why_reserve),
    ("RTX-3090", 4, 32, 16384, why_reserve),
]


def rows():
    out = []
    for gpu, num_warps, n_regs, shared, why in CASES:
        r = occ.occupancy(gpu=gpu, threads=num_warps * 32, regs=n_regs, smem_dynamic=shared,
                          **({"optin": True, "cache_config": "shared"} if shared > 49152 else {}))
        d = r.device
        formula = tutorial_formula(n_regs, shared, num_warps, triton_properties(d))
        case = {"gpu": gpu, "num_warps": num_warps, "n_regs": n_regs, "shared": shared, "formula": formula,
                "occ": r.blocks_per_sm, "limiters": r.limiters, "sm_count": d.sm_count}
        case["why"] = why(case, r, d)
        out.append(case)
    return out


def table():
    lines = ["| GPU | num_warps | n_regs | shared | tutorial blocks/SM | occ blocks/SM | programs (tutorial / occ) | occ: limited by | why |",
             "|---|---:|---:|---:|---:|---:|---:|---|---|"]
    for c in rows():
        lines.append(f"| {c['gpu']} | {c['num_warps']} | {c['n_regs']} | {kib(c['shared'])} | {c['formula']} | **{c['occ']}** | "
                     f"{c['formula'] * c['sm_count']:,} / {c['occ'] * c['sm_count']:,} | {', '.join(c['limiters'])} | {c['why']} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table())
