#!/usr/bin/env bash
# clang-format (Debian's clang-format 14, the project's .clang-format) over the C/C++/CUDA files
# git tracks, third_party/ excluded.
#   scripts/format.sh          reformat them in place            (make format)
#   scripts/format.sh --check  change nothing; fail on any diff  (make format-check, first stage of make test)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
CLANG_FORMAT="${CLANG_FORMAT:-$(command -v clang-format || command -v clang-format-14 || true)}"
[[ -n "$CLANG_FORMAT" ]] || { echo "format: clang-format not found (scripts/bootstrap.sh installs it)" >&2; exit 1; }

files=()
while IFS= read -r -d '' f; do
  [[ -f "$f" ]] && files+=("$f")   # a tracked file deleted in the work tree is skipped
done < <(git ls-files -z -- '*.c' '*.cc' '*.cpp' '*.cxx' '*.h' '*.hh' '*.hpp' '*.hxx' '*.inl' '*.cu' '*.cuh' \
                             ':(exclude)third_party/**')
(( ${#files[@]} )) || { echo "format: no files" >&2; exit 1; }

if [[ "${1:-}" == "--check" ]]; then
  if ! printf '%s\0' "${files[@]}" | xargs -0 -n 50 "$CLANG_FORMAT" --dry-run -Werror; then
    echo "format: the files above differ from clang-format's output; run 'make format' and commit the result" >&2
    exit 1
  fi
  echo "format: ${#files[@]} files clean ($("$CLANG_FORMAT" --version | sed 's/.*version \([0-9.]*\).*/clang-format \1/'))"
else
  printf '%s\0' "${files[@]}" | xargs -0 -n 50 "$CLANG_FORMAT" -i
  echo "format: ${#files[@]} files formatted"
fi
