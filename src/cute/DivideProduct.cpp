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
Status divideInto(Ref a, const Tiler &t, Tree &out) {
  const Layout &tile = t.layout;
  // rest = complement(T, shape(coalesce(A))), then A o (T, rest), composed
  // mode by mode into one result without building (T, rest).
  Modes flat = flatModes(a);
  Composer c = makeComposer(a, flat);
  // coalesce(A) equals the composer's coalesce_x(A) unless A ends in a
  // size-1 mode, which coalesce_x keeps to remember its stride.
  const Modes *ca = &c.lhs;
  Modes plain;
  if (!flat.empty() && flat.back().shape == 1) {
    bool integral;
    plain = coalescedModes(flat, false, integral);
    ca = &plain;
  }
  SmallVector<int64_t, 16> cotarget;
  int64_t *ct = cotarget.resizeForOverwrite(ca->size());
  for (size_t i = 0; i < ca->size(); ++i)
    ct[i] = (*ca)[i].shape;
  FlatLayout rest;
  if (Status st = complementModes(tile, cotarget.data(), cotarget.size(), rest);
      !st)
    return inOperation("logical_divide", std::move(st).error());
  out.open();
  LK_CHECK(c.compose(tile, out));
  if (!rest.integral)
    out.open();
  for (const Mode &m : rest.modes)
    LK_CHECK(c.composeLeaf(m.shape, m.stride, out));
  if (!rest.integral)
    out.close();
  out.close();
  LK_CHECK(c.checkDistributive([&] {
    return "(" + tile.str() + ", " + modesText(rest.modes, rest.integral) + ")";
  }));
  return Ok{};
}

} // namespace

Expected<Layout> general::logical_divide(const Layout &a, const Tiler &t) {
  return byModeResult("logical_divide", a, t, /*keepRest=*/true, divideInto);
}

namespace {

/// The public by-mode divide or product `op` of `a` by `t` (a closed form
/// where one takes the operands, else the general construction; checked
/// once, where it is written), regrouped as `how` says straight from its
/// nodes into the result; `group` names the grouping in diagnostics.
/// Zipped by a layout tiler, the result is the (tile, rest) pair itself,
/// returned as it is (one object, built in the caller's slot).
template <class Op>
Expected<Layout> grouped(Op op, const char *group, const Layout &a,
                         const Tiler &t, Regroup how) {
  if (t.kind != Tiler::Kind::Tuple && how == Regroup::Zipped) {
    Expected<Layout> by = op(a, t); // a fault reports as op's (the fast path)
    if (by)
      if (Status ok = Regrouper(*by, nullptr, nullptr).check(group, 0, t); !ok)
        by = std::move(ok).error();
    return by;
  }
  Expected<Layout> by = op(a, t);
  if (!by)
    return inOperation(group, std::move(by).error());
  return regroupByTiler(group, *by, t, how);
}

} // namespace

Expected<Layout> general::zipped_divide(const Layout &a, const Tiler &t) {
  return grouped(cute::logical_divide, "zipped_divide", a, t, Regroup::Zipped);
}

Expected<Layout> general::tiled_divide(const Layout &a, const Tiler &t) {
  return grouped(cute::logical_divide, "tiled_divide", a, t, Regroup::Tiled);
}

Expected<Layout> general::flat_divide(const Layout &a, const Tiler &t) {
  return grouped(cute::logical_divide, "flat_divide", a, t, Regroup::Flat);
}

namespace {

/// Largest size(A) * size(rest) for which the copies of A are compared
/// element by element when the mode-wise test below cannot vouch for them.
constexpr int64_t kProductCheckLimit = int64_t(1) << 22;

/// The copies of A at rest's offsets compared point by point (B's points
/// first: two with different images must keep different offsets), the
/// operands evaluated in place; out of line, the rare part of
/// checkCopiesDisjoint.
[[gnu::noinline]] Status checkCopiesPointwise(Ref a, Ref tile, Ref rest) {
  const int64_t na = extentOf(a).size, nr = extentOf(rest).size;
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
    placed[size_t(j)] = {evaluateAt(rest, j), evaluateAt(tile, j)};
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
    const int64_t ai = evaluateAt(a, i);
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
Status checkCopiesDisjoint(Ref a, int64_t cosA, const Modes &comp,
                           int64_t compSize, int64_t cosB, Ref tile, Ref rest) {
  if (cosB <= compSize || comp.empty())
    return Ok{};
  Arith ar;
  int64_t below = cosA;
  for (size_t k = 0; k + 1 < comp.size(); ++k)
    below = ar.add(below, ar.mul(comp[k].shape - 1, absValue(comp[k].stride)));
  if (ar.ok() && below <= absValue(comp.back().stride))
    return Ok{};
  return checkCopiesPointwise(a, tile, rest);
}

/// logical_product(A, B) for a layout B, appended as one (A, rest) mode:
/// rest = complement(A, size(A)*cosize(B)) o B, with B's image allowed past
/// the complement (the composition continues along its last mode) as long
/// as the copies of A do not overlap. rest is composed in place after A
/// and checked there as a layout of its own.
Status productOf(Ref a, Ref tile, Tree &out) {
  // Integer strides (A's, then B's), then cosize(B) and cosize(A): one
  // pass over each operand, the diagnostics in that order.
  const Extent ea = extentOf(a), eb = extentOf(tile);
  if (ea.basis)
    return requireIntegerStrides("logical_product", a);
  if (eb.basis)
    return requireIntegerStrides("logical_product", tile);
  if (!eb.fits)
    return cosizeOf(tile).error();
  if (!ea.fits)
    return cosizeOf(a).error();
  const int64_t cosz = eb.cosize, cosA = ea.cosize;
  LK_TRY(int64_t target, checkedMul(ea.size, cosz, "logical_product"));
  FlatLayout comp;
  LK_CHECK(complementModes(a, &target, 1, comp));
  int64_t compSize = 1;
  for (const Mode &m : comp.modes)
    compSize *= m.shape; // at most the cotarget
  // rest = complement o B. The complement's modes are their own coalesce_x
  // (complementModes: no size-1 modes, none merge), but for the trivial
  // 1:0, whose extent coalesce_x keeps as 2:0.
  Composer c;
  c.lhs = comp.modes;
  c.lhsIntegral = comp.integral;
  if (c.lhs.size() == 1 && c.lhs[0].shape == 1)
    c.lhs[0].shape = 2;
  c.reach.resize(c.lhs.size(), 0);
  out.open();
  out.subtree(a);
  const size_t restAt = out.count();
  // A composition fault is the product's: its A is the complement.
  auto asRest = [&](Status st) -> Status {
    if (st)
      return st;
    Diagnostic d = std::move(st).error();
    d.message = "logical_product: rest = complement(A, size(A)*cosize(B) = " +
                std::to_string(target) +
                ") o B = " + modesText(comp.modes, comp.integral) + " o " +
                tile.str() + " fails: " + d.message;
    d.notes.clear();
    return d;
  };
  LK_CHECK(asRest(c.compose(tile, out)));
  LK_CHECK(asRest(c.checkDistributive([&] { return tile.str(); })));
  LK_CHECK(out.check(restAt));
  LK_CHECK(checkCopiesDisjoint(a, cosA, c.lhs, compSize, cosz, tile,
                               out.at(restAt)));
  out.close();
  return Ok{};
}

Status productInto(Ref a, const Tiler &t, Tree &out) {
  return productOf(a, t.layout, out);
}

} // namespace

Expected<Layout> general::logical_product(const Layout &a, const Tiler &t) {
  return byModeResult("logical_product", a, t, /*keepRest=*/true, productInto);
}

Expected<Layout> general::zipped_product(const Layout &a, const Tiler &t) {
  return grouped(cute::logical_product, "zipped_product", a, t,
                 Regroup::Zipped);
}

Expected<Layout> general::tiled_product(const Layout &a, const Tiler &t) {
  return grouped(cute::logical_product, "tiled_product", a, t, Regroup::Tiled);
}

Expected<Layout> general::flat_product(const Layout &a, const Tiler &t) {
  return grouped(cute::logical_product, "flat_product", a, t, Regroup::Flat);
}

namespace {

/// CuTe's append<R>: `l` padded to rank r with 1:0 modes, written into
/// `pad` when its rank is below r (an integer layout counts as rank 1 and
/// stays one when r == 1); the padded layout, read in place.
Expected<Ref> padToRank(const Layout &l, size_t r, Tree &pad) {
  if (l.rank() >= r)
    return Ref(l);
  pad.open();
  Ref m = Ref(l).first();
  for (size_t i = 0; i < l.rank(); ++i, m = m.next())
    pad.subtree(m);
  for (size_t i = l.rank(); i < r; ++i)
    pad.leaf(1, 0);
  pad.close();
  LK_CHECK(pad.check());
  return pad.at(0);
}

/// blocked_product (A', X) and raked_product (X, A') of the product
/// (A', X) = logical_product(A', B'), A' and B' padded to a common rank,
/// into `result`: with (first, second) the pair in that order, an integer
/// first gives the single mode ((first, second)); a tuple pairs mode i of
/// both, ((first_0, second_0), (first_1, second_1), ...), which needs the
/// second to be a tuple of the same rank. The padding and the product are
/// written into node buffers and checked as each layout was (the same
/// diagnostics); the pairs are written straight into the result, whose
/// leaves are the checked product's (only its node count can fail).
/// Example: blocked_product((8,8):(8,1), (4,2):(1,4))
///          = ((8,4),(8,2)):((8,64),(1,256)).
Status rankedInto(const Layout &a, const Layout &b, bool raked,
                  Layout &result) {
  const char *op = raked ? "raked_product" : "blocked_product";
  LK_CHECK(requireIntegerStrides(op, a));
  LK_CHECK(requireIntegerStrides(op, b));
  const size_t r = std::max(a.rank(), b.rank());
  Tree padA, padB, p;
  LK_TRY(Ref pa, padToRank(a, r, padA));
  LK_TRY(Ref pb, padToRank(b, r, padB));
  if (Status st = productOf(pa, pb, p); !st)
    return inOperation(op, std::move(st).error());
  LK_CHECK(p.check());
  const Ref product = p.at(0), x = product.first().next();
  const Ref first = raked ? x : product.first();
  const Ref second = raked ? product.first() : x;
  const bool leaf = first.isLeaf();
  if (!leaf && (second.isLeaf() || second.rank() != first.rank()))
    return opError(op, "cannot pair the modes of " + first.str() + " with " +
                           second.str() + ": ranks differ");
  // The root, a pair node per mode, and both sides' nodes but their roots
  // (an integer first: the root, one pair node, both sides whole).
  const size_t modes = leaf ? 1 : first.rank();
  const size_t n = leaf ? 2 + first.span() + second.span()
                        : modes + first.span() + second.span() - 1;
  if (n > IntTuple::kMaxNodes)
    return tooLargeDiagnostic();
  Node *s, *d;
  result.nodesForOverwrite(n, s, d);
  size_t k = 0;
  auto tuple = [&](size_t at, size_t rank, size_t span) {
    s[at] = d[at] = Node{0, int16_t(rank), uint16_t(span), 0};
  };
  auto put = [&](Ref m) {
    for (size_t i = 0, c = m.span(); i < c; ++i, ++k) {
      s[k] = m.s[i];
      d[k] = m.d[i];
    }
  };
  tuple(0, modes, n);
  k = 1;
  Ref f = leaf ? first : first.first(), g = leaf ? second : second.first();
  for (size_t i = 0; i < modes; ++i, f = f.next(), g = g.next()) {
    const size_t at = k++;
    put(f);
    put(g);
    tuple(at, 2, k - at);
  }
  return Ok{};
}

Expected<Layout> rankedProduct(const Layout &a, const Layout &b, bool raked) {
  Expected<Layout> result{std::in_place}; // one object, the caller's slot
  if (Status ok = rankedInto(a, b, raked, *result); !ok)
    result = std::move(ok).error();
  return result;
}

} // namespace

Expected<Layout> general::blocked_product(const Layout &a, const Layout &b) {
  return rankedProduct(a, b, /*raked=*/false);
}

Expected<Layout> general::raked_product(const Layout &a, const Layout &b) {
  return rankedProduct(a, b, /*raked=*/true);
}

} // namespace lk::cute
