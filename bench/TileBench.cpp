//===- TileBench.cpp - Speed of tile layouts: L(x) and the text form ------===//
//
// Evaluation of the forward map L(x) and parse / print of the tile text form
// on the preset layouts (docs/design.md §6.2). The benchmark argument selects
// the layout of the table (the label names it). Every benchmark reports heap
// allocations per iteration ("allocs"); evaluation of these small layouts is
// expected to report 0.
//
//   BM_TileEval      L(x) into a reused CoordSet, x walking the whole tile
//   BM_TileAddress   the memory-axis address D(x)+O of one axis (addressAt)
//   BM_TileParse     text -> TileLayout (parseTileLayout)
//   BM_TilePrint     TileLayout -> canonical text (TileLayout::str)
//
// Run: build/bench/lk_bench --benchmark_filter='Tile'
//
//===----------------------------------------------------------------------===//

#include "AllocationCounter.h"

#include "layoutkit/tile/TileLayout.h"
#include "layoutkit/tile/TileText.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

using namespace lk;
using namespace lk::tile;

namespace {

struct Case {
  const char *name;
  const char *text;
  Axis axis; ///< the axis BM_TileAddress reads
};

const Case kCases[] = {
    {"m8n8 fragment", "S[(8,4,2):(4@laneid,1@laneid,1)]", Axis::m()},
    {"tensor core + replica + offset",
     "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid",
     Axis::m()},
    {"TMEM accumulator", "S[(2,128,112):(112@TCol,1@TLane,1@TCol)]",
     Axis::TCol()},
    {"scale-factor atom warpx4", "S[(32,4):(1@TLane,1@TCol)] + R[4:32@TLane]",
     Axis::TCol()},
    {"smem (8,64) row-major", "S[(8,64):(64,1)]", Axis::m()},
};

TileLayout layoutOf(int64_t i) {
  Expected<TileLayout> l = parseTileLayout(kCases[i].text);
  if (!l || l->str() != kCases[i].text) {
    std::fprintf(stderr, "bench input '%s' is not canonical\n", kCases[i].text);
    std::abort();
  }
  return *l;
}

void BM_TileEval(benchmark::State &state) {
  TileLayout l = layoutOf(state.range(0));
  CoordSet out;
  int64_t x = 0;
  {
    bench::AllocationScope allocs(state);
    for (auto _ : state) {
      l.evalInto(x, out);
      benchmark::DoNotOptimize(out.values().data());
      if (++x == l.size())
        x = 0;
    }
  }
  state.SetLabel(kCases[state.range(0)].name);
}

void BM_TileAddress(benchmark::State &state) {
  TileLayout l = layoutOf(state.range(0));
  Axis a = kCases[state.range(0)].axis;
  int64_t x = 0;
  {
    bench::AllocationScope allocs(state);
    for (auto _ : state) {
      benchmark::DoNotOptimize(l.addressAt(x, a));
      if (++x == l.size())
        x = 0;
    }
  }
  state.SetLabel(kCases[state.range(0)].name);
}

void BM_TileParse(benchmark::State &state) {
  const char *text = kCases[state.range(0)].text;
  layoutOf(state.range(0));
  {
    bench::AllocationScope allocs(state);
    for (auto _ : state) {
      Expected<TileLayout> l = parseTileLayout(text);
      benchmark::DoNotOptimize(l);
    }
  }
  state.SetLabel(kCases[state.range(0)].name);
}

void BM_TilePrint(benchmark::State &state) {
  TileLayout l = layoutOf(state.range(0));
  {
    bench::AllocationScope allocs(state);
    for (auto _ : state) {
      std::string s = l.str();
      benchmark::DoNotOptimize(s.data());
    }
  }
  state.SetLabel(kCases[state.range(0)].name);
}

constexpr int kNumCases = int(std::size(kCases));

} // namespace

BENCHMARK(BM_TileEval)->DenseRange(0, kNumCases - 1);
BENCHMARK(BM_TileAddress)->DenseRange(0, kNumCases - 1);
BENCHMARK(BM_TileParse)->DenseRange(0, kNumCases - 1);
BENCHMARK(BM_TilePrint)->DenseRange(0, kNumCases - 1);
