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

Expected<LinearLayout> product(const LinearLayout &inner,
                               const LinearLayout &outer) {
  using Dim = LinearLayout::Dim;
  // Common dims must appear in the same relative order.
  auto checkOrder = [](const Dim *a, int na, const Dim *b, int nb,
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
        return Diagnostic::error(std::string("product: common ") + what +
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
  // Dims: inner's, then outer's new ones.
  auto merge = [](Dim *dst, uint8_t &n, const Dim *a, int na, const Dim *b,
                  int nb) -> Status {
    n = 0;
    int total = 0;
    for (int i = 0; i < na; ++i) {
      dst[n] = a[i];
      for (int j = 0; j < nb; ++j)
        if (b[j].id == a[i].id)
          dst[n].log2 = uint8_t(dst[n].log2 + b[j].log2);
      total += dst[n].log2;
      ++n;
    }
    for (int j = 0; j < nb; ++j) {
      bool seen = false;
      for (int i = 0; i < na; ++i)
        seen |= a[i].id == b[j].id;
      if (seen)
        continue;
      if (n >= LinearLayout::kMaxDims)
        return Diagnostic::error("product: too many dims");
      dst[n] = b[j];
      total += dst[n].log2;
      ++n;
    }
    if (total > LinearLayout::kMaxBits)
      return Diagnostic::error("product: more than 64 bits");
    return Ok{};
  };
  LK_CHECK(merge(r.in_, r.nIn_, inner.in_, inner.nIn_, outer.in_, outer.nIn_));
  LK_CHECK(
      merge(r.out_, r.nOut_, inner.out_, inner.nOut_, outer.out_, outer.nOut_));
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
