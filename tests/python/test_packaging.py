#!/usr/bin/env python3
"""`pip install ./python`: occ's own build backend (python/build_backend/occ_build.py).

What runs in `make test`: the backend's hooks as pip calls them (requirements, metadata), a wheel
written around the module CMake already built for this interpreter (the backend's CMake step is
swapped for that module: compiling occ a second time would cost minutes), the wheel checked the way
pip checks it (tag, RECORD hashes) and installed by pip, offline, into a fresh venv without system
site packages, where `import occ` answers. OCC_TEST_PIP_BUILD=1 also runs the real thing:
`pip install ./python` with build isolation and no index, CMake and all."""
import base64
import csv
import hashlib
import importlib
import io
import os
import re
import subprocess
import sys
import sysconfig
import tempfile
import unittest
import zipfile
from pathlib import Path

ROOT = Path(os.environ.get("OCC_SOURCE_DIR", Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(ROOT / "python" / "build_backend"))
occ_build = importlib.import_module("occ_build")
BUILT = Path(os.environ["PYTHONPATH"].split(os.pathsep)[0]) / "occ" if os.environ.get("PYTHONPATH") else None


def cmake_version():
    m = re.search(r"project\(\s*occ\s+VERSION\s+([0-9.]+)", (ROOT / "CMakeLists.txt").read_text())
    return m.group(1)


def built_module():
    found = sorted(BUILT.glob("_occ*")) if BUILT else []
    if len(found) != 1:
        raise unittest.SkipTest(f"no module built for this interpreter under {BUILT}")
    return found[0]


def venv(path, with_pip=False):
    subprocess.run([sys.executable, "-m", "venv", str(path)] + ([] if with_pip else ["--without-pip"]), check=True)
    return path / "bin" / "python"


def pip(target, *args):
    """This interpreter's pip installing into `target`'s environment (pip >= 22.3: --python)."""
    subprocess.run([sys.executable, "-m", "pip", "--python", str(target), *args], check=True)


class Hooks(unittest.TestCase):
    def test_requirements_are_empty_where_bootstrap_ran(self):
        # scripts/bootstrap.sh installs pybind11-dev and cmake: build isolation must fetch nothing.
        self.assertEqual(occ_build.get_requires_for_build_wheel(), [])
        self.assertEqual(occ_build.get_requires_for_build_editable(), [])

    def test_missing_pybind11_is_asked_for(self):
        saved = occ_build._pybind11_cmake_dir
        occ_build._pybind11_cmake_dir = lambda: None
        try:
            self.assertEqual(occ_build.get_requires_for_build_wheel(), ["pybind11>=2.6"])
        finally:
            occ_build._pybind11_cmake_dir = saved

    def test_metadata(self):
        with tempfile.TemporaryDirectory() as d:
            name = occ_build.prepare_metadata_for_build_wheel(d)
            self.assertEqual(name, f"occ-{cmake_version()}.dist-info")
            meta = (Path(d) / name / "METADATA").read_text()
        self.assertIn("Name: occ\n", meta)
        self.assertIn(f"Version: {cmake_version()}\n", meta)
        self.assertIn('Requires-Dist: numpy; extra == "numpy"', meta)
        self.assertIn("# occ for Python", meta)  # the long description is python/README.md

    def test_tag_names_this_interpreter(self):
        impl, abi, plat = occ_build._tag().split("-")
        self.assertEqual(impl, f"cp{sys.version_info[0]}{sys.version_info[1]}")
        self.assertTrue(abi.startswith(impl), abi)
        self.assertEqual(plat, sysconfig.get_platform().replace("-", "_").replace(".", "_"))


class Wheel(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        module = built_module()
        cls.tmp = tempfile.TemporaryDirectory()
        saved = occ_build._build_module
        occ_build._build_module = lambda: module
        try:
            cls.name = occ_build.build_wheel(cls.tmp.name)
        finally:
            occ_build._build_module = saved
        cls.path = Path(cls.tmp.name) / cls.name

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_name_and_contents(self):
        self.assertEqual(self.name, f"occ-{cmake_version()}-{occ_build._tag()}.whl")
        with zipfile.ZipFile(self.path) as z:
            names = set(z.namelist())
        sources = {f"occ/{p.name}" for p in (ROOT / "python" / "occ").glob("*.py")}
        self.assertTrue(sources <= names, sources - names)
        self.assertIn(f"occ/{built_module().name}", names)
        info = f"occ-{cmake_version()}.dist-info"
        self.assertTrue({f"{info}/METADATA", f"{info}/WHEEL", f"{info}/RECORD"} <= names)

    def test_record_hashes_every_file(self):
        with zipfile.ZipFile(self.path) as z:
            info = f"occ-{cmake_version()}.dist-info"
            rows = list(csv.reader(io.StringIO(z.read(f"{info}/RECORD").decode())))
            listed = {r[0] for r in rows}
            self.assertEqual(listed, set(z.namelist()))
            for path, digest, size in rows:
                if path.endswith("RECORD"):
                    self.assertEqual((digest, size), ("", ""))
                    continue
                data = z.read(path)
                want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                self.assertEqual(digest, f"sha256={want}", path)
                self.assertEqual(int(size), len(data), path)
            wheel = z.read(f"{info}/WHEEL").decode()
        self.assertIn(f"Tag: {occ_build._tag()}\n", wheel)
        self.assertIn("Root-Is-Purelib: false\n", wheel)

    def test_pip_installs_it_offline_into_a_bare_venv(self):
        with tempfile.TemporaryDirectory() as d:
            py = venv(Path(d) / "venv")
            pip(py, "install", "--quiet", "--no-index", "--no-deps", str(self.path))
            out = subprocess.run([str(py), "-c", "import occ; r = occ.occupancy(gpu='A100', threads=256, regs=64); "
                                  "print(occ.__file__); print(r.occupancy, r.blocks_per_sm)"],
                                 check=True, capture_output=True, text=True, cwd=d, env={"PATH": os.environ.get("PATH", "")}).stdout
        where, answer = out.splitlines()
        self.assertIn(str(Path(d) / "venv"), where)  # the installed copy, not the build folder's
        self.assertEqual(answer, "0.5 4")  # A100, 256 threads, 64 registers: 4 blocks, 32 of 64 warps


@unittest.skipUnless(os.environ.get("OCC_TEST_PIP_BUILD"), "OCC_TEST_PIP_BUILD=1 runs `pip install ./python` with CMake (minutes)")
class RealInstall(unittest.TestCase):
    def test_pip_install_with_isolation_and_no_index(self):
        with tempfile.TemporaryDirectory() as d:
            py = venv(Path(d) / "venv", with_pip=True)
            subprocess.run([str(py), "-m", "pip", "install", "--no-index", str(ROOT / "python")], check=True)
            out = subprocess.run([str(py), "-c", "import occ; print(occ.occupancy(gpu='A100', threads=256, regs=64).occupancy)"],
                                 check=True, capture_output=True, text=True, cwd=d).stdout
        self.assertEqual(out.strip(), "0.5")


if __name__ == "__main__":
    unittest.main()
