func.func @live(%x: f32, %y: f32, %z: f32, %n: index) -> (f32, f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %y, %c = %z) -> (f32, f32, f32) {
    %s = arith.addf %x, %y : f32
    scf.yield %b, %a, %s : f32, f32, f32
  }
  return %r#0, %r#1, %r#2 : f32, f32, f32
}
