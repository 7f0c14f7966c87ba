//===- Composition.cpp - Composition and complement -----------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// composition (layout and tiler forms) and complement.
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
// Composition, complement, inverses
//===----------------------------------------------------------------------===//

namespace {

/// A o B appended to `out` (B's structure).
Status composeInto(Ref a, Ref b, Tree &out) {
  if (b.hasBasis())
    return opError("composition", "B = " + b.str() +
                                      " has basis strides; B must have "
                                      "integer strides");
  Composer c = makeComposer(a, flatModes(a));
  LK_CHECK(c.compose(b, out));
  return c.checkDistributive([&] { return b.str(); });
}

/// composition with a layout tiler: a bare integer n composes as n:1 (also
/// for n == 1), as CuTe does.
Status composeTilerInto(Ref a, const Tiler &t, Tree &out) {
  if (t.integer && t.layout.shape().isLeaf()) {
    const Node one{1, IntTuple::kLeaf, 1, 0};
    return composeInto(a, Ref(t.layout.shape().nodes(), &one), out);
  }
  return composeInto(a, t.layout, out);
}

} // namespace

Expected<Layout> general::composition(const Layout &a, const Layout &b) {
  Tree out;
  LK_CHECK(composeInto(a, b, out));
  return out.build();
}

Expected<Layout> general::composition(const Layout &a, const Tiler &t) {
  // By-mode: modes of A past the tiler are dropped (CuTe C++ behaviour).
  return byModeResult("composition", a, t, /*keepRest=*/false,
                      composeTilerInto);
}

Status detail::complementModes(Ref l, const int64_t *cotarget,
                               size_t cotargetLeaves, FlatLayout &out) {
  LK_CHECK(requireIntegerStrides("complement", l));
  bool filteredIntegral;
  Modes modes = filteredModes(l, filteredIntegral);
  for (const Mode &m : modes)
    if (m.stride < 0)
      return opError("complement", "layout " + l.str() +
                                       " has a negative stride; complement "
                                       "needs non-negative strides");
  if (filteredIntegral && modes[0].stride == 0) {
    Arith ar;
    int64_t total = 1;
    for (size_t k = 0; k < cotargetLeaves; ++k)
      total = ar.mul(total, cotarget[k]);
    if (!ar.ok())
      return Arith::diagnostic("complement");
    // compact(total): total:1, or 1:0 for a cotarget of 1.
    out.modes.clear();
    out.modes.push_back(Mode{total, total == 1 ? 0 : 1, 0});
    out.integral = true;
    return Ok{};
  }
  auto nonInjective = [&](const Mode &m, int64_t prev) {
    return opError("complement",
                   "the modes of " + l.str() + " do not nest: mode " +
                       modeStr(m) + " starts inside the extent " +
                       std::to_string(prev) +
                       " covered by its smaller-stride modes (CuTe: "
                       "non-injective layout detected)");
  };
  // CuTe takes the modes one at a time, the first of the smallest stride
  // each time: ascending strides, ties in their order (a stable sort).
  for (size_t i = 1; i < modes.size(); ++i)
    for (size_t j = i; j > 0 && modes[j].stride < modes[j - 1].stride; --j)
      std::swap(modes[j], modes[j - 1]);
  // Each mode m adds the mode (m.stride / covered):covered, where covered
  // (the stride the result has reached) becomes m.shape * m.stride; the
  // last, rest = size(ceil_div(cotarget, covered)):covered, covers the
  // cotarget. CuTe coalesces these modes, which only drops those of size
  // 1: each mode ends at (m.stride / covered) * covered <= m.stride, before
  // the next stride m.stride * m.shape (m.shape >= 2), so none merge. One
  // mode left is an integer layout; none is 1:0.
  Arith ar;
  Mode *result = out.modes.resizeForOverwrite(modes.size() + 1);
  size_t n = 0; // result modes
  int64_t covered = 1;
  bool past = false; // the last mode's extent m.stride * m.shape > INT64_MAX
  for (const Mode &m : modes) {
    if (past)
      return Arith::diagnostic("complement");
    int64_t newShape = m.stride / covered;
    if (newShape == 0)
      return nonInjective(m, covered);
    if (newShape != 1)
      result[n++] = Mode{newShape, covered, 0};
    past = mulOverflows(m.stride, m.shape, covered);
  }
  // Past int64 the extent exceeds a one-leaf cotarget: rest = 1.
  if (past && cotargetLeaves != 1)
    return opError("complement",
                   "the extent of " + l.str() +
                       " (its largest stride times that mode's size) does "
                       "not fit in int64, so the rest past it cannot be "
                       "folded through a cotarget of several modes");
  const int64_t newStride = covered;
  // CuTe folds the divisor through the cotarget's modes; nested ceilings
  // compose, so the fold runs over the leaves.
  int64_t restShape = 1, divisor = newStride;
  for (size_t k = 0; k < cotargetLeaves && !past; ++k) {
    restShape = ar.mul(restShape, ceilDiv(cotarget[k], divisor));
    divisor = ceilDiv(divisor, cotarget[k]);
  }
  if (!ar.ok())
    return Arith::diagnostic("complement");
  if (restShape != 1)
    result[n++] = Mode{restShape, newStride, 0};
  if (n == 0)
    result[n++] = Mode{1, 0, 0};
  out.modes.truncate(n);
  out.integral = n == 1;
  return Ok{};
}

namespace {

Expected<Layout> complementImpl(const Layout &l, const int64_t *cotarget,
                                size_t cotargetLeaves) {
  FlatLayout c;
  LK_CHECK(complementModes(l, cotarget, cotargetLeaves, c));
  return fromModes(c.modes, c.integral);
}

} // namespace

Expected<Layout> general::complement(const Layout &l,
                                     const IntTuple &cotarget) {
  SmallVector<int64_t, 16> leaves;
  for (const IntTuple::Node &n : cotarget.leaves()) {
    if (n.value < 1 || n.basis != 0)
      return opError("complement", "cotarget " + cotarget.str() +
                                       " must have positive integer leaves");
    leaves.push_back(n.value);
  }
  return complementImpl(l, leaves.data(), leaves.size());
}

Expected<Layout> complement(const Layout &l) {
  LK_CHECK(requireIntegerStrides("complement", l));
  // cosize(filter(l)) = 1 + sum (s-1)*|d| over the filtered modes.
  bool integral;
  Arith ar;
  int64_t cosz = 1;
  for (const Mode &m : filteredModes(l, integral))
    cosz = ar.add(cosz, ar.mul(m.shape - 1, absValue(m.stride)));
  if (!ar.ok())
    return Arith::diagnostic("complement");
  return complement(l, IntTuple(cosz));
}

} // namespace lk::cute
