#!/usr/bin/env bash
# validate_on_device.sh — ONE prepared script for a machine with an NVIDIA GPU: runs the quick
# validation (--full for everything) and leaves what it wrote in $OUT.
#
#   scripts/validate_on_device.sh [--quick|--full]       (default --quick)
#   scripts/validate_on_device.sh --prepare               (on the machine WITHOUT the GPU, see below)
#
# 1. With the bundle (`make validate-bundle` here, then carry build/validate-bundle): runs
#    build/validate-bundle/run.sh, which needs nothing on the GPU machine but the NVIDIA driver (no
#    compiler, cmake, headers or ncu: counters come from CUPTI inside occ-validate). Within one call of
#    at most 570 s: the measurement is capped at 480 s (OCC_VALIDATE_LIMIT_S). This is the path for a
#    borrowed machine (cuda_validation/README.md gives the exact device command).
# 2. Without the bundle, or when the bundled binary cannot start there (run.sh exit 5, e.g. an older
#    glibc) and nvcc is present: builds cuda_validation for that GPU and runs it (below). Needs nvcc
#    (PATH, $CUDA_HOME or /usr/local/cuda), a C++20 host compiler, nlohmann/json.hpp; optional cmake
#    (else a plain nvcc build), ncu, cuobjdump. If the GPU machine lacks nlohmann/json.hpp: run
#    `--prepare` here first, which copies the header into third_party/validation_deps/ (git-ignored),
#    and carry that folder to the device. OCC_FORCE_SOURCE_BUILD=1 skips the bundle.
#
# Output in $OUT (default build/validate-out): results/<gpu>.json and .md, validate.log (full
# table), machine.txt, dry-run.log (bundle) or build.log (source build), raw/. Then commit
# results/<gpu>.json and .md into cuda_validation/results/ after reading every mismatch.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
MODE="--quick"
case "${1:-}" in
  --full) MODE="" ;;
  --quick|"") MODE="--quick" ;;
  --prepare)
    src=""
    for d in /usr/include /usr/local/include; do [[ -f $d/nlohmann/json.hpp ]] && src=$d/nlohmann && break; done
    [[ -n "$src" ]] || { echo "no nlohmann/json.hpp here (apt-get install nlohmann-json3-dev)"; exit 1; }
    mkdir -p third_party/validation_deps && cp -r "$src" third_party/validation_deps/
    echo "copied $src to third_party/validation_deps/ (carry this folder to the GPU machine)"
    exit 0 ;;
  *) echo "usage: $0 [--quick|--full|--prepare]"; exit 2 ;;
esac

OUT="${OUT:-$ROOT/build/validate-out}"
export OUT
BUNDLE="$ROOT/build/validate-bundle"
if [[ -z "${OCC_FORCE_SOURCE_BUILD:-}" && -x "$BUNDLE/run.sh" && -x "$BUNDLE/occ-validate" ]]; then
  echo "[validate_on_device] using the bundle in $BUNDLE"
  "$BUNDLE/run.sh" ${MODE:---full}
  rc=$?
  if [[ $rc -ne 5 ]]; then exit $rc; fi
  echo "[validate_on_device] the bundled binary cannot start here: building from source instead"
fi
mkdir -p "$OUT/results" "$OUT/raw"
T0=$(date +%s)
say() { echo "[validate_on_device $(( $(date +%s) - T0 ))s] $*"; }

{
  date -u; uname -a
  nvidia-smi 2>&1 | head -20
  nvidia-smi --query-gpu=name,compute_cap,driver_version,clocks.max.sm --format=csv 2>&1
} > "$OUT/machine.txt" 2>&1
say "machine: $(nvidia-smi --query-gpu=name,compute_cap --format=csv,noheader 2>/dev/null | head -1)"

find_tool() {   # name, extra candidate paths...
  local n=$1; shift
  local c
  c=$(command -v "$n" 2>/dev/null) && { echo "$c"; return; }
  for c in "${CUDA_HOME:-/nonexistent}/bin/$n" /usr/local/cuda/bin/"$n" "$@"; do
    [[ -x "$c" ]] && { echo "$c"; return; }
  done
}
NVCC=$(find_tool nvcc /usr/local/cuda-*/bin/nvcc)
[[ -n "$NVCC" ]] || { say "FAILED: nvcc not found"; exit 1; }
NCU=$(find_tool ncu /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/nsight-compute*/ncu /usr/local/cuda-*/bin/ncu)
CUOBJDUMP=$(find_tool cuobjdump "$(dirname "$NVCC")/cuobjdump")
export OCC_NCU="$NCU" OCC_CUOBJDUMP="$CUOBJDUMP"
say "nvcc=$NVCC ($("$NVCC" --version | tail -1)); ncu=${NCU:-none}; cuobjdump=${CUOBJDUMP:-none}"

CC=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
ARCH="${OCC_CUDA_ARCH:-${CC:-native}}"
say "building for sm_$ARCH"

NLOHMANN=""
for d in /usr/include /usr/local/include "$ROOT/third_party/validation_deps"; do
  [[ -f $d/nlohmann/json.hpp ]] && NLOHMANN=$d && break
done
[[ -n "$NLOHMANN" ]] || { say "FAILED: nlohmann/json.hpp missing (run --prepare on a machine that has it and carry third_party/validation_deps)"; exit 1; }

BUILD="$ROOT/build/cuda-device"
BIN="$BUILD/bin/occ-validate"
JOBS=$(nproc 2>/dev/null || echo 4)
cmake_ok() {
  command -v cmake >/dev/null || return 1
  local v; v=$(cmake --version | head -1 | awk '{print $3}')
  [[ "$(printf '%s\n' 3.22 "$v" | sort -V | head -1)" == 3.22 ]]
}
if [[ -z "${OCC_FORCE_NVCC_BUILD:-}" ]] && cmake_ok; then
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DOCC_CORE_ONLY=ON -DOCC_BUILD_TESTS=OFF -DOCC_BUILD_CLI=OFF \
    -DOCC_BUILD_CUDA_VALIDATION=ON -DCMAKE_CUDA_COMPILER="$NVCC" -DOCC_CUDA_ARCHS="$ARCH" \
    -DOCC_NLOHMANN_INCLUDE="$NLOHMANN" > "$OUT/build.log" 2>&1 &&
  cmake --build "$BUILD" --target occ-validate -j"$JOBS" >> "$OUT/build.log" 2>&1
  rc=$?
else
  # No (recent) cmake: build with nvcc directly, same sources and flags as cuda_validation/CMakeLists.txt.
  say "cmake >= 3.22 not found: plain nvcc build"
  rm -rf "$BUILD/obj"
  mkdir -p "$BUILD/obj" "$BUILD/bin"
  [[ "$ARCH" == native ]] && GENCODE="-arch=native" || GENCODE="-gencode arch=compute_$ARCH,code=sm_$ARCH"
  INC="-I lib/core/include -I cuda_validation/report/include -I cuda_validation/src"
  [[ "$NLOHMANN" == /usr/include || "$NLOHMANN" == /usr/local/include ]] || INC="$INC -isystem $NLOHMANN"
  DEFS="-DOCC_RESULTS_DIR=\"$ROOT/cuda_validation/results\" -DOCC_VERSION=\"device-script\""
  # Counters: CUPTI's range profiler when the toolkit has it, else the stub (ncu / estimates).
  CUDA_ROOT="$(dirname "$(dirname "$(readlink -f "$NVCC")")")"
  COUNTERS=cuda_validation/src/counters_stub.cpp
  LINK_CUPTI=""
  if [[ -f "$CUDA_ROOT/include/cupti_range_profiler.h" ]]; then
    for d in "$CUDA_ROOT/lib64" "$CUDA_ROOT/lib" "$CUDA_ROOT/extras/CUPTI/lib64"; do
      if [[ -e "$d/libcupti.so" ]]; then
        COUNTERS=cuda_validation/src/counters_cupti.cpp
        LINK_CUPTI="-L$d -lcupti -Xlinker -rpath=$d"
        break
      fi
    done
  fi
  say "counters: $COUNTERS"
  rc=0
  pids=()
  for f in lib/core/src/*.cpp cuda_validation/report/src/*.cpp cuda_validation/src/*.cpp; do
    case "$f" in
      */counters_cupti.cpp | */counters_stub.cpp | */bundle_compat.cpp) [[ "$f" == "$COUNTERS" ]] || continue ;;
    esac
    "$NVCC" -std=c++20 -O2 $INC $DEFS -x c++ -c "$f" -o "$BUILD/obj/$(echo "$f" | tr / _).o" >> "$OUT/build.log" 2>&1 &
    pids+=($!)
  done
  for f in cuda_validation/src/*.cu; do
    extra=""
    [[ $f == *rr32* ]] && extra="-maxrregcount=32"
    [[ $f == *rr72* ]] && extra="-maxrregcount=72"
    "$NVCC" -std=c++17 -O3 -lineinfo $GENCODE $extra $INC -c "$f" -o "$BUILD/obj/$(echo "$f" | tr / _).o" >> "$OUT/build.log" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || rc=1; done
  [[ $rc -eq 0 ]] && "$NVCC" $GENCODE "$BUILD"/obj/*.o $LINK_CUPTI -o "$BIN" >> "$OUT/build.log" 2>&1 || rc=1
fi
if [[ $rc -ne 0 || ! -x "$BIN" ]]; then
  say "FAILED: build (tail of build.log follows)"; tail -40 "$OUT/build.log"; exit 1
fi
say "built $BIN"

"$BIN" --list-cases $MODE
say "running occ-validate $MODE (table in $OUT/validate.log)"
timeout 480 "$BIN" $MODE --out "$OUT/results" --raw "$OUT/raw" > "$OUT/validate.log" 2>&1
rc=$?
say "occ-validate exit $rc (0 = no mismatch, 1 = mismatches, 3 = CUDA error, 124 = timeout)"
grep -E "^occ-validate:|^occupancy:|^memory:|^running|^ncu |falling back|MISMATCHED|cases,|^wrote" "$OUT/validate.log" | head -20
for md in "$OUT"/results/*.md; do [[ -f $md ]] && head -c 9000 "$md"; done
[[ $rc -eq 0 || $rc -eq 1 ]] || tail -30 "$OUT/validate.log"
ls -la "$OUT" "$OUT/results" "$OUT/raw"
say "done"
exit $rc
