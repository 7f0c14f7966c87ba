#!/usr/bin/env bash
# Installs, builds and runs every test (unit, property, parser robustness,
# CLI, oracle conformance). Ends with CTest's own summary.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/build.sh
cd build
ctest --output-on-failure -j "${LK_JOBS:-$(nproc)}"
