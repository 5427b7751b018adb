#!/usr/bin/env python3
"""Request lines for the --batch benchmark: occupancy requests as a user's sweep writes them.

    bench/batch_lines.py [N] [SEED] > lines.jsonl     (default 200000 lines, seed 1)

Random A100/H100/RTX 4090/V100 launches: block size 32..1024, registers 16..255, dynamic shared
memory 0..96 KiB on 70 % of the lines, a third with optin; about 60 % are refused (too many
registers or too much shared memory per block), as in a sweep over a design space. Deterministic for a
given seed.
"""
import json
import random
import sys


def lines(n, seed):
    rng = random.Random(seed)
    gpus = ["A100-SXM4-80GB", "H100-SXM5-80GB", "RTX-4090", "V100-SXM2-32GB"]
    for _ in range(n):
        req = {"gpu": rng.choice(gpus), "threads": rng.randrange(32, 1025, 32), "regs": rng.randint(16, 255)}
        if rng.random() < 0.7:
            req["smem_dynamic"] = rng.randrange(0, 96 * 1024 + 1, 256)
        if rng.random() < 0.33:
            req["optin"] = True
        yield json.dumps(req)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    out = sys.stdout
    for line in lines(n, seed):
        out.write(line + "\n")


if __name__ == "__main__":
    main()
