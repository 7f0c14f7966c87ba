//===- GeneralAlgebraBench.cpp - The general constructions, timed --------===//
//
// The functions of cute/AlgebraGeneral.h called directly (no closed form
// in front) on GEMM-style operands: the products of the 8x8 atoms, the
// divides of a CTA tile by a layout tile and by leaf or nested tiles, the
// groupings of both, the inverses of a TV layout. Registered as
// BM_general/<case>. The public operation reaches these where its closed
// forms decline; here they are measured on operands the closed forms also
// take, so the two can be compared (bench/AlgebraCases.h has the public
// calls on the same operands).
//
// `lk_bench --general-calls-each <n>` runs every case n and 2n times under
// callgrind's client requests (counts zeroed before each loop, dumped
// after it as "general/<case>/<calls>"); scripts/general-instructions.sh
// turns the dumps into instructions per call.
//
//===----------------------------------------------------------------------===//

#include "AlgebraCases.h"

#include "layoutkit/cute/AlgebraGeneral.h"

#include <benchmark/benchmark.h>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define LK_HAVE_CALLGRIND 1
#endif

#include <cstdio>
#include <string>

namespace lk::bench {
namespace {

/// Operands as in AlgebraCases.h; `op` names the general:: function.
const AlgebraCase kGeneralCases[] = {
    {"blocked_product_rm88", Op::Blocked, "(8,8):(8,1)", "(4,2):(1,4)"},
    {"raked_product_rm88", Op::Raked, "(8,8):(8,1)", "(4,2):(1,4)"},
    {"blocked_product_2l", Op::Blocked, "((2,2),2):((1,2),4)",
     "((2,2),4):((1,2),4)"},
    {"logical_product_rm88", Op::Product, "(8,8):(8,1)", "(4,2):(1,4)"},
    {"zipped_product_rm88", Op::ZippedProduct, "(8,8):(8,1)", "(4:1,2:1)"},
    {"tiled_product_rm88", Op::TiledProduct, "(8,8):(8,1)", "(4:1,2:1)"},
    {"logical_divide_2", Op::Divide, "(64,32):(32,1)", "(8:1,4:1)"},
    {"zipped_divide_tile", Op::ZippedDivide, "(64,64):(1,64)", "(2,4):(1,16)"},
    {"zipped_divide_cm", Op::ZippedDivide, "(128,64):(1,128)", "(32:1,16:1)"},
    {"tiled_divide_cm", Op::TiledDivide, "(128,64):(1,128)", "(32:1,16:1)"},
    {"tiled_divide_strided_tile", Op::TiledDivide, "(128,64):(1,128)",
     "((4,8):(8,1),16:1)"},
    {"flat_divide_cm", Op::FlatDivide, "(128,64):(1,128)", "(32:1,16:1)"},
    {"composition_by_32x16", Op::ComposeBy, "(128,64):(1,128)", "(32:1,16:1)"},
    {"left_inverse_sm80_c", Op::LeftInverse, "((4,8),(2,2)):((32,1),(16,8))",
     ""},
    {"right_inverse_sm80_c", Op::RightInverse, "((4,8),(2,2)):((32,1),(16,8))",
     ""},
    {"max_common_layout_2", Op::MaxCommon, "(8,4):(1,8)", "(8,4):(1,16)"},
};

/// The general:: function of `op` on the case's operands.
Expected<cute::Layout> runGeneral(Op op, const ParsedCase &p) {
  namespace g = cute::general;
  switch (op) {
  case Op::Composition:
    return g::composition(p.a, p.b);
  case Op::Complement:
    return g::complement(p.a, p.cotarget);
  case Op::Divide:
    return g::logical_divide(p.a, p.tiler);
  case Op::Product:
    return g::logical_product(p.a, p.tiler);
  case Op::Coalesce:
    return g::coalesce(p.a);
  case Op::RightInverse:
    return g::right_inverse(p.a);
  case Op::LeftInverse:
    return g::left_inverse(p.a);
  case Op::Blocked:
    return g::blocked_product(p.a, p.b);
  case Op::Raked:
    return g::raked_product(p.a, p.b);
  case Op::MaxCommon:
    return g::max_common_layout(p.a, p.b);
  case Op::ComposeBy:
    return g::composition(p.a, p.tiler);
  case Op::ZippedDivide:
    return g::zipped_divide(p.a, p.tiler);
  case Op::TiledDivide:
    return g::tiled_divide(p.a, p.tiler);
  case Op::FlatDivide:
    return g::flat_divide(p.a, p.tiler);
  case Op::ZippedProduct:
    return g::zipped_product(p.a, p.tiler);
  case Op::TiledProduct:
    return g::tiled_product(p.a, p.tiler);
  case Op::FlatProduct:
    return g::flat_product(p.a, p.tiler);
  }
  return Diagnostic::error("unknown operation");
}

/// Runs the case n times, operands and results through DoNotOptimize.
void repeat(const AlgebraCase &c, const ParsedCase &p, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    benchmark::DoNotOptimize(&p);
    auto r = runGeneral(c.op, p);
    benchmark::DoNotOptimize(r);
  }
}

void timeGeneral(benchmark::State &state, const AlgebraCase *c) {
  ParsedCase p = parseCase(*c);
  if (!runGeneral(c->op, p)) {
    state.SkipWithError("the case fails");
    return;
  }
  AllocationScope scope(state);
  for (auto _ : state) {
    benchmark::DoNotOptimize(&p);
    auto r = runGeneral(c->op, p);
    benchmark::DoNotOptimize(r);
  }
}

const bool kRegistered = [] {
  for (const AlgebraCase &c : kGeneralCases)
    benchmark::RegisterBenchmark((std::string("BM_general/") + c.name).c_str(),
                                 timeGeneral, &c);
  return true;
}();

} // namespace

/// lk_bench --general-calls-each <n> (see the file comment); 1 when a
/// case fails or callgrind's header was missing at build time.
int generalCallsEach(int64_t n) {
#ifdef LK_HAVE_CALLGRIND
  for (const AlgebraCase &c : kGeneralCases) {
    ParsedCase p = parseCase(c);
    if (!runGeneral(c.op, p)) {
      std::fprintf(stderr, "general/%s fails\n", c.name);
      return 1;
    }
    for (int64_t calls : {n, 2 * n}) {
      std::string at =
          std::string("general/") + c.name + "/" + std::to_string(calls);
      CALLGRIND_ZERO_STATS;
      repeat(c, p, calls);
      CALLGRIND_DUMP_STATS_AT(at.c_str());
    }
  }
  return 0;
#else
  (void)n;
  std::fprintf(stderr, "--general-calls-each needs valgrind/callgrind.h\n");
  return 1;
#endif
}

} // namespace lk::bench
