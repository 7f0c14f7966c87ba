//===- LinearReshape.cpp - Sublayouts and reshaping dims ------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// sublayout, and the operations that reorder, reshape, rename, resize,
// concatenate or permute the dims of a layout.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/LinearLayout.h"

#include "LinearSupport.h"

#include "layoutkit/core/Bits.h"

#include <algorithm>

namespace lk::linear {

using namespace detail;

namespace {
/// Fails, prefixed by `op`, on the first of `ins` (`outs`) that is not an
/// in-dim (out-dim) of `l`, with findInDim's message (the dims listed).
Status requireDims(const LinearLayout &l, const char *op,
                   std::span<const DimId> ins, std::span<const DimId> outs) {
  auto named = [op](Diagnostic d) {
    d.message = std::string(op) + ": " + d.message;
    return d;
  };
  for (DimId d : ins)
    if (!l.hasInDim(d))
      return named(l.findInDim(name(d)).error());
  for (DimId d : outs)
    if (!l.hasOutDim(d))
      return named(l.findOutDim(name(d)).error());
  return Ok{};
}
} // namespace

Expected<LinearLayout>
LinearLayout::sublayout(std::span<const DimId> ins,
                        std::span<const DimId> outs) const {
  LK_CHECK(requireDims(*this, "sublayout", ins, outs));
  auto contains = [](std::span<const DimId> s, DimId d) {
    return std::find(s.begin(), s.end(), d) != s.end();
  };
  LinearLayout r;
  Repack rp;
  rp.identity = false;
  for (int k = 0; k < nOut_; ++k)
    if (contains(outs, out_[k].id)) {
      LK_CHECK(r.appendOut(out_[k].id, out_[k].log2));
      rp.add(out_[k].shift, out_[k].log2, r.out_[r.nOut_ - 1].shift);
    }
  for (int i = 0; i < nIn_; ++i)
    if (contains(ins, in_[i].id)) {
      uint64_t cols[64];
      for (int b = 0; b < in_[i].log2; ++b)
        cols[b] = rp(cols_[in_[i].shift + b]);
      LK_CHECK(r.appendIn(in_[i].id, in_[i].log2, cols));
    }
  return r;
}

Expected<bool>
LinearLayout::sublayoutIsZero(std::span<const DimId> ins,
                              std::span<const DimId> outs) const {
  LK_CHECK(requireDims(*this, "sublayout_is_zero", ins, outs));
  uint64_t om = 0;
  for (DimId d : outs) {
    const int k = outDimIndex(d);
    om |= lowMask(out_[k].log2) << out_[k].shift;
  }
  for (DimId d : ins) {
    const int i = inDimIndex(d);
    for (int b = 0; b < in_[i].log2; ++b)
      if (cols_[in_[i].shift + b] & om)
        return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Reshaping dims
//===----------------------------------------------------------------------===//

namespace {

/// Whether `order` names each in-dim (out-dim, `ins` false) of `l` once;
/// fails prefixed by `op`, an unknown dim with findInDim's message.
Status checkPermutation(const LinearLayout &l, std::span<const DimId> order,
                        bool ins, const char *op) {
  const int n = ins ? l.numInDims() : l.numOutDims();
  const char *what = ins ? "in" : "out";
  if (order.size() != size_t(n))
    return Diagnostic::error(std::string(op) + ": expected " +
                             std::to_string(n) + " " + what + "-dims, got " +
                             std::to_string(order.size()));
  LK_CHECK(requireDims(l, op, ins ? order : std::span<const DimId>{},
                       ins ? std::span<const DimId>{} : order));
  for (size_t i = 0; i < order.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (order[j] == order[i])
        return Diagnostic::error(std::string(op) + ": " + what + "-dim '" +
                                 name(order[i]) + "' is given twice");
  return Ok{};
}

} // namespace

Expected<LinearLayout>
LinearLayout::transposeIns(std::span<const DimId> order) const {
  LK_CHECK(checkPermutation(*this, order, true, "transpose_ins"));
  LinearLayout r;
  for (int k = 0; k < nOut_; ++k)
    LK_CHECK(r.appendOut(out_[k].id, out_[k].log2));
  for (DimId d : order) {
    int i = inDimIndex(d);
    LK_CHECK(r.appendIn(d, in_[i].log2, cols_ + in_[i].shift));
  }
  return r;
}

Expected<LinearLayout>
LinearLayout::transposeOuts(std::span<const DimId> order) const {
  LK_CHECK(checkPermutation(*this, order, false, "transpose_outs"));
  LinearLayout r;
  Repack rp;
  for (DimId d : order) {
    int k = outDimIndex(d);
    LK_CHECK(r.appendOut(d, out_[k].log2));
    rp.add(out_[k].shift, out_[k].log2, r.out_[r.nOut_ - 1].shift);
  }
  uint64_t cols[64];
  for (int i = 0; i < nIn_; ++i) {
    for (int b = 0; b < in_[i].log2; ++b)
      cols[b] = rp(cols_[in_[i].shift + b]);
    LK_CHECK(r.appendIn(in_[i].id, in_[i].log2, cols));
  }
  return r;
}

Expected<LinearLayout>
LinearLayout::reshapeIns(std::span<const OutDim> dims) const {
  LinearLayout r;
  for (int k = 0; k < nOut_; ++k)
    LK_CHECK(r.appendOut(out_[k].id, out_[k].log2));
  int j = 0;
  for (const OutDim &d : dims) {
    int k = log2Exact(d.size);
    if (k < 0)
      return Diagnostic::error("reshape_ins: size " + std::to_string(d.size) +
                               " of '" + name(d.dim) +
                               "' is not a power of two");
    if (j + k > inBits_)
      return Diagnostic::error("reshape_ins: the new dims are larger than the "
                               "input (2^" +
                               std::to_string(inBits_) + ")");
    LK_CHECK(r.appendIn(d.dim, k, cols_ + j));
    j += k;
  }
  if (j != inBits_)
    return Diagnostic::error("reshape_ins: the new dims are smaller than the "
                             "input (2^" +
                             std::to_string(inBits_) + ")");
  return r;
}

Expected<LinearLayout>
LinearLayout::reshapeOuts(std::span<const OutDim> dims) const {
  LinearLayout r;
  for (const OutDim &d : dims) {
    int k = log2Exact(d.size);
    if (k < 0)
      return Diagnostic::error("reshape_outs: size " + std::to_string(d.size) +
                               " of '" + name(d.dim) +
                               "' is not a power of two");
    LK_CHECK(r.appendOut(d.dim, k));
  }
  if (r.outBits_ != outBits_)
    return Diagnostic::error("reshape_outs: the new dims have size 2^" +
                             std::to_string(r.outBits_) +
                             ", the output has 2^" + std::to_string(outBits_));
  for (int i = 0; i < nIn_; ++i)
    LK_CHECK(r.appendIn(in_[i].id, in_[i].log2, cols_ + in_[i].shift));
  return r;
}

LinearLayout LinearLayout::flattenIns() const {
  if (nIn_ <= 1)
    return *this;
  LinearLayout r = *this;
  r.nIn_ = 1;
  r.in_[0] = Dim{in_[0].id, inBits_, 0};
  return r;
}

LinearLayout LinearLayout::flattenOuts() const {
  if (nOut_ <= 1)
    return *this;
  LinearLayout r = *this;
  r.nOut_ = 1;
  r.out_[0] = Dim{out_[0].id, outBits_, 0};
  return r;
}

LinearLayout LinearLayout::squeeze() const {
  LinearLayout r = *this;
  r.nIn_ = r.nOut_ = 0;
  for (int i = 0; i < nIn_; ++i)
    if (in_[i].log2)
      r.in_[r.nIn_++] = in_[i];
  for (int i = 0; i < nOut_; ++i)
    if (out_[i].log2)
      r.out_[r.nOut_++] = out_[i];
  return r; // shifts unchanged: the dropped dims have no bits
}

Expected<LinearLayout> LinearLayout::concatIns(const LinearLayout &o) const {
  if (nOut_ != o.nOut_ || !std::equal(out_, out_ + nOut_, o.out_))
    return Diagnostic::error(
        "concat_ins: the layouts have different output dims");
  LinearLayout r = *this;
  for (int i = 0; i < o.nIn_; ++i)
    LK_CHECK(r.appendIn(o.in_[i].id, o.in_[i].log2, o.cols_ + o.in_[i].shift));
  return r;
}

Expected<LinearLayout> LinearLayout::concatOuts(const LinearLayout &o) const {
  if (nIn_ != o.nIn_ || !std::equal(in_, in_ + nIn_, o.in_))
    return Diagnostic::error(
        "concat_outs: the layouts have different input dims");
  LinearLayout r = *this;
  for (int k = 0; k < o.nOut_; ++k)
    LK_CHECK(r.appendOut(o.out_[k].id, o.out_[k].log2));
  for (int j = 0; j < inBits_; ++j)
    r.cols_[j] = cols_[j] | (o.cols_[j] << outBits_);
  return r;
}

Expected<LinearLayout> LinearLayout::renameIn(DimId from, DimId to) const {
  LK_CHECK(requireDims(*this, "renameIn", std::span(&from, 1), {}));
  int i = inDimIndex(from);
  if (from != to && inDimIndex(to) >= 0)
    return Diagnostic::error("renameIn: input dim '" + name(to) + "' exists");
  LinearLayout r = *this;
  r.in_[i].id = to;
  return r;
}

Expected<LinearLayout> LinearLayout::renameOut(DimId from, DimId to) const {
  LK_CHECK(requireDims(*this, "renameOut", {}, std::span(&from, 1)));
  int i = outDimIndex(from);
  if (from != to && outDimIndex(to) >= 0)
    return Diagnostic::error("renameOut: output dim '" + name(to) + "' exists");
  LinearLayout r = *this;
  r.out_[i].id = to;
  return r;
}

Expected<LinearLayout> LinearLayout::resize(DimId in, int64_t newSize) const {
  LK_CHECK(requireDims(*this, "resize", std::span(&in, 1), {}));
  int i = inDimIndex(in);
  int k = log2Exact(newSize);
  if (k < 0 || k < in_[i].log2)
    return Diagnostic::error("resize: new size " + std::to_string(newSize) +
                             " must be a power of two >= " +
                             std::to_string(int64_t(1) << in_[i].log2));
  if (inBits_ + (k - in_[i].log2) > kMaxBits)
    return Diagnostic::error("resize: more than 64 input bits");
  LinearLayout r;
  for (int o = 0; o < nOut_; ++o)
    LK_CHECK(r.appendOut(out_[o].id, out_[o].log2));
  for (int d = 0; d < nIn_; ++d) {
    uint64_t cols[64] = {};
    std::copy(cols_ + in_[d].shift, cols_ + in_[d].shift + in_[d].log2, cols);
    LK_CHECK(r.appendIn(in_[d].id, d == i ? k : in_[d].log2, cols));
  }
  return r;
}

Expected<LinearLayout> LinearLayout::resizeOut(DimId out,
                                               int64_t newSize) const {
  LK_CHECK(requireDims(*this, "resizeOut", {}, std::span(&out, 1)));
  int o = outDimIndex(out);
  int k = log2Exact(newSize);
  if (k < 0)
    return Diagnostic::error("resizeOut: size " + std::to_string(newSize) +
                             " is not a power of two");
  uint64_t field = lowMask(out_[o].log2) << out_[o].shift;
  uint64_t keep = lowMask(k) << out_[o].shift;
  for (int j = 0; j < inBits_; ++j)
    if (cols_[j] & field & ~keep)
      return Diagnostic::error("resizeOut: a basis value on '" + name(out) +
                               "' does not fit size " +
                               std::to_string(newSize));
  LinearLayout r;
  Repack rp;
  rp.identity = false;
  for (int d = 0; d < nOut_; ++d) {
    LK_CHECK(r.appendOut(out_[d].id, d == o ? k : out_[d].log2));
    rp.add(out_[d].shift, std::min<int>(out_[d].log2, d == o ? k : 64),
           r.out_[d].shift);
  }
  uint64_t cols[64];
  for (int d = 0; d < nIn_; ++d) {
    for (int b = 0; b < in_[d].log2; ++b)
      cols[b] = rp(cols_[in_[d].shift + b]);
    LK_CHECK(r.appendIn(in_[d].id, in_[d].log2, cols));
  }
  return r;
}

Expected<LinearLayout>
LinearLayout::permuteBases(DimId in, std::span<const int> perm) const {
  LK_CHECK(requireDims(*this, "permuteBases", std::span(&in, 1), {}));
  int i = inDimIndex(in);
  if (perm.size() != size_t(in_[i].log2))
    return Diagnostic::error("permuteBases: expected a permutation of " +
                             std::to_string(in_[i].log2) + " bases");
  uint64_t seen = 0;
  for (int p : perm) {
    if (p < 0 || p >= in_[i].log2 || (seen >> p & 1))
      return Diagnostic::error("permuteBases: not a permutation");
    seen |= uint64_t(1) << p;
  }
  LinearLayout r = *this;
  for (size_t b = 0; b < perm.size(); ++b)
    r.cols_[in_[i].shift + b] = cols_[in_[i].shift + perm[b]];
  return r;
}

} // namespace lk::linear
