#blocked = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1)>>
#swizzled = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
func.func @other_user_through_view() -> (tensor<128x64xf16, #swizzled>, tensor<128x64xf16, #blocked>) {
  %a = tileas.alloc_tensor : tensor<128x64xf16, #blocked>
  %c = tileas.convert_layout %a : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #swizzled>
  return %c, %a : tensor<128x64xf16, #swizzled>, tensor<128x64xf16, #blocked>
}
