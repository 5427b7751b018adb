#!/usr/bin/env bash
# Builds the occ-validate bundle with nvcc (no GPU needed) exactly as `make validate-bundle` does
# (cuda_validation/bundle/build_bundle.sh: SASS for sm_80, 86, 89, 90, 100, 120 + PTX 120; it checks
# the fatbin holds those architectures and the bundle stays under 60 MiB; the six architectures cost
# about 10 s of CPU more than two, measured on a 2-core machine), into this build tree, then runs the
# harness's --list-cases (pure host code) to check the case counts. The bundle it leaves is what
# bundle_check.sh examines (validation.nvcc_build.dry_run, validation.nvcc_build.ldd).
# Prints SKIPPED when nvcc is absent.
# Usage: nvcc_build_check.sh <source dir> <build dir> <bundle dir>
set -euo pipefail
SRC="$1"; BUILD="$2"; BUNDLE="$3"
NVCC="${CUDACXX:-}"
if [[ -z "$NVCC" ]]; then
  for c in "$(command -v nvcc || true)" /usr/local/cuda/bin/nvcc; do
    if [[ -n "$c" && -x "$c" ]]; then NVCC="$c"; break; fi
  done
fi
if [[ -z "$NVCC" ]]; then
  rm -rf "$BUNDLE"
  echo "SKIPPED: nvcc not found (install the CUDA toolkit); cuda_validation was not compiled"
  exit 0
fi
echo "nvcc: $NVCC"
CUDACXX="$NVCC" "$SRC/cuda_validation/bundle/build_bundle.sh" --build "$BUILD" --out "$BUNDLE" --jobs "${OCC_NVCC_JOBS:-2}"
"$BUNDLE/occ-validate" --list-cases
"$BUNDLE/occ-validate" --list-cases --quick
# The setmaxnreg kernels: ptxas must honour setmaxnreg (no "(C75xx) ... 'setmaxnreg' ignored", which
# would make the plans measure nothing) and give the launch counts occ::validation assumes
# (__launch_bounds__(384,1) -> 168, (512,1) -> 128).
PTXAS_LOG="$(mktemp)"
"$NVCC" -std=c++17 -cubin -arch=sm_90a -Xptxas -v -I "$SRC/cuda_validation/src" "$SRC/cuda_validation/src/kernels_regpool.cu" \
  -o "$PTXAS_LOG.cubin" >"$PTXAS_LOG" 2>&1 || { cat "$PTXAS_LOG"; exit 1; }
if grep -q "setmaxnreg' ignored" "$PTXAS_LOG"; then grep "setmaxnreg" "$PTXAS_LOG"; echo "FAIL: ptxas ignores setmaxnreg"; exit 1; fi
python3 - "$PTXAS_LOG" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
regs = dict(re.findall(r"Function properties for (occv_regpool_\w+)\n.*?\n.*?Used (\d+) registers", text, re.S))
want = {"occv_regpool_384_24_240_240": "168", "occv_regpool_512_32_160_160_160": "128",
        "occv_regpool_384_40_232_232": "168", "occv_regpool_384_24_240_256": "168"}
print("ptxas sm_90a registers at entry: %s" % regs)
sys.exit(0 if regs == want else 1)
PY
rm -f "$PTXAS_LOG" "$PTXAS_LOG.cubin"
echo "kernels_regpool.cu: setmaxnreg honoured, entry counts 168/128"
# The stub that replaces the CUPTI code in toolkits without CUPTI (not linked above): it must compile.
"${CXX:-g++}" -std=c++20 -Wall -Wextra -Werror -fsyntax-only -I "$SRC/cuda_validation/src" -I "$SRC/cuda_validation/report/include" \
  -I "$SRC/lib/core/include" "$SRC/cuda_validation/src/counters_stub.cpp"
echo "counters_stub.cpp compiles"
