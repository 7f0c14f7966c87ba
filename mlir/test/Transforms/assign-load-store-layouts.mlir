// tileas-assign-load-store-layouts: candidates, pruning, scores, tie-breaks
// and the group diagnostic. With explain=true every load/store gets a
// remark whose notes list each candidate with its score
//   score = w_smem * smem + w_tmem * tmem + w_reg * registers.
// Register counts: a 128x64 f16 tile is 16384 B; over 4 warps (128
// threads) that is 16384 / (128 * 4) = 32 registers per thread.
//
// Remarks (stderr) and the rewritten IR (stdout) are checked apart:
// RUN: layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts{explain=true}))' 2>&1 >/dev/null | FileCheck %s
// RUN: layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts))' | FileCheck %s --check-prefix=IR
// RUN: layoutkit-opt %s --split-input-file --tileas-layout-pipeline | FileCheck %s --check-prefix=PIPE
// RUN: layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts{explain=true weights=2,4,0.0625}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=TIE-REG
// RUN: layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts{weights=2,4,0.0625}))' | FileCheck %s --check-prefix=TIE-REG-IR
// RUN: layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts{explain=true arch=sm_80 weights=0,4,0.25}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=TIE-BANK
// RUN: layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts{arch=sm_80 weights=0,4,0.25}))' | FileCheck %s --check-prefix=TIE-BANK-IR

#smem = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>

// The 128x64xf16 load from swizzled SMEM of docs/design.md §6.6, unbound:
// the bulk tensor copy keeps the tile in SMEM and wins with 1 * 1 = 1;
// ldmatrix.x4 costs 4 wavefronts (one per 8x8 matrix: the 128B swizzle
// spreads the 8 rows over 8 distinct 16-B bank groups) + 0.25 * 32 = 12;
// the 16-B vector load costs its lane-group minimum 4 + 8 = 12.
// IR-LABEL: func.func @bulk_copy_wins
// CHECK: assign-load-store-layouts.mlir:[[@LINE+9]]:{{[0-9]+}}: remark: layout candidates
// CHECK: note: cp.async.bulk.tensor (smem, shared): score 1 = smem 1, tmem 0, registers 0 <- chosen
// CHECK: note: ldmatrix.x4.b16 (register, dot_operand): score 12 = smem 4, tmem 0, registers 32
// CHECK: note: universal (register, blocked|linear): score 12 = smem 4, tmem 0, registers 32
// IR: tileas.tiled_load %{{.*}} {tileas.atom = "cp.async.bulk.tensor", tileas.layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>}
// IR-SAME: -> tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>>
// PIPE-LABEL: func.func @bulk_copy_wins
// PIPE: tileas.atom = "cp.async.bulk.tensor"
func.func @bulk_copy_wins(%src: tensor<128x64xf16, #smem>) {
  %a = tileas.tiled_load %src : tensor<128x64xf16, #smem> -> tensor<128x64xf16>
  %b = tileas.convert_layout %a : tensor<128x64xf16> -> tensor<128x64xf16>
  return
}

// -----

// The same load whose consumer is bound to a register fragment (the
// convert_layout seed asks for register, dot_operand): the bulk copy is
// pruned (memory kind), the vector load too (family), ldmatrix.x4 wins
// with 12. The register value takes the seed's encoding (the atom is the
// op's tileas.atom), the swizzled layout stays on the SMEM side
// (tileas.layout).
#smem = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>
#wsmem = #tileas.encoding<smem, shared>
#acc = #tileas.encoding<register, blocked>
// IR-LABEL: func.func @register_fragment_consumer
// CHECK: assign-load-store-layouts.mlir:[[@LINE+15]]:{{[0-9]+}}: remark: layout candidates
// CHECK: note: pruned: cp.async.bulk.tensor (smem, shared): score 1
// CHECK: note: ldmatrix.x4.b16 (register, dot_operand): score 12 = smem 4, tmem 0, registers 32 <- chosen
// CHECK: note: pruned: universal (register, blocked|linear): score 12
// IR: tileas.tiled_load %{{.*}} {tileas.atom = "ldmatrix.x4.b16", tileas.layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>}
// IR-SAME: -> tensor<128x64xf16, #tileas.encoding<register, dot_operand, opIdx = 0>>
// IR: tileas.convert_layout %{{.*}} : tensor<128x64xf16, #tileas.encoding<register, dot_operand, opIdx = 0>> -> tensor<128x64xf16, #tileas.encoding<register, dot_operand, opIdx = 0>>
// The pipeline's second pass then removes the identity conversion: the
// load feeds the wgmma directly (docs/design.md §6.6).
// PIPE-LABEL: func.func @register_fragment_consumer
// PIPE: %[[A:.*]] = tileas.tiled_load %{{.*}} {tileas.atom = "ldmatrix.x4.b16", tileas.layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>}
// PIPE-SAME: -> tensor<128x64xf16, #tileas.encoding<register, dot_operand, opIdx = 0>>
// PIPE-NEXT: tileas.wgmma %[[A]], %arg1, %arg2
func.func @register_fragment_consumer(%src: tensor<128x64xf16, #smem>, %w: tensor<64x128xf16, #wsmem>,
                                      %acc: tensor<128x128xf32, #acc>) -> tensor<128x128xf32, #acc> {
  %a = tileas.tiled_load %src : tensor<128x64xf16, #smem> -> tensor<128x64xf16>
  %b = tileas.convert_layout %a : tensor<128x64xf16> -> tensor<128x64xf16, #dot_a>
  %r = tileas.wgmma %b, %w, %acc : tensor<128x64xf16, #dot_a>, tensor<64x128xf16, #wsmem>, tensor<128x128xf32, #acc> -> tensor<128x128xf32, #acc>
  return %r : tensor<128x128xf32, #acc>
}

// -----

// Without the swizzle the eight 128-B rows of each 8x8 matrix fall in the
// same bank group: ldmatrix.x4 needs 8 wavefronts per matrix, 32 in all.
#smem = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
// IR-LABEL: func.func @unswizzled_ldmatrix
// CHECK: assign-load-store-layouts.mlir:[[@LINE+3]]:{{[0-9]+}}: remark: layout candidates
// CHECK: note: ldmatrix.x4.b16 (register, dot_operand): score 40 = smem 32, tmem 0, registers 32 <- chosen
func.func @unswizzled_ldmatrix(%src: tensor<128x64xf16, #smem>) {
  %a = tileas.tiled_load %src : tensor<128x64xf16, #smem> -> tensor<128x64xf16>
  %b = tileas.convert_layout %a : tensor<128x64xf16> -> tensor<128x64xf16, #tileas.encoding<register, dot_operand>>
  return
}

// -----

// A real tie decided by registers: weights (2, 4, 1/16) on a load from
// global memory. Bulk tensor copy: 2 * 1 = 2; vector load (no SMEM
// access): 0.0625 * 32 = 2. Equal scores; the copy holds 0 registers.
#gmem = #tileas.encoding<global, linear>
// TIE-REG-IR-LABEL: func.func @tie_on_registers
// TIE-REG: assign-load-store-layouts.mlir:[[@LINE+5]]:{{[0-9]+}}: remark: layout candidates
// TIE-REG: note: cp.async.bulk.tensor (smem, shared): score 2 = smem 1, tmem 0, registers 0 <- chosen
// TIE-REG: note: universal (register, blocked|linear): score 2 = smem 0, tmem 0, registers 32
// TIE-REG-IR: tileas.atom = "cp.async.bulk.tensor"
func.func @tie_on_registers(%src: tensor<128x64xf16, #gmem>) {
  %a = tileas.tiled_load %src : tensor<128x64xf16, #gmem> -> tensor<128x64xf16>
  return
}

// -----

// A real tie decided by bank conflicts (weights (0, 4, 0.25), sm_80 where
// there is no bulk tensor copy, an unswizzled buffer): ldmatrix.x4 and the
// 16-B vector load both score 0.25 * 32 = 8 and hold 32 registers; the
// vector load needs 4 wavefronts against ldmatrix's 32, so it wins.
#smem = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
// TIE-BANK-IR-LABEL: func.func @tie_on_bank_conflicts
// TIE-BANK: assign-load-store-layouts.mlir:[[@LINE+5]]:{{[0-9]+}}: remark: layout candidates
// TIE-BANK: note: ldmatrix.x4.b16 (register, dot_operand): score 8 = smem 32, tmem 0, registers 32
// TIE-BANK: note: universal (register, blocked|linear): score 8 = smem 4, tmem 0, registers 32 <- chosen
// TIE-BANK-IR: tileas.atom = "universal"
func.func @tie_on_bank_conflicts(%src: tensor<128x64xf16, #smem>) {
  %a = tileas.tiled_load %src : tensor<128x64xf16, #smem> -> tensor<128x64xf16>
  return
}

