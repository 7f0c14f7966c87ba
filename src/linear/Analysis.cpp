//===- Analysis.cpp - Families and code-generation utilities --------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/Analysis.h"

#include <algorithm>
#include <numeric>

namespace lk::linear {
namespace {

using namespace dims;

/// The layout with its output dims ordered by `order` (fastest first) and
/// flattened into one dim (fastest dim in the low bits).
Expected<LinearLayout> flattenInOrder(const LinearLayout &l,
                                      std::span<const unsigned> order) {
  int rank = l.numOutDims();
  std::vector<DimId> names;
  if (order.empty()) {
    for (int k = rank - 1; k >= 0; --k)
      names.push_back(l.outDim(k).id);
  } else {
    if (order.size() != size_t(rank))
      return Diagnostic::error("the order must list every output dim");
    for (unsigned o : order) {
      if (o >= unsigned(rank))
        return Diagnostic::error("order entry " + std::to_string(o) +
                                 " is out of range");
      names.push_back(l.outDim(int(o)).id);
    }
  }
  LK_TRY(LinearLayout t, l.transposeOuts(std::span<const DimId>(names)));
  return t.flattenOuts();
}

} // namespace

bool isDistributed(const LinearLayout &l) {
  uint64_t seen = 0;
  for (uint64_t c : l.columns()) {
    if (c & (c - 1))
      return false;
    if (c & seen)
      return false;
    seen |= c;
  }
  return true;
}

bool isMemory(const LinearLayout &l) {
  for (uint64_t c : l.columns()) {
    int n = __builtin_popcountll(c);
    if (n < 1 || n > 2)
      return false;
  }
  return l.isInvertible();
}

Expected<std::vector<unsigned>> outDimOrder(const LinearLayout &l,
                                            std::span<const int64_t> order) {
  const int n = l.numOutDims();
  std::vector<unsigned> r;
  for (size_t i = 0; i < order.size(); ++i) {
    const int64_t v = order[i]; // checked before the narrowing: no wrap
    if (v < 0 || v >= n)
      return Diagnostic::error(
          "order entry " + std::to_string(i) + " is " + std::to_string(v) +
          "; expected an out-dim index in [0, " + std::to_string(n) + ")");
    if (std::find(r.begin(), r.end(), unsigned(v)) != r.end())
      return Diagnostic::error("order names out-dim " + std::to_string(v) +
                               " twice");
    r.push_back(unsigned(v));
  }
  if (!r.empty() && r.size() != size_t(n))
    return Diagnostic::error("order has " + std::to_string(r.size()) +
                             (r.size() == 1 ? " entry" : " entries") +
                             "; the layout has " + std::to_string(n) +
                             " out-dims");
  return r;
}

Expected<int64_t> contiguousElements(const LinearLayout &l,
                                     std::span<const unsigned> order) {
  int r = l.inDimIndex(kRegister);
  if (r < 0)
    return Diagnostic::error("the layout has no register dim");
  LK_TRY(LinearLayout f, flattenInOrder(l, order));
  int shift = f.inShift(r), n = f.inDim(r).log2;
  int consec = 0;
  while (consec < n && f.column(shift + consec) == (uint64_t(1) << consec))
    ++consec;
  uint64_t other = 0;
  for (int j = 0; j < f.totalInBits(); ++j)
    if (j < shift || j >= shift + consec)
      other |= f.column(j);
  int tz = other ? __builtin_ctzll(other) : 63;
  return int64_t(1) << std::min(consec, tz);
}

Expected<int64_t> contiguousElementsPerDim(const LinearLayout &l,
                                           std::span<const unsigned> order) {
  int r = l.inDimIndex(kRegister);
  if (r < 0)
    return Diagnostic::error("contiguousElementsPerDim: no register dim");
  int fastest = order.empty() ? l.numOutDims() - 1 : int(order[0]);
  if (fastest < 0 || fastest >= l.numOutDims())
    return Diagnostic::error("contiguousElementsPerDim: bad order");
  DimId fd = l.outDim(fastest).id;
  int consec = 0;
  for (int b = 0; b < l.inDim(r).log2; ++b) {
    bool unit = l.basis(kRegister, b, fd) == (int64_t(1) << consec);
    for (int k = 0; k < l.numOutDims() && unit; ++k)
      if (k != fastest)
        unit = l.basis(kRegister, b, l.outDim(k).id) == 0;
    if (!unit)
      break;
    ++consec;
  }
  return int64_t(1) << consec;
}

Expected<int64_t> accessBits(const LinearLayout &l, int elemBits,
                             std::span<const unsigned> order, int maxBits) {
  LK_TRY(int64_t n, contiguousElements(l, order));
  return std::min<int64_t>(n * elemBits, maxBits);
}

uint64_t Duplicates::freeMask(const LinearLayout &l, DimId d) const {
  int i = l.inDimIndex(d);
  return i < 0 ? 0 : freeMasks[size_t(i)];
}

bool Duplicates::any() const {
  return std::any_of(freeMasks.begin(), freeMasks.end(),
                     [](uint64_t m) { return m != 0; });
}

Duplicates duplicates(const LinearLayout &l) {
  Duplicates d;
  d.freeMasks = l.freeVariableMasks();
  d.zeroMasks = l.zeroColumnMasks();
  return d;
}

Expected<LinearLayout> registerToOffset(const LinearLayout &reg,
                                        const LinearLayout &mem) {
  return reg.invertAndCompose(mem);
}

Expected<Vectorization> largestVectorization(const LinearLayout &regToOffset,
                                             bool allowPermutation) {
  if (regToOffset.numOutDims() != 1)
    return Diagnostic::error("largestVectorization: expected one output dim "
                             "(the offset)");
  DimId off = regToOffset.outDim(0).id;
  int nreg = regToOffset.inDimLog2(kRegister);
  for (int k = nreg; k >= 0; --k) {
    LK_TRY(LinearLayout tile,
           LinearLayout::identity1D(int64_t(1) << k, kRegister, off));
    if (allowPermutation) {
      Expected<PermutedQuotient> q =
          divideLeftWithPermutation(regToOffset, tile);
      if (q)
        return Vectorization{int64_t(1) << k, std::move(q->perm)};
    } else if (divideLeft(regToOffset, tile)) {
      std::vector<int> id(static_cast<size_t>(nreg), 0);
      std::iota(id.begin(), id.end(), 0);
      return Vectorization{int64_t(1) << k, std::move(id)};
    }
  }
  return Diagnostic::error("largestVectorization: no vectorization possible");
}

Expected<LinearLayout> matrixInstructionTile(int elemBytes, DimId offset) {
  if (elemBytes != 1 && elemBytes != 2 && elemBytes != 4)
    return Diagnostic::error("matrixInstructionTile: element width must be 1, "
                             "2 or 4 bytes");
  LK_TRY(LinearLayout regs,
         LinearLayout::identity1D(4 / elemBytes, kRegister, offset));
  LK_TRY(LinearLayout lanes, LinearLayout::identity1D(4, kLane, offset));
  return product(regs, lanes);
}

Expected<PermutedQuotient>
matrixInstructionApplies(const LinearLayout &regToOffset, int elemBytes) {
  if (regToOffset.numOutDims() != 1)
    return Diagnostic::error(
        "ldmatrix/stmatrix: expected a register -> offset map");
  LK_TRY(LinearLayout tile,
         matrixInstructionTile(elemBytes, regToOffset.outDim(0).id));
  return divideLeftWithPermutation(regToOffset, tile);
}

} // namespace lk::linear
