//===- PlanBench.cpp - Speed of the conversion planner --------------------===//
//
// Target: planConversion under 20 us per pair for 128x128
// tensors with 8 warps. Measured per pair, for f16:
//
//   blocked->mma   blocked-row8 ([1,8], [4,8], [w,1]) -> mma v2 accumulator
//   mma->blocked   the reverse
//   mma->dotA      mma v2 accumulator -> dot operand A (kWidth 2) of an mma
//                  with [w,1] warps
//   transpose      blocked-row ([1,4], [8,4]) -> blocked-col ([4,1], [4,8],
//                  order [0,1])
//
// (PlanPairs.h defines the layouts) on 128x128 with 8 warps and on 64x64
// with 4 warps. The label names the strategy chosen and, for a shared-memory
// plan, the store and load instructions. BM_PlanConversion uses the default
// options (ldmatrix / stmatrix allowed); BM_PlanConversionVectorOnly the
// vector-only plan (PlanOptions::matrixInstructions = false), for
// comparison.
//
//===----------------------------------------------------------------------===//

#include "support/PlanPairs.h"

#include "layoutkit/plan/Plan.h"

#include <benchmark/benchmark.h>

#include <string>

using namespace lk;

namespace {

struct NamedPair {
  const char *src, *dst;
};
constexpr NamedPair kPairs[] = {{"blocked-row8", "mma"},
                                {"mma", "blocked-row8"},
                                {"mma", "dotA"},
                                {"blocked-row", "blocked-col"}};

linear::LinearLayout standardLayout(const std::string &name, unsigned warps,
                                    int64_t n) {
  for (auto &[nm, e] : bench::standardEncodings(warps, 16))
    if (nm == name) {
      int64_t shape[] = {n, n};
      return bench::mustSucceed(linear::toLinearLayout(*e, shape),
                                "standard layout");
    }
  std::fprintf(stderr, "no standard layout named %s\n", name.c_str());
  std::abort();
}

/// "stmatrix.x4 + ld.shared": the instructions of a shared-memory plan.
std::string accessLabel(const plan::Plan &p) {
  if (!p.smem)
    return "";
  const plan::SharedMemoryPlan &sm = *p.smem;
  auto side = [&](bool matrix, bool trans, const char *op, const char *vector) {
    return matrix ? std::string(op) + ".x" + std::to_string(sm.matrixCount) +
                        (trans ? ".trans" : "")
                  : std::string(vector);
  };
  return " (" +
         side(sm.store.matrixInstruction, sm.store.trans, "stmatrix",
              "st.shared") +
         " + " +
         side(sm.load.matrixInstruction, sm.load.trans, "ldmatrix",
              "ld.shared") +
         ")";
}

/// Args: pair index, tensor extent n (n x n), warps.
void planPair(benchmark::State &state, const plan::PlanOptions &options) {
  const NamedPair &pair = kPairs[state.range(0)];
  int64_t n = state.range(1);
  unsigned warps = unsigned(state.range(2));
  linear::LinearLayout src = standardLayout(pair.src, warps, n);
  linear::LinearLayout dst = standardLayout(pair.dst, warps, n);
  plan::Plan p = bench::mustSucceed(plan::planConversion(src, dst, 16, options),
                                    "planConversion");
  for (auto _ : state) {
    auto planned = plan::planConversion(src, dst, 16, options);
    benchmark::DoNotOptimize(planned);
  }
  state.SetLabel(std::string(pair.src) + "->" + pair.dst + " " +
                 std::to_string(n) + "x" + std::to_string(n) + " f16 " +
                 std::to_string(warps) + " warps: " +
                 std::string(plan::strategyName(p.strategy)) + accessLabel(p));
}

void BM_PlanConversion(benchmark::State &state) {
  planPair(state, plan::PlanOptions{});
}

void BM_PlanConversionVectorOnly(benchmark::State &state) {
  plan::PlanOptions o;
  o.matrixInstructions = false;
  planPair(state, o);
}

} // namespace

BENCHMARK(BM_PlanConversion)
    ->ArgsProduct({{0, 1, 2, 3}, {128}, {8}})
    ->ArgsProduct({{0, 1, 2, 3}, {64}, {4}})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PlanConversionVectorOnly)
    ->ArgsProduct({{0, 1, 2, 3}, {128}, {8}})
    ->ArgsProduct({{0, 1, 2, 3}, {64}, {4}})
    ->Unit(benchmark::kMicrosecond);
