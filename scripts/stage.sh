#!/usr/bin/env bash
# One timed stage of `make test`: runs the command with its output shown as it comes, records the
# stage's seconds in $OCC_STAGES (build/stages.tsv), and prints the table so far when it fails.
#   scripts/stage.sh --reset              start a new table (make test's first step)
#   scripts/stage.sh NAME -- CMD [ARG...] run CMD as stage NAME; exits with CMD's status
#   scripts/stage.sh --summary            print every stage with its seconds, and the total
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FILE="${OCC_STAGES:-$ROOT/build/stages.tsv}"

now() { echo "${EPOCHREALTIME:-$(date +%s.%N)}"; }
# CPU seconds (user + system) of this shell's finished children, from the `times` builtin.
TIMES_FILE="$(mktemp)"; trap 'rm -f "$TIMES_FILE"' EXIT
# (`times` must run in this shell, not in a subshell: the result goes to CPU.)
child_cpu() {
  times > "$TIMES_FILE"
  read -r CPU < <(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.1f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$TIMES_FILE")
}

summary() {
  [[ -f "$FILE" ]] || { echo "stage: no stages recorded in $FILE" >&2; return 0; }
  awk -F '\t' -v end="$(now)" '
    BEGIN { printf "  %-16s %10s %11s  %s\n", "stage", "wall", "CPU", "status" }
    $1 == "#start" { start = $2; next }
    { printf "  %-16s %8.1f s %9.1f s  %s\n", $1, $2, $4, $3; sum += $2; cpu += $4 }
    END {
      print "  ----------------------------------------------"
      printf "  %-16s %8.1f s %9.1f s\n", "sum of stages", sum, cpu
      if (start != "") printf "  %-16s %8.1f s  (%.1f min)\n", "total (wall)", end - start, (end - start) / 60
    }' "$FILE"
}

case "${1:-}" in
  --reset)
    mkdir -p "$(dirname "$FILE")"
    printf '#start\t%s\n' "$(now)" > "$FILE"
    exit 0 ;;
  --summary)
    echo "make test: stage timings (wall clock, and CPU = user + system of all its processes)"
    summary
    exit 0 ;;
  ""|--*)
    echo "usage: $0 --reset | --summary | NAME -- CMD [ARG...]" >&2
    exit 2 ;;
esac

name="$1"; shift
[[ "${1:-}" == "--" ]] && shift
(( $# )) || { echo "stage $name: no command" >&2; exit 2; }
mkdir -p "$(dirname "$FILE")"
[[ -f "$FILE" ]] || printf '#start\t%s\n' "$(now)" > "$FILE"

echo "==> stage $name: $*"
t0="$(now)"; child_cpu; c0="$CPU"
"$@"
rc=$?
t1="$(now)"; child_cpu; c1="$CPU"
cpu="$(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.1f", b - a }')"
secs="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')"
if (( rc == 0 )); then
  printf '%s\t%s\tok\t%s\n' "$name" "$secs" "$cpu" >> "$FILE"
  echo "==> stage $name: ok, ${secs} s"
else
  printf '%s\t%s\tFAILED (exit %d)\t%s\n' "$name" "$secs" "$rc" "$cpu" >> "$FILE"
  echo "==> stage $name: FAILED (exit $rc) after ${secs} s; its output is above" >&2
  echo "make test: stage timings so far (wall, CPU)" >&2
  summary >&2
fi
exit "$rc"
