#smem = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>

func.func @bulk_copy_wins(%src: tensor<128x64xf16, #smem>) {
  %a = tileas.tiled_load %src : tensor<128x64xf16, #smem> -> tensor<128x64xf16>
  %b = tileas.convert_layout %a : tensor<128x64xf16> -> tensor<128x64xf16>
  return
}
