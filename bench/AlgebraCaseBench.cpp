//===- AlgebraCaseBench.cpp - The algebra cases timed against CuTe --------===//
//
// One benchmark per case of AlgebraCases.h, named BM_algebra/<case>: the
// operands cutlass/CuteSideBySide.cpp also gives CuTe C++. The operands
// pass through benchmark::DoNotOptimize every iteration, so nothing is
// hoisted out of the loop.
//
//===----------------------------------------------------------------------===//

#include "AlgebraCases.h"

#include <benchmark/benchmark.h>

namespace {

const bool kRegistered = [] {
  for (const lk::bench::AlgebraCase &c : lk::bench::kAlgebraCases)
    benchmark::RegisterBenchmark((std::string("BM_algebra/") + c.name).c_str(),
                                 lk::bench::runnerFor(c.op), &c);
  return true;
}();

} // namespace
