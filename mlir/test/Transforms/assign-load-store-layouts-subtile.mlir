// A load placed by a bulk tensor copy stays in smem. Its result carries the
// buffer's memory layout only when that layout places exactly the tile's
// elements (the tile is the whole buffer): a 64x64 tile of a 256x64 buffer
// holds 4096 elements, the buffer's (256,64) layout places 16384, and a
// memory layout must place its tensor's elements, so that tile gets a smem
// encoding without a layout. The op's tileas.layout is the buffer's in both
// cases. The output reads back (the second layoutkit-opt parses it).
// RUN: env LK_TILEAS_PREFER_TMA=on layoutkit-opt %s --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts))' | layoutkit-opt | FileCheck %s

// CHECK-LABEL: func.func @whole
// CHECK: tileas.tiled_load %arg0 {tileas.atom = "cp.async.bulk.tensor", tileas.layout = #tileas.layout<(64,64),(64,1)>}
// CHECK-SAME: -> tensor<64x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(64,64),(64,1)>>>
#whole = #tileas.encoding<global, linear, layout = #tileas.layout<(64,64),(64,1)>>
func.func @whole(%g: tensor<64x64xf16, #whole>) {
  %a = tileas.tiled_load %g : tensor<64x64xf16, #whole> -> tensor<64x64xf16>
  return
}

// CHECK-LABEL: func.func @subtile
// CHECK: tileas.tiled_load %arg0[%arg1, %arg2] {tileas.atom = "cp.async.bulk.tensor", tileas.layout = #tileas.layout<(256,64),(64,1)>}
// CHECK-SAME: -> tensor<64x64xf16, #tileas.encoding<smem, shared>>{{$}}
#tall = #tileas.encoding<global, linear, layout = #tileas.layout<(256,64),(64,1)>>
func.func @subtile(%g: tensor<256x64xf16, #tall>, %i: index, %j: index) {
  %a = tileas.tiled_load %g[%i, %j] : tensor<256x64xf16, #tall> -> tensor<64x64xf16>
  return
}
