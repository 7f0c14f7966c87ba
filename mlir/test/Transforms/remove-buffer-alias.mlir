// tileas-remove-buffer-alias: selects of buffers and loop-carried buffers
// onto their canonical allocation; untraceable aliases get the spec's
// warning and stay.
// RUN: layoutkit-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(tileas-remove-buffer-alias))' | FileCheck %s
// RUN: layoutkit-opt %s --split-input-file --verify-diagnostics --tileas-layout-pipeline | FileCheck %s --check-prefix=PIPE

#smem = #tileas.encoding<smem, shared>

// The spec's double buffer: the select of %a (offset 0) and its view at
// 8192 becomes one view of %a at select(%flag, 0, 8192).
// CHECK-LABEL: func.func @select_of_views
// The pass's closing cleanup puts the offset constants at the top.
// CHECK-DAG: %[[A:.*]] = tileas.alloc_tensor
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C8K:.*]] = arith.constant 8192 : index
// CHECK: %[[OFF:.*]] = arith.select %arg0, %[[C0]], %[[C8K]] : index
// CHECK: %[[V:.*]] = tileas.view %[[A]][%[[OFF]]]
// CHECK-NOT: tileas.select
// CHECK: return %[[V]]
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
// untraceable. Both keep their select, with the spec's warning.
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

// The spec's loop-carried alias: every iteration yields %a. Uses of %buf
// refer to %a; the pipeline's remove-dead-args then drops the iter-arg.
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
