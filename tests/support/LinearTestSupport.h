//===- LinearTestSupport.h - Helpers for the linear-layout tests -*- C++
//-*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Fixed-seed generators of random linear layouts (arbitrary, invertible,
/// surjective, distributed) and a brute-force evaluator used as the
/// reference in property tests.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TESTS_SUPPORT_LINEARTESTSUPPORT_H
#define LAYOUTKIT_TESTS_SUPPORT_LINEARTESTSUPPORT_H

#include "layoutkit/linear/LinearLayout.h"
#include "layoutkit/linear/Text.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace lk::linear::testing {

/// Unwraps an Expected in a test, failing loudly with its diagnostic.
template <class T> T ok(Expected<T> e) {
  if (!e) {
    ADD_FAILURE() << "unexpected error: " << e.error().message;
    std::abort();
  }
  return std::move(*e);
}

/// A linear layout read from its text form, failing the test on an error.
inline LinearLayout P(std::string_view text) {
  return ok(parseLinearLayout(text));
}

class Random {
public:
  explicit Random(uint64_t seed) : rng_(seed) {}
  int64_t uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  uint64_t bits(int n) {
    return n == 0 ? 0
                  : rng_() & (n >= 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1);
  }
  bool chance(int percent) { return uniform(0, 99) < percent; }

  /// Splits `total` bits into `n` dims (some possibly of size 1).
  std::vector<int> split(int total, int n) {
    std::vector<int> r(size_t(n), 0);
    for (int i = 0; i < total; ++i)
      ++r[size_t(uniform(0, n - 1))];
    return r;
  }

  /// Dims named from `names` with the given log2 sizes.
  static std::vector<DimSize> dimsOf(const std::vector<DimId> &names,
                                     const std::vector<int> &log2s) {
    std::vector<DimSize> r;
    for (size_t i = 0; i < log2s.size(); ++i)
      r.push_back({names[i], log2s[i]});
    return r;
  }

  /// Any layout with inBits input bits over nIn dims and outBits output bits
  /// over nOut dims.
  LinearLayout layout(int inBits, int nIn, int outBits, int nOut,
                      int zeroPercent = 10) {
    std::vector<uint64_t> cols;
    for (int j = 0; j < inBits; ++j)
      cols.push_back(chance(zeroPercent) ? 0 : bits(outBits));
    return ok(LinearLayout::fromColumns(
        dimsOf(inNames(), split(inBits, nIn)),
        dimsOf(outNames(), split(outBits, nOut)), cols));
  }

  /// An invertible layout of n bits: a random permutation of unit columns,
  /// mixed by random XORs of earlier columns into later ones.
  LinearLayout invertible(int n, int nIn, int nOut) {
    std::vector<uint64_t> cols;
    for (int j = 0; j < n; ++j)
      cols.push_back(uint64_t(1) << j);
    std::shuffle(cols.begin(), cols.end(), rng_);
    for (int k = 0; k < 2 * n; ++k) {
      int a = int(uniform(0, n - 1)), b = int(uniform(0, n - 1));
      if (a != b)
        cols[size_t(a)] ^= cols[size_t(b)];
    }
    return ok(LinearLayout::fromColumns(dimsOf(inNames(), split(n, nIn)),
                                        dimsOf(outNames(), split(n, nOut)),
                                        cols));
  }

  /// A surjective layout: an invertible core plus extra dependent columns
  /// (broadcast or combinations) inserted at random positions.
  LinearLayout surjective(int outBits, int extra, int nIn, int nOut) {
    LinearLayout core = invertible(outBits, 1, nOut);
    std::vector<uint64_t> cols(core.columns().begin(), core.columns().end());
    for (int e = 0; e < extra; ++e) {
      uint64_t c = chance(40) ? 0 : bits(outBits);
      cols.insert(cols.begin() + uniform(0, int64_t(cols.size())), c);
    }
    std::vector<DimSize> outs;
    for (int k = 0; k < core.numOutDims(); ++k)
      outs.push_back(core.outDim(k));
    return ok(LinearLayout::fromColumns(
        dimsOf(inNames(), split(outBits + extra, nIn)), outs, cols));
  }

  std::mt19937_64 &rng() { return rng_; }

  static std::vector<DimId> inNames() {
    return {dims::kRegister, dims::kLane, dims::kWarp, dims::kBlock};
  }
  static std::vector<DimId> outNames() {
    return {dims::dim(0), dims::dim(1), dims::dim(2), dims::dim(3)};
  }

private:
  std::mt19937_64 rng_;
};

/// L(x) by the definition: XOR of bases of set bits, through the public
/// per-dim accessors (independent of the packed fast path).
inline std::vector<int64_t> referenceApply(const LinearLayout &l,
                                           const std::vector<int64_t> &in) {
  std::vector<int64_t> out(size_t(l.numOutDims()), 0);
  for (int i = 0; i < l.numInDims(); ++i)
    for (int b = 0; b < l.inDim(i).log2; ++b)
      if (in[size_t(i)] >> b & 1)
        for (int k = 0; k < l.numOutDims(); ++k)
          out[size_t(k)] ^= l.basis(l.inDim(i).id, b, l.outDim(k).id);
  return out;
}

} // namespace lk::linear::testing

#endif
