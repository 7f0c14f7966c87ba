#!/usr/bin/env bash
# Configures and builds LayoutKit into build/ (Release with debug info).
#
#   scripts/build.sh [--demo] [CMAKE-ARGS...]
#
# By default everything: the libraries, the CLI, layoutkit-opt, the tests,
# benchmarks, examples and the Python module. --demo builds only what
# scripts/demo.sh runs: the `layoutkit` CLI and `layoutkit-opt`. Compiles
# through ccache when it is installed (scripts/bootstrap.sh installs it);
# LK_WERROR=ON makes warnings errors (.ci/run sets it); further arguments
# are passed to CMake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${LK_JOBS:-$(nproc)}"
parts=ON
targets=()
if [ "${1:-}" = --demo ]; then
  shift
  parts=OFF
  targets=(--target layoutkit)
fi
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # Cache entries keyed on paths relative to the tree, so that another copy
  # of it (scripts/python-install-test.sh) reuses them.
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
fi
# Every part is named (ON or OFF): a build/ configured by one mode is
# reconfigured by the other.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
  -DLK_BUILD_TOOLS=ON -DLK_BUILD_MLIR=ON -DLK_BUILD_TESTS=$parts \
  -DLK_BUILD_BENCH=$parts -DLK_BUILD_EXAMPLES=$parts -DLK_BUILD_PYTHON=$parts \
  -DLK_WERROR="${LK_WERROR:-OFF}" "$@" >/dev/null
if [ ${#targets[@]} -gt 0 ] && [ -f build/build.ninja ] && grep -q '^build layoutkit-opt:' build/build.ninja; then
  targets+=(layoutkit-opt)
fi
cmake --build build -j "$jobs" "${targets[@]}"
