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
// runtime ints, except where CuTe requires static ones: the strides of
// layouts it complements at rank > 1 (complements, layout tiles of
// divides, A of the products) and of left_inverse's operands; the shapes
// and strides of right_inverse's and max_common_layout's (with runtime
// ones CuTe returns a shorter inverse or _1:_0, which it then computes
// at compile time). Nothing is timed unless every case
// has CuTe operands here and every result is CuTe's function.
//
//===----------------------------------------------------------------------===//

#include "../AlgebraCases.h"
#include "KnownResult.h"

#include <cute/layout.hpp>

#include <benchmark/benchmark.h>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define LK_HAVE_CALLGRIND 1
#endif

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>

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

/// The same, static (CuTe's right_inverse needs static shapes and strides).
auto depth3Static() {
  return L(
      S(S(I<2>(), S(I<2>(), I<2>())), S(I<4>(), S(I<2>(), I<2>()), I<2>())),
      D(D(I<1>(), D(I<2>(), I<4>())),
        D(I<8>(), D(I<32>(), I<64>()), I<128>())));
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
/// Per case, n reads of its operand A (readNodes; `--calls read/<case>`),
/// outside gLoops: --calls-each does not run them.
std::map<std::string, std::function<void(int64_t)>> gReads;
/// The cases checked, and how many of them failed the check.
std::set<std::string> gChecked;
int gFailed = 0;

/// LayoutKit's call of operation O, n times, called directly as BM_lk/
/// times it (no dispatch on the operation in the loop).
template <Op O>
std::function<void(int64_t)> lkLoopOf(const lk::bench::ParsedCase &p) {
  return [p](int64_t n) {
    lk::bench::ParsedCase in = p;
    for (int64_t i = 0; i < n; ++i) {
      benchmark::DoNotOptimize(in);
      auto r = lk::bench::call<O>(in);
      benchmark::DoNotOptimize(r);
    }
  };
}

std::function<void(int64_t)> lkLoop(Op op, const lk::bench::ParsedCase &p) {
  switch (op) {
// clang-format off
#define LK_CASE(o) case Op::o: return lkLoopOf<Op::o>(p);
    LK_CASE(Composition)
    LK_CASE(Complement)
    LK_CASE(Divide)
    LK_CASE(Product)
    LK_CASE(Coalesce)
    LK_CASE(RightInverse)
    LK_CASE(LeftInverse)
    LK_CASE(Blocked)
    LK_CASE(Raked)
    LK_CASE(MaxCommon)
    LK_CASE(ComposeBy)
    LK_CASE(ZippedDivide)
    LK_CASE(TiledDivide)
    LK_CASE(FlatDivide)
    LK_CASE(ZippedProduct)
    LK_CASE(TiledProduct)
    LK_CASE(FlatProduct)
#undef LK_CASE
    // clang-format on
  }
  return lkLoopOf<Op::Composition>(p);
}

/// Checks the case and registers both benchmarks. `operands` builds the
/// CuTe operands; `op` applies CuTe's operation to them.
template <class Operands, class CuteOp>
void add(const char *name, Operands operands, CuteOp op) {
  const lk::bench::AlgebraCase *c = nullptr;
  for (const auto &x : lk::bench::kAlgebraCases)
    if (std::string(x.name) == name)
      c = &x;
  if (c == nullptr || !gChecked.insert(name).second) {
    std::printf("%s: not a case of AlgebraCases.h, or added twice\n", name);
    std::exit(2);
  }
  lk::bench::ParsedCase p = lk::bench::parseCase(*c);
  auto mine = lk::bench::runCase(c->op, p);
  auto args = operands();
  auto theirs = std::apply(op, args);
  bool same = mine && sameFunction(*mine, theirs);
  std::printf("%-22s layoutkit %-34s cute ", name,
              mine ? mine->str().c_str() : "error");
  cute::print(theirs);
  std::printf("  %s\n", same ? "same function" : "differs");
  gFailed += !same;
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
  gLoops[std::string("lk/") + name] = lkLoop(c->op, p);
  gReads[name] = [a = p.a](int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      benchmark::DoNotOptimize(a);
      int64_t r = lk::bench::readNodes(a);
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
  add(
      "composition_1", [] { return std::tuple(L(128, 2), L(32, 4)); },
      OP(composition));
  add(
      "composition_2",
      [] {
        return std::tuple(L(S(rt(4), rt(8)), D(rt(8), rt(1))),
                          L(S(rt(8), rt(4)), D(rt(4), rt(1))));
      },
      OP(composition));
  add(
      "composition_2l",
      [] {
        return std::tuple(L(S(S(rt(4), rt(2)), S(rt(4), rt(2))),
                            D(D(rt(1), rt(16)), D(rt(4), rt(32)))),
                          L(S(S(rt(2), rt(2)), S(rt(2), rt(4))),
                            D(D(rt(1), rt(8)), D(rt(2), rt(16)))));
      },
      OP(composition));
  add(
      "complement_1", [] { return std::tuple(L(4, 32), rt(256)); },
      OP(complement));
  add(
      "complement_2",
      [] { return std::tuple(L(S(rt(2), rt(4)), D(I<1>(), I<8>())), rt(64)); },
      OP(complement));
  add(
      "complement_2l",
      [] {
        return std::tuple(
            L(S(S(rt(2), rt(2)), rt(4)), D(D(I<1>(), I<8>()), I<2>())),
            rt(128));
      },
      OP(complement));
  add(
      "logical_divide_1", [] { return std::tuple(L(128, 1), L(32, 1)); },
      OP(logical_divide));
  add(
      "logical_divide_2",
      [] {
        return std::tuple(L(S(rt(64), rt(32)), D(rt(32), rt(1))),
                          make_tile(L(8, 1), L(4, 1)));
      },
      OP(logical_divide));
  add(
      "logical_divide_2l",
      [] {
        return std::tuple(
            L(S(S(rt(8), rt(8)), S(rt(4), rt(8))),
              D(D(rt(8), rt(64)), D(rt(1), rt(512)))),
            make_tile(L(S(rt(4), rt(2)), D(I<1>(), I<8>())), L(4, 1)));
      },
      OP(logical_divide));
  add(
      "logical_product_1", [] { return std::tuple(L(128, 1), L(4, 32)); },
      OP(logical_product));
  add(
      "logical_product_2",
      [] {
        return std::tuple(L(S(rt(4), rt(8)), D(I<1>(), I<4>())),
                          L(S(rt(2), rt(2)), D(rt(1), rt(2))));
      },
      OP(logical_product));
  add(
      "logical_product_2l",
      [] {
        return std::tuple(
            L(S(S(rt(2), rt(2)), rt(4)), D(D(I<1>(), I<2>()), I<4>())),
            L(S(S(rt(2), rt(2)), rt(2)), D(D(rt(1), rt(2)), rt(4))));
      },
      OP(logical_product));
  add(
      "coalesce_1", [] { return std::tuple(L(64, 2)); }, OP(coalesce));
  add(
      "coalesce_2",
      [] { return std::tuple(L(S(rt(2), rt(4)), D(rt(1), rt(2)))); },
      OP(coalesce));
  add(
      "coalesce_3l", [] { return std::tuple(depth3()); }, OP(coalesce));
  add(
      "right_inverse_1", [] { return std::tuple(L(I<64>(), I<1>())); },
      OP(right_inverse));
  add(
      "right_inverse_2",
      [] { return std::tuple(L(S(I<4>(), I<2>()), D(I<2>(), I<1>()))); },
      OP(right_inverse));
  add(
      "right_inverse_3l", [] { return std::tuple(depth3Static()); },
      OP(right_inverse));
  add(
      "left_inverse_1", [] { return std::tuple(L(rt(16), I<4>())); },
      OP(left_inverse));
  add(
      "left_inverse_2",
      [] { return std::tuple(L(S(rt(4), rt(2)), D(I<2>(), I<1>()))); },
      OP(left_inverse));
  add(
      "left_inverse_2l",
      [] {
        return std::tuple(L(S(S(rt(2), rt(2)), S(rt(4), rt(2))),
                            D(D(I<1>(), I<16>()), D(I<2>(), I<64>()))));
      },
      OP(left_inverse));
  add(
      "blocked_product_1", [] { return std::tuple(L(4, 1), L(8, 1)); },
      OP(blocked_product));
  add(
      "blocked_product_2",
      [] {
        return std::tuple(L(S(rt(2), rt(2)), D(I<1>(), I<2>())),
                          L(S(rt(4), rt(8)), D(rt(1), rt(4))));
      },
      OP(blocked_product));
  add(
      "blocked_product_2l",
      [] {
        return std::tuple(
            L(S(S(rt(2), rt(2)), rt(2)), D(D(I<1>(), I<2>()), I<4>())),
            L(S(S(rt(2), rt(2)), rt(4)), D(D(rt(1), rt(2)), rt(4))));
      },
      OP(blocked_product));
  add(
      "raked_product_2",
      [] {
        return std::tuple(L(S(rt(2), rt(2)), D(I<1>(), I<2>())),
                          L(S(rt(4), rt(8)), D(rt(1), rt(4))));
      },
      OP(raked_product));
  add(
      "max_common_layout_1",
      [] { return std::tuple(L(I<64>(), I<1>()), L(I<64>(), I<1>())); },
      OP(max_common_layout));
  add(
      "max_common_layout_2",
      [] {
        return std::tuple(L(S(I<8>(), I<4>()), D(I<1>(), I<8>())),
                          L(S(I<8>(), I<4>()), D(I<1>(), I<16>())));
      },
      OP(max_common_layout));

  // From GEMM tiling code (AlgebraCases.h). Runtime shapes throughout;
  // strides static only where CuTe's complement or inverses need them.
  auto cm = [] { return L(S(rt(128), rt(64)), D(rt(1), rt(128))); };
  auto rm = [] { return L(S(rt(128), rt(64)), D(rt(64), rt(1))); };
  auto by3216 = [] { return make_tile(L(32, 1), L(16, 1)); };
  auto by42 = [] { return make_tile(L(4, 1), L(2, 1)); };
  add(
      "zipped_divide_cm", [=] { return std::tuple(cm(), by3216()); },
      OP(zipped_divide));
  add(
      "zipped_divide_rm", [=] { return std::tuple(rm(), by3216()); },
      OP(zipped_divide));
  add(
      "tiled_divide_cm", [=] { return std::tuple(cm(), by3216()); },
      OP(tiled_divide));
  add(
      "tiled_divide_rm", [=] { return std::tuple(rm(), by3216()); },
      OP(tiled_divide));
  add(
      "flat_divide_cm", [=] { return std::tuple(cm(), by3216()); },
      OP(flat_divide));
  add(
      "flat_divide_rm", [=] { return std::tuple(rm(), by3216()); },
      OP(flat_divide));
  add(
      "zipped_divide_3d",
      [=] {
        return std::tuple(
            L(S(rt(128), rt(64), rt(4)), D(rt(1), rt(128), rt(8192))),
            by3216());
      },
      OP(zipped_divide));
  add(
      "zipped_divide_smem",
      [] {
        return std::tuple(L(S(rt(64), rt(32)), D(rt(32), rt(1))),
                          make_tile(L(8, 1), L(8, 1)));
      },
      OP(zipped_divide));
  add(
      "zipped_divide_tile",
      [] {
        return std::tuple(L(S(rt(64), rt(64)), D(rt(1), rt(64))),
                          L(S(rt(2), rt(4)), D(I<1>(), I<16>())));
      },
      OP(zipped_divide));
  add(
      "logical_divide_88_by_42",
      [=] { return std::tuple(L(S(rt(8), rt(8)), D(rt(8), rt(1))), by42()); },
      OP(logical_divide));
  add(
      "logical_divide_strided_tile",
      [=] {
        return std::tuple(
            cm(), make_tile(L(S(rt(4), rt(8)), D(I<8>(), I<1>())), L(16, 1)));
      },
      OP(logical_divide));
  // The 8x8 atoms: A's strides static (CuTe complements A).
  auto rm88 = [] { return L(S(rt(8), rt(8)), D(I<8>(), I<1>())); };
  auto cm88 = [] { return L(S(rt(8), rt(8)), D(I<1>(), I<8>())); };
  auto b42 = [] { return L(S(rt(4), rt(2)), D(rt(1), rt(4))); };
  add(
      "blocked_product_rm88", [=] { return std::tuple(rm88(), b42()); },
      OP(blocked_product));
  add(
      "blocked_product_cm88", [=] { return std::tuple(cm88(), b42()); },
      OP(blocked_product));
  add(
      "raked_product_rm88", [=] { return std::tuple(rm88(), b42()); },
      OP(raked_product));
  add(
      "raked_product_cm88", [=] { return std::tuple(cm88(), b42()); },
      OP(raked_product));
  add(
      "logical_product_rm88", [=] { return std::tuple(rm88(), b42()); },
      OP(logical_product));
  add(
      "logical_product_cm88", [=] { return std::tuple(cm88(), b42()); },
      OP(logical_product));
  add(
      "zipped_product_rm88", [=] { return std::tuple(rm88(), by42()); },
      OP(zipped_product));
  add(
      "zipped_product_cm88", [=] { return std::tuple(cm88(), by42()); },
      OP(zipped_product));
  add(
      "tiled_product_rm88", [=] { return std::tuple(rm88(), by42()); },
      OP(tiled_product));
  add(
      "tiled_product_cm88", [=] { return std::tuple(cm88(), by42()); },
      OP(tiled_product));
  add(
      "flat_product_rm88", [=] { return std::tuple(rm88(), by42()); },
      OP(flat_product));
  add(
      "flat_product_cm88", [=] { return std::tuple(cm88(), by42()); },
      OP(flat_product));
  add(
      "logical_product_32x4",
      [] {
        return std::tuple(L(S(rt(32), rt(4)), D(I<4>(), I<1>())),
                          L(S(rt(2), rt(2)), D(rt(1), rt(2))));
      },
      OP(logical_product));
  add(
      "blocked_product_gmma_sw128",
      [] {
        return std::tuple(L(S(rt(8), rt(64)), D(I<64>(), I<1>())),
                          L(S(rt(16), rt(2)), D(rt(1), rt(16))));
      },
      OP(blocked_product));
  add(
      "raked_product_thr_val",
      [] {
        return std::tuple(L(S(rt(16), rt(8)), D(I<8>(), I<1>())),
                          L(S(rt(1), rt(8)), D(rt(1), rt(1))));
      },
      OP(raked_product));
  add(
      "right_inverse_thr_val",
      [] {
        return std::tuple(L(S(S(I<1>(), I<16>()), S(I<8>(), I<8>())),
                            D(D(I<0>(), I<8>()), D(I<128>(), I<1>()))));
      },
      OP(right_inverse));
  // TV layouts, static strides (CuTe's inverses need them).
  auto sm80a = [] {
    return L(S(S(rt(4), rt(8)), S(rt(2), rt(2), rt(2))),
             D(D(I<32>(), I<1>()), D(I<16>(), I<8>(), I<128>())));
  };
  auto sm80b = [] {
    return L(S(S(rt(4), rt(8)), S(rt(2), rt(2))),
             D(D(I<16>(), I<1>()), D(I<8>(), I<64>())));
  };
  auto sm80c = [] {
    return L(S(S(rt(4), rt(8)), S(rt(2), rt(2))),
             D(D(I<32>(), I<1>()), D(I<16>(), I<8>())));
  };
  auto sm90c = [] {
    return L(S(S(rt(4), rt(8), rt(4)), S(rt(2), rt(2), rt(8))),
             D(D(I<128>(), I<1>(), I<16>()), D(I<64>(), I<8>(), I<512>())));
  };
  auto ldsm = [] {
    return L(S(rt(32), S(rt(2), rt(4))), D(I<2>(), D(I<1>(), I<64>())));
  };
  add(
      "left_inverse_sm80_a", [=] { return std::tuple(sm80a()); },
      OP(left_inverse));
  add(
      "left_inverse_sm80_b", [=] { return std::tuple(sm80b()); },
      OP(left_inverse));
  add(
      "left_inverse_sm80_c", [=] { return std::tuple(sm80c()); },
      OP(left_inverse));
  // right_inverse: static shapes too (CuTe's needs them; it then does no
  // run-time work).
  add(
      "right_inverse_sm80_a",
      [] {
        return std::tuple(
            L(S(S(I<4>(), I<8>()), S(I<2>(), I<2>(), I<2>())),
              D(D(I<32>(), I<1>()), D(I<16>(), I<8>(), I<128>()))));
      },
      OP(right_inverse));
  add(
      "right_inverse_sm80_c",
      [] {
        return std::tuple(L(S(S(I<4>(), I<8>()), S(I<2>(), I<2>())),
                            D(D(I<32>(), I<1>()), D(I<16>(), I<8>()))));
      },
      OP(right_inverse));
  add(
      "left_inverse_sm90_c64", [=] { return std::tuple(sm90c()); },
      OP(left_inverse));
  add(
      "right_inverse_sm90_c64",
      [] {
        return std::tuple(
            L(S(S(I<4>(), I<8>(), I<4>()), S(I<2>(), I<2>(), I<8>())),
              D(D(I<128>(), I<1>(), I<16>()), D(I<64>(), I<8>(), I<512>()))));
      },
      OP(right_inverse));
  add(
      "left_inverse_ldsm_x4", [=] { return std::tuple(ldsm()); },
      OP(left_inverse));
  add(
      "right_inverse_ldsm_x4",
      [] {
        return std::tuple(
            L(S(I<32>(), S(I<2>(), I<4>())), D(I<2>(), D(I<1>(), I<64>()))));
      },
      OP(right_inverse));
  // Tiles composed with TV layouts: all runtime.
  add(
      "composition_sm80_c_tile",
      [] {
        return std::tuple(L(S(rt(16), rt(8)), D(rt(8), rt(1))),
                          L(S(S(rt(4), rt(8)), S(rt(2), rt(2))),
                            D(D(rt(32), rt(1)), D(rt(16), rt(8)))));
      },
      OP(composition));
  add(
      "composition_sm80_a_tile",
      [] {
        return std::tuple(L(S(rt(16), rt(16)), D(rt(16), rt(1))),
                          L(S(S(rt(4), rt(8)), S(rt(2), rt(2), rt(2))),
                            D(D(rt(32), rt(1)), D(rt(16), rt(8), rt(128)))));
      },
      OP(composition));
  add(
      "composition_sm80_b_tile",
      [] {
        return std::tuple(L(S(rt(8), rt(16)), D(rt(16), rt(1))),
                          L(S(S(rt(4), rt(8)), S(rt(2), rt(2))),
                            D(D(rt(16), rt(1)), D(rt(8), rt(64)))));
      },
      OP(composition));
  add(
      "composition_sm90_c_tile",
      [] {
        return std::tuple(
            L(S(rt(64), rt(64)), D(rt(64), rt(1))),
            L(S(S(rt(4), rt(8), rt(4)), S(rt(2), rt(2), rt(8))),
              D(D(rt(128), rt(1), rt(16)), D(rt(64), rt(8), rt(512)))));
      },
      OP(composition));
  add(
      "composition_ldsm_tile",
      [] {
        return std::tuple(
            L(S(rt(16), rt(16)), D(rt(16), rt(1))),
            L(S(rt(32), S(rt(2), rt(4))), D(rt(2), D(rt(1), rt(64)))));
      },
      OP(composition));
  add(
      "composition_by_32x16", [=] { return std::tuple(cm(), by3216()); },
      OP(composition));
  add(
      "composition_by_4x2",
      [=] { return std::tuple(L(S(rt(8), rt(8)), D(rt(8), rt(1))), by42()); },
      OP(composition));
  add(
      "composition_by_smem",
      [] {
        return std::tuple(L(S(rt(64), rt(32)), D(rt(32), rt(1))),
                          make_tile(L(16, 2), L(8, 4)));
      },
      OP(composition));
  // Complements: static strides at rank > 1.
  add(
      "complement_tv_c", [=] { return std::tuple(sm80c(), rt(256)); },
      OP(complement));
  add(
      "complement_tile_2x4",
      [] {
        return std::tuple(L(S(rt(2), rt(4)), D(I<1>(), I<16>())), rt(128));
      },
      OP(complement));
  add(
      "complement_tile_rm88",
      [] {
        return std::tuple(L(S(rt(8), rt(8)), D(I<64>(), I<1>())), rt(4096));
      },
      OP(complement));
  add(
      "complement_ldsm_x4", [=] { return std::tuple(ldsm(), rt(512)); },
      OP(complement));
  add(
      "coalesce_sm90_c64",
      [] {
        return std::tuple(
            L(S(S(rt(4), rt(8), rt(4)), S(rt(2), rt(2), rt(8))),
              D(D(rt(128), rt(1), rt(16)), D(rt(64), rt(8), rt(512)))));
      },
      OP(coalesce));
}

} // namespace

/// Every case of AlgebraCases.h has a CuTe twin here; false (naming the
/// cases) when one has none or when a case's results differ.
bool allChecked() {
  int missing = 0;
  for (const auto &x : lk::bench::kAlgebraCases)
    if (!gChecked.count(x.name)) {
      std::printf("%s: no CuTe operands in CuteSideBySide.cpp\n", x.name);
      ++missing;
    }
  std::printf("%zu cases checked, %d differ, %d without CuTe operands\n",
              gChecked.size(), gFailed, missing);
  return missing == 0 && gFailed == 0;
}

/// `--calls <cute|lk|floor|read>/<case> <n>` runs one side n times (no
/// benchmark): callgrind's count for 2n calls minus that for n, over n, is
/// the instruction count of one call. `--check` only checks every case
/// (exit status 1 when one differs or has no CuTe twin); timing runs after
/// the same check.
/// `--calls-each <n>` runs every loop n and 2n times under callgrind's
/// client requests: counts zeroed before each run and dumped after it as
/// "<side>/<case>/<calls>" (scripts/algebra-instructions.sh reads them).
int callsEach(int64_t n) {
#ifdef LK_HAVE_CALLGRIND
  for (const auto &[key, loop] : gLoops)
    for (int64_t calls : {n, 2 * n}) {
      std::string at = key + "/" + std::to_string(calls);
      CALLGRIND_ZERO_STATS;
      loop(calls);
      CALLGRIND_DUMP_STATS_AT(at.c_str());
    }
  return 0;
#else
  (void)n;
  std::printf("--calls-each needs valgrind/callgrind.h at build time\n");
  return 1;
#endif
}

int main(int argc, char **argv) {
  registerAll();
  if (argc == 3 && std::string(argv[1]) == "--calls-each")
    return callsEach(std::atoll(argv[2]));
  if (argc == 2 && std::string(argv[1]) == "--check")
    return allChecked() ? 0 : 1;
  if (argc == 4 && std::string(argv[1]) == "--calls") {
    const std::string key = argv[2];
    if (key.rfind("read/", 0) == 0)
      gReads.at(key.substr(5))(std::atoll(argv[3]));
    else
      gLoops.at(key)(std::atoll(argv[3]));
    return 0;
  }
  if (!allChecked())
    return 1;
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
