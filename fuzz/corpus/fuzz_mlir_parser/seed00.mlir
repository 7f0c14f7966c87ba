#smem = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
#smem_b = #tileas.encoding<smem, shared>
#tmem = #tileas.encoding<tmem, linear>
#gmem = #tileas.encoding<global, linear>
#dot_a = #tileas.encoding<register, dot_operand, atom = "ldmatrix.x4.b16", opIdx = 0>
#acc = #tileas.encoding<register, blocked>

func.func @buffers(%c: i1, %i: index) {
  %a = tileas.alloc_tensor : tensor<128x64xf16, #smem>
  %b = tileas.view %a {offset = 8192} : tensor<128x64xf16, #smem> -> tensor<128x64xf16, #smem>
  %d = tileas.view %a[%i] : tensor<128x64xf16, #smem> -> tensor<128x64xf16, #smem>
  %s = tileas.select %c, %a, %b : tensor<128x64xf16, #smem>
  return
}

func.func @copies(%g: tensor<128x64xf16, #gmem>, %r: tensor<128x64xf16, #dot_a>) {
  %a = tileas.alloc_tensor : tensor<128x64xf16, #smem>
  %s = tileas.copy %g, %a {atom = "cp.async.bulk.tensor"} : tensor<128x64xf16, #gmem>, tensor<128x64xf16, #smem> -> tensor<128x64xf16, #smem>
  %l = tileas.copy %s, %r {atom = "ldmatrix.x4.b16"} : tensor<128x64xf16, #smem>, tensor<128x64xf16, #dot_a> -> tensor<128x64xf16, #dot_a>
  %u = tileas.copy %l, %a {atom = "universal"} : tensor<128x64xf16, #dot_a>, tensor<128x64xf16, #smem> -> tensor<128x64xf16, #smem>
  %small = arith.constant dense<0.0> : tensor<128x32xf16>
  %big = arith.constant dense<0.0> : tensor<128x64xf16>
  %ins = tileas.insert_slice %small into %big[0, 32] : tensor<128x32xf16> into tensor<128x64xf16>
  return
}

func.func @loads_stores(%src: tensor<128x64xf16, #smem>, %g: tensor<256x64xf16, #gmem>, %i: index) {
  %a = tileas.tiled_load %src : tensor<128x64xf16, #smem> -> tensor<128x64xf16>
  %t = tileas.tiled_load %g[%i, %i] : tensor<256x64xf16, #gmem> -> tensor<128x64xf16>
  %b = tileas.convert_layout %a : tensor<128x64xf16> -> tensor<128x64xf16, #dot_a>
  tileas.tiled_store %t, %g[%i, %i] : tensor<128x64xf16> -> tensor<256x64xf16, #gmem>
  return
}

func.func @indexed(%src: tensor<64x32xf32>, %idx: tensor<16x32xi32>, %vals: tensor<16x32xf32>) {
  %g = tileas.gather %src[%idx] {axis = 0} : tensor<64x32xf32>, tensor<16x32xi32> -> tensor<16x32xf32>
  %s = tileas.scatter %vals into %src[%idx] {axis = 0} : tensor<16x32xf32>, tensor<16x32xi32> -> tensor<64x32xf32>, tensor<64x32xf32>
  return
}

func.func @mma(%a: tensor<128x64xf16, #dot_a>, %b: tensor<64x128xf16, #smem_b>, %acc: tensor<128x128xf32, #acc>,
               %as: tensor<128x64xf16, #smem_b>, %tacc: tensor<128x128xf32, #tmem>) {
  %r = tileas.wgmma %a, %b, %acc : tensor<128x64xf16, #dot_a>, tensor<64x128xf16, #smem_b>, tensor<128x128xf32, #acc> -> tensor<128x128xf32, #acc>
  %t = tileas.tcgen05_mma %as, %b, %tacc : tensor<128x64xf16, #smem_b>, tensor<64x128xf16, #smem_b>, tensor<128x128xf32, #tmem> -> tensor<128x128xf32, #tmem>
  return
}

func.func @pipeline(%x: tensor<128x64xf16>) -> tensor<128x64xf16> {
  tileas.pragma_begin "unroll"
  %slot = tileas.produce_one %x {depth = 2} : tensor<128x64xf16> -> tensor<128x64xf16, #smem_b>
  %y = tileas.consume_one %slot : tensor<128x64xf16, #smem_b> -> tensor<128x64xf16>
  tileas.pragma_end "unroll"
  %z = tileas.async.pipeline.execute (%y : tensor<128x64xf16>) -> tensor<128x64xf16> {
  ^bb0(%in: tensor<128x64xf16>):
    tileas.async.pipeline.yield %in : tensor<128x64xf16>
  }
  tileas.async.pipeline.agent_switch {
    tileas.fence "async_proxy"
    tileas.async.pipeline.yield
  }, {
    tileas.async_wait {pending = 1}
    tileas.async.pipeline.yield
  }
  return %z : tensor<128x64xf16>
}
