#!/usr/bin/env python3
"""`occ kernels` on a large synthetic shared library: scan speed and peak memory.

    bench/binary_bench.py OCC_BINARY [--mib 1024] [--fatbin-mib 256] [--runs 3]

Writes, to a temporary file, an ELF64 shared object shaped like a PyTorch CUDA library: a `.text`
section of host code (filler bytes) and one `.nv_fatbin` section made of the corpus fatbin
tests/fixtures/binaries/fatbin_none.fatbin (stored entries) repeated, so MiB in total with
fatbin-mib of device code. Then times `OCC kernels FILE --json > /dev/null` R times and prints the
median wall and CPU seconds, GiB/s over the whole file, the kernel rows read and occ's peak resident
memory. The file is read with the page cache warm (the first run warms it)."""
import argparse
import json
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FATBIN = os.path.join(ROOT, "tests", "fixtures", "binaries", "fatbin_none.fatbin")


def write_library(path, total, fatbin_bytes):
    one = open(FATBIN, "rb").read()
    copies = max(1, fatbin_bytes // len(one))
    shstr = b"\0.text\0.nv_fatbin\0.shstrtab\0"
    fat_size = copies * len(one)
    text_size = max(0, total - fat_size - 4096)
    text_off = 0x1000
    fat_off = text_off + text_size
    fat_off = (fat_off + 7) & ~7
    str_off = fat_off + fat_size
    sh_off = (str_off + len(shstr) + 7) & ~7
    with open(path, "wb") as f:
        # ELF64 header: little endian, ET_DYN, EM_X86_64, 4 section headers, shstrndx 3.
        f.write(b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8))
        f.write(struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, 0, 0, sh_off, 0, 64, 0, 0, 64, 4, 3))
        f.seek(text_off)
        chunk = bytes(range(256)) * 4096  # 1 MiB of filler "host code"
        left = text_size
        while left > 0:
            n = min(left, len(chunk))
            f.write(chunk[:n])
            left -= n
        f.seek(fat_off)
        for _ in range(copies):
            f.write(one)
        f.seek(str_off)
        f.write(shstr)
        f.seek(sh_off)
        f.write(bytes(64))  # SHT_NULL
        # name, type, flags, addr, offset, size, link, info, addralign, entsize
        f.write(struct.pack("<IIQQQQIIQQ", 1, 1, 6, 0, text_off, text_size, 0, 0, 16, 0))
        f.write(struct.pack("<IIQQQQIIQQ", 7, 1, 2, 0, fat_off, fat_size, 0, 0, 8, 0))
        f.write(struct.pack("<IIQQQQIIQQ", 18, 3, 0, 0, str_off, len(shstr), 0, 0, 1, 0))
    return copies


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("occ")
    ap.add_argument("--mib", type=int, default=1024)
    ap.add_argument("--fatbin-mib", type=int, default=256)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "libsynthetic_cuda.so")
        copies = write_library(path, a.mib << 20, a.fatbin_mib << 20)
        size = os.path.getsize(path)
        runs, rows = [], 0
        for i in range(a.runs + 1):
            t0 = time.monotonic()
            with open(os.devnull, "wb") as out:
                p = subprocess.Popen([a.occ, "kernels", path, "--json"], stdout=subprocess.PIPE if i == 0 else out)
                data = p.stdout.read() if i == 0 else None
                _, status, usage = os.wait4(p.pid, 0)
            wall = time.monotonic() - t0
            if os.waitstatus_to_exitcode(status) != 0:
                sys.exit(f"occ kernels exited {os.waitstatus_to_exitcode(status)}")
            if i == 0:
                rows = len(json.loads(data)["kernels"])
                continue  # the first run warms the page cache
            runs.append((wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss))
    wall = statistics.median(r[0] for r in runs)
    cpu = statistics.median(r[1] for r in runs)
    peak = max(r[2] for r in runs)
    print(f"binary scan: {size / 2**30:.2f} GiB ELF, .nv_fatbin {copies} fatbins ({a.fatbin_mib} MiB), {rows} kernel rows")
    print(f"  occ kernels --json   {wall:.3f} s wall  {cpu:.3f} s cpu  {size / 2**30 / wall:.2f} GiB/s (wall)  peak RSS {peak / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
