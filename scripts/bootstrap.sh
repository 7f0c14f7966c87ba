#!/usr/bin/env bash
# Installs the system packages LayoutKit needs on a fresh Debian 12 machine.
#
#   scripts/bootstrap.sh [demo|test]
#
# demo: what scripts/demo.sh builds and runs (the CLI, layoutkit-opt, the
# wasm demo); test (the default): everything the test suite needs too.
# Idempotent: packages already present are skipped, and nothing is
# downloaded when all are there. Run as root (or with sudo).
set -euo pipefail

packages=(
  build-essential cmake ninja-build git       # toolchain
  ccache                                      # faster rebuilds
  nlohmann-json3-dev libcli11-dev             # the layoutkit CLI
  python3                                     # small helpers
  libmlir-22-dev mlir-22-tools                # the tileas MLIR dialect (mlir/)
  llvm-22-dev llvm-22-tools                   #   and its lit suite
  emscripten                                  # the browser demo
)
if [ "${1:-test}" != demo ]; then
  packages+=(
    libgtest-dev libgmock-dev libbenchmark-dev  # tests and benchmarks
    clang libclang-rt-14-dev                    # libFuzzer targets
    pybind11-dev python3-dev python3-venv       # the Python module, its install test
    python3-pytest python3-numpy python3-matplotlib  # its tests, arrays, pictures
    chromium                                    # the browser test
    clang-format                                # the format check (repo.format)
  )
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "bootstrap: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "bootstrap: installing ${missing[*]}"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
