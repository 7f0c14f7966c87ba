// The rewrite step of tileas-remove-layout-conversions on produce_one /
// consume_one pairs and pragma ranges (scf.if arms: remove-layout-
// conversions.mlir), with the cases each rule must leave alone.
// RUN: layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tileas-remove-layout-conversions))' | FileCheck %s

#blocked = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#swizzled = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>

// Before the pass: swizzled -> blocked, the pair carries blocked, blocked
// -> swizzled after it: two conversions. The buffer side retypes the
// consume_one to swizzled (its conversion goes); the rewrite then feeds
// the pair the swizzled value itself, so the pair carries swizzled from
// end to end and no conversion is left.
// CHECK-LABEL: func.func @pair_folds
// CHECK-NOT: tileas.convert_layout
// CHECK: %[[S:.*]] = tileas.produce_one %arg0 {depth = 1 : i64} : tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>> -> tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>>
// CHECK-NEXT: %[[R:.*]] = tileas.consume_one %[[S]] : tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>> -> tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>>
// CHECK-NEXT: return %[[R]]
func.func @pair_folds(%a: tensor<128x64xf16, #swizzled>) -> tensor<128x64xf16, #swizzled> {
  %c = tileas.convert_layout %a : tensor<128x64xf16, #swizzled> -> tensor<128x64xf16, #blocked>
  %s = tileas.produce_one %c {depth = 1} : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #blocked>
  %r = tileas.consume_one %s : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #blocked>
  %d = tileas.convert_layout %r : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #swizzled>
  return %d : tensor<128x64xf16, #swizzled>
}

// -----

#blocked = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#col = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(1,128)>>

// The reader needs blocked, the value comes column-major: the conversion
// before the pair goes and the layout changes on the consumer side only,
// where the consume_one lays the slot out as its blocked result.
// CHECK-LABEL: func.func @pair_one_side
// CHECK-NOT: tileas.convert_layout
// CHECK: %[[S:.*]] = tileas.produce_one %arg0 {depth = 1 : i64} : tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(1,128)>>> -> tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(1,128)>>>
// CHECK-NEXT: %[[R:.*]] = tileas.consume_one %[[S]] : tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(1,128)>>> -> tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>>
// CHECK-NEXT: return %[[R]]
func.func @pair_one_side(%a: tensor<128x64xf16, #col>) -> tensor<128x64xf16, #blocked> {
  %c = tileas.convert_layout %a : tensor<128x64xf16, #col> -> tensor<128x64xf16, #blocked>
  %s = tileas.produce_one %c {depth = 1} : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #blocked>
  %r = tileas.consume_one %s : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #blocked>
  return %r : tensor<128x64xf16, #blocked>
}

// -----

#blocked = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#swizzled = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>

// Depth 2 pins the pair's layout (two stages in flight): the conversion
// before it stays and the slot stays blocked. The consume_one is still
// retyped by the buffer side, as in @pair_folds.
// CHECK-LABEL: func.func @pair_depth_two_stays
// CHECK-NEXT: %[[C:.*]] = tileas.convert_layout %arg0 : tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>> -> tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>>
// CHECK-NEXT: %[[S:.*]] = tileas.produce_one %[[C]] {depth = 2 : i64} : tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>> -> tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>>
// CHECK-NEXT: %[[R:.*]] = tileas.consume_one %[[S]] : tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>> -> tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>>
// CHECK-NEXT: return %[[R]]
func.func @pair_depth_two_stays(%a: tensor<128x64xf16, #swizzled>) -> tensor<128x64xf16, #swizzled> {
  %c = tileas.convert_layout %a : tensor<128x64xf16, #swizzled> -> tensor<128x64xf16, #blocked>
  %s = tileas.produce_one %c {depth = 2} : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #blocked>
  %r = tileas.consume_one %s : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #blocked>
  %d = tileas.convert_layout %r : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #swizzled>
  return %d : tensor<128x64xf16, #swizzled>
}

// -----

#blocked = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#swizzled = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>

// A fence between the conversion and the produce_one pins the value; a
// slot read by anything but consume_one (here: returned) keeps its type.
// CHECK-LABEL: func.func @pair_pinned
// CHECK-NEXT: %[[C:.*]] = tileas.convert_layout %arg0
// CHECK-NEXT: tileas.fence "cta"
// CHECK-NEXT: %[[P:.*]] = tileas.produce_one %[[C]] {depth = 1 : i64}
// CHECK-NEXT: tileas.consume_one %[[P]]
// CHECK-NEXT: %[[D:.*]] = tileas.convert_layout %arg0
// CHECK-NEXT: %[[S:.*]] = tileas.produce_one %[[D]] {depth = 1 : i64}
// CHECK-NEXT: return %[[S]]
func.func @pair_pinned(%a: tensor<128x64xf16, #swizzled>) -> tensor<128x64xf16, #blocked> {
  %c = tileas.convert_layout %a : tensor<128x64xf16, #swizzled> -> tensor<128x64xf16, #blocked>
  tileas.fence "cta"
  %s = tileas.produce_one %c {depth = 1} : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #blocked>
  %r = tileas.consume_one %s : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #blocked>
  %d = tileas.convert_layout %a : tensor<128x64xf16, #swizzled> -> tensor<128x64xf16, #blocked>
  %t = tileas.produce_one %d {depth = 1} : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #blocked>
  return %t : tensor<128x64xf16, #blocked>
}

// -----

#a = #tileas.encoding<register, blocked>
#b = #tileas.encoding<register, dot_operand, opIdx = 0>

// Before the pass: %x converted to #b twice, once in front of the range
// and once inside it. The inner conversion reads a value from outside
// the range, so it moves in front of pragma_begin and becomes the one
// already there: one conversion, the range encloses the same (empty)
// computation, reading %x in one layout.
// CHECK-LABEL: func.func @pragma_hoists
// CHECK-NEXT: %[[C:.*]] = tileas.convert_layout %arg0
// CHECK-NEXT: tileas.pragma_begin "unroll"
// CHECK-NEXT: tileas.pragma_end "unroll"
// CHECK-NEXT: return %[[C]], %[[C]]
func.func @pragma_hoists(%x: tensor<64x64xf16, #a>) -> (tensor<64x64xf16, #b>, tensor<64x64xf16, #b>) {
  %c0 = tileas.convert_layout %x : tensor<64x64xf16, #a> -> tensor<64x64xf16, #b>
  tileas.pragma_begin "unroll"
  %c1 = tileas.convert_layout %x : tensor<64x64xf16, #a> -> tensor<64x64xf16, #b>
  tileas.pragma_end "unroll"
  return %c0, %c1 : tensor<64x64xf16, #b>, tensor<64x64xf16, #b>
}

// -----

#a = #tileas.encoding<register, blocked>
#b = #tileas.encoding<register, dot_operand, opIdx = 0>

// Nested ranges: the conversion leaves the inner range, then the outer.
// CHECK-LABEL: func.func @pragma_nested
// CHECK-NEXT: %[[C:.*]] = tileas.convert_layout %arg0
// CHECK-NEXT: tileas.pragma_begin "unroll"
// CHECK-NEXT: tileas.pragma_begin "unroll"
// CHECK-NEXT: tileas.pragma_end "unroll"
// CHECK-NEXT: tileas.pragma_end "unroll"
// CHECK-NEXT: return %[[C]]
func.func @pragma_nested(%x: tensor<64x64xf16, #a>) -> tensor<64x64xf16, #b> {
  tileas.pragma_begin "unroll"
  tileas.pragma_begin "unroll"
  %c = tileas.convert_layout %x : tensor<64x64xf16, #a> -> tensor<64x64xf16, #b>
  tileas.pragma_end "unroll"
  tileas.pragma_end "unroll"
  return %c : tensor<64x64xf16, #b>
}

// -----

#a = #tileas.encoding<register, blocked>
#b = #tileas.encoding<register, dot_operand, opIdx = 0>
#blocked = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#swizzled = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>

// What stays in the range: a conversion of a value the range computes, a
// conversion of a buffer (the range may write it first), and one behind
// a fence in the range.
// CHECK-LABEL: func.func @pragma_stays
// CHECK-NEXT: tileas.pragma_begin "unroll"
// CHECK-NEXT: %[[N:.*]] = arith.negf %arg0
// CHECK-NEXT: tileas.convert_layout %[[N]]
// CHECK-NEXT: tileas.convert_layout %arg1
// CHECK-NEXT: tileas.fence "cta"
// CHECK-NEXT: tileas.convert_layout %arg0
// CHECK-NEXT: tileas.pragma_end "unroll"
func.func @pragma_stays(%x: tensor<64x64xf16, #a>, %buf: tensor<128x64xf16, #blocked>)
    -> (tensor<64x64xf16, #b>, tensor<128x64xf16, #swizzled>, tensor<64x64xf16, #b>) {
  tileas.pragma_begin "unroll"
  %n = arith.negf %x : tensor<64x64xf16, #a>
  %c = tileas.convert_layout %n : tensor<64x64xf16, #a> -> tensor<64x64xf16, #b>
  %s = tileas.convert_layout %buf : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #swizzled>
  tileas.fence "cta"
  %f = tileas.convert_layout %x : tensor<64x64xf16, #a> -> tensor<64x64xf16, #b>
  tileas.pragma_end "unroll"
  return %c, %s, %f : tensor<64x64xf16, #b>, tensor<128x64xf16, #swizzled>, tensor<64x64xf16, #b>
}
