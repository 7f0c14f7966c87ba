// A pipeline alias group whose ops share no memory kind: the load and
// the pipeline slot hand the tile over in smem (or tmem), the
// convert_layout seed binds it to registers. The group-level message is
// fixed (docs/design.md §6.7), leading space and trailing newline included.
// RUN: layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts))' --verify-diagnostics
// RUN: not layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts))' 2>&1 | FileCheck %s --check-prefix=RAW
// RAW: error:  can not find common memKind among pipeline alias group
// RAW-EMPTY:

#smem = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>
func.func @no_common_kind(%src: tensor<128x64xf16, #smem>) {
  // expected-error @+1 {{ can not find common memKind among pipeline alias group}}
  %a = tileas.tiled_load %src : tensor<128x64xf16, #smem> -> tensor<128x64xf16>
  %slot = tileas.produce_one %a {depth = 2} : tensor<128x64xf16> -> tensor<128x64xf16>
  %b = tileas.consume_one %slot : tensor<128x64xf16> -> tensor<128x64xf16>
  %c = tileas.convert_layout %b : tensor<128x64xf16> -> tensor<128x64xf16, #dot_a>
  return
}

// -----

// Users that disagree on where a loaded tile lives (wgmma's b operand in
// smem, arithmetic in registers): the load has no candidate its context
// allows, and says so (the per-op diagnostic; the group message is for
// groups whose ops disagree).
#gmem = #tileas.encoding<global, linear>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>
#acc = #tileas.encoding<register, blocked>
#sm = #tileas.encoding<smem, shared>
func.func @users_disagree(%a: tensor<64x64xf16, #dot_a>, %g: tensor<64x64xf16, #gmem>, %acc: tensor<64x64xf32, #acc>) -> (tensor<64x64xf32, #acc>, tensor<64x64xf16, #sm>) {
  // expected-error @+1 {{'tileas.tiled_load' op has no candidate in a memory kind its context allows (the tile must live in no kind: its users disagree; the candidates put it in smem register)}}
  %b = tileas.tiled_load %g : tensor<64x64xf16, #gmem> -> tensor<64x64xf16, #sm>
  %r = tileas.wgmma %a, %b, %acc : tensor<64x64xf16, #dot_a>, tensor<64x64xf16, #sm>, tensor<64x64xf32, #acc> -> tensor<64x64xf32, #acc>
  %n = arith.negf %b : tensor<64x64xf16, #sm>
  return %r, %n : tensor<64x64xf32, #acc>, tensor<64x64xf16, #sm>
}
