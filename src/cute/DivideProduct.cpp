//===- DivideProduct.cpp - Divides and products ---------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The logical, zipped, tiled and flat divides and products, and the
// blocked and raked products.
//
// Each operation follows the construction CuTe uses, so results agree with
// CuTe to the stride of size-1 modes (the oracle compares structurally).
// Where CuTe's own checks are weaker than the operation's postcondition, an
// extra check turns the would-be wrong layout into a diagnostic.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/AlgebraGeneral.h"

#include "AlgebraSupport.h"

#include "layoutkit/core/Checked.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace lk::cute {

using namespace detail;

//===----------------------------------------------------------------------===//
// Divides and products
//===----------------------------------------------------------------------===//

namespace {

/// logical_divide(A, T) for a layout T, appended as one (tile, rest) mode.
Status divideInto(const Layout &a, const Tiler &t, IntTuple::Builder &rs,
                  IntTuple::Builder &rd) {
  const Layout &tile = t.layout;
  // rest = complement(T, shape(coalesce(A))), then A o (T, rest), composed
  // mode by mode into one result without building (T, rest).
  Modes flat = flatModes(a);
  Composer c = makeComposer(a, flat);
  // coalesce(A) equals the composer's coalesce_x(A) unless A ends in a
  // size-1 mode, which coalesce_x keeps to remember its stride.
  bool integral;
  Modes plain;
  bool endsInOne = !flat.empty() && flat.back().shape == 1;
  if (endsInOne)
    plain = coalescedModes(flat, false, integral);
  const Modes &ca = endsInOne ? plain : c.lhs;
  SmallVector<int64_t, 16> cotarget;
  for (const Mode &m : ca)
    cotarget.push_back(m.shape);
  LK_TRY(FlatLayout rest, complementModes(tile, cotarget.data(), cotarget.size()));
  rs.open();
  rd.open();
  LK_CHECK(c.compose(tile.shape().nodes(), tile.stride().nodes(), rs, rd));
  if (!rest.integral) {
    rs.open();
    rd.open();
  }
  for (const Mode &m : rest.modes)
    LK_CHECK(c.composeLeaf(m.shape, m.stride, rs, rd));
  if (!rest.integral) {
    rs.close();
    rd.close();
  }
  rs.close();
  rd.close();
  LK_CHECK(c.checkDistributive([&] {
    return "(" + tile.str() + ", " + modesText(rest.modes, rest.integral) + ")";
  }));
  return Ok{};
}

} // namespace

Expected<Layout> general::logical_divide(const Layout &a, const Tiler &t) {
  return byModeResult("logical_divide", a, t, /*keepRest=*/true, divideInto);
}

Expected<Layout> zipped_divide(const Layout &a, const Tiler &t) {
  LK_TRY(Layout d, logical_divide(a, t));
  return unzipByTiler("zipped_divide", d, t);
}

Expected<Layout> tiled_divide(const Layout &a, const Tiler &t) {
  LK_TRY(Layout z, zipped_divide(a, t));
  return tiledRegroup(z);
}

Expected<Layout> flat_divide(const Layout &a, const Tiler &t) {
  LK_TRY(Layout z, zipped_divide(a, t));
  return flatRegroup(z);
}

namespace {

/// logical_product(A, B) for a layout B, appended as one (A, rest) mode.
Status productInto(const Layout &a, const Tiler &t, IntTuple::Builder &rs,
                   IntTuple::Builder &rd) {
  const Layout &tile = t.layout;
  LK_CHECK(requireIntegerStrides("logical_product", a));
  LK_CHECK(requireIntegerStrides("logical_product", tile));
  LK_TRY(int64_t cosz, tile.cosize());
  LK_TRY(int64_t target, checkedMul(a.size(), cosz, "logical_product"));
  LK_TRY(FlatLayout comp, complementModes(a, &target, 1));
  int64_t compSize = 1;
  for (const Mode &m : comp.modes)
    compSize *= m.shape; // at most the cotarget
  // B's image must stay inside the complement's domain; past it, the
  // composition continues along the complement's last mode into A's image
  // and the copies of A overlap. (CuTe does not check; an inexact complement
  // of a gapped A is smaller than cosize(B).)
  if (cosz > compSize)
    return opError("logical_product",
                   "the complement of " + a.str() + " in " +
                       std::to_string(target) + " is " +
                       modesText(comp.modes, comp.integral) + ", of size " +
                       std::to_string(compSize) + ", too small for " +
                       tile.str() + " (cosize " + std::to_string(cosz) +
                       "): the copies of A would overlap");
  // rest = complement o B, composed straight into the result.
  Composer c;
  c.lhs = coalescedModes(comp.modes, /*keepLastExtent=*/true, c.lhsIntegral);
  c.reach.resize(c.lhs.size(), 0);
  rs.open();
  rd.open();
  rs.subtree(a.shape());
  rd.subtree(a.stride());
  LK_CHECK(c.compose(tile.shape().nodes(), tile.stride().nodes(), rs, rd));
  LK_CHECK(c.checkDistributive([&] { return tile.str(); }));
  rs.close();
  rd.close();
  return Ok{};
}

} // namespace

Expected<Layout> general::logical_product(const Layout &a, const Tiler &t) {
  return byModeResult("logical_product", a, t, /*keepRest=*/true, productInto);
}

Expected<Layout> zipped_product(const Layout &a, const Tiler &t) {
  LK_TRY(Layout p, logical_product(a, t));
  return unzipByTiler("zipped_product", p, t);
}

Expected<Layout> tiled_product(const Layout &a, const Tiler &t) {
  LK_TRY(Layout z, zipped_product(a, t));
  return tiledRegroup(z);
}

Expected<Layout> flat_product(const Layout &a, const Tiler &t) {
  LK_TRY(Layout z, zipped_product(a, t));
  return flatRegroup(z);
}

namespace {

Expected<Layout> rankedProduct(const Layout &a, const Layout &b, bool raked) {
  size_t r = std::max(a.rank(), b.rank());
  LK_TRY(Layout pa, padToRank(a, r));
  LK_TRY(Layout pb, padToRank(b, r));
  LK_TRY(Layout p, general::logical_product(pa, Tiler::of(pb)));
  // CuTe zips (first, second) = (A', X) for blocked and (X, A') for raked:
  // an integer first layout gives the single mode (first, second); a tuple
  // pairs mode i of both, which needs the second to be a tuple as well.
  Layout first = raked ? p.mode(1) : p.mode(0);
  Layout second = raked ? p.mode(0) : p.mode(1);
  if (first.shape().isLeaf()) {
    LK_TRY(Layout pair, makeLayout({first, second}));
    return makeLayout({pair});
  }
  if (second.shape().isLeaf() || second.rank() != first.rank())
    return opError(raked ? "raked_product" : "blocked_product",
                   "cannot pair the modes of " + first.str() + " with " +
                       second.str() + ": ranks differ");
  ModeBuilder modes;
  for (size_t i = 0; i < first.rank(); ++i) {
    LK_TRY(Layout pair, makeLayout({first.mode(i), second.mode(i)}));
    modes.append(pair);
  }
  return modes.build();
}

} // namespace

Expected<Layout> general::blocked_product(const Layout &a, const Layout &b) {
  return rankedProduct(a, b, /*raked=*/false);
}

Expected<Layout> general::raked_product(const Layout &a, const Layout &b) {
  return rankedProduct(a, b, /*raked=*/true);
}

} // namespace lk::cute
