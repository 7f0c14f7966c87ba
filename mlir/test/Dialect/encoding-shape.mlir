// What the rule of a memory layout's size (encoding-shape-invalid.mlir)
// lets through: layouts that place exactly the tensor's elements, any
// layout on a dynamic shape, and register layouts, which have no size rule.
// RUN: layoutkit-opt %s --tileas-layout-pipeline | layoutkit-opt | FileCheck %s

// (16,16) places 256 elements, 16x16 holds 256, on both sides; the two
// layouts are different functions (16 i + j and i + 16 j), so the
// conversion stays.
#a = #tileas.encoding<smem, shared, layout = #tileas.layout<(16,16),(16,1)>>
#b = #tileas.encoding<smem, shared, layout = #tileas.layout<(16,16),(1,16)>>
// CHECK-LABEL: func.func @matching
// CHECK: tileas.convert_layout %arg0 : tensor<16x16xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(16,16),(16,1)>>> -> tensor<16x16xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(16,16),(1,16)>>>
func.func @matching(%x: tensor<16x16xf16, #a>) -> tensor<16x16xf16, #b> {
  %c = tileas.convert_layout %x : tensor<16x16xf16, #a> -> tensor<16x16xf16, #b>
  return %c : tensor<16x16xf16, #b>
}

// A layout of other mode sizes but the same element count:
// ((4,32),(2,4)) places 4 * 32 * 2 * 4 = 1024 elements, 32x32 holds 1024;
// tmem and global are memory kinds like smem.
#t = #tileas.encoding<tmem, linear, layout = #tileas.layout<((4,32),(2,4)),((1,4),(128,256))>>
#g = #tileas.encoding<global, linear, layout = #tileas.layout<(32,32),(32,1)>>
// CHECK-LABEL: func.func private @same_count
// CHECK-SAME: tensor<32x32xf32, #tileas.encoding<tmem, linear, layout = #tileas.layout<(128,8),(1,128)>>>
// CHECK-SAME: tensor<32x32xf32, #tileas.encoding<global, linear, layout = #tileas.layout<(32,32),(32,1)>>>
func.func private @same_count(tensor<32x32xf32, #t>, tensor<32x32xf32, #g>)

// A dynamic dimension: the element count is not known, the check is
// skipped ((8,8) places 64 elements, ?x16 and ?x? hold any multiple).
#s = #tileas.encoding<smem, shared, layout = #tileas.layout<(8,8),(8,1)>>
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: tensor<?x16xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(8,8),(8,1)>>>
// CHECK-SAME: tensor<?x?xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(8,8),(8,1)>>>
func.func @dynamic(%x: tensor<?x16xf16, #s>, %y: tensor<?x?xf16, #s>) -> tensor<?x16xf16, #s> {
  return %x : tensor<?x16xf16, #s>
}

// A register layout is a (thread, value) placement and may hold one element
// in several threads: ((4,8),2) : ((2,0),1) has 4 * 8 * 2 = 64 slots for
// the 8 elements of tensor<8xf32> (thread t = t0 + 4 t1 holds elements
// 2 t0 and 2 t0 + 1 whatever t1), so its size is not the element count and
// no size rule applies to register values.
#bcast = #tileas.encoding<register, blocked, layout = #tileas.layout<((4,8),2),((2,0),1)>>
#lin = #tileas.encoding<register, linear>
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: tensor<8xf32, #tileas.encoding<register, blocked, layout = #tileas.layout<((4,8),2),((2,0),1)>>>
func.func @broadcast(%x: tensor<8xf32, #bcast>) -> tensor<8xf32, #lin> {
  %c = tileas.convert_layout %x : tensor<8xf32, #bcast> -> tensor<8xf32, #lin>
  return %c : tensor<8xf32, #lin>
}

// A memory layout may place two elements at one offset: (16,16):(0,1) is
// a broadcast view of the 256 elements of 16x16 over the 16 offsets of one
// row (element (i, j) at offset j); the rule is the size, 16 * 16 = 256.
#row = #tileas.encoding<smem, shared, layout = #tileas.layout<(16,16),(0,1)>>
// CHECK-LABEL: func.func private @broadcast_view
// CHECK-SAME: tensor<16x16xf16, #tileas.encoding<smem, shared, layout = #tileas.layout<(16,16),(0,1)>>>
func.func private @broadcast_view(tensor<16x16xf16, #row>)
