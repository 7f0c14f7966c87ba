#smem = #tileas.encoding<smem, shared>
#acc = #tileas.encoding<register, blocked>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>

func.func @spec_example(%a: tensor<128x64xf16, #dot_a>, %b: tensor<64x128xf16, #smem>,
                        %init_acc: tensor<128x128xf32, #acc>, %init_pre: tensor<128x128xf32, #acc>,
                        %n: index) -> (tensor<128x128xf32, #acc>, tensor<128x128xf32, #acc>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init_acc, %pre_acc = %init_pre)
      -> (tensor<128x128xf32, #acc>, tensor<128x128xf32, #acc>) {
    %x = tileas.wgmma %a, %b, %acc : tensor<128x64xf16, #dot_a>, tensor<64x128xf16, #smem>, tensor<128x128xf32, #acc> -> tensor<128x128xf32, #acc>
    scf.yield %x, %pre_acc : tensor<128x128xf32, #acc>, tensor<128x128xf32, #acc>
  } {sliceCount = 2 : i32}
  return %r#0, %r#1 : tensor<128x128xf32, #acc>, tensor<128x128xf32, #acc>
}
