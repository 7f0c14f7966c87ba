//===- BenchMain.cpp - lk_bench's entry point -----------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Google Benchmark's usual entry, plus `--calls <case> <n>`, which runs one
// case of AlgebraCases.h n times outside Google Benchmark (operands and
// results through DoNotOptimize, as the cutlass side-by-side does) for
// instruction counts: callgrind's total for 2n calls minus that for n,
// over n, is the count of one call.
//
//   valgrind --tool=callgrind build/bench/lk_bench --calls composition_1 2000
//
// `--general-calls-each <n>` does the same for the general constructions
// (GeneralAlgebraBench.cpp; scripts/general-instructions.sh).
//
//===----------------------------------------------------------------------===//

#include "AlgebraCases.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace lk::bench {
int generalCallsEach(int64_t n);
} // namespace lk::bench

namespace {

/// Runs case `name` n times; false when there is no such case.
bool repeatCase(const char *name, int64_t n) {
  for (const lk::bench::AlgebraCase &c : lk::bench::kAlgebraCases) {
    if (std::strcmp(c.name, name) != 0)
      continue;
    lk::bench::ParsedCase p = lk::bench::parseCase(c);
    for (int64_t i = 0; i < n; ++i) {
      benchmark::DoNotOptimize(p);
      auto r = lk::bench::runCase(c.op, p);
      benchmark::DoNotOptimize(r);
    }
    return true;
  }
  return false;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 4 && std::strcmp(argv[1], "--calls") == 0) {
    if (repeatCase(argv[2], std::atoll(argv[3])))
      return 0;
    std::fprintf(stderr, "lk_bench: no algebra case named '%s'\n", argv[2]);
    return 2;
  }
  if (argc == 3 && std::strcmp(argv[1], "--general-calls-each") == 0)
    return lk::bench::generalCallsEach(std::atoll(argv[2]));
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
