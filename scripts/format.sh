#!/usr/bin/env bash
# Formats LayoutKit's C++ sources (every tracked .cpp and .h) with the
# root .clang-format and Debian 12's clang-format 14.
#
#   scripts/format.sh           rewrite the files in place
#   scripts/format.sh --check   list the files that differ; exit 1 if any
#                               (ctest repo.format; exit 77, skipped, when
#                               clang-format is missing)
set -euo pipefail
cd "$(dirname "$0")/.."
format="${CLANG_FORMAT:-clang-format}"
if ! command -v "$format" >/dev/null 2>&1; then
  echo "$format not found (apt install clang-format)" >&2
  [ "${1:-}" = --check ] && exit 77
  exit 2
fi
mapfile -t files < <(git ls-files '*.cpp' '*.h')
if [ "${1:-}" != --check ]; then
  "$format" -i "${files[@]}"
  exit 0
fi
bad=0
for f in "${files[@]}"; do
  if ! "$format" --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "not formatted: $f (run scripts/format.sh)"
    bad=1
  fi
done
[ "$bad" -eq 0 ] && echo "${#files[@]} files formatted"
exit "$bad"
