#smem = #tileas.encoding<smem, shared>
func.func @not_aliases(%flag: i1, %p: tensor<64x64xf16, #smem>) -> (tensor<64x64xf16, #smem>, tensor<64x64xf16, #smem>) {
  %a = tileas.alloc_tensor : tensor<64x64xf16, #smem>
  %b = tileas.alloc_tensor : tensor<64x64xf16, #smem>
  %s1 = tileas.select %flag, %a, %b : tensor<64x64xf16, #smem>
  %s2 = tileas.select %flag, %a, %p : tensor<64x64xf16, #smem>
  return %s1, %s2 : tensor<64x64xf16, #smem>, tensor<64x64xf16, #smem>
}
