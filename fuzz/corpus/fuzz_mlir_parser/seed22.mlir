#a = #tileas.encoding<register, blocked>
#b = #tileas.encoding<register, dot_operand, opIdx = 0>
func.func @if_arms(%c: i1, %x: tensor<64x64xf16, #a>, %y: tensor<64x64xf16, #a>) -> tensor<64x64xf16, #a> {
  %r = scf.if %c -> tensor<64x64xf16, #b> {
    %cx = tileas.convert_layout %x : tensor<64x64xf16, #a> -> tensor<64x64xf16, #b>
    scf.yield %cx : tensor<64x64xf16, #b>
  } else {
    %cy = tileas.convert_layout %y : tensor<64x64xf16, #a> -> tensor<64x64xf16, #b>
    scf.yield %cy : tensor<64x64xf16, #b>
  }
  %back = tileas.convert_layout %r : tensor<64x64xf16, #b> -> tensor<64x64xf16, #a>
  return %back : tensor<64x64xf16, #a>
}
