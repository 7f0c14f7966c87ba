// tileas-remove-buffer-alias: selects of buffers and loop-carried buffers
// onto their canonical allocation; untraceable aliases get the fixed
// warning (docs/design.md §6.7) and stay.
// RUN: layoutkit-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(tileas-remove-buffer-alias))' | FileCheck %s
// RUN: layoutkit-opt %s --split-input-file --verify-diagnostics --tileas-layout-pipeline | FileCheck %s --check-prefix=PIPE
// The option explain=true reports, per function, the sweeps that rewrote
// an alias and the depth of the deepest alias chain rewritten (alias ops
// between the alias and its allocation), in the order of the functions:
// RUN: layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tileas-remove-buffer-alias{explain=true}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN

#smem = #tileas.encoding<smem, shared>

// The double buffer of docs/design.md §6.6: the select of %a (offset 0)
// and its view at 8192 becomes one view of %a at select(%flag, 0, 8192).
// CHECK-LABEL: func.func @select_of_views
// The pass's closing cleanup puts the offset constants at the top.
// CHECK-DAG: %[[A:.*]] = tileas.alloc_tensor
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C8K:.*]] = arith.constant 8192 : index
// CHECK: %[[OFF:.*]] = arith.select %arg0, %[[C0]], %[[C8K]] : index
// CHECK: %[[V:.*]] = tileas.view %[[A]][%[[OFF]]]
// CHECK-NOT: tileas.select
// CHECK: return %[[V]]
// select(%a, view(%a)): chain of depth 2 (select, view), one sweep.
// EXPLAIN: remark: buffer aliases: 1 sweeps rewrote, deepest alias chain 2
func.func @select_of_views(%flag: i1) -> tensor<128x64xf16, #smem> {
  %a = tileas.alloc_tensor : tensor<128x64xf16, #smem>
  %b = tileas.view %a {offset = 8192} : tensor<128x64xf16, #smem> -> tensor<128x64xf16, #smem>
  %buf = tileas.select %flag, %a, %b : tensor<128x64xf16, #smem>
  return %buf : tensor<128x64xf16, #smem>
}

// -----

// Offsets accumulate along view chains: 4096 + 4096 against 8192 is the
// same place, a constant offset.
#smem = #tileas.encoding<smem, shared>
// CHECK-LABEL: func.func @same_place
// CHECK: %[[A:.*]] = tileas.alloc_tensor
// CHECK: tileas.view %[[A]] {offset = 8192 : i64}
// CHECK-NOT: arith.select
func.func @same_place(%flag: i1) -> tensor<64x64xf16, #smem> {
  %a = tileas.alloc_tensor : tensor<64x64xf16, #smem>
  %v1 = tileas.view %a {offset = 4096} : tensor<64x64xf16, #smem> -> tensor<64x64xf16, #smem>
  %v2 = tileas.view %v1 {offset = 4096} : tensor<64x64xf16, #smem> -> tensor<64x64xf16, #smem>
  %v3 = tileas.view %a {offset = 8192} : tensor<64x64xf16, #smem> -> tensor<64x64xf16, #smem>
  %buf = tileas.select %flag, %v2, %v3 : tensor<64x64xf16, #smem>
  return %buf : tensor<64x64xf16, #smem>
}

// -----

// Arms in different allocations are not an alias; a function argument is
// untraceable. Both keep their select, with the fixed warning (§6.7).
#smem = #tileas.encoding<smem, shared>
// CHECK-LABEL: func.func @not_aliases
// CHECK: tileas.select
// CHECK: tileas.select
func.func @not_aliases(%flag: i1, %p: tensor<64x64xf16, #smem>) -> (tensor<64x64xf16, #smem>, tensor<64x64xf16, #smem>) {
  %a = tileas.alloc_tensor : tensor<64x64xf16, #smem>
  %b = tileas.alloc_tensor : tensor<64x64xf16, #smem>
  // expected-warning @+1 {{Cannot find last written SSA.}}
  %s1 = tileas.select %flag, %a, %b : tensor<64x64xf16, #smem>
  // expected-warning @+1 {{Cannot find last written SSA.}}
  %s2 = tileas.select %flag, %a, %p : tensor<64x64xf16, #smem>
  return %s1, %s2 : tensor<64x64xf16, #smem>, tensor<64x64xf16, #smem>
}

// -----

// A select whose layout differs from the allocation's goes through a copy
// into a fresh buffer of the select's layout.
#plain = #tileas.encoding<smem, shared, layout = #tileas.layout<(64,64),(64,1)>>
#swz = #tileas.encoding<smem, shared, layout = #tileas.layout<(64,64),(64,1),swizzle<3,4,3>>>
// CHECK-LABEL: func.func @layout_changes
// CHECK: %[[A:.*]] = tileas.alloc_tensor : tensor<64x64xf16, {{.*}}(64,1)>>>
// CHECK: %[[V:.*]] = tileas.view %[[A]][%{{.*}}]
// CHECK: %[[F:.*]] = tileas.alloc_tensor : {{.*}}swizzle<3,4,3>
// CHECK: %[[C:.*]] = tileas.copy %[[V]], %[[F]] {atom = "universal"}
// CHECK: return %[[C]]
func.func @layout_changes(%flag: i1) -> tensor<64x64xf16, #swz> {
  %a = tileas.alloc_tensor : tensor<64x64xf16, #plain>
  %v = tileas.view %a {offset = 4096} : tensor<64x64xf16, #plain> -> tensor<64x64xf16, #swz>
  %w = tileas.view %a {offset = 0} : tensor<64x64xf16, #plain> -> tensor<64x64xf16, #swz>
  %buf = tileas.select %flag, %v, %w : tensor<64x64xf16, #swz>
  return %buf : tensor<64x64xf16, #swz>
}

// -----

// The loop-carried alias of docs/design.md §6.6: every iteration yields
// %a. Uses of %buf refer to %a; remove-dead-args then drops the iter-arg.
#smem = #tileas.encoding<smem, shared>
// CHECK-LABEL: func.func @loop_carried
// CHECK: %[[A:.*]] = tileas.alloc_tensor
// CHECK: scf.for
// CHECK-NEXT: tileas.tiled_load %[[A]]
// PIPE-LABEL: func.func @loop_carried
// PIPE: %[[A:.*]] = tileas.alloc_tensor
// PIPE: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// PIPE-NEXT: tileas.tiled_load %[[A]]
func.func @loop_carried(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tileas.alloc_tensor : tensor<128x64xf16, #smem>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%buf = %a) -> tensor<128x64xf16, #smem> {
    %x = tileas.tiled_load %buf : tensor<128x64xf16, #smem> -> tensor<128x64xf16>
    scf.yield %a : tensor<128x64xf16, #smem>
  }
  return
}

// -----

// An alias chain of depth N = 5: select(view(view(view(view(%a)))), %a).
// docs/design.md §6.6 bounds the sweeps by N (each removes a hop); the
// tracer follows the whole chain in one trace, so one sweep rewrites it
// and the next finds nothing: 1 <= 5. The offset is 4 x 1024.
#smem = #tileas.encoding<smem, shared>
// CHECK-LABEL: func.func @chain
// CHECK-DAG: %[[A:.*]] = tileas.alloc_tensor
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C4K:.*]] = arith.constant 4096 : index
// CHECK: %[[OFF:.*]] = arith.select %arg0, %[[C4K]], %[[C0]] : index
// CHECK: %[[V:.*]] = tileas.view %[[A]][%[[OFF]]]
// CHECK: return %[[V]]
// EXPLAIN: remark: buffer aliases: 1 sweeps rewrote, deepest alias chain 5
func.func @chain(%flag: i1) -> tensor<32x32xf16, #smem> {
  %a = tileas.alloc_tensor : tensor<32x32xf16, #smem>
  %v1 = tileas.view %a {offset = 1024} : tensor<32x32xf16, #smem> -> tensor<32x32xf16, #smem>
  %v2 = tileas.view %v1 {offset = 1024} : tensor<32x32xf16, #smem> -> tensor<32x32xf16, #smem>
  %v3 = tileas.view %v2 {offset = 1024} : tensor<32x32xf16, #smem> -> tensor<32x32xf16, #smem>
  %v4 = tileas.view %v3 {offset = 1024} : tensor<32x32xf16, #smem> -> tensor<32x32xf16, #smem>
  %buf = tileas.select %flag, %v4, %a : tensor<32x32xf16, #smem>
  return %buf : tensor<32x32xf16, #smem>
}

// -----

// Through scf.if results: %r is %a at 4096 on %flag, %a at 0 otherwise,
// so the select of %r and %a is the view of %a at
// select(%other, select(%flag, 4096, 0), 0). Depth 3: select, if, view.
#smem = #tileas.encoding<smem, shared>
// CHECK-LABEL: func.func @if_result
// CHECK-DAG: %[[A:.*]] = tileas.alloc_tensor
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C4K:.*]] = arith.constant 4096 : index
// CHECK: %[[IN:.*]] = arith.select %arg0, %[[C4K]], %[[C0]] : index
// CHECK: %[[OFF:.*]] = arith.select %arg1, %[[IN]], %[[C0]] : index
// CHECK: %[[V:.*]] = tileas.view %[[A]][%[[OFF]]]
// CHECK-NOT: tileas.select
// CHECK: return %[[V]]
// EXPLAIN: remark: buffer aliases: 1 sweeps rewrote, deepest alias chain 3
func.func @if_result(%flag: i1, %other: i1) -> tensor<64x64xf16, #smem> {
  %a = tileas.alloc_tensor : tensor<64x64xf16, #smem>
  %r = scf.if %flag -> (tensor<64x64xf16, #smem>) {
    %v = tileas.view %a {offset = 4096} : tensor<64x64xf16, #smem> -> tensor<64x64xf16, #smem>
    scf.yield %v : tensor<64x64xf16, #smem>
  } else {
    scf.yield %a : tensor<64x64xf16, #smem>
  }
  %buf = tileas.select %other, %r, %a : tensor<64x64xf16, #smem>
  return %buf : tensor<64x64xf16, #smem>
}

// -----

// An scf.if result whose offset is computed inside a branch does not reach
// the select after the if: untraceable, the warning, nothing built.
#smem = #tileas.encoding<smem, shared>
// CHECK-LABEL: func.func @if_inner_offset
// CHECK-NOT: arith.select
// CHECK: tileas.select
func.func @if_inner_offset(%flag: i1, %i: index) -> tensor<64x64xf16, #smem> {
  %a = tileas.alloc_tensor : tensor<64x64xf16, #smem>
  %r = scf.if %flag -> (tensor<64x64xf16, #smem>) {
    %j = arith.addi %i, %i : index
    %v = tileas.view %a[%j] : tensor<64x64xf16, #smem> -> tensor<64x64xf16, #smem>
    scf.yield %v : tensor<64x64xf16, #smem>
  } else {
    scf.yield %a : tensor<64x64xf16, #smem>
  }
  // expected-warning @+1 {{Cannot find last written SSA.}}
  %buf = tileas.select %flag, %r, %a : tensor<64x64xf16, #smem>
  return %buf : tensor<64x64xf16, #smem>
}

// -----

// Untraceable producers, each with the fixed warning (docs/design.md
// §6.7) and the alias left in place: a buffer made by arith (arith.select
// of two buffers), a buffer pointer synthesised by affine.apply (cast to a
// buffer), a buffer returned by a call.
#smem = #tileas.encoding<smem, shared>
func.func private @make() -> tensor<64x64xf16, #smem>
// CHECK-LABEL: func.func @untraceable
// CHECK-COUNT-3: tileas.select
func.func @untraceable(%flag: i1, %i: index)
    -> (tensor<64x64xf16, #smem>, tensor<64x64xf16, #smem>, tensor<64x64xf16, #smem>) {
  %a = tileas.alloc_tensor : tensor<64x64xf16, #smem>
  %v = tileas.view %a {offset = 4096} : tensor<64x64xf16, #smem> -> tensor<64x64xf16, #smem>
  %ar = arith.select %flag, %a, %v : tensor<64x64xf16, #smem>
  // expected-warning @+1 {{Cannot find last written SSA.}}
  %s1 = tileas.select %flag, %ar, %a : tensor<64x64xf16, #smem>
  %p = affine.apply affine_map<(d0) -> (d0 * 4096)>(%i)
  %ap = builtin.unrealized_conversion_cast %p : index to tensor<64x64xf16, #smem>
  // expected-warning @+1 {{Cannot find last written SSA.}}
  %s2 = tileas.select %flag, %a, %ap : tensor<64x64xf16, #smem>
  %c = func.call @make() : () -> tensor<64x64xf16, #smem>
  // expected-warning @+1 {{Cannot find last written SSA.}}
  %s3 = tileas.select %flag, %c, %v : tensor<64x64xf16, #smem>
  return %s1, %s2, %s3 : tensor<64x64xf16, #smem>, tensor<64x64xf16, #smem>, tensor<64x64xf16, #smem>
}

// -----

// Offsets are summed with a check. view(view(%a, 2^63-1), 2^63-1) would
// wrap to -2: the select keeps its alias, with a warning naming the
// overflow. One less than 2^63 in two steps (2^62 + (2^62-1)) is still
// representable and folds into one view at 9223372036854775807.
#smem = #tileas.encoding<smem, shared>
// CHECK-LABEL: func.func @offset_overflow
// CHECK: %[[S:.*]] = tileas.select
// CHECK: tileas.view %{{.*}} {offset = 9223372036854775807 : i64}
// CHECK-NOT: offset = -
// CHECK: return %[[S]]
func.func @offset_overflow(%flag: i1) -> (tensor<64x64xf16, #smem>, tensor<64x64xf16, #smem>) {
  %a = tileas.alloc_tensor : tensor<64x64xf16, #smem>
  %v1 = tileas.view %a {offset = 9223372036854775807} : tensor<64x64xf16, #smem> -> tensor<64x64xf16, #smem>
  %v2 = tileas.view %v1 {offset = 9223372036854775807} : tensor<64x64xf16, #smem> -> tensor<64x64xf16, #smem>
  // expected-warning @+1 {{alias offsets sum past 2^63-1 (views of views); the alias stays}}
  %s = tileas.select %flag, %v2, %a : tensor<64x64xf16, #smem>
  %w1 = tileas.view %a {offset = 4611686018427387904} : tensor<64x64xf16, #smem> -> tensor<64x64xf16, #smem>
  %w2 = tileas.view %w1 {offset = 4611686018427387903} : tensor<64x64xf16, #smem> -> tensor<64x64xf16, #smem>
  %t = tileas.select %flag, %w2, %w2 : tensor<64x64xf16, #smem>
  return %s, %t : tensor<64x64xf16, #smem>, tensor<64x64xf16, #smem>
}

// -----

// A loop-carried alias through the body: the iter-arg is selected against
// a view of itself, and the yield is a view of it at offset 0. Traced
// with the iter-arg taken as its init (%a at 0), the yield is %a at 0 +
// 0: every iteration sees %a, so the select becomes a view of %a at 0 and
// the uses of the iter-arg refer to %a (no warning). The pipeline's
// remove-dead-args then drops the iter-arg.
#smem = #tileas.encoding<smem, shared>
// CHECK-LABEL: func.func @alias_through_body
// CHECK: %[[A:.*]] = tileas.alloc_tensor
// CHECK: scf.for
// CHECK-NOT: tileas.select
// CHECK: %[[V:.*]] = tileas.view %[[A]] {offset = 0 : i64}
// CHECK-NEXT: tileas.tiled_load %[[V]]
// PIPE-LABEL: func.func @alias_through_body
// PIPE: %[[A:.*]] = tileas.alloc_tensor
// PIPE: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// PIPE-NOT: tileas.select
// PIPE: tileas.tiled_load %{{.*}}
// PIPE-NEXT: }
func.func @alias_through_body(%n: index, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tileas.alloc_tensor : tensor<128x64xf16, #smem>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%buf = %a) -> tensor<128x64xf16, #smem> {
    %v = tileas.view %buf {offset = 0} : tensor<128x64xf16, #smem> -> tensor<128x64xf16, #smem>
    %s = tileas.select %flag, %buf, %v : tensor<128x64xf16, #smem>
    %x = tileas.tiled_load %s : tensor<128x64xf16, #smem> -> tensor<128x64xf16>
    %y = tileas.view %buf {offset = 0} : tensor<128x64xf16, #smem> -> tensor<128x64xf16, #smem>
    scf.yield %y : tensor<128x64xf16, #smem>
  }
  return
}

// -----

// The same loop yielding a view at offset 64: iteration k sees %a at 64k,
// so the iter-arg is not one buffer and neither the loop nor the select in
// its body is an alias; both keep their alias with the warning.
#smem = #tileas.encoding<smem, shared>
// CHECK-LABEL: func.func @moving_through_body
// CHECK: tileas.select
func.func @moving_through_body(%n: index, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tileas.alloc_tensor : tensor<128x64xf16, #smem>
  // expected-warning @+1 {{Cannot find last written SSA.}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%buf = %a) -> tensor<128x64xf16, #smem> {
    %v = tileas.view %buf {offset = 0} : tensor<128x64xf16, #smem> -> tensor<128x64xf16, #smem>
    // expected-warning @+1 {{Cannot find last written SSA.}}
    %s = tileas.select %flag, %buf, %v : tensor<128x64xf16, #smem>
    %x = tileas.tiled_load %s : tensor<128x64xf16, #smem> -> tensor<128x64xf16>
    %y = tileas.view %buf {offset = 64} : tensor<128x64xf16, #smem> -> tensor<128x64xf16, #smem>
    scf.yield %y : tensor<128x64xf16, #smem>
  }
  return
}
