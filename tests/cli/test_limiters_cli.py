#!/usr/bin/env python3
"""Every limiter x every CLI output: for each launch in tests/fixtures/limiter_cases.json (limited by
exactly one limiter of occ::kLimiters), `occ occupancy` (table, JSON, sweep), `occ advise` (text and
JSON) and `occ occupancy --ptxas` (table and JSON) name that limiter. The list of limiters is read
from occ itself (the "limits" object of a launch that declares every resource), so a limiter added
to the core without a case here fails."""
import json
import os
import tempfile
import unittest

from occ_cli import query, run

SOURCE = os.environ.get("OCC_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
with open(os.path.join(SOURCE, "tests", "fixtures", "limiter_cases.json")) as f:
    ALL_CASES = {c["limiter"]: c for c in json.load(f)["cases"]}
# Limits of the resident block count; an effective limit (Tensor Memory) is checked on its own below.
CASES = {k: c for k, c in ALL_CASES.items() if not c.get("effective")}
EFFECTIVE = {k: c for k, c in ALL_CASES.items() if c.get("effective")}

# The row headings of the limits table (occ::LimiterInfo::title).
TITLES = {"warps": "Warps", "registers": "Registers", "shared_memory": "Shared memory", "blocks": "Block slots",
          "barriers": "Barriers", "virtual_resources": "Virtual resources", "tmem": "Tensor Memory"}
LABELS = {"tmem": "Tensor Memory"}


def flags(request):
    out = []
    for key, value in request.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            out.append(flag)
        else:
            out += [flag, str(value)]
    return out


def label(key):
    return LABELS.get(key, key.replace("_", " "))


def ptxas_log(request):
    """A one-kernel ptxas -v log (the CUDA 12 format of tests/fixtures/ptxas) for the request's GPU."""
    d = query("occupancy", "--gpu", request["gpu"])["device"]
    cc = "%d%d" % (d["cc_major"], d["cc_minor"])
    return ("ptxas info    : Compiling entry function '_Z9my_kernelPf' for 'sm_%s'\n"
            "ptxas info    : Function properties for _Z9my_kernelPf\n"
            "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
            "ptxas info    : Used %d registers, used %d barriers\n"
            % (cc, request.get("regs", 32), request.get("barriers", 1)))


class EveryLimiter(unittest.TestCase):
    def test_cases_cover_every_limiter(self):
        # A B200 launch that declares virtual resources and Tensor Memory reports every limit occ has.
        every = query("occupancy", "--gpu", "B200", "--virtual-resources", "1", "--tmem-columns", "32")["limits"]
        self.assertEqual(sorted(every), sorted(ALL_CASES))
        self.assertEqual(sorted(TITLES), sorted(ALL_CASES))
        self.assertEqual(sorted(EFFECTIVE), ["tmem"])

    def test_effective_limiter_table_and_json(self):
        for key, c in EFFECTIVE.items():
            with self.subTest(limiter=key):
                args = flags(c["request"])
                j = query("occupancy", *args)
                self.assertNotIn(key, j["limiters"])
                self.assertGreater(j["blocks_per_sm"], c["blocks_per_sm"])
                self.assertEqual(j["effective"]["limiters"], [key])
                self.assertEqual(j["effective"]["blocks_per_sm"], c["blocks_per_sm"])
                rc, out, err = run("occupancy", *args)
                self.assertEqual(rc, 0, err)
                self.assertIn("work at once (%s)\n" % label(key), out)
                self.assertRegex(out, r"\n  Effective +\S+ \(%d of %d resident blocks" % (c["blocks_per_sm"], j["blocks_per_sm"]))
                self.assertRegex(out, r"\n  %s +%d < " % (TITLES[key], c["blocks_per_sm"]))
                a = query("advise", *args)
                self.assertEqual(a["occupancy"]["effective"]["limiters"], [key])

    def test_occupancy_table_and_json(self):
        for key, c in CASES.items():
            with self.subTest(limiter=key):
                args = flags(c["request"])
                j = query("occupancy", *args)
                self.assertEqual(j["limiters"], [key])
                self.assertEqual(j["limits"][key], c["blocks_per_sm"])
                rc, out, err = run("occupancy", *args)
                self.assertEqual(rc, 0, err)
                self.assertIn("limited by " + label(key) + "\n", out)
                # The limits table: exactly one row marked '<' (stdout is not a terminal), this one.
                marked = [l for l in out.splitlines() if l.startswith("  ") and " < " in l]
                self.assertEqual(len(marked), 1, out)
                self.assertRegex(marked[0], r"^  %s +%d < " % (TITLES[key], c["blocks_per_sm"]))

    def test_sweep_table_and_json(self):
        for key, c in CASES.items():
            with self.subTest(limiter=key):
                args = flags(c["request"]) + ["--sweep", "regs"]
                pts = query("occupancy", *args)["sweep"]["points"]
                at = [p for p in pts if p["x"] <= c["request"]["regs"]][-1]
                self.assertEqual((at["blocks_per_sm"], at["limiters"]), (c["blocks_per_sm"], [key]))
                rc, out, _ = run("occupancy", *args)
                self.assertEqual(rc, 0)
                row = "  %12d %9d" % (at["x"], at["blocks_per_sm"])
                lines = [l for l in out.splitlines() if l.startswith(row)]
                self.assertEqual(len(lines), 1, out)
                self.assertTrue(lines[0].endswith("   " + label(key)), lines[0])

    def test_advise_text_and_json(self):
        for key, c in CASES.items():
            with self.subTest(limiter=key):
                args = flags(c["request"])
                j = query("advise", *args)
                self.assertEqual(j["occupancy"]["limiters"], [key])
                self.assertEqual(j["registers"]["before"]["limiters"], [key])
                if key != "registers":
                    self.assertEqual(j["registers"]["note"],
                                     "no register count fits more blocks: even with 0 registers the launch is limited by "
                                     + label(key))
                rc, out, err = run("advise", *args)
                self.assertEqual(rc, 0, err)
                self.assertIn("occupancy (limited by %s)\n" % label(key), out)

    def test_ptxas_table_and_json(self):
        for key, c in CASES.items():
            with self.subTest(limiter=key):
                req = dict(c["request"])
                log = ptxas_log(req)
                req.pop("regs")
                req.pop("barriers", None)
                with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
                    f.write(log)
                try:
                    j = query("occupancy", "--ptxas", f.name, *flags(req))
                    self.assertEqual(len(j["kernels"]), 1)
                    self.assertEqual(j["kernels"][0]["occupancy"]["limiters"], [key])
                    rc, out, err = run("occupancy", "--ptxas", f.name, *flags(req))
                    self.assertEqual(rc, 0, err)
                    rows = [l for l in out.splitlines() if l.startswith("my_kernel")]
                    self.assertEqual(len(rows), 1, out)
                    self.assertTrue(rows[0].rstrip().endswith("  " + label(key)), rows[0])
                finally:
                    os.unlink(f.name)


if __name__ == "__main__":
    unittest.main()
