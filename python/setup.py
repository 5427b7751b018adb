"""Builds occ._occ with the repository's CMake build (python/CMakeLists.txt), for the interpreter
that runs pip. The pure-Python half (occ/*.py) is an ordinary package."""
import os
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        if not (ROOT / "lib" / "io" / "CMakeLists.txt").is_file():
            raise RuntimeError(f"occ: python/ builds from a checkout of the occ repository; {ROOT / 'lib'} is missing")
        build = Path(self.build_temp).resolve() / "cmake"
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release", "-DOCC_BUILD_PYTHON=ON",
                        "-DOCC_BUILD_TESTS=OFF", "-DOCC_BUILD_CLI=OFF", f"-DPython_EXECUTABLE={sys.executable}"], check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 2)
        subprocess.run(["cmake", "--build", str(build), "--target", "occ_python", "-j", jobs], check=True)
        built = build / "python" / "occ" / Path(self.get_ext_filename(ext.name)).name
        dest = Path(self.get_ext_fullpath(ext.name))
        dest.parent.mkdir(parents=True, exist_ok=True)
        self.copy_file(str(built), str(dest))


setup(ext_modules=[Extension("occ._occ", sources=[])], cmdclass={"build_ext": CMakeBuild})
