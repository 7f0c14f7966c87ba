#!/usr/bin/env bash
# Configures and builds LayoutKit into build/ (Release with debug info).
# Compiles through ccache when it is installed (scripts/bootstrap.sh installs
# it); arguments are passed to CMake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${LK_JOBS:-$(nproc)}"
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" "$@" >/dev/null
cmake --build build -j "$jobs"
