#!/usr/bin/env python3
"""--batch regression: every corpus line through `occ <kind> --batch`, each output line compared
byte for byte with the stored baseline.

  corpus/<kind>.jsonl[.gz]     the requests (committed; made once by gen_corpus.py)
  expected/<kind>.jsonl.gz     what the baseline binary answered, one line per request
  drift.md                     intentional changes of output, one entry per change

Usage:
  python3 tests/regress/regress.py [OCC_BIN]            compare (OCC_BIN: argument, else $OCC_BIN,
                                                        else build/native/bin/occ)
  python3 tests/regress/regress.py --update [OCC_BIN]   rewrite expected/ from that binary (after
                                                        documenting the change in drift.md)
Options: --kind K (repeatable) only that kind; --show N differing lines shown per kind [3].

Checks: each output line equals the expected line (after normalise(), which is the identity: no
output field of these kinds is nondeterministic), the output has as many lines as the corpus, and
the exit status is 1 when any expected line carries an "error" and 0 otherwise (CLI contract).
Prints `regress: N passed, M failed` (N + M = corpus lines + one exit-status check per kind, + 1
per kind that printed extra lines) and exits 1 on any difference, 2 when it cannot run.
"""
import argparse
import concurrent.futures
import gzip
import io
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KINDS = ["occupancy", "coalesce", "banks", "roofline", "advise"]
CUT = 300   # characters shown of a request / answer


def read_maybe_gz(path):
    if os.path.exists(path + ".gz"):
        with gzip.open(path + ".gz", "rb") as f:
            return f.read()
    with open(path, "rb") as f:
        return f.read()


def write_gz(path, data):
    """Deterministic gzip (no name, mtime 0): rewriting unchanged outputs leaves the file unchanged."""
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as f:
        f.write(data)
    with open(path, "wb") as f:
        f.write(buf.getvalue())


def split_lines(data):
    """Lines as occ's getline sees them: split on \\n, a final newline ends the last line."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def normalise(kind, line):
    """Hook for nondeterministic fields (none today: every answer is a pure function of the request)."""
    return line


def has_error(line):
    try:
        obj = json.loads(line)
    except ValueError:
        return True
    return isinstance(obj, dict) and obj.get("error") is not None


def run_kind(occ, kind, corpus):
    p = subprocess.run([occ, kind, "--batch"], input=corpus, capture_output=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def shorten(b, n=CUT):
    s = b.decode("utf-8", "replace")
    return s if len(s) <= n else s[:n] + f"... ({len(s)} chars)"


def first_difference(a, b):
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    lo = max(0, i - 60)
    return i, a[lo:i + 60], b[lo:i + 60]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("occ", nargs="?", help="occ binary (default: $OCC_BIN, else build/native/bin/occ)")
    ap.add_argument("--update", action="store_true", help="rewrite expected/ from this binary")
    ap.add_argument("--kind", action="append", choices=KINDS, help="only this kind (repeatable)")
    ap.add_argument("--show", type=int, default=3, help="differing lines shown per kind [3]")
    args = ap.parse_args()

    occ = args.occ or os.environ.get("OCC_BIN") or os.path.join(ROOT, "build", "native", "bin", "occ")
    if not (os.path.isfile(occ) and os.access(occ, os.X_OK)):
        print(f"regress: occ binary not found or not executable: {occ}", file=sys.stderr)
        return 2
    kinds = args.kind or KINDS
    corpora = {k: read_maybe_gz(os.path.join(HERE, "corpus", k + ".jsonl")) for k in kinds}

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(len(kinds), os.cpu_count() or 1))) as pool:
        futures = {k: pool.submit(run_kind, occ, k, corpora[k]) for k in kinds}
        results = {k: f.result() for k, f in futures.items()}

    if args.update:
        os.makedirs(os.path.join(HERE, "expected"), exist_ok=True)
        for k in kinds:
            rc, out, err = results[k]
            n_in, n_out = len(split_lines(corpora[k])), len(split_lines(out))
            if n_in != n_out or rc not in (0, 1):
                print(f"regress: {k}: {n_out} output lines for {n_in} requests, exit {rc}; not updating\n{shorten(err)}", file=sys.stderr)
                return 2
            write_gz(os.path.join(HERE, "expected", k + ".jsonl.gz"), out)
            print(f"regress: {k}: wrote expected/{k}.jsonl.gz ({n_out} lines)")
        print("regress: baseline updated; list the intended change in tests/regress/drift.md")
        return 0

    passed = failed = 0
    for k in kinds:
        rc, out, err = results[k]
        requests = split_lines(corpora[k])
        expected = split_lines(read_maybe_gz(os.path.join(HERE, "expected", k + ".jsonl")))
        got = split_lines(out)
        if len(expected) != len(requests):
            print(f"regress: {k}: expected/ has {len(expected)} lines for {len(requests)} requests (run --update?)", file=sys.stderr)
            return 2
        diffs = []
        for i, req in enumerate(requests):
            e = normalise(k, expected[i])
            g = normalise(k, got[i]) if i < len(got) else None
            if e == g:
                passed += 1
            else:
                failed += 1
                diffs.append(i)
        if len(got) > len(requests):
            failed += 1   # answers that no request asked for
        want_rc = 1 if any(has_error(line) for line in expected) else 0
        rc_ok = rc == want_rc
        passed += rc_ok
        failed += not rc_ok
        if diffs or not rc_ok or len(got) != len(requests):
            print(f"--- {k}: {len(diffs)} of {len(requests)} lines differ; {len(got)} output lines; exit status {rc} (expected {want_rc})")
            for i in diffs[: args.show]:
                g = got[i] if i < len(got) else b"<no output line>"
                pos, ectx, gctx = first_difference(expected[i], g)
                print(f"  line {i + 1}\n    request:  {shorten(requests[i])}\n    expected: {shorten(expected[i])}\n    got:      {shorten(g)}")
                print(f"    first difference at byte {pos}: expected ...{shorten(ectx, 130)}...\n"
                      f"                                 got      ...{shorten(gctx, 130)}...")
            if len(diffs) > args.show:
                print(f"  ... and {len(diffs) - args.show} more")
            if err:
                print(f"  stderr: {shorten(err)}")
    print(f"regress: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
