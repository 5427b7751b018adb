"""What the CLI tests share: the occ binary under test (OCC_BIN, set by CTest) and ways to run it."""
import json
import os
import subprocess

OCC = os.environ.get("OCC_BIN", "build/native/bin/occ")


def run(*args, stdin=None):
    """occ with these arguments; (exit code, stdout, stderr) as text."""
    p = subprocess.run([OCC, *args], input=stdin, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def query(kind, *flags):
    """`occ KIND FLAGS --json`, which must succeed; its answer as parsed JSON."""
    rc, out, err = run(kind, *flags, "--json")
    if rc != 0:
        raise AssertionError(f"occ {kind} {' '.join(flags)} --json: rc {rc}: {err}")
    return json.loads(out)
