#smem = #tileas.encoding<smem, shared>

func.func @select_of_views(%flag: i1) -> tensor<128x64xf16, #smem> {
  %a = tileas.alloc_tensor : tensor<128x64xf16, #smem>
  %b = tileas.view %a {offset = 8192} : tensor<128x64xf16, #smem> -> tensor<128x64xf16, #smem>
  %buf = tileas.select %flag, %a, %b : tensor<128x64xf16, #smem>
  return %buf : tensor<128x64xf16, #smem>
}
