#!/usr/bin/env bash
# The GPU check of the emitted kernels (docs/performance.md, "Emitted
# kernels on a GPU"): runs every conversion, naive-plan, masked and gather
# test kernel with the plan test binary, and records the GPU, its SM clock
# through the run (sampled every 200 ms) and the PASS / FAIL lines.
#
#   scripts/gpu-check.sh [PLAN_TESTS [OUTDIR]]
#
# PLAN_TESTS defaults to build/tests/lk_plan_tests (it may be a stripped
# copy carried to a GPU machine); OUTDIR (default build/gpu-check) gets
# gpu.txt, clocks.csv and tests.txt. Needs nvcc (PATH or /usr/local/cuda/bin)
# and nvidia-smi; exits with the test binary's status.
set -uo pipefail
cd "$(dirname "$0")/.."
tests="${1:-build/tests/lk_plan_tests}"
out="${2:-build/gpu-check}"
export PATH="$PATH:/usr/local/cuda/bin"
for tool in nvidia-smi nvcc; do
  command -v "$tool" >/dev/null 2>&1 || { echo "$tool not found" >&2; exit 2; }
done
[ -x "$tests" ] || { echo "$tests: not an executable (build lk_plan_tests)" >&2; exit 2; }
mkdir -p "$out"
{
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv
  nvcc --version | tail -n 2
} >"$out/gpu.txt" 2>&1
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader \
  -lms 200 >"$out/clocks.csv" 2>&1 &
smi=$!
trap 'kill "$smi" 2>/dev/null' EXIT
"$tests" --gtest_filter='EmitCudaGpu.*:EmitGatherGpu.*:EmitCudaMaskedGpu.*' \
  >"$out/tests.txt" 2>&1
status=$?
grep -E "^(PASS|FAIL)|\[  (PASSED|FAILED) " "$out/tests.txt"
echo "PASS lines: $(grep -c '^PASS' "$out/tests.txt"); SM clock (MHz, most frequent):" \
  "$(awk -F, '{print $2}' "$out/clocks.csv" | sort | uniq -c | sort -rn | head -n 1)"
exit "$status"
