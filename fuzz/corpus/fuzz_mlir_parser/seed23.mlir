#a = #tileas.encoding<register, blocked>
#b = #tileas.encoding<register, dot_operand, opIdx = 0>
#c = #tileas.encoding<register, linear>
func.func @cleanups(%x: tensor<8x8xf32, #a>) -> (tensor<8x8xf32, #a>, tensor<8x8xf32, #c>) {
  %same = tileas.convert_layout %x : tensor<8x8xf32, #a> -> tensor<8x8xf32, #a>
  %1 = tileas.convert_layout %x : tensor<8x8xf32, #a> -> tensor<8x8xf32, #b>
  %2 = tileas.convert_layout %1 : tensor<8x8xf32, #b> -> tensor<8x8xf32, #c>
  return %same, %2 : tensor<8x8xf32, #a>, tensor<8x8xf32, #c>
}
