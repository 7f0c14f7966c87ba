#smem = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>
#wsmem = #tileas.encoding<smem, shared>
#acc = #tileas.encoding<register, blocked>
func.func @register_fragment_consumer(%src: tensor<128x64xf16, #smem>, %w: tensor<64x128xf16, #wsmem>,
                                      %acc: tensor<128x128xf32, #acc>) -> tensor<128x128xf32, #acc> {
  %a = tileas.tiled_load %src : tensor<128x64xf16, #smem> -> tensor<128x64xf16>
  %b = tileas.convert_layout %a : tensor<128x64xf16> -> tensor<128x64xf16, #dot_a>
  %r = tileas.wgmma %b, %w, %acc : tensor<128x64xf16, #dot_a>, tensor<64x128xf16, #wsmem>, tensor<128x128xf32, #acc> -> tensor<128x128xf32, #acc>
  return %r : tensor<128x128xf32, #acc>
}
