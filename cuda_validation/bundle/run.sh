#!/usr/bin/env bash
# run.sh — runs the bundled occ-validate on a machine with an NVIDIA GPU. Needs only the driver: the
# binary, CUPTI and NVPerf are in this folder (MANIFEST.txt says what was built and what it needs).
#
#   run.sh [--quick|--full] [occ-validate options]     measure (default --quick)
#   run.sh --dry-run [--quick]                         the plan and the device check only
#
# Writes to $OUT (default: ../validate-out next to this folder) at most 8 files, as the device tool
# returns at most 8: results/<gpu>.json and .md, validate.log (the full table), dry-run.log,
# machine.txt (GPU, driver, OS, profiling permission, ldd of the binary, the bundle's manifest) and,
# gzipped, raw/cuobjdump-sass.txt and raw/ncu-output.csv when those tools ran. Prints progress with
# elapsed seconds. The measurement is capped at
# $OCC_VALIDATE_LIMIT_S seconds (default 480) so that everything ends inside one 570 s device call;
# occ-validate writes its results after each part, so a capped run still leaves what it measured.
# Exit status: occ-validate's (0 no mismatch, 1 mismatches, 3 CUDA error, 4 no CUDA device,
# 6 its watchdog ended it inside a CUDA call after a launch that never completed, 124 capped) or 5
# when the binary cannot start here (see machine.txt). When occ-validate crashes or a CUDA call
# fails, it runs once more with --no-cupti in the time left (validate-first.log keeps the first
# attempt; still at most 8 files); not after 6 (the GPU may still be stuck, and a second run would
# overwrite the results the first one wrote).
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BIN="$HERE/occ-validate"
MODE="--quick"
case "${1:-}" in
  --full) MODE=""; shift ;;
  --quick) shift ;;
  --dry-run) shift; exec "$BIN" --dry-run "$@" ;;
esac
OUT="${OUT:-$HERE/../validate-out}"
LIMIT="${OCC_VALIDATE_LIMIT_S:-480}"
mkdir -p "$OUT/results" "$OUT/raw"
OUT="$(cd "$OUT" && pwd)"
T0=$(date +%s)
say() { echo "[run.sh $(($(date +%s) - T0))s] $*"; }

{
  echo "# machine description (run.sh, $(date -u +%Y-%m-%dT%H:%M:%SZ))"
  uname -a
  grep -E '^(PRETTY_NAME|VERSION)=' /etc/os-release 2>/dev/null
  ldd --version 2>&1 | head -1
  echo "cpus: $(nproc 2>/dev/null)"
  grep -E '^(MemTotal)' /proc/meminfo 2>/dev/null
  echo
  nvidia-smi 2>&1 | head -25
  nvidia-smi --query-gpu=name,compute_cap,driver_version,clocks.max.sm,clocks.max.mem,memory.total,mig.mode.current \
    --format=csv 2>&1
  echo
  echo "# profiling permission (RmProfilingAdminOnly: 1 = counters for root only)"
  grep -i -E 'Profiling' /proc/driver/nvidia/params 2>&1 || echo "(no /proc/driver/nvidia/params)"
  echo "user: $(id -u -n 2>/dev/null) (uid $(id -u))"
  echo
  echo "# bundle"
  cat "$HERE/MANIFEST.txt" 2>/dev/null
} >"$OUT/machine.txt" 2>&1
say "GPU: $(nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader 2>/dev/null | head -1 || echo '?')"
say "profiling: $(grep -i -E 'RmProfilingAdminOnly' /proc/driver/nvidia/params 2>/dev/null || echo 'RmProfilingAdminOnly not readable')"

if (cd "$HERE" && sha256sum --quiet -c SHA256SUMS >/dev/null 2>&1); then
  say "bundle: files match SHA256SUMS"
else
  say "WARNING: bundle files differ from SHA256SUMS (incomplete copy?)"
fi
LDD="$(ldd "$BIN" 2>&1)"
printf '\n# ldd occ-validate\n%s\n' "$LDD" >>"$OUT/machine.txt"
if grep -q "not found" <<<"$LDD"; then
  say "WARNING: unresolved libraries: $(grep 'not found' <<<"$LDD" | awk '{print $1}' | tr '\n' ' ')"
fi
if ! START="$("$BIN" --list-cases ${MODE} 2>&1)"; then
  printf '\n# occ-validate --list-cases\n%s\n' "$START" >>"$OUT/machine.txt"
  say "FAILED: occ-validate cannot start here:"
  echo "$START"
  grep -E 'needs glibc|NEEDED' "$HERE/MANIFEST.txt" 2>/dev/null
  exit 5
fi

say "dry run (plan, CUPTI, device):"
timeout 120 "$BIN" --dry-run ${MODE} >"$OUT/dry-run.log" 2>&1
drc=$?
grep -v '^case ' "$OUT/dry-run.log" | sed 's/^/    /'
if [[ $drc -eq 4 ]]; then
  say "FAILED: no usable CUDA device (see dry-run.log and machine.txt)"
  exit 4
fi

measure() {   # $1 = seconds allowed, then extra occ-validate options; output to validate.log
  local limit=$1
  shift
  timeout -k 15 "$limit" "$BIN" ${MODE} --out "$OUT/results" --raw "$OUT/raw" "$@" 2>&1 |
    tee "$OUT/validate.log" |
    grep --line-buffered -E '^(occ-validate|occupancy:|memory:|tiles:|tile cases:|CUPTI|running|no counters|ncu |wrote|[0-9]+ case)| SMs\): [0-9]+ cases' |
    while IFS= read -r line; do say "$line"; done
  return "${PIPESTATUS[0]}"
}
report() {
  case $1 in
    0) say "occ-validate exit 0: nothing mismatched" ;;
    1) say "occ-validate exit 1: some cases mismatched (listed in results/*.md)" ;;
    124 | 137) say "occ-validate stopped at the time cap (exit $1): results hold the parts that finished" ;;
    6) say "occ-validate exit 6: its watchdog ended it, stuck after the setmaxnreg plan that does not fit (results hold the provisional HANG row)" ;;
    *) say "occ-validate exit $1"; tail -20 "$OUT/validate.log" ;;
  esac
}
say "running occ-validate ${MODE:---full} (limit ${LIMIT} s; full table in validate.log)"
measure "$LIMIT" "$@"
rc=$?
report $rc
# A crash or a failed CUDA call may come from the counters (CUPTI is the newest, least tried part):
# once, with the time left, measure again without them (residency, device constants, ncu or timing).
used=$(($(date +%s) - T0))
if [[ $rc -ne 0 && $rc -ne 1 && $rc -ne 4 && $rc -ne 6 && $rc -ne 124 && $rc -ne 137 ]] && ((LIMIT - used > 60)); then
  mv "$OUT/validate.log" "$OUT/validate-first.log"
  say "running occ-validate again with --no-cupti ($((LIMIT - used)) s left; first log in validate-first.log)"
  measure $((LIMIT - used)) --no-cupti "$@"
  rc=$?
  report $rc
fi
for f in "$OUT"/raw/*; do
  [[ -f $f && $f != *.gz ]] && gzip -9f "$f"
done
rmdir "$OUT/raw" 2>/dev/null
for md in "$OUT"/results/*.md; do
  [[ -f $md ]] || continue
  say "$(basename "$md"):"
  head -c 6000 "$md"
  echo
done
(cd "$OUT" && find . -type f -printf '%p %s bytes\n' | sort) | sed 's/^/    /'
say "done"
exit "$rc"
