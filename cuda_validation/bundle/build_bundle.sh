#!/usr/bin/env bash
# build_bundle.sh — builds occ-validate HERE (no GPU needed) and lays out a folder that runs on a bare
# GPU machine with nothing but the NVIDIA driver: `make validate-bundle` calls it.
#
#   cuda_validation/bundle/build_bundle.sh [--archs LIST] [--build DIR] [--out DIR] [--jobs N]
#
#   --archs  CMake CUDA_ARCHITECTURES (default "80-real;86-real;89-real;90-real;100-real;120": SASS for
#            sm_80, 86, 89, 90, 100, 120 and PTX of the newest, compute_120)
#            Whatever --archs says, two files are compiled for one target each and required in the
#            fatbin: kernels_regpool.cu for sm_90a (setmaxnreg) and kernels_tmem.cu for sm_100a (tcgen05).
#   --build  build directory (default build/validate-bundle.build)
#   --out    the bundle (default build/validate-bundle); replaced as a whole
#
# The bundle: occ-validate (CUDA runtime and C++ runtime linked statically, DT_RPATH $ORIGIN),
# libcupti.so.13 + libnvperf_host.so + libnvperf_target.so from this toolkit (CUPTI's range profiler),
# run.sh, MANIFEST.txt (what was built, from what, for which GPUs, what it needs) and SHA256SUMS.
# Refuses a bundle above 60 MiB (the device tool carries at most 64 MiB) or one that lacks an
# architecture it was asked for (read back from the binary's fatbin by fatbin_archs.py).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/cuda_validation/bundle"
ARCHS="80-real;86-real;89-real;90-real;100-real;120"
BUILD="$ROOT/build/validate-bundle.build"
OUT="$ROOT/build/validate-bundle"
JOBS="$(nproc 2>/dev/null || echo 2)"
LIMIT_MIB=60
while [[ $# -gt 0 ]]; do
  case "$1" in
    --archs) ARCHS="$2"; shift 2 ;;
    --build) BUILD="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --jobs) JOBS="$2"; shift 2 ;;
    *) echo "usage: $0 [--archs LIST] [--build DIR] [--out DIR] [--jobs N]" >&2; exit 2 ;;
  esac
done

NVCC="${CUDACXX:-}"
if [[ -z "$NVCC" ]]; then
  for c in "$(command -v nvcc || true)" /usr/local/cuda/bin/nvcc; do
    if [[ -n "$c" && -x "$c" ]]; then NVCC="$c"; break; fi
  done
fi
[[ -n "$NVCC" ]] || { echo "build_bundle: nvcc not found (install the CUDA toolkit or set CUDACXX)" >&2; exit 1; }

mkdir -p "$(dirname "$BUILD")"
T0=$(date +%s)
echo "build_bundle: nvcc $NVCC, architectures $ARCHS, $JOBS jobs"
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DOCC_CORE_ONLY=ON -DOCC_BUILD_TESTS=OFF -DOCC_BUILD_CLI=OFF \
  -DOCC_BUILD_CUDA_VALIDATION=ON -DOCC_VALIDATE_BUNDLE=ON -DOCC_CUPTI=ON -DCMAKE_CUDA_COMPILER="$NVCC" \
  -DOCC_CUDA_ARCHS="$ARCHS" >"$BUILD.configure.log" 2>&1 || { cat "$BUILD.configure.log"; exit 1; }
grep -q "counters through CUPTI" "$BUILD.configure.log" || {
  echo "build_bundle: CMake did not find CUPTI's range profiler in this toolkit (cupti_range_profiler.h, libcupti)" >&2; exit 1; }
cmake --build "$BUILD" --target occ-validate -j"$JOBS"
T1=$(date +%s)

BIN="$BUILD/bin/occ-validate"
LIBDIR="$(sed -n 's/^CUDAToolkit_LIBRARY_DIR:[A-Z]*=//p' "$BUILD/CMakeCache.txt" | head -1)"
CUPTI_LIB="$(sed -n 's/^CUDA_cupti_LIBRARY:[A-Z]*=//p' "$BUILD/CMakeCache.txt" | head -1)"
CUPTI_DIR="$(dirname "$(readlink -f "$CUPTI_LIB")")"

rm -rf "$OUT"
mkdir -p "$OUT"
cp "$BIN" "$OUT/occ-validate"
strip --strip-unneeded "$OUT/occ-validate"
# libcupti.so.13 (what the binary names), and the NVPerf libraries libcupti loads itself.
NEEDED_CUPTI="$(readelf -d "$OUT/occ-validate" | sed -n 's/.*NEEDED.*\[\(libcupti[^]]*\)\].*/\1/p')"
[[ -n "$NEEDED_CUPTI" ]] || { echo "build_bundle: occ-validate does not link libcupti" >&2; exit 1; }
for lib in "$NEEDED_CUPTI" libnvperf_host.so libnvperf_target.so; do
  src=""
  for d in "$CUPTI_DIR" "$LIBDIR" "$(dirname "$NVCC")/../lib64" "$(dirname "$NVCC")/../extras/CUPTI/lib64"; do
    [[ -n "$d" && -e "$d/$lib" ]] && { src="$d/$lib"; break; }
  done
  [[ -n "$src" ]] || { echo "build_bundle: $lib not found next to $CUPTI_LIB or in $LIBDIR" >&2; exit 1; }
  cp -L "$src" "$OUT/$lib"
done
cp "$HERE/run.sh" "$OUT/run.sh"
chmod +x "$OUT/run.sh" "$OUT/occ-validate"

# What the binary carries and needs.
REQ_SASS=""; REQ_PTX=""
IFS=';' read -ra A <<<"$ARCHS"
for a in "${A[@]}"; do
  n="${a%%-*}"
  case "$a" in
    *-real) REQ_SASS="$REQ_SASS,$n" ;;
    *-virtual) REQ_PTX="$REQ_PTX,$n" ;;
    *) REQ_SASS="$REQ_SASS,$n"; REQ_PTX="$REQ_PTX,$n" ;;
  esac
done
# The architecture-specific objects (cuda_validation/CMakeLists.txt): sm_90a and sm_100a SASS.
ARCH_SPECIFIC="90a,100a"
REQ_SASS="$REQ_SASS,$ARCH_SPECIFIC"
FATBIN="$(python3 "$HERE/fatbin_archs.py" "$OUT/occ-validate" --require-sass "${REQ_SASS#,}" --require-ptx "${REQ_PTX#,}")" || {
  echo "$FATBIN"; echo "build_bundle: the binary lacks a requested architecture" >&2; exit 1; }
GLIBC="$(objdump -T "$OUT"/occ-validate "$OUT"/lib*.so* 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)"
CUDART="$("$NVCC" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
COMMIT="$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
DIRTY="$(git -C "$ROOT" status --porcelain -- cuda_validation lib/core 2>/dev/null | head -1)"
{
  echo "occ-validate bundle — run ./run.sh [--quick|--full|--dry-run] on a machine with an NVIDIA GPU."
  echo "Needs there: the NVIDIA driver (libcuda.so.1) of CUDA $CUDART or newer (R580+), Linux x86_64 with"
  echo "glibc >= ${GLIBC#GLIBC_}, bash and coreutils. Nothing else: no compiler, cmake, headers, ncu."
  echo
  echo "built:        $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n) in $((T1 - T0)) s"
  echo "source:       occ $COMMIT${DIRTY:+ (with uncommitted changes in cuda_validation or lib/core)}"
  echo "nvcc:         $("$NVCC" --version | tail -1)"
  echo "archs:        $ARCHS; sm_90a (setmaxnreg plans, kernels_regpool.cu) and sm_100a (Tensor Memory, kernels_tmem.cu)"
  echo "fatbin:       $(echo "$FATBIN" | tr '\n' ';' | sed 's/;$//; s/;/; /g')"
  echo "needs glibc:  ${GLIBC:-?} (newest symbol version referenced by the binary and the CUPTI libraries)"
  echo "NEEDED:       $(readelf -d "$OUT/occ-validate" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
  echo "RPATH:        $(readelf -d "$OUT/occ-validate" | sed -n 's/.*R\(UN\)\{0,1\}PATH.*\[\(.*\)\]/\2/p')"
  echo "CUPTI from:   $CUPTI_DIR"
  echo
  echo "files:"
  (cd "$OUT" && for f in *; do printf '  %-22s %10d bytes\n' "$f" "$(stat -c %s "$f")"; done)
} >"$OUT/MANIFEST.txt"
(cd "$OUT" && sha256sum occ-validate lib*.so* run.sh MANIFEST.txt >SHA256SUMS)

BYTES="$(du -sb "$OUT" | cut -f1)"
MIB="$(awk -v b="$BYTES" 'BEGIN { printf "%.1f", b / 1048576 }')"
echo "build_bundle: $OUT: $MIB MiB ($BYTES bytes), compile + link $((T1 - T0)) s"
echo "$FATBIN" | sed 's/^/build_bundle:   /'
if (( BYTES > LIMIT_MIB * 1048576 )); then
  echo "build_bundle: FAILED: the bundle is above $LIMIT_MIB MiB" >&2
  exit 1
fi
# The device tool sends the working tree (tracked and untracked-not-ignored files) with the carried
# bundle, 64 MiB in all.
if TREE="$(cd "$ROOT" && git ls-files -z -c -o --exclude-standard 2>/dev/null | xargs -0 -r stat -c %s 2>/dev/null |
  awk '{ s += $1 } END { print s + 0 }')"; then
  TRAVEL=$((TREE + BYTES))
  echo "build_bundle: with the working tree ($(awk -v b="$TREE" 'BEGIN { printf "%.1f", b / 1048576 }') MiB) the device call carries" \
    "$(awk -v b="$TRAVEL" 'BEGIN { printf "%.1f", b / 1048576 }') MiB of its 64"
  (( TRAVEL <= 64 * 1048576 )) || echo "build_bundle: WARNING: above the device tool's 64 MiB" >&2
fi
