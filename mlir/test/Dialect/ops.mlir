// Every tileas op parses, verifies and prints back to the same text.
// RUN: layoutkit-opt %s | layoutkit-opt | FileCheck %s

#smem = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
#smem_b = #tileas.encoding<smem, shared>
#tmem = #tileas.encoding<tmem, linear>
#gmem = #tileas.encoding<global, linear>
#dot_a = #tileas.encoding<register, dot_operand, atom = "ldmatrix.x4.b16", opIdx = 0>
#acc = #tileas.encoding<register, blocked>

// CHECK-LABEL: func.func @buffers
func.func @buffers(%c: i1, %i: index) {
  // CHECK: %[[A:.*]] = tileas.alloc_tensor : tensor<128x64xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>>
  %a = tileas.alloc_tensor : tensor<128x64xf16, #smem>
  // CHECK: %[[B:.*]] = tileas.view %[[A]] {offset = 8192 : i64}
  %b = tileas.view %a {offset = 8192} : tensor<128x64xf16, #smem> -> tensor<128x64xf16, #smem>
  // CHECK: tileas.view %[[A]][%{{.*}}] :
  %d = tileas.view %a[%i] : tensor<128x64xf16, #smem> -> tensor<128x64xf16, #smem>
  // CHECK: tileas.select %{{.*}}, %[[A]], %[[B]] : tensor<128x64xf16
  %s = tileas.select %c, %a, %b : tensor<128x64xf16, #smem>
  return
}

// CHECK-LABEL: func.func @copies
func.func @copies(%g: tensor<128x64xf16, #gmem>, %r: tensor<128x64xf16, #dot_a>) {
  %a = tileas.alloc_tensor : tensor<128x64xf16, #smem>
  // CHECK: tileas.copy %{{.*}}, %{{.*}} {atom = "cp.async.bulk.tensor"}
  %s = tileas.copy %g, %a {atom = "cp.async.bulk.tensor"} : tensor<128x64xf16, #gmem>, tensor<128x64xf16, #smem> -> tensor<128x64xf16, #smem>
  // CHECK: tileas.copy %{{.*}}, %{{.*}} {atom = "ldmatrix.x4.b16"}
  %l = tileas.copy %s, %r {atom = "ldmatrix.x4.b16"} : tensor<128x64xf16, #smem>, tensor<128x64xf16, #dot_a> -> tensor<128x64xf16, #dot_a>
  // CHECK: tileas.copy %{{.*}}, %{{.*}} {atom = "universal"}
  %u = tileas.copy %l, %a {atom = "universal"} : tensor<128x64xf16, #dot_a>, tensor<128x64xf16, #smem> -> tensor<128x64xf16, #smem>
  // CHECK: tileas.insert_slice %{{.*}} into %{{.*}}[0, 32] : tensor<128x32xf16> into tensor<128x64xf16>
  %small = arith.constant dense<0.0> : tensor<128x32xf16>
  %big = arith.constant dense<0.0> : tensor<128x64xf16>
  %ins = tileas.insert_slice %small into %big[0, 32] : tensor<128x32xf16> into tensor<128x64xf16>
  return
}

// CHECK-LABEL: func.func @loads_stores
func.func @loads_stores(%src: tensor<128x64xf16, #smem>, %g: tensor<256x64xf16, #gmem>, %i: index) {
  // CHECK: tileas.tiled_load %{{.*}} : tensor<128x64xf16, {{.*}}> -> tensor<128x64xf16>
  %a = tileas.tiled_load %src : tensor<128x64xf16, #smem> -> tensor<128x64xf16>
  // CHECK: tileas.tiled_load %{{.*}}[%{{.*}}, %{{.*}}] :
  %t = tileas.tiled_load %g[%i, %i] : tensor<256x64xf16, #gmem> -> tensor<128x64xf16>
  // CHECK: tileas.convert_layout %{{.*}} : tensor<128x64xf16> -> tensor<128x64xf16, #tileas.encoding<register, dot_operand
  %b = tileas.convert_layout %a : tensor<128x64xf16> -> tensor<128x64xf16, #dot_a>
  // CHECK: tileas.tiled_store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : tensor<128x64xf16> -> tensor<256x64xf16
  tileas.tiled_store %t, %g[%i, %i] : tensor<128x64xf16> -> tensor<256x64xf16, #gmem>
  return
}

// CHECK-LABEL: func.func @indexed
func.func @indexed(%src: tensor<64x32xf32>, %idx: tensor<16x32xi32>, %vals: tensor<16x32xf32>) {
  // CHECK: tileas.gather %{{.*}}[%{{.*}}] {axis = 0 : i64} : tensor<64x32xf32>, tensor<16x32xi32> -> tensor<16x32xf32>
  %g = tileas.gather %src[%idx] {axis = 0} : tensor<64x32xf32>, tensor<16x32xi32> -> tensor<16x32xf32>
  // CHECK: tileas.scatter %{{.*}} into %{{.*}}[%{{.*}}] {axis = 0 : i64}
  %s = tileas.scatter %vals into %src[%idx] {axis = 0} : tensor<16x32xf32>, tensor<16x32xi32> -> tensor<64x32xf32>, tensor<64x32xf32>
  return
}

// CHECK-LABEL: func.func @mma
func.func @mma(%a: tensor<128x64xf16, #dot_a>, %b: tensor<64x128xf16, #smem_b>, %acc: tensor<128x128xf32, #acc>,
               %as: tensor<128x64xf16, #smem_b>, %tacc: tensor<128x128xf32, #tmem>) {
  // CHECK: tileas.wgmma
  %r = tileas.wgmma %a, %b, %acc : tensor<128x64xf16, #dot_a>, tensor<64x128xf16, #smem_b>, tensor<128x128xf32, #acc> -> tensor<128x128xf32, #acc>
  // CHECK: tileas.tcgen05_mma
  %t = tileas.tcgen05_mma %as, %b, %tacc : tensor<128x64xf16, #smem_b>, tensor<64x128xf16, #smem_b>, tensor<128x128xf32, #tmem> -> tensor<128x128xf32, #tmem>
  return
}

// CHECK-LABEL: func.func @pipeline
func.func @pipeline(%x: tensor<128x64xf16>) -> tensor<128x64xf16> {
  // CHECK: tileas.pragma_begin "unroll"
  tileas.pragma_begin "unroll"
  // CHECK: tileas.produce_one %{{.*}} {depth = 2 : i64} : tensor<128x64xf16> -> tensor<128x64xf16, #tileas.encoding<smem, shared>>
  %slot = tileas.produce_one %x {depth = 2} : tensor<128x64xf16> -> tensor<128x64xf16, #smem_b>
  // CHECK: tileas.consume_one %{{.*}} : tensor<128x64xf16, #tileas.encoding<smem, shared>> -> tensor<128x64xf16>
  %y = tileas.consume_one %slot : tensor<128x64xf16, #smem_b> -> tensor<128x64xf16>
  // CHECK: tileas.pragma_end "unroll"
  tileas.pragma_end "unroll"
  // CHECK: tileas.async.pipeline.execute(%{{.*}} : tensor<128x64xf16>) -> tensor<128x64xf16> {
  // CHECK-NEXT: ^bb0(%[[IN:.*]]: tensor<128x64xf16>):
  // CHECK-NEXT: tileas.async.pipeline.yield %[[IN]] : tensor<128x64xf16>
  %z = tileas.async.pipeline.execute (%y : tensor<128x64xf16>) -> tensor<128x64xf16> {
  ^bb0(%in: tensor<128x64xf16>):
    tileas.async.pipeline.yield %in : tensor<128x64xf16>
  }
  // CHECK: tileas.async.pipeline.agent_switch {
  // CHECK-NEXT: tileas.fence "async_proxy"
  // CHECK: }, {
  // CHECK-NEXT: tileas.async_wait {pending = 1 : i64}
  tileas.async.pipeline.agent_switch {
    tileas.fence "async_proxy"
    tileas.async.pipeline.yield
  }, {
    tileas.async_wait {pending = 1}
    tileas.async.pipeline.yield
  }
  return %z : tensor<128x64xf16>
}
