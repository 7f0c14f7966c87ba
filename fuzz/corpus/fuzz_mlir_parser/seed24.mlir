#a = #tileas.encoding<register, blocked>
#b = #tileas.encoding<register, dot_operand, opIdx = 0>
func.func @shared_conversion(%x: tensor<64x64xf16, #a>) -> (tensor<64x64xf16, #b>, tensor<64x64xf16, #b>) {
  %c = tileas.convert_layout %x : tensor<64x64xf16, #a> -> tensor<64x64xf16, #b>
  %n = arith.negf %c : tensor<64x64xf16, #b>
  return %n, %c : tensor<64x64xf16, #b>, tensor<64x64xf16, #b>
}
