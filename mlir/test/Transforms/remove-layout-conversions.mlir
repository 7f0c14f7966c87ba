// tileas-remove-layout-conversions: the buffer-side and register-side
// propagators, the scf.if rewrite, the cleanups, and the conversions that
// must survive.
// RUN: layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tileas-remove-layout-conversions))' | FileCheck %s

#blocked = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#swizzled = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>
#acc = #tileas.encoding<register, blocked>

// docs/design.md §6.6: the SMEM producer is retyped to the conversion's
// target and the conversion goes.
// CHECK-LABEL: func.func @buffer_side
// CHECK: %[[T:.*]] = tileas.tiled_load %{{.*}} : tensor<128x64xf16, #tileas.encoding<global, linear>> -> tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>>
// CHECK-NOT: tileas.convert_layout
// CHECK: tileas.wgmma %{{.*}}, %[[T]], %{{.*}}
func.func @buffer_side(%src: tensor<128x64xf16, #tileas.encoding<global, linear>>, %a: tensor<64x128xf16, #dot_a>,
                       %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
  %t = tileas.tiled_load %src : tensor<128x64xf16, #tileas.encoding<global, linear>> -> tensor<128x64xf16, #blocked>
  %c = tileas.convert_layout %t : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #swizzled>
  %r = tileas.wgmma %a, %c, %acc : tensor<64x128xf16, #dot_a>, tensor<128x64xf16, #swizzled>, tensor<64x64xf32, #acc> -> tensor<64x64xf32, #acc>
  return %r : tensor<64x64xf32, #acc>
}

// -----

// Another user of the producer keeps the old layout through a view.
#blocked = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#swizzled = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
// CHECK-LABEL: func.func @other_user_through_view
// CHECK: %[[A:.*]] = tileas.alloc_tensor : tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>>
// CHECK: %[[V:.*]] = tileas.view %[[A]] {offset = 0 : i64} : {{.*}}swizzle{{.*}} -> tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>>
// CHECK: return %[[A]], %[[V]]
func.func @other_user_through_view() -> (tensor<128x64xf16, #swizzled>, tensor<128x64xf16, #blocked>) {
  %a = tileas.alloc_tensor : tensor<128x64xf16, #blocked>
  %c = tileas.convert_layout %a : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #swizzled>
  return %c, %a : tensor<128x64xf16, #swizzled>, tensor<128x64xf16, #blocked>
}

// -----

// A conversion between memory kinds never folds; neither does one pinned
// by a fence between it and its producer.
#blocked = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#swizzled = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
#reg = #tileas.encoding<register, blocked>
// CHECK-LABEL: func.func @survivors
// CHECK: tileas.convert_layout %{{.*}} : tensor<128x64xf16, {{.*}}smem{{.*}}> -> tensor<128x64xf16, #tileas.encoding<register, blocked>>
// CHECK: tileas.fence "cta"
// CHECK: tileas.convert_layout %{{.*}} : {{.*}} -> {{.*}}swizzle<3,4,3>
func.func @survivors() -> (tensor<128x64xf16, #reg>, tensor<128x64xf16, #swizzled>) {
  %a = tileas.alloc_tensor : tensor<128x64xf16, #blocked>
  %r = tileas.convert_layout %a : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #reg>
  %b = tileas.alloc_tensor : tensor<128x64xf16, #blocked>
  tileas.fence "cta"
  %s = tileas.convert_layout %b : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #swizzled>
  return %r, %s : tensor<128x64xf16, #reg>, tensor<128x64xf16, #swizzled>
}

// -----

// Register side: the conversion sinks through the elementwise ops and
// meets its inverse; both go.
#a = #tileas.encoding<register, blocked>
#b = #tileas.encoding<register, dot_operand, opIdx = 0>
// CHECK-LABEL: func.func @register_side
// CHECK-NEXT: %[[N:.*]] = arith.negf %arg0 : tensor<64x64xf16, #tileas.encoding<register, blocked>>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[N]], %[[N]] : tensor<64x64xf16, #tileas.encoding<register, blocked>>
// CHECK-NEXT: return %[[S]]
func.func @register_side(%x: tensor<64x64xf16, #a>) -> tensor<64x64xf16, #a> {
  %c = tileas.convert_layout %x : tensor<64x64xf16, #a> -> tensor<64x64xf16, #b>
  %n = arith.negf %c : tensor<64x64xf16, #b>
  %s = arith.addf %n, %n : tensor<64x64xf16, #b>
  %back = tileas.convert_layout %s : tensor<64x64xf16, #b> -> tensor<64x64xf16, #a>
  return %back : tensor<64x64xf16, #a>
}

// -----

// scf.if: both arms convert A -> B; one conversion after the merge, which
// then cancels with the inverse conversion that follows.
#a = #tileas.encoding<register, blocked>
#b = #tileas.encoding<register, dot_operand, opIdx = 0>
// CHECK-LABEL: func.func @if_arms
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (tensor<64x64xf16, #tileas.encoding<register, blocked>>)
// CHECK-NEXT: scf.yield %arg1
// CHECK: scf.yield %arg2
// CHECK-NOT: tileas.convert_layout
// CHECK: return %[[R]]
func.func @if_arms(%c: i1, %x: tensor<64x64xf16, #a>, %y: tensor<64x64xf16, #a>) -> tensor<64x64xf16, #a> {
  %r = scf.if %c -> tensor<64x64xf16, #b> {
    %cx = tileas.convert_layout %x : tensor<64x64xf16, #a> -> tensor<64x64xf16, #b>
    scf.yield %cx : tensor<64x64xf16, #b>
  } else {
    %cy = tileas.convert_layout %y : tensor<64x64xf16, #a> -> tensor<64x64xf16, #b>
    scf.yield %cy : tensor<64x64xf16, #b>
  }
  %back = tileas.convert_layout %r : tensor<64x64xf16, #b> -> tensor<64x64xf16, #a>
  return %back : tensor<64x64xf16, #a>
}

// -----

// Cleanups: an identity conversion goes; a chain within one memory kind
// becomes one conversion.
#a = #tileas.encoding<register, blocked>
#b = #tileas.encoding<register, dot_operand, opIdx = 0>
#c = #tileas.encoding<register, linear>
// CHECK-LABEL: func.func @cleanups
// CHECK-NEXT: %[[C:.*]] = tileas.convert_layout %arg0 : tensor<8x8xf32, #tileas.encoding<register, blocked>> -> tensor<8x8xf32, #tileas.encoding<register, linear>>
// CHECK-NEXT: return %arg0, %[[C]]
func.func @cleanups(%x: tensor<8x8xf32, #a>) -> (tensor<8x8xf32, #a>, tensor<8x8xf32, #c>) {
  %same = tileas.convert_layout %x : tensor<8x8xf32, #a> -> tensor<8x8xf32, #a>
  %1 = tileas.convert_layout %x : tensor<8x8xf32, #a> -> tensor<8x8xf32, #b>
  %2 = tileas.convert_layout %1 : tensor<8x8xf32, #b> -> tensor<8x8xf32, #c>
  return %same, %2 : tensor<8x8xf32, #a>, tensor<8x8xf32, #c>
}

// -----

// A conversion that has another user does not sink: that would add one.
#a = #tileas.encoding<register, blocked>
#b = #tileas.encoding<register, dot_operand, opIdx = 0>
// CHECK-LABEL: func.func @shared_conversion
// CHECK-NEXT: %[[C:.*]] = tileas.convert_layout %arg0
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[C]] : tensor<64x64xf16, #tileas.encoding<register, dot_operand, opIdx = 0>>
// CHECK-NEXT: return %[[N]], %[[C]]
func.func @shared_conversion(%x: tensor<64x64xf16, #a>) -> (tensor<64x64xf16, #b>, tensor<64x64xf16, #b>) {
  %c = tileas.convert_layout %x : tensor<64x64xf16, #a> -> tensor<64x64xf16, #b>
  %n = arith.negf %c : tensor<64x64xf16, #b>
  return %n, %c : tensor<64x64xf16, #b>, tensor<64x64xf16, #b>
}

// -----

// The cleanup's scope: dead pure ops go (a dead chain of two conversions, a
// dead add in a loop body); the constants become one of each value at the
// top of the function (each moved to the front in turn, so the last one
// found comes first; the loop's 2 is the function's 2); other ops are not
// folded (the add of two constants stays: that is canonicalization's work).
#acc = #tileas.encoding<register, blocked>
#dot = #tileas.encoding<register, dot_operand, opIdx = 0>
// CHECK-LABEL: func.func @cleanup_scope
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[C1]], %[[C2]] : index
// CHECK-NEXT: %[[R:.*]] = scf.for %[[I:.*]] = %[[C0]] to %{{.*}} step %[[C1]] iter_args(%[[A:.*]] = %[[C0]])
// CHECK-NEXT: %[[U:.*]] = arith.muli %[[I]], %[[C2]] : index
// CHECK-NEXT: %[[T:.*]] = arith.addi %[[A]], %[[U]] : index
// CHECK-NEXT: scf.yield %[[T]] : index
// CHECK-NEXT: }
// CHECK-NEXT: return %[[S]], %[[R]] : index, index
func.func @cleanup_scope(%x: tensor<64x64xf16, #acc>, %n: index) -> (index, index) {
  %c0 = arith.constant 0 : index
  %d = tileas.convert_layout %x : tensor<64x64xf16, #acc> -> tensor<64x64xf16, #dot>
  %e = tileas.convert_layout %d : tensor<64x64xf16, #dot> -> tensor<64x64xf16, #acc>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = arith.addi %c1, %c2 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> (index) {
    %k = arith.constant 2 : index
    %dead = arith.addi %i, %k : index
    %u = arith.muli %i, %k : index
    %t = arith.addi %a, %u : index
    scf.yield %t : index
  }
  return %s, %r : index, index
}

// -----

// A dead loop goes with what only it used: its operands' producers and the
// values its body took from outside (the product %w, and the constant 7,
// which the cleanup has hoisted out of the body before the loop goes).
// CHECK-LABEL: func.func @dead_loop_inputs
// CHECK-NEXT: return
func.func @dead_loop_inputs(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.muli %n, %n : index
  %w = arith.addi %n, %n : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %v) -> (index) {
    %k = arith.constant 7 : index
    %t = arith.addi %a, %k : index
    %u = arith.addi %t, %w : index
    scf.yield %u : index
  }
  return
}
