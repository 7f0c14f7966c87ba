// The per-operation dispatch of tileas-assign-load-store-layouts beyond
// tiled loads and stores: gather and scatter get the per-thread vector
// access (the index is data, so neither the bulk tensor copy nor ldmatrix,
// which move tiles at places known before the access, applies), and the
// environment switch LK_TILEAS_PREFER_TMA biases loads and stores toward
// the bulk tensor copy among the candidates layer 2 left legal.
// RUN: layoutkit-opt %s --split-input-file --mlir-print-op-on-diagnostic=false --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts{explain=true}))' 2>&1 >/dev/null | FileCheck %s
// RUN: layoutkit-opt %s --split-input-file --mlir-print-op-on-diagnostic=false --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts))' | FileCheck %s --check-prefix=IR
// RUN: env LK_TILEAS_PREFER_TMA=1 layoutkit-opt %s --split-input-file --mlir-print-op-on-diagnostic=false --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts{explain=true}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=TMA
// RUN: env LK_TILEAS_PREFER_TMA=0 layoutkit-opt %s --split-input-file --mlir-print-op-on-diagnostic=false --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts{explain=true}))' 2>&1 >/dev/null | FileCheck %s
// RUN: env LK_TILEAS_PREFER_TMA=maybe not layoutkit-opt %s --split-input-file --mlir-print-op-on-diagnostic=false --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts))' 2>&1 | FileCheck %s --check-prefix=BADENV
// BADENV: error: LK_TILEAS_PREFER_TMA must be 1, true, on, 0, false or off, got 'maybe'

// A gather of f16 elements along the columns of a 128x64 smem tile: each
// thread reads one 2-byte element, a warp 64 bytes: one wavefront; the
// 16 KiB result over 128 threads is 32 registers: 1 + 0.25 * 32 = 9. The
// result (used by arithmetic) stays unencoded; the op records the atom and
// the buffer's layout.
#smem = #tileas.encoding<smem, shared>
// CHECK: indexed.mlir:[[@LINE+7]]:{{[0-9]+}}: remark: layout candidates
// CHECK: note: universal (register, blocked|linear): score 9 = smem 1, tmem 0, registers 32 <- chosen
// CHECK-NOT: note:
// TMA: indexed.mlir:[[@LINE+4]]:{{[0-9]+}}: remark: layout candidates
// TMA: note: universal (register, blocked|linear): score 9 = smem 1, tmem 0, registers 32 <- chosen{{$}}
// IR: tileas.gather %arg0[%arg1] {axis = 1 : i64, tileas.atom = "universal", tileas.layout = #tileas.layout<(128,64),(64,1)>}
func.func @gather_columns(%src: tensor<128x64xf16, #smem>, %idx: tensor<128x64xi32>) -> tensor<128x64xf16> {
  %r = tileas.gather %src[%idx] {axis = 1} : tensor<128x64xf16, #smem>, tensor<128x64xi32> -> tensor<128x64xf16>
  %n = arith.negf %r : tensor<128x64xf16>
  return %n : tensor<128x64xf16>
}

// -----

// Gathered rows keep whole rows contiguous: 16-byte vectors from smem cost
// their lane-group minimum, 4 wavefronts, + 0.25 * 32 = 12. The result
// feeds only the return, so it takes the winner's encoding.
#smem = #tileas.encoding<smem, shared>
// CHECK: indexed.mlir:[[@LINE+4]]:{{[0-9]+}}: remark: layout candidates
// CHECK: note: universal (register, blocked|linear): score 12 = smem 4, tmem 0, registers 32 <- chosen
// IR: tileas.gather %arg0[%arg1] {axis = 0 : i64, tileas.atom = "universal"
func.func @gather_rows(%src: tensor<256x64xf16, #smem>, %idx: tensor<128x64xi32>) -> tensor<128x64xf16> {
  %r = tileas.gather %src[%idx] {axis = 0} : tensor<256x64xf16, #smem>, tensor<128x64xi32> -> tensor<128x64xf16>
  return %r : tensor<128x64xf16>
}

// -----

// A scatter of registers into global memory: no shared memory is touched,
// 0 + 0.25 * 32 = 8. A gather of a register tile is an exchange between
// registers, not a memory access: no candidate, no atom.
#gmem = #tileas.encoding<global, linear>
// CHECK: indexed.mlir:[[@LINE+8]]:{{[0-9]+}}: remark: layout candidates
// CHECK: note: universal (register, blocked|linear): score 8 = smem 0, tmem 0, registers 32 <- chosen
// CHECK: indexed.mlir:[[@LINE+7]]:{{[0-9]+}}: remark: layout candidates
// CHECK-NOT: note:
// IR-LABEL: func.func @scatter
// IR: tileas.scatter %arg0 into %arg1[%arg2] {axis = 1 : i64, tileas.atom = "universal"
// IR: tileas.gather %arg3[%arg2] {axis = 1 : i64} :
func.func @scatter(%v: tensor<128x64xf16>, %dst: tensor<128x64xf16, #gmem>, %idx: tensor<128x64xi32>, %reg: tensor<128x64xf16>) -> (tensor<128x64xf16, #gmem>, tensor<128x64xf16>) {
  %r = tileas.scatter %v into %dst[%idx] {axis = 1} : tensor<128x64xf16>, tensor<128x64xi32> -> tensor<128x64xf16, #gmem>, tensor<128x64xf16, #gmem>
  %g = tileas.gather %reg[%idx] {axis = 1} : tensor<128x64xf16>, tensor<128x64xi32> -> tensor<128x64xf16>
  return %r, %g : tensor<128x64xf16, #gmem>, tensor<128x64xf16>
}

// -----

// The TMA switch. A 64x64 f16 load from global memory with no consumer
// binding: the bulk copy (1) beats the vector load (0 + 0.25 * 16 = 4)
// on cost already. A register-bound load of the same buffer: the bulk copy
// is pruned at layer 2 and stays pruned with the switch on (the switch
// chooses among legal candidates only).
#gmem = #tileas.encoding<global, linear>
// CHECK: indexed.mlir:[[@LINE+11]]:{{[0-9]+}}: remark: layout candidates
// CHECK: note: cp.async.bulk.tensor (smem, shared): score 1 = smem 1, tmem 0, registers 0 <- chosen{{$}}
// CHECK: indexed.mlir:[[@LINE+10]]:{{[0-9]+}}: remark: layout candidates
// CHECK: note: pruned: cp.async.bulk.tensor (smem, shared): score 1
// CHECK: note: universal (register, blocked|linear): score 4 = smem 0, tmem 0, registers 16 <- chosen{{$}}
// TMA: indexed.mlir:[[@LINE+6]]:{{[0-9]+}}: remark: layout candidates
// TMA: note: cp.async.bulk.tensor (smem, shared): score 1 = smem 1, tmem 0, registers 0 <- chosen{{$}}
// TMA: indexed.mlir:[[@LINE+5]]:{{[0-9]+}}: remark: layout candidates
// TMA: note: pruned: cp.async.bulk.tensor (smem, shared): score 1
// TMA: note: universal (register, blocked|linear): score 4 = smem 0, tmem 0, registers 16 <- chosen{{$}}
func.func @tma_switch(%g: tensor<64x64xf16, #gmem>) -> tensor<64x64xf16> {
  %a = tileas.tiled_load %g : tensor<64x64xf16, #gmem> -> tensor<64x64xf16>
  %b = tileas.tiled_load %g : tensor<64x64xf16, #gmem> -> tensor<64x64xf16>
  %n = arith.negf %b : tensor<64x64xf16>
  return %n : tensor<64x64xf16>
}
