#!/usr/bin/env bash
# Builds the browser demo into build-wasm/: the library layers and the
# embind bindings (web/bindings.cpp) compiled with emscripten, linked into
# build-wasm/web/layoutkit.{js,wasm} beside the page (web/static/). Only the
# library and the bindings are built (no CLI, tests or benchmarks); ccache is
# used when installed; LK_WERROR=ON makes warnings errors (.ci/run sets
# it). Prints the sizes and the build time. Needs emcmake
# (Debian's emscripten package, scripts/bootstrap.sh).
#
# Compiled for size (-Oz, the library included: the module is downloaded
# and compiled by every visitor; -O3's inlining doubled it, docs/demo.md).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
jobs="${LK_JOBS:-$(nproc)}"
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
emcmake cmake -S . -B build-wasm -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS_RELEASE="-Oz -DNDEBUG" \
  -DCMAKE_CROSSCOMPILING_EMULATOR="/usr/bin/node;--no-experimental-fetch" \
  -DLK_BUILD_TOOLS=OFF -DLK_BUILD_TESTS=OFF -DLK_BUILD_BENCH=OFF \
  -DLK_BUILD_EXAMPLES=OFF -DLK_BUILD_MLIR=OFF -DLK_BUILD_PYTHON=OFF \
  -DLK_WERROR="${LK_WERROR:-OFF}" \
  "${launcher[@]}" "$@" >/dev/null
cmake --build build-wasm --target layoutkit_wasm -j "$jobs"
out=build-wasm/web
echo "wasm demo: $out/index.html ($(stat -c %s $out/layoutkit.wasm) B wasm, $(stat -c %s $out/layoutkit.js) B js) in $((SECONDS - start)) s"
