// A layout attribute that names its element type (`elem=`) must name the
// width of the tensor's elements, whatever the memory kind: its swizzle
// acts on byte addresses, and the element's width converts it. The
// encoding checks it wherever the tensor type appears.
// RUN: layoutkit-opt %s --split-input-file --verify-diagnostics

#a = #tileas.encoding<smem, shared, layout = #tileas.layout<(8,64),(64,1),swizzle<3,4,3>,elem=f32>>
// expected-error @+1 {{layout <(8,64),(64,1),swizzle<3,4,3>,elem=f32> names elem=f32 (32 bits), but the tensor's elements are 'f16' (16 bits)}}
func.func @wider(%x: tensor<8x64xf16, #a>) {
  return
}

// -----

#a = #tileas.encoding<smem, shared, layout = #tileas.layout<(8,64),(64,1),elem=f16>>
// expected-error @+1 {{names elem=f16 (16 bits), but the tensor's elements are 'complex<f32>', which have no int or float width}}
func.func @complex(%x: tensor<8x64xcomplex<f32>, #a>) {
  return
}

// -----

// Agreeing widths verify: tf32 is stored in 32 bits, as f32 (the registry's
// tf32 is 32 bits too), and bf16 has f16's width.
#a = #tileas.encoding<smem, shared, layout = #tileas.layout<(8,32),(32,1),swizzle<3,4,3>,elem=f32>>
#b = #tileas.encoding<smem, shared, layout = #tileas.layout<(8,64),(64,1),swizzle<3,4,3>,elem=f16>>
func.func @agree(%x: tensor<8x32xtf32, #a>, %y: tensor<8x64xbf16, #b>) {
  return
}

// -----

// One bit is "1 bit".
#a = #tileas.encoding<smem, shared, layout = #tileas.layout<(8,64),(64,1),elem=b1>>
// expected-error @+1 {{names elem=b1 (1 bit), but the tensor's elements are 'i8' (8 bits)}}
func.func @one_bit(%x: tensor<8x64xi8, #a>) {
  return
}

// -----

// Without elem= the tensor's elements convert the swizzle, as elem= of
// their width would: 6-bit elements convert no byte swizzle, whether
// elem=f6e2m3 names them or the tensor's type does.
#a = #tileas.encoding<smem, shared, layout = #tileas.layout<(8,64),(64,1),swizzle<3,4,3>>>
// expected-error @+1 {{layout <(8,64),(64,1),swizzle<3,4,3>> over the tensor's elements, 'f6E2M3FN': swizzle<3,4,3> acts on byte addresses, and an element of 6 bits is no power-of-two part or multiple of a byte}}
func.func @six_bits(%x: tensor<8x64xf6E2M3FN, #a>) {
  return
}

// -----

// A swizzle narrower than the elements (16-byte units, 256-bit elements)
// is refused the same way; without a swizzle any width verifies.
#a = #tileas.encoding<smem, shared, layout = #tileas.layout<(8,64),(64,1),swizzle<3,4,3>>>
// expected-error @+1 {{over the tensor's elements, 'i256': swizzle<3,4,3> moves 16-byte units, narrower than an element of 256 bits}}
func.func @too_wide(%x: tensor<8x64xi256, #a>) {
  return
}

// -----

#a = #tileas.encoding<smem, shared, layout = #tileas.layout<(8,64),(64,1)>>
func.func @unswizzled(%x: tensor<8x64xf6E2M3FN, #a>, %y: tensor<8x64xi256, #a>) {
  return
}

// -----

// A tensor type whose element type does not parse gives the parser's error
// alone: the encoding's width checks skip the missing element.
#a = #tileas.encoding<smem, shared, layout = #tileas.layout<(8,64),(64,1),swizzle<3,4,3>>>
// expected-error @+1 {{expected non-function type}}
func.func @no_element(%x: tensor<8x64x, #a>) {
  return
}
