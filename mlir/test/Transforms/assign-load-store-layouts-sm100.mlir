// tileas-assign-load-store-layouts on sm_100, where the TMEM term counts.
// RUN: layoutkit-opt %s --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts{explain=true arch=sm_100}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=TMEM
// RUN: layoutkit-opt %s --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts{arch=sm_100}))' | FileCheck %s --check-prefix=TMEM-IR
// On sm_90 a TMEM tile has no legal candidate:
// RUN: layoutkit-opt %s --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts))' --verify-diagnostics --split-input-file

// sm_100: a 128x64xf32 tile in TMEM. Each warp reads its 32 lanes x 64
// columns: tcgen05.ld.32x32b.x64 in 1 instruction, .16x256b.x8 in 2 (16
// lanes each). Registers: 32768 B / (128 threads * 4 B) = 64 for both, so
// the TMEM term decides: 4 * 1 + 16 = 20 against 4 * 2 + 16 = 24.
#tmem = #tileas.encoding<tmem, linear>
// TMEM-IR-LABEL: func.func @tmem_term_decides
// TMEM: assign-load-store-layouts-sm100.mlir:[[@LINE+6]]:{{[0-9]+}}: remark: layout candidates
// TMEM: note: tcgen05.ld.32x32b.x64 (register, linear): score 20 = smem 0, tmem 1, registers 64 <- chosen
// TMEM: note: tcgen05.ld.16x256b.x8 (register, linear): score 24 = smem 0, tmem 2, registers 64
// TMEM-IR: tileas.atom = "tcgen05.ld.32x32b.x64"
func.func @tmem_term_decides(%src: tensor<128x64xf32, #tmem>) {
  // expected-error @+1 {{has no structurally legal candidate (memory space, shape or alignment) for a 128x64 tile of 32-bit elements in tmem}}
  %a = tileas.tiled_load %src : tensor<128x64xf32, #tmem> -> tensor<128x64xf32>
  return
}

