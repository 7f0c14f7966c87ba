// tileas-slicing: the six diagnostics of docs/design.md §6.7, each on
// the input that triggers it, with a note saying what was found where.
// The second RUN line pins the messages byte for byte (the lower-bound
// message ends with a space) as layoutkit-opt prints them.
// RUN: layoutkit-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(tileas-slicing))'
// RUN: not layoutkit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tileas-slicing))' 2>&1 | FileCheck %s --check-prefix=MSG --strict-whitespace

// A sliceCount that is not an integer.
// MSG: error: 'scf.for' op The `sliceCount` need to be a `IntegerAttr`{{$}}
func.func @string_count(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @+2 {{The `sliceCount` need to be a `IntegerAttr`}}
  // expected-note @+1 {{found "2"; expected an integer, e.g. {sliceCount = 4 : i32}}}
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %x) -> (f32) {
    scf.yield %a : f32
  } {sliceCount = "2"}
  return %r : f32
}

// -----

// An integer that is not a count.
func.func @zero_count() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @+2 {{The `sliceCount` need to be a `IntegerAttr`}}
  // expected-note @+1 {{sliceCount must be a positive count, got 0 : i32}}
  scf.for %i = %c0 to %c4 step %c1 {
  } {sliceCount = 0 : i32}
  return
}

// -----

// 64 iterations do not split into 3 equal slices: a diagnostic, not a
// remainder loop.
func.func @not_divisible() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-error @+2 {{The `sliceCount` need to be a `IntegerAttr`}}
  // expected-note @+1 {{sliceCount 3 does not divide the trip count 64; the slices would not be equal}}
  scf.for %i = %c0 to %c64 step %c1 {
  } {sliceCount = 3 : i32}
  return
}

// -----

// An upper bound that is not the lower bound plus a constant: the trip
// count is unknown, so the slices cannot be made equal.
func.func @dynamic_trip_count(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+2 {{The `sliceCount` need to be a `IntegerAttr`}}
  // expected-note @+1 {{the upper bound minus the lower bound is not a constant, so the iteration space cannot be divided}}
  scf.for %i = %c0 to %n step %c1 {
  } {sliceCount = 2 : i32}
  return
}

// -----

// A lower bound that is a function argument: not a constant plus multiples
// of enclosing induction variables.
// MSG: error: 'scf.for' op unsupported op to be a lower bound in slicing pass {{$}}
// expected-note @+1 {{the lower bound reaches block argument #0 of 'func.func', not an induction variable of an enclosing scf.for}}
func.func @argument_lower_bound(%lb: index) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{unsupported op to be a lower bound in slicing pass }}
  scf.for %i = %lb to %c64 step %c1 {
  } {sliceCount = 2 : i32}
  return
}

// -----

// A lower bound computed by an op the decoder does not read (a division).
func.func @divided_lower_bound(%j: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  scf.for %k = %c1 to %c2 step %c1 {
    // expected-note @+1 {{the lower bound is computed by 'arith.divui' here}}
    %lb = arith.divui %c64, %k : index
    %ub = arith.addi %lb, %c64 : index
    // expected-error @+1 {{unsupported op to be a lower bound in slicing pass }}
    scf.for %i = %lb to %ub step %c1 {
    } {sliceCount = 2 : i32}
  }
  return
}

// -----

// An affine.apply the decoder does not read: a floordiv of the enclosing
// induction variable is not a constant multiple of it.
func.func @affine_floordiv_lower_bound(%j: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %k = %c1 to %c2 step %c1 {
    // expected-note @+1 {{the lower bound is computed by 'affine.apply' here}}
    %lb = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%k)
    %ub = affine.apply affine_map<(d0) -> (d0 + 8)>(%lb)
    // expected-error @+1 {{unsupported op to be a lower bound in slicing pass }}
    scf.for %i = %lb to %ub step %c1 {
    } {sliceCount = 2 : i32}
  }
  return
}

// -----

// The product of two induction variables is not affine.
func.func @affine_product_lower_bound() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %k = %c1 to %c2 step %c1 {
    scf.for %m = %c1 to %c2 step %c1 {
      // expected-note @+1 {{the lower bound is computed by 'affine.apply' here}}
      %lb = affine.apply affine_map<(d0)[s0] -> (d0 * s0)>(%k)[%m]
      %ub = arith.addi %lb, %c2 : index
      // expected-error @+1 {{unsupported op to be a lower bound in slicing pass }}
      scf.for %i = %lb to %ub step %c1 {
      } {sliceCount = 2 : i32}
    }
  }
  return
}

// -----

// A call in the body: its effects are unknown, it is not cloned per slice.
// MSG: error: 'scf.for' op unsupported op in Slicing pass{{$}}
func.func private @work(index)
func.func @call_in_body() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{unsupported op in Slicing pass}}
  scf.for %i = %c0 to %c8 step %c1 {
    // expected-note @+1 {{'func.call' cannot be cloned per slice: only tileas, arith and scf ops and affine.apply can}}
    func.call @work(%i) : (index) -> ()
  } {sliceCount = 2 : i32}
  return
}

// -----

// The init of an iter_arg is carried by an scf.while, a region the pass
// does not traverse.
// MSG: error: 'scf.for' op fail to get an initial forOperand in slicing pass{{$}}
func.func @while_carried(%x: f32, %flag: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %w = scf.while (%v = %x) : (f32) -> f32 {
    scf.condition(%flag) %v : f32
  } do {
  // expected-note @+1 {{iter_arg #0 starts from block argument #0 of 'scf.while', carried by a region the pass does not traverse}}
  ^bb0(%u: f32):
    // expected-error @+1 {{fail to get an initial forOperand in slicing pass}}
    %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%a = %u) -> (f32) {
      %s = arith.addf %a, %a : f32
      scf.yield %s : f32
    } {sliceCount = 2 : i32}
    scf.yield %r : f32
  }
  return %w : f32
}

// -----

// A sliced loop inside a sliced loop: the inner one is not expected (the
// slices of one loop hold at most count x its body).
// MSG: error: 'scf.for' op is not expected inside sliced part in SlicingPass{{$}}
func.func @nested() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-note @+1 {{inside this sliced loop: a sliced loop does not nest in another}}
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error @+1 {{is not expected inside sliced part in SlicingPass}}
    scf.for %j = %c0 to %c4 step %c1 {
    } {sliceCount = 2 : i32}
  } {sliceCount = 2 : i32}
  return
}

// -----

// A universal copy between unplaced tiles: layout assignment has not run
// on it, its atom is abstract.
// MSG: error: 'scf.for' op unsupported atom of copyOp in slicing pass{{$}}
func.func @abstract_copy(%x: tensor<16x16xf16>, %y: tensor<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{unsupported atom of copyOp in slicing pass}}
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-note @+1 {{copy atom 'universal' between 'tensor<16x16xf16>' and 'tensor<16x16xf16>' is abstract: no layout placed the unencoded operand}}
    %c = tileas.copy %x, %y {atom = "universal"} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf16>
  } {sliceCount = 2 : i32}
  return
}

// -----

// Every loop is planned before any is rewritten: a valid loop next to a
// failing one is not reported, the failing one is.
func.func @all_or_nothing() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
  } {sliceCount = 2 : i32}
  // expected-error @+2 {{The `sliceCount` need to be a `IntegerAttr`}}
  // expected-note @+1 {{sliceCount 3 does not divide the trip count 4; the slices would not be equal}}
  scf.for %i = %c0 to %c4 step %c1 {
  } {sliceCount = 3 : i32}
  return
}
