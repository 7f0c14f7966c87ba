#smem = #tileas.encoding<smem, shared>
func.func @loop_carried(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tileas.alloc_tensor : tensor<128x64xf16, #smem>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%buf = %a) -> tensor<128x64xf16, #smem> {
    %x = tileas.tiled_load %buf : tensor<128x64xf16, #smem> -> tensor<128x64xf16>
    scf.yield %a : tensor<128x64xf16, #smem>
  }
  return
}
