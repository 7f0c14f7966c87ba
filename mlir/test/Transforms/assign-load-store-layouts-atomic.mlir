// tiled_atomic in the per-operation dispatch of
// tileas-assign-load-store-layouts: the TMA reduction
// cp.reduce.async.bulk.tensor (the value in smem, into global memory;
// terms 1, 0, 0) and the per-thread atomic, one element wide ("universal",
// register, blocked). A 64x64 f16 tile over 128 threads is 16 registers.
// RUN: layoutkit-opt %s --split-input-file --mlir-print-op-on-diagnostic=false --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts{explain=true}))' 2>&1 >/dev/null | FileCheck %s
// RUN: layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts))' | FileCheck %s --check-prefix=IR

// Into global memory from smem: the reduction (1) beats the per-thread
// atomic (0 + 0.25 * 16 = 4). A value computed by arithmetic lives in
// registers: the reduction, which reads smem, is pruned.
#gmem = #tileas.encoding<global, linear>
#sm = #tileas.encoding<smem, shared>
// CHECK: atomic.mlir:[[@LINE+9]]:{{[0-9]+}}: remark: layout candidates
// CHECK: note: cp.reduce.async.bulk.tensor (smem, shared): score 1 = smem 1, tmem 0, registers 0 <- chosen
// CHECK: note: pruned: universal (register, blocked|linear): score 4 = smem 0, tmem 0, registers 16
// CHECK: atomic.mlir:[[@LINE+8]]:{{[0-9]+}}: remark: layout candidates
// CHECK: note: pruned: cp.reduce.async.bulk.tensor (smem, shared): score 1
// CHECK: note: universal (register, blocked|linear): score 4 = smem 0, tmem 0, registers 16 <- chosen
// IR: tileas.tiled_atomic "add" %arg0, %arg2 {tileas.atom = "cp.reduce.async.bulk.tensor"
// IR: tileas.tiled_atomic "max" %{{.*}}, %arg2 {tileas.atom = "universal"
func.func @into_global(%s: tensor<64x64xf16, #sm>, %x: tensor<64x64xf16>, %g: tensor<64x64xf16, #gmem>) {
  tileas.tiled_atomic "add" %s, %g : tensor<64x64xf16, #sm> -> tensor<64x64xf16, #gmem>
  %n = arith.negf %x : tensor<64x64xf16>
  tileas.tiled_atomic "max" %n, %g : tensor<64x64xf16> -> tensor<64x64xf16, #gmem>
  return
}

// -----

// Into smem: only the per-thread atomic; one 2-byte element per thread,
// 64 bytes a warp, one wavefront: 1 + 4 = 5.
#sm = #tileas.encoding<smem, shared>
// CHECK: atomic.mlir:[[@LINE+3]]:{{[0-9]+}}: remark: layout candidates
// CHECK: note: universal (register, blocked|linear): score 5 = smem 1, tmem 0, registers 16 <- chosen
func.func @into_smem(%x: tensor<64x64xf16>, %b: tensor<64x64xf16, #sm>) {
  tileas.tiled_atomic "min" %x, %b : tensor<64x64xf16> -> tensor<64x64xf16, #sm>
  return
}
