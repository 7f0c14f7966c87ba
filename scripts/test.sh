#!/usr/bin/env bash
# Installs, builds and runs every test: a short libFuzzer run of each
# grammar and of the algebra (when clang is present), then the unit, property, parser
# robustness, CLI and oracle-conformance tests. Ends with CTest's summary.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/build.sh
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
cd build
ctest --output-on-failure -j "${LK_JOBS:-$(nproc)}"
