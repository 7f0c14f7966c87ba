//===- CuteSideBySide.cpp - LayoutKit and CuTe C++ on the same cases ------===//
//
// Built only when LK_CUTLASS_DIR names a CUTLASS checkout (its include/
// holds cute/); the CUTLASS headers are never part of this repository.
// For each case of AlgebraCases.h it builds the same operands as CuTe
// layouts of runtime integers, checks that both results are the same
// function (same size, same offset at every index) and registers
// BM_cute/<case> and BM_lk/<case> side by side, with BM_floor/<case>
// (KnownResult.h): LayoutKit's signature returning the known result,
// the least any implementation behind it costs. Shapes and strides are
// runtime ints, except the strides of layouts CuTe complements at rank > 1
// (complement_2*, the tile of logical_divide_2l, A of the products) and
// of left_inverse's operands, which CuTe requires to be static. CuTe's runtime path skips
// checks LayoutKit makes, so a case whose functions differ is reported
// ("differs") and timed anyway.
//
//===----------------------------------------------------------------------===//

#include "../AlgebraCases.h"
#include "KnownResult.h"

#include <cute/layout.hpp>

#include <benchmark/benchmark.h>

#include <cstdio>
#include <functional>
#include <map>

using lk::bench::Op;

namespace {

/// An int the compiler cannot see through: the operands stay runtime
/// integers, as in LayoutKit. The value passes through a register the
/// compiler must assume the asm rewrote ("+r"): Google Benchmark 1.7's
/// DoNotOptimize(int&) uses "+m,r", which GCC 12 at -O3 miscompiled here
/// (garbage operands in a Release build, SIGFPE in cute::ceil_div under
/// ASan).
int rt(int x) {
  asm volatile("" : "+r"(x));
  return x;
}

template <class... T> auto S(T... t) { return cute::make_shape(t...); }
template <class... T> auto D(T... t) { return cute::make_stride(t...); }
/// A static stride: CuTe's complement (and so its divides and products)
/// takes dynamic strides only for rank-1 layouts.
template <int N> auto I() { return cute::Int<N>{}; }
auto L(int s, int d) { return cute::make_layout(rt(s), rt(d)); }
auto L(auto s, auto d) { return cute::make_layout(s, d); }

/// The depth-3 layout ((2,(2,2)),(4,(2,2),2)):((1,(2,4)),(8,(32,64),128)).
auto depth3() {
  return L(S(S(rt(2), S(rt(2), rt(2))), S(rt(4), S(rt(2), rt(2)), rt(2))),
           D(D(rt(1), D(rt(2), rt(4))), D(rt(8), D(rt(32), rt(64)), rt(128))));
}

/// Same size and the same offset at every index.
template <class CuteLayout>
bool sameFunction(const lk::cute::Layout &l, const CuteLayout &c) {
  if (int64_t(cute::size(c)) != l.size())
    return false;
  for (int64_t i = 0; i < l.size(); ++i)
    if (int64_t(c(int(i))) != lk::cute::evaluate(l, i))
      return false;
  return true;
}

/// For instruction counts (valgrind --tool=callgrind): each case's CuTe and
/// LayoutKit call, run n times outside Google Benchmark.
std::map<std::string, std::function<void(int64_t)>> gLoops;

/// Checks the case and registers both benchmarks. `operands` builds the
/// CuTe operands; `op` applies CuTe's operation to them.
template <class Operands, class CuteOp>
void add(const char *name, Operands operands, CuteOp op) {
  const lk::bench::AlgebraCase *c = nullptr;
  for (const auto &x : lk::bench::kAlgebraCases)
    if (std::string(x.name) == name)
      c = &x;
  lk::bench::ParsedCase p = lk::bench::parseCase(*c);
  auto mine = lk::bench::runCase(c->op, p);
  auto args = operands();
  auto theirs = std::apply(op, args);
  bool same = mine && sameFunction(*mine, theirs);
  std::printf("%-22s layoutkit %-34s cute ", name,
              mine ? mine->str().c_str() : "error");
  cute::print(theirs);
  std::printf("  %s\n", same ? "same function" : "differs");
  benchmark::RegisterBenchmark((std::string("BM_cute/") + name).c_str(),
                               [=](benchmark::State &state) {
                                 auto in = args;
                                 for (auto _ : state) {
                                   benchmark::DoNotOptimize(in);
                                   auto r = std::apply(op, in);
                                   benchmark::DoNotOptimize(r);
                                 }
                               });
  benchmark::RegisterBenchmark((std::string("BM_lk/") + name).c_str(),
                               lk::bench::runnerFor(c->op), c);
  gLoops[std::string("cute/") + name] = [=](int64_t n) {
    auto in = args;
    for (int64_t i = 0; i < n; ++i) {
      benchmark::DoNotOptimize(in);
      auto r = std::apply(op, in);
      benchmark::DoNotOptimize(r);
    }
  };
  gLoops[std::string("lk/") + name] = [=](int64_t n) {
    lk::bench::ParsedCase in = p;
    for (int64_t i = 0; i < n; ++i) {
      benchmark::DoNotOptimize(in);
      auto r = lk::bench::runCase(c->op, in);
      benchmark::DoNotOptimize(r);
    }
  };
  if (!mine)
    return;
  lk::cute::Layout known = *mine;
  benchmark::RegisterBenchmark((std::string("BM_floor/") + name).c_str(),
                               [=](benchmark::State &state) {
                                 lk::cute::Layout in = known;
                                 for (auto _ : state) {
                                   benchmark::DoNotOptimize(in);
                                   auto r = lk::bench::returnKnown(in);
                                   benchmark::DoNotOptimize(r);
                                 }
                               });
  gLoops[std::string("floor/") + name] = [=](int64_t n) {
    lk::cute::Layout in = known;
    for (int64_t i = 0; i < n; ++i) {
      benchmark::DoNotOptimize(in);
      auto r = lk::bench::returnKnown(in);
      benchmark::DoNotOptimize(r);
    }
  };
}

#define OP(f) [](const auto &...x) { return cute::f(x...); }

void registerAll() {
  using namespace cute;
  add("composition_1", [] { return std::tuple(L(128, 2), L(32, 4)); }, OP(composition));
  add("composition_2",
      [] { return std::tuple(L(S(rt(4), rt(8)), D(rt(8), rt(1))),
                             L(S(rt(8), rt(4)), D(rt(4), rt(1)))); },
      OP(composition));
  add("composition_2l",
      [] {
        return std::tuple(
            L(S(S(rt(4), rt(2)), S(rt(4), rt(2))), D(D(rt(1), rt(16)), D(rt(4), rt(32)))),
            L(S(S(rt(2), rt(2)), S(rt(2), rt(4))), D(D(rt(1), rt(8)), D(rt(2), rt(16)))));
      },
      OP(composition));
  add("complement_1", [] { return std::tuple(L(4, 32), rt(256)); }, OP(complement));
  add("complement_2",
      [] { return std::tuple(L(S(rt(2), rt(4)), D(I<1>(), I<8>())), rt(64)); },
      OP(complement));
  add("complement_2l",
      [] { return std::tuple(L(S(S(rt(2), rt(2)), rt(4)), D(D(I<1>(), I<8>()), I<2>())), rt(128)); },
      OP(complement));
  add("logical_divide_1", [] { return std::tuple(L(128, 1), L(32, 1)); }, OP(logical_divide));
  add("logical_divide_2",
      [] { return std::tuple(L(S(rt(64), rt(32)), D(rt(32), rt(1))),
                             make_tile(L(8, 1), L(4, 1))); },
      OP(logical_divide));
  add("logical_divide_2l",
      [] {
        return std::tuple(
            L(S(S(rt(8), rt(8)), S(rt(4), rt(8))), D(D(rt(8), rt(64)), D(rt(1), rt(512)))),
            make_tile(L(S(rt(4), rt(2)), D(I<1>(), I<8>())), L(4, 1)));
      },
      OP(logical_divide));
  add("logical_product_1", [] { return std::tuple(L(128, 1), L(4, 32)); }, OP(logical_product));
  add("logical_product_2",
      [] { return std::tuple(L(S(rt(4), rt(8)), D(I<1>(), I<4>())),
                             L(S(rt(2), rt(2)), D(rt(1), rt(2)))); },
      OP(logical_product));
  add("logical_product_2l",
      [] {
        return std::tuple(L(S(S(rt(2), rt(2)), rt(4)), D(D(I<1>(), I<2>()), I<4>())),
                          L(S(S(rt(2), rt(2)), rt(2)), D(D(rt(1), rt(2)), rt(4))));
      },
      OP(logical_product));
  add("coalesce_1", [] { return std::tuple(L(64, 2)); }, OP(coalesce));
  add("coalesce_2", [] { return std::tuple(L(S(rt(2), rt(4)), D(rt(1), rt(2)))); }, OP(coalesce));
  add("coalesce_3l", [] { return std::tuple(depth3()); }, OP(coalesce));
  add("right_inverse_1", [] { return std::tuple(L(64, 1)); }, OP(right_inverse));
  add("right_inverse_2", [] { return std::tuple(L(S(rt(4), rt(2)), D(rt(2), rt(1)))); },
      OP(right_inverse));
  add("right_inverse_3l", [] { return std::tuple(depth3()); }, OP(right_inverse));
  add("left_inverse_1", [] { return std::tuple(L(rt(16), I<4>())); }, OP(left_inverse));
  add("left_inverse_2", [] { return std::tuple(L(S(rt(4), rt(2)), D(I<2>(), I<1>()))); },
      OP(left_inverse));
  add("left_inverse_2l",
      [] { return std::tuple(L(S(S(rt(2), rt(2)), S(rt(4), rt(2))),
                               D(D(I<1>(), I<16>()), D(I<2>(), I<64>())))); },
      OP(left_inverse));
  add("blocked_product_1", [] { return std::tuple(L(4, 1), L(8, 1)); }, OP(blocked_product));
  add("blocked_product_2",
      [] { return std::tuple(L(S(rt(2), rt(2)), D(I<1>(), I<2>())),
                             L(S(rt(4), rt(8)), D(rt(1), rt(4)))); },
      OP(blocked_product));
  add("blocked_product_2l",
      [] {
        return std::tuple(L(S(S(rt(2), rt(2)), rt(2)), D(D(I<1>(), I<2>()), I<4>())),
                          L(S(S(rt(2), rt(2)), rt(4)), D(D(rt(1), rt(2)), rt(4))));
      },
      OP(blocked_product));
  add("raked_product_2",
      [] { return std::tuple(L(S(rt(2), rt(2)), D(I<1>(), I<2>())),
                             L(S(rt(4), rt(8)), D(rt(1), rt(4)))); },
      OP(raked_product));
  add("max_common_layout_1", [] { return std::tuple(L(64, 1), L(64, 1)); },
      OP(max_common_layout));
  add("max_common_layout_2",
      [] { return std::tuple(L(S(rt(8), rt(4)), D(rt(1), rt(8))),
                             L(S(rt(8), rt(4)), D(rt(1), rt(16)))); },
      OP(max_common_layout));
}

} // namespace

/// `--calls <cute|lk>/<case> <n>` runs one side n times (no benchmark):
/// callgrind's count for 2n calls minus that for n, over n, is the
/// instruction count of one call.
int main(int argc, char **argv) {
  registerAll();
  if (argc == 4 && std::string(argv[1]) == "--calls") {
    gLoops.at(argv[2])(std::atoll(argv[3]));
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
