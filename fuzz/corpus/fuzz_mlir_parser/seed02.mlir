#tmem = #tileas.encoding<tmem, linear>
func.func @tmem_term_decides(%src: tensor<128x64xf32, #tmem>) {
  %a = tileas.tiled_load %src : tensor<128x64xf32, #tmem> -> tensor<128x64xf32>
  return
}
