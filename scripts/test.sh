#!/usr/bin/env bash
# Installs, builds and runs every test: a short libFuzzer run of each
# grammar, of the algebra and of the planner (when clang is present), the
# whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer in
# build-asan/ (scripts/sanitize.sh; LK_SANITIZE=0 skips it), then the unit,
# property, parser robustness, CLI, package and oracle-conformance tests.
# Ends with CTest's summary of the main build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/build.sh
# The browser demo: its wasm build and the test's npm package (browser.demo
# is skipped, with the reason, when either is missing).
if command -v emcmake >/dev/null 2>&1; then
  bash scripts/build-wasm.sh
  if command -v npm >/dev/null 2>&1; then
    npm ci --no-audit --no-fund --loglevel=error
  fi
fi
if command -v clang++ >/dev/null 2>&1; then
  seconds="${LK_FUZZ_SECONDS:-10}"
  echo "== fuzz smoke: ${seconds}s per target (log: build/fuzz.log) =="
  status=0
  bash scripts/fuzz.sh "$seconds" >build/fuzz.log 2>&1 || status=$?
  grep -E "^===|^Done [0-9]+ runs" build/fuzz.log || true
  if [ "$status" -ne 0 ]; then
    tail -n 60 build/fuzz.log
    echo "fuzz smoke failed"
    exit 1
  fi
fi
if [ "${LK_SANITIZE:-1}" != 0 ]; then
  echo "== sanitizers: ASan + UBSan build and tests in build-asan/ (log: build-asan/sanitize.log) =="
  status=0
  start=$SECONDS
  mkdir -p build-asan
  bash scripts/sanitize.sh >build-asan/sanitize.log 2>&1 || status=$?
  grep -E "tests passed|tests failed" build-asan/sanitize.log || true
  echo "sanitizer build and tests: $((SECONDS - start)) s"
  if [ "$status" -ne 0 ]; then
    grep -E "ERROR: AddressSanitizer|runtime error:|\*\*\*Failed|\(Failed\)|FAILED" build-asan/sanitize.log | head -n 40 || true
    tail -n 60 build-asan/sanitize.log
    echo "sanitizer run failed"
    exit 1
  fi
fi
cd build
ctest --output-on-failure -j "${LK_JOBS:-$(nproc)}"
