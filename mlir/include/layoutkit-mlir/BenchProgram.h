//===- BenchProgram.h - Kernel-like tileas functions of N ops ----*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A generator of kernel-like `tileas` functions of a given number of ops,
/// for the pipeline benchmark (bench/mlir/PipelineBench.cpp,
/// docs/performance.md "The MLIR pipeline") and its validity test. The
/// function of seed s is
///
///   func.func @f(%flag: i1, %A, %B, %C: 4096x64xf32 global buffers,
///                %x: 64x64xf32 register tile) -> 64x64xf32 register tile
///
/// and its body is a chain of blocks, each taking the running register
/// tile and giving the next one (the last is returned), chosen by the
/// seed among:
///
///  * tile stage: a tiled_load of a 64-row slab of %A or %B, conversions
///    of it and of the running tile to a register encoding (blocked or
///    linear, sometimes through the other one), two elementwise ops there,
///    the conversion back, a tiled_store (or a tiled_atomic add) into %C;
///  * staged copy: an smem ring of two stages (alloc_tensor, a view at
///    4096), a select of the stages on a condition (%flag, or the parity
///    of the enclosing induction variable), a store into the selected
///    stage and a load of it;
///  * gather / scatter: a gather of %A or of an smem buffer at one row or
///    column (a splat index tile), a scatter of it into the buffer, a load;
///  * sliced loop: an scf.for of 8 iterations carrying `sliceCount` 2 or 4,
///    loading the slab of its induction variable, with one iter_arg the
///    body never reads (its result unused) and one it yields back
///    unchanged; its lower bound is 0 or, inside a loop, 8 x the enclosing
///    induction variable (affine.apply or arith.muli); never inside
///    another sliced loop;
///  * nested regions: an scf.if (sometimes with a second result nothing
///    uses) or an scf.for of 2 iterations carrying the running tile and an
///    smem buffer that it yields back as itself, a view of itself at
///    offset 0 or a select of the two; their bodies are blocks again, at
///    most 3 regions deep.
///
/// `ops` counts every op of the module (module and function included):
/// blocks, and blocks in regions, start while the count is below `ops`, so
/// the module has `ops` to about `ops` + 20 of them (one block past the
/// count and the closing ops of the regions around it). The same seed and
/// size always give the same text (a private
/// xorshift generator).
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_MLIR_BENCHPROGRAM_H
#define LAYOUTKIT_MLIR_BENCHPROGRAM_H

#include "layoutkit/core/Expected.h"

#include <cstdint>
#include <string>

namespace lk::tileas {

/// The largest `ops` benchProgram accepts (about 200 MB of text).
inline constexpr int64_t kMaxBenchOps = 2'000'000;

/// The text of a module holding one function `@f` of about `ops` ops
/// (module included), chosen by `seed`; an error when `ops` is not in
/// [16, kMaxBenchOps].
lk::Expected<std::string> benchProgram(uint64_t seed, int64_t ops);

} // namespace lk::tileas

#endif // LAYOUTKIT_MLIR_BENCHPROGRAM_H
