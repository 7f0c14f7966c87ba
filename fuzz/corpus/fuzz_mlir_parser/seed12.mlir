#plain = #tileas.encoding<smem, shared, layout = #tileas.layout<(64,64),(64,1)>>
#swz = #tileas.encoding<smem, shared, layout = #tileas.layout<(64,64),(64,1),swizzle<3,4,3>>>
func.func @layout_changes(%flag: i1) -> tensor<64x64xf16, #swz> {
  %a = tileas.alloc_tensor : tensor<64x64xf16, #plain>
  %v = tileas.view %a {offset = 4096} : tensor<64x64xf16, #plain> -> tensor<64x64xf16, #swz>
  %w = tileas.view %a {offset = 0} : tensor<64x64xf16, #plain> -> tensor<64x64xf16, #swz>
  %buf = tileas.select %flag, %v, %w : tensor<64x64xf16, #swz>
  return %buf : tensor<64x64xf16, #swz>
}
