//===- TileTestSupport.h - Helpers for the tile tests ------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A reference evaluator of L(x) written straight from the four steps of the
/// forward map, docs/design.md §2.2 (independent of TileLayout's fast path), a
/// fixed-seed generator of random tile layouts, and the diagnostic matcher of
/// the grammar tests.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TESTS_SUPPORT_TILETESTSUPPORT_H
#define LAYOUTKIT_TESTS_SUPPORT_TILETESTSUPPORT_H

#include "layoutkit/tile/TileLayout.h"
#include "layoutkit/tile/TileText.h"
#include "support/GrammarTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace lk::tile::testing {

/// A physical coordinate as axis name -> value (every axis the layout names).
using NamedCoord = std::map<std::string, int64_t>;

/// L(flat) by the formulas of the forward map (docs/design.md §2.2):
/// c_k = floor(flat / prod_{l>k} e_l) mod e_k,
/// D[a] = sum c_k s_k, + O[a], + every r in prod [0, e_t).
inline std::vector<NamedCoord> referenceEval(const TileLayout &l,
                                             int64_t flat) {
  NamedCoord base;
  for (Axis a : l.axes())
    base[std::string(a.name())] = l.offsetOn(a);
  const auto &d = l.shard();
  for (size_t k = 0; k < d.size(); ++k) {
    int64_t inner = 1;
    for (size_t j = k + 1; j < d.size(); ++j)
      inner *= d[j].extent;
    int64_t c = (flat / inner) % d[k].extent;
    base[std::string(d[k].axis.name())] += c * d[k].stride;
  }
  std::vector<NamedCoord> out{base};
  for (const Iter &r : l.replica()) {
    std::vector<NamedCoord> next;
    for (const NamedCoord &c : out)
      for (int64_t t = 0; t < r.extent; ++t) {
        NamedCoord n = c;
        n[std::string(r.axis.name())] += t * r.stride;
        next.push_back(n);
      }
    out = next;
  }
  return out;
}

/// The CoordSet of TileLayout as named coordinates, in order.
inline std::vector<NamedCoord> named(const TileLayout &l, const CoordSet &s) {
  std::vector<NamedCoord> out;
  for (size_t i = 0; i < s.size(); ++i) {
    NamedCoord c;
    for (size_t k = 0; k < l.axes().size(); ++k)
      c[std::string(l.axes()[k].name())] = s[i][k];
    out.push_back(c);
  }
  return out;
}

/// The parser-diagnostic matcher shared with the cute grammar tests.
using lk::cute::testing::failsAt;

/// Fixed-seed generator of random tile layouts over the built-in axes.
class TileGenerator {
public:
  explicit TileGenerator(uint64_t seed) : rng_(seed) {}

  std::mt19937_64 &rng() { return rng_; }
  int64_t uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  bool chance(int percent) { return uniform(0, 99) < percent; }

  Axis axis() {
    return chance(30) ? Axis::m()
                      : Axis::fromId(uint16_t(uniform(0, Axis::kBuiltins - 1)));
  }
  /// Extents include non-powers of two (3, 5, 6, 7, 12, 28, 112).
  int64_t extent() {
    static constexpr int64_t kExtents[] = {1, 2,  3,  4,  5,  6,  7,
                                           8, 12, 16, 28, 32, 112};
    return kExtents[uniform(0, int64_t(std::size(kExtents)) - 1)];
  }
  int64_t stride() {
    static constexpr int64_t kStrides[] = {0, 1, 2, 3, 4, 8, 16, 32, 112};
    return kStrides[uniform(0, int64_t(std::size(kStrides)) - 1)];
  }

  /// A valid layout with at most `maxSize` logical elements.
  TileLayout layout(int64_t maxSize = 4096, int maxShard = 5,
                    int maxReplica = 2, int maxOffsets = 2) {
    while (true) {
      IterList shard, replica;
      OffsetList offset;
      int64_t size = 1;
      for (int64_t k = 0, n = uniform(1, maxShard); k < n; ++k) {
        Iter it{extent(), stride(), axis()};
        if (size * it.extent > maxSize)
          continue;
        size *= it.extent;
        shard.push_back(it);
      }
      if (shard.empty())
        continue;
      for (int64_t k = 0, n = uniform(0, maxReplica); k < n; ++k)
        replica.push_back(Iter{uniform(1, 4), stride(), axis()});
      for (int64_t k = 0, n = uniform(0, maxOffsets); k < n; ++k) {
        Axis a = axis();
        bool dup = false;
        for (const AxisValue &o : offset)
          dup |= o.axis == a;
        if (!dup)
          offset.push_back(AxisValue{a, uniform(0, 9)});
      }
      if (auto l = TileLayout::make(shard, replica, offset))
        return *l;
    }
  }

  /// A random shape of size n (a random factorization, row-major order).
  std::vector<int64_t> shapeOfSize(int64_t n) {
    std::vector<int64_t> shape;
    for (int64_t d = 2; d <= n && shape.size() < 3; ++d)
      while (n % d == 0 && chance(50) && shape.size() < 3) {
        shape.push_back(d);
        n /= d;
      }
    shape.push_back(n);
    std::shuffle(shape.begin(), shape.end(), rng_);
    return shape;
  }

private:
  std::mt19937_64 rng_;
};

} // namespace lk::tile::testing

#endif // LAYOUTKIT_TESTS_SUPPORT_TILETESTSUPPORT_H
