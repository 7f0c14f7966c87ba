#smem = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
func.func @tie_on_bank_conflicts(%src: tensor<128x64xf16, #smem>) {
  %a = tileas.tiled_load %src : tensor<128x64xf16, #smem> -> tensor<128x64xf16>
  return
}
