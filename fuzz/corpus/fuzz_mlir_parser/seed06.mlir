#gmem = #tileas.encoding<global, linear>
func.func @tie_on_registers(%src: tensor<128x64xf16, #gmem>) {
  %a = tileas.tiled_load %src : tensor<128x64xf16, #gmem> -> tensor<128x64xf16>
  return
}
