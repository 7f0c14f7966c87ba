#blocked = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#swizzled = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
#reg = #tileas.encoding<register, blocked>
func.func @survivors() -> (tensor<128x64xf16, #reg>, tensor<128x64xf16, #swizzled>) {
  %a = tileas.alloc_tensor : tensor<128x64xf16, #blocked>
  %r = tileas.convert_layout %a : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #reg>
  %b = tileas.alloc_tensor : tensor<128x64xf16, #blocked>
  tileas.fence "cta"
  %s = tileas.convert_layout %b : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #swizzled>
  return %r, %s : tensor<128x64xf16, #reg>, tensor<128x64xf16, #swizzled>
}
