//===- LinearInverse.cpp - Rank, inverses and free variables --------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Everything that eliminates over F2 (linear/F2Basis.h): surjectivity,
// rank, the minimum-norm right inverse (pseudoinvert), invert,
// invertAndCompose, and the masks of free variables and zero columns.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/LinearLayout.h"

#include "LinearSupport.h"

#include "layoutkit/core/Bits.h"
#include "layoutkit/linear/F2Basis.h"

#include <algorithm>

namespace lk::linear {

using namespace detail;

bool LinearLayout::isSurjective() const {
  uint64_t any = 0, multi = 0;
  for (int j = 0; j < inBits_; ++j) {
    any |= cols_[j];
    multi |= cols_[j] & (cols_[j] - 1);
  }
  if (any != outMask())
    return false;
  if (multi == 0)
    return true; // unit columns covering every output bit
  return rank() == outBits_;
}

int LinearLayout::rank() const {
  return rankF2(std::span<const uint64_t>(cols_, size_t(inBits_)));
}

Expected<LinearLayout> LinearLayout::pseudoinvert() const {
  Expected<LinearLayout> result{std::in_place};
  F2Basis e;
  for (int j = 0; j < inBits_; ++j)
    e.add(cols_[j], uint64_t(1) << j);
  if (e.rank() != outBits_) {
    result = Diagnostic::error("pseudoinvert: the layout is not surjective "
                               "(rank " +
                               std::to_string(e.rank()) + " < " +
                               std::to_string(outBits_) + " output bits)");
    return result;
  }
  LinearLayout &r = *result;
  r.nIn_ = nOut_;
  r.nOut_ = nIn_;
  r.inBits_ = outBits_;
  r.outBits_ = inBits_;
  std::copy(out_, out_ + nOut_, r.in_);
  std::copy(in_, in_ + nIn_, r.out_);
  for (int b = 0; b < outBits_; ++b) {
    uint64_t c = 0;
    e.solve(uint64_t(1) << b, c);
    r.cols_[b] = c;
  }
  return result;
}

Expected<LinearLayout> LinearLayout::invert() const {
  if (inBits_ != outBits_)
    return Diagnostic::error("invert: the layout is not square (" +
                             std::to_string(inBits_) + " input bits, " +
                             std::to_string(outBits_) + " output bits)");
  Expected<LinearLayout> r = pseudoinvert();
  if (!r)
    return Diagnostic::error("invert: the layout is not invertible (its "
                             "columns are linearly dependent)");
  return r;
}

Expected<LinearLayout>
LinearLayout::invertAndCompose(const LinearLayout &outer) const {
  if (nOut_ != outer.nOut_)
    return Diagnostic::error("invert_and_compose: the layouts have different "
                             "output dims (" +
                             std::to_string(nOut_) + " and " +
                             std::to_string(outer.nOut_) + ")");
  // this's output bits in outer's packing; `over` holds the bits of this's
  // dims above outer's size (a column using one is outside outer's image).
  Repack rp;
  uint64_t over = 0;
  for (int k = 0; k < nOut_; ++k) {
    int p = outer.outDimIndex(out_[k].id);
    if (p < 0)
      return Diagnostic::error("invert_and_compose: output dim '" +
                               name(out_[k].id) +
                               "' is missing in the outer layout");
    int w = std::min<int>(out_[k].log2, outer.out_[p].log2);
    rp.add(out_[k].shift, w, outer.out_[p].shift);
    if (out_[k].shift != outer.out_[p].shift)
      rp.identity = false;
    over |= (lowMask(out_[k].log2) & ~lowMask(w)) << out_[k].shift;
  }
  // Identity on the input dims both layouts map alike (same bases, zeros
  // included): x of such a dim goes to the same x of outer.
  bool same[kMaxDims] = {};
  uint64_t sameCols = 0; // outer's columns of those dims
  for (int i = 0; i < nIn_; ++i) {
    int o = outer.inDimIndex(in_[i].id);
    if (o < 0 || in_[i].log2 != outer.in_[o].log2)
      continue;
    bool eq = true;
    for (int b = 0; b < in_[i].log2 && eq; ++b) {
      uint64_t c = cols_[in_[i].shift + b];
      eq = !(c & over) && rp(c) == outer.cols_[outer.in_[o].shift + b];
    }
    same[i] = eq;
    if (eq)
      sameCols |= lowMask(in_[i].log2) << outer.in_[o].shift;
  }
  // The other columns are solved over outer's other columns first (the
  // minimum-norm solution: dependent columns are left at zero, so broadcast
  // data resolves to the lowest index), then over the identity dims' ones.
  F2Basis e;
  for (int pass = 0; pass < 2; ++pass)
    for (int j = 0; j < outer.inBits_; ++j)
      if (bool((sameCols >> j) & 1) == bool(pass))
        e.add(outer.cols_[j], uint64_t(1) << j);
  Expected<LinearLayout> result{std::in_place};
  LinearLayout &r = *result;
  r.nIn_ = nIn_;
  r.nOut_ = outer.nIn_;
  r.inBits_ = inBits_;
  r.outBits_ = outer.inBits_;
  std::copy(in_, in_ + nIn_, r.in_);
  std::copy(outer.in_, outer.in_ + outer.nIn_, r.out_);
  for (int i = 0; i < nIn_; ++i) {
    int o = outer.inDimIndex(in_[i].id);
    for (int b = 0; b < in_[i].log2; ++b) {
      int j = in_[i].shift + b;
      if (same[i]) {
        r.cols_[j] = uint64_t(1) << (outer.in_[o].shift + b);
        continue;
      }
      uint64_t c = cols_[j], tags = 0;
      if ((c & over) || !e.solve(rp(c), tags)) {
        result =
            Diagnostic::error("invert_and_compose: basis " + std::to_string(b) +
                              " of input dim '" + name(in_[i].id) +
                              "' maps outside the image of the outer layout, "
                              "so no C with this(x) = outer(C(x)) exists");
        return result;
      }
      r.cols_[j] = tags;
    }
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Properties
//===----------------------------------------------------------------------===//

uint64_t LinearLayout::freeVariableMaskFlat() const {
  F2Basis e;
  uint64_t m = 0;
  for (int j = 0; j < inBits_; ++j)
    if (!e.add(cols_[j], 0))
      m |= uint64_t(1) << j;
  return m;
}

std::array<uint64_t, LinearLayout::kMaxDims>
LinearLayout::freeVariableMasks() const {
  uint64_t m = freeVariableMaskFlat();
  std::array<uint64_t, kMaxDims> r{};
  for (int i = 0; i < nIn_; ++i)
    r[i] = (m >> in_[i].shift) & lowMask(in_[i].log2);
  return r;
}

uint64_t LinearLayout::zeroColumnMaskFlat() const {
  uint64_t m = 0;
  for (int j = 0; j < inBits_; ++j)
    if (cols_[j] == 0)
      m |= uint64_t(1) << j;
  return m;
}

std::array<uint64_t, LinearLayout::kMaxDims>
LinearLayout::zeroColumnMasks() const {
  uint64_t m = zeroColumnMaskFlat();
  std::array<uint64_t, kMaxDims> r{};
  for (int i = 0; i < nIn_; ++i)
    r[i] = (m >> in_[i].shift) & lowMask(in_[i].log2);
  return r;
}

} // namespace lk::linear
