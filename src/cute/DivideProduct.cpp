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
#include <utility>
#include <vector>

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
  LK_TRY(FlatLayout rest,
         complementModes(tile, cotarget.data(), cotarget.size()));
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

Expected<Layout> general::zipped_divide(const Layout &a, const Tiler &t) {
  LK_TRY(Layout d, cute::logical_divide(a, t));
  return regroupByTiler("zipped_divide", d, t, Regroup::Zipped);
}

Expected<Layout> general::tiled_divide(const Layout &a, const Tiler &t) {
  LK_TRY(Layout d, cute::logical_divide(a, t));
  return regroupByTiler("zipped_divide", d, t, Regroup::Tiled);
}

Expected<Layout> general::flat_divide(const Layout &a, const Tiler &t) {
  LK_TRY(Layout d, cute::logical_divide(a, t));
  return regroupByTiler("zipped_divide", d, t, Regroup::Flat);
}

namespace {

/// Largest size(A) * size(rest) for which the copies of A are compared
/// element by element when the mode-wise test below cannot vouch for them.
constexpr int64_t kProductCheckLimit = int64_t(1) << 22;

/// The copies of A placed at the distinct offsets of rest do not overlap:
/// A(i) + rest(j) = A(i') + rest(j') implies rest(j) = rest(j').
///
/// Within the complement's domain (cosize(B) <= size(comp)) that holds by
/// construction: (A, comp) is injective. Past it, rest continues along the
/// last mode s:d of the coalesced complement `comp` (as composition allows,
/// the modes the composition used), and the copies stay
/// apart when everything below that mode ends before d:
/// cosize(A) + sum over comp's other modes of (s-1)*d <= d. Otherwise the
/// images are compared (bounded by kProductCheckLimit).
/// Example: A = (3,4):(1,5), comp = 2:20: cosize 18 <= 20, so 3:1 continues
/// to 3:20 and ((3,4),3):((1,5),20) is exact; A = (3,5):(3,17), comp = 3:1:
/// 4:1 puts a copy at 3, where A(1,0) = 3 already is.
Status checkCopiesDisjoint(const Layout &a, int64_t cosA, const Modes &comp,
                           int64_t compSize, int64_t cosB, const Layout &tile,
                           const Layout &rest) {
  if (cosB <= compSize || comp.empty())
    return Ok{};
  Arith ar;
  int64_t below = cosA;
  for (size_t k = 0; k + 1 < comp.size(); ++k)
    below = ar.add(below, ar.mul(comp[k].shape - 1, absValue(comp[k].stride)));
  if (ar.ok() && below <= absValue(comp.back().stride))
    return Ok{};
  int64_t na = a.size(), nr = rest.size();
  int64_t work;
  if (mulOverflows(na, nr, work) || work > kProductCheckLimit)
    return opError("logical_product",
                   "cannot verify that the copies of " + a.str() + " at " +
                       rest.str() + " do not overlap: " + std::to_string(na) +
                       " x " + std::to_string(nr) +
                       " elements exceed the bound of " +
                       std::to_string(kProductCheckLimit));
  // Two points of B with different images must keep different offsets:
  // continuing past a complement whose last mode has stride 0 would stack
  // the copies (rest(j) = rest(j') although B(j) != B(j')).
  std::vector<std::pair<int64_t, int64_t>> placed(static_cast<size_t>(nr));
  for (int64_t j = 0; j < nr; ++j)
    placed[size_t(j)] = {evaluate(rest, j), evaluate(tile, j)};
  std::sort(placed.begin(), placed.end());
  for (size_t k = 1; k < placed.size(); ++k)
    if (placed[k].first == placed[k - 1].first &&
        placed[k].second != placed[k - 1].second)
      return opError("logical_product",
                     "the copies of " + a.str() + " for " + tile.str() +
                         " overlap: B(" + std::to_string(placed[k - 1].second) +
                         ") and B(" + std::to_string(placed[k].second) +
                         ") both place a copy at offset " +
                         std::to_string(placed[k].first));
  std::vector<int64_t> offs;
  offs.reserve(placed.size());
  for (const auto &pb : placed)
    offs.push_back(pb.first);
  offs.erase(std::unique(offs.begin(), offs.end()), offs.end());
  std::vector<std::pair<int64_t, int64_t>> cells; // (offset, copy)
  cells.reserve(size_t(na) * offs.size());
  for (int64_t i = 0; i < na; ++i) {
    int64_t ai = evaluate(a, i);
    for (int64_t o : offs)
      cells.push_back({ai + o, o});
  }
  std::sort(cells.begin(), cells.end());
  for (size_t k = 1; k < cells.size(); ++k)
    if (cells[k].first == cells[k - 1].first &&
        cells[k].second != cells[k - 1].second)
      return opError("logical_product",
                     "the copies of " + a.str() + " at " + rest.str() +
                         " overlap: offset " + std::to_string(cells[k].first) +
                         " is in the copies at " +
                         std::to_string(cells[k - 1].second) + " and " +
                         std::to_string(cells[k].second) +
                         " (rest = complement(A, size(A)*cosize(B)) o B "
                         "continues past the complement)");
  return Ok{};
}

/// logical_product(A, B) for a layout B, appended as one (A, rest) mode:
/// rest = complement(A, size(A)*cosize(B)) o B, with B's image allowed past
/// the complement (the composition continues along its last mode) as long
/// as the copies of A do not overlap.
Status productInto(const Layout &a, const Tiler &t, IntTuple::Builder &rs,
                   IntTuple::Builder &rd) {
  const Layout &tile = t.layout;
  LK_CHECK(requireIntegerStrides("logical_product", a));
  LK_CHECK(requireIntegerStrides("logical_product", tile));
  LK_TRY(int64_t cosz, tile.cosize());
  LK_TRY(int64_t cosA, a.cosize());
  LK_TRY(int64_t target, checkedMul(a.size(), cosz, "logical_product"));
  LK_TRY(FlatLayout comp, complementModes(a, &target, 1));
  int64_t compSize = 1;
  for (const Mode &m : comp.modes)
    compSize *= m.shape; // at most the cotarget
  // rest = complement o B.
  Composer c;
  c.lhs = coalescedModes(comp.modes, /*keepLastExtent=*/true, c.lhsIntegral);
  c.reach.resize(c.lhs.size(), 0);
  IntTuple::Builder bs, bd;
  LK_CHECK(c.compose(tile.shape().nodes(), tile.stride().nodes(), bs, bd));
  LK_CHECK(c.checkDistributive([&] { return tile.str(); }));
  LK_TRY(Layout rest, Layout::fromBuilders(bs, bd));
  LK_CHECK(checkCopiesDisjoint(a, cosA, c.lhs, compSize, cosz, tile, rest));
  rs.open();
  rd.open();
  rs.subtree(a.shape());
  rd.subtree(a.stride());
  rs.subtree(rest.shape());
  rd.subtree(rest.stride());
  rs.close();
  rd.close();
  return Ok{};
}

} // namespace

Expected<Layout> general::logical_product(const Layout &a, const Tiler &t) {
  return byModeResult("logical_product", a, t, /*keepRest=*/true, productInto);
}

Expected<Layout> general::zipped_product(const Layout &a, const Tiler &t) {
  LK_TRY(Layout p, cute::logical_product(a, t));
  return regroupByTiler("zipped_product", p, t, Regroup::Zipped);
}

Expected<Layout> general::tiled_product(const Layout &a, const Tiler &t) {
  LK_TRY(Layout p, cute::logical_product(a, t));
  return regroupByTiler("zipped_product", p, t, Regroup::Tiled);
}

Expected<Layout> general::flat_product(const Layout &a, const Tiler &t) {
  LK_TRY(Layout p, cute::logical_product(a, t));
  return regroupByTiler("zipped_product", p, t, Regroup::Flat);
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
