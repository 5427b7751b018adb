#!/usr/bin/env python3
"""End-to-end tests of `occ check`: budgets (TOML, tests/fixtures/check) over binaries, compiler logs
and a Triton cache; exit codes 0/1/2; unknown values never pass; SARIF 2.1.0 checked for the fields
the schema requires; JUnit XML read back with xml.etree; GitHub annotations; --base/--head."""
import json
import os
import tempfile
import unittest
import xml.etree.ElementTree as ET

from occ_cli import run

SRC = os.environ.get("OCC_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.path.join(SRC, "tests", "fixtures", "binaries")
CHECK = os.path.join(SRC, "tests", "fixtures", "check")
TRITON = os.path.join(SRC, "tests", "fixtures", "triton", "cache")


def b(name):
    return os.path.join(BIN, name)


def budget(name):
    return os.path.join(CHECK, name)


def results(report, kernel=None, check=None):
    return [r for r in report["results"]
            if (kernel is None or r["kernel"].startswith(kernel)) and (check is None or r["check"] == check)]


class Budget(unittest.TestCase):
    def test_violations_exit_1_with_the_numbers(self):
        rc, out, err = run("check", "--budget", budget("budget.toml"), b("sm_80.log"), "--json")
        self.assertEqual(rc, 1, err)
        r = json.loads(out)
        self.assertFalse(r["ok"])
        regs = results(r, "k_many_regs", "max_registers")[0]
        self.assertEqual((regs["verdict"], regs["value"], regs["limit"]), ("fail", 164, 128))
        self.assertEqual(regs["budget_line"], 12)
        spill = results(r, "k_spill", "max_spill_bytes")[0]
        self.assertEqual((spill["verdict"], spill["value"]), ("fail", 476 + 648))
        self.assertEqual(results(r, "k_spill", "max_stack")[0]["verdict"], "fail")
        smem = results(r, "k_smem_48k", "max_smem")[0]
        self.assertEqual((smem["verdict"], smem["value"]), ("fail", 49152))
        self.assertEqual(results(r, "k_smem_48k", "min_blocks_per_sm")[0]["verdict"], "fail")
        self.assertEqual(results(r, "k_plain", "min_occupancy")[0]["verdict"], "pass")
        self.assertEqual(r["summary"]["unknown"], 0)  # a log has every figure

    def test_a_binary_has_no_spills_so_they_are_unknown_never_pass(self):
        rc, out, err = run("check", "--budget", budget("budget.toml"), b("sm_80.cubin"), "--json")
        self.assertEqual(rc, 1, err)  # registers and stack still fail
        r = json.loads(out)
        spills = results(r, check="max_spill_bytes")
        self.assertTrue(spills)
        for s in spills:
            self.assertEqual(s["verdict"], "unknown")
            self.assertIsNone(s["value"])
            self.assertIn("binaries do not record spills", s["message"])
        self.assertEqual(r["summary"]["unknown"], len(spills))

    def test_a_binary_and_its_log_give_one_row_per_kernel_and_check(self):
        # docs/CHECK.md: "the log and the binary can be given together" (its CI example gives
        # build/libkernels.so build/ptxas.log). Each kernel is checked once; the log's spills
        # replace the binary's unknown ones; the stack failure is reported once.
        def report(*paths):
            rc, out, err = run("check", "--budget", budget("budget.toml"), *paths, "--json")
            self.assertIn(rc, (0, 1), err)
            return json.loads(out)

        for binary, log in (("sm_80.cubin", "sm_80.log"), ("libkernels.so", "libkernels.log")):
            alone, logged, both = report(b(binary)), report(b(log)), report(b(binary), b(log))
            self.assertEqual(both["summary"]["kernels"], alone["summary"]["kernels"], binary)
            self.assertEqual(both["summary"]["checks"], alone["summary"]["checks"], binary)
            keys = [(x["mangled"], x["arch"], x["check"], x["budget_line"]) for x in both["results"]]
            self.assertEqual(len(keys), len(set(keys)), binary)
            self.assertEqual(both["summary"]["unknown"], 0, binary)
            spills = {(x["mangled"], x["arch"]): x["value"] for x in logged["results"] if x["check"] == "max_spill_bytes"}
            for x in results(both, check="max_spill_bytes"):
                self.assertEqual(x["value"], spills[(x["mangled"], x["arch"])])
                self.assertTrue(x["file"].endswith(binary))  # the row is the binary's (SARIF points there)
        both = report(b("sm_80.cubin"), b("sm_80.log"))
        self.assertEqual(len(results(both, "k_spill", "max_stack")), 1)
        self.assertEqual(results(both, "k_spill", "max_spill_bytes")[0]["value"], 476 + 648)

    def test_pass_exits_0_and_unknown_can_fail(self):
        rc, out, err = run("check", "--budget", budget("budget_pass.toml"), b("sm_80.log"))
        self.assertEqual(rc, 0, out + err)
        self.assertIn("0 failed, 0 unknown", out)
        rc, out, err = run("check", "--budget", budget("budget_pass.toml"), b("sm_80.cubin"))
        self.assertEqual(rc, 0, out + err)  # spills unknown: reported, not a failure by default
        self.assertIn("unknown", out)
        rc, out, err = run("check", "--budget", budget("budget_pass.toml"), b("sm_80.cubin"), "--fail-on-unknown")
        self.assertEqual(rc, 1)

    def test_bad_input_exits_2_and_names_key_and_line(self):
        rc, out, err = run("check", "--budget", budget("budget_bad.toml"), b("sm_80.log"))
        self.assertEqual(rc, 2)
        self.assertIn("budget_bad.toml:6", err)
        self.assertIn('unknown key "max_regs"', err)
        with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
            f.write('gpu = "A100"\n[[rule]]\nkernels = "*"\nmax_registers = "many"\n')
        rc, out, err = run("check", "--budget", f.name, b("sm_80.log"))
        os.unlink(f.name)
        self.assertEqual(rc, 2)
        self.assertIn(":4", err)
        self.assertIn('"max_registers" must be an integer', err)
        with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
            f.write('[[rule]\n')
        rc, out, err = run("check", "--budget", f.name, b("sm_80.log"))
        os.unlink(f.name)
        self.assertEqual(rc, 2)
        self.assertIn(":1:", err)
        rc, out, err = run("check", "--budget", budget("budget.toml"), b("no_such_file.cubin"))
        self.assertEqual(rc, 2)
        self.assertIn("no_such_file.cubin", err)
        rc, out, err = run("check", b("sm_80.log"))
        self.assertEqual(rc, 2)
        self.assertIn("--budget", err)

    def test_triton_cache_at_its_own_launch(self):
        rc, out, err = run("check", "--budget", budget("budget_triton.toml"), TRITON, "--json")
        self.assertEqual(rc, 0, out + err)
        r = json.loads(out)
        mm = results(r, "matmul_kernel", "min_blocks_per_sm")[0]
        self.assertEqual((mm["verdict"], mm["value"]), ("pass", 2))
        self.assertEqual(results(r, "matmul_kernel", "max_smem")[0]["value"], 98304)
        self.assertTrue(all(s["verdict"] == "unknown" for s in results(r, check="max_spill_bytes")))


class Outputs(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.sarif = os.path.join(self.tmp, "occ.sarif")
        self.junit = os.path.join(self.tmp, "occ.xml")
        self.rc, self.out, self.err = run("check", "--budget", budget("budget.toml"), b("sm_80.cubin"),
                                          "--sarif", self.sarif, "--junit", self.junit, "--github")

    def test_sarif_has_the_2_1_0_required_fields(self):
        self.assertEqual(self.rc, 1, self.err)
        with open(self.sarif) as f:
            s = json.load(f)
        # SARIF 2.1.0 schema: the log requires version and runs; a run requires tool; tool requires
        # driver; driver requires name; a result requires message (with text); rule ids are strings.
        self.assertEqual(s["version"], "2.1.0")
        self.assertIn("sarif-2.1.0", s["$schema"])
        self.assertIsInstance(s["runs"], list)
        run0 = s["runs"][0]
        driver = run0["tool"]["driver"]
        self.assertEqual(driver["name"], "occ")
        ids = [rule["id"] for rule in driver["rules"]]
        self.assertEqual(len(ids), len(set(ids)))
        self.assertTrue(run0["results"])
        levels = set()
        for res in run0["results"]:
            self.assertIn(res["ruleId"], ids)
            self.assertEqual(driver["rules"][res["ruleIndex"]]["id"], res["ruleId"])
            self.assertIn(res["level"], ("none", "note", "warning", "error"))
            levels.add(res["level"])
            self.assertIsInstance(res["message"]["text"], str)
            self.assertTrue(res["message"]["text"])
            for loc in res["locations"]:
                self.assertTrue(loc["physicalLocation"]["artifactLocation"]["uri"])
        self.assertEqual(levels, {"error", "warning"})  # violations, and unknown spills
        errors = [r for r in run0["results"] if r["level"] == "error"]
        self.assertTrue(any(r["ruleId"] == "occ/max_registers" and "k_many_regs" in r["message"]["text"] for r in errors))

    def test_junit_reads_back(self):
        root = ET.parse(self.junit).getroot()
        self.assertEqual(root.tag, "testsuites")
        cases = root.findall("./testsuite/testcase")
        self.assertEqual(int(root.get("tests")), len(cases))
        failures = [c for c in cases if c.find("failure") is not None]
        skipped = [c for c in cases if c.find("skipped") is not None]
        self.assertEqual(int(root.get("failures")), len(failures))
        self.assertEqual(int(root.get("skipped")), len(skipped))
        self.assertTrue(any("k_many_regs" in c.get("name") and c.get("classname") == "occ.max_registers" for c in failures))
        self.assertTrue(all(c.get("classname") == "occ.max_spill_bytes" for c in skipped))

    def test_github_annotations(self):
        lines = [l for l in self.out.splitlines() if l.startswith("::")]
        self.assertTrue(any(l.startswith("::error file=") and "k_many_regs" in l for l in lines), self.out)
        self.assertTrue(any(l.startswith("::warning file=") and "unknown" in l for l in lines))
        for l in lines:
            self.assertRegex(l, r"^::(error|warning) file=[^,]+,title=occ [a-z_]+::.+")


class Compare(unittest.TestCase):
    def test_regressions_between_builds(self):
        # sm_75 -> sm_80 of the same source: registers and occupancy move per kernel.
        rc, out, err = run("check", "--base", b("sm_80.log"), "--head", b("sm_80.log"), "--gpu", "A100", "--json")
        self.assertEqual(rc, 0, err)
        r = json.loads(out)
        self.assertEqual(r["mode"], "compare")
        self.assertEqual(r["summary"]["failed"], 0)
        self.assertEqual(r["summary"]["unknown"], 0)

    def test_planted_regression_fails(self):
        with open(b("sm_80.log")) as f:
            log = f.read()
        worse = log.replace("Used 8 registers", "Used 72 registers", 1)
        self.assertNotEqual(worse, log)
        with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
            f.write(worse)
        try:
            sarif = f.name + ".sarif"
            rc, out, err = run("check", "--base", b("sm_80.log"), "--head", f.name, "--gpu", "A100", "--threads", "256",
                               "--json", "--sarif", sarif)
            self.assertEqual(rc, 1, err)
            r = json.loads(out)
            fails = [x for x in r["results"] if x["verdict"] == "fail"]
            self.assertEqual({x["check"] for x in fails}, {"registers_up", "occupancy_down"})
            up = [x for x in fails if x["check"] == "registers_up"][0]
            self.assertEqual((up["limit"], up["value"]), (8, 72))
            with open(sarif) as sf:
                self.assertEqual(json.load(sf)["version"], "2.1.0")
            os.unlink(sarif)
        finally:
            os.unlink(f.name)

    def test_binaries_spills_unknown(self):
        rc, out, err = run("check", "--base", b("sm_80.cubin"), "--head", b("sm_80.cubin"), "--json")
        self.assertEqual(rc, 0, err)
        r = json.loads(out)
        self.assertTrue(all(x["verdict"] == "unknown" for x in r["results"] if x["check"] == "spills_appear"))

    def test_base_without_head_is_bad_input(self):
        rc, out, err = run("check", "--base", b("sm_80.cubin"))
        self.assertEqual(rc, 2)


if __name__ == "__main__":
    unittest.main()
