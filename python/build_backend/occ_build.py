"""occ's own PEP 517 build backend: `pip install ./python` in any environment, online or offline.

Why not setuptools: an older setuptools (pyenv's 3.11 ships 65.5) needs the `wheel` package for
bdist_wheel, which an offline venv does not have and cannot fetch. This backend needs nothing but
the standard library, CMake and a C++ compiler: it runs the repository's CMake build for the
interpreter that runs it and writes the wheel (a zip with METADATA, WHEEL and RECORD) itself.

Build requirements are asked for only when they are missing here: `pybind11` when no pybind11 CMake
package is installed (Debian's pybind11-dev, conda's pybind11), `cmake` when there is no cmake on
PATH. So pip's build isolation works offline on a machine that has them (nothing is fetched), and
fetches them where it can; `--no-build-isolation` works too.

Environment: OCC_CMAKE_ARGS (extra -D options), CMAKE_BUILD_PARALLEL_LEVEL (jobs; all cores by
default). The CMake build folder is <repository>/build/python-<tag>, kept between installs.
"""
from __future__ import annotations

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent  # python/
ROOT = HERE.parent  # the repository

NAME = "occ"
SUMMARY = "CUDA occupancy and memory-coalescing calculator: NVIDIA's occupancy rules from cc 3.5 to 12.1, offline"
REQUIRES_PYTHON = ">=3.8"
EXTRAS = {"numpy": ["numpy"]}
CLASSIFIERS = [
    "Programming Language :: Python :: 3",
    "Programming Language :: C++",
    "License :: OSI Approved :: MIT License",
    "Operating System :: POSIX :: Linux",
]


def _version() -> str:
    """The project's one version: CMakeLists.txt's project(... VERSION x.y.z ...)."""
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    m = re.search(r"project\(\s*occ\s+VERSION\s+([0-9][0-9.]*)", text)
    if not m:
        raise RuntimeError(f"occ: no project(occ VERSION ...) line in {ROOT / 'CMakeLists.txt'}")
    return m.group(1)


def _check_checkout() -> None:
    if not (ROOT / "lib" / "io" / "CMakeLists.txt").is_file():
        raise RuntimeError(f"occ: python/ builds from a checkout of the occ repository; {ROOT / 'lib'} is missing")


def _pybind11_cmake_dir() -> str | None:
    """Where a pybind11 CMake package lives: the `pybind11` Python package (build isolation, conda)
    first, then the system's (Debian's pybind11-dev); None when there is none."""
    try:
        import pybind11  # type: ignore

        return pybind11.get_cmake_dir()
    except Exception:  # noqa: BLE001 - absent or broken: look on the system
        pass
    prefixes = [sys.prefix, sys.base_prefix, "/usr", "/usr/local"]
    for prefix in prefixes:
        for sub in ("lib/cmake/pybind11", "share/cmake/pybind11", "lib64/cmake/pybind11"):
            if (Path(prefix) / sub / "pybind11Config.cmake").is_file():
                return str(Path(prefix) / sub)
    return None


def _missing_requirements() -> list[str]:
    need = []
    if _pybind11_cmake_dir() is None:
        need.append("pybind11>=2.6")
    if shutil.which("cmake") is None:
        need.append("cmake>=3.22")
    return need


def get_requires_for_build_wheel(config_settings=None):
    return _missing_requirements()


def get_requires_for_build_editable(config_settings=None):
    return _missing_requirements()


def _tag() -> str:
    impl = {"cpython": "cp", "pypy": "pp"}.get(sys.implementation.name, "py")
    ver = f"{sys.version_info[0]}{sys.version_info[1]}"
    abi = f"{impl}{ver}{getattr(sys, 'abiflags', '')}" if impl == "cp" else (sysconfig.get_config_var("SOABI") or "none").replace("-", "_").replace(".", "_")
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{impl}{ver}-{abi}-{plat}"


def _build_module() -> Path:
    """Runs CMake for this interpreter; returns the built extension module's path."""
    _check_checkout()
    cmake = shutil.which("cmake")
    if cmake is None:
        raise RuntimeError("occ: cmake is not on PATH (Debian: apt install cmake; or pip install cmake)")
    build = ROOT / "build" / f"python-{_tag()}"
    args = [cmake, "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release", "-DOCC_BUILD_PYTHON=ON",
            "-DOCC_BUILD_TESTS=OFF", "-DOCC_BUILD_CLI=OFF", "-DOCC_BUILD_GUI=OFF", f"-DPython_EXECUTABLE={sys.executable}"]
    pybind = _pybind11_cmake_dir()
    if pybind:
        args.append(f"-Dpybind11_DIR={pybind}")
    args += os.environ.get("OCC_CMAKE_ARGS", "").split()
    subprocess.run(args, check=True, stdout=sys.stderr)
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 2)
    subprocess.run([cmake, "--build", str(build), "--target", "occ_python", "-j", jobs], check=True, stdout=sys.stderr)
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    built = build / "python" / "occ" / f"_occ{suffix}"
    if not built.is_file():
        found = sorted((build / "python" / "occ").glob("_occ*"))
        if len(found) != 1:
            raise RuntimeError(f"occ: the build made no {built.name} (found: {[p.name for p in found]})")
        built = found[0]
    return built


def _metadata(version: str) -> str:
    lines = ["Metadata-Version: 2.1", f"Name: {NAME}", f"Version: {version}", f"Summary: {SUMMARY}",
             f"Requires-Python: {REQUIRES_PYTHON}", "License: MIT"]
    lines += [f"Classifier: {c}" for c in CLASSIFIERS]
    for extra, reqs in EXTRAS.items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {r}; extra == "{extra}"' for r in reqs]
    lines.append("Description-Content-Type: text/markdown")
    return "\n".join(lines) + "\n\n" + (HERE / "README.md").read_text(encoding="utf-8")


class _Wheel:
    """A wheel being written: every file is hashed into RECORD as it goes in."""

    def __init__(self, directory: str, version: str):
        self.dist_info = f"{NAME}-{version}.dist-info"
        self.name = f"{NAME}-{version}-{_tag()}.whl"
        self.path = Path(directory) / self.name
        self.zip = zipfile.ZipFile(self.path, "w", compression=zipfile.ZIP_DEFLATED)
        self.record: list[str] = []

    def add(self, arcname: str, data: bytes) -> None:
        info = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))  # reproducible
        info.external_attr = 0o644 << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        self.zip.writestr(info, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        self.record.append(f"{arcname},sha256={digest},{len(data)}")

    def close(self, version: str) -> str:
        self.add(f"{self.dist_info}/METADATA", _metadata(version).encode())
        wheel = f"Wheel-Version: 1.0\nGenerator: occ_build\nRoot-Is-Purelib: false\nTag: {_tag()}\n"
        self.add(f"{self.dist_info}/WHEEL", wheel.encode())
        record = f"{self.dist_info}/RECORD"
        self.zip.writestr(zipfile.ZipInfo(record, date_time=(2020, 1, 1, 0, 0, 0)), "\n".join(self.record + [f"{record},,"]) + "\n")
        self.zip.close()
        return self.name


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    """pip asks for the metadata first; it needs no build."""
    version = _version()
    dist_info = Path(metadata_directory) / f"{NAME}-{version}.dist-info"
    dist_info.mkdir(parents=True, exist_ok=True)
    (dist_info / "METADATA").write_text(_metadata(version), encoding="utf-8")
    return dist_info.name


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    version = _version()
    module = _build_module()
    wheel = _Wheel(wheel_directory, version)
    for src in sorted((HERE / "occ").glob("*.py")):
        wheel.add(f"occ/{src.name}", src.read_bytes())
    wheel.add(f"occ/{module.name}", module.read_bytes())
    return wheel.close(version)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """`pip install -e ./python`: the extension is copied into python/occ/ (git ignores it) and the
    wheel holds one .pth file that puts python/ on sys.path, so edits to occ/*.py take effect at once."""
    version = _version()
    module = _build_module()
    shutil.copyfile(module, HERE / "occ" / module.name)
    wheel = _Wheel(wheel_directory, version)
    wheel.add("occ_editable.pth", (str(HERE) + "\n").encode())
    return wheel.close(version)
