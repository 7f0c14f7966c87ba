// One 128x128 output tile of an f16 GEMM on sm_90, as a tile compiler hands
// it to layoutkit-opt before layouts are chosen. Each of the 4 steps of the
// K loop loads a 128x64 tile of A from global memory, stages it in a
// 128B-swizzled shared-memory buffer, reads it back into registers (no
// layout yet), converts it to the wgmma A-operand layout and accumulates
// A x B into a blocked register accumulator, with B already in shared
// memory. The loop also carries %spare, which
// it only hands back. `layoutkit-opt --tileas-layout-pipeline` picks a layout
// and an atom for every load and store (stmatrix into the buffer, ldmatrix
// straight into the operand layout), removes the conversion and %spare.
#gmem = #tileas.encoding<global, linear>
#sA = #tileas.encoding<smem, shared, layout = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>>>
#sB = #tileas.encoding<smem, shared>
#dot_a = #tileas.encoding<register, dot_operand, opIdx = 0>
#blocked = #tileas.encoding<register, blocked>
func.func @gemm_tile(%A: tensor<128x256xf16, #gmem>, %B: tensor<64x128xf16, #sB>,
                     %zero: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %a_smem = tileas.alloc_tensor : tensor<128x64xf16, #sA>
  %out:2 = scf.for %k = %c0 to %c4 step %c1 iter_args(%c = %zero, %spare = %zero)
      -> (tensor<128x128xf32, #blocked>, tensor<128x128xf32, #blocked>) {
    %col = arith.muli %k, %c64 : index
    %a_g = tileas.tiled_load %A[%c0, %col] : tensor<128x256xf16, #gmem> -> tensor<128x64xf16>
    tileas.tiled_store %a_g, %a_smem : tensor<128x64xf16> -> tensor<128x64xf16, #sA>
    %a_reg = tileas.tiled_load %a_smem : tensor<128x64xf16, #sA> -> tensor<128x64xf16>
    %a_op = tileas.convert_layout %a_reg : tensor<128x64xf16> -> tensor<128x64xf16, #dot_a>
    %next = tileas.wgmma %a_op, %B, %c : tensor<128x64xf16, #dot_a>, tensor<64x128xf16, #sB>,
        tensor<128x128xf32, #blocked> -> tensor<128x128xf32, #blocked>
    scf.yield %next, %spare : tensor<128x128xf32, #blocked>, tensor<128x128xf32, #blocked>
  }
  return %out#0 : tensor<128x128xf32, #blocked>
}
