#smem = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
#wsmem = #tileas.encoding<smem, shared>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>
#acc = #tileas.encoding<register, blocked>
func.func @fragment(%src: tensor<128x64xf16, #smem>, %w: tensor<64x128xf16, #wsmem>,
                    %acc: tensor<128x128xf32, #acc>) -> tensor<128x128xf32, #acc> {
  %a = tileas.tiled_load %src : tensor<128x64xf16, #smem> -> tensor<128x64xf16>
  %b = tileas.convert_layout %a : tensor<128x64xf16> -> tensor<128x64xf16, #dot_a>
  %r = tileas.wgmma %b, %w, %acc : tensor<128x64xf16, #dot_a>, tensor<64x128xf16, #wsmem>,
      tensor<128x128xf32, #acc> -> tensor<128x128xf32, #acc>
  return %r : tensor<128x128xf32, #acc>
}

func.func @rounds(%x: tensor<64x64xf32, #acc>, %n: index) -> tensor<64x64xf32, #acc> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cv = tileas.convert_layout %x : tensor<64x64xf32, #acc> -> tensor<64x64xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %cv, %b = %x)
      -> (tensor<64x64xf32>, tensor<64x64xf32, #acc>) {
    %s = arith.addf %a, %a : tensor<64x64xf32>
    %g = tileas.alloc_tensor : tensor<64x64xf32, #wsmem>
    tileas.tiled_store %s, %g : tensor<64x64xf32> -> tensor<64x64xf32, #wsmem>
    scf.yield %s, %b : tensor<64x64xf32>, tensor<64x64xf32, #acc>
  }
  return %r#1 : tensor<64x64xf32, #acc>
}
