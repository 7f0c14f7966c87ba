//===- LinearCompose.cpp - Composition and products of linear layouts -----===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// compose (outer o inner over shared dims) and product (the block-diagonal
// layout of two layouts over disjoint or shared dims).
//
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/LinearLayout.h"

#include "LinearSupport.h"

#include "layoutkit/core/Bits.h"

#include <algorithm>

namespace lk::linear {

using namespace detail;

//===----------------------------------------------------------------------===//
// Algebra
//===----------------------------------------------------------------------===//

Expected<LinearLayout> LinearLayout::compose(const LinearLayout &outer) const {
  Expected<LinearLayout> result{std::in_place};
  if (nOut_ != outer.nIn_) {
    result = Diagnostic::error(
        "compose: the output dims of the first layout (" +
        std::to_string(nOut_) + ") must be the input dims of the second (" +
        std::to_string(outer.nIn_) + ")");
    return result;
  }
  Repack rp;
  for (int k = 0; k < nOut_; ++k) {
    int p = outer.inDimIndex(out_[k].id);
    if (p < 0) {
      result = Diagnostic::error("compose: output dim '" + name(out_[k].id) +
                                 "' is not an input dim of the outer layout");
      return result;
    }
    if (out_[k].log2 > outer.in_[p].log2) {
      result = Diagnostic::error(
          "compose: output dim '" + name(out_[k].id) + "' (size " +
          std::to_string(int64_t(1) << out_[k].log2) +
          ") is larger than the outer input dim (size " +
          std::to_string(int64_t(1) << outer.in_[p].log2) + ")");
      return result;
    }
    rp.add(out_[k].shift, out_[k].log2, outer.in_[p].shift);
    if (out_[k].shift != outer.in_[p].shift)
      rp.identity = false;
  }
  LinearLayout &r = *result;
  r.nIn_ = nIn_;
  r.nOut_ = outer.nOut_;
  r.inBits_ = inBits_;
  r.outBits_ = outer.outBits_;
  std::copy(in_, in_ + nIn_, r.in_);
  std::copy(outer.out_, outer.out_ + outer.nOut_, r.out_);
  for (int j = 0; j < inBits_; ++j)
    r.cols_[j] = outer.applyFlat(rp(cols_[j]));
  return result;
}

namespace {

/// Triton's supremum of two dim lists whose common dims appear in the same
/// relative order: a merge that keeps both orders, taking from `a` while its
/// next dim is not yet due in `b` (ties go to `a`). Writes indices (into a,
/// or na + index into b for dims only b has) and returns their count.
/// Example: sup([a, b], [c, b]) = [a, c, b]; sup([a, b], [a, c]) = [a, b, c].
int supremumOrder(const DimId *a, int na, const DimId *b, int nb, int *out) {
  auto pos = [](const DimId *v, int nv, DimId id) {
    for (int t = 0; t < nv; ++t)
      if (v[t] == id)
        return t;
    return -1;
  };
  bool takenA[LinearLayout::kMaxDims] = {}, takenB[LinearLayout::kMaxDims] = {};
  int n = 0, i = 0, j = 0;
  auto takeA = [&](int t) {
    takenA[t] = true;
    int q = pos(b, nb, a[t]);
    if (q >= 0)
      takenB[q] = true;
    out[n++] = t;
  };
  auto takeB = [&](int t) {
    takenB[t] = true;
    int q = pos(a, na, b[t]);
    if (q >= 0) {
      takenA[q] = true;
      out[n++] = q;
    } else {
      out[n++] = na + t;
    }
  };
  constexpr int kNone = 1 << 30;
  while (true) {
    while (i < na && takenA[i])
      ++i;
    while (j < nb && takenB[j])
      ++j;
    if (i >= na && j >= nb)
      break;
    if (i < na && j < nb && a[i] == b[j]) {
      takeA(i);
      continue;
    }
    int qa = i < na ? pos(b, nb, a[i]) : -1;
    int qb = j < nb ? pos(a, na, b[j]) : -1;
    int candA = (i < na && qa >= j) ? qa : kNone;
    int candB = (j < nb && qb >= i) ? qb : kNone;
    if (i < na && candA == kNone)
      takeA(i);
    else if (j < nb && candB == kNone)
      takeB(j);
    else if (candA <= candB)
      takeA(i);
    else
      takeB(j);
  }
  return n;
}

} // namespace

Expected<LinearLayout> product(const LinearLayout &inner,
                               const LinearLayout &outer, const char *op) {
  using Dim = LinearLayout::Dim;
  const std::string by = std::string(op) + ": ";
  // Common dims must appear in the same relative order.
  auto checkOrder = [&by](const Dim *a, int na, const Dim *b, int nb,
                          const char *what) -> Status {
    int last = -1;
    for (int i = 0; i < na; ++i) {
      int pos = -1;
      for (int j = 0; j < nb; ++j)
        if (b[j].id == a[i].id)
          pos = j;
      if (pos < 0)
        continue;
      if (pos < last)
        return Diagnostic::error(by + "common " + what +
                                 " dims appear in different orders ('" +
                                 name(a[i].id) + "')");
      last = pos;
    }
    return Ok{};
  };
  LK_CHECK(checkOrder(inner.in_, inner.nIn_, outer.in_, outer.nIn_, "input"));
  LK_CHECK(
      checkOrder(inner.out_, inner.nOut_, outer.out_, outer.nOut_, "output"));

  LinearLayout r;
  // Dims: the supremum of both orders (as Triton's operator* orders them), a
  // common dim with the sum of both sizes.
  auto merge = [&by](Dim *dst, uint8_t &n, const Dim *a, int na, const Dim *b,
                     int nb, const char *side) -> Status {
    DimId ia[LinearLayout::kMaxDims], ib[LinearLayout::kMaxDims];
    for (int t = 0; t < na; ++t)
      ia[t] = a[t].id;
    for (int t = 0; t < nb; ++t)
      ib[t] = b[t].id;
    int order[2 * LinearLayout::kMaxDims];
    int no = supremumOrder(ia, na, ib, nb, order);
    if (no > LinearLayout::kMaxDims)
      return Diagnostic::error(by + "too many dims");
    n = 0;
    int total = 0;
    for (int k = 0; k < no; ++k) {
      int i = order[k] < na ? order[k] : -1;
      int j = order[k] < na ? -1 : order[k] - na;
      if (i < 0)
        for (int t = 0; t < na; ++t)
          if (a[t].id == b[j].id)
            i = t;
      if (j < 0)
        for (int t = 0; t < nb; ++t)
          if (b[t].id == a[i].id)
            j = t;
      dst[n] = i >= 0 ? a[i] : b[j];
      if (i >= 0 && j >= 0)
        dst[n].log2 = uint8_t(a[i].log2 + b[j].log2);
      if (dst[n].log2 > LinearLayout::kMaxDimBits)
        return Diagnostic::error(
            by + side + " dim '" + name(dst[n].id) + "' would have " +
            std::to_string(dst[n].log2) + " bits; one dim has at most 2^" +
            std::to_string(LinearLayout::kMaxDimBits) + " values");
      total += dst[n].log2;
      ++n;
    }
    if (total > LinearLayout::kMaxBits)
      return Diagnostic::error(by + "the " + side + " dims would have " +
                               std::to_string(total) +
                               " bits; a layout has at most 64");
    return Ok{};
  };
  LK_CHECK(merge(r.in_, r.nIn_, inner.in_, inner.nIn_, outer.in_, outer.nIn_,
                 "input"));
  LK_CHECK(merge(r.out_, r.nOut_, inner.out_, inner.nOut_, outer.out_,
                 outer.nOut_, "output"));
  r.recomputeShifts();

  Repack innerRp, outerRp;
  for (int k = 0; k < inner.nOut_; ++k) {
    int p = r.outDimIndex(inner.out_[k].id);
    innerRp.add(inner.out_[k].shift, inner.out_[k].log2, r.out_[p].shift);
  }
  for (int k = 0; k < outer.nOut_; ++k) {
    int p = r.outDimIndex(outer.out_[k].id);
    int below = inner.outDimLog2(outer.out_[k].id);
    outerRp.add(outer.out_[k].shift, outer.out_[k].log2,
                r.out_[p].shift + below);
  }
  innerRp.identity = false;
  outerRp.identity = false;
  for (int i = 0; i < r.nIn_; ++i) {
    int j = r.in_[i].shift;
    int a = inner.inDimIndex(r.in_[i].id);
    if (a >= 0)
      for (int b = 0; b < inner.in_[a].log2; ++b)
        r.cols_[j++] = innerRp(inner.cols_[inner.in_[a].shift + b]);
    int o = outer.inDimIndex(r.in_[i].id);
    if (o >= 0)
      for (int b = 0; b < outer.in_[o].log2; ++b)
        r.cols_[j++] = outerRp(outer.cols_[outer.in_[o].shift + b]);
  }
  return r;
}

} // namespace lk::linear
