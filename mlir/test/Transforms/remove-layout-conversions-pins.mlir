// The conversions tileas-remove-layout-conversions must keep: each rule
// that pins a buffer's layout between its producer and the conversion, and
// the conversions between memory kinds, next to the cases that do fold.
// RUN: layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tileas-remove-layout-conversions))' | FileCheck %s

#blocked = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#swizzled = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>

// An async_wait between the producer and the conversion pins the layout:
// the buffer may still be written by an asynchronous copy.
// CHECK-LABEL: func.func @async_wait_pins
// CHECK-NEXT: %[[A:.*]] = tileas.alloc_tensor : tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>>
// CHECK-NEXT: tileas.async_wait {pending = 0 : i64}
// CHECK-NEXT: %[[C:.*]] = tileas.convert_layout %[[A]]
// CHECK-NEXT: return %[[C]]
func.func @async_wait_pins() -> tensor<128x64xf16, #swizzled> {
  %a = tileas.alloc_tensor : tensor<128x64xf16, #blocked>
  tileas.async_wait {pending = 0}
  %c = tileas.convert_layout %a : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #swizzled>
  return %c : tensor<128x64xf16, #swizzled>
}

// -----

#blocked = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#swizzled = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
#slot = #tileas.encoding<smem, shared>

// A produce_one of depth 2 between them pins it (the pipeline keeps two
// stages in flight); one of depth 1 does not, and the producer is retyped.
// CHECK-LABEL: func.func @produce_depth
// CHECK-NEXT: %[[A:.*]] = tileas.alloc_tensor : tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>>
// CHECK-NEXT: tileas.produce_one %arg0 {depth = 2 : i64}
// CHECK-NEXT: %[[C:.*]] = tileas.convert_layout %[[A]]
// CHECK-NEXT: %[[B:.*]] = tileas.alloc_tensor : tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>>
// CHECK-NEXT: tileas.produce_one %arg0 {depth = 1 : i64}
// CHECK-NEXT: return %[[C]], %[[B]]
func.func @produce_depth(%x: tensor<128x64xf16>) -> (tensor<128x64xf16, #swizzled>, tensor<128x64xf16, #swizzled>) {
  %a = tileas.alloc_tensor : tensor<128x64xf16, #blocked>
  %s2 = tileas.produce_one %x {depth = 2} : tensor<128x64xf16> -> tensor<128x64xf16, #slot>
  %c = tileas.convert_layout %a : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #swizzled>
  %b = tileas.alloc_tensor : tensor<128x64xf16, #blocked>
  %s1 = tileas.produce_one %x {depth = 1} : tensor<128x64xf16> -> tensor<128x64xf16, #slot>
  %d = tileas.convert_layout %b : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #swizzled>
  return %c, %d : tensor<128x64xf16, #swizzled>, tensor<128x64xf16, #swizzled>
}

// -----

#blocked = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#swizzled = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>

// A fence pins it; without one the producer is retyped.
// CHECK-LABEL: func.func @fence_pins
// CHECK-NEXT: %[[A:.*]] = tileas.alloc_tensor : tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>>
// CHECK-NEXT: tileas.fence "async_proxy"
// CHECK-NEXT: %[[C:.*]] = tileas.convert_layout %[[A]]
// CHECK-NEXT: return %[[C]]
func.func @fence_pins() -> tensor<128x64xf16, #swizzled> {
  %a = tileas.alloc_tensor : tensor<128x64xf16, #blocked>
  tileas.fence "async_proxy"
  %c = tileas.convert_layout %a : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #swizzled>
  return %c : tensor<128x64xf16, #swizzled>
}

// -----

#blocked = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#swizzled = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
#tmem = #tileas.encoding<tmem, linear, layout = #tileas.layout<(128,64),(64,1)>>

// Across memory kinds nothing folds: not the producer's retyping (smem ->
// tmem), and not a chain through another kind (smem -> tmem -> smem).
// CHECK-LABEL: func.func @across_kinds
// CHECK-NEXT: %[[A:.*]] = tileas.alloc_tensor : tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>>
// CHECK-NEXT: %[[T:.*]] = tileas.convert_layout %[[A]] : {{.*}} -> {{.*}}tmem
// CHECK-NEXT: %[[S:.*]] = tileas.convert_layout %[[T]] : {{.*}}tmem{{.*}} -> {{.*}}swizzle<3,4,3>
// CHECK-NEXT: return %[[T]], %[[S]]
func.func @across_kinds() -> (tensor<128x64xf16, #tmem>, tensor<128x64xf16, #swizzled>) {
  %a = tileas.alloc_tensor : tensor<128x64xf16, #blocked>
  %t = tileas.convert_layout %a : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #tmem>
  %s = tileas.convert_layout %t : tensor<128x64xf16, #tmem> -> tensor<128x64xf16, #swizzled>
  return %t, %s : tensor<128x64xf16, #tmem>, tensor<128x64xf16, #swizzled>
}
