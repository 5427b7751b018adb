#!/usr/bin/env bash
# Checks the occ-validate bundle that nvcc_build_check.sh laid out, on a machine without a GPU.
#
#   bundle_check.sh dry-run <bundle dir>   run.sh --dry-run lists every case, configures the counters
#                                          for the six chips through CUPTI's host API (no GPU), loads
#                                          libcupti and libnvperf_host FROM THE BUNDLE, and reports
#                                          "no CUDA device" with exit 4; a real run exits 4 too and
#                                          run.sh leaves machine.txt + dry-run.log, under 8 files
#   bundle_check.sh ldd <bundle dir>       every library the binary and the bundled libraries need
#                                          resolves to the bundle or to the base system (glibc,
#                                          libgcc_s); only the driver (libcuda.so.1, libnvidia-*) may
#                                          be missing; DT_RPATH is $ORIGIN; glibc symbols <= 2.34;
#                                          SHA256SUMS holds; <= 60 MiB
#   bundle_check.sh archs <bundle dir> [occ]  the fatbin holds SASS for the six architectures and for
#                                          sm_90a and sm_100a; with occ's CLI, `occ kernels` finds the
#                                          setmaxnreg kernels as sm_90a only (168/128 registers) and the
#                                          Tensor Memory kernels as sm_100a only
#
# On a machine WITH a GPU the dry run finds it and exits 0; the check accepts that too.
# Prints SKIPPED when the bundle was not built (no nvcc).
set -uo pipefail
MODE="$1"; BUNDLE="$2"
if [[ ! -x "$BUNDLE/occ-validate" ]]; then
  echo "SKIPPED: no bundle in $BUNDLE (nvcc absent, see validation.nvcc_build)"
  exit 0
fi
BUNDLE="$(cd "$BUNDLE" && pwd)"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
have() { grep -q -e "$1" <<<"$2" || bad "missing in output: $1"; }

case "$MODE" in
dry-run)
  # A clean environment: no LD_LIBRARY_PATH, no CUDA on PATH.
  out="$(cd / && env -i PATH=/usr/bin:/bin HOME=/tmp "$BUNDLE/run.sh" --dry-run --quick 2>&1)"
  rc=$?
  grep -v '^case ' <<<"$out"
  echo "(run.sh --dry-run exit $rc; $(grep -c '^case ' <<<"$out") case lines)"
  have "^case occupancy occ/r" "$out"
  have "^case coalescing " "$out"
  have "^case banks " "$out"
  n_occ=$(grep -c '^case occupancy ' <<<"$out")
  n_mem=$(grep -c -E '^case (coalescing|banks) ' <<<"$out")
  (( n_occ >= 300 )) || bad "only $n_occ occupancy cases listed"
  (( n_mem >= 200 )) || bad "only $n_mem memory cases listed"
  # Tile cases (ldmatrix / cp.async on occ's tile layouts) with occ's expected counter values.
  n_tile=$(grep -c -E '^case (coalescing|banks) tile/' <<<"$out")
  (( n_tile >= 10 )) || bad "only $n_tile tile cases listed"
  have "^case banks tile/ldmatrix.x4/64x64h/rowmajor/w0 .*wavefronts 32 bank_conflicts 28 (8-way)" "$out"
  have "^case banks tile/ldmatrix.x4/64x64h/swizzle333/w0 .*wavefronts 4 bank_conflicts 0 " "$out"
  have "^case banks tile/ldmatrix.x4.trans/64x64h/rowmajor/w0 .*bank_conflicts 28 " "$out"
  have "^case coalescing tile/cp_async16/64x64h/rowmajor/w0 .*wavefronts 4 bank_conflicts 0 .* requests 1 sectors 16)" "$out"
  # setmaxnreg plans (sm_90a) and Tensor Memory (sm_100a), with occ's answers on an H100 / a B200.
  have "^case occupancy regpool/t384/24-240-240 .*sm_90a.*launch 168, expect launch_regs 168 blocks_per_sm 1 fits 1: fits" "$out"
  have "^case occupancy regpool/t512/32-160-160-160 .*launch 128, .*fits 1: fits" "$out"
  have "^case occupancy regpool/t384/40-232-232 .*fits 1: fits" "$out"
  have "^case occupancy regpool/t384/24-240-256 .*fits 0: hang risk" "$out"
  [[ "$(grep '^case occupancy regpool/' <<<"$out" | tail -1)" == *24-240-256* ]] || bad "the setmaxnreg plan that does not fit is not listed last"
  for c in 32:16 64:8 128:4 256:2 512:1; do
    have "^case occupancy tmem/c${c%%:*} .*sm_100a, needs a B200.*expect tmem_blocks_per_sm ${c##*:})" "$out"
  done
  for chip in "sm_80 GA100" "sm_86 GA102" "sm_89 AD102" "sm_90 GH100" "sm_100 GB100" "sm_120 GB202"; do
    line="$(grep "^counters $chip:" <<<"$out")"
    [[ -n "$line" ]] || bad "no counter plan for $chip"
    grep -q -E "memory 10 metrics in [0-9]+ pass" <<<"$line" || bad "memory counters not configured for $chip: $line"
    grep -q "occupancy 5 metrics in 1 pass" <<<"$line" || bad "occupancy counters not in one pass for $chip: $line"
    # LDSM + LDGSTS counters everywhere; STSM and LDGSTS global (sectors) counters from sm_90 on.
    case "$chip" in sm_8*) want="tiles 6 metrics in" ;; *) want="tiles 10 metrics in" ;; esac
    grep -q "$want [0-9]* pass" <<<"$line" || bad "tile counters not configured for $chip: $line"
  done
  have "^loaded $BUNDLE/libcupti.so" "$out"
  have "^loaded $BUNDLE/libnvperf_host.so" "$out"
  if grep "^loaded " <<<"$out" | grep -v "^loaded $BUNDLE/" | grep -q -E "libcupti|libnvperf"; then
    bad "a CUPTI/NVPerf library was loaded from outside the bundle"
  fi
  if [[ $rc -eq 4 ]]; then
    have "^no CUDA device: " "$out"
    have "dry run: plan ok; exit 4" "$out"
    # A real run without a device: exit 4, one line, no results.
    tmp="$(mktemp -d)"
    run="$(cd / && env -i PATH=/usr/bin:/bin "$BUNDLE/occ-validate" --quick --out "$tmp/results" 2>&1)"
    rrc=$?
    echo "occ-validate --quick: exit $rrc: $run"
    [[ $rrc -eq 4 ]] || bad "occ-validate without a device: exit $rrc, expected 4"
    have "^occ-validate: no CUDA device: " "$run"
    [[ -z "$(ls -A "$tmp/results" 2>/dev/null)" ]] || bad "results written without a device"
    # run.sh: exit 4 after the dry run, machine description and dry-run log in $OUT, few files.
    rs="$(cd / && env -i PATH=/usr/bin:/bin OUT="$tmp/out" "$BUNDLE/run.sh" --quick 2>&1)"
    rsc=$?
    echo "run.sh --quick: exit $rsc"
    [[ $rsc -eq 4 ]] || bad "run.sh without a device: exit $rsc, expected 4"
    have "no usable CUDA device" "$rs"
    [[ -s "$tmp/out/machine.txt" && -s "$tmp/out/dry-run.log" ]] || bad "run.sh left no machine.txt / dry-run.log"
    grep -q "^# ldd occ-validate" "$tmp/out/machine.txt" || bad "machine.txt lacks the ldd listing"
    nfiles=$(find "$tmp/out" -type f | wc -l)
    (( nfiles <= 8 )) || bad "run.sh left $nfiles files in \$OUT (the device tool returns 8)"
    rm -rf "$tmp"
  elif [[ $rc -eq 0 ]]; then
    have "a CUDA device is present" "$out"
  else
    bad "run.sh --dry-run exit $rc (expected 4 without a GPU, 0 with one)"
  fi
  ;;
ldd)
  allowed='^(linux-vdso\.so\.1|ld-linux-x86-64\.so\.2|/lib64/ld-linux-x86-64\.so\.2|libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|libutil\.so\.1|libgcc_s\.so\.1)$'
  driver='^(libcuda\.so(\.1)?|libnvidia-.*)$'
  for f in "$BUNDLE/occ-validate" "$BUNDLE"/lib*.so*; do
    echo "== ldd $(basename "$f")"
    listing="$(cd / && env -i PATH=/usr/bin:/bin ldd "$f" 2>&1)"
    echo "$listing"
    while read -r name arrow path _; do
      [[ -z "$name" ]] && continue
      if [[ "$arrow" == "=>" && "$path" == "not" ]]; then
        [[ "$name" =~ $driver ]] && { echo "   ($name: the NVIDIA driver, installed on the GPU machine)"; continue; }
        bad "$(basename "$f"): $name not found"
      elif [[ "$arrow" == "=>" ]]; then
        [[ "$path" == "$BUNDLE/"* ]] && continue
        [[ "$name" =~ $allowed ]] || bad "$(basename "$f"): $name resolves outside the bundle ($path)"
      else
        [[ "$name" =~ $allowed ]] || [[ "$name" == /* && "$(basename "$name")" =~ $allowed ]] || bad "$(basename "$f"): unexpected entry $name"
      fi
    done <<<"$listing"
  done
  dyn="$(readelf -d "$BUNDLE/occ-validate")"
  grep -q '(RPATH).*\[\$ORIGIN\]' <<<"$dyn" || bad "occ-validate has no DT_RPATH \$ORIGIN (libcupti's dlopen of libnvperf_* relies on it)"
  grep -q '(RUNPATH)' <<<"$dyn" && bad "occ-validate has DT_RUNPATH (not searched for libcupti's own dlopen)"
  grep -q 'NEEDED.*libstdc++' <<<"$dyn" && bad "occ-validate needs libstdc++.so (should be static)"
  grep -q 'NEEDED.*libcudart' <<<"$dyn" && bad "occ-validate needs libcudart.so (should be static)"
  grep -q 'NEEDED.*libcupti.so.13' <<<"$dyn" || bad "occ-validate does not link libcupti.so.13"
  for lib in libcupti.so.13 libnvperf_host.so libnvperf_target.so; do
    [[ -f "$BUNDLE/$lib" ]] || bad "$lib missing from the bundle"
  done
  newest="$(objdump -T "$BUNDLE/occ-validate" "$BUNDLE"/lib*.so* | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)"
  echo "newest glibc symbol version: $newest"
  [[ "$(printf '%s\n' GLIBC_2.34 "$newest" | sort -V | tail -1)" == GLIBC_2.34 ]] || bad "needs $newest (> 2.34: Ubuntu 22.04 / RHEL 9 could not start it)"
  (cd "$BUNDLE" && sha256sum --quiet -c SHA256SUMS) || bad "SHA256SUMS does not match"
  [[ -x "$BUNDLE/run.sh" && -s "$BUNDLE/MANIFEST.txt" ]] || bad "run.sh or MANIFEST.txt missing"
  bytes="$(du -sb "$BUNDLE" | cut -f1)"
  echo "bundle: $bytes bytes"
  (( bytes <= 60 * 1048576 )) || bad "bundle above 60 MiB"
  ;;
archs)
  # The fatbin carries SASS for the six architectures, sm_90a and sm_100a (fatbin_archs.py tells sm_90a
  # from sm_90). With occ's CLI ($3): `occ kernels` reads the kernels back from the binary: the
  # setmaxnreg kernels only as sm_90a SASS at their launch count (168 / 128 registers), the Tensor
  # Memory kernels only as sm_100a.
  FATBIN_ARCHS="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/cuda_validation/bundle/fatbin_archs.py"
  fat="$(python3 "$FATBIN_ARCHS" "$BUNDLE/occ-validate" --require-sass 80,86,89,90,100,120,90a,100a --require-ptx 120)" || bad "fatbin: $fat"
  echo "$fat"
  grep -q "MISSING" <<<"$fat" && bad "architectures missing"
  OCC="${3:-}"
  if [[ -z "$OCC" || ! -x "$OCC" ]]; then
    echo "(no occ CLI given: the per-kernel check is skipped)"
  else
    jfile="$(mktemp)"
    "$OCC" kernels "$BUNDLE/occ-validate" --json >"$jfile" 2>&1 || bad "occ kernels failed: $(head -c 400 "$jfile")"
    res="$(python3 - "$jfile" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = []
def walk(x):
    if isinstance(x, dict):
        if "arch" in x and any(k in x for k in ("name", "kernel")):
            rows.append(x)
        for v in x.values():
            walk(v)
    elif isinstance(x, list):
        for v in x:
            walk(v)
walk(d)
def name(r):
    return r.get("kernel") or r.get("name") or ""
def regs(r):
    for k in ("registers", "regs", "regs_per_thread"):
        if isinstance(r.get(k), int):
            return r[k]
    for v in r.values():
        if isinstance(v, dict):
            for k in ("registers", "regs", "regs_per_thread"):
                if isinstance(v.get(k), int):
                    return v[k]
    return None
want = {"occv_regpool_384_24_240_240": 168, "occv_regpool_512_32_160_160_160": 128,
        "occv_regpool_384_40_232_232": 168, "occv_regpool_384_24_240_256": 168}
ok = True
for k, r in want.items():
    got = [(x["arch"], regs(x)) for x in rows if name(x) == k]
    print("%s: %s" % (k, got))
    if got != [("sm_90a", r)]:
        print("FAIL: %s should be sm_90a SASS only, %d registers" % (k, r)); ok = False
for c in (32, 64, 128, 256, 512):
    k = "occv_tmem_%d" % c
    got = [x["arch"] for x in rows if name(x) == k]
    print("%s: %s" % (k, got))
    if got != ["sm_100a"]:
        print("FAIL: %s should be sm_100a SASS only" % k); ok = False
print("rows read: %d" % len(rows))
sys.exit(0 if ok else 1)
PY
)" || bad "occ kernels: the arch-specific kernels are not where they should be"
    echo "$res"
    rm -f "$jfile"
  fi
  ;;
*)
  echo "usage: $0 dry-run|ldd|archs <bundle dir> [occ CLI]"
  exit 2
  ;;
esac
if [[ $fail -ne 0 ]]; then
  echo "bundle_check $MODE: FAILED"
  exit 1
fi
echo "bundle_check $MODE: ok"
