//===- RandomProgram.h - Random well-formed tileas functions -----*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A generator of well-formed `tileas` functions as MLIR text, for the
/// randomized pipeline test (docs/mlir.md, "The randomized test"; the
/// benchmark's functions are BenchProgram.h's). A function of seed s is
///
///   func.func @f(%flag: i1, %n: index, %g0, %g1: 64x64xf32 global buffers,
///                %x: 64x64xf32 register tile) -> (register tiles)
///
/// and its body is `ops` random statements, each one of: a tiled_load of a
/// global or smem buffer, a convert_layout between register encodings, an
/// elementwise arith op, a wgmma, an scf.if on %flag (sometimes with a
/// result nothing uses), an scf.for over [0, 2) with a carried tile (and
/// sometimes an argument that is only yielded back), an scf.while over
/// [0, 2) with a carried tile, an unused before argument, a tile passed
/// through unchanged and a condition operand nothing reads, an
/// alloc_tensor filled by a copy, a view at an offset, a select of a buffer
/// and its view or of two views of one allocation, a tiled_store into a
/// buffer, an agent_switch of two agents computing on tiles of the
/// enclosing scope and storing into a global buffer, an scf.for carrying
/// `sliceCount` (1, 2 or 4, dividing its trip count; lower bound a
/// constant or 16 x an enclosing induction variable; the body selects on
/// its induction variable; never nested in another sliced loop or in an
/// scf.while body, whose block arguments slicing refuses as inits).
/// Each statement kind is one function (`emit*`), so a new kind is one
/// more function and one more case.
///
/// The same seed always gives the same text (a private xorshift generator,
/// no std distributions).
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_MLIR_RANDOMPROGRAM_H
#define LAYOUTKIT_MLIR_RANDOMPROGRAM_H

#include <cstdint>
#include <string>

namespace lk::tileas {

/// The text of a module holding one function `@f` with about `ops`
/// statements, chosen by `seed`.
std::string randomProgram(uint64_t seed, int ops);

/// Tile side of every generated tile (64x64 elements).
inline constexpr int64_t kRandomTile = 64;

} // namespace lk::tileas

#endif // LAYOUTKIT_MLIR_RANDOMPROGRAM_H
