// tileas-resolve-agent-boundary: values used in an agent of
// tileas.async.pipeline.agent_switch and defined outside it. A register
// tile goes through shared memory (alloc_tensor + copy + produce_one
// before the switch, consume_one + convert_layout back to its type first
// in the agent); buffers and scalars stay direct. The second RUN line runs
// the pass twice: the same output shows that the second run changes
// nothing.
// RUN: layoutkit-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(tileas-resolve-agent-boundary))' | FileCheck %s
// RUN: layoutkit-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(tileas-resolve-agent-boundary,tileas-resolve-agent-boundary))' | FileCheck %s
// RUN: layoutkit-opt %s --split-input-file --verify-diagnostics --tileas-layout-pipeline | FileCheck %s --check-prefix=PIPE

#blk = #tileas.encoding<register, blocked>
#gmem = #tileas.encoding<global, linear>

// A register tile of the enclosing scope, used twice in agent 1: one chain
// serves both uses; the global buffer stays direct. The pipeline keeps the
// chain and succeeds: the conversion out of shared memory starts a layout
// group of its own, so the placed store after it and the shared-memory
// slot before it are not one group (whose memory kinds, register and smem,
// would have nothing in common).
// CHECK-LABEL: func.func @register_value
// CHECK: %[[BUF:.*]] = tileas.alloc_tensor : tensor<64x64xf32, #tileas.encoding<smem, shared>>
// CHECK-NEXT: %[[W:.*]] = tileas.copy %arg0, %[[BUF]] {atom = "universal"} : tensor<64x64xf32, #tileas.encoding<register, blocked>>, tensor<64x64xf32, #tileas.encoding<smem, shared>> -> tensor<64x64xf32, #tileas.encoding<smem, shared>>
// CHECK-NEXT: %[[SLOT:.*]] = tileas.produce_one %[[W]] {depth = 1 : i64} : tensor<64x64xf32, #tileas.encoding<smem, shared>> -> tensor<64x64xf32, #tileas.encoding<smem, shared>>
// CHECK-NEXT: tileas.async.pipeline.agent_switch {
// CHECK-NEXT: tileas.fence "cta"
// CHECK-NEXT: }, {
// CHECK-NEXT: %[[C:.*]] = tileas.consume_one %[[SLOT]] : tensor<64x64xf32, #tileas.encoding<smem, shared>> -> tensor<64x64xf32, #tileas.encoding<smem, shared>>
// CHECK-NEXT: %[[T:.*]] = tileas.convert_layout %[[C]] : tensor<64x64xf32, #tileas.encoding<smem, shared>> -> tensor<64x64xf32, #tileas.encoding<register, blocked>>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[T]], %[[T]]
// CHECK-NEXT: tileas.tiled_store %[[T]], %arg1
// CHECK-NEXT: tileas.tiled_store %[[S]], %arg1
// CHECK-NOT: tileas.consume_one
// PIPE-LABEL: func.func @register_value
// PIPE: tileas.produce_one
// PIPE: tileas.consume_one
// PIPE-NEXT: %[[T:.*]] = tileas.convert_layout
// PIPE: tileas.tiled_store %[[T]], %arg1 {tileas.atom =
func.func @register_value(%x: tensor<64x64xf32, #blk>, %g: tensor<64x64xf32, #gmem>) {
  tileas.async.pipeline.agent_switch {
    tileas.fence "cta"
    tileas.async.pipeline.yield
  }, {
    %s = arith.addf %x, %x : tensor<64x64xf32, #blk>
    tileas.tiled_store %x, %g : tensor<64x64xf32, #blk> -> tensor<64x64xf32, #gmem>
    tileas.tiled_store %s, %g : tensor<64x64xf32, #blk> -> tensor<64x64xf32, #gmem>
    tileas.async.pipeline.yield
  }
  return
}

// -----

// Buffers (an smem allocation, a view of it) and scalars stay direct: every
// agent addresses the same buffer, and a scalar is uniform.
#smem = #tileas.encoding<smem, shared>
// CHECK-LABEL: func.func @direct
// CHECK-NOT: tileas.produce_one
// CHECK: %[[A:.*]] = tileas.alloc_tensor
// CHECK: agent_switch {
// CHECK-NEXT: %[[L:.*]] = tileas.tiled_load %[[A]][%arg0, %arg0]
// CHECK-NOT: tileas.consume_one
func.func @direct(%i: index) {
  %a = tileas.alloc_tensor : tensor<128x64xf32, #smem>
  tileas.async.pipeline.agent_switch {
    %l = tileas.tiled_load %a[%i, %i] : tensor<128x64xf32, #smem> -> tensor<64x64xf32>
    tileas.tiled_store %l, %a[%i, %i] : tensor<64x64xf32> -> tensor<128x64xf32, #smem>
    tileas.async.pipeline.yield
  }
  return
}

// -----

// Consumers in two agents: one chain each (a slot is produced once and
// consumed once). A value defined inside the agent that uses it does not
// cross.
#gmem = #tileas.encoding<global, linear>
// CHECK-LABEL: func.func @two_agents
// CHECK: %[[B0:.*]] = tileas.alloc_tensor
// CHECK-NEXT: %[[W0:.*]] = tileas.copy %arg0, %[[B0]]
// CHECK-NEXT: %[[S0:.*]] = tileas.produce_one %[[W0]]
// CHECK-NEXT: %[[B1:.*]] = tileas.alloc_tensor
// CHECK-NEXT: %[[W1:.*]] = tileas.copy %arg0, %[[B1]]
// CHECK-NEXT: %[[S1:.*]] = tileas.produce_one %[[W1]]
// CHECK-NEXT: tileas.async.pipeline.agent_switch {
// CHECK-NEXT: %[[C0:.*]] = tileas.consume_one %[[S0]]
// CHECK-NEXT: %[[T0:.*]] = tileas.convert_layout %[[C0]] {{.*}} -> tensor<64x64xf32>
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[T0]]
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[N]], %[[N]]
// CHECK-NEXT: tileas.tiled_store %[[M]], %arg1
// CHECK: }, {
// CHECK-NEXT: %[[C1:.*]] = tileas.consume_one %[[S1]]
// CHECK-NEXT: %[[T1:.*]] = tileas.convert_layout %[[C1]]
// CHECK-NEXT: tileas.tiled_store %[[T1]], %arg2
func.func @two_agents(%x: tensor<64x64xf32>, %g0: tensor<64x64xf32, #gmem>,
                      %g1: tensor<64x64xf32, #gmem>) {
  tileas.async.pipeline.agent_switch {
    %n = arith.negf %x : tensor<64x64xf32>
    %m = arith.mulf %n, %n : tensor<64x64xf32>
    tileas.tiled_store %m, %g0 : tensor<64x64xf32> -> tensor<64x64xf32, #gmem>
    tileas.async.pipeline.yield
  }, {
    tileas.tiled_store %x, %g1 : tensor<64x64xf32> -> tensor<64x64xf32, #gmem>
    tileas.async.pipeline.yield
  }
  return
}

// -----

// Nested agents. %x, defined at the top, crosses into agent 0 of the
// outer switch and into agent 1 of the inner switch: one chain each, both
// before the outer switch (the outermost switch on the way); the second
// slot, a buffer, reaches the inner agent directly. %y, defined in agent 0
// of the outer switch, crosses into agent 1 of the inner switch: its chain
// goes before the inner switch, in agent 0. A use inside an scf.for of the
// agent is served by the chain at the agent's start.
#gmem = #tileas.encoding<global, linear>
// CHECK-LABEL: func.func @nested
// CHECK: tileas.copy %arg0
// CHECK-NEXT: %[[SX0:.*]] = tileas.produce_one
// CHECK-NEXT: tileas.alloc_tensor
// CHECK-NEXT: tileas.copy %arg0
// CHECK-NEXT: %[[SX1:.*]] = tileas.produce_one
// CHECK-NEXT: tileas.async.pipeline.agent_switch {
// CHECK-NEXT: %[[CX0:.*]] = tileas.consume_one %[[SX0]]
// CHECK-NEXT: %[[TX0:.*]] = tileas.convert_layout %[[CX0]]
// CHECK-NEXT: %[[Y:.*]] = arith.negf %[[TX0]]
// CHECK-NEXT: tileas.alloc_tensor
// CHECK-NEXT: tileas.copy %[[Y]]
// CHECK-NEXT: %[[SY:.*]] = tileas.produce_one
// CHECK-NEXT: tileas.async.pipeline.agent_switch {
// CHECK-NEXT: tileas.fence "cta"
// CHECK: }, {
// CHECK-NEXT: %[[CY:.*]] = tileas.consume_one %[[SY]]
// CHECK-NEXT: %[[TY:.*]] = tileas.convert_layout %[[CY]]
// CHECK-NEXT: %[[CX1:.*]] = tileas.consume_one %[[SX1]]
// CHECK-NEXT: %[[TX1:.*]] = tileas.convert_layout %[[CX1]]
// CHECK-NEXT: scf.for
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[TX1]], %[[TY]]
func.func @nested(%x: tensor<64x64xf32>, %g: tensor<64x64xf32, #gmem>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tileas.async.pipeline.agent_switch {
    %y = arith.negf %x : tensor<64x64xf32>
    tileas.async.pipeline.agent_switch {
      tileas.fence "cta"
      tileas.async.pipeline.yield
    }, {
      scf.for %i = %c0 to %n step %c1 {
        %s = arith.addf %x, %y : tensor<64x64xf32>
        tileas.tiled_store %s, %g : tensor<64x64xf32> -> tensor<64x64xf32, #gmem>
      }
      tileas.async.pipeline.yield
    }
    tileas.async.pipeline.yield
  }
  return
}

// -----

// A register tile without a static shape has no buffer to cross in.
#gmem = #tileas.encoding<global, linear>
func.func @dynamic(%x: tensor<?x64xf32>, %g: tensor<?x64xf32, #gmem>) {
  tileas.async.pipeline.agent_switch {
    // expected-error @+1 {{uses a register tile of the enclosing scope with a dynamic shape}}
    tileas.tiled_store %x, %g : tensor<?x64xf32> -> tensor<?x64xf32, #gmem>
    tileas.async.pipeline.yield
  }
  return
}
