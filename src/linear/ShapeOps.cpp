//===- ShapeOps.cpp - Layouts that make shape operations no-ops -----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/ShapeOps.h"

#include "layoutkit/core/Bits.h"

#include <algorithm>
#include <vector>

namespace lk::linear {
namespace {

using namespace dims;

/// Fails unless the output dims are dim0..dim{rank-1} in order.
Status checkStandard(const LinearLayout &l, const char *op) {
  if (l.numOutDims() > kNumStandardOutDims)
    return Diagnostic::error(std::string(op) + ": too many output dims");
  for (int k = 0; k < l.numOutDims(); ++k)
    if (l.outDim(k).id != dim(k))
      return Diagnostic::error(std::string(op) +
                               ": output dims must be dim0, dim1, ... in order "
                               "(found '" +
                               std::string(dimName(l.outDim(k).id)) + "')");
  return Ok{};
}

std::vector<int64_t> shapeOf(const LinearLayout &l) {
  std::vector<int64_t> s;
  for (int k = 0; k < l.numOutDims(); ++k)
    s.push_back(l.outDim(k).size());
  return s;
}

std::vector<DimId> standard(size_t rank) {
  std::vector<DimId> r;
  for (size_t i = 0; i < rank; ++i)
    r.push_back(dim(int(i)));
  return r;
}

Status checkPermutation(std::span<const unsigned> order, size_t rank) {
  if (order.size() != rank)
    return Diagnostic::error(
        "trans: order has " + std::to_string(order.size()) +
        " entries; the tensor has rank " + std::to_string(rank));
  std::vector<bool> seen(rank, false);
  for (size_t i = 0; i < order.size(); ++i) {
    const unsigned o = order[i];
    if (o >= rank || seen[o])
      return Diagnostic::error(
          "trans: order entry " + std::to_string(i) + " is " +
          std::to_string(o) +
          (o >= rank ? "; the tensor has rank " + std::to_string(rank)
                     : ", named before; order is a permutation of 0.." +
                           std::to_string(rank - 1)));
    seen[o] = true;
  }
  return Ok{};
}

/// Rebuilds `l` with output dims renamed: dim k of `l` becomes names[k].
Expected<LinearLayout> renameOuts(const LinearLayout &l,
                                  const std::vector<DimId> &names) {
  std::vector<DimSize> ins, outs;
  for (int i = 0; i < l.numInDims(); ++i)
    ins.push_back(l.inDim(i));
  for (int k = 0; k < l.numOutDims(); ++k)
    outs.push_back({names[size_t(k)], l.outDim(k).log2});
  return LinearLayout::fromColumns(ins, outs, l.columns());
}

/// Row-major reshape of the outputs to `shape`.
Expected<LinearLayout> reshapeRowMajor(const LinearLayout &l,
                                       std::span<const int64_t> shape) {
  // Sizes are compared as log2 sums: a product of the shape may not fit.
  int64_t bits = 0;
  for (int64_t s : shape) {
    if (!isPow2(s))
      return Diagnostic::error("reshape: every dim must be a power of two");
    bits += log2Exact(s);
  }
  if (bits != l.totalOutBits())
    return Diagnostic::error(
        "reshape: the new shape has 2^" + std::to_string(bits) +
        " elements; the tensor has 2^" + std::to_string(l.totalOutBits()));
  std::vector<DimId> rev;
  for (int k = l.numOutDims() - 1; k >= 0; --k)
    rev.push_back(l.outDim(k).id);
  LK_TRY(LinearLayout t, l.transposeOuts(std::span<const DimId>(rev)));
  std::vector<OutDim> newOuts;
  for (size_t i = shape.size(); i-- > 0;)
    newOuts.push_back({dim(int(i)), shape[i]});
  LK_TRY(LinearLayout r, t.reshapeOuts(std::span<const OutDim>(newOuts)));
  std::vector<DimId> std_ = standard(shape.size());
  return r.transposeOuts(std::span<const DimId>(std_));
}

} // namespace

Expected<LinearLayout> transForward(const LinearLayout &src,
                                    std::span<const unsigned> order) {
  LK_CHECK(checkStandard(src, "trans"));
  LK_CHECK(checkPermutation(order, size_t(src.numOutDims())));
  std::vector<DimId> perm;
  for (unsigned o : order)
    perm.push_back(dim(int(o)));
  LK_TRY(LinearLayout t, src.transposeOuts(std::span<const DimId>(perm)));
  return renameOuts(t, standard(order.size()));
}

Expected<LinearLayout> transBackward(const LinearLayout &dst,
                                     std::span<const unsigned> order) {
  LK_CHECK(checkPermutation(order, size_t(dst.numOutDims())));
  std::vector<unsigned> inverse(order.size());
  for (size_t i = 0; i < order.size(); ++i)
    inverse[order[i]] = unsigned(i);
  return transForward(dst, inverse);
}

Expected<LinearLayout> reshapeForward(const LinearLayout &src,
                                      std::span<const int64_t> dstShape) {
  LK_CHECK(checkStandard(src, "reshape"));
  return reshapeRowMajor(src, dstShape);
}

Expected<LinearLayout> reshapeBackward(const LinearLayout &dst,
                                       std::span<const int64_t> srcShape) {
  LK_CHECK(checkStandard(dst, "reshape"));
  return reshapeRowMajor(dst, srcShape);
}

Expected<LinearLayout> expandDimsForward(const LinearLayout &src, int axis) {
  LK_CHECK(checkStandard(src, "expand_dims"));
  int rank = src.numOutDims();
  if (axis < 0 || axis > rank)
    return Diagnostic::error("expand_dims: axis " + std::to_string(axis) +
                             " is outside [0, " + std::to_string(rank) + "]");
  std::vector<int64_t> shape = shapeOf(src);
  shape.insert(shape.begin() + axis, 1);
  return reshapeRowMajor(src, shape);
}

Expected<LinearLayout> expandDimsBackward(const LinearLayout &dst, int axis) {
  LK_CHECK(checkStandard(dst, "expand_dims"));
  int rank = dst.numOutDims();
  if (axis < 0 || axis >= rank)
    return Diagnostic::error("expand_dims: axis " + std::to_string(axis) +
                             " is outside [0, " + std::to_string(rank) + ")");
  if (dst.outDim(axis).log2 != 0)
    return Diagnostic::error("expand_dims: dim " + std::to_string(axis) +
                             " of the result must have size 1");
  std::vector<int64_t> shape = shapeOf(dst);
  shape.erase(shape.begin() + axis);
  return reshapeRowMajor(dst, shape);
}

Expected<LinearLayout> broadcastForward(const LinearLayout &src,
                                        std::span<const int64_t> dstShape) {
  LK_CHECK(checkStandard(src, "broadcast"));
  if (dstShape.size() != size_t(src.numOutDims()))
    return Diagnostic::error(
               "broadcast: the result must have the operand's rank")
        .about("shape");
  LinearLayout r = src;
  for (size_t k = 0; k < dstShape.size(); ++k) {
    int64_t have = src.outDim(int(k)).size(), want = dstShape[k];
    if (want == have)
      continue;
    if (have != 1 || !isPow2(want))
      return Diagnostic::error("broadcast: dim " + std::to_string(k) +
                               " can only grow from size 1 to a power of two")
          .about("shape");
    LK_TRY(LinearLayout rep,
           LinearLayout::identity1D(want, kRegister, dim(int(k))));
    LK_TRY(r, product(r, rep, "broadcast"));
  }
  return r;
}

Expected<LinearLayout> broadcastBackward(const LinearLayout &dst,
                                         std::span<const int64_t> srcShape) {
  LK_CHECK(checkStandard(dst, "broadcast"));
  if (srcShape.size() != size_t(dst.numOutDims()))
    return Diagnostic::error(
        "broadcast: the operand must have the result's rank");
  std::vector<InDimBases> ins = dst.allBases();
  std::vector<OutDim> outs = dst.outDims();
  for (size_t k = 0; k < srcShape.size(); ++k) {
    if (srcShape[k] == outs[k].size)
      continue;
    if (srcShape[k] != 1)
      return Diagnostic::error("broadcast: operand dim " + std::to_string(k) +
                               " must be 1 or the result's size");
    outs[k].size = 1;
    for (InDimBases &in : ins)
      for (auto &b : in.bases)
        b[k] = 0;
  }
  for (InDimBases &in : ins) {
    if (in.dim != kRegister)
      continue;
    std::vector<std::vector<int64_t>> kept;
    for (auto &b : in.bases)
      if (std::any_of(b.begin(), b.end(), [](int64_t v) { return v != 0; }))
        kept.push_back(std::move(b));
    in.bases = std::move(kept);
  }
  return LinearLayout::make(std::span<const InDimBases>(ins),
                            std::span<const OutDim>(outs));
}

Expected<LinearLayout> joinForward(const LinearLayout &src, const char *op) {
  LK_CHECK(checkStandard(src, op));
  int rank = src.numOutDims();
  if (rank >= kNumStandardOutDims)
    return Diagnostic::error(std::string(op) + ": the operand has " +
                             std::to_string(rank) + " dims; " + op +
                             " adds one and a layout has at most " +
                             std::to_string(kNumStandardOutDims));
  LK_TRY(LinearLayout sel, LinearLayout::identity1D(2, kRegister, dim(rank)));
  LK_TRY(LinearLayout r, product(sel, src, op));
  std::vector<DimId> std_ = standard(size_t(rank + 1));
  return r.transposeOuts(std::span<const DimId>(std_));
}

Expected<LinearLayout> joinBackward(const LinearLayout &dst, const char *op) {
  LK_CHECK(checkStandard(dst, op));
  int rank = dst.numOutDims();
  if (rank == 0)
    return Diagnostic::error(std::string(op) +
                             ": the minor dim must have size 2; the layout "
                             "has no dim");
  if (dst.outDim(rank - 1).log2 != 1)
    return Diagnostic::error(std::string(op) +
                             ": the minor dim must have size 2; dim" +
                             std::to_string(rank - 1) + " has size " +
                             std::to_string(dst.outDim(rank - 1).size()));
  std::vector<InDimBases> ins = dst.allBases();
  size_t minor = size_t(rank - 1);
  int holder = -1;
  // The minor dim must be one register bit's alone: a basis of another
  // dim on it, or a second one, means the split would move data.
  auto moves = [&](std::string why) {
    return Diagnostic::error(std::string(op) + ": " + why +
                             "; the split "
                             "would move data (dim" +
                             std::to_string(minor) +
                             ", the minor dim, must be one register bit's "
                             "alone)");
  };
  for (InDimBases &in : ins)
    for (size_t b = 0; b < in.bases.size(); ++b) {
      if (in.bases[b][minor] == 0)
        continue;
      const std::string basis =
          std::string(dimName(in.dim)) + " basis " + std::to_string(b);
      if (in.dim != kRegister)
        return moves(basis + " moves the minor dim");
      for (size_t k = 0; k < minor; ++k)
        if (in.bases[b][k] != 0)
          return moves(basis + " moves dim" + std::to_string(k) + " too");
      if (holder >= 0)
        return moves("register bases " + std::to_string(holder) + " and " +
                     std::to_string(b) + " both move it");
      holder = int(b);
    }
  if (holder < 0)
    return Diagnostic::error(std::string(op) +
                             ": no register selects the minor dim");
  std::vector<OutDim> outs = dst.outDims();
  outs.pop_back();
  for (InDimBases &in : ins) {
    if (in.dim == kRegister)
      in.bases.erase(in.bases.begin() + holder);
    for (auto &b : in.bases)
      b.pop_back();
  }
  return LinearLayout::make(std::span<const InDimBases>(ins),
                            std::span<const OutDim>(outs));
}

} // namespace lk::linear
