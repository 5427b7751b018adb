#!/usr/bin/env python3
"""`occ occupancy --batch` against a Python json.loads/json.dumps round trip of the same lines.

    bench/batch_bench.py OCC_BINARY [--lines N] [--runs R] [--fields LIST]

Writes N request lines (bench/batch_lines.py, seed 1) to a temporary file, then runs, R times in
turn, `OCC_BINARY occupancy --batch < lines > /dev/null`, the same with `--fields LIST` (default
blocks_per_sm: one field of each answer instead of about 1.36 KB; --fields "" leaves it out) and a
Python process that reads each line with json.loads and writes it back with json.dumps. Prints the median CPU seconds (user + system,
the operating system's accounting of each finished child) and wall seconds of each, lines per CPU
second, the ratio, and occ's peak resident memory. CPU time is the figure to quote on a shared
machine: wall time counts the other processes too (the load average is printed with it).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import batch_lines  # noqa: E402

ROUND_TRIP = "import sys, json\nw = sys.stdout.write\nfor line in sys.stdin:\n    w(json.dumps(json.loads(line)) + '\\n')\n"


def timed(cmd, lines_path):
    """(cpu seconds, wall seconds, peak RSS KiB) of one run of cmd with stdin = lines, stdout = /dev/null."""
    with open(lines_path, "rb") as stdin, open(os.devnull, "wb") as devnull:
        t0 = time.monotonic()
        proc = subprocess.Popen(cmd, stdin=stdin, stdout=devnull)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - t0
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):   # occ exits 1 when some answers are errors (refused launches are not)
        sys.exit(f"{cmd[0]} exited {code}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("occ")
    ap.add_argument("--lines", type=int, default=200000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--fields", default="blocks_per_sm")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "lines.jsonl")
        with open(path, "w") as f:
            for line in batch_lines.lines(args.lines, 1):
                f.write(line + "\n")
        occ_runs, sel_runs, py_runs = [], [], []
        load = os.getloadavg()
        for _ in range(args.runs):
            occ_runs.append(timed([args.occ, "occupancy", "--batch"], path))
            if args.fields:
                sel_runs.append(timed([args.occ, "occupancy", "--batch", "--fields", args.fields], path))
            py_runs.append(timed([sys.executable, "-c", ROUND_TRIP], path))
        load_after = os.getloadavg()
    n = args.lines
    occ_cpu = statistics.median(r[0] for r in occ_runs)
    py_cpu = statistics.median(r[0] for r in py_runs)
    occ_wall = statistics.median(r[1] for r in occ_runs)
    py_wall = statistics.median(r[1] for r in py_runs)
    peak = max(r[2] for r in occ_runs)
    print(f"batch: {n} occupancy request lines, median of {args.runs} runs each; load average {load[0]:.2f} -> {load_after[0]:.2f}")
    print(f"  occ occupancy --batch      {occ_cpu:7.3f} s cpu  {occ_wall:7.3f} s wall  {n / occ_cpu:12,.0f} lines/s (cpu)  peak RSS {peak / 1024:.1f} MiB")
    if sel_runs:
        sel_cpu = statistics.median(r[0] for r in sel_runs)
        sel_wall = statistics.median(r[1] for r in sel_runs)
        label = f"  --fields {args.fields}"
        print(f"{label[:28]:28s} {sel_cpu:7.3f} s cpu  {sel_wall:7.3f} s wall  {n / sel_cpu:12,.0f} lines/s (cpu)  "
              f"peak RSS {max(r[2] for r in sel_runs) / 1024:.1f} MiB")
    print(f"  python json round trip     {py_cpu:7.3f} s cpu  {py_wall:7.3f} s wall  {n / py_cpu:12,.0f} lines/s (cpu)")
    print(f"  ratio occ / python round trip: {py_cpu / occ_cpu:.2f}x (cpu), {py_wall / occ_wall:.2f}x (wall)")
    if sel_runs:
        print(f"  ratio occ --fields / python round trip: {py_cpu / sel_cpu:.2f}x (cpu), {py_wall / sel_wall:.2f}x (wall)")


if __name__ == "__main__":
    main()
