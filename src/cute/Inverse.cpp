//===- Inverse.cpp - Inverses and common layouts --------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// right_inverse, left_inverse, max_common_layout and max_common_vector.
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

namespace {

/// Coalesced modes, their exclusive prefix products and the stable order of
/// their strides: the common start of both inverses.
struct SortedModes {
  Modes modes;
  SmallVector<int64_t, 16> prefix;
  SmallVector<size_t, 16> order;
};

SortedModes sortedModes(const Layout &l) {
  SortedModes s;
  bool integral;
  s.modes = coalescedModes(flatModes(l), false, integral);
  const size_t n = s.modes.size();
  int64_t *prefix = s.prefix.resizeForOverwrite(n);
  size_t *order = s.order.resizeForOverwrite(n);
  int64_t p = 1;
  for (size_t i = 0; i < n; ++i) {
    prefix[i] = p;
    p *= s.modes[i].shape; // bounded by size(l)
    order[i] = i;
  }
  // Ascending strides with CuTe's exchange sort: for each position i, any
  // later element with a strictly smaller stride is swapped in. It is not
  // stable, and which of two equal strides comes first decides which mode
  // an inverse uses, so the exact procedure is reproduced.
  for (size_t i = 0; i < s.order.size(); ++i)
    for (size_t j = i + 1; j < s.order.size(); ++j)
      if (s.modes[s.order[j]].stride < s.modes[s.order[i]].stride)
        std::swap(s.order[i], s.order[j]);
  return s;
}

/// Largest layout size for which a left inverse that the stride test cannot
/// vouch for is verified point by point.
constexpr int64_t kLeftInverseCheckLimit = int64_t(1) << 22;

/// CuTe's left_inverse decodes an offset in the mixed radix of the sorted
/// non-zero strides. That is exact when each mode ends before the next one
/// starts (s_k * d_k <= d_(k+1)) and there is no broadcast mode; otherwise
/// the postcondition L(R(L(i))) = L(i) is checked on every i.
Status checkLeftInverse(const Layout &l, const Layout &r,
                        const SortedModes &s) {
  bool exact = true;
  const Mode *prev = nullptr;
  for (size_t i : s.order) {
    const Mode &m = s.modes[i];
    if (m.stride == 0) {
      exact = false;
      continue;
    }
    int64_t extent;
    if (prev &&
        (mulOverflows(prev->shape, prev->stride, extent) || extent > m.stride))
      exact = false;
    prev = &m;
  }
  if (exact)
    return Ok{};
  int64_t n = l.size();
  if (n > kLeftInverseCheckLimit)
    return opError(
        "left_inverse",
        "layout " + l.str() +
            " has overlapping or broadcast modes and is too large (" +
            std::to_string(n) + " elements) to verify a left inverse");
  for (int64_t i = 0; i < n; ++i) {
    int64_t li = evaluate(l, i);
    if (li < 0 || evaluate(l, evaluate(r, li)) != li)
      return opError(
          "left_inverse",
          "layout " + l.str() +
              " has no left inverse: CuTe's "
              "construction " +
              r.str() + " gives L(R(L(" + std::to_string(i) +
              "))) = " + std::to_string(evaluate(l, evaluate(r, li))) +
              " instead of " + std::to_string(li));
  }
  return Ok{};
}

} // namespace

Expected<Layout> general::right_inverse(const Layout &l) {
  LK_CHECK(requireIntegerStrides("right_inverse", l));
  SortedModes s = sortedModes(l);
  Modes out{Mode{1, 0, 0}};
  int64_t curr = 1;
  Arith ar;
  for (size_t i : s.order) {
    const Mode &m = s.modes[i];
    if (m.stride == curr) {
      out.push_back(Mode{m.shape, s.prefix[i], 0});
      curr = ar.mul(m.shape, m.stride);
    }
  }
  if (!ar.ok())
    return Arith::diagnostic("right_inverse");
  return coalesceModes(out, false);
}

Expected<Layout> general::left_inverse(const Layout &l) {
  LK_CHECK(requireIntegerStrides("left_inverse", l));
  SortedModes s = sortedModes(l);
  SmallVector<int64_t, 16> shapes;
  SmallVector<int64_t, 16> strides{0};
  int64_t covered = 1; // size of the result shape so far
  Arith ar;
  for (size_t i : s.order) {
    const Mode &m = s.modes[i];
    if (m.stride == 0)
      continue;
    if (m.stride < 0 || m.stride % covered != 0)
      return opError("left_inverse",
                     "left inverse divisibility condition fails: stride " +
                         std::to_string(m.stride) + " of mode " + modeStr(m) +
                         " of coalesce(" + l.str() +
                         ") is not a multiple of the extent " +
                         std::to_string(covered) + " already inverted");
    shapes.push_back(m.stride / covered);
    strides.push_back(s.prefix[i]);
    covered = ar.mul(covered, m.stride / covered);
  }
  shapes.push_back(s.modes[s.order.back()].shape);
  Modes out;
  for (size_t i = 0; i < shapes.size(); ++i)
    out.push_back(Mode{shapes[i], strides[i], 0});
  if (!ar.ok())
    return Arith::diagnostic("left_inverse");
  LK_TRY(Layout r, coalesceModes(out, false));
  LK_CHECK(checkLeftInverse(l, r, s));
  return r;
}

namespace {

/// Most points A(invB(j)) the fallback of commonPrefix evaluates.
constexpr int64_t kCommonScanLimit = int64_t(1) << 22;

/// N when the first mode of coalesce(R) is N:1 (with R(j) = j for j < N),
/// else 1; the mode is read in place.
int64_t contiguousFront(const Layout &r) {
  const Layout common = coalesce(r);
  const Ref first = Ref(common).first();
  if (first.isLeaf() && first.d->value == 1 && first.d->basis == 0)
    return first.s->value;
  return 1;
}

/// N = the largest n <= size(invB) with A(invB(j)) = j for every j < n, the
/// common contiguous prefix of A and B; at least 1.
///
/// Where R = A o invB exists, N is the size of coalesce(R)'s first mode when
/// its stride is 1 (CuTe's max_common_vector): that mode covers exactly the
/// j with R(j) = j, since the next mode would merge if it continued at N.
/// Where the composition fails (a divisibility condition, or LayoutKit's
/// check that R(c) = A(B(c))), A o P for the longest prefix P of invB's
/// coalesced modes that composes gives R exactly on [0, size(P)); past a
/// fully contiguous prefix the points are compared one by one (at most
/// kCommonScanLimit of them; beyond, N is the verified part).
int64_t commonPrefix(const Layout &a, const Layout &invB) {
  if (Expected<Layout> r = composition(a, invB))
    return contiguousFront(*r);
  bool integral;
  Modes modes = coalescedModes(flatModes(invB), false, integral);
  int64_t n = 1, prefix = 1;
  Modes head;
  for (size_t k = 0; k < modes.size(); ++k) {
    head.push_back(modes[k]);
    Expected<Layout> pk = fromModes(head, false);
    Expected<Layout> rk = pk ? composition(a, *pk) : pk;
    if (!rk)
      break;
    prefix *= modes[k].shape; // at most size(invB)
    n = contiguousFront(*rk);
    if (n < prefix)
      return n;
  }
  // R(j) = j on [0, n): compare further points until they differ.
  int64_t size = invB.size(), sizeA = a.size();
  for (int64_t j = n, steps = 0; j < size && steps < kCommonScanLimit;
       ++j, ++steps) {
    int64_t i = evaluate(invB, j);
    if (i < 0 || i >= sizeA || evaluate(a, i) != j)
      return j;
    n = j + 1;
  }
  return n;
}

/// invB o n:1 when that composition is defined; else the largest n' < n
/// for which it is (n' is a product of leading modes of invB times a divisor
/// of the next one); 1:0 at worst.
Layout commonLayout(const Layout &invB, int64_t n) {
  if (n <= 1)
    return Layout();
  if (Expected<Layout> r =
          composition(invB, Layout::unchecked(IntTuple(n), IntTuple(1))))
    return *r;
  bool integral;
  Modes modes = coalescedModes(flatModes(invB), false, integral);
  int64_t prefix = 1;
  for (const Mode &m : modes) {
    if (prefix * m.shape > n || m.shape == 1) {
      int64_t t = n / prefix;
      while (t > 1 && m.shape % t != 0)
        --t;
      n = prefix * t;
      break;
    }
    prefix *= m.shape;
  }
  if (n <= 1)
    return Layout();
  if (Expected<Layout> r =
          composition(invB, Layout::unchecked(IntTuple(n), IntTuple(1))))
    return *r;
  return Layout();
}

} // namespace

namespace {

/// max_common_vector of two integer leaves A = s:d, B = t:e in closed form:
/// right_inverse(B) is t:1 when e == 1 and t > 1, else 1:0; A o t:1 = t:d,
/// whose first mode has stride 1 exactly when d == 1 (A continues past s
/// along its only mode). So N = t when d == e == 1 and t > 1, else 1, and
/// max_common_layout is t:1 or 1:0. False when an operand is not a leaf.
/// Example: max_common_vector(64:1, 64:1) = 64; (64:1, 64:2) gives 1.
bool commonLeaves(const Layout &a, const Layout &b, int64_t &n) {
  const IntTuple::Node &as = *a.shape().nodes(), &ad = *a.stride().nodes();
  const IntTuple::Node &bs = *b.shape().nodes(), &bd = *b.stride().nodes();
  if (as.rank != IntTuple::kLeaf || bs.rank != IntTuple::kLeaf ||
      ad.basis != 0 || bd.basis != 0 || as.value < 1 || bs.value < 1)
    return false;
  n = ad.value == 1 && bd.value == 1 ? bs.value : 1;
  return true;
}

} // namespace

Expected<Layout> general::max_common_layout(const Layout &a, const Layout &b) {
  LK_CHECK(requireIntegerStrides("max_common_layout", a));
  LK_CHECK(requireIntegerStrides("max_common_layout", b));
  LK_TRY(Layout invB, cute::right_inverse(b));
  int64_t n = commonPrefix(a, invB);
  // 1:0 (CuTe's answer when the first mode is not N:1 with N > 1), else
  // invB o N:1.
  return commonLayout(invB, n);
}

Expected<int64_t> max_common_vector(const Layout &a, const Layout &b) {
  if (int64_t n; commonLeaves(a, b, n))
    return n;
  LK_CHECK(requireIntegerStrides("max_common_vector", a));
  LK_CHECK(requireIntegerStrides("max_common_vector", b));
  LK_TRY(Layout invB, right_inverse(b));
  return commonPrefix(a, invB);
}

} // namespace lk::cute
