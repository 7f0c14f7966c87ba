#!/usr/bin/env bash
# The main job: install, build, and run the layoutkit CLI on what a kernel
# author checks before touching a GPU -- the 128B shared-memory swizzle of an
# f16 tile, splitting a tile into 8x8 blocks, a thread-value layout composed
# with a tile, building a tile from an atom -- then the oracle conformance
# run against CuTe -- and builds the interactive browser demo (WebAssembly)
# and says how to open it. Exits non-zero if any step fails; never blocks.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/build.sh
lk=build/tools/layoutkit

# step COMMENT ARGS...: prints "# COMMENT" and the command, then runs it.
step() {
  local comment="$1"
  shift
  local shown=""
  for a in "$@"; do
    case "$a" in
      *[!A-Za-z0-9_:./-]*) shown+=" '$a'" ;;
      *) shown+=" $a" ;;
    esac
  done
  printf '\n# %s\n$ layoutkit%s\n' "$comment" "$shown"
  "$lk" "$@"
}

step "128B swizzle of an 8x64 f16 tile, one cell per 16-byte chunk (8 f16): chunk c of row r lands at chunk c XOR r" \
  show 'Sw<3,3,3> o (8,8):(64,8)'
step "the same swizzle on f16 element offsets: element (1,0) (offset 64) is stored at offset 72" \
  eval 'Sw<3,3,3> o (8,64):(64,1)' '(1,0)'
step "CuTe writes this atom as Sw<3,4,3> on byte addresses (through an smem pointer): byte 128 = element 64 -> byte 144 = element 72" \
  swizzle 3 4 3 128
step "a 128x64 row-major tile split into 8x8 blocks (ldmatrix tiles): ((row,col in block),(block row,block col))" \
  zipped_divide '(128,64):(64,1)' '(8:1,8:1)'
blocks=$("$lk" zipped_divide '(128,64):(64,1)' '(8:1,8:1)')
step "element (1,2) of block (3,0) is row 25, column 2: offset 25*64+2" \
  eval "$blocks" '((1,2),(3,0))'
step "64 threads x 8 values composed with an 8x64 row-major tile: each thread's 8 values are contiguous (one 16-byte load)" \
  composition '(8,64):(64,1)' '((8,8),8):((64,1),8)'
step "a row-major tile and its padded copy (row stride 72) share runs of 64 contiguous elements: rows copy with full-width vectors" \
  max_common_vector '(8,64):(64,1)' '(8,64):(72,1)'
step "an 8x8 row-major atom repeated over a 2x2 grid of atoms: each atom stays 64 contiguous elements" \
  blocked_product '(8,8):(8,1)' '(2,2):(1,2)'
tile=$("$lk" blocked_product '(8,8):(8,1)' '(2,2):(1,2)')
step "the 16x16 tile it builds" \
  show "$tile"
step "conformance: every case of the CuTe C++ oracle (3220), through the same library" \
  conformance tests/data/cute-public.jsonl

# The interactive demo: the library compiled to WebAssembly (build-wasm/web).
if command -v emcmake >/dev/null 2>&1; then
  printf '\n# the interactive layout demo: the library compiled to WebAssembly (docs/demo.md)\n'
  bash scripts/build-wasm.sh
  printf '\nOpen the demo: run\n  %s demo\nand open the address it prints (http://127.0.0.1:PORT/) in a browser.\n' "$lk"
else
  printf '\n(emcmake not found: the browser demo is not built; see docs/demo.md)\n'
fi
