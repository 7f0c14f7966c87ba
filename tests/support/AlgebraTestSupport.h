//===- AlgebraTestSupport.h - Helpers for algebra tests ---------*- C++ -*-===//
#ifndef LAYOUTKIT_TESTS_SUPPORT_ALGEBRATESTSUPPORT_H
#define LAYOUTKIT_TESTS_SUPPORT_ALGEBRATESTSUPPORT_H

#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/Text.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

namespace lk::cute::testing {

/// Parses a layout or fails the test.
inline Layout L(std::string_view text) {
  auto l = parseLayout(text);
  EXPECT_TRUE(l) << (l ? "" : l.error().render());
  return l ? *l : Layout();
}

inline Tiler T(std::string_view text) {
  auto t = parseTiler(text);
  EXPECT_TRUE(t) << (t ? "" : t.error().render());
  return t ? *t : Tiler();
}

/// The layout's value at every 1-D index in [0, size).
inline std::vector<int64_t> values(const Layout &l) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < l.size(); ++i)
    v.push_back(evaluate(l, i));
  return v;
}

/// Random layouts of depth 1..3 with 1..maxLeaves leaves.
class LayoutGen {
public:
  explicit LayoutGen(uint64_t seed) : rng_(seed) {}

  int64_t pick(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }

  /// Extents are drawn from [1, maxExtent], or from powers of two up to
  /// maxExtent when `pow2` is set.
  bool pow2 = false;

  int64_t extent(int64_t maxExtent) {
    if (!pow2)
      return pick(1, maxExtent);
    int64_t e = 1;
    while (e * 2 <= maxExtent && pick(0, 1))
      e *= 2;
    return e;
  }

  /// A random shape tree with `leaves` leaves.
  IntTuple shapeTree(int leaves, int depth, int64_t maxExtent) {
    if (leaves == 1 && (depth == 0 || pick(0, 2) == 0))
      return IntTuple(extent(maxExtent));
    IntTuple t;
    while (leaves > 0) {
      int take = depth > 0 ? int(pick(1, leaves)) : 1;
      t.push_back(shapeTree(take, depth > 0 ? depth - 1 : 0, maxExtent));
      leaves -= take;
    }
    return t;
  }

  /// Arbitrary strides in [0, maxStride].
  Layout any(int maxLeaves = 6, int64_t maxExtent = 6, int64_t maxStride = 48) {
    IntTuple s = shapeTree(int(pick(1, maxLeaves)), int(pick(0, 2)), maxExtent);
    std::vector<int64_t> d;
    for (size_t i = 0; i < s.leafCount(); ++i)
      d.push_back(pick(0, 3) == 0 ? 0 : pick(1, maxStride));
    return Layout::unchecked(s, s.withLeaves(d.data()));
  }

  /// An injective layout: the modes of a compact layout of a random shape,
  /// permuted, with optional gaps (every stride scaled up by a factor that
  /// keeps the modes from overlapping).
  Layout injective(int maxLeaves = 5, int64_t maxExtent = 6, bool gaps = true) {
    IntTuple s = shapeTree(int(pick(1, maxLeaves)), int(pick(0, 2)), maxExtent);
    auto leaves = s.leaves();
    std::vector<size_t> perm(leaves.size());
    for (size_t i = 0; i < perm.size(); ++i)
      perm[i] = i;
    std::shuffle(perm.begin(), perm.end(), rng_);
    std::vector<int64_t> d(leaves.size());
    int64_t running = 1;
    for (size_t k : perm) {
      if (gaps)
        running *= pick(1, 2);
      d[k] = running;
      running *= leaves[k].value;
    }
    return Layout::unchecked(s, s.withLeaves(d.data()));
  }

  /// `l` with some strides negated.
  Layout negate(const Layout &l) {
    std::vector<int64_t> d;
    for (const IntTuple::Node &n : l.stride().leaves())
      d.push_back(pick(0, 1) ? -n.value : n.value);
    return Layout::unchecked(l.shape(), l.shape().withLeaves(d.data()));
  }

  std::mt19937_64 &rng() { return rng_; }

private:
  std::mt19937_64 rng_;
};

} // namespace lk::cute::testing

#endif
