// Layer 2's memory-space filter: the memory kind a load's result or a
// stored value lives in must suit its context outside the pipeline alias
// group. Arithmetic computes in registers; wgmma takes a in registers or
// smem, b in smem, acc in registers; a stored value lives where its
// encoding says, or in registers when arithmetic computed it. The bulk
// tensor copy moves global <-> smem only, so a register-bound tile never
// gets it.
// RUN: layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts{explain=true}))' 2>&1 >/dev/null | FileCheck %s
// RUN: layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts))' | FileCheck %s --check-prefix=IR
// RUN: layoutkit-opt %s --split-input-file --tileas-layout-pipeline | FileCheck %s --check-prefix=IR

// The 128x64xf16 load of docs/design.md §6.6, but its user is
// arithmetic: the bulk copy (score 1, smem) is pruned; ldmatrix.x4 and the
// 16-B vector load both score 4 + 0.25 * 32 = 12 with 32 registers and 4
// wavefronts, so the earlier candidate, ldmatrix.x4, wins the tie.
#smem = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
// CHECK: memspace.mlir:[[@LINE+7]]:{{[0-9]+}}: remark: layout candidates
// CHECK: note: pruned: cp.async.bulk.tensor (smem, shared): score 1
// CHECK: note: ldmatrix.x4.b16 (register, dot_operand): score 12 = smem 4, tmem 0, registers 32 <- chosen
// CHECK: note: universal (register, blocked|linear): score 12 = smem 4, tmem 0, registers 32
// IR-LABEL: func.func @register_bound_load
// IR: tileas.tiled_load %arg0 {tileas.atom = "ldmatrix.x4.b16"
func.func @register_bound_load(%src: tensor<128x64xf16, #smem>) -> tensor<128x64xf16> {
  %a = tileas.tiled_load %src : tensor<128x64xf16, #smem> -> tensor<128x64xf16>
  %n = arith.negf %a : tensor<128x64xf16>
  return %n : tensor<128x64xf16>
}

// -----

// A value computed by arithmetic stored to global memory: the bulk copy
// (which stores from smem) is pruned; the vector store touches no shared
// memory: 0 + 0.25 * 32 = 8.
#gmem = #tileas.encoding<global, linear>
// CHECK: memspace.mlir:[[@LINE+7]]:{{[0-9]+}}: remark: layout candidates
// CHECK: note: pruned: cp.async.bulk.tensor (smem, shared): score 1
// CHECK: note: universal (register, blocked|linear): score 8 = smem 0, tmem 0, registers 32 <- chosen
// IR-LABEL: func.func @register_store
// IR: tileas.tiled_store %{{.*}}, %arg1 {tileas.atom = "universal"
func.func @register_store(%x: tensor<128x64xf16>, %g: tensor<128x64xf16, #gmem>) {
  %n = arith.negf %x : tensor<128x64xf16>
  tileas.tiled_store %n, %g : tensor<128x64xf16> -> tensor<128x64xf16, #gmem>
  return
}

// -----

// Stored values with an encoding: a register (blocked) argument gets the
// vector store; a shared-memory one keeps the bulk copy (the vector store,
// which would need the value in registers, is pruned).
#gmem = #tileas.encoding<global, linear>
#blk = #tileas.encoding<register, blocked>
#sm = #tileas.encoding<smem, shared>
// CHECK: memspace.mlir:[[@LINE+10]]:{{[0-9]+}}: remark: layout candidates
// CHECK: note: pruned: cp.async.bulk.tensor (smem, shared): score 1
// CHECK: note: universal (register, blocked|linear): score 8 = smem 0, tmem 0, registers 32 <- chosen
// CHECK: memspace.mlir:[[@LINE+8]]:{{[0-9]+}}: remark: layout candidates
// CHECK: note: cp.async.bulk.tensor (smem, shared): score 1 = smem 1, tmem 0, registers 0 <- chosen
// CHECK: note: pruned: universal (register, blocked|linear): score 8
// IR-LABEL: func.func @encoded_stores
// IR: tileas.tiled_store %arg0, %arg2 {tileas.atom = "universal"
// IR: tileas.tiled_store %arg1, %arg2 {tileas.atom = "cp.async.bulk.tensor"
func.func @encoded_stores(%x: tensor<128x64xf16, #blk>, %s: tensor<128x64xf16, #sm>, %g: tensor<128x64xf16, #gmem>) {
  tileas.tiled_store %x, %g : tensor<128x64xf16, #blk> -> tensor<128x64xf16, #gmem>
  tileas.tiled_store %s, %g : tensor<128x64xf16, #sm> -> tensor<128x64xf16, #gmem>
  return
}

// -----

// A load from global feeding wgmma's b operand (smem only): the bulk copy
// stays and wins (1); the vector load, 0 + 0.25 * 16 = 4 (a 64x64 f16
// tile over 128 threads is 16 registers each), is pruned.
#gmem = #tileas.encoding<global, linear>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>
#acc = #tileas.encoding<register, blocked>
#sm = #tileas.encoding<smem, shared>
// CHECK: memspace.mlir:[[@LINE+6]]:{{[0-9]+}}: remark: layout candidates
// CHECK: note: cp.async.bulk.tensor (smem, shared): score 1 = smem 1, tmem 0, registers 0 <- chosen
// CHECK: note: pruned: universal (register, blocked|linear): score 4 = smem 0, tmem 0, registers 16
// IR-LABEL: func.func @wgmma_b
// IR: tileas.tiled_load %arg1 {tileas.atom = "cp.async.bulk.tensor"
func.func @wgmma_b(%a: tensor<64x64xf16, #dot_a>, %g: tensor<64x64xf16, #gmem>, %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
  %b = tileas.tiled_load %g : tensor<64x64xf16, #gmem> -> tensor<64x64xf16, #sm>
  %r = tileas.wgmma %a, %b, %acc : tensor<64x64xf16, #dot_a>, tensor<64x64xf16, #sm>, tensor<64x64xf32, #acc> -> tensor<64x64xf32, #acc>
  return %r : tensor<64x64xf32, #acc>
}

// -----

// A load whose only user is a dead arithmetic chain ending in a conversion
// (a group of its own): the chain is erased before the load's result is
// retyped, and the conversion's group, already collected, is skipped
// rather than read after its op was erased.
#smem = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>
// IR-LABEL: func.func @dead_chain
// IR-NEXT: tileas.tiled_load %arg0 {tileas.atom = "ldmatrix.x4.b16"
// IR-SAME: -> tensor<128x64xf16, #tileas.encoding<register, dot_operand, atom = "ldmatrix.x4.b16">>
// IR-NEXT: return
func.func @dead_chain(%src: tensor<128x64xf16, #smem>) {
  %a = tileas.tiled_load %src : tensor<128x64xf16, #smem> -> tensor<128x64xf16>
  %n = arith.negf %a : tensor<128x64xf16>
  %c = tileas.convert_layout %n : tensor<128x64xf16> -> tensor<128x64xf16, #dot_a>
  return
}

// -----

// A global load converted to a linear register layout: the per-thread
// vector access ("universal") reads any distributed register layout, so it
// serves the group's linear seed (the bulk copy, smem, is pruned) and the
// load produces the linear encoding; the pipeline then folds the
// conversion, an identity.
#gmem = #tileas.encoding<global, linear>
#lin = #tileas.encoding<register, linear>
// CHECK: memspace.mlir:[[@LINE+7]]:{{[0-9]+}}: remark: layout candidates
// CHECK: note: pruned: cp.async.bulk.tensor (smem, shared)
// CHECK: note: universal (register, blocked|linear): {{.*}} <- chosen
// IR-LABEL: func.func @global_to_linear
// IR: tileas.tiled_load %arg0 {tileas.atom = "universal"
// IR-SAME: -> tensor<64x64xf32, #tileas.encoding<register, linear>>
func.func @global_to_linear(%g: tensor<64x64xf32, #gmem>, %x: tensor<64x64xf32, #lin>) -> tensor<64x64xf32, #lin> {
  %a = tileas.tiled_load %g : tensor<64x64xf32, #gmem> -> tensor<64x64xf32>
  %l = tileas.convert_layout %a : tensor<64x64xf32> -> tensor<64x64xf32, #lin>
  %r = arith.addf %l, %x : tensor<64x64xf32, #lin>
  return %r : tensor<64x64xf32, #lin>
}
