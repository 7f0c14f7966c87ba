//===- Algebra.cpp - The CuTe layout algebra: structure -------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The tiler, the structural operations (flatten, group_modes, coalesce,
// filter) and equivalence. The other operations of cute/Algebra.h are in
// the files named after them: Evaluate.cpp, Composition.cpp, Inverse.cpp,
// DivideProduct.cpp, ShapeArithmetic.cpp.
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
// Tiler
//===----------------------------------------------------------------------===//

Expected<Tiler> Tiler::ofSize(int64_t n) {
  if (n < 1)
    return Diagnostic::error("tiler size " + std::to_string(n) +
                             " must be positive");
  LK_TRY(Layout l, Layout::compact(IntTuple(n)));
  Tiler t = Tiler::of(std::move(l));
  t.integer = true;
  return t;
}

std::string Tiler::str() const {
  switch (kind) {
  case Kind::Layout:
    return integer ? layout.shape().str() : layout.str();
  case Kind::Keep:
    return "_";
  case Kind::Tuple: {
    std::string s = "(";
    for (size_t i = 0; i < modes.size(); ++i)
      s += (i ? "," : "") + modes[i].str();
    return s + ")";
  }
  }
  return "_";
}

//===----------------------------------------------------------------------===//
// Structure
//===----------------------------------------------------------------------===//

Layout flatten(const Layout &l) {
  // A layout has at most IntTuple::kMaxRank leaves: flattening succeeds.
  return Layout::unchecked(*l.shape().flatten(), *l.stride().flatten());
}

Expected<Layout> group_modes(const Layout &l, size_t begin, size_t end) {
  if (!(begin < end && end <= l.rank()))
    return opError("group_modes",
                   "mode range [" + std::to_string(begin) + ", " +
                       std::to_string(end) + ") is empty or outside the " +
                       std::to_string(l.rank()) + " modes of " + l.str());
  ModeBuilder out, group;
  for (size_t i = 0; i < begin; ++i)
    out.append(l.mode(i));
  for (size_t i = begin; i < end; ++i)
    group.append(l.mode(i));
  LK_TRY(Layout grouped, group.build());
  out.append(grouped);
  for (size_t i = end; i < l.rank(); ++i)
    out.append(l.mode(i));
  return out.build();
}

Layout filter_zeros(const Layout &l) {
  SmallVector<int64_t, 16> shapes;
  auto s = l.shape().leaves();
  auto d = l.stride().leaves();
  for (size_t i = 0; i < s.size(); ++i)
    shapes.push_back(d[i].value == 0 ? 1 : s[i].value);
  return Layout::unchecked(l.shape().withLeaves(shapes.data()), l.stride());
}

Layout general::coalesce(const Layout &l) {
  Modes m = flatModes(l);
  if (m.empty())
    return Layout();
  // At most as many modes as l has leaves: always representable.
  return *coalesceModes(m, /*keepLastExtent=*/false);
}

namespace {

/// Writes `l` with `f` applied at the terminals of the profile subtree at
/// node k of `profile` (CuTe's transform over a target profile): a leaf
/// applies `f` to the whole of `l`; a tuple recurses into modes
/// i < its rank and keeps the other modes. The modes are read in place.
template <class F>
Status atProfileInto(const char *op, Ref l, const IntTuple &profile, size_t k,
                     F f, Tree &out) {
  const IntTuple::Node *p = profile.nodes() + k;
  if (p->rank == IntTuple::kLeaf) {
    out.subtree(f(l.layout()));
    return Ok{};
  }
  if (size_t(p->rank) > l.rank())
    return opError(op, "profile " + profile.subtree(k).str() +
                           " has more modes than " + l.str());
  out.open();
  Ref m = l.first();
  size_t c = k + 1; // the profile's mode i
  for (size_t i = 0; i < l.rank(); ++i, m = m.next()) {
    if (i < size_t(p->rank)) {
      LK_CHECK(atProfileInto(op, m, profile, c, f, out));
      c += profile.nodes()[c].span;
    } else {
      out.subtree(m);
    }
  }
  out.close();
  return Ok{};
}

/// `l` with `f` applied at the terminals of `profile`: f(l) for a leaf
/// profile, else the modes written by atProfileInto, checked once.
template <class F>
Expected<Layout> atProfile(const char *op, const Layout &l,
                           const IntTuple &profile, F f) {
  if (profile.isLeaf())
    return f(l);
  Tree out;
  LK_CHECK(atProfileInto(op, l, profile, 0, f, out));
  return out.build();
}

} // namespace

Expected<Layout> coalesce(const Layout &l, const IntTuple &profile) {
  return atProfile("coalesce", l, profile,
                   [](const Layout &m) { return coalesce(m); });
}

Layout filter(const Layout &l) { return coalesce(filter_zeros(l)); }

Expected<Layout> filter(const Layout &l, const IntTuple &profile) {
  return atProfile("filter", l, profile,
                   [](const Layout &m) { return filter(m); });
}

//===----------------------------------------------------------------------===//
// Equivalence
//===----------------------------------------------------------------------===//

Expected<bool> equivalent(const Layout &a, const Layout &b) {
  if (a.size() != b.size())
    return false;
  // The coalesced form is canonical: its first mode is fixed by the run of
  // the function's first differences, and so on recursively.
  return coalesce(a) == coalesce(b);
}

Expected<bool> equivalent(const ComposedLayout &a, const ComposedLayout &b) {
  if (a.layout.size() != b.layout.size())
    return false;
  bool plainA = a.swizzle.isIdentity(), plainB = b.swizzle.isIdentity();
  if ((a.swizzle == b.swizzle || (plainA && plainB)) && a.offset == b.offset)
    return equivalent(a.layout, b.layout);
  if (a.layout.hasBasisStrides() || b.layout.hasBasisStrides())
    return Diagnostic::error(
        "equivalent: a swizzle cannot apply to basis strides");
  int64_t n = a.layout.size();
  if (n > kEquivalencePointLimit)
    return Diagnostic::error("equivalent: " + a.str() + " and " + b.str() +
                             " differ in swizzle or offset and have " +
                             std::to_string(n) + " points; at most " +
                             std::to_string(kEquivalencePointLimit) +
                             " are compared one by one");
  for (int64_t i = 0; i < n; ++i) {
    int64_t x, y;
    // Layout::make bounds every offset; the offsets themselves may not.
    if (addOverflows(evaluate(a.layout, i), a.offset, x) ||
        addOverflows(evaluate(b.layout, i), b.offset, y))
      return Arith::diagnostic("equivalent");
    if (a.swizzle(x) != b.swizzle(y))
      return false;
  }
  return true;
}

} // namespace lk::cute
