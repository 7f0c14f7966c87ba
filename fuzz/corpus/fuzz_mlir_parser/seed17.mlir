func.func @execute(%x: f32, %y: f32) -> f32 {
  %r = tileas.async.pipeline.execute (%x, %y : f32, f32) -> f32 {
  ^bb0(%a: f32, %b: f32):
    tileas.async.pipeline.yield %b : f32
  }
  return %r : f32
}
