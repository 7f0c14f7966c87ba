// tileas-remove-dead-args: dead slots (block arguments with the operands
// that initialise them and the results they reach) of every region-branch
// op: scf.for, scf.while, scf.if, tileas.async.pipeline.execute. The
// verifier runs after the pass on every case.
// RUN: layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tileas-remove-dead-args))' | FileCheck %s

#smem = #tileas.encoding<smem, shared>
#acc = #tileas.encoding<register, blocked>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>

// docs/design.md §6.6: %pre_acc is only yielded back at its own position.
// It goes with its init, its yield operand and its result; the loop keeps
// %acc and its attribute.
// CHECK-LABEL: func.func @spec_example
// CHECK: %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %arg2) -> (tensor<128x128xf32, #tileas.encoding<register, blocked>>) {
// CHECK-NEXT: %[[X:.*]] = tileas.wgmma %arg0, %arg1, %[[ACC]]
// CHECK-NEXT: scf.yield %[[X]] : tensor<128x128xf32, #tileas.encoding<register, blocked>>
// CHECK-NEXT: } {sliceCount = 2 : i32}
// CHECK-NEXT: return %[[R]], %arg3
func.func @spec_example(%a: tensor<128x64xf16, #dot_a>, %b: tensor<64x128xf16, #smem>,
                        %init_acc: tensor<128x128xf32, #acc>, %init_pre: tensor<128x128xf32, #acc>,
                        %n: index) -> (tensor<128x128xf32, #acc>, tensor<128x128xf32, #acc>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init_acc, %pre_acc = %init_pre)
      -> (tensor<128x128xf32, #acc>, tensor<128x128xf32, #acc>) {
    %x = tileas.wgmma %a, %b, %acc : tensor<128x64xf16, #dot_a>, tensor<64x128xf16, #smem>, tensor<128x128xf32, #acc> -> tensor<128x128xf32, #acc>
    scf.yield %x, %pre_acc : tensor<128x128xf32, #acc>, tensor<128x128xf32, #acc>
  } {sliceCount = 2 : i32}
  return %r#0, %r#1 : tensor<128x128xf32, #acc>, tensor<128x128xf32, #acc>
}

// -----

// Feeding the terminator at another position keeps both arguments live
// (the loop swaps them); an unused argument whose result is used stays.
// CHECK-LABEL: func.func @live
// CHECK: scf.for {{.*}} iter_args(%[[A:.*]] = %arg0, %[[B:.*]] = %arg1, %[[C:.*]] = %arg2) -> (f32, f32, f32)
// CHECK-NEXT: %[[S:.*]] = arith.addf
// CHECK-NEXT: scf.yield %[[B]], %[[A]], %[[S]]
func.func @live(%x: f32, %y: f32, %z: f32, %n: index) -> (f32, f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %y, %c = %z) -> (f32, f32, f32) {
    %s = arith.addf %x, %y : f32
    scf.yield %b, %a, %s : f32, f32, f32
  }
  return %r#0, %r#1, %r#2 : f32, f32, f32
}

// -----

// An unused argument with an unused result goes, its yield operand too,
// and the computation of that operand, now dead, goes with the pass's
// closing cleanup (so that a second run finds nothing to remove).
// CHECK-LABEL: func.func @unused
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[A:.*]] = %arg0) -> (f32)
// CHECK-NEXT: %[[D:.*]] = arith.addf %[[A]], %[[A]]
// CHECK-NOT: arith.mulf
// CHECK: scf.yield %[[D]] : f32
// CHECK: return %[[R]]
func.func @unused(%x: f32, %y: f32, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %y) -> (f32, f32) {
    %d = arith.addf %a, %a : f32
    %e = arith.mulf %x, %x : f32
    scf.yield %d, %e : f32, f32
  }
  return %r#0 : f32
}

// -----

// tileas.async.pipeline.execute: the unused block argument goes with its
// operand.
// CHECK-LABEL: func.func @execute
// CHECK: tileas.async.pipeline.execute(%arg1 : f32) -> f32 {
// CHECK-NEXT: ^bb0(%[[B:.*]]: f32):
// CHECK-NEXT: tileas.async.pipeline.yield %[[B]] : f32
func.func @execute(%x: f32, %y: f32) -> f32 {
  %r = tileas.async.pipeline.execute (%x, %y : f32, f32) -> f32 {
  ^bb0(%a: f32, %b: f32):
    tileas.async.pipeline.yield %b : f32
  }
  return %r : f32
}

// -----

// tileas.async.pipeline.execute: an unused result goes with its yield
// operand.
// CHECK-LABEL: func.func @execute_result
// CHECK: %[[R:.*]] = tileas.async.pipeline.execute(%arg0 : f32) -> f32 {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32):
// CHECK-NEXT: tileas.async.pipeline.yield %[[A]] : f32
// CHECK: return %[[R]]
func.func @execute_result(%x: f32, %y: f32) -> f32 {
  %r:2 = tileas.async.pipeline.execute (%x : f32) -> f32, f32 {
  ^bb0(%a: f32):
    tileas.async.pipeline.yield %a, %y : f32, f32
  }
  return %r#0 : f32
}

// -----

// scf.while, before region: %b has no use. It goes with its init %y and
// the after region's yield operand 1 (the results come from the
// condition, not from the before arguments).
// CHECK-LABEL: func.func @while_unused_before
// CHECK: %[[R:.*]] = scf.while (%[[A:.*]] = %arg0) : (f32) -> f32 {
// CHECK: scf.condition(%{{.*}}) %[[A]] : f32
// CHECK: ^bb0(%[[D:.*]]: f32):
// CHECK-NEXT: %[[E:.*]] = arith.addf %[[D]], %[[D]]
// CHECK-NEXT: scf.yield %[[E]] : f32
// CHECK: return %[[R]]
func.func @while_unused_before(%x: f32, %y: f32) -> f32 {
  %r = scf.while (%a = %x, %b = %y) : (f32, f32) -> f32 {
    %c = arith.cmpf olt, %a, %x : f32
    scf.condition(%c) %a : f32
  } do {
  ^bb0(%d: f32):
    %e = arith.addf %d, %d : f32
    scf.yield %e, %e : f32, f32
  }
  return %r : f32
}

// -----

// scf.while, after region: condition operand 1 reaches %e and %r#1, and
// neither has a use: the operand, the argument and the result go, then
// the mulf that computed the operand (dead now) goes with the cleanup.
// CHECK-LABEL: func.func @while_unused_after
// CHECK: %[[R:.*]] = scf.while (%[[A:.*]] = %arg0) : (f32) -> f32 {
// CHECK-NOT: arith.mulf
// CHECK: scf.condition(%{{.*}}) %[[A]] : f32
// CHECK: ^bb0(%[[D:.*]]: f32):
// CHECK: return %[[R]]
func.func @while_unused_after(%x: f32, %y: f32) -> f32 {
  %r:2 = scf.while (%a = %x) : (f32) -> (f32, f32) {
    %c = arith.cmpf olt, %a, %y : f32
    %m = arith.mulf %a, %y : f32
    scf.condition(%c) %a, %m : f32, f32
  } do {
  ^bb0(%d: f32, %e: f32):
    %s = arith.addf %d, %d : f32
    scf.yield %s : f32
  }
  return %r#0 : f32
}

// -----

// scf.while carrying a value unchanged: %b is only passed on as condition
// operand 1, %e only yielded back at position 1, so every iteration sees
// %y. Both sides go (init, before argument, condition operand, after
// argument, yield operand, result) and %r#1 becomes %y (the while's
// analogue of an iter-arg only yielded back).
// CHECK-LABEL: func.func @while_carried
// CHECK: %[[R:.*]] = scf.while (%[[A:.*]] = %arg0) : (f32) -> f32 {
// CHECK: scf.condition(%{{.*}}) %[[A]] : f32
// CHECK: ^bb0(%[[D:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[D]], %[[D]]
// CHECK-NEXT: scf.yield %[[S]] : f32
// CHECK: return %[[R]], %arg1 : f32, f32
func.func @while_carried(%x: f32, %y: f32) -> (f32, f32) {
  %r:2 = scf.while (%a = %x, %b = %y) : (f32, f32) -> (f32, f32) {
    %c = arith.cmpf olt, %a, %x : f32
    scf.condition(%c) %a, %b : f32, f32
  } do {
  ^bb0(%d: f32, %e: f32):
    %s = arith.addf %d, %d : f32
    scf.yield %s, %e : f32, f32
  }
  return %r#0, %r#1 : f32, f32
}

// -----

// Arguments that rotate between positions stay, even with unused results:
// %a goes to condition operand 1, %e to before argument 1, %b to condition
// operand 0, %d to before argument 0, so the two values change places every
// iteration (the cycle meets the before region twice).
// CHECK-LABEL: func.func @while_rotation
// CHECK: scf.while (%[[A:.*]] = %arg0, %[[B:.*]] = %arg1) : (f32, f32) -> (f32, f32) {
// CHECK: scf.condition(%{{.*}}) %[[B]], %[[A]] : f32, f32
// CHECK: ^bb0(%[[D:.*]]: f32, %[[E:.*]]: f32):
// CHECK-NEXT: scf.yield %[[D]], %[[E]] : f32, f32
func.func @while_rotation(%x: f32, %y: f32, %z: f32) {
  %r:2 = scf.while (%a = %x, %b = %y) : (f32, f32) -> (f32, f32) {
    %c = arith.cmpf olt, %z, %x : f32
    scf.condition(%c) %b, %a : f32, f32
  } do {
  ^bb0(%d: f32, %e: f32):
    scf.yield %d, %e : f32, f32
  }
  return
}

// -----

// scf.if: results 0 and 2 have no use. Each goes with both yields'
// operands (erased from the highest index down); result 1 stays. The
// computations of the dropped operands go with the cleanup.
// CHECK-LABEL: func.func @if_unused
// CHECK: %[[R:.*]] = scf.if %arg0 -> (f32) {
// CHECK-NEXT: %[[M:.*]] = arith.mulf %arg1, %arg2
// CHECK-NEXT: scf.yield %[[M]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %arg1 : f32
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]] : f32
func.func @if_unused(%c: i1, %x: f32, %y: f32) -> f32 {
  %r:3 = scf.if %c -> (f32, f32, f32) {
    %a = arith.addf %x, %y : f32
    %m = arith.mulf %x, %y : f32
    scf.yield %a, %m, %y : f32, f32, f32
  } else {
    %s = arith.subf %x, %y : f32
    scf.yield %s, %x, %y : f32, f32, f32
  }
  return %r#1 : f32
}
