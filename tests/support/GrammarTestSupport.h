//===- GrammarTestSupport.h - Helpers for the grammar tests ------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Shared by TextTest, BasisDescriptorTest, AttributeTest and
/// ParserRobustnessTest: diagnostic matchers and fixed-seed generators of
/// random tuples, layouts, tilers, descriptors and attributes.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TESTS_SUPPORT_GRAMMARTESTSUPPORT_H
#define LAYOUTKIT_TESTS_SUPPORT_GRAMMARTESTSUPPORT_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/core/IntTuple.h"
#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/Attribute.h"
#include "layoutkit/cute/Layout.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace lk::cute::testing {

/// Checks that `r` failed with a message containing `substring` whose range
/// starts at 1-based `column`.
template <class T>
::testing::AssertionResult
failsAt(const Expected<T> &r, const std::string &substring, size_t column) {
  if (r)
    return ::testing::AssertionFailure() << "parsed successfully";
  const Diagnostic &d = r.error();
  if (d.message.find(substring) == std::string::npos)
    return ::testing::AssertionFailure()
           << "message '" << d.message << "' lacks '" << substring << "'";
  if (!d.range)
    return ::testing::AssertionFailure() << "no range in '" << d.message << "'";
  if (d.range->begin.column != column)
    return ::testing::AssertionFailure()
           << "column " << d.range->begin.column << " instead of " << column
           << " for '" << d.message << "'";
  return ::testing::AssertionSuccess();
}

/// True when the diagnostic's range lies inside `text`.
inline bool rangeInside(const Diagnostic &d, std::string_view text) {
  if (!d.range)
    return false;
  return d.range->begin.offset <= d.range->end.offset &&
         d.range->end.offset <= text.size();
}

/// The tuple of `c`: T({2, T({3, 4})}) is (2,(3,4)).
inline IntTuple T(std::initializer_list<IntTuple> c) {
  return IntTuple::tuple(c);
}

/// The basis leaf v@path: B(1, {0, 1}) is 1@0@1.
inline IntTuple B(int64_t v, std::initializer_list<int> path) {
  BasisPath p;
  for (int d : path)
    p = *p.pushed(d);
  return IntTuple::leaf(v, p);
}

/// Fixed-seed generator of grammar values.
class Generator {
public:
  explicit Generator(uint64_t seed) : rng_(seed) {}

  std::mt19937_64 &rng() { return rng_; }
  int64_t uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  bool chance(int percent) { return uniform(0, 99) < percent; }

  /// An integer: mostly small, sometimes at the edges of int64.
  int64_t integer(bool allowNegative) {
    int64_t v;
    switch (uniform(0, 9)) {
    case 0:
      v = std::numeric_limits<int64_t>::max() - uniform(0, 3);
      break;
    case 1:
      v = allowNegative ? std::numeric_limits<int64_t>::min() + uniform(0, 3)
                        : uniform(0, 1) << uniform(0, 62);
      break;
    case 2:
      v = int64_t(rng_() >> 1);
      break;
    default:
      v = uniform(0, 300);
    }
    if (allowNegative && v > 0 && chance(30))
      v = -v;
    return v;
  }

  BasisPath path(int maxDepth = BasisPath::kMaxDepth) {
    BasisPath p;
    int depth = int(uniform(1, maxDepth));
    for (int k = 0; k < depth; ++k)
      p = *p.pushed(chance(80) ? uniform(0, 3)
                               : uniform(0, BasisPath::kMaxIndex));
    return p;
  }

  /// A random tree shape with leaves from `leaf()`.
  template <class Leaf>
  IntTuple tree(int depth, Leaf leaf, bool allowEmpty = true) {
    if (depth == 0 || chance(35))
      return leaf();
    IntTuple t;
    int64_t rank = uniform(allowEmpty ? 0 : 1, 4);
    for (int64_t i = 0; i < rank; ++i)
      t.push_back(tree(depth - 1, leaf, allowEmpty));
    return t;
  }

  /// Any IntTuple, leaves with or without basis.
  IntTuple intTuple() {
    return tree(4, [&] {
      int64_t v = integer(true);
      return chance(30) ? IntTuple::leaf(v, path()) : IntTuple(v);
    });
  }

  /// A valid layout: positive shape whose size fits, congruent strides
  /// (negative and basis strides included).
  Layout layout(bool allowBasis = true, bool allowNegative = true) {
    IntTuple shape = tree(4, [&] {
      return IntTuple(chance(70) ? uniform(1, 16) : uniform(1, 1 << 20));
    });
    while (!shape.product())
      shape = IntTuple(uniform(1, 64));
    // Layout::make also needs every offset to fit in int64: draw strides
    // until they do (huge strides survive on extent-1 leaves), falling back
    // to small ones.
    for (int attempt = 0;; ++attempt) {
      std::vector<int64_t> values;
      std::vector<BasisPath> paths;
      for (size_t i = 0; i < shape.leafCount(); ++i) {
        values.push_back(attempt < 8 ? integer(allowNegative)
                                     : uniform(0, 300));
        paths.push_back(allowBasis && chance(25) ? path() : BasisPath());
      }
      size_t k = 0;
      IntTuple stride = withLeaves(shape, values, paths, k);
      if (auto l = Layout::make(shape, stride))
        return *l;
    }
  }

  Tiler tiler(int depth = 3) {
    int64_t kind = uniform(0, 9);
    if (kind == 0)
      return Tiler::keep();
    if (kind <= 5 || depth == 0)
      return Tiler::of(layout());
    std::vector<Tiler> modes;
    for (int64_t i = 0, n = uniform(1, 3); i < n; ++i)
      modes.push_back(tiler(depth - 1));
    return Tiler::tuple(std::move(modes));
  }

  /// A basis descriptor value: a tuple whose leaves all carry a basis.
  IntTuple descriptor() {
    IntTuple root;
    for (int64_t i = 0, n = uniform(0, 4); i < n; ++i)
      root.push_back(
          tree(3, [&] { return IntTuple::leaf(integer(true), path()); }));
    return root;
  }

  /// A value LayoutAttribute::make accepts.
  LayoutAttribute attribute(const std::vector<ElementType> &types) {
    IntTuple shape = tree(
        4,
        [&] {
          return IntTuple(chance(70) ? uniform(1, 16) : uniform(1, 1 << 20));
        },
        /*allowEmpty=*/false);
    while (!shape.product())
      shape = IntTuple(uniform(1, 64));
    LayoutAttribute a;
    for (int attempt = 0;; ++attempt) {
      std::vector<int64_t> values;
      std::vector<BasisPath> paths(shape.leafCount());
      for (size_t i = 0; i < shape.leafCount(); ++i)
        values.push_back(attempt < 8 ? integer(false) : uniform(0, 300));
      size_t k = 0;
      IntTuple stride = withLeaves(shape, values, paths, k);
      if (auto l = Layout::make(shape, stride)) {
        a.layout = *l;
        break;
      }
    }
    if (chance(50))
      a.swizzle = hardwareSwizzles()[size_t(uniform(0, 4))];
    if (chance(50) && !types.empty())
      a.elem = types[size_t(uniform(0, int64_t(types.size()) - 1))];
    // A swizzle acts on bytes: an element type it cannot move (6 bits, or
    // wider than its unit) is refused with it (AttributeTest checks that).
    if (a.swizzle && a.elem && !elementSwizzle(*a.swizzle, a.elem->bits))
      a.elem.reset();
    return a;
  }

private:
  static IntTuple withLeaves(const IntTuple &t, const std::vector<int64_t> &v,
                             const std::vector<BasisPath> &p, size_t &k) {
    if (t.isLeaf()) {
      IntTuple l = IntTuple::leaf(v[k], p[k]);
      ++k;
      return l;
    }
    IntTuple out;
    for (size_t i = 0; i < t.rank(); ++i)
      out.push_back(withLeaves(t[i], v, p, k));
    return out;
  }

  std::mt19937_64 rng_;
};

} // namespace lk::cute::testing

#endif // LAYOUTKIT_TESTS_SUPPORT_GRAMMARTESTSUPPORT_H
