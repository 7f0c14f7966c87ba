// #tileas.layout is stored parsed, in the normal form of its function
// (each top-level mode coalesced), so its hash and equality are those of
// the function: two texts of one layout are one attribute, printed in the
// normal form, and a conversion between two encodings that differ only in
// such texts is between one type and itself, which the cleanup removes.
// RUN: layoutkit-opt %s --split-input-file | FileCheck %s
// RUN: layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tileas-remove-layout-conversions))' | FileCheck %s --check-prefix=FOLD

// ((8,16),(8,8)) : ((64,512),(1,8)): row i = i0 + 8 i1 -> 64 i0 + 512 i1
// = 64 i, column j = j0 + 8 j1 -> j0 + 8 j1 = j: the function of
// (128,64) : (64,1), also under a swizzle. (128,64) : (1,128) (column-
// major) and (16,(8,2)) : (1,(16,8)) (mode 1 does not coalesce: 8 * 16 is
// not 8) are other functions and keep their text.
// CHECK: tileas.a = #tileas.layout<(128,64),(64,1)>
// CHECK-SAME: tileas.b = #tileas.layout<(128,64),(64,1)>
// CHECK-SAME: tileas.c = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>
// CHECK-SAME: tileas.d = #tileas.layout<(128,64),(1,128)>
// CHECK-SAME: tileas.e = #tileas.layout<(16,(8,2)),(1,(16,8))>
// CHECK-SAME: tileas.f = #tileas.layout<(4,1),(1,0)>
func.func private @texts() attributes {
  tileas.a = #tileas.layout<(128,64),(64,1)>,
  tileas.b = #tileas.layout<((8,16),(8,8)),((64,512),(1,8))>,
  tileas.c = #tileas.layout<((8,16),64),((64,512),1),swizzle<3,4,3>>,
  tileas.d = #tileas.layout<(128,64),(1,128)>,
  tileas.e = #tileas.layout<(16,(8,2)),(1,(16,8))>,
  tileas.f = #tileas.layout<((2,2),(1,1)),((1,2),(5,7))>
}

// -----

// One function in two texts: the two encodings are one attribute, so the
// conversion is from a type to itself (printed as one type) and goes.
// CHECK-LABEL: func.func @same_function
// CHECK: tileas.convert_layout %arg0 : tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>> -> tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>>
// FOLD-LABEL: func.func @same_function
// FOLD-NEXT: return %arg0
#a = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#b = #tileas.encoding<smem, shared, layout = #tileas.layout<((8,16),(8,8)),((64,512),(1,8))>>
func.func @same_function(%x: tensor<128x64xf16, #a>) -> tensor<128x64xf16, #b> {
  %c = tileas.convert_layout %x : tensor<128x64xf16, #a> -> tensor<128x64xf16, #b>
  return %c : tensor<128x64xf16, #b>
}
