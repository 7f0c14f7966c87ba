#smem = #tileas.encoding<smem, shared>
func.func @same_place(%flag: i1) -> tensor<64x64xf16, #smem> {
  %a = tileas.alloc_tensor : tensor<64x64xf16, #smem>
  %v1 = tileas.view %a {offset = 4096} : tensor<64x64xf16, #smem> -> tensor<64x64xf16, #smem>
  %v2 = tileas.view %v1 {offset = 4096} : tensor<64x64xf16, #smem> -> tensor<64x64xf16, #smem>
  %v3 = tileas.view %a {offset = 8192} : tensor<64x64xf16, #smem> -> tensor<64x64xf16, #smem>
  %buf = tileas.select %flag, %v2, %v3 : tensor<64x64xf16, #smem>
  return %buf : tensor<64x64xf16, #smem>
}
