#!/usr/bin/env bash
# The main job: installs the packages it needs, builds only what it runs (the
# `layoutkit` CLI, `layoutkit-opt` and the browser demo) and shows the five
# parts of LayoutKit, one short screen each: the CuTe algebra, a TIRx tile
# layout over hardware axes with its shared-memory banks, a Triton layout
# read from TTGIR text and its conversion plan with the emitted CUDA, and the
# MLIR layout pipeline on a GEMM tile. The pictures go to build/demo/*.svg.
# Prints the time of each stage; exits non-zero if a step fails; never blocks.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/stages.sh
stage "install packages (scripts/bootstrap.sh demo)" bash scripts/bootstrap.sh demo
stage "build layoutkit and layoutkit-opt (scripts/build.sh --demo)" bash scripts/build.sh --demo
lk=build/tools/layoutkit
opt=build/mlir/layoutkit-opt
pictures=build/demo
mkdir -p "$pictures"

# quote ARGS...: the arguments as a shell would need them typed.
quote() {
  local a out=""
  for a in "$@"; do
    case "$a" in
      *[!A-Za-z0-9_:./=-]*) out+=" '$a'" ;;
      *) out+=" $a" ;;
    esac
  done
  printf '%s' "$out"
}
# heading COMMENT ARGS...: prints "# COMMENT" and the command.
heading() {
  local comment="$1"
  shift
  printf '\n# %s\n$ layoutkit%s\n' "$comment" "$(quote "$@")"
}
# step COMMENT ARGS...: the heading, then the command's output.
step() {
  heading "$@"
  shift
  "$lk" "$@"
}
# screen TITLE: a heading between the parts.
screen() { printf '\n\n======== %s ========\n' "$1"; }

show_cute() {
  screen "1. CuTe layouts and their algebra"
  step "the 128B swizzle of an 8x64 f16 tile, one cell per 16-byte chunk: chunk c of row r lands at chunk c XOR r" \
    show 'Sw<3,3,3> o (8,8):(64,8)' --svg "$pictures/cute-swizzle.svg"
  step "a 128x64 row-major tile split into 8x8 blocks (ldmatrix tiles): ((row,col in block),(block row,block col))" \
    zipped_divide '(128,64):(64,1)' '(8:1,8:1)'
}

show_tile() {
  screen "2. TIRx tile layouts: shards, replicas and offsets over hardware axes"
  local tc='S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid'
  step "the 8x16 tensor-core tile (docs/design.md §6.1): replicated over two warps, offset by warp 5" \
    tile owners "$tc" '(8,16)' '(7,15)'
  "$lk" tile show "$tc" '(8,16)' --svg "$pictures/tile-owners.svg" >/dev/null
  local banks=(tile banks 'S[(8,64):(64,1)]' '(8,64)' --swizzle 128B --svg "$pictures/tile-banks.svg")
  heading "an 8x64 f16 tile stored row-major with the 128B swizzle: bank lines x banks (the first 6 of 32 banks)" "${banks[@]}"
  # The title and legend whole; rows cut after bank 5 (a 1-character row
  # label, then 15 characters per bank).
  "$lk" "${banks[@]}" | awk 'NR <= 2 { print; next } { print substr($0, 1, 1 + 6 * 15) " ..." }'
  step "8 lanes read column 0 of the unswizzled tile: every read hits bank 0" \
    tile conflicts 'S[(8,64):(64,1)]' '(8,64)'
  step "the same read of the swizzled tile" \
    tile conflicts 'S[(8,64):(64,1)]' '(8,64)' --swizzle 128B
}

show_triton() {
  screen "3. Triton layouts (TTGIR text) and the conversion planner"
  local blocked='#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>'
  local mma='#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>'
  step "a blocked layout from a TTGIR dump, as a linear layout (register, lane, warp -> tensor)" \
    linear standard "$blocked" '(64,64)'
  step "converting it to the mma.sync A-operand layout: the plan the cost model chose" \
    plan "$blocked" "$mma" --shape '(64,64)' --dtype f16
  local emit=(plan "$blocked" "$mma" --shape '(64,64)' --dtype f16 --emit cuda --out "$pictures/convert.cu")
  heading "the CUDA it emits (the first 24 lines of $pictures/convert.cu)" "${emit[@]}"
  "$lk" "${emit[@]}" >/dev/null
  head -n 24 "$pictures/convert.cu"
}

show_mlir() {
  screen "4. The MLIR pipeline of a tile compiler (dialect tileas)"
  if [ ! -x "$opt" ]; then
    echo "(layoutkit-opt was not built: MLIR 22 not found; see docs/mlir.md)"
    return
  fi
  local program=examples/mlir/gemm-tile.mlir
  printf '\n# a GEMM tile before layouts are chosen (%s, its loop)\n' "$program"
  sed -n '/scf.for/,/^  }/p' "$program"
  printf '\n# after the layout pipeline: every load and store has an atom and a layout; the conversion and %%spare are gone\n'
  printf '# (encodings printed under the names %s gives them)\n' "$program"
  printf '$ layoutkit-opt %s --tileas-layout-pipeline\n' "$program"
  "$opt" "$program" --tileas-layout-pipeline | short_encodings "$program" | sed -n '/scf.for/,/^    }/p'
}

# short_encodings FILE: replaces each encoding that FILE names (`#name = ...`)
# by its name on standard input.
short_encodings() {
  awk 'NR == FNR { if (match($0, /^#[A-Za-z_0-9]+ = /)) {
                     names[++n] = substr($0, 1, RLENGTH - 3); texts[n] = substr($0, RLENGTH + 1) }
                   next }
       { for (i = 1; i <= n; i++) { while ((j = index($0, texts[i])) > 0)
           $0 = substr($0, 1, j - 1) names[i] substr($0, j + length(texts[i])) }
         print }' "$1" -
}

show_web() {
  screen "5. The browser demo"
  if command -v emcmake >/dev/null 2>&1; then
    bash scripts/build-wasm.sh
    printf '\nOpen the demo: run\n  %s demo\nand open the address it prints (http://127.0.0.1:PORT/) in a browser.\n' "$lk"
  else
    printf '(emcmake not found: the browser demo is not built; see docs/demo.md)\n'
  fi
}

stage "CuTe" show_cute
stage "tile layouts" show_tile
stage "Triton layouts and plans" show_triton
stage "MLIR pipeline" show_mlir
stage "browser demo (scripts/build-wasm.sh)" show_web
stage_summary "scripts/demo.sh"
printf '\nThe pictures it drew (SVG, open them in a browser): %s\n' "$(ls "$pictures"/*.svg | tr '\n' ' ')"
