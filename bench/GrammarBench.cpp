//===- GrammarBench.cpp - Speed of the text grammars ----------------------===//
//
// Parse and print of each grammar (docs/grammars.md) on inputs of nesting
// depth 1, 2 and 3; the benchmark argument selects the input of a table and
// the label says its depth. Every benchmark reports heap allocations per
// iteration ("allocs").
//
//   BM_Parse<Grammar>  text -> value      (parseLayout, parseComposedLayout,
//                                          parseTiler, parseBasisDescriptor,
//                                          parseLayoutAttribute)
//   BM_Print<Grammar>  value -> text      (Layout::str, ComposedLayout::str,
//                                          Tiler::str, printBasisDescriptor,
//                                          printLayoutAttribute)
//
// Run: build/bench/lk_bench --benchmark_filter='Parse|Print'
//
//===----------------------------------------------------------------------===//

#include "AllocationCounter.h"

#include "layoutkit/cute/Attribute.h"
#include "layoutkit/cute/BasisDescriptor.h"
#include "layoutkit/cute/Text.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace lk;
using namespace lk::cute;

namespace {

// Inputs indexed by depth - 1. Each is in canonical printed form, so that
// the print benchmarks write the same text the parse benchmarks read.
const char *const kLayouts[] = {
    "(64,32):(32,1)",
    "((8,8),(4,8)):((8,64),(1,512))",
    "((2,(2,2)),(4,(2,2),2)):((1,(2,4)),(8,(32,64),128))",
};
const char *const kComposed[] = {
    "Sw<3,4,3> o (8,64):(64,1)",
    "Sw<3,4,3> o 32 o ((8,8),(8,8)):((64,512),(1,8))",
    "Sw<2,4,3> o ((2,(2,2)),(4,(2,2),2)):((1,(2,4)),(8,(32,64),128))",
};
const char *const kTilers[] = {
    "(8:1,4:1)",
    "((4,2):(1,8),_,4:1)",
    "(((2,2),2):((1,4),16),(2,(2,2)):(1,(8,32)))",
};
const char *const kDescriptors[] = {
    "(1@0, 1@1)",
    "((1@0, 8@1), 1@2)",
    "(((1@0, 2@1), 8@1), (1@2, 16@0@1))",
};
const char *const kAttributes[] = {
    "<(128,64),(64,1),swizzle<3,4,3>,elem=f16>",
    "<((4,32),64),((1,512),16),elem=mxf4>",
    "<((2,(2,4)),(4,(2,8))),((1,(2,4)),(16,(64,256))),swizzle<3,4,3>,elem="
    "nvfp4>",
};

void label(benchmark::State &state) {
  state.SetLabel("depth " + std::to_string(state.range(0) + 1));
}

/// Aborts the run when a table entry does not parse or does not print back
/// to itself: a benchmark of a failing path would be meaningless.
template <class T> T must(Expected<T> r, std::string_view what) {
  if (!r) {
    std::fprintf(stderr, "GrammarBench: %.*s: %s\n", int(what.size()),
                 what.data(), r.error().message.c_str());
    std::abort();
  }
  return std::move(*r);
}

void checkRoundTrip(const std::string &printed, std::string_view input) {
  if (printed != input) {
    std::fprintf(stderr, "GrammarBench: '%.*s' prints as '%s'\n",
                 int(input.size()), input.data(), printed.c_str());
    std::abort();
  }
}

//===----------------------------------------------------------------------===//
// CuTe print form: layouts
//===----------------------------------------------------------------------===//

void BM_ParseLayout(benchmark::State &state) {
  std::string_view text = kLayouts[state.range(0)];
  must(parseLayout(text), text);
  label(state);
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    auto r = parseLayout(text);
    benchmark::DoNotOptimize(r);
  }
}

void BM_PrintLayout(benchmark::State &state) {
  std::string_view text = kLayouts[state.range(0)];
  Layout l = must(parseLayout(text), text);
  checkRoundTrip(l.str(), text);
  label(state);
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    std::string s = l.str();
    benchmark::DoNotOptimize(s);
  }
}

//===----------------------------------------------------------------------===//
// CuTe print form: swizzled (composed) layouts
//===----------------------------------------------------------------------===//

void BM_ParseComposedLayout(benchmark::State &state) {
  std::string_view text = kComposed[state.range(0)];
  must(parseComposedLayout(text), text);
  label(state);
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    auto r = parseComposedLayout(text);
    benchmark::DoNotOptimize(r);
  }
}

void BM_PrintComposedLayout(benchmark::State &state) {
  std::string_view text = kComposed[state.range(0)];
  ComposedLayout c = must(parseComposedLayout(text), text);
  checkRoundTrip(c.str(), text);
  label(state);
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    std::string s = c.str();
    benchmark::DoNotOptimize(s);
  }
}

//===----------------------------------------------------------------------===//
// CuTe print form: tilers
//===----------------------------------------------------------------------===//

void BM_ParseTiler(benchmark::State &state) {
  std::string_view text = kTilers[state.range(0)];
  must(parseTiler(text), text);
  label(state);
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    auto r = parseTiler(text);
    benchmark::DoNotOptimize(r);
  }
}

void BM_PrintTiler(benchmark::State &state) {
  std::string_view text = kTilers[state.range(0)];
  Tiler t = must(parseTiler(text), text);
  checkRoundTrip(t.str(), text);
  label(state);
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    std::string s = t.str();
    benchmark::DoNotOptimize(s);
  }
}

//===----------------------------------------------------------------------===//
// Basis descriptors
//===----------------------------------------------------------------------===//

void BM_ParseBasisDescriptor(benchmark::State &state) {
  std::string_view text = kDescriptors[state.range(0)];
  must(parseBasisDescriptor(text), text);
  label(state);
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    auto r = parseBasisDescriptor(text);
    benchmark::DoNotOptimize(r);
  }
}

void BM_PrintBasisDescriptor(benchmark::State &state) {
  std::string_view text = kDescriptors[state.range(0)];
  IntTuple d = must(parseBasisDescriptor(text), text);
  checkRoundTrip(must(printBasisDescriptor(d), text), text);
  label(state);
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    auto s = printBasisDescriptor(d);
    benchmark::DoNotOptimize(s);
  }
}

//===----------------------------------------------------------------------===//
// Layout attributes
//===----------------------------------------------------------------------===//

void BM_ParseLayoutAttribute(benchmark::State &state) {
  std::string_view text = kAttributes[state.range(0)];
  must(parseLayoutAttribute(text), text);
  label(state);
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    auto r = parseLayoutAttribute(text);
    benchmark::DoNotOptimize(r);
  }
}

void BM_PrintLayoutAttribute(benchmark::State &state) {
  std::string_view text = kAttributes[state.range(0)];
  LayoutAttribute a = must(parseLayoutAttribute(text), text);
  checkRoundTrip(printLayoutAttribute(a), text);
  label(state);
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    std::string s = printLayoutAttribute(a);
    benchmark::DoNotOptimize(s);
  }
}

} // namespace

BENCHMARK(BM_ParseLayout)->DenseRange(0, 2);
BENCHMARK(BM_PrintLayout)->DenseRange(0, 2);
BENCHMARK(BM_ParseComposedLayout)->DenseRange(0, 2);
BENCHMARK(BM_PrintComposedLayout)->DenseRange(0, 2);
BENCHMARK(BM_ParseTiler)->DenseRange(0, 2);
BENCHMARK(BM_PrintTiler)->DenseRange(0, 2);
BENCHMARK(BM_ParseBasisDescriptor)->DenseRange(0, 2);
BENCHMARK(BM_PrintBasisDescriptor)->DenseRange(0, 2);
BENCHMARK(BM_ParseLayoutAttribute)->DenseRange(0, 2);
BENCHMARK(BM_PrintLayoutAttribute)->DenseRange(0, 2);
