//===- AlgebraCases.h - The algebra cases timed against CuTe ----*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The operations of the layout algebra on operands of 1, 2 and 3 levels,
/// as text, with the operation to run. AlgebraCaseBench.cpp times
/// LayoutKit on them; cutlass/CuteSideBySide.cpp (built only when
/// LK_CUTLASS_DIR points at CUTLASS headers) times CuTe C++ with runtime
/// integers on the same operands and checks both results equal.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_BENCH_ALGEBRACASES_H
#define LAYOUTKIT_BENCH_ALGEBRACASES_H

#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/Text.h"

#include "AllocationCounter.h"

#include <benchmark/benchmark.h>

#include <string>

namespace lk::bench {

enum class Op {
  Composition,   // composition(A, B)
  Complement,    // complement(A, B's shape)
  Divide,        // logical_divide(A, tiler B)
  Product,       // logical_product(A, tiler B)
  Coalesce,      // coalesce(A)
  RightInverse,  // right_inverse(A)
  LeftInverse,   // left_inverse(A)
  Blocked,       // blocked_product(A, B)
  Raked,         // raked_product(A, B)
  MaxCommon,     // max_common_layout(A, B)
  ComposeBy,     // composition(A, tiler B)
  ZippedDivide,  // zipped_divide(A, tiler B)
  TiledDivide,   // tiled_divide(A, tiler B)
  FlatDivide,    // flat_divide(A, tiler B)
  ZippedProduct, // zipped_product(A, tiler B)
  TiledProduct,  // tiled_product(A, tiler B)
  FlatProduct,   // flat_product(A, tiler B)
};

/// Whether B of `op` is parsed as a tiler (a layout or a by-mode tuple).
constexpr bool takesTiler(Op op) {
  return op == Op::Divide || op == Op::Product || op >= Op::ComposeBy;
}

struct AlgebraCase {
  const char *name;
  Op op;
  const char *a;
  const char *b; // a layout, a tiler (divide, product) or a cotarget
};

// "_1" rank-1 operands, "_2" one level of modes, "_2l"/"_3l" nested.
inline const AlgebraCase kAlgebraCases[] = {
    {"composition_1", Op::Composition, "128:2", "32:4"},
    {"composition_2", Op::Composition, "(4,8):(8,1)", "(8,4):(4,1)"},
    {"composition_2l", Op::Composition, "((4,2),(4,2)):((1,16),(4,32))",
     "((2,2),(2,4)):((1,8),(2,16))"},
    {"complement_1", Op::Complement, "4:32", "256"},
    {"complement_2", Op::Complement, "(2,4):(1,8)", "64"},
    {"complement_2l", Op::Complement, "((2,2),4):((1,8),2)", "128"},
    {"logical_divide_1", Op::Divide, "128:1", "32:1"},
    {"logical_divide_2", Op::Divide, "(64,32):(32,1)", "(8:1,4:1)"},
    {"logical_divide_2l", Op::Divide, "((8,8),(4,8)):((8,64),(1,512))",
     "((4,2):(1,8),4:1)"},
    {"logical_product_1", Op::Product, "128:1", "4:32"},
    {"logical_product_2", Op::Product, "(4,8):(1,4)", "(2,2):(1,2)"},
    {"logical_product_2l", Op::Product, "((2,2),4):((1,2),4)",
     "((2,2),2):((1,2),4)"},
    {"coalesce_1", Op::Coalesce, "64:2", ""},
    {"coalesce_2", Op::Coalesce, "(2,4):(1,2)", ""},
    {"coalesce_3l", Op::Coalesce,
     "((2,(2,2)),(4,(2,2),2)):((1,(2,4)),(8,(32,64),128))", ""},
    {"right_inverse_1", Op::RightInverse, "64:1", ""},
    {"right_inverse_2", Op::RightInverse, "(4,2):(2,1)", ""},
    {"right_inverse_3l", Op::RightInverse,
     "((2,(2,2)),(4,(2,2),2)):((1,(2,4)),(8,(32,64),128))", ""},
    {"left_inverse_1", Op::LeftInverse, "16:4", ""},
    {"left_inverse_2", Op::LeftInverse, "(4,2):(2,1)", ""},
    {"left_inverse_2l", Op::LeftInverse, "((2,2),(4,2)):((1,16),(2,64))", ""},
    {"blocked_product_1", Op::Blocked, "4:1", "8:1"},
    {"blocked_product_2", Op::Blocked, "(2,2):(1,2)", "(4,8):(1,4)"},
    {"blocked_product_2l", Op::Blocked, "((2,2),2):((1,2),4)",
     "((2,2),4):((1,2),4)"},
    {"raked_product_2", Op::Raked, "(2,2):(1,2)", "(4,8):(1,4)"},
    {"max_common_layout_1", Op::MaxCommon, "64:1", "64:1"},
    {"max_common_layout_2", Op::MaxCommon, "(8,4):(1,8)", "(8,4):(1,16)"},
    // From GEMM tiling code. A CTA tile of a column-major (_cm) or row-major
    // (_rm) matrix, split by a by-mode tiler (local_tile, partitioning).
    {"zipped_divide_cm", Op::ZippedDivide, "(128,64):(1,128)", "(32:1,16:1)"},
    {"zipped_divide_rm", Op::ZippedDivide, "(128,64):(64,1)", "(32:1,16:1)"},
    {"tiled_divide_cm", Op::TiledDivide, "(128,64):(1,128)", "(32:1,16:1)"},
    {"tiled_divide_rm", Op::TiledDivide, "(128,64):(64,1)", "(32:1,16:1)"},
    {"flat_divide_cm", Op::FlatDivide, "(128,64):(1,128)", "(32:1,16:1)"},
    {"flat_divide_rm", Op::FlatDivide, "(128,64):(64,1)", "(32:1,16:1)"},
    {"zipped_divide_3d", Op::ZippedDivide, "(128,64,4):(1,128,8192)",
     "(32:1,16:1)"},
    {"zipped_divide_smem", Op::ZippedDivide, "(64,32):(32,1)", "(8:1,8:1)"},
    {"zipped_divide_tile", Op::ZippedDivide, "(64,64):(1,64)", "(2,4):(1,16)"},
    {"logical_divide_88_by_42", Op::Divide, "(8,8):(8,1)", "(4:1,2:1)"},
    {"logical_divide_strided_tile", Op::Divide, "(128,64):(1,128)",
     "((4,8):(8,1),16:1)"},
    // The 8x8 atoms, K-major (row-major) and MN-major (column-major),
    // repeated over (4,2): shared-memory tiles (tile_to_shape) and the
    // by-mode products of a tile.
    {"blocked_product_rm88", Op::Blocked, "(8,8):(8,1)", "(4,2):(1,4)"},
    {"blocked_product_cm88", Op::Blocked, "(8,8):(1,8)", "(4,2):(1,4)"},
    {"raked_product_rm88", Op::Raked, "(8,8):(8,1)", "(4,2):(1,4)"},
    {"raked_product_cm88", Op::Raked, "(8,8):(1,8)", "(4,2):(1,4)"},
    {"logical_product_rm88", Op::Product, "(8,8):(8,1)", "(4,2):(1,4)"},
    {"logical_product_cm88", Op::Product, "(8,8):(1,8)", "(4,2):(1,4)"},
    {"zipped_product_rm88", Op::ZippedProduct, "(8,8):(8,1)", "(4:1,2:1)"},
    {"zipped_product_cm88", Op::ZippedProduct, "(8,8):(1,8)", "(4:1,2:1)"},
    {"tiled_product_rm88", Op::TiledProduct, "(8,8):(8,1)", "(4:1,2:1)"},
    {"tiled_product_cm88", Op::TiledProduct, "(8,8):(1,8)", "(4:1,2:1)"},
    {"flat_product_rm88", Op::FlatProduct, "(8,8):(8,1)", "(4:1,2:1)"},
    {"flat_product_cm88", Op::FlatProduct, "(8,8):(1,8)", "(4:1,2:1)"},
    {"logical_product_32x4", Op::Product, "(32,4):(4,1)", "(2,2):(1,2)"},
    {"blocked_product_gmma_sw128", Op::Blocked, "(8,64):(64,1)",
     "(16,2):(1,16)"},
    // make_tiled_copy: threads (16,8) row-major raked with 8 values per
    // thread, and the TV layout's inverse.
    {"raked_product_thr_val", Op::Raked, "(16,8):(8,1)", "(1,8):(1,1)"},
    {"right_inverse_thr_val", Op::RightInverse,
     "((1,16),(8,8)):((0,8),(128,1))", ""},
    // TV layouts: SM80 mma 16x8x16 A, B and C; SM90 wgmma 64x64x16 C;
    // ldmatrix x4 (SM75_U32x4_LDSM_N's destination, 16-bit values).
    {"left_inverse_sm80_a", Op::LeftInverse,
     "((4,8),(2,2,2)):((32,1),(16,8,128))", ""},
    {"left_inverse_sm80_b", Op::LeftInverse, "((4,8),(2,2)):((16,1),(8,64))",
     ""},
    {"left_inverse_sm80_c", Op::LeftInverse, "((4,8),(2,2)):((32,1),(16,8))",
     ""},
    {"right_inverse_sm80_a", Op::RightInverse,
     "((4,8),(2,2,2)):((32,1),(16,8,128))", ""},
    {"right_inverse_sm80_c", Op::RightInverse, "((4,8),(2,2)):((32,1),(16,8))",
     ""},
    {"left_inverse_sm90_c64", Op::LeftInverse,
     "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))", ""},
    {"right_inverse_sm90_c64", Op::RightInverse,
     "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))", ""},
    {"left_inverse_ldsm_x4", Op::LeftInverse, "(32,(2,4)):(2,(1,64))", ""},
    {"right_inverse_ldsm_x4", Op::RightInverse, "(32,(2,4)):(2,(1,64))", ""},
    // Tiles composed with TV layouts (the partition of a tile by an MMA or
    // a copy), and by-mode compositions.
    {"composition_sm80_c_tile", Op::Composition, "(16,8):(8,1)",
     "((4,8),(2,2)):((32,1),(16,8))"},
    {"composition_sm80_a_tile", Op::Composition, "(16,16):(16,1)",
     "((4,8),(2,2,2)):((32,1),(16,8,128))"},
    {"composition_sm80_b_tile", Op::Composition, "(8,16):(16,1)",
     "((4,8),(2,2)):((16,1),(8,64))"},
    {"composition_sm90_c_tile", Op::Composition, "(64,64):(64,1)",
     "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"},
    {"composition_ldsm_tile", Op::Composition, "(16,16):(16,1)",
     "(32,(2,4)):(2,(1,64))"},
    {"composition_by_32x16", Op::ComposeBy, "(128,64):(1,128)", "(32:1,16:1)"},
    {"composition_by_4x2", Op::ComposeBy, "(8,8):(8,1)", "(4:1,2:1)"},
    {"composition_by_smem", Op::ComposeBy, "(64,32):(32,1)", "(16:2,8:4)"},
    // Complements that build tilers (the rest of a tile, of a TV layout).
    {"complement_tv_c", Op::Complement, "((4,8),(2,2)):((32,1),(16,8))", "256"},
    {"complement_tile_2x4", Op::Complement, "(2,4):(1,16)", "128"},
    {"complement_tile_rm88", Op::Complement, "(8,8):(64,1)", "4096"},
    {"complement_ldsm_x4", Op::Complement, "(32,(2,4)):(2,(1,64))", "512"},
    {"coalesce_sm90_c64", Op::Coalesce,
     "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))", ""},
};

/// The case's operands, parsed once.
struct ParsedCase {
  cute::Layout a, b;
  cute::Tiler tiler;
  IntTuple cotarget;
};

inline ParsedCase parseCase(const AlgebraCase &c) {
  ParsedCase p;
  p.a = *cute::parseLayout(c.a);
  if (c.op == Op::Complement)
    p.cotarget = *cute::parseIntTuple(c.b);
  else if (takesTiler(c.op))
    p.tiler = *cute::parseTiler(c.b);
  else if (*c.b)
    p.b = *cute::parseLayout(c.b);
  return p;
}

/// Runs the case's operation once.
inline Expected<cute::Layout> runCase(Op op, const ParsedCase &p) {
  using namespace lk::cute;
  switch (op) {
  case Op::Composition:
    return composition(p.a, p.b);
  case Op::Complement:
    return complement(p.a, p.cotarget);
  case Op::Divide:
    return logical_divide(p.a, p.tiler);
  case Op::Product:
    return logical_product(p.a, p.tiler);
  case Op::Coalesce:
    return coalesce(p.a);
  case Op::RightInverse:
    return right_inverse(p.a);
  case Op::LeftInverse:
    return left_inverse(p.a);
  case Op::Blocked:
    return blocked_product(p.a, p.b);
  case Op::Raked:
    return raked_product(p.a, p.b);
  case Op::MaxCommon:
    return max_common_layout(p.a, p.b);
  case Op::ComposeBy:
    return composition(p.a, p.tiler);
  case Op::ZippedDivide:
    return zipped_divide(p.a, p.tiler);
  case Op::TiledDivide:
    return tiled_divide(p.a, p.tiler);
  case Op::FlatDivide:
    return flat_divide(p.a, p.tiler);
  case Op::ZippedProduct:
    return zipped_product(p.a, p.tiler);
  case Op::TiledProduct:
    return tiled_product(p.a, p.tiler);
  case Op::FlatProduct:
    return flat_product(p.a, p.tiler);
  }
  return Diagnostic::error("unknown operation");
}

/// The case's operation, called directly (no dispatch in the loop).
template <Op O> auto call(const ParsedCase &p) {
  if constexpr (O == Op::Composition)
    return composition(p.a, p.b);
  else if constexpr (O == Op::Complement)
    return complement(p.a, p.cotarget);
  else if constexpr (O == Op::Divide)
    return logical_divide(p.a, p.tiler);
  else if constexpr (O == Op::Product)
    return logical_product(p.a, p.tiler);
  else if constexpr (O == Op::Coalesce)
    return coalesce(p.a);
  else if constexpr (O == Op::RightInverse)
    return right_inverse(p.a);
  else if constexpr (O == Op::LeftInverse)
    return left_inverse(p.a);
  else if constexpr (O == Op::Blocked)
    return blocked_product(p.a, p.b);
  else if constexpr (O == Op::Raked)
    return raked_product(p.a, p.b);
  else if constexpr (O == Op::MaxCommon)
    return max_common_layout(p.a, p.b);
  else if constexpr (O == Op::ComposeBy)
    return composition(p.a, p.tiler);
  else if constexpr (O == Op::ZippedDivide)
    return zipped_divide(p.a, p.tiler);
  else if constexpr (O == Op::TiledDivide)
    return tiled_divide(p.a, p.tiler);
  else if constexpr (O == Op::FlatDivide)
    return flat_divide(p.a, p.tiler);
  else if constexpr (O == Op::ZippedProduct)
    return zipped_product(p.a, p.tiler);
  else if constexpr (O == Op::TiledProduct)
    return tiled_product(p.a, p.tiler);
  else
    return flat_product(p.a, p.tiler);
}

/// The benchmark of one case (operands parsed once, the result checked).
template <Op O> void timeCase(benchmark::State &state, const AlgebraCase *c) {
  ParsedCase p = parseCase(*c);
  if (!runCase(O, p)) {
    state.SkipWithError("the case fails");
    return;
  }
  AllocationScope scope(state);
  for (auto _ : state) {
    benchmark::DoNotOptimize(p);
    auto r = call<O>(p);
    benchmark::DoNotOptimize(r);
  }
}

using Runner = void (*)(benchmark::State &, const AlgebraCase *);

inline Runner runnerFor(Op op) {
  switch (op) {
  case Op::Composition:
    return timeCase<Op::Composition>;
  case Op::Complement:
    return timeCase<Op::Complement>;
  case Op::Divide:
    return timeCase<Op::Divide>;
  case Op::Product:
    return timeCase<Op::Product>;
  case Op::Coalesce:
    return timeCase<Op::Coalesce>;
  case Op::RightInverse:
    return timeCase<Op::RightInverse>;
  case Op::LeftInverse:
    return timeCase<Op::LeftInverse>;
  case Op::Blocked:
    return timeCase<Op::Blocked>;
  case Op::Raked:
    return timeCase<Op::Raked>;
  case Op::MaxCommon:
    return timeCase<Op::MaxCommon>;
  case Op::ComposeBy:
    return timeCase<Op::ComposeBy>;
  case Op::ZippedDivide:
    return timeCase<Op::ZippedDivide>;
  case Op::TiledDivide:
    return timeCase<Op::TiledDivide>;
  case Op::FlatDivide:
    return timeCase<Op::FlatDivide>;
  case Op::ZippedProduct:
    return timeCase<Op::ZippedProduct>;
  case Op::TiledProduct:
    return timeCase<Op::TiledProduct>;
  case Op::FlatProduct:
    return timeCase<Op::FlatProduct>;
  }
  return timeCase<Op::MaxCommon>;
}

} // namespace lk::bench

#endif // LAYOUTKIT_BENCH_ALGEBRACASES_H
