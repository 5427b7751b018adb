#!/usr/bin/env bash
# make_ptxas_fixtures.sh — regenerate tests/fixtures/ptxas/*.log from the real .cu files in
# tests/fixtures/ptxas/src with the installed nvcc (compile only; no GPU needed).
#   NVCC=/path/to/nvcc scripts/make_ptxas_fixtures.sh
# Each log is exactly what `nvcc -Xptxas -v` prints on stderr (plus stdout), unedited.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
src="$here/tests/fixtures/ptxas/src"
out="$here/tests/fixtures/ptxas"
NVCC="${NVCC:-/usr/local/cuda/bin/nvcc}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

"$NVCC" --version | tail -n 2 > "$out/NVCC_VERSION.txt"

# One log per architecture for kernels.cu.
for sm in 75 80 90 100 120; do
  "$NVCC" -c -arch=sm_$sm -Xptxas -v "$src/kernels.cu" -o "$tmp/k_$sm.o" > "$out/kernels_sm$sm.log" 2>&1
done
# Hopper-only features (cluster dims, named barriers).
"$NVCC" -c -arch=sm_90 -Xptxas -v "$src/hopper.cu" -o "$tmp/h.o" > "$out/hopper_sm90.log" 2>&1
# One fat build for several architectures: per-arch sections interleave in one log.
"$NVCC" -c -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
  -Xptxas -v "$src/kernels.cu" -o "$tmp/fat.o" > "$out/kernels_fat_sm80_sm90.log" 2>&1
# -maxrregcount forces spills into every kernel; also shows nvcc's own warning lines.
"$NVCC" -c -arch=sm_80 -maxrregcount=24 -Xptxas -v "$src/kernels.cu" -o "$tmp/m.o" > "$out/kernels_sm80_maxrreg24.log" 2>&1
# (count below)
echo "wrote $(ls "$out"/*.log | wc -l) logs to $out"
# A mixed build log: a host compiler warning and make-style lines around real ptxas output,
# to check that the parser skips lines it does not know.
cat > "$tmp/host.cpp" <<'CPP'
int unused_warning(int x) { int y; return x; }
CPP
{
  echo "[ 50%] Building CXX object host.cpp.o"
  g++ -Wall -c "$tmp/host.cpp" -o "$tmp/host.o" 2>&1 | sed "s|$tmp/||g" || true
  echo "[ 75%] Building CUDA object kernels.cu.o"
  "$NVCC" -c -arch=sm_86 -lineinfo -Xptxas -v "$src/kernels.cu" -o "$tmp/k86.o" 2>&1
  echo "[100%] Linking CXX executable app"
} > "$out/mixed_build_sm86.log"
echo "wrote mixed_build_sm86.log"
