#a = #tileas.encoding<register, blocked>
#b = #tileas.encoding<register, dot_operand, opIdx = 0>
func.func @register_side(%x: tensor<64x64xf16, #a>) -> tensor<64x64xf16, #a> {
  %c = tileas.convert_layout %x : tensor<64x64xf16, #a> -> tensor<64x64xf16, #b>
  %n = arith.negf %c : tensor<64x64xf16, #b>
  %s = arith.addf %n, %n : tensor<64x64xf16, #b>
  %back = tileas.convert_layout %s : tensor<64x64xf16, #b> -> tensor<64x64xf16, #a>
  return %back : tensor<64x64xf16, #a>
}
