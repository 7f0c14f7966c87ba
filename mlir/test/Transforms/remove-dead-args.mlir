// tileas-remove-dead-args: dead iter-args of scf.for and dead block
// arguments of tileas.async.pipeline.execute.
// RUN: layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tileas-remove-dead-args))' | FileCheck %s

#smem = #tileas.encoding<smem, shared>
#acc = #tileas.encoding<register, blocked>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>

// The spec's example: %pre_acc is only yielded back at its own position.
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
