#!/usr/bin/env python3
"""End-to-end tests of `occ check`'s memory budgets (docs/CHECK.md, "Memory budgets"): the kernels of
tests/fixtures/ptx run as `occ memory` runs them; a breach names the access's source line (its PTX
.loc) in the JSON, the SARIF 2.1.0 location and the JUnit testcase; a cubin without PTX is
unknown ("not checked: no PTX"), never a pass; bad values exit 2 naming the key and the range."""
import json
import os
import re
import tempfile
import unittest
import xml.etree.ElementTree as ET

from occ_cli import run

SRC = os.environ.get("OCC_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
PTX = os.path.join(SRC, "tests", "fixtures", "ptx", "kernels_sm80.ptx")
CUBIN = os.path.join(SRC, "tests", "fixtures", "binaries", "sm_80.cubin")
BUDGET = os.path.join(SRC, "tests", "fixtures", "check", "budget_memory.toml")


def results(report, kernel=None, check=None):
    return [r for r in report["results"]
            if (kernel is None or r["kernel"].startswith(kernel)) and (check is None or r["check"] == check)]


def loc_of(entry, opcode_prefix):
    """The .loc line of the first `opcode_prefix` instruction in the PTX entry `entry`."""
    with open(PTX) as f:
        text = f.read()
    body = text[text.index(".entry " + entry + "("):]
    line = None
    for raw in body.splitlines():
        s = raw.strip()
        m = re.match(r"\.loc\s+\d+\s+(\d+)", s)
        if m:
            line = int(m.group(1))
        elif s.startswith(opcode_prefix):
            return line
    raise AssertionError("no " + opcode_prefix + " in " + entry)


def write_budget(text):
    f = tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False)
    f.write(text)
    f.close()
    return f.name


class MemoryBudget(unittest.TestCase):
    def test_padded_transpose_passes_naive_fails_at_its_line(self):
        with tempfile.TemporaryDirectory() as d:
            sarif, junit = os.path.join(d, "o.sarif"), os.path.join(d, "o.xml")
            rc, out, err = run("check", "--budget", BUDGET, PTX, "--json", "--sarif", sarif, "--junit", junit)
            self.assertEqual(rc, 1, err)
            r = json.loads(out)
            padded = results(r, "transpose_padded", "max_bank_conflicts_per_request")
            naive = results(r, "transpose_naive", "max_bank_conflicts_per_request")
            self.assertEqual(len(padded), 1)
            self.assertEqual(len(naive), 1)
            self.assertEqual(padded[0]["verdict"], "pass", padded[0]["message"])
            self.assertEqual(padded[0]["value"], 0)
            n = naive[0]
            self.assertEqual(n["verdict"], "fail", n["message"])
            self.assertEqual(n["value"], 31)  # 32-way: 32 wavefronts for 1 ideal
            line = loc_of("transpose_naive", "ld.shared")
            self.assertEqual(n["source"]["line"], line)
            self.assertTrue(n["source"]["file"].endswith("kernels.cu"))
            self.assertTrue(n["source"]["instruction"].startswith("ld.shared"))
            self.assertIn("kernels.cu:%d" % line, n["message"])
            self.assertIn("budget of 0.00", n["message"])
            # SARIF 2.1.0: the location is the source line; the artefact a related location.
            with open(sarif) as f:
                s = json.load(f)
            res = [x for x in s["runs"][0]["results"] if x["ruleId"] == "occ/max_bank_conflicts_per_request"]
            self.assertEqual(len(res), 1)
            phys = res[0]["locations"][0]["physicalLocation"]
            self.assertTrue(phys["artifactLocation"]["uri"].endswith("kernels.cu"))
            self.assertEqual(phys["region"]["startLine"], line)
            self.assertTrue(res[0]["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("kernels_sm80.ptx"))
            rules = [x["id"] for x in s["runs"][0]["tool"]["driver"]["rules"]]
            self.assertEqual(rules[res[0]["ruleIndex"]], "occ/max_bank_conflicts_per_request")
            # JUnit: the failure names the line, the instruction and the numbers.
            cases = [c for c in ET.parse(junit).getroot().iter("testcase")
                     if c.get("classname") == "occ.max_bank_conflicts_per_request" and c.find("failure") is not None]
            self.assertEqual(len(cases), 1)
            self.assertEqual(cases[0].get("line"), str(line))
            text = cases[0].find("failure").text
            self.assertIn("kernels.cu:%d ld.shared" % line, text)
            self.assertIn("31.00 bank conflicts per request", text)

    def test_sarif_source_relative_to_the_working_directory(self):
        with open(PTX) as f:
            text = f.read()
        old = re.search(r'\.file\s+1\s+"([^"]+)"', text).group(1)
        with tempfile.TemporaryDirectory() as d:
            d = os.path.realpath(d)
            os.mkdir(os.path.join(d, "src"))
            with open(os.path.join(d, "k.ptx"), "w") as f:
                f.write(text.replace(old, os.path.join(d, "src", "kernels.cu")))
            sarif = os.path.join(d, "o.sarif")
            cwd = os.getcwd()
            os.chdir(d)
            try:
                rc, out, err = run("check", "--budget", BUDGET, "k.ptx", "--sarif", sarif)
            finally:
                os.chdir(cwd)
            self.assertEqual(rc, 1, err)
            with open(sarif) as f:
                res = json.load(f)["runs"][0]["results"]
            uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in res}
            self.assertEqual(uris, {"src/kernels.cu"})

    def test_coalesced_copy_passes_stride2_fails(self):
        rc, out, err = run("check", "--budget", BUDGET, PTX, "--json")
        r = json.loads(out)
        copy = results(r, "copy_f32")
        self.assertEqual({x["check"] for x in copy}, {"max_sectors_per_request_ratio", "max_uncoalesced_accesses"})
        for x in copy:
            self.assertEqual(x["verdict"], "pass", x["message"])
        self.assertEqual(results(r, "copy_f32", "max_sectors_per_request_ratio")[0]["value"], 1)
        s2 = results(r, "stride2_f32", "max_sectors_per_request_ratio")[0]
        self.assertEqual(s2["verdict"], "fail", s2["message"])
        self.assertEqual(s2["value"], 2)
        self.assertEqual(s2["source"]["line"], loc_of("stride2_f32", "ld.global"))
        self.assertIn("8.00 sectors per request vs 4.00 ideal", s2["message"])

    def test_text_output_names_line_and_numbers(self):
        rc, out, err = run("check", "--budget", BUDGET, PTX)
        self.assertEqual(rc, 1, err)
        line = loc_of("transpose_naive", "ld.shared")
        row = [l for l in out.splitlines() if "max_bank_conflicts_per_request" in l and "FAIL" in l]
        self.assertEqual(len(row), 1, out)
        self.assertIn("kernels.cu:%d ld.shared" % line, row[0])

    def test_cubin_without_ptx_is_not_checked(self):
        p = write_budget('gpu = "A100"\n[[rule]]\nkernels = "*"\nmax_sectors_per_request_ratio = 1.0\n')
        try:
            rc, out, err = run("check", "--budget", p, CUBIN, "--json")
            self.assertEqual(rc, 0, err)  # unknown is no violation (unless --fail-on-unknown)
            r = json.loads(out)
            mem = results(r, check="max_sectors_per_request_ratio")
            self.assertTrue(mem)
            for x in mem:
                self.assertEqual(x["verdict"], "unknown")
                self.assertIsNone(x["value"])
                self.assertIn("not checked: no PTX", x["message"])
                self.assertIn("code=[sm_80,compute_80]", x["message"])
            self.assertEqual(r["summary"]["unknown"], len(mem))
            rc, out, err = run("check", "--budget", p, CUBIN, "--fail-on-unknown")
            self.assertEqual(rc, 1)
        finally:
            os.unlink(p)

    def test_unknown_accesses_are_notes(self):
        # Without params, stride2 is costed (no argument in its addresses) but copy_f32's `i < n` is
        # unknown: the run stops at the branch and its accesses are listed as not checked.
        p = write_budget('gpu = "A100"\n[[rule]]\nkernels = "copy_f32"\nblock = [256]\nmax_sectors_per_request_ratio = 1.0\n')
        try:
            rc, out, err = run("check", "--budget", p, PTX, "--json")
            r = json.loads(out)
            x = results(r, "copy_f32", "max_sectors_per_request_ratio")[0]
            self.assertEqual(x["verdict"], "unknown", x["message"])
            self.assertIn("not checked", x["message"])
            self.assertTrue(any("copy_f32" in n and "not checked" in n for n in r["notes"]), r["notes"])
        finally:
            os.unlink(p)

    def test_bad_values_exit_2_with_key_and_range(self):
        for body, key, rng in [
            ("max_sectors_per_request_ratio = 0.5", "max_sectors_per_request_ratio", "1..32"),
            ("max_bank_conflicts_per_request = -1", "max_bank_conflicts_per_request", "0..1024"),
            ("max_uncoalesced_accesses = 1.5", "max_uncoalesced_accesses", "0..1000000"),
            ("block = [0]\nmax_uncoalesced_accesses = 0", "block", "1..1024"),
            ("params = 3\nmax_uncoalesced_accesses = 0", "params", "table"),
        ]:
            p = write_budget('[[rule]]\nkernels = "*"\n' + body + "\n")
            try:
                rc, out, err = run("check", "--budget", p, PTX)
                self.assertEqual(rc, 2, body)
                self.assertIn(key, err, body)
                self.assertIn(rng, err, body)
            finally:
                os.unlink(p)


if __name__ == "__main__":
    unittest.main()
