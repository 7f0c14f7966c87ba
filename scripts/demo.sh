#!/usr/bin/env bash
# The main job: install, build, and run the layoutkit CLI on a worked example
# a kernel author cares about -- tiling a 128x64 row-major f16 tile into the
# 8x8 blocks one warp's ldmatrix reads, and the 128B-swizzled layout of the
# same tile, shown as offset tables.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/build.sh
lk=build/tools/layoutkit
set -x
"$lk" show "(8,8):(8,1)"
"$lk" zipped_divide "(128,64):(64,1)" "(8:1,8:1)"
"$lk" composition "(128,64):(64,1)" "((8,16),8):((1,8),128)"
"$lk" show "Sw<3,4,3> o (8,64):(64,1)"
"$lk" complement "4:32" 256
"$lk" logical_product "(2,2):(1,2)" "(3,4):(1,3)"
