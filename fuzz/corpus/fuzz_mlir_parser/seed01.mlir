#smem = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>
func.func @no_common_kind(%src: tensor<128x64xf16, #smem>) {
  %a = tileas.tiled_load %src : tensor<128x64xf16, #smem> -> tensor<128x64xf16>
  %slot = tileas.produce_one %a {depth = 2} : tensor<128x64xf16> -> tensor<128x64xf16>
  %b = tileas.consume_one %slot : tensor<128x64xf16> -> tensor<128x64xf16>
  %c = tileas.convert_layout %b : tensor<128x64xf16> -> tensor<128x64xf16, #dot_a>
  return
}
