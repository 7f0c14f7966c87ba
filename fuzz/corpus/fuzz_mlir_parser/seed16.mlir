func.func @unused(%x: f32, %y: f32, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %y) -> (f32, f32) {
    %d = arith.addf %a, %a : f32
    %e = arith.mulf %x, %x : f32
    scf.yield %d, %e : f32, f32
  }
  return %r#0 : f32
}
