#!/bin/sh
# Instructions per call of the general constructions (cute/AlgebraGeneral.h)
# on the cases of bench/GeneralAlgebraBench.cpp: callgrind's count for 2n
# calls minus that for n, over n, from one callgrind run of
# lk_bench --general-calls-each.
# Usage: scripts/general-instructions.sh build/bench/lk_bench
# Prints "case instructions", one line per case, in case order.
set -eu
bench=$1
n=${LK_CALLS:-1000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$bench" \
  --general-calls-each "$n" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
# Each dump names its loop (desc: Trigger: Client Request: general/case/calls)
# and its total (summary: or totals:); dumps are numbered in run order.
(cd "$tmp" && ls cg.*) | sort -t. -k2 -n | while read -r f; do
  awk '/^desc: Trigger: Client Request:/ {k = $NF} /^(summary|totals):/ {t = $2}
       END {print k, t}' "$tmp/$f"
done | awk -v n="$n" '
  { split($1, p, "/"); if (!(p[2] in seen)) { seen[p[2]] = 1; order[++m] = p[2] }
    if (p[3] == n) c1[p[2]] = $2; else c2[p[2]] = $2 }
  END { for (i = 1; i <= m; ++i) print order[i], int((c2[order[i]] - c1[order[i]]) / n) }'
