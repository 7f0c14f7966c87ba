//===- AlgebraBench.cpp - Speed of the cute algebra -----------------------===//
//
// Each operation runs on layouts of depth 1, 2 and 3 (up to 8 leaves); the
// benchmark argument selects the layout. Speed targets: every algebra
// operation under 1 us, crd2idx under 20 ns, no heap allocation.
//
//===----------------------------------------------------------------------===//

#include "AllocationCounter.h"

#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/Text.h"

#include <benchmark/benchmark.h>

using namespace lk;
using namespace lk::cute;

namespace {

struct Case {
  const char *layout; // A
  const char *tiler;  // a tile of A for divide/compose
  const char *coord;  // a congruent coordinate
};

// Depth 1, 2 and 3; 2, 4-6 and 8 leaves.
const Case kCases[] = {
    {"(64,32):(32,1)", "(8:1,4:1)", "(5,7)"},
    {"((8,8),(4,8)):((8,64),(1,512))", "((4,2):(1,8),4:1)", "((3,5),(2,6))"},
    {"((2,(2,2)),(4,(2,2),2)):((1,(2,4)),(8,(32,64),128))",
     "((2,2):(1,2),(4,2):(1,4))", "((1,(1,0)),(3,(1,0),1))"},
};

Layout layoutOf(int64_t i) { return *parseLayout(kCases[i].layout); }
Tiler tilerOf(int64_t i) { return *parseTiler(kCases[i].tiler); }

void setLabel(benchmark::State &state) {
  Layout l = layoutOf(state.range(0));
  state.SetLabel("depth " + std::to_string(l.depth()) + ", " +
                 std::to_string(l.shape().leafCount()) + " leaves");
}

void BM_crd2idx(benchmark::State &state) {
  Layout l = layoutOf(state.range(0));
  IntTuple c = *parseIntTuple(kCases[state.range(0)].coord);
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    auto r = crd2idx(c, l);
    benchmark::DoNotOptimize(r);
  }
  setLabel(state);
}

void BM_crd2idx_1d(benchmark::State &state) {
  Layout l = layoutOf(state.range(0));
  int64_t i = 0, n = l.size();
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    benchmark::DoNotOptimize(evaluate(l, i));
    i = i + 1 == n ? 0 : i + 1;
  }
  setLabel(state);
}

void BM_idx2crd(benchmark::State &state) {
  Layout l = layoutOf(state.range(0));
  int64_t i = 0, n = l.size();
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    auto c = idx2crd(i, l.shape());
    benchmark::DoNotOptimize(c);
    i = i + 1 == n ? 0 : i + 1;
  }
  setLabel(state);
}

template <class F> void runUnary(benchmark::State &state, F f) {
  Layout l = layoutOf(state.range(0));
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    auto r = f(l);
    benchmark::DoNotOptimize(r);
  }
  setLabel(state);
}

void BM_coalesce(benchmark::State &state) {
  runUnary(state, [](const Layout &l) { return coalesce(l); });
}
void BM_complement(benchmark::State &state) {
  runUnary(state,
           [](const Layout &l) { return complement(l, IntTuple(1 << 20)); });
}
void BM_right_inverse(benchmark::State &state) {
  runUnary(state, [](const Layout &l) { return right_inverse(l); });
}
void BM_left_inverse(benchmark::State &state) {
  runUnary(state, [](const Layout &l) { return left_inverse(l); });
}

void BM_composition(benchmark::State &state) {
  Layout a = layoutOf(state.range(0));
  Tiler t = tilerOf(state.range(0));
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    auto r = composition(a, t);
    benchmark::DoNotOptimize(r);
  }
  setLabel(state);
}

void BM_logical_divide(benchmark::State &state) {
  Layout a = layoutOf(state.range(0));
  Tiler t = tilerOf(state.range(0));
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    auto r = logical_divide(a, t);
    benchmark::DoNotOptimize(r);
  }
  setLabel(state);
}

// A single layout tiler: one complement and one composition.
void BM_logical_divide_layout(benchmark::State &state) {
  Layout a = layoutOf(state.range(0));
  Tiler t = Tiler::of(*parseLayout("(4,2):(1,8)"));
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    auto r = logical_divide(a, t);
    benchmark::DoNotOptimize(r);
  }
  setLabel(state);
}

void BM_logical_product(benchmark::State &state) {
  Layout a = layoutOf(state.range(0));
  Tiler t = Tiler::of(*parseLayout("(2,3):(1,2)"));
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    auto r = logical_product(a, t);
    benchmark::DoNotOptimize(r);
  }
  setLabel(state);
}

} // namespace

BENCHMARK(BM_crd2idx)->DenseRange(0, 2);
BENCHMARK(BM_crd2idx_1d)->DenseRange(0, 2);
BENCHMARK(BM_idx2crd)->DenseRange(0, 2);
BENCHMARK(BM_coalesce)->DenseRange(0, 2);
BENCHMARK(BM_composition)->DenseRange(0, 2);
BENCHMARK(BM_complement)->DenseRange(0, 2);
BENCHMARK(BM_logical_divide)->DenseRange(0, 2);
BENCHMARK(BM_logical_divide_layout)->DenseRange(0, 2);
BENCHMARK(BM_logical_product)->DenseRange(0, 2);
BENCHMARK(BM_right_inverse)->DenseRange(0, 2);
BENCHMARK(BM_left_inverse)->DenseRange(0, 2);
