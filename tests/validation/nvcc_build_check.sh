#!/usr/bin/env bash
# Compiles cuda_validation with nvcc (no GPU needed) for two architectures, then runs the harness's
# --list-cases (pure host code) to check the case counts. Prints SKIPPED when nvcc is absent.
# Usage: nvcc_build_check.sh <source dir> <build dir>
set -euo pipefail
SRC="$1"; BUILD="$2"
NVCC="${CUDACXX:-}"
if [[ -z "$NVCC" ]]; then
  for c in "$(command -v nvcc || true)" /usr/local/cuda/bin/nvcc; do
    if [[ -n "$c" && -x "$c" ]]; then NVCC="$c"; break; fi
  done
fi
if [[ -z "$NVCC" ]]; then
  echo "SKIPPED: nvcc not found (install the CUDA toolkit); cuda_validation was not compiled"
  exit 0
fi
echo "nvcc: $NVCC"
cmake -S "$SRC" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DOCC_CORE_ONLY=ON -DOCC_BUILD_TESTS=OFF -DOCC_BUILD_CLI=OFF \
  -DOCC_BUILD_CUDA_VALIDATION=ON -DCMAKE_CUDA_COMPILER="$NVCC" -DOCC_CUDA_ARCHS="80;90" >/dev/null
cmake --build "$BUILD" --target occ-validate -j"${OCC_NVCC_JOBS:-2}"
"$BUILD/bin/occ-validate" --list-cases
"$BUILD/bin/occ-validate" --list-cases --quick
