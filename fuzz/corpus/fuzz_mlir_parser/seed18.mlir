#blocked = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#swizzled = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>
#acc = #tileas.encoding<register, blocked>

func.func @buffer_side(%src: tensor<128x64xf16, #tileas.encoding<global, linear>>, %a: tensor<64x128xf16, #dot_a>,
                       %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
  %t = tileas.tiled_load %src : tensor<128x64xf16, #tileas.encoding<global, linear>> -> tensor<128x64xf16, #blocked>
  %c = tileas.convert_layout %t : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #swizzled>
  %r = tileas.wgmma %a, %c, %acc : tensor<64x128xf16, #dot_a>, tensor<128x64xf16, #swizzled>, tensor<64x64xf32, #acc> -> tensor<64x64xf32, #acc>
  return %r : tensor<64x64xf32, #acc>
}
