// A pipelined Hopper GEMM main loop through tileas-layout-pipeline, end to
// end. Two agents share a two-stage SMEM ring for the A tiles: the TMA
// agent copies tile k of A into stage k mod 2, the MMA agent reads the same
// stage, converts the tile to the wgmma operand layout and accumulates.
// The B tiles travel through a produce_one / consume_one pipeline of depth
// 2 inside the MMA agent. Both main loops run 64 iterations and carry
// sliceCount = 2; the MMA loop also carries an argument it only yields back.
// What each pass of the family does here:
//  * assign-load-store-layouts: the B load from global joins the pipeline
//    group (smem only) and becomes a TMA load (cp.async.bulk.tensor, an
//    smem result); the A load from the swizzled ring is seeded by its
//    conversion to the operand layout and becomes ldmatrix.x4.b16 into that
//    layout;
//  * remove-layout-conversions: that conversion is now an identity, it goes;
//  * remove-buffer-alias: each select between the two stages becomes a view
//    of the ring at offset select(odd, 8192, 0);
//  * remove-dead-args: the argument only yielded back goes;
//  * resolve-agent-boundary: the ring buffers, %A, %B and the index
//    scalars stay direct uses in the agents. %init is a register tile
//    defined outside the MMA agent; where the pass hands such a tile over
//    through shared memory, the MMA agent starts with that handoff and the
//    first MMA slice's init is its result, not %arg2 (the CHECK lines
//    marked "handoff" below accept both);
//  * slicing: each main loop becomes [0, 32) and [32, 64), the second MMA
//    slice starting from the first one's accumulator.
// A second run of the pipeline changes nothing.
// RUN: layoutkit-opt %s --tileas-layout-pipeline > %t.once.mlir
// RUN: layoutkit-opt %t.once.mlir --tileas-layout-pipeline > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: FileCheck %s < %t.once.mlir

#gmem = #tileas.encoding<global, linear>
#sA = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
#sB = #tileas.encoding<smem, shared>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>
#acc = #tileas.encoding<register, blocked>

// CHECK-LABEL: func.func @gemm_main_loop
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[C8192:.*]] = arith.constant 8192 : index
// CHECK: %[[RINGA:.*]] = tileas.alloc_tensor : tensor<128x64xf16, #[[SA:.*]]>
// CHECK-NOT: tileas.select
// CHECK: tileas.async.pipeline.agent_switch {

// The TMA agent: two slices of the copy loop, each writing stage k mod 2
// through a view at the selected offset.
// CHECK-NEXT: scf.for %[[K0:.*]] = %[[C0]] to %[[C32]] step %[[C1]] {
// CHECK: %[[OFF0:.*]] = arith.select %{{.*}}, %[[C8192]], %[[C0]] : index
// CHECK-NEXT: %[[STAGE0:.*]] = tileas.view %[[RINGA]][%[[OFF0]]]
// CHECK: tileas.copy %{{.*}}, %[[STAGE0]] {atom = "cp.async.bulk.tensor"}
// CHECK: }{{$}}
// CHECK-NEXT: scf.for %[[K1:.*]] = %[[C32]] to %[[C64]] step %[[C1]] {
// CHECK: tileas.copy %{{.*}} {atom = "cp.async.bulk.tensor"}
// CHECK: }{{$}}
// CHECK-NEXT: }, {

// The MMA agent: the dead argument is gone, one accumulator is carried
// from the first slice into the second; B is a TMA load into the pipeline,
// A an ldmatrix load into the operand layout with no conversion left.
// handoff: without the agent-boundary pass the loop comes first and
// starts from %arg2; with it, a consume_one and a convert_layout of %init
// come first and the loop starts from the conversion.
// CHECK-NOT: scf.for
// CHECK: %[[R0:.*]] = scf.for %{{.*}} = %[[C0]] to %[[C32]] step %[[C1]] iter_args(%[[ACC0:.*]] = %{{arg2|[0-9]+}}) -> (tensor<128x128xf32, #{{.*}}>) {
// CHECK: %[[TB:.*]] = tileas.tiled_load %arg1[%{{.*}}, %[[C0]]] {tileas.atom = "cp.async.bulk.tensor"{{.*}}} : tensor<4096x128xf16, #{{.*}}> -> tensor<64x128xf16, #tileas.encoding<smem, shared
// CHECK-NEXT: %[[SLOT:.*]] = tileas.produce_one %[[TB]] {depth = 2 : i64}
// CHECK-NEXT: %[[B:.*]] = tileas.consume_one %[[SLOT]]
// CHECK: %[[STAGE:.*]] = tileas.view %[[RINGA]][%{{.*}}]
// CHECK-NEXT: %[[A:.*]] = tileas.tiled_load %[[STAGE]] {tileas.atom = "ldmatrix.x4.b16", tileas.layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>} : tensor<128x64xf16, #[[SA]]> -> tensor<128x64xf16, #tileas.encoding<register, dot_operand, opIdx = 0>>
// CHECK-NEXT: %[[X:.*]] = tileas.wgmma %[[A]], %[[B]], %[[ACC0]]
// CHECK-NEXT: scf.yield %[[X]]
// CHECK-NEXT: }{{$}}
// CHECK-NEXT: %[[R1:.*]] = scf.for %{{.*}} = %[[C32]] to %[[C64]] step %[[C1]] iter_args(%[[ACC1:.*]] = %[[R0]]) -> (tensor<128x128xf32, #{{.*}}>) {
// CHECK: tileas.wgmma %{{.*}}, %{{.*}}, %[[ACC1]]
// CHECK: }{{$}}
// CHECK-NEXT: tileas.tiled_store %[[R1]], %arg3
// CHECK-NEXT: }{{$}}
// CHECK-NOT: tileas.convert_layout
// CHECK-NOT: sliceCount
// CHECK: return
func.func @gemm_main_loop(%A: tensor<8192x64xf16, #gmem>, %B: tensor<4096x128xf16, #gmem>,
                          %init: tensor<128x128xf32, #acc>, %C: tensor<128x128xf32, #gmem>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c8192 = arith.constant 8192 : index
  // The ring: stage 1 is the 8192 elements after stage 0.
  %ringA = tileas.alloc_tensor : tensor<128x64xf16, #sA>
  %ringA1 = tileas.view %ringA {offset = 8192} : tensor<128x64xf16, #sA> -> tensor<128x64xf16, #sA>
  tileas.async.pipeline.agent_switch {
    // TMA agent: tile k of A (the k-th 128x64 block of %A) into stage k mod 2.
    scf.for %k = %c0 to %c64 step %c1 {
      %parity = arith.remui %k, %c2 : index
      %odd = arith.cmpi eq, %parity, %c1 : index
      %stage = tileas.select %odd, %ringA1, %ringA : tensor<128x64xf16, #sA>
      %off = arith.muli %k, %c8192 : index
      %tile = tileas.view %A[%off] : tensor<8192x64xf16, #gmem> -> tensor<128x64xf16, #gmem>
      %w = tileas.copy %tile, %stage {atom = "cp.async.bulk.tensor"}
          : tensor<128x64xf16, #gmem>, tensor<128x64xf16, #sA> -> tensor<128x64xf16, #sA>
      tileas.fence "async_proxy"
    } {sliceCount = 2 : i32}
    tileas.async.pipeline.yield
  }, {
    // MMA agent.
    %r:2 = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %init, %stale = %init)
        -> (tensor<128x128xf32, #acc>, tensor<128x128xf32, #acc>) {
      // B: rows [64k, 64k + 64) of %B through a two-deep pipeline.
      %kk = arith.muli %k, %c64 : index
      %tb = tileas.tiled_load %B[%kk, %c0] : tensor<4096x128xf16, #gmem> -> tensor<64x128xf16>
      %slot = tileas.produce_one %tb {depth = 2} : tensor<64x128xf16> -> tensor<64x128xf16, #sB>
      %b = tileas.consume_one %slot : tensor<64x128xf16, #sB> -> tensor<64x128xf16, #sB>
      // A: the stage the TMA agent filled, converted before the MMA.
      tileas.async_wait {pending = 1}
      %parity = arith.remui %k, %c2 : index
      %odd = arith.cmpi eq, %parity, %c1 : index
      %stage = tileas.select %odd, %ringA1, %ringA : tensor<128x64xf16, #sA>
      %ta = tileas.tiled_load %stage : tensor<128x64xf16, #sA> -> tensor<128x64xf16>
      %a = tileas.convert_layout %ta : tensor<128x64xf16> -> tensor<128x64xf16, #dot_a>
      %x = tileas.wgmma %a, %b, %acc : tensor<128x64xf16, #dot_a>, tensor<64x128xf16, #sB>,
          tensor<128x128xf32, #acc> -> tensor<128x128xf32, #acc>
      scf.yield %x, %stale : tensor<128x128xf32, #acc>, tensor<128x128xf32, #acc>
    } {sliceCount = 2 : i32}
    tileas.tiled_store %r#0, %C : tensor<128x128xf32, #acc> -> tensor<128x128xf32, #gmem>
    tileas.async.pipeline.yield
  }
  return
}
