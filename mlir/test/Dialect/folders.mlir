// The folders of convert_layout and view, as --canonicalize applies them.
// RUN: layoutkit-opt %s --split-input-file --canonicalize | FileCheck %s

// convert(convert(x : A -> B) : B -> A) within one memory kind is x; an
// identity conversion is its source; a chain A -> B -> C converts x once.
#a = #tileas.encoding<register, blocked>
#b = #tileas.encoding<register, dot_operand, opIdx = 0>
#c = #tileas.encoding<register, linear>
// CHECK-LABEL: func.func @conversions
// CHECK-NEXT: %[[C:.*]] = tileas.convert_layout %arg0 : tensor<16x16xf16, #tileas.encoding<register, blocked>> -> tensor<16x16xf16, #tileas.encoding<register, linear>>
// CHECK-NEXT: return %arg0, %arg0, %[[C]]
func.func @conversions(%x: tensor<16x16xf16, #a>) -> (tensor<16x16xf16, #a>, tensor<16x16xf16, #a>, tensor<16x16xf16, #c>) {
  %1 = tileas.convert_layout %x : tensor<16x16xf16, #a> -> tensor<16x16xf16, #b>
  %2 = tileas.convert_layout %1 : tensor<16x16xf16, #b> -> tensor<16x16xf16, #a>
  %3 = tileas.convert_layout %x : tensor<16x16xf16, #a> -> tensor<16x16xf16, #a>
  %4 = tileas.convert_layout %1 : tensor<16x16xf16, #b> -> tensor<16x16xf16, #c>
  return %2, %3, %4 : tensor<16x16xf16, #a>, tensor<16x16xf16, #a>, tensor<16x16xf16, #c>
}

// -----

// Between memory kinds nothing folds: register -> smem -> register stays.
#a = #tileas.encoding<register, blocked>
#s = #tileas.encoding<smem, shared>
// CHECK-LABEL: func.func @kinds
// CHECK-NEXT: tileas.convert_layout %arg0
// CHECK-NEXT: tileas.convert_layout
func.func @kinds(%x: tensor<16x16xf16, #a>) -> tensor<16x16xf16, #a> {
  %1 = tileas.convert_layout %x : tensor<16x16xf16, #a> -> tensor<16x16xf16, #s>
  %2 = tileas.convert_layout %1 : tensor<16x16xf16, #s> -> tensor<16x16xf16, #a>
  return %2 : tensor<16x16xf16, #a>
}

// -----

// view(view(%a, 4096), 4096) is view(%a, 8192); a view at offset 0 of the
// buffer's own type is the buffer; view(view(%a, 2^63-1), 1) would pass
// 2^63-1 and stays two views.
#s = #tileas.encoding<smem, shared>
// CHECK-LABEL: func.func @views
// CHECK-NEXT: %[[A:.*]] = tileas.alloc_tensor
// CHECK-NEXT: %[[V:.*]] = tileas.view %[[A]] {offset = 8192 : i64}
// CHECK-NEXT: %[[F:.*]] = tileas.view %[[A]] {offset = 9223372036854775807 : i64}
// CHECK-NEXT: %[[G:.*]] = tileas.view %[[F]] {offset = 1 : i64}
// CHECK-NEXT: return %[[V]], %[[A]], %[[G]]
func.func @views() -> (tensor<64x64xf16, #s>, tensor<64x64xf16, #s>, tensor<64x64xf16, #s>) {
  %a = tileas.alloc_tensor : tensor<64x64xf16, #s>
  %v1 = tileas.view %a {offset = 4096} : tensor<64x64xf16, #s> -> tensor<64x64xf16, #s>
  %v2 = tileas.view %v1 {offset = 4096} : tensor<64x64xf16, #s> -> tensor<64x64xf16, #s>
  %z = tileas.view %a {offset = 0} : tensor<64x64xf16, #s> -> tensor<64x64xf16, #s>
  %f = tileas.view %a {offset = 9223372036854775807} : tensor<64x64xf16, #s> -> tensor<64x64xf16, #s>
  %g = tileas.view %f {offset = 1} : tensor<64x64xf16, #s> -> tensor<64x64xf16, #s>
  return %v2, %z, %g : tensor<64x64xf16, #s>, tensor<64x64xf16, #s>, tensor<64x64xf16, #s>
}
