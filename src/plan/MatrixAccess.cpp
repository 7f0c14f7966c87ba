//===- MatrixAccess.cpp - ldmatrix / stmatrix in a shared-memory plan ----===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/MatrixAccess.h"

#include "MatrixRows.h"

#include "layoutkit/linear/Analysis.h"

namespace lk::plan {

using linear::LinearLayout;
namespace dims = linear::dims;

int64_t MatrixAccess::registerMask() const {
  int64_t m = halfRegBit >= 0 ? int64_t(1) << halfRegBit : 0;
  for (int b : matrixRegBits)
    m |= int64_t(1) << b;
  return m;
}

int64_t matrixElementRegister(const MatrixAccess &m, int64_t base, int64_t j,
                              int64_t h) {
  int64_t r = base;
  if (h)
    r |= int64_t(1) << m.halfRegBit;
  for (size_t k = 0; k < m.matrixRegBits.size(); ++k)
    if (j >> k & 1)
      r |= int64_t(1) << m.matrixRegBits[k];
  return r;
}

MatrixRowStart matrixRowStart(const MatrixAccess &m, int64_t base,
                              int64_t lane) {
  int64_t j = lane >> 3, i = lane & 7;
  if (!m.trans)
    return {matrixElementRegister(m, base, j, 0), i << 2};
  return {matrixElementRegister(m, base, j, i & 1), i >> 1};
}

Expected<MatrixAccess> matchMatrixAccess(const LinearLayout &side,
                                         const LinearLayout &memory, bool trans,
                                         int maxMatrixBits) {
  // register/lane/warp -> offset: the 16-byte rows are offset bits 0, 1, 2.
  LK_TRY(LinearLayout regToOffset, linear::registerToOffset(side, memory));
  const int rows[3] = {0, 1, 2};
  return matchMatrixRows(regToOffset, rows, trans, maxMatrixBits);
}

namespace detail {

RowFit fitMatrixRows(const LinearLayout &side, std::span<const int> rowBits,
                     bool trans, int maxMatrixBits, MatrixAccess &m) {
  if (side.inDimSize(dims::kLane) != 32)
    return {RowMismatch::LaneCount, 0, uint64_t(side.inDimSize(dims::kLane))};
  if (maxMatrixBits < 0 || maxMatrixBits > 2)
    return {RowMismatch::MatrixLimit, 0, 0};
  if (rowBits.size() != 3)
    return {RowMismatch::RowCount, 0, uint64_t(rowBits.size())};
  const int outBits = side.totalOutBits();
  uint64_t rowMask = 0;
  for (int i = 0; i < 3; ++i) {
    int b = rowBits[size_t(i)];
    if (b < 0 || b >= outBits || (rowMask >> b & 1))
      return {RowMismatch::RowBit, i, 0};
    rowMask |= uint64_t(1) << b;
  }
  auto row = [&](int i) { return uint64_t(1) << rowBits[size_t(i)]; };
  const int regBits = side.inDimLog2(dims::kRegister);
  const int laneShift = side.inShift(side.inDimIndex(dims::kLane));
  m = MatrixAccess{};
  m.trans = trans;
  if (!trans) {
    // Theorem 5.1 over these rows: lane bits 0, 1 are rows 1, 2 and a
    // register bit (the first, after the permutation) is row 0.
    for (int i = 0; i < 2; ++i)
      if (side.column(laneShift + i) != row(i + 1))
        return {RowMismatch::LaneBit, i, side.column(laneShift + i)};
    for (int b = 0; b < regBits && m.halfRegBit < 0; ++b)
      if (side.column(b) == row(0))
        m.halfRegBit = b;
  } else {
    for (int i = 0; i < 3; ++i)
      if (side.column(laneShift + 2 + i) != row(i))
        return {RowMismatch::LaneBit, 2 + i, side.column(laneShift + 2 + i)};
    for (int b = 0; b < regBits && m.halfRegBit < 0; ++b)
      if (side.column(b))
        m.halfRegBit = b;
  }
  if (m.halfRegBit < 0)
    return {RowMismatch::NoHalf, 0, 0};
  // The rows' three offset bits are exactly rowMask; every other column
  // must avoid them (the same test as matchMatrixAccess's).
  for (int c = 0; c < side.totalInBits(); ++c) {
    bool inRow =
        trans ? (c >= laneShift + 2 && c < laneShift + 5)
              : (c == m.halfRegBit || c == laneShift || c == laneShift + 1);
    if (!inRow && (side.column(c) & rowMask))
      return {RowMismatch::InsideRow, c, side.column(c)};
  }
  for (int b = 0; b < regBits && int(m.matrixRegBits.size()) < maxMatrixBits;
       ++b)
    if (b != m.halfRegBit && side.column(b))
      m.matrixRegBits.push_back(b);
  return {};
}

} // namespace detail

Expected<MatrixAccess> matchMatrixRows(const LinearLayout &side,
                                       std::span<const int> rowBits, bool trans,
                                       int maxMatrixBits) {
  MatrixAccess m;
  detail::RowFit fit =
      detail::fitMatrixRows(side, rowBits, trans, maxMatrixBits, m);
  const std::string name =
      trans ? "ldmatrix/stmatrix .trans" : "ldmatrix/stmatrix";
  using detail::RowMismatch;
  switch (fit.why) {
  case RowMismatch::None:
    return m;
  case RowMismatch::LaneCount:
    return Diagnostic::error(name + " needs 32 lanes, the layout has " +
                             std::to_string(fit.got));
  case RowMismatch::MatrixLimit:
    return Diagnostic::error(name + ": at most 4 matrices per instruction");
  case RowMismatch::RowCount:
    return Diagnostic::error(name + ": expected 3 row bits, got " +
                             std::to_string(fit.got));
  case RowMismatch::RowBit:
    return Diagnostic::error(name + ": row bit " +
                             std::to_string(rowBits[size_t(fit.at)]) +
                             " is not a distinct logical bit below " +
                             std::to_string(side.totalOutBits()));
  case RowMismatch::LaneBit: {
    int rowIndex = trans ? fit.at - 2 : fit.at + 1;
    const int row = rowBits[size_t(rowIndex)];
    return Diagnostic::error(name + ": lane bit " + std::to_string(fit.at) +
                             " is column " + std::to_string(fit.got) +
                             ", not row bit " + std::to_string(row) + " (" +
                             std::to_string(uint64_t(1) << row) + ")");
  }
  case RowMismatch::NoHalf:
    return Diagnostic::error(
        trans ? name + ": no non-zero register bit for the half"
              : name + ": no register bit is row bit " +
                    std::to_string(rowBits[0]));
  case RowMismatch::InsideRow:
    return Diagnostic::error(name + ": input bit " + std::to_string(fit.at) +
                             " moves inside a 16-byte row");
  }
  return Diagnostic::error(name + ": internal error: unknown mismatch");
}

} // namespace lk::plan
