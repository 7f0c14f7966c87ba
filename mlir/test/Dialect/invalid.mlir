// Each verifier rejects what it must, with its message.
// RUN: layoutkit-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{result must be a smem or tmem buffer}}
%a = tileas.alloc_tensor : tensor<16x16xf16>

// -----

#smem = #tileas.encoding<smem, shared>
%a = tileas.alloc_tensor : tensor<16x16xf16, #smem>
// expected-error @+1 {{needs exactly one offset}}
%b = tileas.view %a : tensor<16x16xf16, #smem> -> tensor<16x16xf16, #smem>

// -----

#smem = #tileas.encoding<smem, shared>
%a = tileas.alloc_tensor : tensor<16x16xf16, #smem>
// expected-error @+1 {{offset must be non-negative, got -4}}
%b = tileas.view %a {offset = -4} : tensor<16x16xf16, #smem> -> tensor<16x16xf16, #smem>

// -----

#smem = #tileas.encoding<smem, shared>
#tmem = #tileas.encoding<tmem, linear>
%a = tileas.alloc_tensor : tensor<16x16xf16, #smem>
// expected-error @+1 {{a view stays in the memory kind of its source}}
%b = tileas.view %a {offset = 0} : tensor<16x16xf16, #smem> -> tensor<16x16xf16, #tmem>

// -----

#smem = #tileas.encoding<smem, shared>
func.func @f(%r: tensor<16x16xf16>) {
  %a = tileas.alloc_tensor : tensor<16x16xf16, #smem>
  // expected-error @+2 {{unknown copy atom 'ldmatrix.x3.b16'}}
  // expected-note @+1 {{copy atoms: the data-movement atoms of the hardware catalog}}
  %c = tileas.copy %a, %r {atom = "ldmatrix.x3.b16"} : tensor<16x16xf16, #smem>, tensor<16x16xf16> -> tensor<16x16xf16>
  return
}

// -----

#smem = #tileas.encoding<smem, shared>
func.func @f(%r: tensor<16x16xf16>) {
  %a = tileas.alloc_tensor : tensor<16x16xf16, #smem>
  // expected-error @+1 {{copy atom 'stmatrix.x4.b16' moves register to smem, not smem to register}}
  %c = tileas.copy %a, %r {atom = "stmatrix.x4.b16"} : tensor<16x16xf16, #smem>, tensor<16x16xf16> -> tensor<16x16xf16>
  return
}

// -----

func.func @f(%a: tensor<16x16xf16>, %b: tensor<16x8xf16>) {
  // expected-error @+1 {{source and destination must have the same shape}}
  %c = tileas.copy %a, %b {atom = "universal"} : tensor<16x16xf16>, tensor<16x8xf16> -> tensor<16x8xf16>
  return
}

// -----

func.func @f(%a: tensor<16x16xf16>, %b: tensor<32x32xf16>) {
  // expected-error @+1 {{slice [24, 40) of dimension 1 exceeds the dest extent 32}}
  %c = tileas.insert_slice %a into %b[0, 24] : tensor<16x16xf16> into tensor<32x32xf16>
  return
}

// -----

// Offsets near 2^63: off + extent is computed with a check, so an offset
// whose end would wrap past 2^63-1 is refused like a small one past the
// dest (2^63-1 + 16 wraps to a negative end without the check).
func.func @f(%a: tensor<16x16xf16>, %b: tensor<32x32xf16>) {
  // expected-error @+1 {{slice of dimension 1 at offset 9223372036854775807 with extent 16 ends past 2^63-1 (dest extent 32)}}
  %c = tileas.insert_slice %a into %b[0, 9223372036854775807] : tensor<16x16xf16> into tensor<32x32xf16>
  return
}

// -----

// 2^63-17 + 16 = 2^63-1 is representable: past the dest, the usual message.
func.func @f(%a: tensor<16x16xf16>, %b: tensor<32x32xf16>) {
  // expected-error @+1 {{slice [9223372036854775791, 9223372036854775807) of dimension 0 exceeds the dest extent 32}}
  %c = tileas.insert_slice %a into %b[9223372036854775791, 0] : tensor<16x16xf16> into tensor<32x32xf16>
  return
}

// -----

func.func @f(%a: tensor<16x16xf16>) {
  // expected-error @+1 {{source must be a smem, tmem or global buffer}}
  %c = tileas.tiled_load %a : tensor<16x16xf16> -> tensor<16x16xf16>
  return
}

// -----

#gmem = #tileas.encoding<global, linear>
func.func @f(%g: tensor<64x64xf16, #gmem>, %i: index) {
  // expected-error @+1 {{expected 2 indices (one per buffer dimension), got 1}}
  %c = tileas.tiled_load %g[%i] : tensor<64x64xf16, #gmem> -> tensor<16x16xf16>
  return
}

// -----

#gmem = #tileas.encoding<global, linear>
func.func @f(%g: tensor<64x64xf16, #gmem>, %v: tensor<16x16xf16>) {
  // expected-error @+1 {{without indices, buffer and tile must have the same shape}}
  tileas.tiled_store %v, %g : tensor<16x16xf16> -> tensor<64x64xf16, #gmem>
  return
}

// -----

func.func @f(%a: tensor<16x16xf16>) {
  // expected-error @+1 {{source and result must have the same element type}}
  %c = tileas.convert_layout %a : tensor<16x16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @f(%c: i32, %a: tensor<16x16xf16>) {
  // expected-error @+1 {{operand #0 must be 1-bit signless integer}}
  %s = "tileas.select"(%c, %a, %a) : (i32, tensor<16x16xf16>, tensor<16x16xf16>) -> tensor<16x16xf16>
  return
}

// -----

func.func @f(%s: tensor<64x32xf32>, %i: tensor<16x16xi32>) {
  // expected-error @+1 {{indices dimension 1 must match the data}}
  %g = tileas.gather %s[%i] {axis = 0} : tensor<64x32xf32>, tensor<16x16xi32> -> tensor<16x16xf32>
  return
}

// -----

func.func @f(%s: tensor<64x32xf32>, %i: tensor<16x32xi32>, %v: tensor<8x32xf32>) {
  // expected-error @+1 {{values must have the shape of the indices}}
  %g = tileas.scatter %v into %s[%i] {axis = 0} : tensor<8x32xf32>, tensor<16x32xi32> -> tensor<64x32xf32>, tensor<64x32xf32>
  return
}

// -----

#smem = #tileas.encoding<smem, shared>
func.func @f(%a: tensor<64x16xf16>, %b: tensor<16x64xf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{b may not live in register (allowed: smem)}}
  %r = tileas.wgmma %a, %b, %c : tensor<64x16xf16>, tensor<16x64xf16>, tensor<64x64xf32> -> tensor<64x64xf32>
  return
}

// -----

#smem = #tileas.encoding<smem, shared>
func.func @f(%a: tensor<32x16xf16>, %b: tensor<16x64xf16, #smem>, %c: tensor<32x64xf32>) {
  // expected-error @+1 {{M must be a multiple of 64}}
  %r = tileas.wgmma %a, %b, %c : tensor<32x16xf16>, tensor<16x64xf16, #smem>, tensor<32x64xf32> -> tensor<32x64xf32>
  return
}

// -----

#smem = #tileas.encoding<smem, shared>
func.func @f(%a: tensor<128x16xf16, #smem>, %b: tensor<16x64xf16, #smem>, %c: tensor<128x64xf32>) {
  // expected-error @+1 {{acc may not live in register (allowed: tmem)}}
  %r = tileas.tcgen05_mma %a, %b, %c : tensor<128x16xf16, #smem>, tensor<16x64xf16, #smem>, tensor<128x64xf32> -> tensor<128x64xf32>
  return
}

// -----

// expected-error @+1 {{unknown fence scope "warp"}}
tileas.fence "warp"

// -----

// expected-error @+1 {{pending must be non-negative, got -1}}
tileas.async_wait {pending = -1}

// -----

func.func @f(%x: tensor<16x16xf16>) {
  // expected-error @+1 {{pipeline depth must be at least 1, got 0}}
  %s = tileas.produce_one %x {depth = 0} : tensor<16x16xf16> -> tensor<16x16xf16>
  return
}

// -----

#reg = #tileas.encoding<register, blocked>
func.func @f(%s: tensor<16x16xf16, #reg>) {
  // expected-error @+1 {{a pipeline slot may not live in register (allowed: smem tmem)}}
  %x = tileas.consume_one %s : tensor<16x16xf16, #reg> -> tensor<16x16xf16>
  return
}

// -----

func.func @f(%x: tensor<16x16xf16>) {
  // expected-error @+1 {{block arguments must have the types of the operands}}
  %z = tileas.async.pipeline.execute (%x : tensor<16x16xf16>) -> tensor<16x16xf16> {
  ^bb0(%in: tensor<16x16xf32>):
    tileas.async.pipeline.yield %x : tensor<16x16xf16>
  }
  return
}

// -----

func.func @f(%x: tensor<16x16xf16>) {
  tileas.async.pipeline.agent_switch {
    // expected-error @+1 {{must yield the types of its parent's results}}
    tileas.async.pipeline.yield %x : tensor<16x16xf16>
  }
  return
}

// -----

// expected-error @+1 {{pragma "unroll" is not closed by a pragma_end in its block}}
tileas.pragma_begin "unroll"

// -----

tileas.pragma_begin "a"
// expected-error @+1 {{pragma_end "b" has no pragma_begin before it in its block}}
tileas.pragma_end "b"
tileas.pragma_end "a"

// -----

// expected-error @+1 {{the shared layout family places smem, tmem or global values, not register values}}
func.func private @f(tensor<16x16xf16, #tileas.encoding<register, shared>>)

// -----

// expected-error @+1 {{a swizzled layout belongs to a smem, tmem or global value, not to a register value}}
func.func private @f(tensor<16x16xf16, #tileas.encoding<register, linear, layout = #tileas.layout<(16,16),(16,1),swizzle<2,5,2>>>>)

// -----

// expected-error @+1 {{a register value's layout is a (thread, value) layout of 2 top-level modes, not 3}}
func.func private @f(tensor<16x16xf16, #tileas.encoding<register, linear, layout = #tileas.layout<(4,8,8),(1,4,32)>>>)

// -----

// expected-error @+2 {{unknown atom 'ldmatrix.x8.b16'}}
// expected-note @+1 {{atoms are named mma.<shape>}}
func.func private @f(tensor<16x16xf16, #tileas.encoding<register, dot_operand, atom = "ldmatrix.x8.b16">>)

// -----

// An empty name is no atom either (the error is at the name).
// expected-error @+2 {{unknown atom ''}}
// expected-note @+1 {{atoms are named mma.<shape>}}
func.func private @f(tensor<16x16xf16, #tileas.encoding<register, dot_operand, atom = "">>)

// -----

// A field is given once: the second is refused, not the last kept.
// expected-error @+1 {{encoding field 'opIdx' is given twice}}
func.func private @f(tensor<16x16xf16, #tileas.encoding<register, dot_operand, opIdx = 0, opIdx = 1>>)

// -----

// expected-error @+1 {{encoding field 'atom' is given twice}}
func.func private @f(tensor<16x16xf16, #tileas.encoding<register, dot_operand, atom = "ldmatrix.x4.b16", atom = "ldmatrix.x2.b16">>)

// -----

// expected-error @+1 {{unknown memory kind 'shmem' (expected register, smem, tmem or global)}}
func.func private @f(tensor<16x16xf16, #tileas.encoding<shmem, shared>>)

// -----

// expected-error @+1 {{smem layout <(16,16),(16,1)> places 256 elements, the tensor of shape 16x32 holds 512}}
%a = tileas.alloc_tensor : tensor<16x32xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(16,16),(16,1)>>>

// -----

func.func @f(%a: tensor<16x16xf16>, %b: tensor<16x16xf16, #tileas.encoding<global, linear>>) {
  // expected-error @+1 {{unknown atomic kind "xor" (expected add, min or max)}}
  tileas.tiled_atomic "xor" %a, %b : tensor<16x16xf16> -> tensor<16x16xf16, #tileas.encoding<global, linear>>
  return
}

// -----

func.func @f(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>) {
  // expected-error @+1 {{dest must be a smem, tmem or global buffer}}
  tileas.tiled_atomic "add" %a, %b : tensor<16x16xf16> -> tensor<16x16xf16>
  return
}
