// A value converted to encodings of two layout families (docs/design.md
// §4.1, "Two conversions of one value"). Intersected, a blocked and a
// linear seed leave no family and no candidate; instead the group takes
// the family of the first of the two conversions in program order, the
// other stays a real conversion, and the pass warns at the value with a
// note at each conversion. A chain of conversions is not such a pair: its
// families intersect as for any group; the pipeline's cleanup merges it and
// the next round places the load.
// RUN: layoutkit-opt %s --split-input-file --verify-diagnostics --mlir-print-op-on-diagnostic=false --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts))' | FileCheck %s
// The whole pipeline warns once (later rounds keep errors only); its
// cleanup removes the conversion that became an identity.
// RUN: layoutkit-opt %s --split-input-file --verify-diagnostics --mlir-print-op-on-diagnostic=false --tileas-layout-pipeline | FileCheck %s --check-prefix=PIPE
// A second run of the pass finds the loads placed: no warning.
// RUN: layoutkit-opt %s --split-input-file --verify-diagnostics --mlir-print-op-on-diagnostic=false --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts))' | layoutkit-opt --split-input-file --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts))' 2>&1 | FileCheck %s --check-prefix=AGAIN
// AGAIN-NOT: warning

// From global memory into registers: the bulk tensor copy (into smem) is
// pruned by the register seeds; the per-thread vector access ("universal")
// is blocked. The load's result takes the blocked encoding of the first
// conversion, which becomes an identity; the conversion to linear stays.
#gmem = #tileas.encoding<global, linear>
#blk = #tileas.encoding<register, blocked>
#lin = #tileas.encoding<register, linear>
// CHECK-LABEL: func.func @blocked_first
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[V:.*]] = tileas.tiled_load %arg0[%[[C0]], %[[C0]]] {tileas.atom = "universal", tileas.layout = #tileas.layout<(64,64),(64,1)>} : tensor<4096x64xf32, #tileas.encoding<global, linear>> -> tensor<64x64xf32, #tileas.encoding<register, blocked>>
// CHECK-NEXT: %[[B:.*]] = tileas.convert_layout %[[V]] : tensor<64x64xf32, #tileas.encoding<register, blocked>> -> tensor<64x64xf32, #tileas.encoding<register, blocked>>
// CHECK-NEXT: %[[L:.*]] = tileas.convert_layout %[[V]] : tensor<64x64xf32, #tileas.encoding<register, blocked>> -> tensor<64x64xf32, #tileas.encoding<register, linear>>
// CHECK-NEXT: return %[[B]], %[[L]]
// PIPE-LABEL: func.func @blocked_first
// PIPE: %[[V:.*]] = tileas.tiled_load {{.*}}tileas.atom = "universal"{{.*}} -> tensor<64x64xf32, #tileas.encoding<register, blocked>>
// PIPE-NEXT: %[[L:.*]] = tileas.convert_layout %[[V]] : tensor<64x64xf32, #tileas.encoding<register, blocked>> -> tensor<64x64xf32, #tileas.encoding<register, linear>>
// PIPE-NEXT: return %[[V]], %[[L]]
func.func @blocked_first(%A: tensor<4096x64xf32, #gmem>) -> (tensor<64x64xf32, #blk>, tensor<64x64xf32, #lin>) {
  %c0 = arith.constant 0 : index
  // expected-warning @+1 {{value converted to both a blocked and a linear register encoding: its group takes the family of the first conversion (blocked), the other conversion stays}}
  %v = tileas.tiled_load %A[%c0, %c0] : tensor<4096x64xf32, #gmem> -> tensor<64x64xf32>
  // expected-note @+1 {{conversion to #tileas.encoding<register, blocked>}}
  %b = tileas.convert_layout %v : tensor<64x64xf32> -> tensor<64x64xf32, #blk>
  // expected-note @+1 {{conversion to #tileas.encoding<register, linear>}}
  %l = tileas.convert_layout %v : tensor<64x64xf32> -> tensor<64x64xf32, #lin>
  return %b, %l : tensor<64x64xf32, #blk>, tensor<64x64xf32, #lin>
}

// -----

// The same conversions in the other order: the value takes linear (the
// vector access also realizes linear), the conversion to blocked stays.
#gmem = #tileas.encoding<global, linear>
#blk = #tileas.encoding<register, blocked>
#lin = #tileas.encoding<register, linear>
// CHECK-LABEL: func.func @linear_first
// CHECK: %[[V:.*]] = tileas.tiled_load {{.*}}{tileas.atom = "universal", {{.*}} -> tensor<64x64xf32, #tileas.encoding<register, linear>>
// CHECK-NEXT: tileas.convert_layout %[[V]] : tensor<64x64xf32, #tileas.encoding<register, linear>> -> tensor<64x64xf32, #tileas.encoding<register, linear>>
// CHECK-NEXT: tileas.convert_layout %[[V]] : tensor<64x64xf32, #tileas.encoding<register, linear>> -> tensor<64x64xf32, #tileas.encoding<register, blocked>>
func.func @linear_first(%A: tensor<4096x64xf32, #gmem>) -> (tensor<64x64xf32, #lin>, tensor<64x64xf32, #blk>) {
  %c0 = arith.constant 0 : index
  // expected-warning @+1 {{value converted to both a linear and a blocked register encoding: its group takes the family of the first conversion (linear), the other conversion stays}}
  %v = tileas.tiled_load %A[%c0, %c0] : tensor<4096x64xf32, #gmem> -> tensor<64x64xf32>
  // expected-note @+1 {{conversion to #tileas.encoding<register, linear>}}
  %l = tileas.convert_layout %v : tensor<64x64xf32> -> tensor<64x64xf32, #lin>
  // expected-note @+1 {{conversion to #tileas.encoding<register, blocked>}}
  %b = tileas.convert_layout %v : tensor<64x64xf32> -> tensor<64x64xf32, #blk>
  return %l, %b : tensor<64x64xf32, #lin>, tensor<64x64xf32, #blk>
}

// -----

// From shared memory, converted to a dot operand first and to blocked:
// the group takes dot_operand, so ldmatrix wins and the vector access
// (blocked) is pruned.
#sm = #tileas.encoding<smem, shared>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>
#blk = #tileas.encoding<register, blocked>
// CHECK-LABEL: func.func @dot_first
// CHECK: %[[V:.*]] = tileas.tiled_load %arg0 {tileas.atom = "ldmatrix.x4.b16", {{.*}} -> tensor<64x64xf16, #tileas.encoding<register, dot_operand, opIdx = 0>>
// CHECK: tileas.convert_layout %[[V]] : tensor<64x64xf16, #tileas.encoding<register, dot_operand, opIdx = 0>> -> tensor<64x64xf16, #tileas.encoding<register, blocked>>
func.func @dot_first(%S: tensor<64x64xf16, #sm>) -> (tensor<64x64xf16, #dot_a>, tensor<64x64xf16, #blk>) {
  // expected-warning @+1 {{value converted to both a dot_operand and a blocked register encoding: its group takes the family of the first conversion (dot_operand), the other conversion stays}}
  %v = tileas.tiled_load %S : tensor<64x64xf16, #sm> -> tensor<64x64xf16>
  // expected-note @+1 {{conversion to #tileas.encoding<register, dot_operand, opIdx = 0>}}
  %d = tileas.convert_layout %v : tensor<64x64xf16> -> tensor<64x64xf16, #dot_a>
  // expected-note @+1 {{conversion to #tileas.encoding<register, blocked>}}
  %b = tileas.convert_layout %v : tensor<64x64xf16> -> tensor<64x64xf16, #blk>
  return %d, %b : tensor<64x64xf16, #dot_a>, tensor<64x64xf16, #blk>
}

// -----

// A chain x -> blocked -> linear: no warning. The pass alone places
// nothing (blocked and linear intersect to no family); the pipeline's
// cleanup merges the chain into one conversion to linear, and its next
// round loads the value straight into the linear encoding.
#gmem = #tileas.encoding<global, linear>
#blk = #tileas.encoding<register, blocked>
#lin = #tileas.encoding<register, linear>
// CHECK-LABEL: func.func @chain
// CHECK-NOT: tileas.atom
// CHECK: return
// PIPE-LABEL: func.func @chain
// PIPE-NEXT: %[[C0:.*]] = arith.constant 0 : index
// PIPE-NEXT: %[[V:.*]] = tileas.tiled_load %arg0[%[[C0]], %[[C0]]] {tileas.atom = "universal", tileas.layout = #tileas.layout<(64,64),(64,1)>} : tensor<4096x64xf32, #tileas.encoding<global, linear>> -> tensor<64x64xf32, #tileas.encoding<register, linear>>
// PIPE-NEXT: return %[[V]]
func.func @chain(%A: tensor<4096x64xf32, #gmem>) -> tensor<64x64xf32, #lin> {
  %c0 = arith.constant 0 : index
  %v = tileas.tiled_load %A[%c0, %c0] : tensor<4096x64xf32, #gmem> -> tensor<64x64xf32>
  %b = tileas.convert_layout %v : tensor<64x64xf32> -> tensor<64x64xf32, #blk>
  %l = tileas.convert_layout %b : tensor<64x64xf32, #blk> -> tensor<64x64xf32, #lin>
  return %l : tensor<64x64xf32, #lin>
}
