// tileas-report-conversions: a remark per convert_layout with the strategy
// and cost of LayoutKit's conversion planner, or why it is not planned.
// RUN: layoutkit-opt %s --split-input-file --tileas-report-conversions --verify-diagnostics -o /dev/null
// RUN: not layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(tileas-report-conversions{arch=sm_70})' 2>&1 | FileCheck %s --check-prefix=ARCH
// ARCH: error: tileas-report-conversions: arch: unknown architecture 'sm_70' (known: sm_80, sm_90, sm_100)
//
// Each planned remark is the two first lines of `layoutkit plan` for the
// same layouts (the (thread, value) layout of each encoding, over the
// tile's shape), joined by "; ". The register layouts are written as
// (thread, value) layouts over the element index row + rows * column
// (api::tvToLinear); each test names the Triton encodings they spell.

// f32 16x16, one warp: blocked([1,4], [8,4], [1,1], order [1,0]) to its
// column-major twin blocked([4,1], [4,8], [1,1], order [0,1]) (the example
// of plan/Plan.h). A: register [(0,1),(0,2),(8,0)], lane
// [(0,4),(0,8),(1,0),(2,0),(4,0)]: thread (4,8):(64,1), value (4,2):(16,8).
// B: register [(1,0),(2,0),(0,8)], lane [(4,0),(8,0),(0,1),(0,2),(0,4)]:
// thread (4,8):(4,16), value (4,2):(1,128). No element changes warp:
//   layoutkit plan '((4,8),(4,2)):((64,1),(16,8))' '((4,8),(4,2)):((4,16),(1,128))' --shape '(16,16)' --dtype f32
#row = #tileas.encoding<register, blocked, layout = #tileas.layout<((4,8),(4,2)),((64,1),(16,8))>>
#col = #tileas.encoding<register, blocked, layout = #tileas.layout<((4,8),(4,2)),((4,16),(1,128))>>
func.func @warp_shuffle(%x: tensor<16x16xf32, #row>) -> tensor<16x16xf32, #col> {
  // expected-remark @+1 {{strategy: warp shuffle; cost: 56 instructions (0 register moves, 48 selects, 8 shuffles), 0 wavefronts, 0 barriers, 0 B of shared memory, 32.0 estimated cycles}}
  %c = tileas.convert_layout %x : tensor<16x16xf32, #row> -> tensor<16x16xf32, #col>
  return %c : tensor<16x16xf32, #col>
}

// -----

// f16 16x16, two warps: blocked([1,4], [8,4], [2,1], order [1,0]) to
// blocked([4,1], [4,8], [1,2], order [0,1]) (the example of docs/cli.md).
// A: register [(0,1),(0,2)], lane [(0,4),(0,8),(1,0),(2,0),(4,0)], warp
// [(8,0)]: thread (4,8,2):(64,1,8), value 4:16. B: register [(1,0),(2,0)],
// lane [(4,0),(8,0),(0,1),(0,2),(0,4)], warp [(0,8)]: thread
// (4,8,2):(4,16,128), value 4:1. Elements change warps:
//   layoutkit plan '((4,8,2),4):((64,1,8),16)' '((4,8,2),4):((4,16,128),1)' --shape '(16,16)' --dtype f16
#row = #tileas.encoding<register, blocked, layout = #tileas.layout<((4,8,2),4),((64,1,8),16)>>
#col = #tileas.encoding<register, blocked, layout = #tileas.layout<((4,8,2),4),((4,16,128),1)>>
func.func @shared_memory(%x: tensor<16x16xf16, #row>) -> tensor<16x16xf16, #col> {
  // expected-remark @+1 {{strategy: shared memory; cost: 4 instructions (0 register moves, 0 selects, 0 shuffles), 8 wavefronts, 1 barrier, 512 B of shared memory, 28.0 estimated cycles}}
  %c = tileas.convert_layout %x : tensor<16x16xf16, #row> -> tensor<16x16xf16, #col>
  return %c : tensor<16x16xf16, #col>
}

// -----

// f32 16x8: the mma.m16n8 accumulator, thread (4,8):(32,1), value
// (2,2):(16,8), to the same with its two register bits swapped, value
// (2,2):(8,16); and to the Triton blocked layout that is the same function
// (remove-layout-conversions-equality.mlir derives it), which the planner
// calls a no-op:
//   layoutkit plan '((4,8),(2,2)):((32,1),(16,8))' '((4,8),(2,2)):((32,1),(8,16))' --shape '(16,8)' --dtype f32
//   layoutkit plan '((4,8),(2,2)):((32,1),(16,8))' '((2,2,8),(2,2)):((32,64,1),(16,8))' --shape '(16,8)' --dtype f32
#mma = #tileas.encoding<register, linear, layout = #tileas.layout<((4,8),(2,2)),((32,1),(16,8))>>
#swapped = #tileas.encoding<register, linear, layout = #tileas.layout<((4,8),(2,2)),((32,1),(8,16))>>
#blocked = #tileas.encoding<register, blocked, layout = #tileas.layout<((2,2,8),(2,2)),((32,64,1),(16,8))>>
func.func @in_registers(%x: tensor<16x8xf32, #mma>) -> (tensor<16x8xf32, #swapped>, tensor<16x8xf32, #blocked>) {
  // expected-remark @+1 {{strategy: register permutation; cost: 2 instructions (2 register moves, 0 selects, 0 shuffles), 0 wavefronts, 0 barriers, 0 B of shared memory, 1.0 estimated cycles}}
  %p = tileas.convert_layout %x : tensor<16x8xf32, #mma> -> tensor<16x8xf32, #swapped>
  // expected-remark @+1 {{strategy: no-op; cost: 0 instructions (0 register moves, 0 selects, 0 shuffles), 0 wavefronts, 0 barriers, 0 B of shared memory, 0.0 estimated cycles}}
  %n = tileas.convert_layout %x : tensor<16x8xf32, #mma> -> tensor<16x8xf32, #blocked>
  return %p, %n : tensor<16x8xf32, #swapped>, tensor<16x8xf32, #blocked>
}

// -----

// What the planner does not plan, and why.
#smem = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#swizzled = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
#reg = #tileas.encoding<register, blocked>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>
func.func @not_planned(%b: tensor<128x64xf16, #smem>, %r: tensor<128x64xf16, #reg>)
    -> (tensor<128x64xf16, #reg>, tensor<128x64xf16, #swizzled>, tensor<128x64xf16, #dot_a>) {
  // expected-remark @+1 {{not planned: a conversion between memory kinds (smem -> register) is a load or a store, not a register conversion}}
  %l = tileas.convert_layout %b : tensor<128x64xf16, #smem> -> tensor<128x64xf16, #reg>
  // expected-remark @+1 {{not planned: the planner moves register values; smem -> smem is a copy between buffers}}
  %s = tileas.convert_layout %b : tensor<128x64xf16, #smem> -> tensor<128x64xf16, #swizzled>
  // expected-remark @+1 {{not planned: the source tensor<128x64xf16, #tileas.encoding<register, blocked>> has no placement (its encoding carries no layout)}}
  %d = tileas.convert_layout %r : tensor<128x64xf16, #reg> -> tensor<128x64xf16, #dot_a>
  return %l, %s, %d : tensor<128x64xf16, #reg>, tensor<128x64xf16, #swizzled>, tensor<128x64xf16, #dot_a>
}
