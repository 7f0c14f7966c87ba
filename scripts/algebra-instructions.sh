#!/bin/sh
# Instructions per call of each algebra case (bench/AlgebraCases.h) for
# CuTe C++, the floor and LayoutKit: callgrind's count for 2n calls minus
# that for n, over n (deterministic, independent of the machine's load).
# One callgrind run: lk_bench_cute --calls-each zeroes the counts before
# each loop and dumps them after it.
# Usage: scripts/algebra-instructions.sh build/bench/lk_bench_cute
# Prints "case cute floor layoutkit", one line per case, in case order.
set -eu
bench=$1
n=${LK_CALLS:-1000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$bench" --calls-each "$n" \
  >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
# Each dump names its loop (desc: Trigger: Client Request: side/case/calls)
# and its total (summary: or totals:).
for f in "$tmp"/cg.*; do
  awk '/^desc: Trigger: Client Request:/ {k = $NF} /^(summary|totals):/ {t = $2}
       END {print k, t}' "$f"
done | awk -v n="$n" '
  { split($1, p, "/"); key = p[1] "/" p[2]; c[key, p[3]] = $2; cases[p[2]] = 1 }
  END { for (k in cases) {
          line = k
          split("cute floor lk", sides, " ")
          for (i = 1; i <= 3; ++i) {
            s = sides[i]
            line = line " " int((c[s "/" k, 2 * n] - c[s "/" k, n]) / n)
          }
          print line } }' >"$tmp/counts"
"$bench" --check | awk '$2 == "layoutkit" {print $1}' | while read -r c; do
  grep "^$c " "$tmp/counts"
done
