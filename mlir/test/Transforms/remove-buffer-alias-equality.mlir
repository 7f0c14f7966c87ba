// tileas-remove-buffer-alias compares the select's layout with the
// allocation's by LayoutKit (LayoutEquality.h): another text of the same
// function needs no copy, a view of the select's type is enough.
// RUN: layoutkit-opt %s --pass-pipeline='builtin.module(func.func(tileas-remove-buffer-alias))' | FileCheck %s

// swizzle<0,4,3> flips no bit (B = 0): both layouts place (i, j) at
// 64 i + j. (Two texts of one unswizzled function, such as
// ((8,8),(8,8)) : ((64,512),(1,8)), are one attribute already:
// Dialect/layout-function.mlir.)
#plain = #tileas.encoding<smem, shared, layout = #tileas.layout<(64,64),(64,1)>>
#tiled = #tileas.encoding<smem, shared, layout = #tileas.layout<(64,64),(64,1),swizzle<0,4,3>>>
// CHECK-LABEL: func.func @same_function
// CHECK: %[[A:.*]] = tileas.alloc_tensor : tensor<64x64xf16, {{.*}}(64,1)>>>
// CHECK: %[[V:.*]] = tileas.view %[[A]][%{{.*}}] : {{.*}} -> tensor<64x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(64,64),(64,1),swizzle<0,4,3>>>>
// CHECK-NOT: tileas.copy
// CHECK: return %[[V]]
func.func @same_function(%flag: i1) -> tensor<64x64xf16, #tiled> {
  %a = tileas.alloc_tensor : tensor<64x64xf16, #plain>
  %v = tileas.view %a {offset = 4096} : tensor<64x64xf16, #plain> -> tensor<64x64xf16, #tiled>
  %w = tileas.view %a {offset = 0} : tensor<64x64xf16, #plain> -> tensor<64x64xf16, #tiled>
  %buf = tileas.select %flag, %v, %w : tensor<64x64xf16, #tiled>
  return %buf : tensor<64x64xf16, #tiled>
}
