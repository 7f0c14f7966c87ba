//===- LinearDivide.cpp - Division of linear layouts ----------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// divideLeft, divideRight and divideLeftWithPermutation: the quotient Q
// with A = B x Q (or Q x C).
//
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/LinearLayout.h"

#include "LinearSupport.h"

#include "layoutkit/core/Bits.h"

#include <algorithm>

namespace lk::linear {

using namespace detail;

//===----------------------------------------------------------------------===//
// Division
//===----------------------------------------------------------------------===//

namespace {

/// Fails unless every dim of the divisor `D` fits in the dividend's dim of
/// the same name (`op` names the operation in the message).
Status checkDivisorFits(const char *op, const LinearLayout &A,
                        const LinearLayout &D) {
  for (int i = 0; i < D.numInDims(); ++i)
    if (D.inDim(i).log2 > 0 && A.inDimLog2(D.inDim(i).id) < D.inDim(i).log2)
      return Diagnostic::error(
          std::string(op) + ": input dim '" + name(D.inDim(i).id) +
          "' of the divisor is larger than the dividend's");
  for (int k = 0; k < D.numOutDims(); ++k)
    if (D.outDim(k).log2 > 0 && A.outDimLog2(D.outDim(k).id) < D.outDim(k).log2)
      return Diagnostic::error(
          std::string(op) + ": output dim '" + name(D.outDim(k).id) +
          "' of the divisor is larger than the dividend's");
  return Ok{};
}

/// The quotient's output dims: A's, each divided by the divisor's size.
std::vector<OutDim> quotientOutDims(const LinearLayout &A,
                                    const LinearLayout &D) {
  std::vector<OutDim> outs;
  for (int k = 0; k < A.numOutDims(); ++k) {
    DimSize d = A.outDim(k);
    outs.push_back({d.id, int64_t(1) << (d.log2 - D.outDimLog2(d.id))});
  }
  return outs;
}

} // namespace

Expected<LinearLayout> divideLeft(const LinearLayout &A,
                                  const LinearLayout &B) {
  LK_CHECK(checkDivisorFits("divide_left", A, B));
  std::vector<OutDim> outs = quotientOutDims(A, B);
  std::vector<InDimBases> ins;
  for (int i = 0; i < A.numInDims(); ++i) {
    DimSize d = A.inDim(i);
    int nb = B.inDimLog2(d.id);
    InDimBases q{d.id, {}};
    for (int b = 0; b < d.log2; ++b) {
      std::vector<int64_t> v(A.numOutDims());
      for (int k = 0; k < A.numOutDims(); ++k) {
        DimId o = A.outDim(k).id;
        int64_t a = A.basis(d.id, b, o);
        if (b < nb) {
          if (a != B.basis(d.id, b, o))
            return Diagnostic::error(
                "divide_left: basis " + std::to_string(b) + " of '" +
                name(d.id) + "' differs from the divisor's on '" + name(o) +
                "' (" + std::to_string(a) + " vs " +
                std::to_string(B.basis(d.id, b, o)) + ")");
        } else {
          int low = B.outDimLog2(o);
          if (a & ((int64_t(1) << low) - 1))
            return Diagnostic::error(
                "divide_left: basis " + std::to_string(b) + " of '" +
                name(d.id) + "' has a value " + std::to_string(a) + " on '" +
                name(o) + "' that is not a multiple of the divisor's size " +
                std::to_string(int64_t(1) << low));
          v[k] = a >> low;
        }
      }
      if (b >= nb)
        q.bases.push_back(std::move(v));
    }
    ins.push_back(std::move(q));
  }
  return LinearLayout::make(std::span<const InDimBases>(ins),
                            std::span<const OutDim>(outs));
}

Expected<LinearLayout> divideRight(const LinearLayout &A,
                                   const LinearLayout &C) {
  LK_CHECK(checkDivisorFits("divide_right", A, C));
  std::vector<OutDim> outs = quotientOutDims(A, C);
  std::vector<InDimBases> ins;
  for (int i = 0; i < A.numInDims(); ++i) {
    DimSize d = A.inDim(i);
    int nc = C.inDimLog2(d.id);
    int nb = d.log2 - nc;
    InDimBases q{d.id, {}};
    for (int b = 0; b < d.log2; ++b) {
      std::vector<int64_t> v(A.numOutDims());
      for (int k = 0; k < A.numOutDims(); ++k) {
        DimId o = A.outDim(k).id;
        int64_t a = A.basis(d.id, b, o);
        if (b >= nb) {
          int64_t want = C.basis(d.id, b - nb, o)
                         << int(__builtin_ctzll(uint64_t(outs[k].size)));
          if (a != want)
            return Diagnostic::error("divide_right: basis " +
                                     std::to_string(b) + " of '" + name(d.id) +
                                     "' differs from the divisor's on '" +
                                     name(o) + "' (" + std::to_string(a) +
                                     " vs " + std::to_string(want) + ")");
        } else {
          if (a >= outs[k].size)
            return Diagnostic::error(
                "divide_right: basis " + std::to_string(b) + " of '" +
                name(d.id) + "' reaches the divisor's part of '" + name(o) +
                "' (value " + std::to_string(a) + ")");
          v[k] = a;
        }
      }
      if (b < nb)
        q.bases.push_back(std::move(v));
    }
    ins.push_back(std::move(q));
  }
  return LinearLayout::make(std::span<const InDimBases>(ins),
                            std::span<const OutDim>(outs));
}

Expected<PermutedQuotient> divideLeftWithPermutation(const LinearLayout &A,
                                                     const LinearLayout &B,
                                                     DimId dim) {
  int ia = A.inDimIndex(dim);
  int na = ia < 0 ? 0 : A.inDim(ia).log2;
  std::vector<int> perm;
  std::vector<bool> used(size_t(na), false);
  for (int b = 0; b < B.inDimLog2(dim); ++b) {
    bool found = false;
    for (int j = 0; j < na && !found; ++j) {
      if (used[size_t(j)])
        continue;
      bool same = true;
      for (int k = 0; k < A.numOutDims() && same; ++k)
        same =
            A.basis(dim, j, A.outDim(k).id) == B.basis(dim, b, A.outDim(k).id);
      for (int k = 0; k < B.numOutDims() && same; ++k)
        same =
            A.hasOutDim(B.outDim(k).id) || B.basis(dim, b, B.outDim(k).id) == 0;
      if (same) {
        used[size_t(j)] = true;
        perm.push_back(j);
        found = true;
      }
    }
    if (!found)
      return Diagnostic::error(
          "divide_left: basis " + std::to_string(b) + " of '" + name(dim) +
          "' of the divisor is not a basis of the dividend");
  }
  for (int j = 0; j < na; ++j)
    if (!used[size_t(j)])
      perm.push_back(j);
  LinearLayout permuted = A;
  if (ia >= 0) {
    LK_TRY(permuted, A.permuteBases(dim, perm));
  }
  LK_TRY(LinearLayout q, divideLeft(permuted, B));
  return PermutedQuotient{std::move(perm), std::move(q)};
}

} // namespace lk::linear
