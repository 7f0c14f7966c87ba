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
    result =
        Diagnostic::error("pseudoinvert: the layout is not surjective "
                          "(rank " +
                          std::to_string(e.rank()) +
                          " < " + std::to_string(outBits_) + " output bits)");
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
    return Diagnostic::error("invertAndCompose: the layouts have different "
                             "output dims");
  for (int k = 0; k < nOut_; ++k) {
    int p = outer.outDimIndex(out_[k].id);
    if (p < 0)
      return Diagnostic::error("invertAndCompose: output dim '" +
                               name(out_[k].id) +
                               "' is missing in the outer "
                               "layout");
    if (out_[k].log2 > outer.out_[p].log2)
      return Diagnostic::error("invertAndCompose: output dim '" +
                               name(out_[k].id) +
                               "' is larger than in the outer layout");
  }
  LK_TRY(LinearLayout inv, outer.pseudoinvert());
  return compose(inv);
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
