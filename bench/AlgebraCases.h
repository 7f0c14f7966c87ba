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
  Composition,  // composition(A, B)
  Complement,   // complement(A, B's shape)
  Divide,       // logical_divide(A, tiler B)
  Product,      // logical_product(A, tiler B)
  Coalesce,     // coalesce(A)
  RightInverse, // right_inverse(A)
  LeftInverse,  // left_inverse(A)
  Blocked,      // blocked_product(A, B)
  Raked,        // raked_product(A, B)
  MaxCommon,    // max_common_layout(A, B)
};

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
    {"blocked_product_2l", Op::Blocked, "((2,2),2):((1,2),4)", "((2,2),4):((1,2),4)"},
    {"raked_product_2", Op::Raked, "(2,2):(1,2)", "(4,8):(1,4)"},
    {"max_common_layout_1", Op::MaxCommon, "64:1", "64:1"},
    {"max_common_layout_2", Op::MaxCommon, "(8,4):(1,8)", "(8,4):(1,16)"},
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
  else if (c.op == Op::Divide || c.op == Op::Product)
    p.tiler = *cute::parseTiler(c.b);
  else if (*c.b)
    p.b = *cute::parseLayout(c.b);
  return p;
}

/// Runs the case's operation once.
inline Expected<cute::Layout> runCase(Op op, const ParsedCase &p) {
  using namespace lk::cute;
  switch (op) {
  case Op::Composition: return composition(p.a, p.b);
  case Op::Complement: return complement(p.a, p.cotarget);
  case Op::Divide: return logical_divide(p.a, p.tiler);
  case Op::Product: return logical_product(p.a, p.tiler);
  case Op::Coalesce: return coalesce(p.a);
  case Op::RightInverse: return right_inverse(p.a);
  case Op::LeftInverse: return left_inverse(p.a);
  case Op::Blocked: return blocked_product(p.a, p.b);
  case Op::Raked: return raked_product(p.a, p.b);
  case Op::MaxCommon: return max_common_layout(p.a, p.b);
  }
  return Diagnostic::error("unknown operation");
}

/// The case's operation, called directly (no dispatch in the loop).
template <Op O> auto call(const ParsedCase &p) {
  if constexpr (O == Op::Composition) return composition(p.a, p.b);
  else if constexpr (O == Op::Complement) return complement(p.a, p.cotarget);
  else if constexpr (O == Op::Divide) return logical_divide(p.a, p.tiler);
  else if constexpr (O == Op::Product) return logical_product(p.a, p.tiler);
  else if constexpr (O == Op::Coalesce) return coalesce(p.a);
  else if constexpr (O == Op::RightInverse) return right_inverse(p.a);
  else if constexpr (O == Op::LeftInverse) return left_inverse(p.a);
  else if constexpr (O == Op::Blocked) return blocked_product(p.a, p.b);
  else if constexpr (O == Op::Raked) return raked_product(p.a, p.b);
  else return max_common_layout(p.a, p.b);
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
  case Op::Composition: return timeCase<Op::Composition>;
  case Op::Complement: return timeCase<Op::Complement>;
  case Op::Divide: return timeCase<Op::Divide>;
  case Op::Product: return timeCase<Op::Product>;
  case Op::Coalesce: return timeCase<Op::Coalesce>;
  case Op::RightInverse: return timeCase<Op::RightInverse>;
  case Op::LeftInverse: return timeCase<Op::LeftInverse>;
  case Op::Blocked: return timeCase<Op::Blocked>;
  case Op::Raked: return timeCase<Op::Raked>;
  case Op::MaxCommon: return timeCase<Op::MaxCommon>;
  }
  return timeCase<Op::MaxCommon>;
}

} // namespace lk::bench

#endif // LAYOUTKIT_BENCH_ALGEBRACASES_H
