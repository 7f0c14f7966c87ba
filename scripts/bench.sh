#!/usr/bin/env bash
# Builds and runs the Google Benchmark suite; the figures in
# docs/performance.md come from this command on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
build/bench/lk_bench --benchmark_min_time="${LK_BENCH_MIN_TIME:-0.5}" \
  --benchmark_repetitions="${LK_BENCH_REPS:-3}" --benchmark_report_aggregates_only=true "$@"
