#!/usr/bin/env bash
# Installs, builds and runs every test once: a short libFuzzer run of each
# grammar, of the algebra, the planner and the MLIR parser (when clang is
# present), then CTest: the unit, property, parser robustness, CLI, MLIR lit,
# Python (installed from a clean copy into a fresh venv), browser, package
# and oracle-conformance tests. Prints the time of each stage; its last line
# is CTest's summary. The sanitizer pass (scripts/sanitize.sh) is separate:
# .ci/run runs it after this.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/stages.sh

web() {
  bash scripts/build-wasm.sh
  if command -v npm >/dev/null 2>&1; then
    npm ci --no-audit --no-fund --loglevel=error
  fi
}

fuzz_smoke() {
  local seconds="${LK_FUZZ_SECONDS:-10}" status=0
  echo "${seconds}s per target (log: build/fuzz.log)"
  LK_FUZZ_SHORT_SECONDS="${LK_FUZZ_SHORT_SECONDS:-4}" \
    bash scripts/fuzz.sh "$seconds" >build/fuzz.log 2>&1 || status=$?
  grep -E "^===|^Done [0-9]+ runs" build/fuzz.log || true
  if [ "$status" -ne 0 ]; then
    tail -n 60 build/fuzz.log
    echo "fuzz smoke failed"
    return 1
  fi
}

suite() {
  (cd build && ctest --output-on-failure -j "${LK_JOBS:-$(nproc)}") | tee build/ctest.log
}

stage "install packages (scripts/bootstrap.sh)" bash scripts/bootstrap.sh
stage "build (scripts/build.sh)" bash scripts/build.sh
# The browser demo: its wasm build and the test's npm package (browser.demo
# is skipped, with the reason, when either is missing).
if command -v emcmake >/dev/null 2>&1; then
  stage "wasm build and npm packages" web
fi
if command -v clang++ >/dev/null 2>&1; then
  stage "fuzz smoke (scripts/fuzz.sh)" fuzz_smoke
fi
stage "tests (ctest)" suite
stage_summary "scripts/test.sh"
grep -E "tests passed|tests failed" build/ctest.log | tail -n 1
