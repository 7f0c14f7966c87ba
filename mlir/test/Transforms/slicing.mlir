// tileas-slicing: an scf.for carrying sliceCount = N becomes N consecutive
// loops over equal sub-ranges, each a clone of the body on its own
// induction variable. Slice k + 1 starts from slice k's results, so the
// slices compute what the loop did (docs/design.md §4.1: the source
// example starts both slices from %init, dropping the first slice's work).
// RUN: layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tileas-slicing))' | FileCheck %s

#gmem = #tileas.encoding<global, linear>
#smem = #tileas.encoding<smem, shared>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>
#acc = #tileas.encoding<register, blocked>

// docs/design.md §6.6: 64 iterations in 2 slices of 64 / 2 = 32, split at
// 0 + 32 * 1 = 32. The load indexed by the induction variable reads rows
// [0, 32) in the first slice and [32, 64) in the second; the second slice's
// accumulator starts from the first slice's result, and the function
// returns the second's.
// CHECK-LABEL: func.func @spec_example
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[R0:.*]] = scf.for %[[I:.*]] = %[[C0]] to %[[C32]] step %[[C1]] iter_args(%[[ACC0:.*]] = %arg2) -> (tensor<128x128xf32, #tileas.encoding<register, blocked>>) {
// CHECK-NEXT: %[[A0:.*]] = tileas.tiled_load %arg0[%[[I]], %[[C0]]]
// CHECK-NEXT: %[[X0:.*]] = tileas.wgmma %[[A0]], %arg1, %[[ACC0]]
// CHECK-NEXT: scf.yield %[[X0]]
// CHECK-NEXT: }{{$}}
// CHECK-NEXT: %[[R1:.*]] = scf.for %[[J:.*]] = %[[C32]] to %[[C64]] step %[[C1]] iter_args(%[[ACC1:.*]] = %[[R0]]) -> (tensor<128x128xf32, #tileas.encoding<register, blocked>>) {
// CHECK-NEXT: %[[A1:.*]] = tileas.tiled_load %arg0[%[[J]], %[[C0]]]
// CHECK-NEXT: %[[X1:.*]] = tileas.wgmma %[[A1]], %arg1, %[[ACC1]]
// CHECK-NEXT: scf.yield %[[X1]]
// CHECK-NEXT: }{{$}}
// CHECK-NEXT: return %[[R1]]
func.func @spec_example(%src: tensor<192x64xf16, #gmem>, %b: tensor<64x128xf16, #smem>,
                        %init: tensor<128x128xf32, #acc>) -> tensor<128x128xf32, #acc> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %r = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %init) -> tensor<128x128xf32, #acc> {
    %a = tileas.tiled_load %src[%i, %c0] : tensor<192x64xf16, #gmem> -> tensor<128x64xf16, #dot_a>
    %x = tileas.wgmma %a, %b, %acc : tensor<128x64xf16, #dot_a>, tensor<64x128xf16, #smem>,
        tensor<128x128xf32, #acc> -> tensor<128x128xf32, #acc>
    scf.yield %x : tensor<128x128xf32, #acc>
  } {sliceCount = 2 : i32}
  return %r : tensor<128x128xf32, #acc>
}

// -----

// 0 to 64 step 2 is 32 iterations; 4 slices of 8 iterations each span
// 8 * 2 = 16: the split points are 16, 32 and 48, and every slice keeps
// the step. Two carried values travel from slice to slice together; the
// loop's other attributes stay on every slice.
// CHECK-LABEL: func.func @step_two
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[C48:.*]] = arith.constant 48 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[R0:.*]]:2 = scf.for %{{.*}} = %[[C0]] to %[[C16]] step %[[C2]] iter_args(%{{.*}} = %arg0, %{{.*}} = %arg1)
// CHECK: } {tag = "main"}
// CHECK-NEXT: %[[R1:.*]]:2 = scf.for %{{.*}} = %[[C16]] to %[[C32]] step %[[C2]] iter_args(%{{.*}} = %[[R0]]#0, %{{.*}} = %[[R0]]#1)
// CHECK: } {tag = "main"}
// CHECK-NEXT: %[[R2:.*]]:2 = scf.for %{{.*}} = %[[C32]] to %[[C48]] step %[[C2]] iter_args(%{{.*}} = %[[R1]]#0, %{{.*}} = %[[R1]]#1)
// CHECK: } {tag = "main"}
// CHECK-NEXT: %[[R3:.*]]:2 = scf.for %{{.*}} = %[[C48]] to %[[C64]] step %[[C2]] iter_args(%{{.*}} = %[[R2]]#0, %{{.*}} = %[[R2]]#1)
// CHECK: } {tag = "main"}
// CHECK-NEXT: return %[[R3]]#1, %[[R3]]#0
// CHECK-NOT: scf.for
func.func @step_two(%x: f32, %y: f32) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %r:2 = scf.for %i = %c0 to %c64 step %c2 iter_args(%a = %x, %b = %y) -> (f32, f32) {
    %s = arith.addf %a, %b : f32
    scf.yield %b, %s : f32, f32
  } {sliceCount = 4 : i32, tag = "main"}
  return %r#1, %r#0 : f32, f32
}

// -----

// A lower bound computed from an enclosing induction variable: 64 * %j
// to 64 * %j + 64 step 8 is 8 iterations whatever %j is; 4 slices of 2
// iterations span 16, so the split points are %lb + 16, %lb + 32 and
// %lb + 48, and the last slice ends at the loop's own upper bound.
#smem = #tileas.encoding<smem, shared>

// CHECK-LABEL: func.func @dynamic_lower_bound
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[C48:.*]] = arith.constant 48 : index
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: %[[LB:.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK-NEXT: %[[UB:.*]] = arith.addi %[[LB]], %{{.*}} : index
// CHECK-NEXT: %[[S1:.*]] = arith.addi %[[LB]], %[[C16]] : index
// CHECK-NEXT: scf.for %[[I0:.*]] = %[[LB]] to %[[S1]] step %{{.*}} {
// CHECK-NEXT: tileas.tiled_store %arg1, %arg0[%[[I0]], %[[J]]]
// CHECK: %[[S2:.*]] = arith.addi %[[LB]], %[[C32]] : index
// CHECK-NEXT: scf.for %{{.*}} = %[[S1]] to %[[S2]] step
// CHECK: %[[S3:.*]] = arith.addi %[[LB]], %[[C48]] : index
// CHECK-NEXT: scf.for %{{.*}} = %[[S2]] to %[[S3]] step
// CHECK: scf.for %{{.*}} = %[[S3]] to %[[UB]] step
// CHECK-NOT: sliceCount
func.func @dynamic_lower_bound(%buf: tensor<512x8xf32, #smem>, %t: tensor<1x1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  scf.for %j = %c0 to %c4 step %c1 {
    %lb = arith.muli %j, %c64 : index
    %ub = arith.addi %lb, %c64 : index
    scf.for %i = %lb to %ub step %c8 {
      tileas.tiled_store %t, %buf[%i, %j] : tensor<1x1xf32> -> tensor<512x8xf32, #smem>
    } {sliceCount = 4 : i32}
  }
  return
}

// -----

// The lower bound of docs/design.md §4.1: an affine.apply over the induction
// variable of an enclosing loop. lb = 64 * %j + 16 (through a symbol
// operand of 16) and ub = lb + 64 (an affine.apply of lb) are 8 iterations
// of step 8 whatever %j is; 2 slices of 4 iterations span 32: the split
// point is %lb + 32 and the second slice ends at the loop's own bound. The
// body's own affine.apply (the row of the store) is cloned per slice.
#smem = #tileas.encoding<smem, shared>

// CHECK-LABEL: func.func @affine_lower_bound
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: %[[LB:.*]] = affine.apply #{{.*}}(%[[J]])[%{{.*}}]
// CHECK-NEXT: %[[UB:.*]] = affine.apply #{{.*}}(%[[LB]])
// CHECK-NEXT: %[[S1:.*]] = arith.addi %[[LB]], %[[C32]] : index
// CHECK-NEXT: scf.for %[[I0:.*]] = %[[LB]] to %[[S1]] step %{{.*}} {
// CHECK-NEXT: %[[R0:.*]] = affine.apply #{{.*}}(%[[I0]])
// CHECK-NEXT: tileas.tiled_store %arg1, %arg0[%[[R0]], %[[J]]]
// CHECK: scf.for %[[I1:.*]] = %[[S1]] to %[[UB]] step
// CHECK-NEXT: %[[R1:.*]] = affine.apply #{{.*}}(%[[I1]])
// CHECK-NEXT: tileas.tiled_store %arg1, %arg0[%[[R1]], %[[J]]]
// CHECK-NOT: sliceCount
func.func @affine_lower_bound(%buf: tensor<512x8xf32, #smem>, %t: tensor<1x1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  scf.for %j = %c0 to %c4 step %c1 {
    %lb = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0)>(%j)[%c16]
    %ub = affine.apply affine_map<(d0) -> (d0 + 64)>(%lb)
    scf.for %i = %lb to %ub step %c8 {
      %row = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%i)
      tileas.tiled_store %t, %buf[%row, %j] : tensor<1x1xf32> -> tensor<512x8xf32, #smem>
    } {sliceCount = 2 : i32}
  }
  return
}

// -----

// An i32 loop: the split point is an i32 constant (3 + 6 / 2 * 1 = 6).
// sliceCount = 1 leaves one loop and drops the attribute; a loop without
// the attribute stays as it is.
// CHECK-LABEL: func.func @i32_loop
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : i32
// CHECK-DAG: %[[C9:.*]] = arith.constant 9 : i32
// CHECK: %[[R0:.*]] = scf.for %{{.*}} = %[[C3]] to %[[C6]] step %{{.*}} iter_args(%{{.*}} = %arg0) -> (i32)  : i32 {
// CHECK: %[[R1:.*]] = scf.for %{{.*}} = %[[C6]] to %[[C9]] step %{{.*}} iter_args(%{{.*}} = %[[R0]]) -> (i32)  : i32 {
// CHECK: %[[R2:.*]] = scf.for %{{.*}} = %[[C3]] to %[[C9]] step %{{.*}} iter_args(%{{.*}} = %[[R1]]) -> (i32)  : i32 {
// CHECK: }{{$}}
// CHECK: %[[R3:.*]] = scf.for %{{.*}} = %[[C3]] to %[[C9]] step %{{.*}} iter_args(%{{.*}} = %[[R2]]) -> (i32)  : i32 {
// CHECK: }{{$}}
// CHECK: return %[[R3]]
func.func @i32_loop(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c9 = arith.constant 9 : i32
  %r0 = scf.for %i = %c3 to %c9 step %c1 iter_args(%a = %x) -> (i32) : i32 {
    %s = arith.addi %a, %i : i32
    scf.yield %s : i32
  } {sliceCount = 2 : i64}
  %r1 = scf.for %i = %c3 to %c9 step %c1 iter_args(%a = %r0) -> (i32) : i32 {
    %s = arith.muli %a, %i : i32
    scf.yield %s : i32
  } {sliceCount = 1 : i32}
  %r2 = scf.for %i = %c3 to %c9 step %c1 iter_args(%a = %r1) -> (i32) : i32 {
    %s = arith.subi %a, %i : i32
    scf.yield %s : i32
  }
  return %r2 : i32
}

// -----

// A loop with no iteration (upper bound below the lower bound) has trip
// count 0, which 2 divides: both slices are empty, as the loop was.
// Nested region ops of the body (scf.if) are cloned with it.
// CHECK-LABEL: func.func @empty_and_nested
// CHECK: %[[R0:.*]] = scf.for %{{.*}} = %c8 to %c8 step %c1 iter_args(%{{.*}} = %arg1)
// CHECK: scf.if %arg0
// CHECK: %[[R1:.*]] = scf.for %{{.*}} = %c8 to %c4 step %c1 iter_args(%{{.*}} = %[[R0]])
// CHECK: scf.if %arg0
// CHECK: return %[[R1]]
func.func @empty_and_nested(%flag: i1, %x: f32) -> f32 {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c8 to %c4 step %c1 iter_args(%a = %x) -> (f32) {
    %y = scf.if %flag -> (f32) {
      %n = arith.negf %a : f32
      scf.yield %n : f32
    } else {
      scf.yield %a : f32
    }
    scf.yield %y : f32
  } {sliceCount = 2 : i32}
  return %r : f32
}
