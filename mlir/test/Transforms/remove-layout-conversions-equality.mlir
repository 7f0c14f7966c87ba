// tileas-remove-layout-conversions decides layout equality with LayoutKit
// (LayoutEquality.h): a conversion between two encodings of one function
// folds, whatever their texts and families; a similar-looking different
// function, another memory kind or a user that needs the exact type keeps
// it.
// RUN: layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tileas-remove-layout-conversions))' | FileCheck %s

// Two texts of one smem function. Row i = i0 + 8 i1 (i0 < 8, i1 < 16) goes
// to 64 i0 + 512 i1 = 64 i; column j = j0 + 8 j1 goes to j0 + 8 j1 = j: the
// offset is 64 i + j in both. The function argument has no producer to
// retype, so only equality removes the conversion.
#flat  = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#tiled = #tileas.encoding<smem, linear, layout = #tileas.layout<((8,16),(8,8)),((64,512),(1,8))>>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>
#acc = #tileas.encoding<register, blocked>
// CHECK-LABEL: func.func @two_texts
// CHECK-NOT: tileas.convert_layout
// CHECK: tileas.wgmma %arg0, %arg1, %arg2 : {{.*}}, tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>>,
func.func @two_texts(%a: tensor<64x128xf16, #dot_a>, %b: tensor<128x64xf16, #flat>,
                     %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
  %c = tileas.convert_layout %b : tensor<128x64xf16, #flat> -> tensor<128x64xf16, #tiled>
  %r = tileas.wgmma %a, %c, %acc : tensor<64x128xf16, #dot_a>, tensor<128x64xf16, #tiled>, tensor<64x64xf32, #acc> -> tensor<64x64xf32, #acc>
  return %r : tensor<64x64xf32, #acc>
}

// -----

// The same with a column bit pair swapped, (1,8) -> (8,1): column j0 + 8 j1
// goes to 8 j0 + j1, another function; the conversion stays.
#flat  = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#other = #tileas.encoding<smem, shared, layout = #tileas.layout<((8,16),(8,8)),((64,512),(8,1))>>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>
#acc = #tileas.encoding<register, blocked>
// CHECK-LABEL: func.func @similar_but_different
// CHECK: %[[C:.*]] = tileas.convert_layout %arg1
// CHECK: tileas.wgmma %arg0, %[[C]], %arg2
func.func @similar_but_different(%a: tensor<64x128xf16, #dot_a>, %b: tensor<128x64xf16, #flat>,
                                 %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
  %c = tileas.convert_layout %b : tensor<128x64xf16, #flat> -> tensor<128x64xf16, #other>
  %r = tileas.wgmma %a, %c, %acc : tensor<64x128xf16, #dot_a>, tensor<128x64xf16, #other>, tensor<64x64xf32, #acc> -> tensor<64x64xf32, #acc>
  return %r : tensor<64x64xf32, #acc>
}

// -----

// An identity swizzle (B = 0) written out is the layout without one.
#plain = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#sw0   = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<0,4,3>>>
#sw3   = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>
#acc = #tileas.encoding<register, blocked>
// CHECK-LABEL: func.func @identity_swizzle
// CHECK: %[[S:.*]] = tileas.convert_layout %arg1 : {{.*}} -> {{.*}}swizzle<3,4,3>
// CHECK-NEXT: %[[R:.*]] = tileas.wgmma %arg0, %arg1, %arg2
// CHECK-NEXT: tileas.wgmma %arg0, %[[S]], %[[R]]
func.func @identity_swizzle(%a: tensor<64x128xf16, #dot_a>, %b: tensor<128x64xf16, #plain>,
                            %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
  %z = tileas.convert_layout %b : tensor<128x64xf16, #plain> -> tensor<128x64xf16, #sw0>
  %s = tileas.convert_layout %b : tensor<128x64xf16, #plain> -> tensor<128x64xf16, #sw3>
  %r = tileas.wgmma %a, %z, %acc : tensor<64x128xf16, #dot_a>, tensor<128x64xf16, #sw0>, tensor<64x64xf32, #acc> -> tensor<64x64xf32, #acc>
  %q = tileas.wgmma %a, %s, %r : tensor<64x128xf16, #dot_a>, tensor<128x64xf16, #sw3>, tensor<64x64xf32, #acc> -> tensor<64x64xf32, #acc>
  return %q : tensor<64x64xf32, #acc>
}

// -----

// Extents that are not powers of two have no linear form; the offsets are
// compared one by one. Row i = i0 + 32 i1 (i0 < 32, i1 < 3) goes to
// 64 i0 + 2048 i1 = 64 i: equal to the row-major 96x64 layout.
#flat  = #tileas.encoding<smem, shared, layout = #tileas.layout<(96,64),(64,1)>>
#split = #tileas.encoding<smem, shared, layout = #tileas.layout<((32,3),64),((64,2048),1)>>
#reg = #tileas.encoding<register, blocked>
// CHECK-LABEL: func.func @not_a_power_of_two
// CHECK-NEXT: %[[L:.*]] = tileas.tiled_load %arg0 : tensor<96x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(96,64),(64,1)>>>
// CHECK-NEXT: return %[[L]]
func.func @not_a_power_of_two(%b: tensor<96x64xf16, #flat>) -> tensor<96x64xf16, #reg> {
  %c = tileas.convert_layout %b : tensor<96x64xf16, #flat> -> tensor<96x64xf16, #split>
  %l = tileas.tiled_load %c : tensor<96x64xf16, #split> -> tensor<96x64xf16, #reg>
  return %l : tensor<96x64xf16, #reg>
}

// -----

// Triton's blocked layout equals the mma accumulator: two encodings (family
// blocked, family linear) of one register function fold.
//
// blocked(sizePerThread [1,2], threadsPerWarp [8,4], warpsPerCTA [1,1],
// order [1,0]) on 16x8: register bit 0 -> column 1; lane bits 0, 1 ->
// columns 2, 4 (dim 1 first); lane bits 2, 3, 4 -> rows 1, 2, 4; the CTA
// tile is 8x8, so register bit 1 repeats it at row 8. The mma.m16n8
// accumulator (Triton's mma v2, instrShape [16,8], one warp): register
// [(0,1),(8,0)], lane [(0,2),(0,4),(1,0),(2,0),(4,0)], the same bases.
// As (thread, value) layouts over the element index row + 16 column
// (api::tvToLinear): the blocked one written per lane bit,
// thread (2,2,8):(32,64,1), value (2,2):(16,8); the mma one CuTe's SM80
// 16x8 accumulator, thread (4,8):(32,1), value (2,2):(16,8). Checked with
//   layoutkit plan '((2,2,8),(2,2)):((32,64,1),(16,8))' '((4,8),(2,2)):((32,1),(16,8))' --shape '(16,8)' --dtype f32
//   layoutkit plan '{"kind":"blocked","sizePerThread":[1,2],"threadsPerWarp":[8,4],"warpsPerCTA":[1,1],"order":[1,0]}' '{"kind":"nvidia_mma","versionMajor":2,"instrShape":[16,8],"warpsPerCTA":[1,1]}' --shape '(16,8)' --dtype f32
// give "strategy: no-op" (the Triton parameters build the same bases).
#blocked = #tileas.encoding<register, blocked, layout = #tileas.layout<((2,2,8),(2,2)),((32,64,1),(16,8))>>
#mma = #tileas.encoding<register, linear, layout = #tileas.layout<((4,8),(2,2)),((32,1),(16,8))>>
#gmem = #tileas.encoding<global, linear>
// CHECK-LABEL: func.func @blocked_is_mma
// The blocked text's thread mode (2,2,8):(32,64,1) coalesces to (4,8):(32,1)
// (2 * 32 = 64): the attribute stores that normal form, which is the mma
// one.
// CHECK-NEXT: tileas.tiled_store %arg0, %arg1 : tensor<16x8xf32, #tileas.encoding<register, blocked, layout = #tileas.layout<((4,8),(2,2)),((32,1),(16,8))>>>
// CHECK-NEXT: return
func.func @blocked_is_mma(%x: tensor<16x8xf32, #blocked>, %g: tensor<16x8xf32, #gmem>) {
  %c = tileas.convert_layout %x : tensor<16x8xf32, #blocked> -> tensor<16x8xf32, #mma>
  tileas.tiled_store %c, %g : tensor<16x8xf32, #mma> -> tensor<16x8xf32, #gmem>
  return
}

// -----

// Triton's blocked layout equals a slice of the mma accumulator. The slice
// along dim 0 of the mma.m16n8 accumulator above keeps the columns: register
// [(0,1),(8,0)] -> [1, 0], lane [(0,2),(0,4),(1,0),(2,0),(4,0)] ->
// [2, 4, 0, 0, 0]; the slice drops the zero register basis (as Triton's
// SliceEncoding does), leaving register [1], lane [2, 4, 0, 0, 0] over 8
// elements. blocked(sizePerThread [2], threadsPerWarp [32], warpsPerCTA
// [1], order [0]) on 8 elements: register [1], lanes 2, 4, then 8, 16, 32
// broadcast (zeroed: the tile of 64 is larger than the tensor), the same
// bases. As (thread, value) layouts: blocked thread (4,8):(2,0), value 2:1;
// the slice written per lane bit, thread (2,2,8):(2,4,0), value 2:1.
//   layoutkit plan '((4,8),2):((2,0),1)' '((2,2,8),2):((2,4,0),1)' --shape '(8)' --dtype f32
//   layoutkit plan '{"kind":"blocked","sizePerThread":[2],"threadsPerWarp":[32],"warpsPerCTA":[1],"order":[0]}' '{"kind":"slice","dim":0,"parent":{"kind":"nvidia_mma","versionMajor":2,"instrShape":[16,8],"warpsPerCTA":[1,1]}}' --shape '(8)' --dtype f32
// give "strategy: no-op".
#blocked = #tileas.encoding<register, blocked, layout = #tileas.layout<((4,8),2),((2,0),1)>>
#slice = #tileas.encoding<register, linear, layout = #tileas.layout<((2,2,8),2),((2,4,0),1)>>
#gmem = #tileas.encoding<global, linear>
// CHECK-LABEL: func.func @blocked_is_slice_of_mma
// CHECK-NEXT: tileas.tiled_store %arg0, %arg1 : tensor<8xf32, #tileas.encoding<register, blocked, layout = #tileas.layout<((4,8),2),((2,0),1)>>>
// CHECK-NEXT: return
func.func @blocked_is_slice_of_mma(%x: tensor<8xf32, #blocked>, %g: tensor<8xf32, #gmem>) {
  %c = tileas.convert_layout %x : tensor<8xf32, #blocked> -> tensor<8xf32, #slice>
  tileas.tiled_store %c, %g : tensor<8xf32, #slice> -> tensor<8xf32, #gmem>
  return
}

// -----

// Similar-looking registers, another function: the value modes swapped,
// (16,8) -> (8,16), send register bit 0 to row 8 and bit 1 to column 1
// (a register permutation, not an identity).
#mma = #tileas.encoding<register, linear, layout = #tileas.layout<((4,8),(2,2)),((32,1),(16,8))>>
#swapped = #tileas.encoding<register, linear, layout = #tileas.layout<((4,8),(2,2)),((32,1),(8,16))>>
#gmem = #tileas.encoding<global, linear>
// CHECK-LABEL: func.func @registers_swapped
// CHECK-NEXT: %[[C:.*]] = tileas.convert_layout %arg0
// CHECK-NEXT: tileas.tiled_store %[[C]], %arg1
func.func @registers_swapped(%x: tensor<16x8xf32, #mma>, %g: tensor<16x8xf32, #gmem>) {
  %c = tileas.convert_layout %x : tensor<16x8xf32, #mma> -> tensor<16x8xf32, #swapped>
  tileas.tiled_store %c, %g : tensor<16x8xf32, #swapped> -> tensor<16x8xf32, #gmem>
  return
}

// -----

// One function in two memory kinds is two placements: smem -> tmem never
// folds. A user that needs the exact type (the function's result) keeps a
// conversion between two encodings of one function.
#smem = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#tmem = #tileas.encoding<tmem, linear, layout = #tileas.layout<(128,64),(64,1)>>
#tiled = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<0,4,3>>>
// CHECK-LABEL: func.func @kept
// CHECK-NEXT: %[[T:.*]] = tileas.convert_layout %arg0 : {{.*}}smem{{.*}} -> {{.*}}tmem
// CHECK-NEXT: %[[S:.*]] = tileas.convert_layout %arg0 : {{.*}} -> tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<0,4,3>>>>
// CHECK-NEXT: return %[[T]], %[[S]]
func.func @kept(%b: tensor<128x64xf16, #smem>) -> (tensor<128x64xf16, #tmem>, tensor<128x64xf16, #tiled>) {
  %t = tileas.convert_layout %b : tensor<128x64xf16, #smem> -> tensor<128x64xf16, #tmem>
  %s = tileas.convert_layout %b : tensor<128x64xf16, #smem> -> tensor<128x64xf16, #tiled>
  return %t, %s : tensor<128x64xf16, #tmem>, tensor<128x64xf16, #tiled>
}

// -----

// A chain A -> B -> A' with A' another text of A: the cleanup makes it
// A -> A', which is an identity, and the consumer takes A.
#flat  = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#sw    = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
#tiled = #tileas.encoding<smem, shared, layout = #tileas.layout<((8,16),(8,8)),((64,512),(1,8))>>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>
#acc = #tileas.encoding<register, blocked>
// CHECK-LABEL: func.func @chain_to_equal
// CHECK-NEXT: tileas.wgmma %arg0, %arg1, %arg2
func.func @chain_to_equal(%a: tensor<64x128xf16, #dot_a>, %b: tensor<128x64xf16, #flat>,
                          %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
  %1 = tileas.convert_layout %b : tensor<128x64xf16, #flat> -> tensor<128x64xf16, #sw>
  %2 = tileas.convert_layout %1 : tensor<128x64xf16, #sw> -> tensor<128x64xf16, #tiled>
  %r = tileas.wgmma %a, %2, %acc : tensor<64x128xf16, #dot_a>, tensor<128x64xf16, #tiled>, tensor<64x64xf32, #acc> -> tensor<64x64xf32, #acc>
  return %r : tensor<64x64xf32, #acc>
}

// -----

// A layout's swizzle acts on byte addresses, over the tensor's elements
// when the attribute names none. On 8x64 f16 (128-byte rows), the 128-byte
// swizzle <3,4,3> is Sw<3,3,3> over element offsets and the 64-byte one
// <2,4,3> is Sw<2,3,3>: element offset 256 (row 4) has bit 8 set, which
// only the first xors into bit 5 (256 -> 288 against 256). The functions
// differ and the conversion stays. (Read as byte offsets, both would leave
// every offset below 512 alike: bit 9 is never set.)
#s128 = #tileas.encoding<smem, shared, layout = #tileas.layout<(8,64),(64,1),swizzle<3,4,3>>>
#s64  = #tileas.encoding<smem, shared, layout = #tileas.layout<(8,64),(64,1),swizzle<2,4,3>>>
// CHECK-LABEL: func.func @swizzles_over_f16
// CHECK: tileas.convert_layout %arg0
func.func @swizzles_over_f16(%a: tensor<8x64xf16, #s128>) -> tensor<8x64xf16, #s64> {
  %c = tileas.convert_layout %a : tensor<8x64xf16, #s128> -> tensor<8x64xf16, #s64>
  %r = tileas.consume_one %c : tensor<8x64xf16, #s64> -> tensor<8x64xf16, #s64>
  return %r : tensor<8x64xf16, #s64>
}

// -----

// The same two swizzles over bytes (i8) are one function on 512 offsets:
// the conversion folds.
#b128 = #tileas.encoding<smem, shared, layout = #tileas.layout<(8,64),(64,1),swizzle<3,4,3>>>
#b64  = #tileas.encoding<smem, shared, layout = #tileas.layout<(8,64),(64,1),swizzle<2,4,3>>>
// CHECK-LABEL: func.func @swizzles_over_bytes
// CHECK-NOT: tileas.convert_layout
func.func @swizzles_over_bytes(%a: tensor<8x64xi8, #b128>) -> tensor<8x64xi8, #b64> {
  %c = tileas.convert_layout %a : tensor<8x64xi8, #b128> -> tensor<8x64xi8, #b64>
  %r = tileas.consume_one %c : tensor<8x64xi8, #b64> -> tensor<8x64xi8, #b64>
  return %r : tensor<8x64xi8, #b64>
}

// -----

// complex<f32> has no int or float width here, so the byte swizzle has no
// element form: the two layouts are not compared equal and the conversion
// stays (8x64 complex<f32> is 4096 bytes; read as bytes, they would fold).
#c128 = #tileas.encoding<smem, shared, layout = #tileas.layout<(8,64),(64,1),swizzle<3,4,3>>>
#c64  = #tileas.encoding<smem, shared, layout = #tileas.layout<(8,64),(64,1),swizzle<2,4,3>>>
// CHECK-LABEL: func.func @swizzles_over_complex
// CHECK: tileas.convert_layout %arg0
func.func @swizzles_over_complex(%a: tensor<8x64xcomplex<f32>, #c128>) -> tensor<8x64xcomplex<f32>, #c64> {
  %c = tileas.convert_layout %a : tensor<8x64xcomplex<f32>, #c128> -> tensor<8x64xcomplex<f32>, #c64>
  %r = tileas.consume_one %c : tensor<8x64xcomplex<f32>, #c64> -> tensor<8x64xcomplex<f32>, #c64>
  return %r : tensor<8x64xcomplex<f32>, #c64>
}

// -----

// tf32 (19 bits of value) is stored in 32: over 4-byte elements the two
// swizzles are Sw<3,2,3> and Sw<2,2,3>, which differ only where element
// offset bit 7 is set. A 4x32 tile has offsets below 128: one function,
// and the conversion folds, as it would over f32.
#t128 = #tileas.encoding<smem, shared, layout = #tileas.layout<(4,32),(32,1),swizzle<3,4,3>>>
#t64  = #tileas.encoding<smem, shared, layout = #tileas.layout<(4,32),(32,1),swizzle<2,4,3>>>
// CHECK-LABEL: func.func @swizzles_over_tf32
// CHECK-NOT: tileas.convert_layout
func.func @swizzles_over_tf32(%a: tensor<4x32xtf32, #t128>) -> tensor<4x32xtf32, #t64> {
  %c = tileas.convert_layout %a : tensor<4x32xtf32, #t128> -> tensor<4x32xtf32, #t64>
  %r = tileas.consume_one %c : tensor<4x32xtf32, #t64> -> tensor<4x32xtf32, #t64>
  return %r : tensor<4x32xtf32, #t64>
}
