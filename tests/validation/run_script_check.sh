#!/usr/bin/env bash
# Checks cuda_validation/bundle/run.sh's own logic without a GPU: a fake occ-validate (a shell script
# that behaves like the real one on a machine WITH a device: dry run exit 0, results and raw files
# written, progress lines printed) stands in for the binary. Proves: progress lines reach the
# console with elapsed seconds, the exit status is passed on, raw files are gzipped, $OUT holds at
# most 8 files (what the device tool returns), the time cap stops a run that hangs (exit 124) and
# keeps the results written so far, a crash is followed by one run with --no-cupti, and a binary that
# cannot start gives exit 5.
# Usage: run_script_check.sh <source dir>
set -uo pipefail
SRC="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

make_bundle() {   # $1 = behaviour of the fake run: ok | mismatch | hang | crash | stuck | broken
  rm -rf "$tmp/b" "$tmp/out"
  mkdir -p "$tmp/b"
  cp "$SRC/cuda_validation/bundle/run.sh" "$tmp/b/run.sh"
  echo "fake bundle (run_script_check.sh)" >"$tmp/b/MANIFEST.txt"
  cat >"$tmp/b/occ-validate" <<EOF
#!/usr/bin/env bash
behaviour=$1
[[ \$behaviour == broken ]] && { echo "occ-validate: /lib/x86_64-linux-gnu/libc.so.6: version GLIBC_2.34 not found"; exit 127; }
case "\$1" in
  --list-cases) echo "quick: 36 residency kernels"; exit 0 ;;
  --dry-run) echo "case occupancy occ/r1_s0/t32/d0/c-1"; echo "device 0: NVIDIA H200, cc 9.0, 132 SMs"; echo "dry run: plan ok; a CUDA device is present"; exit 0 ;;
esac
out=""; raw=""; nocupti=0
while [[ \$# -gt 0 ]]; do case "\$1" in --out) out="\$2"; shift ;; --raw) raw="\$2"; shift ;; --no-cupti) nocupti=1 ;; esac; shift; done
[[ \$behaviour == crash && \$nocupti == 0 ]] && { echo "occupancy: running..."; echo "Segmentation fault"; exit 139; }
[[ \$behaviour == stuck && \$nocupti == 1 ]] && { echo "a second run after exit 6"; exit 0; }
echo "occ-validate: NVIDIA H200 (cc 9.0, 132 SMs), occ entry H200, quick run"
echo "occupancy: running..."
mkdir -p "\$out" "\$raw"
echo '{"partial": true}' >"\$out/h200.json"; echo "# partial" >"\$out/h200.md"
echo "occupancy  occ/r1_s0/t32/d0/c-1   blocks_per_sm   8  8  8  ok"
[[ \$behaviour == hang ]] && sleep 60
echo "CUPTI: chip GH100, 10 memory metrics in 5 pass(es), 262 ranges..."
echo "memory: 262 cases in 1.0 s"
echo "smem  tile/ldmatrix.x4/64x64h/rowmajor/w0   bank_conflicts   28  -  28  ok"
echo "tiles: 15 cases in 0.3 s"
echo "SASS FOR sm_90" >"\$raw/cuobjdump-sass.txt"; echo "ncu csv" >"\$raw/ncu-output.csv"
[[ \$behaviour == stuck ]] && { echo "occ-validate: watchdog: still inside a CUDA call"; exit 6; }
echo '{"complete": true}' >"\$out/h200.json"; echo "# h200 complete" >"\$out/h200.md"
echo "NVIDIA H200 (cc 9.0, 132 SMs): 700 cases, 699 matched, 1 mismatched"
echo "wrote \$out/h200.json and \$out/h200.md (1.0 s)"
[[ \$behaviour == mismatch ]] && { echo "1 case(s) MISMATCHED: see the rows marked MISMATCH above"; exit 1; }
exit 0
EOF
  chmod +x "$tmp/b/occ-validate" "$tmp/b/run.sh"
  (cd "$tmp/b" && sha256sum occ-validate run.sh MANIFEST.txt >SHA256SUMS)
}

# 1. A normal run.
make_bundle ok
out="$(env -i PATH=/usr/bin:/bin OUT="$tmp/out" "$tmp/b/run.sh" --quick 2>&1)"; rc=$?
echo "$out"
[[ $rc -eq 0 ]] || bad "ok run: exit $rc"
grep -q '^\[run.sh [0-9]*s\] occupancy: running' <<<"$out" || bad "no progress line for occupancy"
grep -q '^\[run.sh [0-9]*s\] CUPTI: chip GH100' <<<"$out" || bad "no progress line for CUPTI"
grep -q '^\[run.sh [0-9]*s\] tiles: 15 cases' <<<"$out" || bad "no progress line for the tile cases"
grep -q 'tile/ldmatrix' <<<"$out" && bad "tile table rows leaked to the console"
grep -q '^\[run.sh [0-9]*s\] NVIDIA H200 (cc 9.0, 132 SMs): 700 cases' <<<"$out" || bad "no summary line"
grep -q 'blocks_per_sm' <<<"$out" && bad "table rows leaked to the console (they belong in validate.log)"
grep -q 'files match SHA256SUMS' <<<"$out" || bad "checksums not verified"
[[ -f "$tmp/out/raw/cuobjdump-sass.txt.gz" && -f "$tmp/out/raw/ncu-output.csv.gz" ]] || bad "raw files not gzipped"
grep -q 'complete' "$tmp/out/results/h200.json" 2>/dev/null || bad "results/h200.json missing"
grep -q 'blocks_per_sm' "$tmp/out/validate.log" || bad "validate.log lacks the table"
n=$(find "$tmp/out" -type f | wc -l)
echo "files in \$OUT: $n"; find "$tmp/out" -type f | sed "s|$tmp/out/|    |"
(( n <= 8 )) || bad "$n files in \$OUT (the device tool returns 8)"
bad_names="$(cd "$tmp/out" && find . -type f | grep -v -E '^\./([A-Za-z0-9._-]+/){0,2}[A-Za-z0-9._-]+$')"
[[ -z "$bad_names" ]] || bad "file names the device tool would not return: $bad_names"

# 2. Mismatches: exit 1 passed on.
make_bundle mismatch
env -i PATH=/usr/bin:/bin OUT="$tmp/out" "$tmp/b/run.sh" --quick >/dev/null 2>&1; rc=$?
[[ $rc -eq 1 ]] || bad "mismatch run: exit $rc, expected 1"

# 3. A run that hangs: capped, partial results kept.
make_bundle hang
out="$(env -i PATH=/usr/bin:/bin OUT="$tmp/out" OCC_VALIDATE_LIMIT_S=2 "$tmp/b/run.sh" --quick 2>&1)"; rc=$?
echo "$out" | tail -4
[[ $rc -eq 124 || $rc -eq 137 ]] || bad "hung run: exit $rc, expected 124"
grep -q 'cap' <<<"$out" || bad "the cap is not reported"
grep -q 'partial' "$tmp/out/results/h200.json" 2>/dev/null || bad "partial results lost at the cap"

# 4. A crash (in CUPTI, say): one more run with --no-cupti, first log kept, still <= 8 files.
make_bundle crash
out="$(env -i PATH=/usr/bin:/bin OUT="$tmp/out" "$tmp/b/run.sh" --quick 2>&1)"; rc=$?
echo "$out" | grep -E 'exit|again'
[[ $rc -eq 0 ]] || bad "crash then --no-cupti: exit $rc, expected 0"
grep -q 'again with --no-cupti' <<<"$out" || bad "no second run without CUPTI"
grep -q 'Segmentation' "$tmp/out/validate-first.log" 2>/dev/null || bad "the first attempt's log is lost"
n=$(find "$tmp/out" -type f | wc -l)
(( n <= 8 )) || bad "$n files in \$OUT after the second run"

# 4b. The watchdog ended a run stuck after the setmaxnreg plan that does not fit (exit 6): no second
# run (the GPU may still be stuck; it would overwrite the results the first run wrote).
make_bundle stuck
out="$(env -i PATH=/usr/bin:/bin OUT="$tmp/out" "$tmp/b/run.sh" --quick 2>&1)"; rc=$?
[[ $rc -eq 6 ]] || bad "watchdog exit: run.sh exit $rc, expected 6"
grep -q 'again with --no-cupti' <<<"$out" && bad "a second run after exit 6"
[[ -s "$tmp/out/results/h200.json" ]] || bad "results of the stuck run lost"

# 5. A binary that cannot start: exit 5 with the reason.
make_bundle broken
out="$(env -i PATH=/usr/bin:/bin OUT="$tmp/out" "$tmp/b/run.sh" --quick 2>&1)"; rc=$?
[[ $rc -eq 5 ]] || bad "broken binary: exit $rc, expected 5"
grep -q 'GLIBC_2.34 not found' <<<"$out" || bad "the start failure is not shown"

if [[ $fail -ne 0 ]]; then echo "run_script_check: FAILED"; exit 1; fi
echo "run_script_check: ok"
