// The order propagate -> cleanup -> rewrite -> cleanup -> cleanup of
// tileas-remove-layout-conversions: a chain that reaches its fixed point
// (no conversion left) only in that order.
// RUN: layoutkit-opt %s --pass-pipeline='builtin.module(func.func(tileas-remove-layout-conversions))' | FileCheck %s
//
// The then arm yields convert(convert(x : A -> C) : C -> B), the else arm
// convert(y : A -> B), and the merged value is converted back to A.
//  1. The scf.if rewrite needs both arms to yield a conversion from one
//     type; the then arm's conversion comes from C until the first cleanup
//     folds its chain into x : A -> B. Rewriting before that cleanup finds
//     C against A and leaves the arms alone, and no later step reopens it.
//  2. The rewrite makes the if yield the A values and adds one conversion
//     A -> B after it, which now feeds the conversion back to A: a chain
//     A -> B -> A that exists only after the rewrite. The cleanup after the
//     rewrite folds it to the identity A -> A and drops it; a single
//     cleanup (before the rewrite) cannot, since the chain did not exist
//     then.
// Either order change (no cleanup before the rewrite, or none after it)
// leaves conversions, which the CHECK-NEXT lines below reject.

#a = #tileas.encoding<register, blocked>
#b = #tileas.encoding<register, dot_operand, opIdx = 0>
#c = #tileas.encoding<register, linear>
// CHECK-LABEL: func.func @fixed_point_needs_the_order
// CHECK-NEXT: %[[R:.*]] = scf.if %arg0 -> (tensor<64x64xf16, #tileas.encoding<register, blocked>>) {
// CHECK-NEXT: scf.yield %arg1
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %arg2
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]
func.func @fixed_point_needs_the_order(%p: i1, %x: tensor<64x64xf16, #a>, %y: tensor<64x64xf16, #a>)
    -> tensor<64x64xf16, #a> {
  %r = scf.if %p -> tensor<64x64xf16, #b> {
    %1 = tileas.convert_layout %x : tensor<64x64xf16, #a> -> tensor<64x64xf16, #c>
    %2 = tileas.convert_layout %1 : tensor<64x64xf16, #c> -> tensor<64x64xf16, #b>
    scf.yield %2 : tensor<64x64xf16, #b>
  } else {
    %3 = tileas.convert_layout %y : tensor<64x64xf16, #a> -> tensor<64x64xf16, #b>
    scf.yield %3 : tensor<64x64xf16, #b>
  }
  %back = tileas.convert_layout %r : tensor<64x64xf16, #b> -> tensor<64x64xf16, #a>
  return %back : tensor<64x64xf16, #a>
}
