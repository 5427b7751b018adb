"""`occ validation`: lists the GPUs with committed cuda_validation results.

Uses the SYNTHETIC fixture from tests/validation/fixtures (never a hardware result) and made-up
copies of it in temporary directories."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

OCC = os.environ.get("OCC_BIN", "build/native/bin/occ")
SRC = os.environ.get("OCC_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURE = os.path.join(SRC, "tests", "validation", "fixtures", "synthetic_report.json")
NONE_MSG = "no hardware results committed yet; run make validate on a GPU"


def occ(*args, env=None):
    return subprocess.run([OCC, "validation", *args], capture_output=True, text=True, timeout=60, env=env)


class ValidationCli(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write_real_looking(self, name="made-up.json"):
        with open(FIXTURE) as f:
            j = json.load(f)
        j["synthetic"] = False
        j["gpu"]["name"] = "Made-up GPU for this test"
        with open(os.path.join(self.dir, name), "w") as f:
            json.dump(j, f)

    def test_empty_dir_says_so_plainly(self):
        r = occ("--dir", self.dir)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(NONE_MSG, r.stdout)

    def test_missing_dir_says_so_plainly(self):
        r = occ("--dir", os.path.join(self.dir, "nope"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(NONE_MSG, r.stdout)

    def test_synthetic_files_are_not_counted(self):
        shutil.copy(FIXTURE, self.dir)
        r = occ("--dir", self.dir)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(NONE_MSG, r.stdout)
        self.assertIn("SYNTHETIC", r.stdout)
        j = json.loads(occ("--dir", self.dir, "--json").stdout)
        self.assertEqual(j["validated_gpus"], 0)
        self.assertTrue(j["results"][0]["synthetic"])

    def test_lists_gpu_with_cases_and_matches(self):
        self.write_real_looking()
        r = occ("--dir", self.dir)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("validated on 1 GPU", r.stdout)
        line = [l for l in r.stdout.splitlines() if "Made-up GPU" in l]
        self.assertEqual(len(line), 1, r.stdout)
        self.assertEqual(line[0].split()[-5:], ["6", "3", "1", "1", "1"])
        self.assertNotIn(NONE_MSG, r.stdout)

    def test_json(self):
        self.write_real_looking()
        r = occ("--dir", self.dir, "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        j = json.loads(r.stdout)
        self.assertEqual(j["validated_gpus"], 1)
        row = j["results"][0]
        self.assertEqual(row["gpu"], "Made-up GPU for this test")
        self.assertEqual(row["cc"], "9.0")
        self.assertEqual((row["cases"], row["matched"], row["mismatched"]), (6, 3, 1))
        self.assertIn("occupancy", row["by_kind"])

    def test_summary_block_missing_is_recounted(self):
        with open(FIXTURE) as f:
            j = json.load(f)
        j["synthetic"] = False
        j.pop("summary", None)
        j["cases"] = [{"kind": "occupancy", "id": "a", "status": "match"}, {"kind": "banks", "id": "b", "status": "mismatch"}]
        with open(os.path.join(self.dir, "x.json"), "w") as f:
            json.dump(j, f)
        row = json.loads(occ("--dir", self.dir, "--json").stdout)["results"][0]
        self.assertEqual((row["cases"], row["matched"], row["mismatched"]), (2, 1, 1))

    def test_bad_file_is_reported_not_fatal(self):
        self.write_real_looking()
        with open(os.path.join(self.dir, "broken.json"), "w") as f:
            f.write("{not json")
        r = occ("--dir", self.dir)
        self.assertEqual(r.returncode, 1)
        self.assertIn("broken.json", r.stderr)
        self.assertIn("validated on 1 GPU", r.stdout)

    def test_env_var_and_default_location(self):
        env = dict(os.environ, OCC_VALIDATION_DIR=self.dir)
        r = occ(env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(NONE_MSG, r.stdout)
        # Default: the committed cuda_validation/results of this source tree (may hold real results).
        env.pop("OCC_VALIDATION_DIR")
        r = occ(env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(NONE_MSG in r.stdout or "validated on" in r.stdout, r.stdout)


if __name__ == "__main__":
    unittest.main()
