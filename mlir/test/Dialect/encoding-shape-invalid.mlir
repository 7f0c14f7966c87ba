// A memory layout (smem, tmem, global) places exactly its tensor's
// elements: layout size == product of the static shape. The encoding checks
// it wherever the tensor type appears (VerifiableTensorEncoding), so a
// mismatch stops the parse, before any pass runs.
// RUN: layoutkit-opt %s --split-input-file --verify-diagnostics --tileas-layout-pipeline

// A function argument: (8,8) places 8 * 8 = 64 elements, 16x16 holds 256.
#a = #tileas.encoding<smem, shared, layout = #tileas.layout<(8,8),(8,1)>>
#b = #tileas.encoding<smem, shared, layout = #tileas.layout<(16,16),(1,16)>>
// expected-error @+1 {{smem layout <(8,8),(8,1)> places 64 elements, the tensor of shape 16x16 holds 256}}
func.func @argument(%x: tensor<16x16xf16, #a>) -> tensor<16x16xf16, #b> {
  %c = tileas.convert_layout %x : tensor<16x16xf16, #a> -> tensor<16x16xf16, #b>
  return %c : tensor<16x16xf16, #b>
}

// -----

// A convert_layout result: the source's (16,16) places 256, the result's
// (8,8) 64 of the 256.
#a = #tileas.encoding<smem, shared, layout = #tileas.layout<(16,16),(1,16)>>
#b = #tileas.encoding<smem, shared, layout = #tileas.layout<(8,8),(8,1)>>
func.func @convert_result(%x: tensor<16x16xf16, #a>) {
  // expected-error @+1 {{smem layout <(8,8),(8,1)> places 64 elements, the tensor of shape 16x16 holds 256}}
  %c = tileas.convert_layout %x : tensor<16x16xf16, #a> -> tensor<16x16xf16, #b>
  return
}

// -----

// Too large: (32,16) places 32 * 16 = 512 elements, 16x16 holds 256.
#a = #tileas.encoding<smem, shared, layout = #tileas.layout<(16,16),(16,1)>>
#b = #tileas.encoding<smem, shared, layout = #tileas.layout<(32,16),(16,1)>>
// expected-error @+1 {{smem layout <(32,16),(16,1)> places 512 elements, the tensor of shape 16x16 holds 256}}
func.func @too_large(%x: tensor<16x16xf16, #a>) -> tensor<16x16xf16, #b> {
  %c = tileas.convert_layout %x : tensor<16x16xf16, #a> -> tensor<16x16xf16, #b>
  return %c : tensor<16x16xf16, #b>
}

// -----

// tmem: ((4,32),64) places 4 * 32 * 64 = 8192 elements, 128x128 holds
// 16384 (the message prints the normal form, (4,32):(1,4) coalesced to
// 128:1).
// expected-error @+1 {{tmem layout <(128,64),(1,128)> places 8192 elements, the tensor of shape 128x128 holds 16384}}
func.func private @tmem(tensor<128x128xf32, #tileas.encoding<tmem, linear, layout = #tileas.layout<((4,32),64),((1,4),128)>>>)

// -----

// global, rank 3: (4,4,4) places 64 elements, 4x4x8 holds 128.
// expected-error @+1 {{global layout <(4,4,4),(16,4,1)> places 64 elements, the tensor of shape 4x4x8 holds 128}}
func.func private @global(tensor<4x4x8xf32, #tileas.encoding<global, linear, layout = #tileas.layout<(4,4,4),(16,4,1)>>>)

// -----

// A shape whose element count passes 2^63-1 is not wrapped around:
// (2^56 + 1) * 256 = 2^64 + 256 would wrap to 256, the size of the
// layout, in 64-bit arithmetic.
// expected-error @+1 {{global layout <(16,16),(16,1)> places 256 elements, the tensor of shape 72057594037927937x256 holds more than 2^63-1}}
func.func private @overflow(tensor<72057594037927937x256xf16, #tileas.encoding<global, linear, layout = #tileas.layout<(16,16),(16,1)>>>)

// -----

// A rank-0 tensor holds one element; (2) places 2.
// expected-error @+1 {{smem layout <(2),(1)> places 2 elements, the rank-0 tensor holds 1}}
func.func private @rank0(tensor<f16, #tileas.encoding<smem, shared, layout = #tileas.layout<(2),(1)>>>)

// -----

// An empty tensor holds no element; (1) places 1, and so does every
// layout: a memory layout never fits an empty tensor.
// expected-error @+1 {{smem layout <(1),(0)> places 1 element, the tensor of shape 0 holds 0}}
func.func private @empty(tensor<0xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(1),(0)>>>)
