// #tileas.layout<...> is LayoutKit's layout attribute: the examples of
// docs/design.md §6.6 round-trip in canonical form, and errors carry
// LayoutKit's messages at the column of the attribute text they point to.
// RUN: layoutkit-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// CHECK: tileas.l0 = #tileas.layout<(1,1),(0,0)>
// CHECK-SAME: tileas.l1 = #tileas.layout<(16,16),(1,16)>
// CHECK-SAME: tileas.l2 = #tileas.layout<(16,16),(1,16),swizzle<2,5,2>>
// CHECK-SAME: tileas.l3 = #tileas.layout<(16,(8,2)),(1,(16,8))>
// CHECK-SAME: tileas.l4 = #tileas.layout<(128,64),(64,1),swizzle<3,4,3>,elem=nvfp4>
// CHECK-SAME: tileas.l5 = #tileas.layout<((4,32),64),((1,512),16),elem=mxf4>
func.func private @examples() attributes {
  tileas.l0 = #tileas.layout<(1,1),(0,0)>,
  tileas.l1 = #tileas.layout<(16,16),(1,16)>,
  tileas.l2 = #tileas.layout<(16,16),(1,16),swizzle<2,5,2>>,
  tileas.l3 = #tileas.layout<(16,(8,2)),(1,(16,8))>,
  tileas.l4 = #tileas.layout<(128, 64), (64, 1), swizzle<3, 4, 3>, elem = nvfp4>,
  tileas.l5 = #tileas.layout<((4,32),64),((1,512),16),elem=mxf4>
}

// -----

// A swizzle outside the hardware whitelist; LayoutKit's note lists it.
func.func private @f() attributes {
  // expected-error @+2 {{swizzle<1,2,3> is not a hardware swizzle}}
  // expected-note @+1 {{supported swizzles: swizzle<0,4,3>, swizzle<1,4,3>, swizzle<2,4,3>, swizzle<3,4,3>, swizzle<2,5,2>}}
  tileas.l = #tileas.layout<(16,16),(1,16),swizzle<1,2,3>>
}

// -----

// An unknown element type is reported before the congruence error.
func.func private @f() attributes {
  // expected-error @+2 {{unknown element type 'fp4'}}
  // expected-note @+1 {{registered element types: f64, f32}}
  tileas.l = #tileas.layout<(2,4),(1),elem=fp4>
}

// -----

func.func private @f() attributes {
  // expected-error @+1 {{shape (2,4) and stride (1) are not congruent}}
  tileas.l = #tileas.layout<(2,4),(1)>
}
