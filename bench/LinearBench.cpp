//===- LinearBench.cpp - Speed of the linear-layout core ------------------===//
//
// Targets (20x Triton's LinearLayout on this machine type):
// construct <= 75 ns, compose <= 140 ns, invertAndCompose <= 1.7 us,
// pseudoinvert <= 1.4 us, apply <= 13 ns, free-variable masks <= 60 ns; no
// heap allocation in the hot operations ("allocs" counter).
//
// Layouts: the mma v2 accumulator (instrShape [16, 8]) of 128x128 with
// warpsPerCTA [2, 2]; a 128x128 XOR swizzle (swizzled shared vec 8,
// perPhase 1, maxPhase 8, order [1, 0], inverted: (dim0, dim1) -> offset);
// blocked sizePerThread [1, 4], threadsPerWarp [4, 8], warpsPerCTA [4, 1]
// (8 warps: [8, 1]), order [1, 0], against mma v2 with warps [2, 2] (8
// warps: [4, 2]) on 64x64, 128x128 and 256x256.
//
//===----------------------------------------------------------------------===//

#include "AllocationCounter.h"

#include "layoutkit/linear/LinearLayout.h"
#include "layoutkit/linear/Standard.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

using namespace lk;
using namespace lk::linear;

namespace {

template <class T> T must(Expected<T> e) {
  if (!e) {
    std::fprintf(stderr, "benchmark setup failed: %s\n",
                 e.error().message.c_str());
    std::abort();
  }
  return std::move(*e);
}

LinearLayout mma(int64_t n, unsigned wm, unsigned wn) {
  unsigned instr[] = {16, 8};
  unsigned warps[] = {wm, wn};
  int64_t shape[] = {n, n};
  return must(nvidiaMmaLayout(2, instr, warps, shape));
}

LinearLayout blocked(int64_t n, unsigned warpsM) {
  unsigned spt[] = {1, 4}, tpw[] = {4, 8}, wpc[] = {warpsM, 1},
           order[] = {1, 0};
  int64_t shape[] = {n, n};
  return must(blockedLayout(spt, tpw, wpc, order, shape));
}

LinearLayout swizzle128() {
  Encoding e;
  e.kind = EncodingKind::SwizzledShared;
  e.vec = 8;
  e.perPhase = 1;
  e.maxPhase = 8;
  e.order = {1, 0};
  int64_t shape[] = {128, 128};
  return must(must(toLinearLayout(e, shape)).invert());
}

void BM_ConstructMmaV2FromBases(benchmark::State &state) {
  LinearLayout ref = mma(128, 2, 2);
  std::vector<InDimBases> ins = ref.allBases();
  std::vector<OutDim> outs = ref.outDims();
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    auto l = LinearLayout::make(std::span<const InDimBases>(ins),
                                std::span<const OutDim>(outs),
                                /*requireSurjective=*/true);
    benchmark::DoNotOptimize(l);
  }
  state.SetLabel(std::to_string(ref.totalInBits()) +
                 " bases, checked surjective");
}

void BM_ConstructMmaV2FromTable(benchmark::State &state) {
  LinearLayout ref = mma(128, 2, 2);
  std::vector<OutDim> outs = ref.outDims();
  std::vector<std::vector<int64_t>> values(size_t(ref.numInDims()));
  std::vector<InDimTable> ins;
  for (int i = 0; i < ref.numInDims(); ++i) {
    for (const auto &b : ref.bases(i))
      values[size_t(i)].insert(values[size_t(i)].end(), b.begin(), b.end());
    ins.push_back(
        {ref.inDim(i).id, ref.inDim(i).log2, values[size_t(i)].data()});
  }
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    auto l = LinearLayout::make(std::span<const InDimTable>(ins),
                                std::span<const OutDim>(outs),
                                /*requireSurjective=*/true);
    benchmark::DoNotOptimize(l);
  }
  state.SetLabel("flat basis tables, checked surjective");
}

void BM_ConstructMmaV2FromColumns(benchmark::State &state) {
  LinearLayout ref = mma(128, 2, 2);
  std::vector<DimSize> ins, outs;
  for (int i = 0; i < ref.numInDims(); ++i)
    ins.push_back(ref.inDim(i));
  for (int k = 0; k < ref.numOutDims(); ++k)
    outs.push_back(ref.outDim(k));
  std::vector<uint64_t> cols(ref.columns().begin(), ref.columns().end());
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    auto l = LinearLayout::fromColumns(ins, outs, cols);
    benchmark::DoNotOptimize(l);
  }
}

void BM_StandardMmaV2(benchmark::State &state) {
  for (auto _ : state) {
    auto l = mma(128, 2, 2);
    benchmark::DoNotOptimize(l);
  }
  state.SetLabel("nvidiaMmaLayout(2, [16,8], [2,2], [128,128]), informational");
}

void BM_ComposeMmaV2WithSwizzle(benchmark::State &state) {
  LinearLayout a = mma(128, 2, 2), sw = swizzle128();
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    auto c = a.compose(sw);
    benchmark::DoNotOptimize(c);
  }
}

void BM_InvertAndCompose(benchmark::State &state) {
  int64_t n = state.range(0);
  bool eight = state.range(1) != 0;
  bool toMma = state.range(2) != 0;
  LinearLayout b = blocked(n, eight ? 8 : 4);
  LinearLayout m = eight ? mma(n, 4, 2) : mma(n, 2, 2);
  const LinearLayout &src = toMma ? b : m;
  const LinearLayout &dst = toMma ? m : b;
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    auto c = src.invertAndCompose(dst);
    benchmark::DoNotOptimize(c);
  }
  state.SetLabel(std::to_string(n) + "x" + std::to_string(n) + ", " +
                 (eight ? "8" : "4") + " warps, " +
                 (toMma ? "blocked -> mma" : "mma -> blocked"));
}

void BM_Pseudoinvert(benchmark::State &state) {
  LinearLayout a = mma(128, 2, 2);
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    auto p = a.pseudoinvert();
    benchmark::DoNotOptimize(p);
  }
}

void BM_ApplyOnePoint(benchmark::State &state) {
  LinearLayout a = mma(128, 2, 2);
  uint64_t x = 0x2b5a & a.inMask();
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    benchmark::DoNotOptimize(x);
    uint64_t y = a.applyFlat(x);
    benchmark::DoNotOptimize(y);
  }
}

void BM_FreeVariableMasks(benchmark::State &state) {
  // A layout with duplicated data: blocked on 16x16 broadcasts warps/lanes.
  LinearLayout a = state.range(0) ? blocked(16, 4) : mma(128, 2, 2);
  lk::bench::AllocationScope scope(state);
  for (auto _ : state) {
    auto m = a.freeVariableMasks();
    benchmark::DoNotOptimize(m);
  }
  state.SetLabel(state.range(0) ? "blocked 16x16 (broadcast)"
                                : "mma v2 128x128");
}

} // namespace

BENCHMARK(BM_ConstructMmaV2FromBases);
BENCHMARK(BM_ConstructMmaV2FromTable);
BENCHMARK(BM_ConstructMmaV2FromColumns);
BENCHMARK(BM_StandardMmaV2);
BENCHMARK(BM_ComposeMmaV2WithSwizzle);
BENCHMARK(BM_InvertAndCompose)->ArgsProduct({{64, 128, 256}, {0, 1}, {1, 0}});
BENCHMARK(BM_Pseudoinvert);
BENCHMARK(BM_ApplyOnePoint);
BENCHMARK(BM_FreeVariableMasks)->Arg(0)->Arg(1);
