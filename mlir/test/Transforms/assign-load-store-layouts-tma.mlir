// LK_TILEAS_PREFER_TMA makes a legal bulk tensor copy win over cheaper
// candidates. With weights (100, 4, 0.25) a 64x64 f16 load from global
// memory costs 100 * 1 = 100 by the bulk copy and 0 + 0.25 * 16 = 4 by
// the vector load: the vector load wins on cost, the bulk copy with the
// switch on (the note says so).
// RUN: layoutkit-opt %s --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts{explain=true weights=100,4,0.25}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=COST
// RUN: env LK_TILEAS_PREFER_TMA=on layoutkit-opt %s --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts{explain=true weights=100,4,0.25}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=TMA
// RUN: env LK_TILEAS_PREFER_TMA=true layoutkit-opt %s --pass-pipeline='builtin.module(func.func(tileas-assign-load-store-layouts{weights=100,4,0.25}))' | FileCheck %s --check-prefix=IR
// COST: note: cp.async.bulk.tensor (smem, shared): score 100 = smem 1, tmem 0, registers 0{{$}}
// COST-NEXT: note: universal (register, blocked|linear): score 4 = smem 0, tmem 0, registers 16 <- chosen{{$}}
// TMA: note: cp.async.bulk.tensor (smem, shared): score 100 = smem 1, tmem 0, registers 0 <- chosen (TMA preferred){{$}}
// TMA-NEXT: note: universal (register, blocked|linear): score 4 = smem 0, tmem 0, registers 16{{$}}
// IR: tileas.tiled_load %arg0 {tileas.atom = "cp.async.bulk.tensor"
#gmem = #tileas.encoding<global, linear>
func.func @load(%g: tensor<64x64xf16, #gmem>) {
  %a = tileas.tiled_load %g : tensor<64x64xf16, #gmem> -> tensor<64x64xf16>
  return
}
